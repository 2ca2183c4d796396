"""Marriage's --distance takes the better of its two ways out (seven combinations, or eight
dublees), against the plain checker of tests/marriage_oracle.py asked one route at a time through
the swap brute force of tests/distance_oracle.py (neither imports anything from solver/)."""

from __future__ import annotations

import json

import distance_oracle as oracle
import marriage_oracle
import pytest
from clirun import run
from distance_puzzles import MAR_ONE, MAR_SEVEN
from test_distance import recheck_target

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
