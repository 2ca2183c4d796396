"""A table turn of many forms, under a deadline, is solved first over the forms of the search's
earlier rounds, its rungs (tableturn.TableTurn.answer): when the whole model cannot settle in
time, the turn answered is the better of what it found and the rungs' best — a real turn,
replayed step by step, undecided — and when it settles, its answer stands."""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

import pytest
from gameapi import solve
from replay import replay
from test_table_model import CHECKER, _operations, _ring_problems
from test_table_turns import _value

from solver.melding.table.forms import table_forms
from solver.melding.table.operations import Table
from solver.melding.turn import tableturn
from solver.melding.turn.problem import Answer
from solver.melding.turn.tableturn import TableTurn
from solver.sat.budget import Budget


def _ops():
    return tuple(op for op in _operations() if op.effect != "recall")


def _problems_with_rungs(count: int) -> list:
    """Ring tables whose search of forms takes more than one round, the first of at most half the
    forms of the whole (so there is a rung to climb), each with its rounds' forms: the first COUNT
    of seed 17's, searched once in a worker for the tests of this file, and only as far as asked
    (the default run's tests ask for the first; each takes a search of forms of many tables)."""
    search = _rung_search()
    while len(_RUNG_PROBLEMS) < count:
        found = next(search, None)
        if found is None:
            break
        _RUNG_PROBLEMS.append(found)
    assert _RUNG_PROBLEMS, "no ring table of seed 17 has a search of more than one round"
    return _RUNG_PROBLEMS[:count]


_RUNG_PROBLEMS: list = []  # what _rung_search found so far


@lru_cache(maxsize=1)
def _rung_search() -> Iterator:
    return (
        (problem, forms)
        for problem in _ring_problems(17, 100)
        for forms in [table_forms(Table(CHECKER), problem.table, problem.hand, problem.phase, _ops(), Budget())]
        if forms.earlier and sum(map(len, forms.forms)) >= 2 * sum(map(len, forms.earlier[0][0]))
    )


def _rung_value(problem, forms, extra) -> tuple:
    with TableTurn(problem, CHECKER, Budget(), _operations(), tableturn.TableForms(forms, extra, None, [])) as rung:
        answer = rung.best()
    assert answer.solvable is not None and replay(problem, answer) == []
    return _value(answer)


@pytest.fixture
def every_turn_climbs(monkeypatch):
    monkeypatch.setattr(tableturn, "RUNGS_FROM", 0)


@pytest.fixture
def whole_model_undecided(monkeypatch, every_turn_climbs):
    """The whole model's optimiser ends with no turn, as when its time runs out at once (a rung is
    made with no earlier rounds of its own)."""
    real_best, real_go_out = TableTurn.best, TableTurn.go_out

    def best(self, question="best"):
        return self._stamp(Answer(solvable=None, question=question)) if self.earlier else real_best(self, question)

    def go_out(self):
        return self._stamp(Answer(solvable=None, question="go-out")) if self.earlier else real_go_out(self)

    monkeypatch.setattr(TableTurn, "best", best)
    monkeypatch.setattr(TableTurn, "go_out", go_out)


def test_the_rungs_answer_with_a_real_turn_when_the_whole_model_cannot_settle(whole_model_undecided):
    _rungs_answer_with_a_real_turn(1)


@pytest.mark.slow  # every ring table with rungs, each a whole turn under its deadline
def test_the_rungs_answer_with_a_real_turn_on_every_table(whole_model_undecided):
    _rungs_answer_with_a_real_turn(3)


def _rungs_answer_with_a_real_turn(tables: int) -> None:
    checked = 0
    for problem, forms in _problems_with_rungs(tables):
        whole = sum(map(len, forms.forms))
        rungs = [(f, extra) for f, extra in forms.earlier if 2 * sum(map(len, f)) <= whole]
        answer = solve(problem, "best", max_seconds=60)
        assert answer.solvable is None and answer.partial and answer.limit == "time"
        assert replay(problem, answer) == []
        assert _value(answer) == max(_rung_value(problem, f, extra) for f, extra in rungs)
        checked += 1
    assert checked


