"""What a rummy turn played action by action (``melds move``) must meet as it goes and when it
ends, from the ruleset's own sections — the same rules ``melds solve`` builds into its turn model:

* a kind melded only in a turn that goes out (``going_out_only``): such a meld is legal only
  while the turn can still go out, and the turn may not then end with cards kept;
* the ways to go out (``going_out:``): a hand emptied meets some route's requirements, counted
  over the player's melds on the table;
* a first meld's minimum (``initial_meld:`` on a table that is not rearranged): no lay-off
  before it, and the melds of the turn that makes it worth its points together;
* how a turn ends (``turns:``): a turn whose rule requires a discard does not go out without one.

Each refusal cites the rule's own quote.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import product
from typing import Any

from solver.core.deck import Face
from solver.core.rules import InitialMeld
from solver.core.ruleset import Ruleset
from solver.core.source import Source
from solver.melding.meld.checker import MeldChecker
from solver.melding.meld.points import card_values_of
from solver.melding.meld.verdict import Verdict
from solver.melding.table.operations import TableMeld
from solver.melding.turn.problem import Problem
from solver.melding.turn.routes import GoOutRoute, HandLimit, MeldCount

READINGS_WEIGHED = 4096  # the ways to read a hand's melds as kinds weighed against a route, at most

Shape = tuple[str, int, int]  # a meld read as one kind: (kind id, cards, cards acting as wilds)


def meld_shapes(verdict: Verdict) -> list[Shape]:
    """The ways a legal meld counts toward a route: each kind that reads it (the player says which
    under ``ambiguity: any``), with its size and the wilds of that kind's reading."""
    return list(dict.fromkeys((r.kind.id, len(verdict.faces), r.wilds) for r in verdict.every_reading))


def route_unmet(
    routes: Sequence[GoOutRoute], melds: Sequence[Sequence[Shape]], discarded: bool, kept_points: int | None = None
) -> tuple[str, Source | None] | None:
    """Why a hand emptied with these melds of the player's (each its possible shapes), by a discard
    or not, goes out by no route: the first route's first requirement it fails, with its quote;
    None when one holds (or the ruleset has no routes: every card melded is a way out).
    ``kept_points``: the turn goes out keeping cards of these card points (a knock), not emptied."""
    if kept_points is not None:  # the routes that keep cards say first why they do not hold
        routes = sorted(routes, key=lambda route: route.all_cards)
    failures = [_failure(route, melds, discarded, kept_points) for route in routes]
    if not routes:
        return None if kept_points is None else ("going out melds every card", None)
    if any(f is None for f in failures):
        return None
    return failures[0]


def route_taken(
    routes: Sequence[GoOutRoute], melds: Sequence[Sequence[Shape]], discarded: bool, kept_points: int | None = None
) -> GoOutRoute | None:
    """The first route by which the turn goes out (as :func:`route_unmet` weighs them), if any."""
    return next((r for r in routes if _failure(r, melds, discarded, kept_points) is None), None)


def _failure(
    route: GoOutRoute, melds: Sequence[Sequence[Shape]], discarded: bool, kept_points: int | None = None
) -> tuple[str, Source | None] | None:
    if discarded and not route.discards:
        return f"going out by {route.name} melds every card and discards none", route.source
    if kept_points is not None and route.all_cards:
        return f"going out by {route.name} melds every card" + (" but the discard" if discarded else ""), route.source
    allowed = [[s for s in shapes if s[0] in route.kind_set] for shapes in melds]
    if not all(allowed):
        return f"going out by {route.name} melds only {', '.join(route.kinds)}", route.source
    limit = next((r for r in route.checks if isinstance(r, HandLimit) and (kept_points or 0) > r.at_most), None)
    if limit is not None:
        return f"going out by {route.name} needs: {limit.describe()} (they weigh {kept_points})", limit.source
    counts = [r for r in route.checks if isinstance(r, MeldCount)]
    first_failed: MeldCount | None = None
    for n, chosen in enumerate(product(*allowed)):
        if n >= READINGS_WEIGHED:
            break
        failed = next((c for c in counts if not c.allows(sum(c.counts(*shape) for shape in chosen))), None)
        if failed is None:
            return None
        first_failed = first_failed or failed
    assert first_failed is not None  # some reading was weighed and failed
    return f"going out by {route.name} needs: {first_failed.describe()}", first_failed.source or route.source


def first_meld_worth(
    rule: InitialMeld, checker: MeldChecker, melds: Iterable[Sequence[Face]], params: Mapping[str, Any] | None
) -> int:
    """What new melds count together toward a first meld: each its best reading's worth, as
    ``initial_meld.counts`` says (as the turn model counts them, turn/firstmeld.py)."""
    values = rule.card_values
    if values is None:
        return 0
    total = 0
    for faces in melds:
        _, worth, _ = checker.best_reading(
            faces, params=params, worth=lambda reading: sum(card_values_of(reading, values))
        )
        total += int(worth)
    return total


def can_go_out(
    ruleset: Ruleset,
    checker: MeldChecker,
    hand: Sequence[Face],
    table: Sequence[TableMeld],
    params: Mapping[str, Any] | None,
    routes: Sequence[GoOutRoute],
) -> bool:
    """Can the rest of a turn, from this hand, with this table (the player's own melds marked
    ``mine``: a route counts them), go out? (The turn solver's go-out question, as ``melds solve``
    asks it.)"""
    from solver.melding.turn.solve import solve_turn  # the turn solver loads when a turn is asked

    problem = Problem(ruleset, tuple(hand), tuple(table), has_melded=True, params=params)
    return bool(solve_turn(problem, checker, "go-out", routes=routes).solvable)
