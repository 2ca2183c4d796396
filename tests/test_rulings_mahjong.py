"""Rulings of 幻想麻雀 (002_82a82b19e42b08ae.txt) through the command line, for every command each
touches: furiten in its forms, 槍槓 and 国士無双 on a closed kan, the yaku of how a hand wins, a
riichi hand's closed turn, the moves of the example states. Each test names its sentence."""

from __future__ import annotations

from pathlib import Path

import pytest
from clirun import ROOT
from rulings import Play, cli_json

MOVES = ROOT / "puzzles" / "gensou-mahjong" / "moves"
SEATS = ["E", "S", "W", "N"]


def _yaku(data) -> set[str]:
    return {y["name"] for y in data.get("yaku") or []}


def _call(tmp_path, hands: dict, discard: str, **extra) -> Play:
    """E has just discarded ``discard``; the others may call it."""
    state = {
        "ruleset": "gensou-mahjong",
        "players": SEATS,
        "turn": "E",
        "step": "call",
        "hands": {"E": 13, "S": 13, "W": 13, "N": 13, **hands},
        "discards": [discard],
        "discarded_by": "E",
        "stock": 50,
        **extra,
    }
    return Play(tmp_path, state)


# -- 振聴: one's own discards ----------------------------------------------------------------------


def test_own_discard_furiten_in_score():
    """A ron waiting on a tile the winner discarded is furiten (assumption furiten); a tsumo is not."""
    hand, win = "234m567p345678s22p", "8s"  # waits 5s 8s
    code, data = cli_json("score", "-r", "gensou-mahjong", hand, "--win", win, "--seat", "S", "--river", "1z 5s")
    assert code == 1 and not data["winning"] and "振聴" in data["reason"]
    code, data = cli_json("score", "-r", "gensou-mahjong", hand, "--win", win, "--seat", "S", "--river", "1z 9s")
    assert code == 0 and data["winning"]
    code, data = cli_json(
        "score", "-r", "gensou-mahjong", hand, "--win", win, "--seat", "S", "--river", "5s", "--tsumo"
    )
    assert code == 0 and data["winning"]


def test_thirteen_sided_kokushi_is_furiten_beyond_the_tile_discarded():
    """「国士無双十三面待ちは現物以外でも振聴となる。」 in score, move and moves: with every terminal and honour
    a winning tile, any of them discarded makes the ron furiten — on any tile; a single-wait 国士無双
    is furiten only on its own wait."""
    thirteen = "19m19p19s1234567z"
    code, data = cli_json(
        "score", "-r", "gensou-mahjong", thirteen + "9m", "--win", "9m", "--seat", "S", "--river", "5m 中"
    )
    assert code == 1 and "振聴" in data["reason"]
    single = "19m19p19s1234566z"  # waits on 中 only
    code, data = cli_json("score", "-r", "gensou-mahjong", single + "7z", "--win", "7z", "--seat", "S", "--river", "1m")
    assert code == 0 and "国士無双" in _yaku(data)


def test_thirteen_sided_furiten_in_move_and_moves(tmp_path):
    game = _call(tmp_path, {"S": "19m19p19s1234567z"}, "9m", facts={"rivers": {"S": "5m 1z"}})
    verdict = game.judge("S: ron")
    assert not verdict["legal"] and verdict["reasons"][0]["code"] == "furiten-thirteen-sided"
    assert verdict["reasons"][0]["source"]["quote"] == "国士無双十三面待ちは現物以外でも振聴となる。"
    assert "S: ron" not in game.moves()
    clean = _call(tmp_path, {"S": "19m19p19s1234567z"}, "9m", facts={"rivers": {"S": "5m 2p"}})
    assert clean.legal("S: ron") and "S: ron" in clean.moves()


def test_own_discard_furiten_in_move(tmp_path):
    game = _call(tmp_path, {"S": "234m567p345678s2p"}, "2p", facts={"rivers": {"S": "9m 2p"}})
    verdict = game.judge("S: ron")
    assert not verdict["legal"] and verdict["reasons"][0]["code"] == "furiten"
    assert verdict["reasons"][0]["source"]["assumption"] == "furiten"


# -- 振聴: a winning tile let go by -----------------------------------------------------------------


def test_temporary_furiten_lasts_until_ones_own_discard(tmp_path):
    """Passing a winning tile makes the hand furiten until its own next discard (assumption furiten)."""
    game = _call(tmp_path, {"S": "234m567p345678s2p"}, "2p")
    state = game.do("pass")  # S lets 2p go by; S draws next
    assert state["flags"]["S"]["furiten"] == "temporary" and state["turn"] == "S"
    game.do("draw 3z")
    state = game.do("discard 3z")
    assert not state["flags"]["S"].get("furiten")


