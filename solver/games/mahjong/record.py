"""A recorded game of riichi mahjong, whatever file it came from: the hands in order, each with
its start (round, honba, sticks, scores, dora, the deal), every action in the order it was played,
and the result the record states (who won, the score changes, the yaku it lists).

The readers (:mod:`solver.games.mahjong.tenhou`, :mod:`solver.games.mahjong.mjai`) fill these; the replay
(:mod:`solver.games.mahjong.replay`) plays them through the game's moves. Seats are absolute
(0 is the first player of the record); tiles are written as tenhou does (``1m`` … ``7z``, ``0m``
a red five).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple


class Move(NamedTuple):
    """One action of the record. ``verb``: draw, discard, riichi (a discard that declares), chi,
    pon, minkan, kakan, ankan, nuki (北抜き), tsumo, ron, kyuushu. Immutable, and a tuple: a record
    holds one for each of its actions, made as fast as a tuple is."""

    seat: int
    verb: str
    tile: str | None = None  # drawn, discarded, called or konged
    own: tuple[str, ...] = ()  # tiles from the hand a call uses
    source: int | None = None  # the seat a call takes from
    raw: str = ""  # the record's own notation of the action ("c375336", "<N who=1 m=43017>")


@dataclass
class WinRecord:
    """A win as the record states it."""

    seat: int
    source: int  # the seat that dealt in; the winner's own for a tsumo
    pao: int | None = None  # the seat liable for the hand (責任払い)
    deltas: list[int] | None = None  # this win's score changes as the record lists them
    fu: int | None = None
    points: int | None = None
    limit: str | None = None
    yaku: list[tuple[str, int]] = field(default_factory=list)  # (the record's name, han; 13 a yakuman)
    dora: list[str] | None = None  # the indicators the record scored this win with
    ura: list[str] | None = None
    hand: list[str] | None = None  # the winning hand as the record shows it (mjlog)

    @property
    def tsumo(self) -> bool:
        return self.seat == self.source


@dataclass
class HandRecord:
    number: int  # 1-based, in the record's order
    round: int  # 0: 東1局, 1: 東2局, …, 4: 南1局
    honba: int
    sticks: int  # riichi sticks on the table as the hand starts
    scores: list[int]  # as the hand starts
    dealer: int
    dora: list[str]  # every indicator revealed in the hand, the first one first
    ura: list[str]
    deal: list[list[str]]  # each seat's starting tiles
    moves: list[Move] = field(default_factory=list)
    result: str = ""  # 和了, 流局, 九種九牌, 四風連打, 四家立直, 四槓散了, 三家和了, 流し満貫, 全員聴牌, 全員不聴
    wins: list[WinRecord] = field(default_factory=list)
    deltas: list[int] | None = None  # the hand's score changes as the record states them (all wins)
    tenpai: list[int] | None = None  # seats the record shows in tenpai at a draw (mjlog)
    where: str = ""  # where in the file the hand is ("log[3]", "INIT #4")


@dataclass
class GameRecord:
    path: str
    format: str  # tenhou-json | tenhou-mjlog | mjai
    players: int
    names: list[str]
    hands: list[HandRecord]
    reds: int | None = None  # red fives in play (the record's rule), None: not said
    kuitan: bool | None = None  # open tanyao (the record's rule), None: not said
    length: str | None = None  # east | east-south (東風 or 東南), None: not said
    rule: str = ""  # the record's rule as it writes it ("鳳南喰赤", "GO type=169")
    final_scores: list[int] | None = None  # the standings the record ends with
    final_points: list[float] | None = None  # with uma and oka, as the record lists them
    title: str = ""
    ended: bool = False  # the record marks the game's end (mjai's end_game), final scores or not
