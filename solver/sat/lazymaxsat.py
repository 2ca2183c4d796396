"""The MaxSAT optimiser of a lazily verified model: :class:`~solver.sat.solvers.MaxSat` with the
oracle and options fastest on the turn models, and soft clauses added mid-way
kept through the stratification.

MiniSat (GitHub version) is RC2's oracle, and core minimisation is off (RC2's ``minz`` spends a limited SAT
call a core literal, dear on a model of 10⁵ clauses): the fastest on the turn models
(docs/performance.md).

Two fixes to RC2Stratified driven through verification (both failed on random instances with
``KeyError``, tests/test_lazymaxsat.py): a soft clause added mid-search (a verified meld worth
less than its bound, :meth:`add_soft`) is registered among the original soft clauses' selectors —
else, once a core has split its weight and a later level brings it back, RC2 takes it for one of
its totalizer sums; and a search resumed within a level detects AtMost1 constraints among the
active selectors only (:class:`_LazyRC2`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from solver.sat.solvers import MaxSat, _LiveRC2

ORACLE = "mgh"  # MiniSat (GitHub version): the turn models' RC2 oracle (docs/performance.md)


class _LazyRC2(_LiveRC2):
    def adapt_am1(self) -> None:
        """AtMost1 detection among the active selectors only. RC2 runs it at the start of each
        search; a search resumed after verification (within a level) would otherwise also see the
        selectors the level's cores parked for later levels (still in ``sels_set``), and relax
        them while they wait: a parked selector gone from the weights fails when its level comes."""
        self.sels_set = set(self.sels)
        super().adapt_am1()


class LazyMaxSat(MaxSat):
    """:class:`MaxSat` tuned for models whose options are verified as the optimiser picks them."""

    def __init__(
        self,
        hard: Iterable[Sequence[int]],
        soft: Iterable[tuple[Sequence[int], int]],
        top: int | None = None,
        verify: Callable[[list[int]], bool] | None = None,
        oracle: str = ORACLE,
    ):
        super().__init__(hard, soft, name=oracle, top=top, verify=verify)
        self._live.__class__ = _LazyRC2  # the same RC2, with the fix above (made by MaxSat's constructor)
        self._live.minz = False

    def add_soft(self, clause: Sequence[int], weight: int) -> None:
        if weight > 0:
            rc2 = self._live
            rc2.hard = False  # hardening from here on would not know this clause's weight
            rc2.bckp_set.add(rc2.add_clause(list(clause), weight=weight))  # see the module's docstring
