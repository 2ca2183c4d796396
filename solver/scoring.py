"""Points: what a meld earns (出来役加点) and what cards left in hand cost (deadwood, 罰点).

Both come from ruleset data: a kind's ``score`` table and the ruleset's ``card_points``. A meld
counts its natural cards (cards acting as wilds are not counted, "ワイルド扱いの札は枚数に含まれ
ない"); with ``segments`` a sequence split by a wild scores each run of naturals apart
("ワイルドにより分断された順は、連長を別々に計算する").

>>> from solver.ruleset import load_ruleset
>>> from solver.meld import MeldChecker
>>> with MeldChecker(load_ruleset("fesca")) as checker:
...     v = checker.check_text("土3 土4 土5 太極 土7", ordered=True)
...     meld_points(v.reading)
1
"""

from __future__ import annotations

from typing import Iterable, Sequence

from .encode import Placement, Reading
from .ruleset import Face, MeldKind, Ruleset


def counted_runs(kind: MeldKind, naturals: Sequence[bool]) -> list[int]:
    """The lengths that are looked up in the table: one per segment of naturals, or one in all."""
    score = kind.score
    if score.count == "cards":
        return [len(naturals)]
    if not (score.segments and kind.shape == "sequence"):
        return [sum(naturals)]
    runs, current = [], 0
    for natural in naturals:
        if natural:
            current += 1
        else:
            runs.append(current)
            current = 0
    runs.append(current)
    return [r for r in runs if r]


def points_for(kind: MeldKind, naturals: Sequence[bool]) -> int:
    """Meld points of a kind whose cards, in table order, are natural (True) or wild (False)."""
    if kind.score is None:
        return 0
    return sum(kind.score.points(n) for n in counted_runs(kind, naturals))


def meld_points(reading: Reading) -> int:
    placements: Iterable[Placement] = reading.placements
    if reading.kind.shape == "sequence":
        placements = sorted(placements, key=lambda p: p.offset)
    return points_for(reading.kind, [not p.wild for p in placements])


def hand_points(ruleset: Ruleset, faces: Iterable[Face]) -> int:
    """Card points of cards left in a hand: deadwood (Basic Rummy), 罰点 (Fesca)."""
    return sum(ruleset.points(f) for f in faces)
