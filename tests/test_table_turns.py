"""Turns with table operations: random problems replayed step by step, and sanity bounds."""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

import pytest
from gameapi import solve
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from profiles import examples
from replay import replay

from solver.core.deck import Face
from solver.core.ruleset import load_ruleset
from solver.melding.meld.checker import MeldChecker
from solver.melding.table.operations import TableMeld
from solver.melding.turn.problem import Problem

RS = load_ruleset("fesca")
CHECKER = MeldChecker(RS)
SETTINGS: dict[str, Any] = dict(
    deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)


def _legal_melds(seed: int, count: int) -> list[tuple]:
    """Random legal melds in a table layout (the checker's reading order)."""
    rng = random.Random(seed)
    faces = RS.deck.faces
    found: list[tuple[Face, ...]] = []
    while len(found) < count:
        base = rng.choice(faces[:60])
        n = rng.randint(3, 5)
        pool = [f for f in faces if f.suit == base.suit or f.rank == base.rank or f.cls != "五行"]
        cards = rng.sample(pool, min(n, len(pool)))
        verdict = CHECKER.check(cards, explain=False)
        if verdict.reading is not None and verdict.legal:
            found.append(tuple(p.face for p in verdict.reading.placements))
    return found


@lru_cache(maxsize=1)
def _melds() -> list[tuple]:
    """The melds the table problems draw from, made by the first test that draws (not while
    collecting: every worker collects this module, few run it)."""
    return _legal_melds(11, 400)


@st.composite
def table_problems(draw):
    n_table = draw(st.integers(1, 2))
    table, used = [], set()
    for _ in range(n_table):
        meld = draw(st.sampled_from(_melds()))
        if used & set(meld):
            continue
        used |= set(meld)
        owner = draw(st.sampled_from(["me", "B"]))
        buried = [None] * len(meld)
        table.append(TableMeld(owner, meld, owner == "me", tuple(buried)))
    rest = [f for f in RS.deck.faces if f not in used]
    near = [f for f in rest if any(f.suit == m.suit or f.rank == m.rank for t in table for m in t.faces)]
    wild = [f for f in rest if f.cls != "五行"]
    size = draw(st.integers(2, 5))
    hand = draw(st.lists(st.sampled_from(near + wild), min_size=size, max_size=size, unique=True))
    turn = draw(st.sampled_from(["normal", "normal", "claimed"]))
    claimed = draw(st.sampled_from(hand)) if turn == "claimed" else None
    has_melded = draw(st.booleans()) or any(t.mine for t in table)
    phase = draw(st.sampled_from(["yang", "yin", "none"]))
    return Problem(RS, tuple(hand), tuple(table), turn, claimed, has_melded, phase)


def _value(answer):
    return tuple(answer.score[g.measure] if g.sense == "maximize" else -answer.score[g.measure] for g in RS.objective)


@settings(max_examples=examples(60), **SETTINGS)
@given(table_problems())
def test_table_turns_replay_and_are_no_worse_than_the_hand_alone(problem):
    table_turn_holds(problem)


@pytest.mark.slow  # about a minute: the same property on many more table turns
@settings(max_examples=examples(500), **SETTINGS)
@given(table_problems())
def test_table_turns_replay_and_are_no_worse_than_the_hand_alone_at_length(problem):
    table_turn_holds(problem)


def table_turn_holds(problem) -> None:
    from solver.core.errors import MeldsError

    try:
        best = solve(problem, "best")
    except MeldsError as exc:  # a claim that could not be made: the plain solver agrees
        assert "impossible state" in str(exc)
        return
    assert replay(problem, best) == []
    out = solve(problem, "go-out")
    assert replay(problem, out) == []
    plain = Problem(RS, problem.hand, (), problem.turn, problem.claimed, problem.has_melded, problem.phase)
    try:
        alone = solve(plain, "best")
    except MeldsError:
        return
    assert _value(best) >= _value(alone)
    if solve(plain, "go-out").solvable:
        assert out.solvable


@pytest.mark.parametrize("deadline", [(), ("--max-seconds", "30")])
def test_a_table_turn_says_the_bounds_of_its_search(deadline):
    """A table turn's answer, yes or no, says what its search covered: single-card operations
    along shortest paths, one card a meld from other melds, the forms it chose among; the guard
    on a meld's layouts only without a deadline."""
    import json

    from clirun import run

    table = ("--table", "me: 金9 金10 金11", "--table", "B: 金8 木8 火8", "--has-melded")
    for hand, solvable in (("金6 金7 太極 水3", True), ("木1 火5 水9 土3", False)):
        out = run("solve", "-r", "fesca", "--hand", hand, *table, *deadline, "--json")
        data = json.loads(out.output)
        assert data["solvable"] is solvable
        search = data["search"]
        assert search["operations"] == "single-card" and search["paths"] == "shortest"
        assert search["cards_from_other_melds"] == 1 and search["forms"] > 0 and search["forms_complete"]
        assert search["layouts_per_meld"] == (None if deadline else 20_000)
        text = run("solve", "-r", "fesca", "--hand", hand, *table, *deadline).output
        assert f"search: {search['forms']:,} forms; " in text and "within these bounds" in text
    plain = json.loads(run("solve", "-r", "fesca", "--hand", "金6 金7 金8 水3", "--json").output)
    assert "search" not in plain  # no table: no search of its melds
