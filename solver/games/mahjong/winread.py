"""A win read apart from its situation: the scorer's readings of a win's tiles with their yaku and
fu (``Scorer.read_win``), to which ``Scorer.score_read`` adds the dora, honba and riichi sticks —
a replay judges a win and then settles it under the record's dora, honba and sticks, reading the
tiles once."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from solver.games.mahjong.readings import HandFacts, Reading
from solver.games.mahjong.yaku import CompiledYaku


class ReadWithYaku(NamedTuple):
    """One reading of a win that has yaku, with its fu: what its score is made of before dora."""

    reading: Reading
    yaku: list[CompiledYaku]
    limit_hand: bool  # a yakuman or a yaku of a fixed limit among them
    fu: int
    fu_items: list[tuple[str, int]]


@dataclass(frozen=True)
class WinRead:
    """A win read apart from its situation (Scorer.read_win): what its readings share and each
    reading with yaku, in the order read."""

    facts: HandFacts
    with_yaku: tuple[ReadWithYaku, ...]
