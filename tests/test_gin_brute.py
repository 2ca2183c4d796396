"""Gin Rummy's minimum deadwood and best discard against a brute force of its own
(tests/gin_brute.py: no OpenSpiel needed), on random and meld-built hands; the brute force itself
checked against OpenSpiel's utilities when they are installed."""

from __future__ import annotations

import random

import gin_brute
import pytest

from solver.core.registry import load_game
from solver.core.ruleset import load_ruleset

DECK = [s + r for s in "SHDC" for r in gin_brute.RANKS]


def hands(seed: int, count: int) -> list[list[str]]:
    """Ten and eleven cards, alternately: one in three dealt at random, the others with one suit's
    stretch and one rank's cards dealt first (melds, and cards that could go either way)."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        size = 10 + i % 2
        if i % 3:
            suit, low, rank = rng.choice("SHDC"), rng.randrange(9), rng.choice(gin_brute.RANKS)
            start = {suit + r for r in gin_brute.RANKS[low : low + 5]} | {s + rank for s in "SHDC"}
            rest = [c for c in DECK if c not in start]
            out.append(sorted(start)[:size] + rng.sample(rest, max(0, size - len(start))))
        else:
            out.append(rng.sample(DECK, size))
    return out


def test_deadwood_and_discard_against_brute_force():
    game = load_game(load_ruleset("gin-rummy"))
    for hand in hands(461, 200):
        data = game.solve({"hand": " ".join(hand)}).data
        if len(hand) == 11:
            least, discards = gin_brute.best_discards(hand)
            assert data["discard"] in discards, (hand, data["discard"], discards)
        else:
            least = gin_brute.min_deadwood(hand)
        assert data["deadwood"] == least, (hand, data["deadwood"], least)
        assert sum(gin_brute.value(c) for c in data["kept"]) == least
        assert all(frozenset(c["card"] for c in m["cards"]) in gin_brute.melds(hand) for m in data["melds"])


def test_brute_force_agrees_with_openspiel():
    gin_oracle = pytest.importorskip("gin_oracle", exc_type=ImportError)  # the test extra's open_spiel
    for hand in hands(462, 100):
        if len(hand) == 10:
            assert gin_brute.min_deadwood(hand) == gin_oracle.min_deadwood(hand), hand
        else:
            assert gin_brute.best_discards(hand) == gin_oracle.best_discards(hand), hand


def test_the_best_turn_goes_out_as_the_brute_force_says():
    """--best: the best turn of eleven cards goes out exactly when the brute force's least deadwood
    after a discard is 10 or less (gin-rummy.md: a knock), by gin at 0 and by knock otherwise; it
    is the same turn as the plain question's (deadwood, route)."""
    game = load_game(load_ruleset("gin-rummy"))
    for hand in (h for h in hands(463, 120) if len(h) == 11):
        least, _ = gin_brute.best_discards(hand)
        best = game.solve({"hand": " ".join(hand), "question": "best"})
        assert best.data["deadwood"] == least, (hand, best.data)
        assert best.data["solvable"] is (least <= 10), (hand, best.data)
        assert best.code == (0 if least <= 10 else 1)
        if least <= 10:
            assert best.data["route"] == ("gin" if least == 0 else "knock"), (hand, best.data)
            assert game.solve({"hand": " ".join(hand)}).data["route"] == best.data["route"]
