"""The 相順, single-card operation, restriction, turn and scoring sentences of 000_*.txt.

Each test quotes its sentence. Many operation sentences are also bundled puzzles
(puzzles/fesca/t*.yaml), run and replayed by test_puzzles.py; here each rule gets a direct check.
"""

from __future__ import annotations

import pytest
from gameapi import solve
from replay import replay

from solver.core.ruleset import load_ruleset
from solver.melding.meld.checker import NO_PHASE, MeldChecker
from solver.melding.meld.points import meld_points
from solver.melding.puzzle import table_meld
from solver.melding.table.operations import meld_state, recall, remeld_forbidden
from solver.melding.turn.problem import Problem

RS = load_ruleset("fesca")
CHECKER = MeldChecker(RS)
N = CHECKER.notation


def problem(hand, table=(), **turn):
    melds = tuple(table_meld(N, owner, cards) for owner, cards in table)
    return Problem(
        RS,
        tuple(N.parse_many(hand)),
        melds,
        turn.pop("turn", "normal"),
        N.parse(turn.pop("claimed")) if "claimed" in turn else None,
        turn.pop("has_melded", False),
        turn.pop("phase", None),
    )


def solved(p, question="go-out"):
    answer = solve(p, question)
    if answer.steps:
        assert replay(p, answer) == []
    return answer


def check(text, **kw):
    return CHECKER.check_text(text, **kw)


# -- 相順 ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cards,direction",
    [
        ("木1 火2 土3", "相生昇順"),
        ("水3 金4 土5", "相生降順"),
        ("水1 火2 金3", "相克昇順"),
        ("土7 木8 金9", "相克降順"),
    ],
)
def test_the_four_orders(cards, direction):
    """相生昇順、相生降順、相克昇順、相克降順の4つの並び順がある。"""
    v = check(cards)
    assert v.legal and v.reading.direction == direction


def test_chain_from_three_to_five_cards_any_start():
    """最大枚数は5枚（各スト1枚ずつ）… 最低は3枚からで、どのストから開始してもよい。"""
    assert check("金4 水5 木6 火7 土8").legal
    assert not check("金4 水5").legal
    v = check("金4 水5 木6 火7 土8 金9")
    assert not v.legal


def test_chain_holds_each_suit_once_so_a_sixth_card_is_refused():
    assert not check("木1 火2 土3 金4 水5 木6").legal


def test_chain_with_wilds_must_show_two_suits_and_two_ranks():
    """ワイルドカードを含んでもよいが、少なくとも異なる2ストと2ランクが含まれていて…"""
    assert check("木1 陰陽2 土3").legal  # 火2 by SW: suits 木 土, ranks 1 2 3
    v = check("土4 陰陽5 太極")  # one suit shown: 順と相順の区別がつかない
    assert not v.legal and {r.code for r in v.reasons} == {"ambiguous"}


def test_chain_that_is_also_a_run_is_illegal():
    """ランクは4と5の2つで、順であることが確定するが、スーツは土の1種のみなので、順と相順の区別が
    つかない。相順ルールを適用するゲームでは、このような公開メルドは禁止される。"""
    v = check("土4 陰陽5 太極")
    assert not v.legal
    assert any("区別" in (r.source.quote or "") for r in v.reasons)
    no_sojun = MeldChecker(load_ruleset("fesca", {"sojun": False}))
    assert no_sojun.check_text("土4 陰陽5 太極").legal  # without 相順 rules it is a run


def test_zat_inside_a_chain():
    """空無土はRWではなくZAT扱いなので、連枚数に含めて4連相順の3点となる。"""
    v, points = CHECKER.best_points(N.parse_many("空無土 金1 水2 木3 陰陽4"))
    assert v.legal and points == 3


def test_sw_splits_a_chain_and_a_natural_makes_nine():
    """陰陽10はワイルドカード扱いなので…0点となる。…金10に置き換えれば5連相順が完成して一気に9点"""
    assert CHECKER.best_points(N.parse_many("火8 土9 陰陽10 水11 木12"))[1] == 0
    assert CHECKER.best_points(N.parse_many("火8 土9 金10 水11 木12"))[1] == 9


# -- the field phase ----------------------------------------------------------------------------


