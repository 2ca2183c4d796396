"""The turn model's hooks for cards beyond the hand (:class:`~solver.melding.turn.model.TurnModel`
has none; :mod:`solver.melding.turn.distance`'s swaps draw some and set some aside)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from solver.core.deck import Face
from solver.melding.meld.candidates import Candidate, Scarce, candidates


class SwapHooks:
    """What a turn may hold beyond the hand and the table, and the candidates of a pool under it."""

    rs: Any
    problem: Any
    checker: Any
    budget: Any

    def _candidates(self, pool: list[Face], kinds, **limits) -> list[Candidate] | None:
        """The candidate melds of ``pool`` (:func:`~solver.melding.meld.candidates.candidates`)."""
        return candidates(
            self.rs,
            pool,
            kinds,
            params=self.problem.params,
            gate=self.checker.gate,
            check=self.budget.check,
            scarce=self._scarce(pool),
            **limits,
        )

    def _drawable(self) -> Counter[Face]:
        """Cards the turn may hold beyond the hand and the table (a distance's draws: none here)."""
        return Counter()

    def _scarce(self, pool: list[Face]) -> Scarce | None:
        """The positions of ``pool`` a candidate may hold only a few of (a distance's draws)."""
        return None

    def _swap_clauses(self, clauses: list[list[int]], uses: dict[Face, list[int]], releases: dict) -> None:
        """Copies let go of (to ``uses``) and drawn (to ``releases``) before the turn: a distance's."""
