"""Rulings of the Fesca document (000_bb200cc6bb22cd11.txt), each through the command line for
every command it touches. Each test names the sentence it pins."""

from __future__ import annotations

import json

import pytest
from clirun import run
from rulings import Play, cli_json

DOC = "000_bb200cc6bb22cd11.txt"
WOOD = [f"木{r}" for r in range(1, 13)]


def _json(*args):
    result = run(*args, "--json")
    return result.exit_code, json.loads(result.output)


# -- 順: ZAT is 0 and 13 at once; it joins 12 and 1; the longest run is the 13-card run with ZAT --


ZAT_RUNS = [
    WOOD + ["空無木"],                              # ZAT as 13, after 12
    ["空無木"] + WOOD,                              # ZAT as 0, before 1
    ["木12", "空無木"] + WOOD[:11],                 # 12 → ZAT → 1 … 11: round through ZAT
    WOOD[4:] + ["空無木"] + WOOD[:4],               # 5 … 12 ZAT 1 … 4
    ["木11", "木12", "空無木", "木1", "木2"],       # the document's joining example
    ["木12", "空無木", "木1"],
]


@pytest.mark.parametrize("layout", ZAT_RUNS, ids=lambda cards: " ".join(cards))
def test_zat_runs_in_table_order_check_and_score(layout):
    """「ZAT: … 空無札がランク0とランク13の両扱いとする機能」「ZATを介して12と1を繋ぐ」
    「最長はZATを含む13連順」: a ZAT card at either end, or a run going round through ZAT, is a
    run whichever way it is laid out; its ZAT counts in the run's length (空無土はRWではなくZAT扱いなので、連枚数に含めて)."""
    code, data = _json("check", "-r", "fesca", "--ordered", *layout)
    assert code == 0 and data["legal"] and data["kind"] == "run", data
    code, data = _json("score", "-r", "fesca", "--ordered", *layout)
    points = {3: 1, 5: 4, 13: 1024}[len(layout)]
    assert code == 0 and data["points"] == points, data
    code, data = _json("check", "-r", "fesca", *reversed(layout))  # a multiset too
    assert code == 0 and data["kind"] == "run"


def test_the_13_card_run_is_shown_from_zat():
    code, data = _json("check", "-r", "fesca", *WOOD[6:], "空無木", *WOOD[:6])
    assert code == 0 and [p["card"] for p in data["cards"]] == ["空無木"] + WOOD


@pytest.mark.parametrize("layout", [["木12", "木1", "木2"], WOOD[4:11] + ["空無木", "木12"] + WOOD[:4]],
                         ids=["12-1 without ZAT", "ZAT out of place"])
def test_12_and_1_do_not_join_without_zat(layout):
    """「12と1は繋がらないので順として認められない」"""
    code, data = _json("check", "-r", "fesca", "--ordered", *layout)
    assert code == 1 and not data["legal"]


def test_solve_goes_out_with_the_13_card_run():
    """「最長はZATを含む13連順」: the solver finds the 13-card run (1024 points, 順 13 → 1024)."""
    code, data = _json("solve", "-r", "fesca", "--hand", " ".join(WOOD + ["空無木", "水3"]), "--best")
    assert code == 0 and data["solvable"] and data["discard"] == "水3"
    assert data["score"]["meld_points"] == 1024


# -- the field phase before any 陰陽 discard ------------------------------------------------------


def test_phase_none_bars_every_chain_in_check_score_and_solve():
    """「場の相状態は、陰陽札を捨てた場合に変化する」「陽場では相生が有効…陰場では逆に相克が有効となる」:
    before any 陰陽 discard neither 相生 nor 相克 is in force (--phase none): no 相順 is melded."""
    for chain in (["木1", "火2", "土3"], ["水1", "火2", "金3"]):  # a 相生 and a 相克 chain
        code, data = cli_json("check", "-r", "fesca", "--phase", "none", "--ordered", *chain)
        assert code == 1 and data["reasons"][0]["code"] == "phase", data
        code, data = cli_json("score", "-r", "fesca", "--phase", "none", "--ordered", *chain)
        assert code == 1 and data["points"] is None and data["reasons"][0]["code"] == "phase"
    code, data = cli_json("check", "-r", "fesca", "--phase", "none", "木1", "木2", "木3")  # runs and sets stay
    assert code == 0 and data["kind"] == "run"
    code, data = cli_json("solve", "-r", "fesca", "--phase", "none", "--hand", "木1 火2 土3 水9")
    assert code == 1 and not data["solvable"]
    code, data = cli_json("solve", "-r", "fesca", "--phase", "yang", "--hand", "木1 火2 土3 水9")
    assert code == 0 and data["solvable"]


