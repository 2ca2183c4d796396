"""The nearest-target search for a *contract*: a route that lays down some melds (counts of kinds,
perhaps of given sizes or pure) and keeps the other cards (``all_cards: false``).

After ``d`` swaps a hand lays down melds of ``T`` cards, ``k`` of them the hand's own (naturals at
their places, wilds in holes): ``d = T - k``, and the hand keeps at least the discard the turn asks.
So the distance is the fewest cards the contract's melds need beyond the hand's. Each meld is a
*part* of :mod:`solver.melding.turn.nearest` (the hand's naturals that share its frame, none for a
meld of drawn cards) at a size: its smallest, or a size a count asks; its holes are the places no
natural of the hand takes, filled by the hand's wilds up to the kind's limit for that size (none
when the meld counts as pure), the rest drawn. A depth-first search picks melds in the candidates'
order, each counting toward a count still short, until every count is met (a meld more never draws
fewer: the least is found among the melds each count needs): the fewest holes left unfilled is the
distance's lower bound, and the best choices are built (:mod:`solver.melding.turn.nearbuild`) and
confirmed as for a plain route. A wild card that is also a natural (a two in its own place) may be
a part's natural or a wild.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from solver.core.rules import MeldKind
from solver.melding.turn.nearest import CHECK_EVERY, Part, Plan, Splits
from solver.melding.turn.routes import GoOutRoute, HandLimit, MeldCount


@dataclass(frozen=True)
class Candidate:
    """A meld the contract may lay: its part (at the size chosen), the naturals' mask, the holes
    and how many of them hand wilds may fill, whether it is kept pure, the counts it meets."""

    part: Part
    mask: int
    duals: int  # the hand's wild cards among the part's naturals
    holes: int
    fillable: int
    pure: bool
    meets: tuple[bool, ...]


class ContractSplits(Splits):
    """The best contracts of a hand (the module's docstring). ``total``: the most cards the melds
    may hold (the hand less the discard); :meth:`best` answers like :meth:`Splits.best`, the kept
    figure being ``total`` less the cards drawn."""

    WILD_NATURALS = True

    def _prepare(self, route: GoOutRoute | None) -> None:
        assert route is not None and not any(isinstance(r, HandLimit) for r in route.requires)
        self.needed = _needed(self.counts)
        self.largest = {k.id: self._largest(k) for k in self.kinds}
        parts = [p for i in range(len(self.naturals)) for p in self._parts_from(i)]
        parts += [Part(kind, (), kind.size_min, True) for kind in self.kinds]
        self.candidates = sorted(
            (c for p in parts for c in self._candidates(p)), key=lambda c: (c.holes - c.fillable, c.holes)
        )

    def _candidates(self, part: Part) -> list[Candidate]:
        """The melds of a part: at its least size and at each larger size a count asks, each
        with wilds allowed and, when a pure count takes it and it can be pure, kept pure."""
        kind = part.kind
        sizes = {part.least} | {s for c in self.counts if c.sizes for s in c.sizes if s >= part.least}
        out = []
        for size in sorted(s for s in sizes if s <= kind.size_max):
            sized = Part(kind, part.cards, size, part.pure)
            if kind.shape == "sequence" and size > part.least:
                sized = Part(kind, part.cards, size, self._pure(kind, part.cards, size) if part.cards else True)
            mask = sized.mask
            duals = sum(1 for c in part.cards if self.seen.wild[self.naturals[c].index])
            holes = size - len(part.cards)
            most = kind.wilds.bounds(size)[1] if kind.wilds is not None else size
            fillable = max(0, min(holes, most))
            for pure in (False, True):
                if pure and not (sized.pure and any(c.pure for c in self.counts)):
                    continue
                meets = tuple(c.counts(kind.id, size, 0 if pure or not fillable else 1) for c in self.counts)
                if any(meets) and self._useful(meets):
                    out.append(Candidate(sized, mask, duals, holes, 0 if pure else fillable, pure, meets))
        return out

    def _useful(self, meets: tuple[bool, ...]) -> bool:
        """Can a meld that meets these counts be in a contract: every count it meets whose melds
        must all meet narrower counts (:func:`_needed`) has one of those met too?"""
        needed = zip(meets, self.needed, strict=True)
        return all(not m or not narrower or any(meets[j] for j in narrower) for m, narrower in needed)

    def _largest(self, kind: MeldKind) -> int:
        """The most cards a useful meld of the kind holds: the largest size a count it may meet
        takes (a count whose melds must meet narrower ones: theirs)."""
        sizes = [
            max(c.sizes) if c.sizes else kind.size_max
            for c, narrower in zip(self.counts, self.needed, strict=True)
            if (c.kinds is None or kind.id in c.kinds) and not narrower
        ]
        return min(kind.size_max, max(sizes, default=kind.size_max))

    def best(self, ties: int = 1, need: int = 0) -> tuple[int, list[Plan]]:
        self.ties = ties
        self.chosen: tuple[int, list[tuple[Candidate, ...]]] = (need - 1, [])
        self._pick(0, (), 0, 0, 0, 0, 0, tuple(0 for _ in self.counts))
        kept, chosen = self.chosen
        return kept, [self._plan(melds) for melds in chosen]

    def _cost(self, holes: int, fillable: int, duals: int) -> int:
        return holes - min(len(self.wilds) - duals, fillable)

    def _pick(
        self,
        start: int,
        melds: tuple[Candidate, ...],
        used: int,
        size: int,
        holes: int,
        fillable: int,
        duals: int,
        made: tuple[int, ...],
    ) -> None:
        """From the ``start``-th candidate on, ``melds`` chosen, ``used`` their naturals, ``size``
        their cards, ``holes``/``fillable``/``duals`` summed, ``made`` each count's melds."""
        self.steps += 1
        if not self.steps % CHECK_EVERY:
            self.budget.check()
        kept = self.total - self._cost(holes, fillable, duals)
        best, plans = self.chosen
        if kept < best or (kept == best and (not plans or len(plans) >= self.ties)):
            return  # the cost never falls as melds are added
        short = [m < c.at_least for m, c in zip(made, self.counts, strict=True)]
        if not any(short):
            self._met(melds, kept)
            return
        for at in range(start, len(self.candidates)):
            cand = self.candidates[at]
            if kept - (cand.holes - cand.fillable) < self.chosen[0]:
                break  # a meld adds at least its unfillable holes: the later ones, more
            if cand.mask & used or size + cand.part.least > self.total:
                continue
            if not any(m and s for m, s in zip(cand.meets, short, strict=True)):
                continue
            counted = tuple(n + m for n, m in zip(made, cand.meets, strict=True))
            if any(c.at_most is not None and n > c.at_most for n, c in zip(counted, self.counts, strict=True)):
                continue
            self._pick(
                at,
                (*melds, cand),
                used | cand.mask,
                size + cand.part.least,
                holes + cand.holes,
                fillable + cand.fillable,
                duals + cand.duals,
                counted,
            )

    def _met(self, melds: tuple[Candidate, ...], kept: int) -> None:
        best, plans = self.chosen
        if kept > best:
            self.chosen = (kept, [melds])
        elif kept == best and len(plans) < self.ties:
            plans.append(melds)

    def _plan(self, melds: tuple[Candidate, ...]) -> Plan:
        holes = sum(m.holes for m in melds)
        duals = sum(m.duals for m in melds)
        drawn = self._cost(holes, sum(m.fillable for m in melds), duals)
        size = sum(m.part.least for m in melds)
        pure = frozenset(i for i, m in enumerate(melds) if m.pure)
        return Plan(tuple(m.part for m in melds), size - drawn, 0, total=size, pure=pure)


def _narrower(wide: MeldCount, narrow: MeldCount) -> bool:
    """Does every meld the narrow count counts also count for the wide one?"""
    kinds = wide.kinds is None or (narrow.kinds is not None and narrow.kinds <= wide.kinds)
    sizes = wide.sizes is None or (narrow.sizes is not None and narrow.sizes <= wide.sizes)
    return kinds and sizes and (narrow.pure or not wide.pure)


def _apart(one: MeldCount, other: MeldCount) -> bool:
    """Does no meld count for both?"""
    kinds = one.kinds is not None and other.kinds is not None and not one.kinds & other.kinds
    sizes = one.sizes is not None and other.sizes is not None and not one.sizes & other.sizes
    return kinds or sizes


def _needed(counts: Sequence[MeldCount]) -> tuple[tuple[int, ...], ...]:
    """For each count, the narrower counts every meld it counts must meet (none when it may
    count others): those narrower counts, no meld counting for two of them, ask at least as many
    melds as the count allows at most."""
    out = []
    for i, wide in enumerate(counts):
        narrower = [j for j, c in enumerate(counts) if j != i and _narrower(wide, c)]
        apart = all(_apart(counts[a], counts[b]) for a in narrower for b in narrower if a < b)
        full = wide.at_most is not None and sum(counts[j].at_least for j in narrower) >= wide.at_most
        out.append(tuple(narrower) if narrower and apart and full else ())
    return tuple(out)