def test_temporary_furiten_refuses_the_next_ron(tmp_path):
    game = _call(tmp_path, {"S": "234m567p345678s2p"}, "2p", flags={"S": {"furiten": "temporary"}})
    verdict = game.judge("S: ron")
    assert not verdict["legal"] and "temporary" in verdict["reasons"][0]["message"]
    code, data = cli_json(
        "score", "-r", "gensou-mahjong", "234m567p345678s22p", "--win", "2p", "--seat", "S", "--furiten"
    )
    assert code == 1 and "振聴" in data["reason"]
    code, data = cli_json(
        "score", "-r", "gensou-mahjong", "234m567p345678s22p", "--win", "2p", "--seat", "S", "--furiten", "--tsumo"
    )
    assert code == 0


def test_riichi_furiten_outlasts_ones_discard_and_riichi_while_furiten_is_allowed(tmp_path):
    """After riichi a winning tile let go by makes the hand furiten for good; 「振聴立直は可。」"""
    game = _call(tmp_path, {"S": "234m567p345678s2p"}, "2p", flags={"S": {"riichi": True}})
    state = game.do("pass")
    assert state["flags"]["S"]["furiten"] == "riichi"
    game.do("draw 1z")
    game.do("discard 1z")  # the tile drawn: a hand in riichi discards it
    assert game.judge("pass")["state"]["flags"]["S"]["furiten"] == "riichi"
    riichi = Play(
        tmp_path,
        {
            "ruleset": "gensou-mahjong",
            "players": SEATS,
            "turn": "E",
            "step": "discard",
            "hands": {"E": "123m456p78s11222z5s", "S": 13, "W": 13, "N": 13},
            "stock": 50,
            "flags": {"E": {"points": 25000}},
            "facts": {"rivers": {"E": "9s"}},
        },
    )
    assert riichi.legal("riichi 5s")


# -- 槍槓 -----------------------------------------------------------------------------------------


def _kan_state(kind: str, robber: dict[str, str]) -> dict:
    hands = {
        "E": "234p567p11z345s (9999m)" if kind == "ankan" else "234m567p789s1z [5550s]",
        "S": 13,
        "W": 13,
        "N": 13,
        **robber,
    }
    return {
        "ruleset": "gensou-mahjong",
        "players": SEATS,
        "turn": "E",
        "step": "draw",
        "hands": hands,
        "stock": 50,
        "facts": {"kan": {"tile": "9m" if kind == "ankan" else "0s", "kind": kind, "by": "E"}, "kans": {"E": 1}},
    }


def test_kokushi_robs_a_closed_kan(tmp_path):
    """「国士無双は暗槓に対して槍槓することが可能。」: after E's closed kan of 9m, S's 国士無双 may ron it;
    a hand of another shape waiting on 9m may not (it robs only a kan added to a pon)."""
    game = Play(tmp_path, _kan_state("ankan", {"S": "1m1p9p1s9s1234567z7z", "W": "78m234p567p33z345s"}))
    assert game.legal("S: ron")
    verdict = game.judge("W: ron")
    assert not verdict["legal"] and verdict["reasons"][0]["code"] == "chankan-closed-kan"
    assert game.moves() == ["S: ron"]


def test_a_kan_added_to_a_pon_is_robbed_and_the_miss_is_furiten(tmp_path):
    game = Play(
        tmp_path,
        {
            "ruleset": "gensou-mahjong",
            "players": SEATS,
            "turn": "E",
            "step": "discard",
            "hands": {"E": "234m567p789s1z0s [555s]", "S": 13, "W": "234m678p22z34s789s", "N": 13},
            "stock": 50,
        },
    )
    state = game.do("kakan 0s")
    assert state["facts"]["kan"] == {"tile": "0s", "kind": "kakan", "by": "E"} and state["step"] == "draw"
    assert "W: ron" in game.moves() and game.legal("W: ron")
    state = game.do("draw 3m")  # E's replacement draw: W let the kan go by
    assert state["flags"]["W"]["furiten"] == "temporary" and "kan" not in state["facts"]


def test_a_robbing_ron_takes_the_tile_out_of_the_kan(tmp_path):
    """The robbed tile lies where a ron's tile lies, on the discards: the kan is a pon again (no
    tile is in two places: the state after the ron is a valid state)."""
    game = Play(
        tmp_path,
        {
            "ruleset": "gensou-mahjong",
            "players": SEATS,
            "turn": "E",
            "step": "discard",
            "hands": {"E": "234m567p789s1z0s [555s]", "S": 13, "W": "234m678p22z34s789s", "N": 13},
            "stock": 50,
        },
    )
    game.do("kakan 0s")
    state = game.do("W: ron")
    assert state["step"] == "over" and "槍槓" in state["facts"]["result"]
    assert "[555s]" in state["hands"]["E"] and state["discards"][-1] == "0s"


