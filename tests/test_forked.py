"""Work beside the process in a forked child (solver.core.forked), and the last round of a table's
walks shared with a child (issue 20)."""

from __future__ import annotations

import os
import time

import pytest

from solver.core import forked
from solver.core.registry import load_game
from solver.core.ruleset import load_ruleset
from solver.sat.budget import Budget

pytestmark = pytest.mark.skipif(not forked.AVAILABLE, reason="no fork on this platform")

RS = load_ruleset("fesca")


def test_a_childs_result_comes_back_with_the_shared_objects_as_the_parents_own():
    faces = RS.deck.faces
    shared = [(("face", face.index), face) for face in faces]
    heard = []
    with forked.Forked(lambda: {"cards": [faces[3], faces[70]], "pid": os.getpid()}, shared, heard.append) as child:
        result = child.result(None)
    assert result["cards"][0] is faces[3] and result["cards"][1] is faces[70]
    assert result["pid"] != os.getpid() and heard == [result] and child.error is None


def test_a_child_that_fails_gives_no_result_and_says_why():
    heard = []
    with forked.Forked(lambda: 1 // 0, (), heard.append) as child:
        assert child.result(None) is None
    assert "ZeroDivisionError" in child.error and heard == []


def test_closing_ends_a_child_still_at_work():
    start = time.perf_counter()
    child = forked.Forked(lambda: time.sleep(60))
    child.close()
    assert time.perf_counter() - start < 10  # killed, not waited for (it would sleep a minute)
    assert child.done and child.result(0.0) is None and child.error == "the child ended without an answer"


@pytest.mark.parametrize(
    "seed, number",
    [
        pytest.param(15, 2, marks=pytest.mark.slow),
        pytest.param(14, 1, marks=pytest.mark.slow),
        pytest.param(13, 4, marks=pytest.mark.slow),
    ],
)
def test_the_last_rounds_walks_shared_with_a_child_find_the_same_forms(seed, number, monkeypatch):
    """Turns whose last round has walks of a second or so each (melds of wilds; 13:4 has two), one
    in each process: the same forms, meld by meld and path by path, as one process finds."""
    from test_standins import _problem

    from solver.melding.table.forms import table_forms
    from solver.melding.table.operations import Table

    game = load_game(RS)
    problem = _problem(seed, number)
    ops = tuple(op for op in game.rules.operations if op.effect != "recall")
    children = []
    made = forked.Forked
    monkeypatch.setattr(forked, "Forked", lambda *args: children.append(1) or made(*args))
    found = [
        table_forms(Table(game.checker), problem.table, problem.hand, "yang", ops, Budget(), beside=beside)
        for beside in (True, False)
    ]
    assert children == [1]  # the walks were shared with a child, once
    assert found[0].cut is None and found[1].cut is None and found[0].extra == found[1].extra
    for beside, alone in zip(found[0].forms, found[1].forms, strict=True):
        assert list(map(_form_key, beside)) == list(map(_form_key, alone))


def _form_key(form) -> tuple:
    """A form as the turn uses it. (Of a layout read several ways with as few wilds, which one the
    checker gives may depend on what it was asked before, in either process.)"""
    return (
        form.table,
        form.meld,
        form.played,
        form.taken,
        form.gain,
        form.reading.kind.id,
        tuple((m.op.id, m.played, m.taken, m.result, m.reading.kind.id) for m in form.path),
    )


def test_a_childs_budget_keeps_the_deadline_and_takes_its_share_of_the_memory_left():
    """Two children each take half of what is left below the ceiling, over the pages they start
    with (their resident size counts the parent's)."""
    from solver.sat.budget import resident_bytes

    mib = 2**20
    budget = Budget(30, memory=resident_bytes() + 200 * mib)
    child = budget.in_child()
    assert abs(child.deadline - budget.deadline) < 0.01 and child.start == budget.start
    assert resident_bytes() + 90 * mib <= child.memory <= resident_bytes() + 110 * mib
    assert Budget(None, memory=0).in_child().memory is None and Budget(None, memory=0).in_child().deadline is None


def test_the_grace_past_a_deadline_ends_where_the_budget_promises():
    """--max-seconds N holds within a tenth of N and 0.5 s: a query past its deadline may wait
    for a child that ends itself until then (less a margin), never longer."""
    budget = Budget(10)
    budget.deadline = time.perf_counter()  # the deadline is now
    assert 1.3 < budget.grace() <= 1.4
    budget.deadline -= 2.0  # two seconds past it
    assert budget.grace() == 0.0
    assert Budget(None, memory=1).grace() == 0.5