def test_phase_gates_melding_chains():
    """陽場では相生が有効であり、相生昇順か相生降順のメルド公開…が許される。"""
    assert check("木1 火2 土3", phase="yang").legal
    assert not check("木1 火2 土3", phase="yin").legal
    assert check("水1 火2 金3", phase="yin").legal
    assert not check("水1 火2 金3", phase="yang").legal


def test_no_chain_before_the_phase_is_set():
    """Assumption start-phase: no 相順 before the first 陰陽 discard."""
    assert RS.rules.start_phase is None
    assert not check("木1 火2 土3", phase=NO_PHASE).legal
    assert load_ruleset("fesca", {"start-phase": "yang"}).rules.start_phase == "yang"


@pytest.mark.parametrize(
    "card,after", [("陰陽7", "yang"), ("陰陽1", "yang"), ("陰陽10", "yin"), ("陰陽2", "yin"), ("木3", "yin")]
)
def test_phase_follows_the_last_yinyang_discard(card, after):
    """奇数の陽札を捨てると陽場になり、偶数の陰札を捨てると陰場になる。"""
    assert RS.rules.phase_after(N.parse(card), "yin") == after


def test_the_answer_reports_the_phase_after_the_discard():
    answer = solved(problem("木3 木4 木5 陰陽7", phase="yin"))
    assert answer.discard == N.parse("陰陽7") and answer.phase_after == "yang"


def test_touching_a_chain_needs_its_phase():
    """相克昇順や相克降順のメルド公開はできないし、それらへの付け札等も禁止される。"""
    table = [("B", "水1 火2 金3")]
    assert not solved(problem("木4 土9", table, has_melded=True, phase="yang")).solvable
    assert solved(problem("木4 土9", table, has_melded=True, phase="yin")).solvable


def test_take_natural_from_a_ke_chain_only_in_yin():
    """抜き札も陰場のみ"""
    table = [("B", "水1 火2 金3 木4")]
    yin = solved(problem("陰陽3 金4 金5 水9", table, has_melded=True, phase="yin"))
    assert [s.action for s in yin.steps][0] == "take-natural"
    yang = solved(problem("陰陽3 金4 金5 水9", table, has_melded=True, phase="yang"))
    assert "take-natural" not in [s.action for s in yang.steps]


# -- single-card operations ---------------------------------------------------------------------


def actions(answer):
    return [s.action for s in answer.steps]


def test_layoff_one_card():
    """付け札: 公開メルド（役組）に1枚付け足してカードを出すこと。"""
    a = solved(problem("木6 火9", [("B", "木3 木4 木5")], has_melded=True))
    assert actions(a) == ["layoff"] and a.discard == N.parse("火9")


def test_layoff_at_either_end_up_to_five():
    """付け札は両側どちらに伸ばしてもよいが、上限の5枚まで"""
    a = solved(problem("木1 水5 木6", [("me", "火2 土3 金4")], has_melded=True, phase="yang"))
    # 木1 火2 土3 金4 水5 or 火2 土3 金4 水5 木6: five either way, the sixth card discarded
    assert actions(a) == ["layoff", "layoff"] and a.discard in (N.parse("木6"), N.parse("木1"))
    assert len(a.steps[-1].result.faces) == 5
    assert a.score["meld_points"] == 8


def test_substitute_takes_the_wild():
    """差し札: …ワイルドカードの位置に相当する札を1枚出して、そのワイルドカードを代わりに引き取る"""
    a = solved(problem("木4 火8 土8 水2", [("B", "木3 太極 木5")], has_melded=True))
    assert actions(a)[0] == "substitute" and a.steps[0].taken == (N.parse("太極"),)


def test_substitute_needs_the_card_the_wild_stands_for():
    a = solved(problem("木6 火8 土8 水2", [("B", "木3 太極 木5")], has_melded=True), "best")
    assert "substitute" not in actions(a)


def test_bury_keeps_the_wild_under_the_card():
    """埋め潰し: 五行札を差し札しても、ワイルドカードを取得しないこと。五行札はワイルドカードに重ねて置く。"""
    a = solved(problem("金10 木1", [("me", "火8 土9 陰陽10 水11 木12")], has_melded=True, phase="yang"))
    assert actions(a) == ["bury"] and a.steps[0].taken == ()
    assert a.steps[0].result.buried[2] == N.parse("陰陽10")


