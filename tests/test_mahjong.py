"""幻想麻雀 hands: tiles, winning shapes, waits, closed kans after riichi (issue 6).

Every answer is checked against ``mahjong_oracle`` (plain Python from the rules), the SAT
reference against the fast path, and agari verdicts and waits against the ``mahjong`` package.
"""

from __future__ import annotations

import random

import mahjong_oracle as oracle
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples

from solver.core.errors import MeldsError, TooManyCopies, UnknownCard
from solver.core.ruleset import load_ruleset
from solver.games.mahjong.hands import Hand, Mahjong


@pytest.fixture(scope="module")
def mj() -> Mahjong:
    return Mahjong(load_ruleset("gensou-mahjong"))


@pytest.fixture(scope="module")
def mj3() -> Mahjong:
    return Mahjong(load_ruleset("gensou-mahjong-3p"))


def to34(mj: Mahjong, counts) -> list[int]:
    out = [0] * 34
    for (suit, rank), n in zip(mj.identities, counts, strict=True):
        out[oracle.index_of(suit, rank)] += n
    return out


def from34(mj: Mahjong, counts34) -> list[int]:
    return [counts34[oracle.index_of(suit, rank)] for suit, rank in mj.identities]


def hand_from34(mj: Mahjong, counts34) -> Hand:
    faces = []
    for (suit, rank), n in zip(mj.identities, from34(mj, counts34), strict=True):
        faces += [mj.plain[(suit, rank)]] * n
    return Hand(tuple(faces))


def canonical(mj: Mahjong, decompositions) -> set[tuple]:
    """Our decompositions in the oracle's form (concealed parts only)."""
    out = set()
    for d in decompositions:
        parts = tuple(
            sorted(
                (p.kind, min(oracle.index_of(f.suit, f.rank) for f in p.faces)) for p in d.parts if p.declared is None
            )
        )
        out.add((d.shape, parts))
    return out


def allowed34(mj: Mahjong) -> list[int]:
    return sorted(oracle.index_of(s, r) for s, r in mj.identities)


# -- tiles and notation --------------------------------------------------------------------------


def test_four_player_set_has_136_tiles_with_one_red_five_per_suit(mj):
    deck = mj.rs.deck
    assert sum(deck.copies.values()) == 136
    reds = [f for f in deck.faces if mj.format_tiles([f]).startswith("0")]
    assert sorted(mj.format_tiles([f]) for f in reds) == ["0m", "0p", "0s"]
    assert all(deck.copies[f] == 1 for f in reds)
    assert [oracle.index_of(s, r) for s, r in mj.identities] == list(range(34))


def test_red_fives_option_off_gives_four_plain_fives():
    mj = Mahjong(load_ruleset("gensou-mahjong", {"red-fives": "false"}))
    assert sum(mj.rs.deck.copies.values()) == 136
    assert not mj.reds
    assert mj.format_hand(mj.parse_hand("5555m")) == "5555m"


def test_three_player_set_removes_2m_to_8m(mj3):
    assert sum(mj3.rs.deck.copies.values()) == 108
    assert mj3.suit_ranks["m"] == ["1", "9"]
    assert {mj3.format_tiles([f]) for f in mj3.reds} == {"0p", "0s"}
    with pytest.raises(UnknownCard, match="2m"):
        mj3.parse_tiles("2m")
    with pytest.raises(UnknownCard):
        mj3.parse_tiles("0m")
    assert mj3.rules.guest_winds == ("北",)


def test_three_player_forbids_chi_quoting_the_document(mj3):
    with pytest.raises(MeldsError, match="チーは不可"):
        mj3.parse_hand("11z [123p] 456p 789s 東東")
    hand = mj3.parse_hand("[白白白] 19m 19m")
    assert hand.melds[0].kind == "pon"


@pytest.mark.parametrize(
    "text, expected",
    [
        ("123m456p789s11122z", "123m456p789s11122z"),
        ("123m 456p 789s 東東東 南南", "123m456p789s11122z"),
        ("🀇🀈🀉🀜🀝🀞🀖🀗🀘🀀🀀🀀🀁🀁", "123m456p789s11122z"),
        ("r5m 0p 5s", "0m0p5s"),
        ("ton nan haku 發 中", "12567z"),
    ],
)
def test_notation_round_trips(mj, text, expected):
    assert mj.format_tiles(mj.parse_tiles(text)) == expected


