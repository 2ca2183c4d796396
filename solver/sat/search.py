"""Counting and optimising on one live solver: the building blocks of an incremental optimiser.

A model is built once; each query sets its parameters as assumptions, and the objective is asked
as "at least k" through literals the model already has, so the solver (and what it has learnt)
lives through every round of the search and every query. Nothing here knows a game.

* :func:`unary_count` — a totalizer: literals ``ge[k]`` for "at least k of these literals are
  true", in one direction or both, capped.
* :func:`weight_reached` — a capped running sum over weighted literals: ``reached[d]`` is forced
  true once the true literals weigh d or more, so assuming ``-reached[d]`` bounds the weight below
  d (a per-query objective over a handful of literals: built with an activation literal).
* :func:`weight_at_least` — the other direction: one literal that forces the true literals to weigh
  a target or more (a threshold asserted by assumption, such as a minimum score).
* :func:`any_of_at_most_one` — a literal for "one of these", at most one of which may be true (a
  ladder: a card held once, counted over the melds that may take it).
* :func:`guard` — a query's own clauses, switched on by one activation literal and retired for
  good with a unit clause when the query ends (the solver drops satisfied clauses).
* :func:`maximise` — a model-improving search (SAT until UNSAT, linear or halving) of "at least
  k" on the same solver, keeping the best model and the bounds it has proved; under a budget it
  ends with the best found so far and the interval the optimum lies in.

Conventions: literals are ints; ``ge[0]`` is :data:`~solver.sat.encodings.TRUE` (0, never put in
a clause); a count that cannot be reached has no literal (the list is shorter).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from solver.core.errors import Undecided
from solver.sat.budget import Budget
from solver.sat.encodings import TRUE
from solver.sat.pool import VarPool
from solver.sat.solvers import SatSolver

Clause = list[int]


def unary_count(
    lits: Sequence[int], cap: int, pool: VarPool, clauses: list[Clause], up: bool = True, down: bool = True
) -> list[int]:
    """A totalizer over ``lits`` (a literal given twice counts twice): ``ge[k]`` for k = 1 … min(len,
    cap) means "at least k of them are true". ``up``: k true inputs force ``ge[1..k]`` (assume
    ``-ge[k]`` for "fewer than k"); ``down``: ``ge[k]`` forces k true inputs (assume ``ge[k]`` for
    "at least k"). ``ge[cap]`` stands for every count from ``cap`` up. About n·log n variables and
    at most (a+1)(b+1) clauses a node in each direction, a and b its children's outputs."""
    if not lits or cap <= 0:
        return [TRUE]
    layer = [[TRUE, lit] for lit in lits]
    while len(layer) > 1:
        nxt = [_merge(layer[i], layer[i + 1], cap, pool, clauses, up, down) for i in range(0, len(layer) - 1, 2)]
        if len(layer) % 2:
            nxt.append(layer[-1])
        layer = nxt
    return layer[0]


def _merge(
    a: list[int], b: list[int], cap: int, pool: VarPool, clauses: list[Clause], up: bool, down: bool
) -> list[int]:
    na, nb = len(a) - 1, len(b) - 1
    n = min(na + nb, cap)
    c = [TRUE] + [pool.new() for _ in range(n)]
    for i in range(na + 1):
        for j in range(nb + 1):
            k = i + j
            if up and 0 < k <= n:  # at least i on the left and j on the right: at least i + j
                clause = [c[k]]
                if i:
                    clause.append(-a[i])
                if j:
                    clause.append(-b[j])
                clauses.append(clause)
            if down and k + 1 <= n:  # fewer than i + 1 on the left and j + 1 on the right: fewer than i + j + 1
                clause = [-c[k + 1]]
                if i < na:
                    clause.append(a[i + 1])
                if j < nb:
                    clause.append(b[j + 1])
                clauses.append(clause)
    return c


def weight_reached(
    items: Sequence[tuple[int, int]], cap: int, pool: VarPool, clauses: list[Clause]
) -> list[int | None]:
    """A running sum over ``items`` (literal, positive weight), capped at ``cap``, in the upward
    direction only: ``reached[d]`` (d = 1 … cap) is forced true once the true literals weigh d or
    more; None where no choice weighs d. Assume ``-reached[d]`` for "they weigh less than d". The
    clauses only ever force fresh variables true, so they are a conservative extension: without
    the assumption they constrain nothing. n·cap cells at most, two clauses a cell."""
    reached: list[int | None] = [TRUE] + [None] * cap
    for lit, weight in items:
        nxt: list[int | None] = [TRUE]
        for d in range(1, cap + 1):
            keep, step = reached[d], reached[max(0, d - weight)]
            if step is None and keep is None:
                nxt.append(None)
                continue
            out = pool.new()
            if keep is not None:
                clauses.append([-keep, out])  # weighed d already
            if step is not None:  # this literal on top of d - weight
                clauses.append([-lit, out] if step is TRUE else [-lit, -step, out])
            nxt.append(out)
        reached = nxt
    return reached


