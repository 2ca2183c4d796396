"""The table turn as one model agrees with an exhaustive search of every order of single-card
operations (tests/table_search_oracle.py, the search melds used before): the same best value,
and going out exactly when the search can, on random small tables."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from gameapi import solve
from profiles import examples
from replay import replay
from solver.core.errors import MeldsError
from solver.melding.checker import MeldChecker
from solver.sat.budget import Budget
from table_search_oracle import TableTurnSolver
from test_table_turns import RS, SETTINGS, _value, table_problems

CHECKER = MeldChecker(RS)


def _operations():
    from solver.core.registry import load_game

    return load_game(RS).rules.operations


def search(problem):
    """The exhaustive search's best value and whether it goes out (None: no turn at all)."""
    node = TableTurnSolver(problem, CHECKER, Budget(), lambda solver: None, _operations()).solve()
    return node


def agrees(problem) -> None:
    try:
        node = search(problem)
    except MeldsError:
        with pytest.raises(MeldsError):
            solve(problem, "best")
        return
    if node.any is None:
        with pytest.raises(MeldsError):
            solve(problem, "best")
        return
    best = solve(problem, "best")
    assert replay(problem, best) == []
    assert _value(best) == node.any.value
    out = solve(problem, "go-out")
    assert bool(out.solvable) == (node.out is not None)
    if out.solvable:
        assert replay(problem, out) == []


@settings(max_examples=examples(40), **SETTINGS)
@given(table_problems())
def test_one_model_equals_the_exhaustive_search(problem):
    agrees(problem)


@pytest.mark.slow  # the same on many more tables
@settings(max_examples=examples(400), **SETTINGS)
@given(table_problems())
def test_one_model_equals_the_exhaustive_search_at_length(problem):
    agrees(problem)