def test_every_spelling_in_the_notation_doc_parses(mj, mj3):
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "notation.md").read_text(encoding="utf-8")
    part = text.split("## 幻想麻雀")[1].split("\n## ")[0]
    spellings = [
        s
        for s in re.findall(r"`([^`]+)`", part)
        if not s.startswith(("-r", "gensou")) and s not in ("m", "p", "s", "z", "0")
    ]
    assert len(spellings) > 30
    errors = {"11": "no suit letter", "0m": "unknown tile", "[123p]": "チーは不可"}
    for spelling in spellings:
        if spelling in ("11", "[123p]"):
            continue
        mj.parse_hand(spelling.replace("…", ""))
    for spelling, message in errors.items():
        with pytest.raises(MeldsError, match=message):
            (mj if spelling == "11" else mj3).parse_hand(spelling)
    assert mj.format_hand(mj.parse_hand("123m 789p 22z [東東東] (0555p)")) == "123m789p22z [111z] (0555p)"


def test_declared_melds_in_brackets(mj):
    hand = mj.parse_hand("123m 789p 22z [東東東] (0555p) [789s]")
    assert [m.kind for m in hand.melds] == ["pon", "ankan", "chi"]
    assert [m.open for m in hand.melds] == [True, False, True]
    assert mj.format_hand(hand) == "123m789p22z [111z] (0555p) [789s]"
    assert mj.size(hand) == 8 + 9


@pytest.mark.parametrize(
    "text, error, message",
    [
        ("123x", UnknownCard, "unknown tile"),
        ("11", UnknownCard, "no suit letter"),
        ("8z", UnknownCard, "honours are 1z–7z"),
        ("5555m", TooManyCopies, "write it 0m"),
        ("11111z", TooManyCopies, "東 is given 5 times"),
        ("[1234m]", MeldsError, "not a meld that can be declared"),
        ("(123m)", MeldsError, "not a meld that can be declared"),
        ("123m [456p", MeldsError, "unbalanced bracket"),
    ],
)
def test_bad_hands_are_clear_errors(mj, text, error, message):
    with pytest.raises(error, match=message):
        mj.parse_hand(text)


def test_red_five_hint_only_when_fives_overflow(mj):
    with pytest.raises(TooManyCopies) as info:
        mj.parse_hand("11111z")
    assert "red" not in str(info.value)


# -- winning shapes ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, shapes",
    [
        ("123m456p789s11122z", ["standard"]),
        ("111222333m789p11z", ["standard", "standard"]),  # three triplets or three runs
        ("1133557799m1122z", ["chiitoitsu"]),
        ("223344m556677p11z", ["standard", "chiitoitsu"]),  # ryanpeikou shape reads both ways
        ("19m19p19s1234567z9s", ["kokushi"]),
        ("11123456789999m", ["standard"]),
        ("123m 789p 22z [東東東] (0555p)", ["standard"]),
    ],
)
def test_winning_shapes(mj, text, shapes):
    hand = mj.parse_hand(text)
    found = mj.decompositions(hand)
    assert sorted(d.shape for d in found) == sorted(shapes)
    assert mj.is_winning(hand)
    counts34 = to34(mj, mj.counts(hand.concealed))
    assert canonical(mj, found) == oracle.decompositions(counts34, len(hand.melds))
    for d in found:  # every decomposition is a partition of the hand into legal parts
        assert sorted(f.index for p in d.parts for f in p.faces) == sorted(f.index for f in hand.tiles)
        assert all(mj.checker.check(p.faces, explain=False).legal for p in d.parts)


def test_four_of_a_kind_is_not_two_pairs(mj):
    """四枚使いの七対子は認められない。"""
    hand = mj.parse_hand("1133557799m1111z")
    assert mj.decompositions(hand) == []
    assert not mj.is_winning(hand)
    quote = next(s for s in mj.rules.hand_shapes if s.id == "chiitoitsu").source.quote
    assert quote == "四枚使いの七対子は認められない。"


def test_closed_shapes_take_no_declared_meld(mj):
    # the pairs of a seven-pairs hand next to a declared meld are no winning shape
    pairs = mj.counts(mj.parse_tiles("1133557799m1122z"))
    orphans = mj.counts(mj.parse_tiles("19m19p19s1234567z9s"))
    assert mj.winning_counts(pairs, 0) and mj.winning_counts(orphans, 0)
    assert not mj.winning_counts(pairs, 1) and not mj.winning_counts(orphans, 1)
    hand = mj.parse_hand("19m19p19s12345z [666z]")
    assert mj.size(hand) == 14
    assert not mj.is_winning(hand) and mj.decompositions(hand) == []


def test_thirteen_orphans_waits_on_all_thirteen(mj):
    waits = mj.waits(mj.parse_hand("19m19p19s1234567z"))
    assert len(waits) == 13
    assert [mj.tile_text(w) for w in mj.waits(mj.parse_hand("19m19p19s123456z9s"))] == ["7z"]


