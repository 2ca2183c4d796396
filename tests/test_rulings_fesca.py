"""Rulings of the Fesca document (000_bb200cc6bb22cd11.txt), each through the command line for
every command it touches. Each test names the sentence it pins."""

from __future__ import annotations

import json

import pytest
from clirun import run
from rulings import Play, cli_json, write_state

DOC = "000_bb200cc6bb22cd11.txt"
WOOD = [f"木{r}" for r in range(1, 13)]


def _json(*args):
    result = run(*args, "--json")
    return result.exit_code, json.loads(result.output)


# -- 順: ZAT is 0 and 13 at once; it joins 12 and 1; the longest run is the 13-card run with ZAT --


ZAT_RUNS = [
    WOOD + ["空無木"],  # ZAT as 13, after 12
    ["空無木"] + WOOD,  # ZAT as 0, before 1
    ["木12", "空無木"] + WOOD[:11],  # 12 → ZAT → 1 … 11: round through ZAT
    WOOD[4:] + ["空無木"] + WOOD[:4],  # 5 … 12 ZAT 1 … 4
    ["木11", "木12", "空無木", "木1", "木2"],  # the document's joining example
    ["木12", "空無木", "木1"],
]


@pytest.mark.parametrize("layout", ZAT_RUNS, ids=lambda cards: " ".join(cards))
def test_zat_runs_in_table_order_check_and_score(layout):
    """「ZAT: … 空無札がランク0とランク13の両扱いとする機能」「ZATを介して12と1を繋ぐ」
    「最長はZATを含む13連順」: a ZAT card at either end, or a run going round through ZAT, is a
    run whichever way it is laid out; its ZAT counts in the run's length
    (空無土はRWではなくZAT扱いなので、連枚数に含めて)."""
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


@pytest.mark.parametrize(
    "layout",
    [["木12", "木1", "木2"], WOOD[4:11] + ["空無木", "木12"] + WOOD[:4]],
    ids=["12-1 without ZAT", "ZAT out of place"],
)
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
    game = Play(
        tmp_path,
        {
            "ruleset": "fesca",
            "players": ["A", "B"],
            "turn": "A",
            "step": "play",
            "hands": {"A": "木1 火2 土3 陰陽3 水9", "B": "木7 火8 土9 水1"},
            "stock": 30,
        },
    )
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
    game = Play(
        tmp_path,
        {
            "ruleset": "fesca",
            "players": ["A", "B"],
            "turn": "A",
            "step": "play",
            "hands": {"A": "木4 水3 水4 水5 火9 火10", "B": "金1 金2 金3 土9"},
            "stock": 30,
            "table": [{"owner": "A", "cards": "木1 木2 木3"}, {"owner": "B", "cards": "土5 土6 土7"}],
            "flags": {"A": {"melded": True}},
        },
    )
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


# -- 鳴き: the claimed card's meld comes first; no claim without one --------------------------------


CLAIM_TABLE = {
    "ruleset": "fesca",
    "players": ["A", "B", "C", "D"],
    "turn": "A",
    "step": "play",
    "hands": {"A": "木4 水9 金11", "B": "火4 土4 金4 水1", "C": "木6 木5 火9 水2", "D": "火1 火2"},
    "stock": 30,
    "facts": {"phase": "yang"},
    "table": [{"owner": "C", "cards": "木1 木2 木3"}],
    "flags": {"B": {"melded": True}, "C": {"melded": True}},
}


def test_a_claimed_turn_melds_the_claimed_card_before_any_operation(tmp_path):
    """「鳴き手番では、捨て札を1枚取得し、その札を含むメルドを最初に出さなければならない。その後、他のメルドを出し
    たり付け札等の単札操作を繰り返すことができる。」: the claimed card may not be laid off, nor any operation
    come before its meld; `moves` lists that meld in table order."""
    game = Play(tmp_path, CLAIM_TABLE)
    game.do("discard 木4")
    game.do("C: claim")
    for op in ("op layoff 1 木4", "op layoff 1 水2"):
        verdict = game.judge(op)
        assert not verdict["legal"] and verdict["reasons"][0]["code"] == "claimed-card-first", verdict
        assert "最初に出さなければならない" in verdict["reasons"][0]["source"]["quote"]
    assert game.moves() == ["meld 木4 木5 木6"]
    game.do("meld 木4 木5 木6")
    assert "end" in game.moves()


