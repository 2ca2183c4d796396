"""The checker's count for plain kinds (solver/melding/meld/plain.py) against its SAT models: on
the card sets a hand's candidates give (and those sets with a card dropped or added), with and
without a chosen card, every verdict the same — legal or not, the kind, the fewest wilds — and
each counted reading a reading of the kind (re-checked by the game's brute-force oracle where the
tests have one)."""

from __future__ import annotations

import random

import pytest
import rummies_oracle as oracle

from solver.core.registry import load_game
from solver.core.ruleset import load_ruleset
from solver.melding.meld.candidates import candidates
from solver.melding.meld.checker import MeldChecker
from solver.melding.meld.plain import plain_kind
from solver.melding.meld.verdict import Verdict

CASES = [
    ("okey", {}, 15),
    ("indian-rummy", {}, 14),
    ("marriage", {}, 21),
    ("marriage", {"alter": True}, 21),
    ("basic-rummy", {}, 10),
    *[("phase-10", {"phase": p}, 11) for p in range(1, 11)],
]


def sets_of(rs, checker, rng: random.Random, hands: int, pool_size: int):
    """Card sets near legal melds: a dealt pool's candidates, some with a card dropped or added."""
    deck = [f for f in rs.deck.faces for _ in range(rs.deck.copies[f])]
    for _ in range(hands):
        pool = rng.sample(deck, pool_size)
        params = None
        if rs.parameters and rng.random() < 0.9:
            name, chosen = next(iter(rs.parameters.items()))
            params = {name: rng.choice([f for f in rs.deck.faces if f.cls in chosen.classes])}
        found = candidates(rs, pool, params=params, gate=checker.gate)
        rng.shuffle(found)
        for cand in found[:12]:
            faces = [pool[i] for i in cand.cards]
            if rng.random() < 0.3:
                faces = faces[:-1] + ([rng.choice(pool)] if rng.random() < 0.5 else [])
            if len(faces) >= 2:
                yield faces, params


def oracle_problem(rs, checker, faces, reading, params) -> str | None:
    fmt = checker.notation
    cards = [fmt.format(p.face) for p in reading.placements]
    shown = [fmt.format_identity(p.identity) for p in reading.placements]
    chosen = fmt.format(next(iter(params.values()))) if params else None
    if rs.id == "okey" and chosen:
        return oracle.ok_meld_problem(cards, shown, reading.kind.id, chosen)
    if rs.id == "indian-rummy" and chosen:
        kind = "set" if reading.kind.id == "set" else "pure-sequence" if reading.wilds == 0 else "impure-sequence"
        return oracle.ir_meld_problem(cards, shown, kind, chosen)
    if rs.id == "phase-10":
        return oracle.p10_meld_problem(cards, shown, reading.kind.id)
    return None


def _seen(verdict: Verdict) -> tuple[bool, str | None, int | None]:
    """Legal, and a legal meld's kind and wilds."""
    reading = verdict.reading if verdict.legal else None
    return verdict.legal, reading.kind.id if reading else None, reading.wilds if reading else None


def compare(ruleset: str, options: dict, pool_size: int, hands: int, seed: int) -> int:
    rs = load_ruleset(ruleset, options)
    gate = load_game(rs).gate()
    counted, solved = MeldChecker(rs, gate), MeldChecker(rs, gate)
    solved.shortcuts = False
    assert all(plain_kind(k) for k in rs.kinds), "every bundled kind of these games is plain"
    wrong, legal = [], 0
    for faces, params in sets_of(rs, counted, random.Random(seed), hands, pool_size):
        try:
            a = counted.check(faces, explain=False, params=params)
        except Exception as exc:  # noqa: BLE001 - the same input must fail the same way in both
            with pytest.raises(type(exc)):
                solved.check(faces, explain=False, params=params)
            continue
        b = solved.check(faces, explain=False, params=params)
        seen = [_seen(v) for v in (a, b)]
        if seen[0] != seen[1]:
            wrong.append((counted.notation.format_many(faces), params, seen))
        if a.legal:
            legal += 1
            assert oracle_problem(rs, counted, faces, a.reading, params) is None, (faces, a.reading)
    assert wrong == []
    return legal


@pytest.mark.parametrize("ruleset,options,pool", CASES, ids=lambda v: str(v))
def test_plain_count_agrees_with_the_models(ruleset, options, pool):
    assert compare(ruleset, options, pool, 8, 1) > 0 or ruleset == "phase-10"


@pytest.mark.slow
@pytest.mark.parametrize("ruleset,options,pool", CASES, ids=lambda v: str(v))
def test_plain_count_agrees_with_the_models_on_many_hands(ruleset, options, pool):
    compare(ruleset, options, pool, 150, 7)