def test_three_player_hand_with_only_terminal_man(mj3):
    hand = mj3.parse_hand("111m 999m 123p 456s 北北")
    assert [d.shape for d in mj3.decompositions(hand)] == ["standard"]
    assert mj3.is_winning(hand)
    assert [mj3.tile_text(w) for w in mj3.waits(mj3.parse_hand("11m 999m 123p 456s 北北"))] == ["1m", "4z"]


# -- waits ---------------------------------------------------------------------------------------


def test_document_wait_example_and_the_wait_it_leaves_out(mj):
    """The document gives 1113456788999p as waiting on 2,5,8p; 7p also completes it:
    111 345 678 789 99."""
    hand = mj.parse_hand("1113456788999p")
    assert [mj.tile_text(w) for w in mj.waits(hand)] == ["2p", "5p", "7p", "8p"]
    seven = mj.decompositions(hand.with_tile(mj.plain[("p", "7")]))
    assert [mj.format_tiles(p.faces) for p in seven[0].parts] == ["111p", "345p", "678p", "789p", "99p"]


def test_formal_tenpai_on_a_tile_whose_every_copy_is_held(mj):
    """形式聴牌: waiting on 4m holding all four 4m (here 4444m as a triplet and a single)."""
    hand = mj.parse_hand("4444m 123p 456p 789p")
    assert [mj.tile_text(w) for w in mj.waits(hand)] == ["4m"]
    assert mj.waits(hand) == mj.waits_reference(hand)


def test_waits_of_a_hand_with_declared_melds(mj):
    hand = mj.parse_hand("23m 55p [東東東] [白白白] (9999s)")
    assert [mj.tile_text(w) for w in mj.waits(hand)] == ["1m", "4m"]


# -- the fast path equals the oracle and the SAT reference ----------------------------------------


@pytest.mark.parametrize("ruleset", ["gensou-mahjong", "gensou-mahjong-3p"])
def test_fast_path_equals_oracle_on_thousands_of_hands(ruleset):
    mj = Mahjong(load_ruleset(ruleset))
    allowed = allowed34(mj)
    rng = random.Random(61)
    for n in range(3000):
        declared = rng.choice([0, 0, 0, 1, 2])
        size = 14 - 3 * declared
        if n % 3 == 0:
            counts = oracle.random_complete(rng, melds=4 - declared, allowed=allowed)
        else:
            counts = oracle.random_hand(rng, size, allowed)
        ours = from34(mj, counts)
        assert mj.winning_counts(ours, declared) == oracle.is_winning(counts, declared), counts
        counts[rng.choice([i for i, c in enumerate(counts) if c])] -= 1
        expected = oracle.waits(counts, declared, allowed)
        got = [oracle.index_of(*mj.identities[i]) for i in mj.waits_counts(from34(mj, counts), declared)]
        assert got == expected, counts


def test_sat_reference_equals_oracle_on_random_hands(mj):
    rng = random.Random(62)
    for n in range(120):
        counts = oracle.random_complete(rng) if n % 2 else oracle.random_hand(rng, 14)
        hand = hand_from34(mj, counts)
        found = mj.decompositions(hand)
        assert canonical(mj, found) == oracle.decompositions(counts), counts
        assert mj.is_winning(hand) == bool(found)


def test_sat_reference_waits_equal_fast_waits(mj):
    rng = random.Random(63)
    for _ in range(12):
        hand = hand_from34(mj, oracle.near_complete(rng))
        assert mj.waits(hand) == mj.waits_reference(hand), mj.format_hand(hand)


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.integers(0, 33), min_size=13, max_size=13), st.integers(0, 33))
def test_property_fast_winning_equals_oracle(tiles, extra):
    mj = _shared()
    counts = [0] * 34
    for t in tiles + [extra]:
        counts[t] += 1
    if max(counts) > 4:
        return
    assert mj.winning_counts(from34(mj, counts)) == oracle.is_winning(counts)
    counts[extra] -= 1
    assert [oracle.index_of(*mj.identities[i]) for i in mj.waits_counts(from34(mj, counts))] == oracle.waits(counts)


_SHARED: list = []


def _shared() -> Mahjong:
    if not _SHARED:
        _SHARED.append(Mahjong(load_ruleset("gensou-mahjong")))
    return _SHARED[0]


# -- (the differential tests against the mahjong package: tests/test_mahjong_vs_package.py) ----------


def _kan(mj, hand_text, draw):
    verdicts = mj.riichi_kans(mj.parse_hand(hand_text), mj.parse_tiles(draw)[0])
    return {mj.tile_text(v.tile): v for v in verdicts}