def test_no_claim_without_a_meld_for_the_claimed_card(tmp_path):
    """The same sentence: a player whose hand makes no meld with the discard cannot claim it (the turn
    could never begin with that meld); `moves` offers the claim only to those who can, `solve
    --claimed` calls such a hand impossible."""
    game = Play(tmp_path, CLAIM_TABLE)
    game.do("discard 水9")
    verdict = game.judge("B: claim")
    assert not verdict["legal"] and verdict["reasons"][0]["code"] == "claim-cannot-meld"
    assert game.moves() == ["pass"]
    assert run("solve", "-r", "fesca", "--hand", "火4 土4 金4 水1 水9", "--claimed", "水9").exit_code == 2


# -- cards taken before one's own first meld are melded at once -----------------------------------


def test_an_exchange_before_ones_first_meld_is_followed_by_its_meld(tmp_path):
    """「差し札、抜き札、発掘、付け抜き札など手札と交換する単札操作は、交換取得した札を即時に使用（メルド公開）すること
    を条件に許可される。言い換えると、交換取得した札を手札に加えてそのまま保持することは禁止される。」: after a 差し札
    before one's own meld, the next play is a meld holding the wild taken — not another exchange that
    would pass it on (or leave it in the hand), not a meld without it."""
    game = Play(
        tmp_path,
        {
            "ruleset": "fesca",
            "players": ["A", "B"],
            "turn": "A",
            "step": "play",
            "hands": {"A": "土8 火3 火4 水7 水6 金3", "B": 9},
            "stock": 30,
            "facts": {"phase": "yang"},
            "table": [{"owner": "B", "cards": "木8 火8 太極"}, {"owner": "B", "cards": "金1 金2 空無金"}],
        },
    )
    game.do("op substitute 1 土8")
    for action in ("op take-natural 1 太極", "op substitute 2 金3"):
        verdict = game.judge(action)
        assert not verdict["legal"] and verdict["reasons"][0]["code"] == "taken-not-melded", verdict
    assert all(a.startswith("meld") and "太極" in a for a in game.moves())
    game.do("meld 火3 火4 太極")
    assert game.legal("op substitute 2 金3")  # one's own meld is out: no restriction any more


# -- recall: every card of the meld comes back, and one's last meld recalled is no meld ------------


def test_a_recalled_buried_wild_stays_in_the_hand_that_turn_and_no_meld_is_left(tmp_path):
    """「埋め潰されたワイルドカードも新たに分離して活用することができる。」 with 「すなわち回収したメルドを組み替えた
    メルドは、その手番で出すことができない。」: the buried 太極 comes back with its meld and, like the meld's
    other cards, waits for a later turn; and with no meld of one's own left on the table
    (「メルドを一つも公開していない状態では、付け札…は禁止される」) lay-offs are closed again."""
    game = Play(
        tmp_path,
        {
            "ruleset": "fesca",
            "players": ["A", "B"],
            "turn": "A",
            "step": "play",
            "hands": {"A": "火7 水9 金6 金7", "B": 5},
            "stock": 30,
            "facts": {"phase": "yang"},
            "table": [{"owner": "A", "cards": "木5 火5 土5(太極)"}, {"owner": "B", "cards": "水10 水11 水12"}],
            "flags": {"A": {"melded": True}},
        },
    )
    state = game.do("recall 1")
    assert "太極" in state["hands"]["A"] and state["flags"]["A"]["melded"] is False
    verdict = game.judge("meld 金6 金7 太極")
    assert not verdict["legal"] and verdict["reasons"][0]["code"] == "recalled-this-turn"
    verdict = game.judge("op layoff 1 水9")  # no meld of A's own on the table now
    assert not verdict["legal"] and verdict["reasons"][0]["code"] == "before-own-meld"
    assert not any(a.startswith(("op ", "meld")) for a in game.moves())