def test_tenhou_lets_no_hand_rob_a_closed_kan(tmp_path):
    """The tenhou ruleset switches the document's ruling off (kokushi-robs-closed-kan: false): the
    国士無双 that robs under gensou-mahjong may not, and is not furiten for letting the tile go by."""
    state = {**_kan_state("ankan", {"S": "1m1p9p1s9s1234567z7z"}), "ruleset": "tenhou"}
    game = Play(tmp_path, state)
    verdict = game.judge("S: ron")
    assert not verdict["legal"] and verdict["reasons"][0]["code"] == "closed-kan"
    assert cli_json("moves", str(game.path))[1]["actions"] == []  # the draw, which names its tile, is not listed
    after = game.do("draw 3m")
    assert not after["flags"].get("S", {}).get("furiten")
    code, data = cli_json(
        "score", "-r", "tenhou", "1m1p9p1s9s1234567z7z", "--win", "9m", "--seat", "S", "--chankan-ankan"
    )
    assert code == 1 and "no hand" in data["reason"]


def test_a_state_of_the_first_kan_design_is_read_as_the_offer(tmp_path):
    """facts.robbable (an added kan's tile, at step call: the replay's first design) still reads:
    the same offer as facts.kan — a ron robs it, nobody pons it, pass lets its player draw."""
    game = Play(
        tmp_path,
        {
            "ruleset": "gensou-mahjong",
            "players": SEATS,
            "turn": "S",
            "step": "call",
            "hands": {"E": 13, "S": "123m789p78s99s [6666p]", "W": "789m45p123s456s11z", "N": 13},
            "discarded_by": "S",
            "stock": 50,
            "facts": {"robbable": "6p", "kans": {"S": 1}},
        },
    )
    assert game.legal("W: ron") and not game.legal("N: pon")
    state = game.do("pass")
    assert state["step"] == "draw" and state["turn"] == "S" and state["flags"]["W"]["furiten"] == "temporary"
    assert "robbable" not in state["facts"] and "kan" not in state["facts"]
    game.do("draw 3m")


def _state(data: dict):
    from solver.core.ruleset import load_ruleset
    from solver.core.state import state_from_data

    return state_from_data({"format": 1, **data}, Path("state.yaml"), load_ruleset(data["ruleset"]))


def test_a_robbing_ron_keeps_its_ippatsu_and_a_kan_nobody_robs_breaks_every_one():
    """The win's facts come from the state (assumption win-facts): W, in riichi within its go-around,
    robs E's added kan with 一発 and 槍槓; had nobody robbed it, the replacement draw ends every ippatsu."""
    from solver.core.registry import load_game

    state = _state(
        {
            "ruleset": "gensou-mahjong",
            "players": SEATS,
            "turn": "E",
            "step": "discard",
            "hands": {"E": "234m567p789s1z0s [555s]", "S": 13, "W": "234m678p22z34s789s", "N": 13},
            "stock": 50,
            "flags": {"W": {"riichi": True, "ippatsu": True}},
        }
    )
    moves = load_game(state.ruleset).moves()
    offered = moves.judge(state, "kakan 0s").state
    hand, win = moves.winning(offered, "W", tsumo=False)
    assert win.chankan and win.ippatsu and win.riichi and win.discarder == "E" and not win.houtei
    assert {"一発", "槍槓", "立直"} <= {y.name for y in moves.scorer.score(hand, win).yaku}
    drawn = moves.judge(offered, "draw 3m").state
    assert not drawn.flag("W", "ippatsu") and drawn.flag("W", "furiten") == "riichi"
    assert drawn.facts["rinshan"] == "E" and "kan" not in drawn.facts


def test_chankan_is_a_ron_never_a_tsumo():
    """槍槓 robs a kan on another's turn: with --tsumo it is no yaku (the input check may refuse the
    flags outright, exit 2)."""
    hand = "234m678p22z34s789s"
    code, data = cli_json("score", "-r", "gensou-mahjong", hand, "--win", "5s", "--seat", "W", "--chankan")
    assert code == 0 and "槍槓" in _yaku(data)
    code, data = cli_json("score", "-r", "gensou-mahjong", hand, "--win", "5s", "--seat", "W", "--chankan", "--tsumo")
    assert code == 2 or (code == 0 and "槍槓" not in _yaku(data))


# -- 海底撈月 and 河底撈魚 ------------------------------------------------------------------------------


