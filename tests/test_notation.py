"""Card notation: the documents' own spellings, ASCII aliases, and clear errors."""

from __future__ import annotations

import pytest

from solver.core.errors import TooManyCopies, UnknownCard
from solver.core.notation import Notation


@pytest.fixture(scope="module")
def fesca_n(fesca):
    return Notation.for_deck(fesca.deck)


@pytest.fixture(scope="module")
def std(rummy):
    return Notation.for_deck(rummy.deck)


@pytest.mark.parametrize(
    "text,printed",
    [
        ("木3", "木3"),
        ("wood3", "木3"),
        ("WD3", "木3"),
        ("moku3", "木3"),
        ("木３", "木3"),
        ("火12", "火12"),
        ("fire12", "火12"),
        ("陰陽10", "陰陽10"),
        ("yy10", "陰陽10"),
        ("yinyang1", "陰陽1"),
        ("空無土", "空無土"),
        ("void-earth", "空無土"),
        ("vea", "空無土"),
        ("太極", "太極"),
        ("taiji", "太極"),
        ("GW", "太極"),
    ],
)
def test_fesca_spellings(fesca_n, text, printed):
    assert fesca_n.format(fesca_n.parse(text)) == printed


@pytest.mark.parametrize("text", ["S9", "9S", "♠9", "9♠", "s9", "9s", "spade9"])
def test_standard_nine_of_spades(std, text):
    assert std.format(std.parse(text)) == "S9"


@pytest.mark.parametrize("text", ["S10", "ST", "10S", "TS", "♠10", "10♠", "♠T"])
def test_standard_ten_as_10_or_t(std, text):
    assert std.format(std.parse(text)) == "S10"


@pytest.mark.parametrize(
    "text,printed",
    [("HA", "HA"), ("AH", "HA"), ("♥A", "HA"), ("H1", "HA"), ("DK", "DK"), ("♦K", "DK"), ("CQ", "CQ"), ("J♣", "CJ")],
)
def test_standard_faces(std, text, printed):
    assert std.format(std.parse(text)) == printed


def test_parse_many_splits_on_spaces_and_commas(fesca_n):
    faces = fesca_n.parse_many(["木3,木4", "太極  火5"])
    assert fesca_n.format_many(faces) == "木3 木4 太極 火5"


@pytest.mark.parametrize("text", ["木13", "木0", "S11", "X", "空無", "陰陽13", "ZZ9"])
def test_unknown_cards_say_what_is_valid(fesca_n, std, text):
    notation = std if text in ("S11", "ZZ9") else fesca_n
    with pytest.raises(UnknownCard) as info:
        notation.parse(text)
    assert repr(text) in str(info.value) and "Cards are written" in str(info.value)


def test_unknown_card_suggests_near_spellings(fesca_n):
    with pytest.raises(UnknownCard, match="Did you mean"):
        fesca_n.parse("木13")


def test_more_copies_than_the_deck_holds(fesca_n):
    with pytest.raises(TooManyCopies, match="太極 is given 2 times, but the deck holds 1 copy"):
        fesca_n.check_copies(fesca_n.parse_many("太極 太極"))


def test_every_face_prints_and_parses_back(fesca_n, std):
    for notation in (fesca_n, std):
        for face in notation.deck.faces:
            assert notation.parse(notation.format(face)) == face


def test_identity_notation(fesca_n, std):
    assert fesca_n.format_identity(("木", "ZAT")) == "木ZAT"
    assert std.format_identity(("H", "10")) == "H10"


def test_every_spelling_in_the_notation_doc_parses(fesca_n, std):
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "notation.md").read_text(encoding="utf-8")
    fesca_part, std_part = text.split("## Standard cards")
    spellings = re.findall(r"`([^`\s]+)`", fesca_part)
    skip = {"-r", "fesca", "木ZAT", "ZAT", "木３"}
    checked = [s for s in spellings if s not in skip]
    assert len(checked) > 20
    for spelling in checked:
        fesca_n.parse(spelling)
    for spelling in ["S9", "9S", "♠9", "9♠", "S10", "ST", "TS", "spade9"]:
        assert spelling in std_part
        std.parse(spelling)