def test_a_way_out_a_rung_finds_answers_going_out(whole_model_undecided):
    assert _rungs_go_out(1), "no rung went out: the test did not reach the case"


@pytest.mark.slow  # the next two tables too
def test_a_way_out_a_rung_finds_answers_going_out_on_three_tables(whole_model_undecided):
    assert _rungs_go_out(3), "no rung went out: the test did not reach the case"


def _rungs_go_out(tables: int) -> int:
    """How many of the first TABLES went out, through a rung; a table that does not is undecided."""
    ways_out = 0
    for problem, _forms in _problems_with_rungs(tables):
        answer = solve(problem, "go-out", max_seconds=60)
        if answer.solvable:  # a rung went out: a way out, replayed
            assert not answer.kept and replay(problem, answer) == []
            ways_out += 1
        else:  # no rung went out: undecided, whatever turn they found
            assert answer.solvable is None
            assert not answer.plays or replay(problem, answer) == []
    return ways_out


def test_a_whole_model_that_settles_answers_as_without_rungs(every_turn_climbs, monkeypatch):
    _settles_as_without_rungs(1, monkeypatch)


@pytest.mark.slow  # the next table too
def test_a_whole_model_that_settles_answers_as_without_rungs_on_two_tables(every_turn_climbs, monkeypatch):
    _settles_as_without_rungs(2, monkeypatch)


def _settles_as_without_rungs(tables: int, monkeypatch) -> None:
    made = []  # per TableTurn made: whether it is a rung (given its forms)
    real_init = TableTurn.__init__

    def counted(self, problem, checker, budget, operations, found=None):
        made.append(found is not None)
        real_init(self, problem, checker, budget, operations, found)

    monkeypatch.setattr(TableTurn, "__init__", counted)
    for problem, _ in _problems_with_rungs(tables):
        made.clear()
        climbed = solve(problem, "best", max_seconds=60)
        assert any(made), "the rungs were solved"
        made.clear()
        plain = solve(problem, "best")  # no deadline: no rungs, the whole model given all the time
        assert made == [False]
        assert climbed.solvable is not None and _value(climbed) == _value(plain)
        assert replay(problem, climbed) == []


def test_with_little_time_left_the_whole_model_is_solved_without_rungs(every_turn_climbs, monkeypatch):
    """Less than RUNGS_LEFT seconds left once the forms are found: no rung is made (a rung of a
    thousand forms would take seconds the whole model lacks), and the answer is the whole model's."""
    made = []
    real_init = TableTurn.__init__

    def counted(self, problem, checker, budget, operations, found=None):
        made.append((found is not None, budget.left()))
        real_init(self, problem, checker, budget, operations, found)

    monkeypatch.setattr(TableTurn, "__init__", counted)
    ((problem, _),) = _problems_with_rungs(1)
    monkeypatch.setattr(tableturn, "RUNGS_LEFT", 50.0)
    answer = solve(problem, "best", max_seconds=40)
    assert [rung for rung, _ in made] == [False]
    assert answer.solvable is not None and replay(problem, answer) == []
    made.clear()
    monkeypatch.setattr(tableturn, "RUNGS_LEFT", 30.0)  # 40 s budget: more than 30 s left
    solve(problem, "best", max_seconds=40)
    assert not made[0][0] and made[0][1] > 30 and any(rung for rung, _ in made)  # the whole, then its rungs


def test_a_part_of_a_budget_ends_by_its_share_of_the_time_left():
    whole = Budget(10.0, memory=123 << 20)
    part = whole.part(0.5)
    assert part.memory == whole.memory and part.start == whole.start
    assert 4.5 < part.left() <= 5.0 and whole.left() > 9.5
    assert part.start + part.seconds == pytest.approx(part.deadline)
    unlimited = Budget(memory=0).part(0.5)
    assert unlimited.deadline is None and not unlimited.limited
