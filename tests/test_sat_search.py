"""The incremental optimiser's building blocks (solver/sat/search.py), each against brute force
over every assignment of a few literals: totalizer counts in each direction, running sums both
ways, guarded clauses retired, and the linear search on one live solver — its optimum, its first
probe, and the best-so-far answer with bounds when the budget runs out mid-search."""

from __future__ import annotations

import itertools
import random

import pytest

from solver.core.errors import Undecided
from solver.sat import encodings
from solver.sat.encodings import TRUE, choice_counts, choice_implied, exactly
from solver.sat.pool import VarPool
from solver.sat.search import guard, maximise, unary_count, weight_at_least, weight_reached
from solver.sat.solvers import SatSolver


def assignments(lits):
    for bits in itertools.product([False, True], repeat=len(lits)):
        yield [x if b else -x for x, b in zip(lits, bits, strict=True)], sum(bits)


@pytest.mark.parametrize("n", [1, 2, 3, 5, 6])
@pytest.mark.parametrize("up,down", [(True, True), (True, False), (False, True)])
def test_unary_count_counts(n, up, down):
    pool = VarPool()
    lits = [pool.new() for _ in range(n)]
    for cap in {1, max(1, n - 2), n, n + 1}:
        clauses: list = []
        ge = unary_count(lits, cap, pool, clauses, up=up, down=down)
        assert ge[0] == TRUE and len(ge) == min(n, cap) + 1
        with SatSolver(clauses) as solver:
            for fixed, count in assignments(lits):
                for k in range(1, len(ge)):
                    if down:  # ge[k] only with k true inputs
                        assert solver.solve(fixed + [ge[k]]) == (count >= k)
                    if up:  # k true inputs force ge[k]
                        assert solver.solve(fixed + [-ge[k]]) == (count < k)


def test_unary_count_counts_a_literal_given_twice_twice():
    pool = VarPool()
    x, y = pool.new(), pool.new()
    clauses: list = []
    ge = unary_count([x, x, y], 3, pool, clauses)
    with SatSolver(clauses) as solver:
        assert solver.solve([x, -y, ge[2], -ge[3]]) and not solver.solve([x, -y, ge[3]])


@pytest.mark.parametrize("seed", range(8))
def test_choice_counts_say_what_the_option_chosen_holds(seed):
    """With one option chosen, each item's step k holds exactly when that option holds k copies or
    more of it (every option tried, every step asked both ways)."""
    rng = random.Random(seed)
    pool = VarPool()
    options = [(pool.new(), [rng.choice("abcd") for _ in range(rng.randint(0, 4))]) for _ in range(rng.randint(1, 6))]
    clauses: list = exactly([lit for lit, _ in options], 1, pool)
    holders: dict[int, int] = {}
    steps = choice_counts(options, pool, clauses, holders)
    most = {item: max(items.count(item) for _, items in options) for item in "abcd"}
    assert {item: len(at) for item, at in steps.items()} == {item: n for item, n in most.items() if n}
    for item, at in steps.items():
        for k, step in enumerate(at, 1):
            assert holders[step] == sum(1 << i for i, (_, items) in enumerate(options) if items.count(item) >= k)
    with SatSolver(clauses) as solver:
        for chosen, items in options:
            for item, at in steps.items():
                for k, step in enumerate(at, 1):
                    assert solver.solve([chosen, step]) == (items.count(item) >= k)
                    assert solver.solve([chosen, -step]) == (items.count(item) < k)


def _holders(rng: random.Random, options: int, pool: VarPool) -> dict[int, int]:
    """Literals true for random sets of ``options`` options (some for none, all, or the same set)."""
    full = (1 << options) - 1
    masks = [rng.randrange(full + 1) for _ in range(rng.randint(1, 7))] + [0, full]
    return {pool.new(): mask for mask in masks + masks[:1]}


@pytest.mark.parametrize("seed", range(10))
def test_choice_implied_are_every_short_clause_the_options_satisfy(seed):
    """Each clause holds for every option (the literals set as that option sets them: none
    lost), none has a part that does, and the clauses alone imply every clause of up to three of
    the literals that every option satisfies — found by brute force over the options."""
    rng = random.Random(seed)
    options = rng.randint(1, 6)
    holders = _holders(rng, options, VarPool())
    clauses = choice_implied(holders, options)

    def holds(clause, option):
        return any((holders[abs(lit)] >> option & 1) == (lit > 0) for lit in clause)

    def valid(clause):
        return all(holds(clause, option) for option in range(options))

    assert all(valid(c) for c in clauses)
    assert not any(valid(part) for c in clauses for n in range(1, len(c)) for part in itertools.combinations(c, n))
    signed = [x for lit in holders for x in (lit, -lit)]
    with SatSolver(clauses) as solver:
        for n in (1, 2, 3):
            for clause in itertools.combinations(signed, n):
                if len({abs(x) for x in clause}) == n and valid(clause):
                    assert not solver.solve([-x for x in clause]), clause