def weight_at_least(items: Sequence[tuple[int, int]], target: int, pool: VarPool, clauses: list[Clause]) -> int | None:
    """A literal that can be true only when the true literals of ``items`` (literal, positive
    weight) weigh ``target`` or more: a capped running sum in the downward direction,
    ``s[v] → s'[v] ∨ (x ∧ s'[v − w])``. Assert or assume it; denied, it says nothing. None: the
    target is out of reach; :data:`TRUE`: it is met by nothing (``target`` ≤ 0)."""
    if target <= 0:
        return TRUE
    sums: list[int | None] = [TRUE] + [None] * target  # sums[v]: the items so far weigh at least v
    for lit, weight in items:
        nxt: list[int | None] = [TRUE]
        for v in range(1, target + 1):
            keep, step = sums[v], sums[max(0, v - weight)]
            if keep is TRUE:
                nxt.append(TRUE)
                continue
            if step is None:
                nxt.append(keep)
                continue
            out = pool.new()
            tail = [keep] if keep is not None else []
            clauses.append([-out, lit] + tail)
            if step is not TRUE:
                clauses.append([-out, step] + tail)
            nxt.append(out)
        sums = nxt
    return sums[target]


def any_of_at_most_one(lits: Sequence[int], pool: VarPool, clauses: list[Clause]) -> int | None:
    """A literal true exactly when one of ``lits`` is, with at most one of them true: a ladder
    ``s[i] ⇔ s[i-1] ∨ x[i]`` with ``s[i-1] → ¬x[i]`` — n variables and 4n clauses, half of what a
    counter to two takes. None when there are no literals."""
    if len(lits) <= 1:
        return lits[0] if lits else None
    prev = None
    for x in lits:
        s = pool.new()
        clauses.append([-x, s])
        if prev is None:
            clauses.append([-s, x])
        else:
            clauses += [[-prev, s], [-prev, -x], [-s, prev, x]]
        prev = s
    return prev


def guard(clauses: Sequence[Clause], act: int) -> list[Clause]:
    """``clauses`` switched on by the literal ``act`` (assume it); add ``[-act]`` to retire them."""
    return [[-act, *clause] for clause in clauses]


@dataclass
class Optimum:
    """What :func:`maximise` found: the best value and its model (None: no model), the interval
    the optimum lies in (``low == high`` once proved), whether the search ended by the solver's
    answer (``decided``; False: the budget ran out) and the calls it made."""

    value: int | None
    model: list[int] | None
    low: int | None
    high: int
    decided: bool = True
    calls: int = 0

    @property
    def proved(self) -> bool:
        return self.decided and self.value is not None


def maximise(
    solver: SatSolver,
    assumptions: Sequence[int],
    at_least: Callable[[int], int | None],
    measure: Callable[[list[int]], int],
    high: int,
    budget: Budget | None = None,
    first: list[int] | None = None,
    hope: bool = False,
    halve: bool = False,
) -> Optimum:
    """The most ``measure`` (an objective read off a model) under ``assumptions``, by a
    model-improving search on the live ``solver``: each round asks for a model better than the
    best so far through ``at_least(k)`` — a literal forcing the objective to at least k (None: k
    cannot be reached; :data:`TRUE`: every model reaches it) — until the solver says no, which
    proves the optimum. ``high`` is a known upper bound. ``first``: a model already found under
    these assumptions (saves the first call). ``hope``: ask for ``high`` first — one call when the
    best is the most there can be (a rack that goes out), one refutation more when it is not.
    ``halve``: ask for the middle of what is left (best found … highest not refuted) instead of
    one more than the best — fewer calls when models climb slowly, tighter bounds if cut short.

    When the budget runs out the answer holds the best model so far and the interval the optimum
    lies in (``decided`` False) instead of raising; with no model at all ``value`` is None, and
    ``decided`` tells "none exists" from "the time ran out"."""
    calls = 0
    model = first
    try:
        top = at_least(high) if hope and model is None else None
        if top is not None:
            calls += 1
            if solver.solve([*assumptions, top] if top != TRUE else assumptions, budget):
                model = solver.model()
                return Optimum(measure(model), model, high, high, True, calls)
            high -= 1
        if model is None:
            calls += 1
            if not solver.solve(assumptions, budget):
                return Optimum(None, None, None, high, True, calls)
            model = solver.model()
        best = measure(model)
        while best < high:
            goal = best + 1 if not halve else (best + high + 1) // 2
            lit = at_least(goal)
            if lit is None:
                high = goal - 1
                continue
            calls += 1
            if solver.solve([*assumptions, lit] if lit != TRUE else assumptions, budget):
                model = solver.model()
                best = measure(model)
            else:
                high = goal - 1
        return Optimum(best, model, best, best, True, calls)
    except Undecided:
        if model is None:
            return Optimum(None, None, None, high, False, calls)
        best = measure(model)
        return Optimum(best, model, best, high, False, calls)
