"""Every rule sentence of the 組 (set) and 順 (run) sections of 000_*.txt, legal and illegal.

Each test names the sentence it checks. The document's examples were pictures; where only a
caption survives, the test uses the smallest hand that fits the caption.
"""

from __future__ import annotations

import pytest
from conftest import as_text


def check(checker, text, **kw):
    return checker.check_text(text, **kw)


def role_of(verdict, card_text, checker):
    face = checker.notation.parse(card_text)
    return next(p.role for p in verdict.reading.placements if p.face == face)


def codes(verdict):
    return [r.code for r in verdict.reasons]


# -- 組 (セット) : 3 ~ 6 枚の同ランク札 (空無 2 枚~) --------------------------------------------


@pytest.mark.parametrize(
    "cards", ["木5 火5 土5", "木5 火5 土5 金5", "木5 火5 土5 金5 水5", "木5 火5 土5 金5 水5 陰陽5"]
)
def test_set_of_three_to_six_same_rank_cards(fesca_checker, cards):
    v = check(fesca_checker, cards)
    assert v.legal and v.kind.id == "set"


def test_two_five_element_cards_are_too_short_for_a_set(fesca_checker):
    v = check(fesca_checker, "木5 火5")
    assert not v.legal and codes(v) == ["too-short"]


def test_seven_cards_are_too_long_for_any_set(fesca_checker):
    v = check(fesca_checker, "木5 火5 土5 金5 水5 陰陽5 太極")
    assert not v.legal and "too-long" in codes(v)


def test_set_ranks_must_agree(fesca_checker):
    v = check(fesca_checker, "木5 火5 土6")
    assert not v.legal and codes(v) == ["not-a-meld"]


def test_three_card_set_with_sw(fesca_checker):
    """・ SWを含む 3 枚組"""
    v = check(fesca_checker, "木5 火5 陰陽5")
    assert v.legal and v.kind.id == "set"
    assert role_of(v, "陰陽5", fesca_checker) == "SW"
    assert set(as_text(fesca_checker, v.reading)) <= {"木5", "火5", "土5", "金5", "水5"}
    assert {fesca_checker.notation.format_identity(i) for i in v.could_be[2]} | {
        as_text(fesca_checker, v.reading)[2]
    } == {"土5", "金5", "水5"}


def test_three_card_set_with_rw(fesca_checker):
    """・ RWを含む 3 枚組"""
    v = check(fesca_checker, "木5 火5 空無土")
    assert v.legal and v.kind.id == "set"
    assert role_of(v, "空無土", fesca_checker) == "RW"
    assert "土5" in as_text(fesca_checker, v.reading)


@pytest.mark.parametrize("cards", ["木5 火5 陰陽5 空無金", "木5 火5 土5 陰陽5 空無金", "木5 陰陽5 空無金 太極"])
def test_four_and_five_card_sets_with_rw_and_sw(fesca_checker, cards):
    """RWやSWを含む 4 枚組、5 枚組も可"""
    v = check(fesca_checker, cards)
    assert v.legal and v.kind.id == "set"
    assert len(set(p.identity for p in v.reading.placements)) == len(v.reading.placements)


@pytest.mark.parametrize("cards", ["空無木 空無火", "空無木 空無火 空無土", "空無木 空無火 空無土 空無金 空無水"])
def test_void_only_sets_from_two_cards_have_rank_zat(fesca_checker, cards):
    """・ 空無のみは 2 枚組から可 / RWではなくZATランク扱い"""
    v = check(fesca_checker, cards)
    assert v.legal and v.kind.id == "zat-set"
    assert all(p.role == "ZAT" and p.identity[1] == "ZAT" and not p.wild for p in v.reading.placements)


def test_a_single_void_card_is_no_meld(fesca_checker):
    v = check(fesca_checker, "空無木")
    assert not v.legal and codes(v) == ["too-short"]


def test_void_cards_with_a_five_element_card_are_rank_wilds(fesca_checker):
    """RW role needs a non-空無 card beside it; with one, the 空無 cards are RWs of a normal set."""
    v = check(
        fesca_checker,
        "空無木 空無火 土5",
    )
    assert not v.legal  # a set 木5 火5 土5 — and a 相順 through ZAT: ambiguous
    assert "ambiguous" in codes(v)


def test_six_card_set_has_yinyang_as_sixth_suit(fesca_checker):
    """・ 6 枚組 (陰陽札は第 6 の陰陽スート扱い)"""
    v = check(fesca_checker, "木5 火5 土5 金5 水5 陰陽5")
    assert v.legal and role_of(v, "陰陽5", fesca_checker) == "natural"
    assert ("陰陽", "5") in [p.identity for p in v.reading.placements]
    assert v.reading.wilds == 0


def test_six_card_set_with_a_wild_standing_for_a_five_element_card(fesca_checker):
    v = check(fesca_checker, "木5 火5 土5 金5 太極 陰陽5")
    assert v.legal and v.kind.id == "set"
    assert role_of(v, "陰陽5", fesca_checker) == "natural"
    assert role_of(v, "太極", fesca_checker) == "GW"


