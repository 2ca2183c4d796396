"""The plain turn's search of packings (solver/melding/turn/packsearch.py: a memo on the search's
states) against the listing of every packing (plain.py's ``_Packed.ways``): the first best packing
by the objective, overall and among those that go out by each route (every card placed, the
route's requirements, and each requirement left out in turn), is the listing's first of that rank;
the cards each packing melds are the listing's. Hands of two decks and wilds (Indian Rummy, Okey,
Phase 10) and of one deck (Gin Rummy, basic rummy)."""

from __future__ import annotations

import random

import pytest
from test_plain_turn import dealt, wild_requests

from solver.core.registry import load_game
from solver.core.ruleset import load_ruleset
from solver.melding.turn.packsearch import Goal
from solver.melding.turn.plain import packed
from solver.melding.turn.routes import HandLimit


def _meets(way, goal: Goal) -> bool:
    """Does a listed packing go out by ``goal`` (counted here from its melds)?"""
    if goal.all_cards and way.left:
        return False
    for check in goal.checks:
        if isinstance(check, HandLimit):
            if way.points > check.at_most:
                return False
            continue
        n = sum(check.counts(m.kind, len(m.faces), m.wilds) for m in way.melds)
        if n < check.at_least or (check.at_most is not None and n > check.at_most):
            return False
    return True


def _targets(cards) -> list[int]:
    """Sets of cards to place: the whole hand, and the hand but one card (first copies first)."""
    whole = cards.mask
    return [whole] + [cards.lowest(whole & ~bit) for bit in cards.bits]


def _rank(way, objective) -> tuple:
    values = {"hand_points": way.points, "meld_points": sum(m.points for m in way.melds), "melds": len(way.melds)}
    return tuple(values[g.measure] * (-1 if g.sense == "maximize" else 1) for g in objective)


def compare(ruleset: str, requests: list[tuple[dict, dict]]) -> int:
    """The search against the listing on each request's hand; the packings listed."""
    listed = 0
    for options, request in requests:
        game = load_game(load_ruleset(ruleset, options))
        problem = game.problem(request)
        rs = problem.ruleset
        routes = list(game.rules.going_out) or [None]
        for route in routes:
            hand = packed(problem, game.checker, problem.turn_rule().discard, route.kind_set if route else None)
            ways = hand.ways
            if ways is None:
                continue
            listed += len(ways)
            spare = int(problem.turn_rule().discard != "none")
            for target in _targets(hand.cards):
                listed_places = any((target & ~w.melded).bit_count() <= spare for w in ways)
                assert hand.search.places(target, spare) == listed_places, (request, target)
            goals: list[Goal | None] = [None, Goal(True)]
            if route is not None:
                goals += [
                    Goal(route.all_cards, tuple(c for c in route.checks if c is not left)) for left in route.checks
                ]
                goals += [Goal(route.all_cards, route.checks)]
            for goal in goals:
                among = [w for w in ways if goal is None or _meets(w, goal)]
                found = hand.search.best(goal)
                if not among:
                    assert found is None, (request, goal)
                    continue
                assert found is not None, (request, goal)
                first = min(among, key=lambda w: _rank(w, rs.objective))
                way = hand.way(found)
                assert (way.melds, way.melded, way.discard, way.points) == (
                    first.melds,
                    first.melded,
                    first.discard,
                    first.points,
                ), (request, goal)
    return listed


@pytest.mark.parametrize("ruleset", ["indian-rummy", "okey", "phase-10"])
def test_search_finds_the_listing_first_best(ruleset: str) -> None:
    assert compare(ruleset, wild_requests(ruleset, 3, 46)) > 0


@pytest.mark.parametrize("ruleset", ["gin-rummy", "basic-rummy"])
def test_search_finds_the_listing_first_best_one_deck(ruleset: str) -> None:
    rng = random.Random(46)
    assert compare(ruleset, [({}, {"hand": " ".join(dealt(rng, 10 + i % 2))}) for i in range(6)]) > 0


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ["indian-rummy", "okey", "phase-10"])
def test_search_finds_the_listing_first_best_many(ruleset: str) -> None:
    assert compare(ruleset, wild_requests(ruleset, 200, 4848)) > 0
