"""A lower bound on the swaps a hand is from going out, from the candidate melds alone (no SAT
call): the floor :mod:`solver.melding.turn.distance` asks before a bound.

A way out after at most ``b`` swaps melds the hand's cards but the discard (all of them in a turn
with none), each of its melds holding at most ``b`` drawn cards, so each is one of the swap model's
candidates when its reach is at least ``b``. Give each hand card of a meld its share of the meld's
drawn cards (drawn / hand cards of the meld): the drawn cards are the sum of the shares, and each
share is at least the least share of a candidate holding that card. With ``k`` hand cards melded,
the drawn cards are at least the ``k`` least shares' sum and at least ``melded - k`` (the melds
hold that many cards). The least over ``k`` of the larger of the two is a floor on the swaps (a
relaxation: the candidates' overlaps, legality and the cards left to draw are ignored). It is
proved only up to the reach: a way out of more swaps may make melds the candidates do not hold.

A draw's floor (the hand with one card let go and another drawn) reuses the shares: only the
candidates holding the drawn card change (it is the hand's now, no longer drawn).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from math import lcm

from solver.core.deck import Face


class SwapFloor:
    """The shares of one model's candidates (each a sequence of faces, the cards it holds), in
    whole units: a share ``drawn / held`` is ``drawn * (unit // held)``, ``unit`` a multiple of
    every count of hand cards a candidate holds, so that sums and their ceiling are exact."""

    def __init__(self, candidates: Iterable[Sequence[Face]], melded: int):
        self.melded = melded  # the cards a way out melds
        self.candidates = [(Counter(faces), len(faces)) for faces in candidates]
        self.unit = lcm(*range(1, max((size for _, size in self.candidates), default=1) + 1))
        self.never = self.unit * (melded + 1)  # more than any way out draws: no candidate holds the card
        self.holding: dict[Face, list[int]] = defaultdict(list)  # face -> the candidates holding it
        for i, (need, _) in enumerate(self.candidates):
            for face in need:
                self.holding[face].append(i)

    def shares(self, held: Counter[Face]) -> dict[Face, int]:
        """Per face held, the least share of a candidate holding it (faces in none: absent)."""
        least: dict[Face, int] = {}
        seen: set[int] = set()
        for face in held:
            for i in self.holding.get(face, ()):
                if i not in seen:
                    seen.add(i)
                    self._lower(least, i, held)
        return least

    def with_drawn(self, shares: dict[Face, int], held: Counter[Face], drawn: Face) -> dict[Face, int]:
        """The shares once ``drawn`` joins ``held`` (``shares``: those of ``held``)."""
        after = held + Counter([drawn])
        out = dict(shares)
        for i in self.holding.get(drawn, ()):
            self._lower(out, i, after)
        return out

    def floor(self, shares: dict[Face, int], held: Counter[Face]) -> int:
        """The fewest drawn cards that the shares allow a way out of the ``held`` hand."""
        costs = sorted(shares.get(f, self.never) for f, n in held.items() for _ in range(n))
        least, total = self.melded, 0  # none of the hand melded: every card drawn
        for covered, cost in enumerate(costs[: self.melded], start=1):
            total += cost
            least = min(least, max(self.melded - covered, -(-total // self.unit)))
        return least

    def _lower(self, least: dict[Face, int], i: int, held: Counter[Face]) -> None:
        """Candidate ``i``'s share, where it is less, for each face of ``held`` it holds."""
        need, size = self.candidates[i]
        mine = sum(min(n, held[f]) for f, n in need.items())
        if not mine:
            return
        share = (size - mine) * (self.unit // mine)
        for face in need:
            if held[face] and share < least.get(face, self.never):
                least[face] = share