def test_choice_implied_seeks_clauses_of_three_among_a_few_literals(monkeypatch):
    rng, pool = random.Random(3), VarPool()
    holders = {pool.new(): rng.randrange(1, (1 << 9) - 1) for _ in range(10)}
    every = choice_implied(holders, 9)
    assert any(len(c) == 3 for c in every)
    monkeypatch.setattr(encodings, "IMPLIED_THREES_UPTO", 9)
    assert choice_implied(holders, 9) == [c for c in every if len(c) < 3]


@pytest.mark.parametrize("seed", range(6))
def test_running_sums_both_ways(seed):
    rng = random.Random(seed)
    pool = VarPool()
    lits = [pool.new() for _ in range(rng.randint(1, 5))]
    weights = [rng.randint(1, 6) for _ in lits]
    cap = rng.randint(1, sum(weights) + 1)
    clauses: list = []
    reached = weight_reached(list(zip(lits, weights, strict=True)), cap, pool, clauses)
    targets = {
        t: weight_at_least(list(zip(lits, weights, strict=True)), t, pool, clauses) for t in range(0, sum(weights) + 2)
    }
    with SatSolver(clauses) as solver:
        for fixed, _ in assignments(lits):
            weight = sum(w for x, w in zip(fixed, weights, strict=True) if x > 0)
            for d in range(1, cap + 1):  # -reached[d]: the true literals weigh less than d
                if reached[d] is None:
                    assert weight < d
                else:
                    assert solver.solve(fixed + [-reached[d]]) == (weight < d)
            for t, lit in targets.items():  # lit: they weigh t or more
                if lit is None:
                    assert weight < t
                elif lit != TRUE:
                    assert solver.solve(fixed + [lit]) == (weight >= t)


def test_guarded_clauses_bind_until_retired():
    pool = VarPool()
    x, act = pool.new(), pool.new()
    with SatSolver() as solver:
        solver.extend(guard([[x]], act))
        assert not solver.solve([act, -x])
        solver.add([-act])
        assert solver.solve([-x])


def at_most_three_of_six():
    """Six literals, at most three true (the optimum of "how many true" is 3)."""
    pool = VarPool()
    lits = [pool.new() for _ in range(6)]
    clauses: list = []
    up = unary_count(lits, 4, pool, clauses, down=False)
    clauses.append([-up[4]])
    ge = unary_count(lits, 6, pool, clauses, up=False)
    return lits, ge, clauses


@pytest.mark.parametrize("hope", [False, True])
@pytest.mark.parametrize("halve", [False, True])
def test_maximise_proves_the_optimum_on_one_solver(hope, halve):
    lits, ge, clauses = at_most_three_of_six()

    def count(model):
        return sum(model[x - 1] > 0 for x in lits)

    with SatSolver(clauses) as solver:
        found = maximise(solver, [], lambda k: ge[k] if k < len(ge) else None, count, 6, hope=hope, halve=halve)
        assert (found.value, found.low, found.high, found.proved) == (3, 3, 3, True)
        assert count(found.model) == 3
        found = maximise(solver, [-lits[0], -lits[1], -lits[2], -lits[3]], lambda k: ge[k], count, 6, halve=halve)
        assert found.value == 2 and found.proved  # the same solver, other assumptions


class Stopping(SatSolver):
    """A solver whose budget runs out at its n-th call."""

    def __init__(self, clauses, stop_at: int):
        super().__init__(clauses)
        self.stop_at = stop_at

    def solve(self, assumptions=(), budget=None):
        if self.calls + 1 >= self.stop_at:
            self.calls += 1
            raise Undecided
        return super().solve(assumptions, budget)


@pytest.mark.parametrize("halve", [False, True])
def test_maximise_keeps_the_best_so_far_when_the_time_runs_out(halve):
    lits, ge, clauses = at_most_three_of_six()
    clauses.append([-x for x in lits[:2]] + [lits[5]])  # nothing forces a good first model

    def count(model):
        return sum(model[x - 1] > 0 for x in lits)

    with Stopping(clauses, 3) as solver:  # a first model, one more question, then out of time
        found = maximise(solver, [-lits[0]], lambda k: ge[k], count, 6, halve=halve)
    assert not found.decided and found.model is not None and not found.proved
    assert found.low == count(found.model) <= 3 <= found.high <= 6
    with Stopping(clauses, 1) as solver:
        found = maximise(solver, [], lambda k: ge[k], count, 6)
    assert (found.value, found.model, found.decided) == (None, None, False)
