"""Worked examples that stood in the docstrings of the core and melding modules (which name no
game now: the games' own modules keep theirs), kept as tests."""

from __future__ import annotations

from solver.core.notation import Notation
from solver.core.ruleset import load_ruleset
from solver.melding.meld.checker import MeldChecker
from solver.melding.meld.points import meld_points


def test_a_ruleset_lists_its_meld_kinds():
    rs = load_ruleset("basic-rummy")
    assert (rs.name_en, [k.id for k in rs.kinds]) == ("Basic Rummy", ["sequence", "group"])


def test_hand_size_by_player_count():
    rs = load_ruleset("basic-rummy")
    assert [rs.hand_size(n) for n in (2, 3, 5)] == [10, 7, 4]


def test_notation_parses_every_spelling_and_prints_the_documents():
    n = Notation.for_deck(load_ruleset("fesca").deck)
    assert [n.format(f) for f in n.parse_many("wood3 yy10 void-earth taiji")] == ["木3", "陰陽10", "空無土", "太極"]
    b = Notation.for_deck(load_ruleset("basic-rummy").deck)
    assert b.format_many(b.parse_many("9♠ ST 10h, hq")) == "S9 S10 H10 HQ"


def test_a_checker_reads_a_run_with_a_wild():
    with MeldChecker(load_ruleset("fesca")) as checker:
        v = checker.check_text("木3 木4 太極")
        assert (
            v.legal,
            v.reading.kind.id,
            [checker.notation.format_identity(p.identity) for p in v.reading.placements],
        ) == (True, "run", ["木3", "木4", "木5"])


def test_meld_points_of_a_run_split_by_a_wild():
    with MeldChecker(load_ruleset("fesca")) as checker:
        v = checker.check_text("土3 土4 土5 太極 土7", ordered=True)
        assert meld_points(v.reading) == 1


def test_a_legal_meld_of_the_plain_game():
    with MeldChecker(load_ruleset("basic-rummy")) as checker:
        assert checker.check_text("HA H2 H3").legal
