"""Every rule sentence of 003_*.txt (Basic Rummy) that a meld, deal or score can show."""

from __future__ import annotations

import pytest

from solver.core.ruleset import load_ruleset
from solver.melding.meld.checker import MeldChecker


def check(checker, text, **kw):
    return checker.check_text(text, **kw)


def codes(v):
    return [r.code for r in v.reasons]


# シークエンス: 同じスートの3枚かそれ以上の続き札


@pytest.mark.parametrize("cards", ["S9 S10 SJ SQ", "D5 D6 D7", "C2 C3 C4 C5 C6 C7 C8 C9 C10 CJ CQ CK"])
def test_sequences_of_three_or_more_same_suit(rummy_checker, cards):
    v = check(rummy_checker, cards)
    assert v.legal and v.kind.id == "sequence"


def test_document_example_s9_to_sq_is_a_sequence(rummy_checker):
    """例えば、SS10SSの4枚はシークエンスになっています。 [S9][S10][SJ][SQ]"""
    v = check(rummy_checker, "S9 S10 SJ SQ")
    assert v.legal and [p.identity for p in v.reading.placements] == [("S", "9"), ("S", "10"), ("S", "J"), ("S", "Q")]


def test_ace_is_low(rummy_checker):
    """[HA][H2][H3] これはシークエンス"""
    assert check(rummy_checker, "HA H2 H3").legal


def test_ace_is_not_high(rummy_checker):
    """[HQ][HK][HA] これはシークエンスではない"""
    v = check(rummy_checker, "HQ HK HA")
    assert not v.legal and codes(v) == ["not-a-meld"]
    assert "HQ" in v.reasons[0].source.quote


def test_no_wrap_round_the_corner(rummy_checker):
    assert not check(rummy_checker, "HK HA H2").legal


def test_two_cards_are_too_short(rummy_checker):
    v = check(rummy_checker, "H5 H6")
    assert not v.legal and codes(v) == ["too-short"]


def test_sequence_suits_must_agree(rummy_checker):
    assert not check(rummy_checker, "H5 H6 S7").legal


def test_sequence_ranks_must_be_consecutive(rummy_checker):
    v = check(rummy_checker, "H5 H6 H8")
    assert not v.legal and codes(v) == ["not-a-meld"]


# グループ: 3枚か4枚の同じランクのカード


@pytest.mark.parametrize("cards", ["HK SK CK", "H7 S7 D7 C7"])
def test_groups_of_three_or_four(rummy_checker, cards):
    v = check(rummy_checker, cards)
    assert v.legal and v.kind.id == "group"


def test_document_group_example_is_damaged(rummy_checker):
    """例えば、HSCの3枚はグループ … [HK][SK][CA]: the bracketed example has an ace, so as
    printed it is not a group (the audit reports the document's claim against this)."""
    v = check(rummy_checker, "HK SK CA")
    assert not v.legal


def test_group_ranks_must_agree(rummy_checker):
    assert not check(rummy_checker, "H7 S7 D8").legal


def test_five_of_a_rank_need_two_decks_and_are_too_long():
    with MeldChecker(load_ruleset("basic-rummy", {"decks": 2})) as checker:
        v = check(checker, "H7 S7 D7 C7 S7")
        assert not v.legal and "too-long" in codes(v)


def test_two_decks_group_needs_distinct_suits():
    """Assumption group-two-decks: no two identical cards in one group."""
    with MeldChecker(load_ruleset("basic-rummy", {"decks": 2})) as checker:
        v = check(checker, "H7 H7 S7")
        assert not v.legal and codes(v) == ["duplicate-identity"]
        assert check(checker, "H7 S7 D7").legal


def test_one_deck_holds_one_copy(rummy_checker):
    from solver.core.errors import TooManyCopies

    with pytest.raises(TooManyCopies, match="H7 is given 2 times"):
        check(rummy_checker, "H7 H7 S7")


# ディール


@pytest.mark.parametrize("players,cards", [(2, 10), (3, 7), (4, 7), (5, 4), (6, 4)])
def test_deal_sizes_by_player_count(rummy, players, cards):
    """2人ゲーム10枚 / 3人〜4人ゲーム7枚 / 5人〜6人ゲーム4枚"""
    assert rummy.hand_size(players) == cards


@pytest.mark.parametrize("option,cards", [("seven-card", 7), ("six-card", 6)])
def test_note_one_deal_variants(option, cards):
    """注1: 人数に関係なく7枚 / 6枚のカードを配る事もあります"""
    rs = load_ruleset("basic-rummy", {"deal": option})
    assert {rs.hand_size(n) for n in range(2, 7)} == {cards}


def test_seven_players_is_not_a_game(rummy):
    from solver.core.errors import BadOption

    with pytest.raises(BadOption):
        rummy.hand_size(7)


def test_every_deal_fits_the_deck(rummy):
    for players in range(2, 7):
        assert players * rummy.hand_size(players) + rummy.deal.starter_discard <= rummy.deck.size


def test_two_decks_option_doubles_the_deck():
    assert load_ruleset("basic-rummy", {"decks": 2}).deck.size == 104


# 得点: カードの点数


@pytest.mark.parametrize(
    "card,points", [("SA", 1), ("H2", 2), ("D9", 9), ("C10", 10), ("SJ", 10), ("HQ", 10), ("DK", 10)]
)
def test_card_points(rummy, rummy_checker, card, points):
    """1点 / 10その数字の点数 / 10点 (the rank symbols are lost: assumption card-points)"""
    assert rummy.points(rummy_checker.notation.parse(card)) == points


def test_options_from_the_notes_exist_with_their_sources(rummy):
    for option in (
        "deal",
        "decks",
        "one-meld-per-turn",
        "layoff-after-own-meld",
        "stock-exhausted",
        "go-out-by-discard-only",
        "going-rummy",
        "scoring",
    ):
        assert rummy.options[option].source.quote
