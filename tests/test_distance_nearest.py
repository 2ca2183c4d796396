"""The nearest-target search (solver/melding/turn/nearest.py) against the swap model it stands
before: the same distance and the same discard table on dealt hands, the swap model asked alone
(the search switched off). Both engines' targets are the plain checker's (tests/test_distance.py
re-checks them against the brute force)."""

from __future__ import annotations

import random
from unittest import mock

import pytest

from solver.core.registry import load_game
from solver.core.ruleset import load_ruleset

# a ruleset, a pool to deal from (narrow: near hands), the hand size, the chosen card's key and values
DEALS = {
    "basic-rummy": ([s + r for s in "SHD" for r in ("3", "4", "5", "6", "7", "8")], 8, None, ()),
    "indian-rummy": (
        [s + r for s in "SH" for r in ("3", "4", "5", "6", "7", "8")] * 2 + ["JK"],
        8,
        "indicator",
        ("D5", "JK"),
    ),
    "okey": ([c + str(n) for c in "ry" for n in range(1, 8)] * 2 + ["FJ"], 8, "indicator", ("k6", "y13")),
}


def _lines(ruleset: str, hands: int, seed: int, question: str) -> list[dict]:
    pool, size, key, chosen = DEALS[ruleset]
    rng = random.Random(seed)
    lines = []
    for _ in range(hands):
        line = {"hand": " ".join(rng.sample(pool, size)), question: True}
        if key:
            line[key] = rng.choice(chosen)
        lines.append(line)
    return lines


def _compare(ruleset: str, lines: list[dict]) -> set:
    game = load_game(load_ruleset(ruleset))
    seen = set()
    for line in lines:
        fast = game.solve(line).data
        with mock.patch("solver.melding.turn.distance.fits", return_value=False):
            slow = game.solve(line).data
        assert fast["distance"] == slow["distance"], line
        if "discards" in line:
            assert fast["discards"] == slow["discards"], line
        seen.add(fast["distance"])
    return seen


@pytest.mark.parametrize("ruleset", ["indian-rummy", "okey"])  # Basic Rummy's: test_distance.py's brute force
def test_nearest_distance_is_the_swap_models(ruleset: str) -> None:
    assert _compare(ruleset, _lines(ruleset, 2, 13, "distance"))


def test_nearest_discards_are_the_swap_models() -> None:
    _compare("basic-rummy", _lines("basic-rummy", 1, 13, "discards"))


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", sorted(DEALS))
def test_nearest_distance_is_the_swap_models_many(ruleset: str) -> None:
    seen = _compare(ruleset, _lines(ruleset, 16, 1313, "distance"))
    assert len(seen) >= 2, seen


@pytest.mark.slow
def test_nearest_discards_are_the_swap_models_many() -> None:
    # Basic Rummy's: the swap model's discard tables of wild hands take tens of minutes (Indian
    # Rummy's and Okey's tables are the puzzles', re-derived by the brute force under -m slow)
    _compare("basic-rummy", _lines("basic-rummy", 3, 1314, "discards"))
