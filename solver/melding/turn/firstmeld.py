"""A first meld's minimum on a turn that does not rearrange the table (``initial_meld:`` without
``table: {rearrange: free}``): until a player has melded, a turn lays no card off and its new
melds, of the hand's cards alone, are worth ``points`` or more together — or it melds nothing.

Each new meld's worth is its best reading's, counted as ``initial_meld.counts`` says (the rank a
card stands for, or its card points as a melded card); the turn model asks for the sum with a
weighted counter (:func:`~solver.sat.search.weight_at_least`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

from solver.core.deck import Face
from solver.core.rules import InitialMeld
from solver.melding.meld.checker import MeldChecker
from solver.melding.meld.encode import Reading
from solver.melding.meld.points import card_values_of
from solver.melding.turn.problem import Problem
from solver.sat.encodings import TRUE
from solver.sat.pool import VarPool
from solver.sat.search import weight_at_least


class Option(Protocol):
    """A turn model's option: a new meld (``table`` None) or a lay-off."""

    var: int
    table: int | None
    all_faces: tuple[Face, ...]
    reading: Reading | None


AnOption = TypeVar("AnOption", bound=Option)


def first_meld_due(problem: Problem) -> InitialMeld | None:
    """The first-meld rule this turn is held to: the ruleset has one, its table is not rearranged
    freely (that turn counts it itself) and the player has no meld yet."""
    rule, table = problem.ruleset.initial_meld, problem.ruleset.table
    if rule is None or (table is not None and table.rearrange == "free"):
        return None
    return None if problem.has_melded or any(t.mine for t in problem.table) else rule


def first_meld_clauses(
    problem: Problem, live: list[AnOption], legal: Callable[[AnOption], bool], checker: MeldChecker, pool: VarPool
) -> list[list[int]]:
    """No lay-off; the new melds chosen worth the rule's points together and at least its number
    of melds, or none chosen. ``legal``: the model's verification of an option."""
    rule = first_meld_due(problem)
    if rule is None:
        return []
    clauses = [[-o.var] for o in live if o.table is not None]
    items, laid = [], []
    for o in live:
        if o.table is None:
            worth = meld_worth(problem, o, rule, checker) if legal(o) else None
            if worth is None:
                clauses.append([-o.var])
                continue
            laid.append((o.var, 1))
            if worth:
                items.append((o.var, min(worth, rule.points)))
    melded = pool.new()
    clauses += [[-o.var, melded] for o in live if o.table is None]
    for weighed, target in ((items, rule.points), (laid, rule.melds)):
        reached = weight_at_least(weighed, target, pool, clauses)
        if reached is None:  # the new melds cannot reach the minimum together: none is laid
            clauses.append([-melded])
        elif reached is not TRUE:
            clauses.append([-melded, reached])
    return clauses


def meld_worth(problem: Problem, option: Option, rule: InitialMeld, checker: MeldChecker) -> int | None:
    """What a legal new meld counts toward the first meld: its best reading's worth (0 where the rule
    counts no points, only melds)."""
    values = rule.card_values
    if not rule.points:
        return 0
    if values is None:
        return None
    _, worth, best = checker.best_reading(
        option.all_faces,
        problem.phase,
        params=problem.params,
        worth=lambda reading: sum(card_values_of(reading, values)),
    )
    if best is not None:  # the meld is laid out as the reading that counts the most
        option.reading = best
    return int(worth)