def test_take_natural_replaces_a_five_element_card_with_a_wild():
    """抜き札: 公開メルドに含まれる五行札をワイルドカードによって置き換えて取得すること。"""
    a = solved(problem("太極 火4 土4 金9", [("B", "木3 木4 木5")]))
    assert actions(a) == ["take-natural", "meld"] and a.steps[0].taken == (N.parse("木4"),)


def test_take_natural_lengthens_own_run_from_one_to_eight_points():
    """ワイルドカードをそのまま使って連結させると…0 + 1点であるが、金8を取得してから繋ぐと、6連順で8点"""
    table = [("me", "金9 金10 金11"), ("B", "金8 木8 火8")]
    a = solved(problem("金6 金7 太極 水3", table, has_melded=True), "best")
    assert a.score["meld_points"] == 8 - 1
    assert actions(a)[0] == "take-natural"
    assert CHECKER.best_points(N.parse_many("金6 金7 太極 金9 金10 金11"))[1] == 1


def test_excavate_takes_both_cards_of_a_buried_pair():
    """発掘: 埋め潰されたワイルドカードと五行札を、別のワイルドカードで抜き札することで、2枚とも交換取得"""
    a = solved(problem("太極 木5 火5 水9", [("B", "金4 金5(空無金) 金6")], has_melded=True))
    assert actions(a)[0] == "excavate"
    assert sorted(a.steps[0].taken) == sorted(N.parse_many("金5 空無金"))


def test_chain_shift_adds_a_sixth_and_takes_the_far_end():
    """相順の付け抜き札: 6枚目の相順となる札を片側に付け札して、逆側の1枚を引き取る。"""
    a = solved(problem("木6 土1 金1 陰陽9", [("me", "木1 火2 土3 金4 水5")], has_melded=True, phase="yang"))
    assert actions(a)[0] == "chain-shift" and a.steps[0].taken == (N.parse("木1"),)


# -- restrictions before one's own first meld ------------------------------------------------


def test_hand_shrinking_operations_are_forbidden_before_own_meld():
    """メルドを一つも公開していない状態では、付け札、埋め潰しなど手札の枚数が減る単札操作は禁止される。"""
    assert not solved(problem("木6 火9", [("B", "木3 木4 木5")])).solvable
    a = solved(problem("木4 水9", [("B", "木3 太極 木5")]), "best")
    assert "bury" not in actions(a) and "layoff" not in actions(a)


def test_exchanges_before_own_meld_need_the_taken_card_melded_at_once():
    """差し札、抜き札、発掘、付け抜き札など…交換取得した札を即時に使用（メルド公開）することを条件に許可される。"""
    a = solved(problem("木4 火8 土8 水2", [("B", "木3 太極 木5")]))
    assert actions(a) == ["substitute", "meld"]
    assert N.parse("太極") in a.steps[1].played
    # no meld can use the taken wild: the exchange is not allowed
    assert not solved(problem("木4 水9", [("B", "木3 太極 木5")])).solvable


def test_no_restriction_once_a_meld_is_made_this_turn():
    """一つでもメルドを公開していれば、上記のような使用制限はない。"""
    a = solved(problem("土1 土2 土3 木6 水9", [("B", "木3 木4 木5")]))
    assert actions(a) == ["meld", "layoff"]


# -- turns ---------------------------------------------------------------------------------


def test_normal_turn_must_discard_to_go_out():
    """逆に通常の手番では、必ず捨て札して上がる必要がある。"""
    assert not solved(problem("木3 木4 木5")).solvable
    assert solved(problem("木3 木4 木5 水9")).solvable


def test_claimed_turn_melds_the_claim_first_and_needs_no_discard():
    """鳴き手番では、捨て札を1枚取得し、その札を含むメルドを最初に出さなければならない。…（鳴き上がりの捨て札無し）"""
    a = solved(problem("金8 木8 火8 水5", [("B", "水2 水3 水4")], turn="claimed", claimed="金8"))
    assert a.solvable and a.discard is None
    assert actions(a)[0] == "meld" and N.parse("金8") in a.steps[0].played


