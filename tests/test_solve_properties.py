"""Solving against brute force, and every answer re-checked, on random small hands.

For each hand the oracle (tests/oracle.py) tries every way to split it into melds, lay-offs, a
discard and kept cards, judging each meld by brute force. The solver must agree on whether the
hand can go out, on the best objective value when going out and over all turns, and each meld,
lay-off and discard it returns must be legal by the oracle, use exactly the hand's cards, and
follow the turn rule.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import oracle
import pytest
from gameapi import solve
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from profiles import examples

from solver.core.deck import Face
from solver.core.errors import MeldsError
from solver.core.ruleset import load_ruleset
from solver.melding.table.operations import TableMeld
from solver.melding.turn.problem import Problem

RULESETS = {
    "fesca": load_ruleset("fesca"),
    "fesca-no-sojun": load_ruleset("fesca", {"sojun": False}),
    "basic-rummy": load_ruleset("basic-rummy"),
    "basic-rummy-strict": load_ruleset("basic-rummy", {"go-out-by-discard-only": True, "layoff-after-own-meld": True}),
    "basic-rummy-one-meld": load_ruleset("basic-rummy", {"one-meld-per-turn": True, "discard-taken-card": True}),
}
ORACLE_CACHE: dict = {name: {} for name in RULESETS}
SETTINGS: dict[str, Any] = dict(
    deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)


@st.composite
def hands(draw, name: str, max_cards: int):
    """A small hand drawn near sets and runs (so that it often can go out), maybe a table."""
    rs = RULESETS[name]
    faces = rs.deck.faces
    n = draw(st.integers(2, max_cards))
    base = draw(st.sampled_from(faces))
    near = [f for f in faces if f.suit == base.suit or f.rank == base.rank or f.cls != base.cls]
    pool = draw(st.sampled_from([near, faces]))
    hand = draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n, unique=True))
    table: tuple[TableMeld, ...] = ()
    if name.startswith("basic") and draw(st.booleans()):
        suit = draw(st.sampled_from(["S", "H", "D", "C"]))
        start = draw(st.integers(0, 8))
        ranks = [r.id for r in rs.deck.ranks][start : start + 3]
        meld = tuple(next(f for f in faces if f.suit == suit and f.rank == r) for r in ranks)
        if not set(meld) & set(hand):
            table = (TableMeld(draw(st.sampled_from(["me", "B"])), meld, False),)
            table = (TableMeld(table[0].owner, meld, table[0].owner == "me"),)
    turn = draw(st.sampled_from(["normal", "claimed"]))
    claimed = draw(st.sampled_from(hand)) if turn == "claimed" else None
    has_melded = draw(st.booleans())
    phase = draw(st.sampled_from([None, "yang", "yin"])) if name.startswith("fesca") else None
    return Problem(rs, tuple(hand), table, turn, claimed, has_melded, phase)


def check_answer(name: str, problem: Problem, answer) -> None:
    """The answer re-checked by the oracle: legal melds, exact cards, turn rule."""
    rs = RULESETS[name]
    cache = ORACLE_CACHE[name]
    used: Counter[Face] = Counter()
    for play in answer.plays:
        used.update(play.faces)
        if play.table is None:
            assert oracle.meld_value(rs, list(play.faces), problem.phase, cache) is not None
        else:
            whole = list(problem.table[play.table].faces) + list(play.faces)
            assert oracle.meld_value(rs, whole, problem.phase, cache) is not None
    if answer.discard is not None:
        used[answer.discard] += 1
    used.update(answer.kept)
    assert used == Counter(problem.hand)
    rule = rs.turn_rule(problem.turn)
    if rule.discard == "required":
        assert answer.discard is not None
    if rule.discard == "none":
        assert answer.discard is None
    if rule.claimed_in_new_meld and problem.turn == "claimed":
        assert any(problem.claimed in p.faces for p in answer.melds)


def compare(name: str, problem: Problem) -> None:
    rs = RULESETS[name]
    can_out, best_out, best_any = oracle.best_turns(
        rs,
        list(problem.hand),
        problem.table,
        problem.turn,
        problem.claimed,
        problem.has_melded,
        problem.phase,
        ORACLE_CACHE[name],
    )
    if best_any is None:  # no legal turn at all: the state is impossible
        with pytest.raises(MeldsError, match="impossible state"):
            solve(problem, "go-out")
        return
    answer = solve(problem, "go-out")
    assert answer.solvable == can_out
    check_answer(name, problem, answer)
    value = tuple(answer.score[g.measure] if g.sense == "maximize" else -answer.score[g.measure] for g in rs.objective)
    if can_out:
        assert value == best_out
    best = solve(problem, "best")
    check_answer(name, problem, best)
    assert (
        tuple(best.score[g.measure] if g.sense == "maximize" else -best.score[g.measure] for g in rs.objective)
        == best_any
    )


@settings(max_examples=examples(350), **SETTINGS)
@given(hands("basic-rummy", 7))
def test_basic_rummy_turns_equal_brute_force(problem):
    compare("basic-rummy", problem)


@settings(max_examples=examples(400), **SETTINGS)
@given(hands("basic-rummy-strict", 7))
def test_basic_rummy_variants_equal_brute_force(problem):
    compare("basic-rummy-strict", problem)


@settings(max_examples=examples(300), **SETTINGS)
@given(hands("basic-rummy-one-meld", 7))
def test_basic_rummy_one_meld_per_turn_equals_brute_force(problem):
    compare("basic-rummy-one-meld", problem)


@settings(max_examples=examples(60), **SETTINGS)  # the many more: _at_length, below (slow)
@given(hands("fesca", 6))
def test_fesca_turns_equal_brute_force(problem):
    compare("fesca", problem)


@pytest.mark.slow  # about 2 minutes: the same property on many more hands
@settings(max_examples=examples(2000), **SETTINGS)
@given(hands("fesca", 6))
def test_fesca_turns_equal_brute_force_at_length(problem):
    compare("fesca", problem)


@settings(max_examples=examples(300), **SETTINGS)
@given(hands("fesca-no-sojun", 6))
def test_fesca_without_sojun_turns_equal_brute_force(problem):
    compare("fesca-no-sojun", problem)
