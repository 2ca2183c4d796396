"""A rearranging turn, solved: the whole table and the hand laid out again — the best turn or going
out.

With the table rearranged freely, a turn is a partition: every card on the table, and some cards of
the hand, into legal melds; the best turn places the most hand cards, then the most value (the
values of the hand's cards placed; a wild's rank depends on where it stands, so it adds none).
Before the initial meld (``initial_meld: {from: hand}``) the table is not touched: melds of the
hand alone, worth the initial meld's points together.

Two models answer it: the compact slot model (:mod:`solver.melding.arrange.slots`, asked by
:mod:`solver.melding.arrange.slotturns`), built once per game and asked by assumptions, for
rulesets of its shape; and the candidate model (:mod:`solver.melding.arrange.bycandidates`) for any
other.
"""

from __future__ import annotations

from collections.abc import Sequence

from solver.core.deck import Face
from solver.core.errors import MeldsError, Undecided
from solver.melding.arrange.bycandidates import solve_by_candidates
from solver.melding.arrange.laid import Arrangement, Bounds, LaidMeld, MeldCatalogue
from solver.melding.arrange.shape import Shape
from solver.melding.arrange.slotturns import SlotTurns
from solver.sat.budget import Budget
from solver.sat.solvers import MaxSat


def table_melds(catalogue: MeldCatalogue, table: Sequence[Sequence[Face]]) -> list[LaidMeld]:
    """The melds on the table, each read (a table holds legal melds only: else bad input)."""
    out = []
    for faces in table:
        found = catalogue.lookup(faces)
        if found is None:
            shown = " ".join(catalogue.checker.notation.format(f) for f in faces)
            raise MeldsError(f"table meld {shown} is not a legal set: a table holds legal melds only")
        out.append(found)
    return out


def initial_points(catalogue: MeldCatalogue) -> int:
    """What the initial meld must be worth (0: the ruleset asks nothing of a first meld)."""
    rule = catalogue.ruleset.initial_meld
    return rule.points if rule is not None else 0


def slot_turns(catalogue: MeldCatalogue, shape: Shape, points: int) -> SlotTurns:
    """The game's turns through its slot model, made on first use (one live solver a game, for
    every turn and question asked of it)."""
    key = ("slots", points)
    turns = catalogue.models.get(key)
    if turns is None:
        turns = catalogue.models[key] = SlotTurns(catalogue, shape, points)
    return turns


def solve_turn(
    catalogue: MeldCatalogue,
    hand: Sequence[Face],
    table: Sequence[Sequence[Face]],
    has_melded: bool,
    points: int,
    question: str,
    max_seconds: float | None = None,
    by_candidates: bool = False,
) -> Arrangement:
    """The best turn (most hand cards placed, then most value) or whether the hand can go out;
    ``points``: what the initial meld must be worth, when the player has not melded yet (a ruleset
    with no initial meld rearranges the table from the first turn). ``by_candidates`` asks the
    candidate model even where the slot model would answer (tests)."""
    has_melded = has_melded or catalogue.ruleset.initial_meld is None
    before = table_melds(catalogue, table)  # bad input before any budget is spent
    hand = list(hand)
    budget = Budget(max_seconds)
    calls = MaxSat.calls
    try:
        with budget.guarding():  # the model's build and every call, under one budget
            if catalogue.shape is not None and not by_candidates:
                answer = slot_turns(catalogue, catalogue.shape, points).turn(
                    hand, before, not has_melded, question, budget
                )
            else:
                answer = solve_by_candidates(catalogue, hand, before, has_melded, points, question, budget)
                answer.sat_calls = MaxSat.calls - calls if question != "go-out" else 1
    except Undecided:  # the guard raises wherever the work is at the deadline, a model's build included
        known = Bounds((0, len(hand)), None) if question != "go-out" else None  # none placed yet, at most all
        answer = Arrangement(None, question, not has_melded, list(before), kept=hand, bounds=known)
        answer.sat_calls = MaxSat.calls - calls if question != "go-out" else 1
    answer.seconds = round(budget.elapsed, 4)
    return answer