def test_yinyang_in_a_five_card_set_is_sw(fesca_checker):
    """※ 5 枚組に含まれる陰陽札は S W 扱い"""
    v = check(fesca_checker, "木5 火5 土5 金5 陰陽5")
    assert v.legal and role_of(v, "陰陽5", fesca_checker) == "SW"
    assert "水5" in as_text(fesca_checker, v.reading)


def test_a_wild_may_not_become_a_card_already_in_the_meld(fesca_checker):
    """× … に化けると本物と被る! / RW同時存在禁止ルールから認められない組み合わせ"""
    v = check(fesca_checker, "木5 火5 空無木")
    assert not v.legal and codes(v) == ["duplicate-identity"]
    assert "空無木" in v.reasons[0].message and "木5" in v.reasons[0].message
    assert "本物と被る" in v.reasons[0].source.quote


def test_no_two_identical_substitutes_in_a_six_suit_set(fesca_checker):
    v = check(fesca_checker, "木5 火5 土5 金5 水5 太極")
    assert not v.legal and codes(v) == ["duplicate-identity"]


def test_set_or_run_undecided_is_illegal(fesca_checker):
    """× 6,6,6か4,5,6か? / 組か順が定まらない複合は認められない"""
    v = check(fesca_checker, "陰陽6 空無木 太極")
    assert not v.legal and codes(v)[0] == "ambiguous"
    assert {r.kind.family for r in v.readings} >= {"set", "run"}
    assert "定まらない" in v.reasons[0].source.quote


def test_set_or_run_undecided_is_illegal_without_sojun_too(fesca_no_sojun_checker):
    v = check(fesca_no_sojun_checker, "陰陽6 空無木 太極")
    assert not v.legal and codes(v) == ["ambiguous"]
    assert {r.kind.family for r in v.readings} == {"set", "run"}


# -- 順 (ラン) : 3 枚以上の同スートの連番札 (陰陽 2 枚~) ------------------------------------------


def test_three_card_run_of_wood(fesca_checker):
    """・ 木の 3 連順"""
    v = check(fesca_checker, "木3 木4 木5")
    assert v.legal and v.kind.id == "run" and as_text(fesca_checker, v.reading) == ["木3", "木4", "木5"]


def test_two_cards_are_too_short_for_a_run(fesca_checker):
    v = check(fesca_checker, "木3 木4")
    assert not v.legal and codes(v) == ["too-short"]


def test_run_suits_must_agree(fesca_checker):
    v = check(fesca_checker, "木3 木4 火5")
    assert not v.legal


def test_earth_run_with_rw(fesca_checker):
    """・ RWを含む土の 3 連順"""
    v = check(fesca_checker, "土3 空無土 土5")
    assert v.legal and v.kind.id == "run"
    assert as_text(fesca_checker, v.reading) == ["土3", "土4", "土5"]
    assert role_of(v, "空無土", fesca_checker) == "RW"


def test_rw_of_another_suit_does_not_fit_a_run(fesca_checker):
    v = check(fesca_checker, "土3 空無木 土5")
    assert not v.legal


def test_metal_run_of_four_with_sw(fesca_checker):
    """・ SWを含む金の 4 連順"""
    v = check(fesca_checker, "金3 陰陽4 金5 金6")
    assert v.legal and v.kind.id == "run"
    assert role_of(v, "陰陽4", fesca_checker) == "SW"
    assert as_text(fesca_checker, v.reading) == ["金3", "金4", "金5", "金6"]


def test_sw_keeps_its_rank(fesca_checker):
    v = check(fesca_checker, "金3 陰陽7 金5 金6")
    assert not v.legal


def test_zat_joins_twelve_and_one(fesca_checker):
    """・ ZATを介して12と1を繋ぐ"""
    v = check(fesca_checker, "木11 木12 空無木 木1 木2")
    assert v.legal and v.kind.id == "run"
    assert as_text(fesca_checker, v.reading) == ["木11", "木12", "木ZAT", "木1", "木2"]
    assert role_of(v, "空無木", fesca_checker) == "ZAT"


def test_water_run_of_five_with_sw_and_rw(fesca_checker):
    """・ SWとRWを含む水の 5 連順"""
    v = check(fesca_checker, "水3 陰陽4 水5 空無水 水7")
    assert v.legal and v.kind.id == "run"
    assert as_text(fesca_checker, v.reading) == ["水3", "水4", "水5", "水6", "水7"]
    assert role_of(v, "陰陽4", fesca_checker) == "SW" and role_of(v, "空無水", fesca_checker) == "RW"


@pytest.mark.parametrize(
    "cards",
    ["陰陽3 陰陽4", "陰陽3 陰陽4 陰陽5", "陰陽1 陰陽2 陰陽3 陰陽4 陰陽5 陰陽6 陰陽7 陰陽8 陰陽9 陰陽10 陰陽11 陰陽12"],
)
def test_yinyang_only_runs_from_two_cards_as_their_own_suit(fesca_checker, cards):
    """・ 陰陽札のみは 2 枚の順より可 / SWではなく陰陽スート扱い"""
    v = check(fesca_checker, cards)
    assert v.legal and v.kind.id == "yinyang-run"
    assert all(p.role == "natural" and p.identity[0] == "陰陽" for p in v.reading.placements)