def test_an_empty_stock_is_made_again_from_the_discards(tmp_path):
    """The document's start and end of play are lost; the ruleset assumes (stock-exhausted) that a
    normal turn meeting an empty stock turns the discards into a new stock and draws — never a
    position with no legal action."""
    game = Play(
        tmp_path,
        {
            "ruleset": "fesca",
            "players": ["A", "B"],
            "turn": "A",
            "step": "draw",
            "hands": {"A": "木4 水9", "B": "火4 土4 金4"},
            "stock": 0,
            "discards": "金9 水1",
            "facts": {"phase": "yang"},
        },
    )
    assert game.moves() == ["restock"]
    verdict = game.judge("restock")
    assert verdict["legal"] and verdict["state"]["stock"] == 2 and not verdict["state"]["discards"]
    game.do("restock")
    assert game.moves() == ["draw stock"]


def test_a_table_meld_no_rule_allows_makes_the_state_impossible(tmp_path):
    """「組か順が定まらない複合は認められない」: 木1 陰陽2 太極 (a run 木1 木2 木3, or a 相生 chain 木1 火2 土3?) is
    no meld, so no table holds it: a state that lays it on the table is refused (exit 2) with that
    rule, not judged as if the meld were of the other field phase."""
    path = write_state(
        tmp_path,
        "s",
        {
            "ruleset": "fesca",
            "players": ["A", "B"],
            "turn": "A",
            "step": "play",
            "hands": {"A": "金4 水9 水5", "B": 9},
            "stock": 30,
            "facts": {"phase": "yang"},
            "table": [{"owner": "A", "cards": "木1 陰陽2 太極"}],
            "flags": {"A": {"melded": True}},
        },
    )
    for args in (["moves", str(path)], ["move", str(path), "op layoff 1 金4"]):
        result = run(*args, "--json")
        assert result.exit_code == 2, result.output
        error = json.loads(result.output.splitlines()[0])["error"]
        assert error["code"] == "impossible-state" and "組か順が定まらない" in error["source"]["quote"]


def test_an_exchange_before_ones_first_meld_needs_a_meld_for_what_it_takes(tmp_path):
    """「交換取得した札を即時に使用（メルド公開）することを条件に許可される。」 with 「逆に通常の手番では、必ず捨て札
    して上がる必要がある。」: before one's own meld a 差し札 is allowed only when the wild it takes can be
    melded at once with a card left for the discard — as `melds solve` finds it; never a position with
    no legal action."""
    state = {
        "ruleset": "fesca",
        "players": ["A", "B"],
        "turn": "A",
        "step": "play",
        "hands": {"A": "土8 水1 水2", "B": 9},
        "stock": 30,
        "facts": {"phase": "yang"},
        "table": [{"owner": "B", "cards": "木8 火8 太極"}],
    }
    game = Play(tmp_path, state)
    verdict = game.judge("op substitute 1 土8")
    assert not verdict["legal"] and verdict["reasons"][0]["code"] == "taken-not-meldable"
    assert "op substitute 1 土8" not in game.moves()
    code, data = cli_json("solve", "-r", "fesca", "--hand", "土8 水1 水2", "--table", "B: 木8 火8 太極")
    assert code == 1 and not data["solvable"]
    game = Play(tmp_path, {**state, "hands": {"A": "土8 水1 水2 金5", "B": 9}})
    game.do("op substitute 1 土8")
    assert game.moves() == ["meld 水1 水2 太極"]
    code, data = cli_json("solve", "-r", "fesca", "--hand", "土8 水1 水2 金5", "--table", "B: 木8 火8 太極")
    assert code == 0 and data["solvable"] and data["discard"] == "金5"


def test_a_meld_of_ones_own_on_the_table_lifts_the_restrictions_in_every_command(tmp_path):
    """「一つでもメルドを公開していれば、上記のような使用制限はない。」: a meld of the player's own on the table is
    a public meld whether or not the state's flag or the --has-melded option says so: `move` and
    `solve` both allow the lay-off."""
    game = Play(
        tmp_path,
        {
            "ruleset": "fesca",
            "players": ["A", "B"],
            "turn": "A",
            "step": "play",
            "hands": {"A": "金12 火3", "B": 9},
            "stock": 30,
            "facts": {"phase": "yang"},
            "table": [{"owner": "B", "cards": "金9 金10 金11"}, {"owner": "A", "cards": "水9 水10 水11"}],
        },
    )
    assert game.legal("op layoff 1 金12")
    code, data = cli_json(
        "solve", "-r", "fesca", "--hand", "金12 火3", "--table", "B: 金9 金10 金11", "--table", "me: 水9 水10 水11"
    )
    assert code == 0 and data["solvable"] and data["discard"] == "火3"
