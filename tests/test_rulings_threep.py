"""Tenhou's three-player rules (rulesets/tenhou-3p.yaml) through the command line and the moves:
北抜き (a 北 set aside after a draw, a replacement drawn for it, a dora for its player, won on
without 槍槓, the replacement's win 嶺上開花, the set-aside ending every ippatsu and the first
go-around), ツモ損, its honba and noten penalty. Each test names the assumption it checks."""

from __future__ import annotations

from pathlib import Path

import pytest
from rulings import Play, cli_json

SEATS = ["E", "S", "W"]
E_WITH_NORTH = "11m99m123p456p789s4z"  # 14 tiles: E has drawn 北 (facts.drawn)
S_SEVEN_PAIRS_ON_NORTH = "11m99m1122p5566s4z"  # 七対子 waiting on 北


def _yaku(data) -> set[str]:
    return {y["name"] for y in data.get("yaku") or []}


def _state(hands: dict, **extra) -> dict:
    """E to discard after drawing 北, in a three-player hand of tenhou-3p."""
    return {
        "ruleset": "tenhou-3p",
        "players": SEATS,
        "turn": "E",
        "step": "discard",
        "hands": {"E": E_WITH_NORTH, "S": 13, "W": 13, **hands},
        "stock": 40,
        "facts": {"drawn": "4z", "first_go_around": False, **extra.pop("facts", {})},
        **extra,
    }


def _in_process(data: dict):
    """(the moves, the state) of a state's data, as melds move reads a state file."""
    from solver.core.registry import load_game
    from solver.core.ruleset import load_ruleset
    from solver.core.state import state_from_data

    state = state_from_data({"format": 1, **data}, Path("state.yaml"), load_ruleset(data["ruleset"]))
    return load_game(state.ruleset).moves(), state


def test_a_north_is_set_aside_and_a_replacement_drawn(tmp_path):
    """tenhou-3p-nuki: after a draw, 北 goes beside the hand (flags.nuki) and its player draws a
    replacement; the set-aside ends the first go-around and is offered to a ron until that draw."""
    game = Play(tmp_path, _state({}, facts={"first_go_around": True}))
    assert "nuki 4z" in game.moves()
    state = game.do("nuki 北")
    assert state["hands"]["E"] == "1199m123456p789s" and state["flags"]["E"]["nuki"] == 1
    assert state["step"] == "draw" and state["turn"] == "E" and state["stock"] == 40
    facts = state["facts"]
    assert facts["kan"] == {"tile": "4z", "kind": "nuki", "by": "E"} and facts["rinshan"] == "E"
    assert facts["first_go_around"] is False
    state = game.do("draw 1m")
    assert state["stock"] == 39 and "kan" not in state["facts"] and state["step"] == "discard"
    assert game.legal("tsumo")


def test_the_replacement_wins_rinshan_and_each_north_set_aside_is_a_dora():
    """tenhou-3p-nuki: a tsumo on the replacement is 嶺上開花; the 北 set aside counts a dora, and
    another when the indicator is 西 (2025020508gm-00b9-0000-79ddbd9d: ドラ counts them)."""
    moves, state = _in_process(_state({}))
    after = moves.judge(moves.judge(state, "nuki 4z").state, "draw 1m").state
    hand, win = moves.winning(after, "E", tsumo=True)
    assert win.rinshan and win.nuki == 1 and not win.haitei
    score = moves.scorer.score(hand, win)
    assert "嶺上開花" in {y.name for y in score.yaku} and score.dora == 1
    code, data = cli_json(
        "score", "-r", "tenhou-3p", "111m99m123p456p789s", "--win", "1m", "--tsumo", "--rinshan", "--nuki", "2",
        "--dora-indicators", "西",
    )  # fmt: skip
    assert code == 0 and data["dora"] == 4 and data["nuki"] == 2 and "嶺上開花" in _yaku(data)


def test_a_north_set_aside_is_won_on_without_chankan(tmp_path):
    """tenhou-3p-nuki: S, waiting on 北, wins on the tile E sets aside — no 槍槓 (Tenhou's record
    2025020508gm-00b9-0000-79ddbd9d lists 立直 七対子 only); the tile leaves E's 北抜き."""
    data = _state({"S": S_SEVEN_PAIRS_ON_NORTH})
    moves, state = _in_process(data)
    offered = moves.judge(state, "nuki 4z").state
    hand, win = moves.winning(offered, "S", tsumo=False)
    assert not win.chankan and win.discarder == "E"
    assert {y.name for y in moves.scorer.score(hand, win).yaku} == {"七対子"}
    game = Play(tmp_path, data)
    game.do("nuki 4z")
    assert not game.legal("W: ron")  # W's hand is hidden: no win shown
    state = game.do("S: ron")
    assert state["step"] == "over" and "北抜き" in state["facts"]["result"]
    assert state["discards"][-1] == "4z" and state["flags"]["E"]["nuki"] == 0


