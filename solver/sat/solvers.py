"""SAT and MaxSAT solvers behind one small interface, counting their calls, under a budget.

:class:`SatSolver` is one live incremental solver: clauses are added once and each question is
asked with assumptions (a fresh solver per question costs far more). :class:`MaxSat` optimises
weighted soft clauses with RC2, stratified by weight (lexicographic objectives span orders of
magnitude, where plain RC2 was measured 700× slower).
"""

from __future__ import annotations

from typing import Iterable, Sequence

from pysat.examples.rc2 import RC2Stratified
from pysat.formula import WCNF
from pysat.solvers import Solver

from solver.core.errors import Undecided
from solver.sat.budget import Budget

DEFAULT = "g3"  # Glucose 3: the turn and partition models
SMALL = "minisat22"  # MiniSat: the many small meld models, queried thousands of times


class SatSolver:
    """One incremental SAT solver."""

    def __init__(self, clauses: Iterable[Sequence[int]] = (), name: str = DEFAULT):
        self._solver = Solver(name=name, bootstrap_with=clauses)  # handed over as they are: no copy
        self.calls = 0

    def __enter__(self) -> "SatSolver":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self._solver is not None:
            self._solver.delete()
            self._solver = None

    def add(self, clause: Sequence[int]) -> None:
        self._solver.add_clause(list(clause))

    def extend(self, clauses: Iterable[Sequence[int]]) -> None:
        self._solver.append_formula(clauses)

    def solve(self, assumptions: Sequence[int] = (), budget: Budget | None = None) -> bool:
        """Satisfiable under ``assumptions``? Under a budget the call is interrupted at the
        deadline and raises :class:`Undecided`."""
        self.calls += 1
        solver = self._solver
        if budget is None or budget.deadline is None:
            return bool(solver.solve(assumptions=list(assumptions)))
        result = budget.run(solver, lambda: solver.solve_limited(assumptions=list(assumptions),
                                                                 expect_interrupt=True))
        if result is None:
            solver.clear_interrupt()
            raise Undecided
        return bool(result)

    def model(self) -> list[int]:
        return self._solver.get_model()

    def true(self) -> set[int]:
        """The variables true in the last model."""
        return {lit for lit in self._solver.get_model() if lit > 0}

    def core(self) -> list[int] | None:
        """The assumptions that made the last call unsatisfiable (a subset)."""
        return self._solver.get_core()


class MaxSat:
    """Minimise the weight of the violated soft clauses, subject to the hard ones."""

    calls = 0  # oracle calls of every MaxSat in the process

    def __init__(self, hard: Iterable[Sequence[int]], soft: Iterable[tuple[Sequence[int], int]],
                 name: str = DEFAULT, top: int | None = None):
        """``top``: the highest variable of the clauses, when the caller knows it (its pool's):
        the hard clauses are then handed over as they are, not appended one by one (WCNF.append
        scans every clause for its variables, a third of a large model's time)."""
        wcnf = WCNF()
        if top is not None:
            wcnf.hard = [list(clause) for clause in hard]
            wcnf.nv = top
        else:
            for clause in hard:
                wcnf.append(clause)
        for clause, weight in soft:
            wcnf.append(clause, weight=weight)
        self._rc2 = _CountingRC2(wcnf, solver=name, adapt=True, exhaust=True, minz=True)

    def __enter__(self) -> "MaxSat":
        return self

    def __exit__(self, *exc) -> None:
        self._rc2.delete()

    def optimum(self, budget: Budget | None = None) -> list[int] | None:
        """An optimal model, or None when the hard clauses are unsatisfiable."""
        rc2 = self._rc2
        if budget is None or budget.deadline is None:
            return rc2.compute()
        model = budget.run(rc2, lambda: rc2.compute(expect_interrupt=True))
        if model is None and rc2.interrupted:
            raise Undecided
        return model


class _CountingRC2(RC2Stratified):
    def _call_oracle(self, assumptions=[], expect_interrupt=False):  # noqa: B006 - RC2's signature
        MaxSat.calls += 1
        return super()._call_oracle(assumptions, expect_interrupt)
