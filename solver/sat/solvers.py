"""SAT and MaxSAT solvers behind one small interface, counting their calls, under a budget.

:class:`SatSolver` is one live incremental solver: clauses are added once and each question is
asked with assumptions (a fresh solver per question costs far more). :class:`MaxSat` optimises
weighted soft clauses with RC2, stratified by weight (lexicographic objectives span orders of
magnitude, where plain RC2 is far slower: docs/performance.md).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence
from itertools import repeat
from types import TracebackType
from typing import Any

import pysolvers  # pysat's C module (MiniSat's clauses added directly: _add_each)
from pysat.examples.rc2 import RC2Stratified
from pysat.formula import WCNF
from pysat.solvers import Solver

from solver.sat.budget import Budget

DEFAULT = "g3"  # Glucose 3: the turn and partition models
SMALL = "minisat22"  # MiniSat: the many small meld models, queried thousands of times


class SatSolver:
    """One incremental SAT solver."""

    def __init__(self, clauses: Iterable[Sequence[int]] = (), name: str = DEFAULT):
        if name == SMALL:
            self._solver: Any = Solver(name=name)
            _add_each(self._solver.solver.minisat, clauses)
        else:
            self._solver = Solver(name=name, bootstrap_with=clauses)  # handed over as they are: no copy
        self.calls = 0

    def __enter__(self) -> SatSolver:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
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
        if budget is None or not budget.limited:
            return bool(solver.solve(assumptions=list(assumptions)))
        result = budget.run(solver, lambda: solver.solve_limited(assumptions=list(assumptions), expect_interrupt=True))
        if result is None:
            solver.clear_interrupt()
            raise budget.undecided()
        return bool(result)

    def model(self) -> list[int]:
        model: list[int] = self._solver.get_model()
        return model

    def true(self) -> set[int]:
        """The variables true in the last model."""
        return {lit for lit in self._solver.get_model() if lit > 0}

    def stats(self) -> dict[str, int]:
        """The solver's own counts over every call so far (conflicts, decisions, propagations,
        restarts): the same on every run of the same formula, where CPU seconds on a shared
        machine are not."""
        stats: dict[str, int] = self._solver.accum_stats() or {}
        return stats

    def core(self) -> list[int] | None:
        """The assumptions that made the last call unsatisfiable (a subset)."""
        core: list[int] | None = self._solver.get_core()
        return core


def _add_each(minisat: Any, clauses: Iterable[Sequence[int]]) -> None:
    """The clauses into a MiniSat by its C function, as pysat's own loop hands them over (in order:
    the same solver) but without a Python method call per clause: a meld model has tens of
    thousands."""
    deque(map(pysolvers.minisat22_add_cl, repeat(minisat), clauses), maxlen=0)  # the loop in C


class TrueLiterals:
    """``lit in TrueLiterals(model)``: whether a variable is true in a model, read at its index.

    A solver's model lists every variable in order (``model[v - 1]`` is ``v`` or ``-v``); a set of
    its true literals costs a pass over the whole model — hundreds of thousands of counter and
    totalizer variables in a large turn — at every verification round, where a few hundred option
    variables are asked. A model that is not laid out so (filtered, partial) is read into a set."""

    __slots__ = ("model", "_set")

    def __init__(self, model: Sequence[int]):
        self.model = model
        self._set: set[int] | None = None

    def __contains__(self, lit: int) -> bool:
        if lit <= 0:
            return False
        model = self.model
        if lit <= len(model):
            at = model[lit - 1]
            if at == lit:
                return True
            if at == -lit:
                return False
        if self._set is None:
            self._set = {v for v in model if v > 0}
        return lit in self._set


class MaxSat:
    """Minimise the weight of the violated soft clauses, subject to the hard ones: one live RC2
    through every round of a query.

    The caller may learn more about its variables while the optimiser runs: ``verify`` is called
    with each model RC2 settles on (the end of each stratification level, before that level's
    soft clauses are hardened, and the end) and may add clauses (:meth:`add_hard`,
    :meth:`add_soft`); when it returns True RC2 goes on from where it stood, its cores still
    valid, until a model passes. A model that passed stays feasible and keeps its cost under
    everything added later (the caller only adds clauses about what it had not verified), so the
    hardening done on it stays sound; a soft clause added mid-way only stops further hardening.
    """

    calls = 0  # oracle calls of every MaxSat in the process

    def __init__(
        self,
        hard: Iterable[Sequence[int]],
        soft: Iterable[tuple[Sequence[int], int]],
        name: str = DEFAULT,
        top: int | None = None,
        verify: Callable[[list[int]], bool] | None = None,
    ):
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
        self._rc2: _LiveRC2 | None = _LiveRC2(wcnf, solver=name, adapt=True, exhaust=True, minz=True)
        self._rc2.verify = verify

    def __enter__(self) -> MaxSat:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        if self._rc2 is not None:
            self._rc2.delete()
            self._rc2 = None

    @property
    def _live(self) -> _LiveRC2:
        """The optimiser (not yet closed)."""
        assert self._rc2 is not None, "the MaxSat was closed"
        return self._rc2

    def add_hard(self, clause: Sequence[int]) -> None:
        self._live.add_clause(list(clause))

    def add_soft(self, clause: Sequence[int], weight: int) -> None:
        if weight > 0:
            self._live.hard = False  # hardening from here on would not know this clause's weight
            self._live.add_clause(list(clause), weight=weight)

    @property
    def lower_bound(self) -> int:
        """The least cost any model can have, as far as the cores found so far prove."""
        cost: int = self._live.cost
        return cost

    @property
    def best_model(self) -> list[int] | None:
        """The last model that passed ``verify`` (feasible; optimal once :meth:`optimum` returned)."""
        return self._live.passed

    def optimum(self, budget: Budget | None = None) -> list[int] | None:
        """An optimal model, or None when the hard clauses are unsatisfiable. Out of budget:
        :class:`Undecided`, with :attr:`best_model` and :attr:`lower_bound` for what was found."""
        rc2 = self._live
        if budget is None or not budget.limited:
            found: list[int] | None = rc2.compute()
            return found
        rc2.interruptible = True
        try:
            model: list[int] | None = budget.run(rc2, lambda: rc2.compute(expect_interrupt=True))
        except _Interrupted:
            rc2.clear_interrupt()
            raise budget.undecided() from None
        finally:
            rc2.interruptible = False
        return model  # an interrupted call raised above: a None here is a finished proof of none


class _Interrupted(Exception):
    """An oracle call was interrupted (the budget's watchdog)."""


class _LiveRC2(RC2Stratified):  # type: ignore[misc]  # python-sat has no type information
    verify: Callable[[list[int]], bool] | None = None
    passed: list[int] | None = None
    interruptible = False  # under a budget: every oracle call may be interrupted

    # RC2's signature, its mutable default included
    def _call_oracle(self, assumptions: list[int] = [], expect_interrupt: bool = False) -> bool | None:  # noqa: B006
        """Under a budget every call is interruptible, and an interrupted one ends the search.
        RC2 makes its heuristics' calls (core exhaustion, minimisation) uninterruptible, holding
        the GIL, so the watchdog could not even run, and a call could run seconds past the budget.
        And RC2 would take a call that returned nothing for an unsatisfiable one: a core it did not
        get (no model, as if the query had none) or, exhausting a core, a higher cost — a lower
        bound that is not one. Nor does a call start once the search was told to stop: an
        interrupt ends only the call it finds running (the next clears it), and one that came as a
        call was ending on its own would let the next ones run on."""
        MaxSat.calls += 1
        if self.interruptible and self.interrupted:  # RC2 sets it, False, when made
            raise _Interrupted
        result: bool | None = super()._call_oracle(assumptions, expect_interrupt or self.interruptible)
        if result is None and self.interruptible:
            raise _Interrupted
        return result

    def compute_(self) -> bool:
        while True:
            settled: bool | None = super().compute_()
            if settled is None:
                # RC2 was interrupted after an oracle call had ended on its own: it processes that
                # call's core and stops, answering None, as it answers no model at all (False) —
                # which optimum() would take for a proof of none when the watchdog's interrupt
                # fell between two calls
                raise _Interrupted
            if settled is not True:
                return settled
            model: list[int] = self.oracle.get_model()
            if self.verify is None or not self.verify(model):
                self.passed = model
                return True
