"""Where each copy of each card goes in a turn: melded, discarded, or kept.

Per face ``f`` of the turn (the hand's cards, and those table forms may take):

* ``melded[k]`` — at least ``k`` copies of ``f`` are played into melds (a ladder for a card held
  once, a counter otherwise), over the literals of the options that play it;
* ``supply[f][k]`` — at least ``k`` copies are in hand: the held ones (``TRUE``) and those the
  chosen forms take from the table (a counter over their releases); ``None`` past the most;
* ``discard[f]`` — ``f`` is the turn's discard, which needs a copy not melded;
* ``accounted[f][k - 1]`` — copy ``k`` is accounted for: ``k`` copies melded, or ``k - 1`` melded
  and one discarded. Going out is every copy there is accounted for; the hand points a turn
  keeps are the copies there are and not accounted for.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from solver.core.deck import Face
from solver.sat.encodings import TRUE, exact_counter
from solver.sat.pool import VarPool
from solver.sat.search import any_of_at_most_one

Clause = list[int]
Step = int | None  # a literal, TRUE, or None (never)


@dataclass(frozen=True)
class CardAccounting:
    """The literals of the module's docstring, for every face of a turn."""

    discard: dict[Face, int]
    supply: dict[Face, list[Step]]
    accounted: dict[Face, list[int]]

    def going_out(self, goal: int) -> list[Clause]:
        """Under ``goal``: every copy there is, accounted for."""
        return [
            [-goal, a] + ([-_lit(supply[k])] if (supply := self.supply[face])[k] is not TRUE else [])
            for face, acc in self.accounted.items()
            for k, a in enumerate(acc, 1)
        ]

    def kept(self, points: Callable[[Face], int]) -> list[tuple[Clause, int]]:
        """Soft clauses weighing the points of each copy there is and not accounted for."""
        return [
            ([a] + ([-_lit(self.supply[face][k])] if self.supply[face][k] is not TRUE else []), points(face))
            for face, acc in self.accounted.items()
            for k, a in enumerate(acc, 1)
            if points(face) > 0
        ]


def account_cards(
    faces: Sequence[Face],
    held: Counter[Face],
    most: Counter[Face],
    uses: dict[Face, list[int]],
    releases: dict[Face, list[int]],
    discard: dict[Face, int],
    discard_optional: bool,
    pool: VarPool,
    clauses: list[Clause],
    check: Callable[[], None],
) -> CardAccounting:
    """The accounting of every face, its clauses appended to ``clauses``. ``held``: copies in the
    hand; ``most``: the most the turn may hold; ``uses``: per face, the literals of what plays a
    copy; ``releases``: per face, what takes a copy from the table; ``discard_optional``: a
    discard exactly when a copy would stay; ``check`` is called per face (a budget's)."""
    d_lits = list(discard.values())
    supplies: dict[Face, list[Step]] = {}
    accounted: dict[Face, list[int]] = {}
    for face in faces:
        check()
        top = most[face]
        if top == 1:  # a card held once: melded by one option at most (a ladder, not a counter)
            melded: list[Step] = [TRUE, any_of_at_most_one(uses[face], pool, clauses), None]
        else:
            melded = exact_counter(uses[face], top + 1, pool, clauses)  # melded[k]: >= k copies melded
        supply: list[Step] = [TRUE] * (held[face] + 1) + [None] * (top + 1 - held[face])
        if releases.get(face):
            supply[held[face] + 1 :] = exact_counter(releases[face], top - held[face], pool, clauses)[1:] + [None]
        supplies[face] = supply
        _no_more_than_supplied(melded, supply, held[face], top, clauses)
        d = discard[face]
        for k in range(top + 1):  # a discard needs a copy not melded
            m, s = melded[k], supply[k + 1]
            if m is not None and s is not TRUE:
                clauses.append([-d] + ([-m] if m is not TRUE else []) + ([s] if s is not None else []))
        accounted[face] = _accounted(melded, supply, d, d_lits, top, discard_optional, pool, clauses)
    return CardAccounting(discard, supplies, accounted)


def _lit(step: Step) -> int:
    """A step that may hold: its literal (or TRUE)."""
    if step is None:
        raise ValueError("a step that never holds has no literal")
    return step


def _no_more_than_supplied(melded: list[Step], supply: list[Step], held: int, top: int, clauses: list[Clause]) -> None:
    for k in range(held + 1, top + 2):  # no more copies melded than there are
        m, s = melded[k], supply[k]
        if m is not None:
            clauses.append([-m] + ([s] if s is not None else []))


def _accounted(
    melded: list[Step],
    supply: list[Step],
    d: int,
    d_lits: list[int],
    top: int,
    discard_optional: bool,
    pool: VarPool,
    clauses: list[Clause],
) -> list[int]:
    acc = []
    for k in range(1, top + 1):
        # copy k is accounted for: k copies melded, or k-1 melded and one discarded
        m, s = melded[k], supply[k]
        either = [] if m is None else [m]
        prev = melded[k - 1]
        if prev is TRUE:
            either.append(d)
        elif prev is not None:
            both = pool.new()
            clauses += [[-both, d], [-both, prev], [both, -d, -prev]]
            either.append(both)
        a = pool.new()
        clauses.append([-a] + either)
        clauses += [[a, -lit] for lit in either]
        acc.append(a)
        if discard_optional and s is not None:  # a discard exactly when a copy would stay
            clauses.append(([-s] if s is not TRUE else []) + d_lits + ([m] if m is not None else []))
    return acc
