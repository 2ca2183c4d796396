"""The distance of a route of melds of identical cards, counted directly: ``N`` melds of ``k``
copies of one card each (eight pairs, say), every other card kept in hand.

When the route's one kind is identical cards of a single size ``k``, no card may act as a wild in
it, and the route keeps the cards it does not meld (a contract, :func:`~solver.melding.turn.nearest.is_contract`)
asking only counts of those melds, a way out is ``N`` identities with ``k`` copies each in the
hand after the swaps. An identity the hand holds ``c`` copies of needs ``max(0, k - c)`` more,
drawn from the copies left; every swap draws one card. So the fewest swaps are the sum of the
``N`` smallest needs among the identities with enough copies left — exact, no search — as long as
the hand has room for them: the cards let go and the turn's discard are cards outside the melds.
The target is built (the melds, the cards set aside, those drawn) and confirmed by the checker
like the nearest-target search's (:func:`~solver.melding.turn.nearbuild.confirmed`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from solver.core.deck import Face
from solver.core.rules import MeldKind
from solver.melding.turn.nearest import Identity, Views, is_contract
from solver.melding.turn.routes import GoOutRoute


@dataclass(frozen=True)
class Melded:
    """The route's melds from a hand: the cards drawn for them, the melds, the hand's cards outside them."""

    drawn: tuple[Face, ...]
    melds: tuple[tuple[Face, ...], ...]
    outside: tuple[Face, ...]


@dataclass(frozen=True)
class SameCards:
    """The direct count for one route (the module's docstring): ``melds`` melds of ``size``
    identical cards of ``kind``, the cards read by ``seen``."""

    route: GoOutRoute
    kind: MeldKind
    size: int
    melds: int
    seen: Views

    @staticmethod
    def of(route: GoOutRoute | None, kinds: Sequence[MeldKind], seen: Views) -> SameCards | None:
        """The count for this route, or None when it is not such a route."""
        if route is None or not is_contract(route) or len(kinds) != 1:
            return None
        kind = kinds[0]
        if kind.shape != "identical" or kind.size_min != kind.size_max or any(e.role.wild for e in kind.roles):
            return None
        if any(seen.wild.values()):
            return None
        counts = route.counts
        if not counts or any(c.sizes is not None and kind.size_min not in c.sizes for c in counts):
            return None
        melds = max(c.at_least for c in counts)
        if any(c.at_most is not None and c.at_most < melds for c in counts) or melds == 0:
            return None
        return SameCards(route, kind, kind.size_min, melds, seen)

    def fewest(self, hand: Sequence[Face], left: Counter[Face]) -> Melded | None:
        """The route's melds with the fewest cards drawn to ``hand`` (the ``N`` identities that need
        the fewest copies, drawn from ``left``); None: too few identities have copies enough."""
        held: dict[Identity, list[Face]] = {}
        for face in hand:
            ident = self.seen.natural[face.index]
            if ident is not None:
                held.setdefault(ident, []).append(face)
        costs = []
        for ident, faces in self.seen.by_identity.items():
            mine = held.get(ident, [])[: self.size]
            need = self.size - len(mine)
            drawable = [f for f in faces for _ in range(left[f])]
            if need <= len(drawable):
                costs.append((need, ident, tuple(mine), tuple(drawable[:need])))
        if len(costs) < self.melds:
            return None
        chosen = sorted(costs, key=lambda c: (c[0], c[1]))[: self.melds]
        kept = Counter(f for _, _, mine, _ in chosen for f in mine)
        outside = sorted((Counter(hand) - kept).elements(), key=lambda f: f.index)
        drawn = tuple(f for _, _, _, more in chosen for f in more)
        return Melded(drawn, tuple(mine + more for _, _, mine, more in chosen), tuple(outside))