def test_letting_a_north_go_by_is_furiten_and_the_replacement_ends_every_ippatsu(tmp_path):
    """tenhou-3p-nuki: S in riichi within its go-around lets E's 北 go by: furiten for the rest of the
    hand, and its ippatsu ends at the replacement draw (as E's own would)."""
    flags = {"S": {"riichi": True, "ippatsu": True}, "E": {"riichi": True, "ippatsu": True}}
    game = Play(tmp_path, _state({"S": S_SEVEN_PAIRS_ON_NORTH}, flags=flags))
    game.do("nuki 4z")
    state = game.do("draw 5p")
    assert state["flags"]["S"]["furiten"] == "riichi"
    assert not state["flags"]["S"].get("ippatsu") and not state["flags"]["E"].get("ippatsu")


@pytest.mark.parametrize(
    "change, action, code",
    [
        ({"flags": {"E": {"called": "pon 9m"}}, "facts": {}}, "nuki 4z", "after-call"),
        (
            {"hands": {"E": "11m99m123p456p789s5z", "S": 13, "W": 13}, "facts": {"drawn": "5z"}},
            "nuki 4z",
            "not-in-hand",
        ),
        ({}, "nuki 5z", "not-nuki-tile"),
        ({"stock": 0}, "nuki 4z", "wall-empty"),
        ({"flags": {"E": {"riichi": True}}, "facts": {"drawn": "1m"}}, "nuki 4z", "riichi-nuki"),
    ],
    ids=["after-pon", "no-north", "not-north", "wall-empty", "riichi-held-north"],
)
def test_when_no_north_is_set_aside(tmp_path, change, action, code):
    """tenhou-3p-nuki: not straight after a pon (a discard follows it), only 北 and one held, not with
    the wall empty, and in riichi only the 北 just drawn."""
    data = _state({})
    for key, value in change.items():
        data[key] = {**data.get(key, {}), **value} if isinstance(value, dict) else value
    verdict = Play(tmp_path, data).judge(action)
    assert not verdict["legal"] and code in [r["code"] for r in verdict["reasons"]]


def test_riichi_sets_aside_the_north_it_has_just_drawn(tmp_path):
    data = _state({}, flags={"E": {"riichi": True}})
    assert Play(tmp_path, data).legal("nuki 4z")


def test_a_ruleset_without_nuki_dora_sets_nothing_aside(tmp_path):
    """gensou-mahjong-3p: 「北は客風牌となる。共通の役牌でもなく、抜きドラでもない。」"""
    data = {**_state({}), "ruleset": "gensou-mahjong-3p"}
    code, out = cli_json("move", str(Play(tmp_path, data).path), "nuki 4z")
    assert code == 2 and "nuki" in out["error"]["message"]
    code, out = cli_json("score", "-r", "gensou-mahjong-3p", "111m99m123p456p789s", "--win", "1m", "--nuki", "1")
    assert code == 2 and "北抜き" in out["error"]["message"]


def test_three_player_payments_of_tenhou():
    """tenhou-3p-payments: ツモ損 (a child's mangan tsumo 4,000 + 2,000), 200 a honba (100 from each
    tsumo payer), and 2,000 of noten penalty."""
    hand = ["-r", "tenhou-3p", "11m99m123p456p789s", "--win", "1m", "--seat", "S", "--riichi"]
    code, data = cli_json("score", *hand, "--tsumo", "--ippatsu", "--dora-indicators", "9p 8s", "--honba", "2")
    assert code == 0 and data["limit"] == "満貫"
    assert data["points"]["payments"] == {"E": 4000, "W": 2000} and data["points"]["honba"] == {"E": 200, "W": 200}
    code, data = cli_json("score", *hand, "--from", "W", "--honba", "2")
    assert code == 0 and data["points"]["honba"] == {"W": 400}
    code, data = cli_json("score", "-r", "tenhou-3p", "--exhaustive-draw", "--tenpai", "E")
    assert code == 0 and data["payments"] == {"E": 2000, "S": -1000, "W": -1000}
    code, data = cli_json("score", "-r", "tenhou-3p", "--exhaustive-draw", "--tenpai", "E,S")
    assert code == 0 and data["payments"] == {"E": 1000, "S": 1000, "W": -2000}
    code, data = cli_json("score", "-r", "tenhou", "--players", "3", "--exhaustive-draw", "--nagashi", "S")
    assert code == 0 and data["ruleset"] == "tenhou-3p" and data["payments"] == {"E": -4000, "S": 6000, "W": -2000}
