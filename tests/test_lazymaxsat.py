"""The lazily verified MaxSAT optimiser (solver/sat/lazymaxsat.py) against brute force.

Each random instance has options (literals) whose soft weights are bounds: verification, asked
of every model the optimiser settles on, finds some options illegal (a hard clause) and some worth
less than their bound (a soft clause on the negation, given mid-search), as the turn models do.
The optimum must be the brute-force optimum of the fully verified instance; weights spanning
orders of magnitude make RC2 stratify, so soft clauses added mid-way are split by cores and
brought back at later levels (where RC2Stratified used to take them for sums).
"""

from __future__ import annotations

import itertools
import random

import pytest

from solver.sat.lazymaxsat import LazyMaxSat
from solver.sat.solvers import MaxSat


def instance(rng: random.Random, n: int):
    hard = []
    for _ in range(rng.randint(1, n)):  # overlaps: at most one of a few options
        group = rng.sample(range(1, n + 1), rng.randint(2, 3))
        hard += [[-a, -b] for a, b in itertools.combinations(group, 2)]
    bound = {v: rng.choice([1, 2, 3, 8, 9, 27, 64, 100]) for v in range(1, n + 1)}
    truth = {}
    for v, w in bound.items():
        roll = rng.random()
        truth[v] = None if roll < 0.2 else rng.randint(0, w - 1) if roll < 0.6 else w  # None: illegal
    return hard, bound, truth


def brute_best(n, hard, truth) -> int:
    best = -1
    for bits in itertools.product([False, True], repeat=n):
        chosen = {v for v, b in zip(range(1, n + 1), bits, strict=True) if b}
        if any(truth[v] is None for v in chosen):
            continue
        if all(any((lit > 0) == (abs(lit) in chosen) for lit in clause) for clause in hard):
            best = max(best, sum(truth[v] for v in chosen))
    return best


@pytest.mark.parametrize("seed", range(150))
def test_lazy_verification_reaches_the_verified_optimum(seed):
    rng = random.Random(seed)
    n = rng.randint(6, 12)
    hard, bound, truth = instance(rng, n)
    verified: set[int] = set()
    maxsat: MaxSat

    def verify(model):
        changed = False
        for v in (lit for lit in model if 0 < lit <= n and lit not in verified):
            verified.add(v)
            if truth[v] is None:
                maxsat.add_hard([-v])
                changed = True
            elif truth[v] < bound[v]:
                maxsat.add_soft([-v], bound[v] - truth[v])
                changed = True
        return changed

    with LazyMaxSat(hard, [([v], w) for v, w in bound.items()], top=n, verify=verify) as maxsat:
        model = maxsat.optimum()
        chosen = {lit for lit in model if 0 < lit <= n}
        assert all(truth[v] is not None for v in chosen)
        assert sum(truth[v] for v in chosen) == brute_best(n, hard, truth)
