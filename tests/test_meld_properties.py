"""SAT verdicts against brute force, on thousands of random small melds.

The oracle (tests/oracle.py) enumerates every wild assignment in plain Python. For every meld:
same legality; for a legal meld, the same family of kind, a reading that the oracle's rule check
accepts, and the fewest wilds possible; for an illegal one, the reason codes agree with why the
oracle rejects it (ambiguity, phase).
"""

from __future__ import annotations

from typing import Any

import oracle
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from profiles import examples

from solver.core.ruleset import load_ruleset
from solver.melding.meld.checker import MeldChecker

RULESETS = {
    "fesca": load_ruleset("fesca"),
    "fesca-no-sojun": load_ruleset("fesca", {"sojun": False}),
    "fesca-two-taiji": load_ruleset("fesca", {"taikyoku-copies": 2}),
    "basic-rummy": load_ruleset("basic-rummy"),
    "basic-rummy-two-decks": load_ruleset("basic-rummy", {"decks": 2}),
    "contract-rummy": load_ruleset("contract-rummy"),
}
CHECKERS = {name: MeldChecker(rs) for name, rs in RULESETS.items()}
WILD_CLASSES = {name: {c for r in rs.roles.values() if r.wild for c in r.classes} for name, rs in RULESETS.items()}


@st.composite
def melds(draw, name: str, max_cards: int = 6, max_wilds: int = 2):
    """Melds of 1..max_cards cards near a set, run or chain, or random; few wild-capable cards."""
    rs = RULESETS[name]
    deck = rs.deck
    wild_faces = [f for f in deck.faces if f.cls in WILD_CLASSES[name]]
    plain = [f for f in deck.faces if f.cls not in WILD_CLASSES[name]]
    n = draw(st.integers(1, max_cards))
    k = draw(st.integers(0, min(max_wilds, n))) if wild_faces else 0
    style = draw(st.sampled_from(["set", "run", "chain", "random"]))
    base = draw(st.sampled_from(plain))
    if style == "set":
        pool = [f for f in plain if f.rank == base.rank]
    elif style == "run":
        pool = [f for f in plain if f.suit == base.suit]
    elif style == "chain":
        pool = [
            f
            for f in plain
            if f.rank
            and f.rank.isdigit()
            and base.rank
            and base.rank.isdigit()
            and abs(int(f.rank) - int(base.rank)) <= 4
        ]
    else:
        pool = plain
    pool = pool or plain  # a chain needs numeric ranks: fall back for face cards
    chosen = draw(st.lists(st.sampled_from(pool), min_size=n - k, max_size=n - k))
    chosen += draw(st.lists(st.sampled_from(wild_faces), min_size=k, max_size=k)) if k else []
    # respect the deck's copies: drop the excess rather than reject the example
    seen: dict = {}
    out = []
    for f in chosen:
        seen[f] = seen.get(f, 0) + 1
        if seen[f] <= deck.copies[f]:
            out.append(f)
    if not out:
        out = [base]
    return draw(st.permutations(out))


def compare(name: str, faces, phase=None, ordered=False) -> None:
    rs = RULESETS[name]
    checker = CHECKERS[name]
    got = checker.check(list(faces), phase=phase, ordered=ordered, explain=False)
    want = oracle.verdict(rs, list(faces), phase=phase, ordered=ordered)
    text = checker.notation.format_many(faces)
    assert got.legal == want.legal, f"{name}: {text} (phase={phase}, ordered={ordered})"
    codes = {r.code for r in got.reasons}
    if got.legal:
        reading = got.reading
        assert reading is not None, text
        assert want.families == {reading.kind.family}, text
        assert oracle.reading_problems(rs, reading) == [], text
        assert reading.wilds == want.min_wilds, text
        assert sorted(p.face.index for p in reading.placements) == sorted(f.index for f in faces)
        if ordered and reading.kind.shape == "sequence":
            by_offset = [p.face for p in reading.placements]
            assert by_offset in (list(faces), list(faces)[::-1]), text
    elif want.vetoed or len(want.families) > 1:
        assert codes == {"ambiguous"}, text
    elif want.phase_blocked:
        assert codes == {"phase"}, text


SETTINGS: dict[str, Any] = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])


@settings(max_examples=examples(1500), **SETTINGS)
@given(melds("fesca"))
def test_fesca_multiset_verdicts_equal_brute_force(faces):
    compare("fesca", faces)


@settings(max_examples=examples(600), **SETTINGS)
@given(melds("fesca"), st.sampled_from(["yang", "yin"]))
def test_fesca_phase_verdicts_equal_brute_force(faces, phase):
    compare("fesca", faces, phase=phase)


@settings(max_examples=examples(600), **SETTINGS)
@given(melds("fesca"))
def test_fesca_ordered_verdicts_equal_brute_force(faces):
    compare("fesca", faces, ordered=True)


@settings(max_examples=examples(500), **SETTINGS)
@given(melds("fesca-no-sojun"))
def test_fesca_without_sojun_equals_brute_force(faces):
    compare("fesca-no-sojun", faces)


@settings(max_examples=examples(400), **SETTINGS)
@given(melds("fesca-two-taiji", max_wilds=3))
def test_fesca_with_two_taiji_equals_brute_force(faces):
    compare("fesca-two-taiji", faces)


@settings(max_examples=examples(600), **SETTINGS)
@given(melds("basic-rummy", max_cards=7))
def test_basic_rummy_equals_brute_force(faces):
    compare("basic-rummy", faces)
    compare("basic-rummy", faces, ordered=True)


@settings(max_examples=examples(300), **SETTINGS)
@given(melds("basic-rummy-two-decks", max_cards=6))
def test_basic_rummy_two_decks_equals_brute_force(faces):
    compare("basic-rummy-two-decks", faces)


@pytest.mark.parametrize(
    "text", ["陰陽6 空無木 太極", "土4 陰陽5 太極", "空無木 空無火 土5", "木3 陰陽4 太極", "陰陽3 陰陽4 空無木"]
)
def test_document_ambiguity_examples_agree_with_brute_force(text):
    compare("fesca", CHECKERS["fesca"].notation.parse_many(text))


@settings(max_examples=examples(300), **SETTINGS)
@given(melds("contract-rummy", max_cards=6, max_wilds=3))
def test_a_wild_limit_verdicts_equal_brute_force(faces):
    """Contract Rummy's melds hold no more wilds than naturals (wilds: {versus_naturals: at-most}),
    which the oracle reads from the limit's own fields: the same legality and fewest wilds."""
    got = CHECKERS["contract-rummy"].check(list(faces), explain=False)
    want = oracle.verdict(RULESETS["contract-rummy"], list(faces))
    text = CHECKERS["contract-rummy"].notation.format_many(faces)
    assert got.legal == want.legal, text
    assert (got.reading.wilds if got.reading is not None else None) == want.min_wilds, text
