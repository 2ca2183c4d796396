"""The flow of a whole mahjong game as the rulesets' mahjong_game sections say it: who deals next,
honba and sticks, when the game ends, the final placement."""

from __future__ import annotations

import pytest

from solver.core.ruleset import load_ruleset
from solver.games.mahjong.flow import HandStart, Outcome

TENHOU = load_ruleset("tenhou").rules.flow
GENSOU = load_ruleset("gensou-mahjong").rules.flow
WIN, DEALER_WIN = Outcome("win"), Outcome("win", dealer_won=True)
NOTEN, TENPAI = Outcome("exhaustive"), Outcome("exhaustive", dealer_tenpai=True)


def test_who_deals_next():
    start = HandStart(round=1, honba=2, sticks=1, dealer=1)
    assert TENHOU.after(start, WIN, [25000] * 4, 0, 4) == HandStart(2, 0, 0, 2)
    assert TENHOU.after(start, DEALER_WIN, [25000] * 4, 0, 4) == HandStart(1, 3, 0, 1)
    assert TENHOU.after(start, NOTEN, [25000] * 4, 2, 4) == HandStart(2, 3, 2, 2)
    assert TENHOU.after(start, TENPAI, [25000] * 4, 2, 4) == HandStart(1, 3, 2, 1)
    assert TENHOU.after(start, Outcome("abortive", draw="four-winds"), [25000] * 4, 1, 4) == HandStart(1, 3, 1, 1)
    # 幻想麻雀: in the east round a dealer in tenpai passes the deal on; 四風連打 passes it too
    assert GENSOU.after(start, TENPAI, [25000] * 4, 2, 4) == HandStart(2, 3, 2, 2)
    assert GENSOU.after(HandStart(5, 0, 0, 1), TENPAI, [25000] * 4, 0, 4) == HandStart(5, 1, 0, 1)
    assert GENSOU.after(start, Outcome("abortive", draw="four-winds"), [25000] * 4, 1, 4) == HandStart(2, 3, 1, 2)


def test_when_the_game_ends():
    last = HandStart(round=7, honba=0, sticks=0, dealer=3)
    assert TENHOU.after(last, WIN, [31000, 25000, 24000, 20000], 0, 4) is None
    assert TENHOU.after(last, WIN, [29000, 27000, 24000, 20000], 0, 4) == HandStart(8, 0, 0, 0)  # 西入
    assert TENHOU.after(last, DEALER_WIN, [20000, 24000, 24000, 32000], 0, 4) is None  # アガリ止め
    assert TENHOU.after(last, DEALER_WIN, [40000, 24000, 4000, 32000], 0, 4) == HandStart(7, 1, 0, 3)
    assert TENHOU.after(last, TENPAI, [20000, 24000, 24000, 32000], 0, 4) is None  # テンパイ止め
    assert TENHOU.after(last, TENPAI, [34000, 24000, 20000, 22000], 0, 4) == HandStart(7, 1, 0, 3)  # not on top
    assert GENSOU.after(last, TENPAI, [20000, 24000, 24000, 32000], 0, 4) is None
    west = HandStart(round=8, honba=0, sticks=0, dealer=0)
    assert TENHOU.after(west, WIN, [29000, 27000, 24000, 20000], 0, 4) == HandStart(9, 0, 0, 1)
    assert TENHOU.after(west, WIN, [30000, 27000, 23000, 20000], 0, 4) is None  # sudden death
    # in 西入 a dealer below the top keeps the deal though somebody has 30,000; on top, the game ends
    assert TENHOU.after(west, TENPAI, [24000, 31000, 25000, 20000], 0, 4) == HandStart(8, 1, 0, 0)
    assert TENHOU.after(west, DEALER_WIN, [26000, 31000, 23000, 20000], 0, 4) == HandStart(8, 1, 0, 0)
    assert TENHOU.after(west, DEALER_WIN, [32000, 29000, 21000, 18000], 0, 4) is None
    assert TENHOU.after(HandStart(2, 0, 0, 2), WIN, [60000, 41000, -1000, 0], 0, 4) is None  # 飛び
    assert TENHOU.after(HandStart(2, 0, 0, 2), WIN, [60000, 40000, 0, 0], 0, 4) == HandStart(3, 0, 0, 3)


@pytest.mark.parametrize(
    "scores, sticks, final, points",
    [
        ([51000, 27700, 19500, 1800], 0, [51000, 27700, 19500, 1800], [61, 8, -21, -48]),  # -10.5 is -11
        ([85300, 8900, 8900, -3100], 0, [85300, 8900, 8900, -3100], [95, -11, -31, -53]),  # a tie: seat order
        ([30000, 30000, 19000, 19000], 2, [32000, 30000, 19000, 19000], [42, 10, -21, -31]),  # sticks to the top
    ],
)
def test_final_placement_with_uma_and_oka(scores, sticks, final, points):
    assert TENHOU.standings(scores, sticks, 1000) == (final, points)


def test_final_points_to_the_hundred():
    assert TENHOU.standings([43800, 26100, 19300, 10800], 0, 1000, rounded=False)[1] == [53.8, 6.1, -20.7, -39.2]


TENHOU_3P = load_ruleset("tenhou-3p").rules.flow


def test_three_players_play_to_south_3_and_reckon_from_40000():
    """tenhou-3p-game: 東3局 is followed by 南1局 (round 4: no 東4局), 南3局 is the last hand while
    somebody has 40,000, 西入 otherwise; oka 15 to the top, uma +20 / 0 / -20."""
    assert TENHOU_3P.after(HandStart(2, 0, 0, 2), WIN, [35000] * 3, 0, 3) == HandStart(4, 0, 0, 0)
    last = HandStart(round=6, honba=0, sticks=0, dealer=2)
    assert TENHOU_3P.after(last, WIN, [41000, 34000, 30000], 0, 3) is None
    assert TENHOU_3P.after(last, WIN, [39000, 36000, 30000], 0, 3) == HandStart(8, 0, 0, 0)  # 西入
    assert TENHOU_3P.after(last, DEALER_WIN, [30000, 33000, 42000], 0, 3) is None  # アガリ止め
    assert TENHOU_3P.standings([59200, 22800, 23000], 0, 1000) == ([59200, 22800, 23000], [54, -37, -17])
    assert TENHOU_3P.standings([27400, 83100, -5500], 0, 1000) == ([27400, 83100, -5500], [-13, 79, -66])
