"""A Rummikub turn: the whole table and the rack, rearranged — the best turn or going out.

After the initial meld the table may be rearranged freely, so a turn is a partition: every tile
on the table, and some tiles of the rack, into legal sets; the best turn places the most rack
tiles, then the most value (the numbers printed on the rack tiles placed; a joker's number depends
on where it stands, so it adds none, as for the peer solver). Before the initial meld the table is
not touched: sets of the rack alone, worth the initial meld's points together.

Two models answer it: the compact slot model (:mod:`solver.games.rummikub.slots`, asked by
:mod:`solver.games.rummikub.tables`), built once per game and asked by assumptions, for rulesets of
its shape — the standard game and its options; and the candidate-set model
(:mod:`solver.games.rummikub.bysets`) for any other.
"""

from __future__ import annotations

from collections.abc import Sequence

from solver.core.deck import Face
from solver.core.errors import MeldsError, Undecided
from solver.games.rummikub.bysets import solve_by_sets
from solver.games.rummikub.sets import Arrangement, Bounds, SetCatalogue, TileSet, layout, printed_value
from solver.games.rummikub.tables import SlotTurns
from solver.sat.budget import Budget
from solver.sat.solvers import MaxSat

__all__ = ["Arrangement", "Bounds", "SetCatalogue", "TileSet", "layout", "printed_value", "solve_turn", "table_sets"]


def table_sets(catalogue: SetCatalogue, table: Sequence[Sequence[Face]]) -> list[TileSet]:
    """The sets on the table, each read (a table holds legal sets only: else bad input)."""
    out = []
    for faces in table:
        found = catalogue.lookup(faces)
        if found is None:
            shown = " ".join(catalogue.checker.notation.format(f) for f in faces)
            raise MeldsError(f"the table set {shown} is not a legal set: a table holds legal sets only")
        out.append(found)
    return out


def solve_turn(
    catalogue: SetCatalogue,
    hand: Sequence[Face],
    table: Sequence[Sequence[Face]],
    has_melded: bool,
    initial_points: int,
    question: str,
    max_seconds: float | None = None,
    by_sets: bool = False,
) -> Arrangement:
    """The best turn (most rack tiles placed, then most value) or whether the rack can go out.
    ``by_sets`` asks the candidate-set model even where the slot model would answer (tests)."""
    budget = Budget(max_seconds)
    with budget.guarding():  # the model's build and every call, under one budget
        before = table_sets(catalogue, table)
        hand = list(hand)
        if catalogue.shape is not None and not by_sets:
            key = ("slots", initial_points)
            turns = catalogue.models.get(key)
            if turns is None:
                turns = catalogue.models[key] = SlotTurns(catalogue, catalogue.shape, initial_points)
            answer = turns.turn(hand, before, not has_melded, question, budget)
        else:
            calls = MaxSat.calls
            try:
                answer = solve_by_sets(catalogue, hand, before, has_melded, initial_points, question, budget)
            except Undecided:
                answer = Arrangement(None, question, not has_melded, list(before), kept=hand)
            answer.sat_calls = MaxSat.calls - calls if question != "go-out" else 1
    answer.seconds = round(budget.elapsed, 4)
    return answer