@pytest.mark.parametrize("draw, tile", [("0s", "5s"), ("6s", "6s"), ("7s", "7s")])
def test_example_one_runs_or_triplets(mj, draw, tile):
    """例:555666777999s1p — waits 1p; 5,6,7s could be runs, so the general rule forbids the
    kan, but the waits do not change, so 幻想麻雀 allows it."""
    v = _kan(mj, "555666777999s1p", draw)[tile]
    assert v.waits_before == v.waits_after == (("p", "1"),)
    assert v.doc_allowed and not v.general_allowed
    assert not v.okuri


def test_example_one_ninth_is_a_triplet_in_every_reading(mj):
    v = _kan(mj, "555666777999s1p", "9s")["9s"]
    assert v.doc_allowed and v.general_allowed


def test_example_two_okuri_kan_never(mj):
    """例:手牌の一部が555567s、8sをツモって5sを暗槓 — 送り槓, allowed by neither rule."""
    verdicts = _kan(mj, "0555s67s123p456p9m", "8s")
    assert list(verdicts) == ["5s"]
    v = verdicts["5s"]
    assert v.okuri and not v.doc_allowed and not v.general_allowed
    assert "送り槓" in v.reason_doc


def test_example_three_nine_gates_shape(mj):
    """例:1113456788999p — the document says waits 2,5,8p and that drawing 1p or 9p allows the
    kan under its rule. The tool finds a fourth wait, 7p (111 345 678 789 99): konging 1p keeps
    all four waits (allowed), konging 9p loses 7p (not allowed under either rule). Under the
    general rule as decompositions, 1p is a triplet in every winning reading, so the kan is
    allowed there too; the document forbids it because the kan spoils 九蓮宝燈 on 2p — a yaku
    change, which a decomposition rule does not see (reported by the audit)."""
    one = _kan(mj, "1113456788999p", "1p")["1p"]
    assert one.doc_allowed and one.general_allowed
    assert one.waits_after == one.waits_before
    nine = _kan(mj, "1113456788999p", "9p")["9p"]
    assert not nine.doc_allowed and not nine.general_allowed
    assert ("p", "7") in nine.waits_before and ("p", "7") not in nine.waits_after


def test_riichi_kan_needs_a_tenpai_hand(mj):
    with pytest.raises(MeldsError, match="not tenpai"):
        mj.riichi_kans(mj.parse_hand("1357m2468p13579s"), mj.parse_tiles("1m")[0])


def test_riichi_kan_examples_are_cited_in_the_ruleset(mj):
    quotes = [e.quote for e in mj.rules.riichi_kan.examples]
    assert len(quotes) == 3 and all(q.startswith("例:") for q in quotes)
    from solver.core.source import document_text

    text = document_text(mj.rs.document, mj.rs.path)
    assert all(q in text for q in quotes)


# -- declared melds: the kinds read off the ruleset without SAT, against the meld checker --------------


def _groups(mj: Mahjong, every: bool):
    """Groups of one to four tiles: all of them (``every``), or a sample, most of them of three
    or four tiles of one suit."""
    import itertools

    faces, rng = mj.rs.deck.faces, random.Random(7)
    for size in (1, 2, 3, 4):
        for combo in itertools.combinations_with_replacement(range(len(faces)), size):
            group = tuple(faces[i] for i in combo)
            one_suit = len({f.suit for f in group}) == 1
            if every or (one_suit and size >= 3 and rng.random() < 0.3) or rng.random() < 0.005:
                yield group


def _agree_with_the_checker(mj: Mahjong, every: bool) -> int:
    """How many groups were read without the checker, each as the checker reads it (a group of
    two kinds at once is left to the checker; no meld of three or four tiles is)."""
    compared = 0
    for group in _groups(mj, every):
        try:
            verdict = mj.checker.check(group, explain=False)
        except TooManyCopies:
            continue
        shown = verdict.reading if verdict.legal else None
        kinds = {r.kind.id for r in verdict.readings} | ({shown.kind.id} if shown is not None else set())
        fast = mj.plain_kinds(group)
        assert fast == frozenset(kinds) or (fast is None and len(group) < 3), mj.format_tiles(group)
        compared += fast is not None
    return compared


def test_declared_melds_are_judged_as_the_meld_checker_does(mj, mj3):
    """A bracket group's kinds are read off the ruleset's plain kinds (no SAT query); on runs,
    sets and a sample of other groups that equals the meld checker's verdict."""
    assert mj._plain_kinds_ok and mj3._plain_kinds_ok
    assert _agree_with_the_checker(mj, every=False) > 800
    assert mj.parse_hand("123m456p789s11z [0m5m5m]").melds[0].kind == "pon"


@pytest.mark.slow
def test_declared_melds_are_judged_as_the_meld_checker_does_on_every_group(mj, mj3):
    assert _agree_with_the_checker(mj, every=True) > 10000 and _agree_with_the_checker(mj3, every=True) > 5000