def test_claimed_turn_ends_by_bury():
    """この状態で最後に付け札や差し札の埋め潰しで手札を無くして上がることができる。"""
    a = solved(problem("土8 火8 金8 木4", [("B", "木3 太極 木5")], turn="claimed", claimed="土8"))
    # the meld, then 木4 buried on 太極 — or, worth the same, 木4 for 太極 (差し札) and 太極 laid off
    assert a.solvable and actions(a) in (["meld", "bury"], ["meld", "substitute", "layoff"])


def test_claimed_card_that_fits_no_meld_is_an_impossible_state():
    from solver.core.errors import MeldsError

    with pytest.raises(MeldsError, match="impossible state"):
        solved(problem("水1 木3 木4 木5", turn="claimed", claimed="水1"))


# -- recall --------------------------------------------------------------------------------


def test_recall_returns_every_card_with_buried_wilds():
    """他人に単札操作されていて…全てまとめて手札に戻すことができる。埋め潰されたワイルドカードも新たに分離して活用"""
    meld = table_meld(N, "me", "木3 木4(太極) 木5 木6")
    assert sorted(recall(meld)) == sorted(N.parse_many("木3 木4 太極 木5 木6"))
    from solver.core.errors import MeldsError

    with pytest.raises(MeldsError):
        recall(table_meld(N, "B", "木3 木4 木5"))


def test_recalled_meld_cannot_return_in_the_same_state():
    """次回以降の手番では、回収時と全く同じ状態の役組で出すことは禁止される。ワイルドカードなどの使用／不使用
    の状態が変わっていたり、枚数の違いがあればよい。"""
    recalled = [meld_state(check("木3 木4 太極").reading)]
    assert remeld_forbidden(check("木3 木4 太極").reading, recalled)
    assert not remeld_forbidden(check("木3 木4 木5").reading, recalled)
    assert not remeld_forbidden(check("木3 木4 太極 木6", ordered=False).reading, recalled)


# -- scoring ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cards,points",
    [("木1 火1 土1", 3), ("陰陽4", 3), ("空無水", 5), ("太極", 7), ("木1 木2 木3 空無土", 8), ("火1 火2 陰陽2", 5)],
)
def test_penalty_table(cards, points):
    """種別 点/枚: 五行 1, 陰陽 3, 空無 5, 太極 7 (A の 8 点, D の 5 点)"""
    assert sum(RS.points(f) for f in N.parse_many(cards)) == points


def test_document_run_example_one_point_or_four():
    """6がワイルドなので、3,4,5と7に分割されて3連順のみの1点になる。もし土6なら5連順の4点になる。"""
    assert meld_points(check("土3 土4 土5 太極 土7", ordered=True).reading) == 1
    assert meld_points(check("土3 土4 土5 土6 土7").reading) == 4


@pytest.mark.parametrize(
    "cards,points",
    [
        ("木1 木2 木3", 1),
        ("木1 木2 木3 木4 木5 木6", 8),
        (" ".join(f"木{r}" for r in range(1, 13)) + " 空無木", 1024),
        ("陰陽1 陰陽2", 1),
        ("陰陽1 陰陽2 陰陽3 陰陽4", 4),
        ("木5 火5 土5", 1),
        ("木5 火5 土5 金5 水5 陰陽5", 8),
        ("空無木 空無火", 1),
        ("空無木 空無火 空無土 空無金 空無水", 8),
        ("木1 火2 土3", 1),
        ("木1 火2 土3 金4", 3),
        ("木1 火2 土3 金4 水5", 9),
    ],
)
def test_meld_point_tables(cards, points):
    """順 1 2 4 8 … 1024 / 陰陽順 1 2 4 8 16 … / 組 1 2 4 8 / 空無組 1 2 4 8 16 / 相順 1 3 9"""
    assert CHECKER.best_points(N.parse_many(cards))[1] == points


def test_wilds_are_not_counted():
    """ワイルド扱いの札は枚数に含まれない。"""
    assert CHECKER.best_points(N.parse_many("木5 火5 陰陽5"))[1] == 0  # two naturals
    assert CHECKER.best_points(N.parse_many("木5 火5 土5 太極"))[1] == 1  # three
