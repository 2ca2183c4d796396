"""The MaxSAT optimiser of a lazily verified model: :class:`~solver.sat.solvers.MaxSat` with the
oracle and options the turn models were measured fastest with, and soft clauses added mid-way
kept through the stratification.

Measured on the turn model with its objective shared out among the cards
(:mod:`solver.melding.shares`), random hands of 45 cards and of 30 with 10 wilds (the bench), CPU time
summed over ten hands each: MapleChrono as RC2's oracle 1.3–4× faster than Glucose 3 (Glucose 4,
MiniSat, MapleSAT and MapleCM slower; CaDiCaL refuses RC2's incremental use), and core
minimisation off a further 1.2–2× (RC2's ``minz`` spends a limited SAT call a core literal, dear
on a model of 10⁵ clauses); core exhaustion and AtMost1 detection neither help nor hurt.

A soft clause added after the first stratification level (a verified meld worth less than its
bound, :meth:`add_soft`) is registered as one of the original soft clauses' selectors: RC2Stratified
otherwise takes it, once a core has split its weight and a later level brings it back, for one of
its totalizer sums, and fails (``KeyError`` in ``update_sum``).
"""

from __future__ import annotations

from typing import Callable, Iterable, Sequence

from solver.sat.solvers import MaxSat

ORACLE = "mgh"  # MapleChrono


class LazyMaxSat(MaxSat):
    """:class:`MaxSat` tuned for models whose options are verified as the optimiser picks them."""

    def __init__(self, hard: Iterable[Sequence[int]], soft: Iterable[tuple[Sequence[int], int]],
                 top: int | None = None, verify: Callable[[list[int]], bool] | None = None):
        super().__init__(hard, soft, name=ORACLE, top=top, verify=verify)
        self._rc2.minz = False

    def add_soft(self, clause: Sequence[int], weight: int) -> None:
        if weight > 0:
            rc2 = self._rc2
            rc2.hard = False  # hardening from here on would not know this clause's weight
            rc2.bckp_set.add(rc2.add_clause(list(clause), weight=weight))
