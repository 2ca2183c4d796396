"""The turn's objective as soft clauses: the ruleset's ``objective:`` levels (meld points, hand
points, melds), lexicographic by scaling, each level's weight above all the levels below it.

Meld points are not one soft clause a candidate meld: each candidate's points are *paid to its
cards* held once (:func:`~solver.melding.turn.shares.share_out`), so the optimiser's cost starts
a few points above the best turn; the stretches laid in slots and the table's forms add their
own clauses, with offsets that make a level's satisfied weight its measure exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from solver.core.deck import Face
from solver.core.ruleset import Ruleset
from solver.melding.turn.accounting import CardAccounting
from solver.melding.turn.shares import Level, Soft, share_out
from solver.melding.turn.slots import LaidOut
from solver.sat.solvers import MaxSat

Weighed = tuple[int, int, list[Face]]  # (option literal, meld-points bound, its cards held once)


@dataclass
class Optimiser:
    """A live MaxSAT optimiser of one question, with what its soft clauses were given."""

    maxsat: MaxSat
    given: dict[int, int]  # option variable -> the meld points its soft clause weighs (unscaled)
    levels: list[Level]  # per objective level, the ruleset's first first

    @property
    def meld_scale(self) -> int:
        return next((level.scale for level in self.levels if level.measure == "meld_points"), 1)


def objective(
    rs: Ruleset,
    weighed: Sequence[Weighed],
    options: Sequence[int],
    laid: LaidOut | None,
    form_gains: tuple[list[Soft], int],
    accounting: CardAccounting,
    keeps_no_card: bool,
    points: Callable[[Face], int] | None = None,
) -> tuple[list[Soft], dict[int, int], list[Level]]:
    """Soft clauses (clause, weight) over the ruleset's objective levels; the weight each option
    of ``weighed`` was given at the meld-points level; and per level its :class:`Level`.
    ``options``: every option's literal (the melds level); ``form_gains``: the table forms' soft
    clauses and offset; ``keeps_no_card``: the question goes out, so no hand points are left."""
    levels: list[tuple[str, list[Soft], int]] = []
    for goal in rs.objective:
        if goal.measure == "meld_points":
            level = share_out(list(weighed), laid.slots.ladders if laid and laid.slots else None)
            # a stretch's points above its true ones, weighed off when it is laid: satisfied
            # when it is not, which the offset takes back (as it does the losses forms avoid)
            corrections = laid.corrections if laid else []
            gains, offset = form_gains
            soft = level + [([-lit], d) for lit, d in corrections] + gains
            levels.append(("meld_points", soft, offset - sum(d for _, d in corrections)))
        elif goal.measure == "hand_points":  # a copy there is and not accounted for
            levels.append(("hand_points", [] if keeps_no_card else accounting.kept(points or rs.points), 0))
        elif goal.measure == "melds":
            levels.append(("melds", [([lit], 1) for lit in options], 0))
    given = {var: weight for var, weight, _ in weighed} if any(m == "meld_points" for m, _, _ in levels) else {}
    soft_all: list[Soft] = []
    scales: list[Level] = []
    scale = 1
    for measure, soft, offset in reversed(levels):
        soft_all += [(clause, w * scale) for clause, w in soft]
        total = sum(w for _, w in soft)
        scales.insert(0, Level(measure, total, scale, offset))
        scale *= total + 1
    return soft_all, given, scales