@pytest.mark.parametrize("flag,yaku,good", [("--haitei", "海底撈月", ["--tsumo"]), ("--houtei", "河底撈魚", [])])
def test_last_tile_yaku_go_with_their_kind_of_win(flag, yaku, good):
    """海底撈月 is the tsumo on the last tile, 河底撈魚 the ron on the last discard (assumption win-facts)."""
    hand = "234m567p345678s22p"
    code, data = cli_json("score", "-r", "gensou-mahjong", hand, "--win", "8s", "--seat", "S", flag, *good)
    assert code == 0 and yaku in _yaku(data)
    wrong = [] if good else ["--tsumo"]
    code, data = cli_json("score", "-r", "gensou-mahjong", hand, "--win", "8s", "--seat", "S", flag, *wrong)
    assert code == 2 or (code == 0 and yaku not in _yaku(data))


def test_the_last_discard_wins_an_open_hand_without_other_yaku(tmp_path):
    """On the last discard (stock 0) 河底撈魚 is the yaku an open hand without one needs."""
    hands = {"S": "234m567p678s2p [789m]"}
    last = _call(tmp_path, hands, "2p", stock=0)
    assert last.legal("S: ron")
    earlier = _call(tmp_path, hands, "2p")
    verdict = earlier.judge("S: ron")
    assert not verdict["legal"] and verdict["reasons"][0]["code"] == "no-win"


# -- a hand in riichi ------------------------------------------------------------------------------


def test_a_player_in_riichi_may_not_chi_or_pon():
    """m08: S is in riichi; E's 3p could complete S's 12p, but S may only ron (assumption riichi-closed)."""
    code, data = cli_json("moves", str(MOVES / "m08-ron-and-double-ron.yaml"))
    assert code == 0 and "S: chi 12p" not in data["actions"] and {"S: ron", "W: ron"} <= set(data["actions"])
    code, data = cli_json("move", str(MOVES / "m08-ron-and-double-ron.yaml"), "S: chi 12p")
    assert code == 1 and any(r["code"] == "riichi-no-call" for r in data["reasons"])


def test_a_hand_in_riichi_discards_the_tile_it_draws(tmp_path):
    game = Play(
        tmp_path,
        {
            "ruleset": "gensou-mahjong",
            "players": SEATS,
            "turn": "S",
            "step": "draw",
            "hands": {"E": 13, "S": "123m456p78s11222z", "W": 13, "N": 13},
            "stock": 40,
            "flags": {"S": {"riichi": True}},
        },
    )
    game.do("draw 4p")
    assert game.legal("discard 4p")
    verdict = game.judge("discard 1m")
    assert not verdict["legal"] and verdict["reasons"][0]["code"] == "riichi-discards-the-draw"


def test_a_chi_or_pon_is_followed_by_a_discard_not_a_tsumo_or_a_kan(tmp_path):
    """A turn draws one tile and discards one (assumption standard-turn): after S pons 5z its hand
    of fourteen may look complete, but it has drawn nothing to win on, nor may it add a kan."""
    game = _call(tmp_path, {"S": "234m567p789s55z77z"}, "5z")
    state = game.do("S: pon")
    assert state["turn"] == "S" and state["step"] == "discard"
    for action in ("tsumo", "kakan 5z"):
        verdict = game.judge(action)
        assert not verdict["legal"] and "after-call" in {r["code"] for r in verdict["reasons"]}, action
    assert game.legal("discard 7z")


# -- the example states answer ----------------------------------------------------------------------


@pytest.mark.parametrize("name", ["m06-call-priority.yaml", "m14-three-player-no-chi.yaml"])
def test_moves_answers_on_the_call_examples(name):
    code, data = cli_json("moves", str(MOVES / name))
    assert code == 0 and "pass" in data["actions"] and not any("chi" in a for a in data["actions"])


def test_score_a_robbed_closed_kan():
    """「国士無双は暗槓に対して槍槓することが可能。」 in score: --chankan-ankan wins with 国士無双 only."""
    code, data = cli_json(
        "score", "-r", "gensou-mahjong", "1m1p9p1s9s1234567z7z", "--win", "9m", "--seat", "S", "--chankan-ankan"
    )
    assert code == 0 and "国士無双" in _yaku(data)
    code, data = cli_json(
        "score", "-r", "gensou-mahjong", "78m234p567p11z345s", "--win", "9m", "--seat", "S", "--chankan-ankan"
    )
    assert code == 1 and "国士無双" in data["reason"]
    code, data = cli_json(
        "score", "-r", "gensou-mahjong", "78m234p567p11z345s", "--win", "9m", "--seat", "S", "--chankan"
    )
    assert code == 0 and "槍槓" in _yaku(data)
