"""Marriage's --distance takes the better of its two ways out (seven combinations, or eight
dublees), against the plain checker of tests/marriage_oracle.py asked one route at a time through
the swap brute force of tests/distance_oracle.py (neither imports anything from solver/)."""

from __future__ import annotations

import json
import random
from collections import Counter

import distance_oracle as oracle
import marriage_oracle
import pytest
from clirun import run
from distance_puzzles import MAR_ONE, MAR_SEVEN, MAR_TWO
from test_distance import _answers, check_against_oracle, recheck_target

TIPLU = "C2"


def route_game(route: str) -> oracle.Game:
    def goes_out(hand: list[str]) -> bool:
        cards = [oracle._Card(c[0], c[1:]) for c in hand]
        tiplu = marriage_oracle.card(oracle._Card(TIPLU[0], TIPLU[1:]))
        return marriage_oracle.can_go_out(cards, tiplu, routes=(route,))

    return oracle.Game(oracle.game("marriage", TIPLU).deck, goes_out)


@pytest.mark.slow  # the combinations route's brute force: a minute or more a hand
@pytest.mark.parametrize(("hand", "better"), [(MAR_SEVEN, "dublees"), (MAR_ONE, "combinations")])
def test_distance_is_the_better_routes(hand: str, better: str) -> None:
    answer = json.loads(run("solve", "-r", "marriage", "--tiplu", TIPLU, "--hand", hand, "--distance", "--json").stdout)
    found = answer["distance"]
    cards = hand.split()
    left = oracle.left_of(oracle.game("marriage", TIPLU), cards)
    by_route = {r: oracle.distance(route_game(r), cards, left, found) for r in marriage_oracle.ROUTES}
    assert by_route[better] == found == 1, by_route  # the better route's distance, by brute force
    worse = next(r for r in marriage_oracle.ROUTES if r != better)
    assert by_route[worse] is None, by_route  # the other route needs more swaps than that
    assert answer["target"]["route"] == better
    recheck_target(oracle.game("marriage", TIPLU), cards, answer)


# Short hands (3n + 1 cards: n combinations and the discard, three of them pure) are answered by the
# combinations route alone (eight dublees need 17 cards), so the brute force is quick: the oracle
# asks n combinations, as for a hand with 7 - n shown (none pure, so three pure are still needed).
SHORT_POOL = [s + r for s in "SH" for r in ("2", "3", "4", "5", "6", "7", "8")] * 3
SHORT_TIPLUS = ("S5", "H8", "D3", "C2")


def short_game(size: int, tiplu: str) -> oracle.Game:
    """Marriage's oracle for a hand of ``size`` cards (3n + 1) under ``tiplu``."""
    shown = 7 - (size - 1) // 3

    def goes_out(hand: list[str]) -> bool:
        cards = [oracle._Card(c[0], c[1:]) for c in hand]
        chosen = marriage_oracle.card(oracle._Card(tiplu[0], tiplu[1:]))
        return marriage_oracle.can_go_out(cards, chosen, shown_melds=shown, routes=("combinations",))

    return oracle.Game(oracle.game("marriage", tiplu).deck, goes_out)


def short_lines(hands: int, size: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    return [
        {"hand": " ".join(rng.sample(SHORT_POOL, size)), "distance": True, "tiplu": rng.choice(SHORT_TIPLUS)}
        for _ in range(hands)
    ]


def check_short(lines: list[dict], depth: int) -> Counter[int | None]:
    """Each short hand's distance bounded both ways by the brute force (its target re-checked)."""
    seen: Counter[int | None] = Counter()
    for line, answer in zip(lines, _answers("marriage", lines), strict=True):
        hand = line["hand"].split()
        seen[answer["distance"]] += 1
        check_against_oracle(short_game(len(hand), line["tiplu"]), hand, answer, depth, line)
    return seen


def test_short_hands_against_brute_force() -> None:
    seen = check_short(short_lines(3, 10, seed=47), depth=0)  # depth 1: some 1.5 s of brute force a hand
    assert sum(seen.values()) == 3


@pytest.mark.slow
@pytest.mark.parametrize(("size", "hands"), [(10, 150), (13, 60)])
def test_short_hands_against_brute_force_many(size: int, hands: int) -> None:
    seen = check_short(short_lines(hands, size, seed=4747 + size), depth=1)
    assert len(seen) >= 3, seen  # the deals reach several distances


@pytest.mark.parametrize("hand", [MAR_ONE, MAR_TWO, MAR_SEVEN])
def test_full_hand_target_rechecked(hand: str) -> None:
    """A 21-card hand's target (either route) goes out by the oracle after as many swaps as the
    distance, and the hand does not go out now."""
    answer = json.loads(run("solve", "-r", "marriage", "--tiplu", TIPLU, "--hand", hand, "--distance", "--json").stdout)
    g = oracle.game("marriage", TIPLU)
    assert answer["distance"] in (1, 2) and not g.goes_out(hand.split())
    recheck_target(g, hand.split(), answer)


@pytest.mark.slow
def test_dealt_full_hands_targets_rechecked() -> None:
    """Dealt 22-card hands with a tiplu: every target goes out by the oracle, within its distance."""
    rng = random.Random(4711)
    deck = [c for c, n in oracle.game("marriage", "C2").deck.items() for _ in range(n)]
    lines: list[dict] = []
    for _ in range(60):
        cards = rng.sample(deck, 23)
        lines.append({"hand": " ".join(cards[:22]), "distance": True, "tiplu": cards[22]})
    for line, answer in zip(lines, _answers("marriage", lines), strict=True):
        assert answer["distance"] is not None, line
        recheck_target(oracle.game("marriage", line["tiplu"]), line["hand"].split(), answer)