def test_phase_none_in_move_until_a_yinyang_discard(tmp_path):
    """A state with no phase yet (no facts.phase, start-phase none): the 相生 chain is refused,
    quoting the phase rule; after a 陰陽3 discard (奇数の陽札を捨てると陽場になり) it may be melded."""
    game = Play(tmp_path, {"ruleset": "fesca", "players": ["A", "B"], "turn": "A", "step": "play",
                           "hands": {"A": "木1 火2 土3 陰陽3 水9", "B": "木7 火8 土9 水1"}, "stock": 30})
    refused = game.judge("meld 木1 火2 土3")
    assert not refused["legal"] and "陽場" in refused["reasons"][0]["source"]["quote"]
    assert "meld 木1 火2 土3" not in game.moves()
    state = game.do("discard 陰陽3")
    assert state["facts"]["phase"] == "yang"
    game.do("pass")
    assert game.legal("draw stock")


# -- 空無 pairs: sets of rank ZAT ---------------------------------------------------------------


@pytest.mark.parametrize("phase", ["yang", "yin", "none"])
def test_a_void_pair_is_a_zat_set_in_every_phase(phase):
    """「空無のみは 2 枚組から可」「RWではなくZATランク扱い」: two 空無 cards are a set of rank ZAT (1 point,
    空無組 2 → 1), whatever their suits — never a piece of a 相順."""
    for args in (["空無木", "空無火"], ["--ordered", "空無火", "空無木"], ["空無水", "空無金", "空無土"]):
        code, data = cli_json("check", "-r", "fesca", "--phase", phase, *args)
        assert code == 0 and data["kind"] == "zat-set", data
        assert all(p["role"] == "ZAT" and p["as"].endswith("ZAT") for p in data["cards"])
    code, data = cli_json("score", "-r", "fesca", "--phase", phase, "空無木", "空無火")
    assert code == 0 and data["points"] == 1
    code, data = cli_json("solve", "-r", "fesca", "--phase", phase, "--hand", "空無木 空無火 水9", "--best")
    assert code == 0 and [m["kind"] for m in data["melds"]] == ["zat-set"]


# -- taking back one's own meld (メルドの回収) ----------------------------------------------------


def test_recall_as_the_document_words_it(tmp_path):
    """「通常手番の捨て札手順の前にのみできる。すなわち回収したメルドを組み替えたメルドは、その手番で出すことが
    できない。次回以降の手番では、回収時と全く同じ状態の役組で出すことは禁止される。ワイルドカードなどの使用／不使用
    の状態が変わっていたり、枚数の違いがあればよい。」"""
    game = Play(tmp_path, {"ruleset": "fesca", "players": ["A", "B"], "turn": "A", "step": "play",
                           "hands": {"A": "木4 水3 水4 水5 火9 火10", "B": "金1 金2 金3 土9"}, "stock": 30,
                           "table": [{"owner": "A", "cards": "木1 木2 木3"}, {"owner": "B", "cards": "土5 土6 土7"}],
                           "flags": {"A": {"melded": True}}})
    assert not game.legal("recall 2")  # only one's own meld
    game.do("recall 1")
    for again in ("meld 木1 木2 木3", "meld 木1 木2 木3 木4", "meld 木2 木3 木4"):  # re-formed: not this turn
        verdict = game.judge(again)
        assert not verdict["legal"] and verdict["reasons"][0]["code"] == "recalled-this-turn"
    assert "組み替えた" in game.judge("meld 木2 木3 木4")["reasons"][0]["source"]["quote"]
    # B's 土5 土6 土7 is table meld 1 now; a recalled card is not played into it this turn either
    assert game.judge("op layoff 1 木1")["reasons"][0]["code"] == "recalled-this-turn"
    assert not any(a.startswith("meld 木1") for a in game.moves())
    game.do("meld 水3 水4 水5")  # other cards may be melded
    game.do("discard 火10")
    game.do("pass")
    game.do("draw stock 金4")  # B's turn
    game.do("discard 金4")
    game.do("pass")
    game.do("draw stock 土1")  # A's next turn
    verdict = game.judge("meld 木1 木2 木3")
    assert not verdict["legal"] and verdict["reasons"][0]["code"] == "recall-remeld"
    assert game.legal("meld 木1 木2 木3 木4")  # 枚数の違いがあればよい