def test_yinyang_cards_with_an_rw_act_as_sw(fesca_no_sojun_checker):
    """・ RWを含むとSW扱い (here without 相順, which would make this small meld ambiguous)"""
    v = check(fesca_no_sojun_checker, "陰陽3 陰陽4 空無木")
    assert v.legal and v.kind.id == "run"
    assert role_of(v, "陰陽3", fesca_no_sojun_checker) == "SW"
    assert {p.identity[0] for p in v.reading.placements} == {"木"}


def test_yinyang_cards_with_an_rw_and_a_natural_act_as_sw(fesca_checker):
    """・ RWを含むとSW扱い, with a 五行 card of the RW's suit: no 相順 reading is possible."""
    v = check(fesca_checker, "陰陽3 陰陽4 木5 空無木")
    assert v.legal and v.kind.id == "run"
    assert role_of(v, "陰陽3", fesca_checker) == "SW"


def test_gw_is_an_rw_of_yinyang_in_yinyang_runs(fesca_checker):
    """・ GWは陰陽札のRW扱い"""
    v = check(fesca_checker, "陰陽3 陰陽4 太極")
    assert v.legal and v.kind.id == "yinyang-run"
    assert role_of(v, "太極", fesca_checker) == "GW-RW"
    assert role_of(v, "陰陽3", fesca_checker) == "natural"


def test_longest_run_is_thirteen_with_zat(fesca_checker):
    """最長はZATを含む13連順"""
    cards = " ".join(f"木{r}" for r in range(1, 13)) + " 空無木"
    v = check(fesca_checker, cards)
    assert v.legal and v.kind.id == "run" and len(v.reading.placements) == 13


def test_fourteen_cards_are_too_long(fesca_checker):
    cards = " ".join(f"木{r}" for r in range(1, 13)) + " 空無木 太極"
    v = check(fesca_checker, cards)
    assert not v.legal and codes(v) == ["too-long"]


def test_twelve_and_one_do_not_join(fesca_checker):
    """× 12と1は繋がらないので順として認められない"""
    v = check(fesca_checker, "木11 木12 木1")
    assert not v.legal and codes(v) == ["not-a-meld"]
    assert "12と1を繋ぐ" in v.reasons[0].source.quote


def test_gw_cannot_act_as_zat(fesca_checker):
    v = check(fesca_checker, "木12 太極 木1")
    assert not v.legal


def test_four_four_or_four_five_is_illegal(fesca_checker):
    """× 4,4か4,5か? / 組(セット)か順(ラン)かが定まらないので認められない (assumption
    four-four-example: the lost picture is read as 陰陽4 with 太極)"""
    v = check(fesca_checker, "陰陽4 太極")
    assert not v.legal and codes(v) == ["too-short"]
    assert "陰陽札のみは" in v.reasons[0].source.quote


# -- table layout ---------------------------------------------------------------------------


def test_ordered_layout_fixes_what_a_wild_stands_for(fesca_checker):
    v = check(fesca_checker, "木3 太極 木5", ordered=True)
    assert v.legal and as_text(fesca_checker, v.reading) == ["木3", "木4", "木5"]
    v = check(fesca_checker, "太極 木3 木4", ordered=True)
    assert v.legal and as_text(fesca_checker, v.reading) == ["木2", "木3", "木4"]


def test_ordered_layout_may_read_right_to_left(fesca_checker):
    v = check(fesca_checker, "木5 木4 木3", ordered=True)
    assert v.legal


def test_ordered_layout_rejects_a_gap(fesca_checker):
    assert not check(fesca_checker, "木3 木5 太極", ordered=True).legal
    assert check(fesca_checker, "木3 木5 太極").legal  # as a multiset the wild fills the gap


def test_void_card_at_a_run_end_reads_as_zat_or_rw_by_layout(fesca_checker):
    v = check(fesca_checker, "空無木 木1 木2", ordered=True)
    assert v.legal and role_of(v, "空無木", fesca_checker) == "ZAT"
    v = check(fesca_checker, "木1 木2 空無木", ordered=True)
    assert v.legal and role_of(v, "空無木", fesca_checker) == "RW"
    assert as_text(fesca_checker, v.reading)[2] == "木3"


def test_multiset_prefers_the_reading_with_fewest_wilds(fesca_checker):
    v = check(fesca_checker, "空無木 木1 木2")
    assert v.legal and role_of(v, "空無木", fesca_checker) == "ZAT"


def test_a_yinyang_run_longer_than_its_order_is_explained_not_a_crash(fesca_checker):
    """Found by melds audit: a 13-card 陰陽順 (the document's "最長はZATを含む13連順") has no window in
    the twelve 陰陽 ranks; the checker must say too-long, not fail decoding a reading."""
    v = check(fesca_checker, "陰陽2 陰陽3 陰陽4 陰陽5 陰陽6 陰陽7 陰陽8 陰陽9 陰陽10 陰陽11 陰陽12 太極 陰陽1")
    assert not v.legal and "too-long" in codes(v)
