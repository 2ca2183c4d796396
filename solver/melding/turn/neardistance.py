"""The distance questions answered by the nearest-target search (:mod:`solver.melding.turn.nearest`,
:mod:`solver.melding.turn.nearbuild`): the distance, and each discard's row — the swaps left with a
copy of it set aside (at least one), and every card whose draw after it leaves one swap fewer (a
card ``y`` does when the hand less the discard plus ``y`` is one swap nearer, ``y``'s copy drawn).

Each answer is the lower bound of the splits with a target the turn solver confirms at it; when no
split of the bound builds, the answer is None and the caller asks the swap model from the bound up
(:class:`~solver.melding.turn.distance.DistanceSearch`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from solver.core.deck import Face
from solver.melding.meld.checker import MeldChecker
from solver.melding.turn.nearbuild import Builder, Built, confirmed
from solver.melding.turn.nearcontract import ContractSplits
from solver.melding.turn.nearest import PLANS, Plan, Splits, is_contract, kinds_of, totals, views
from solver.melding.turn.problem import Problem
from solver.melding.turn.routes import GoOutRoute
from solver.sat.budget import Budget


@dataclass(frozen=True)
class Bounded:
    """What the search knows of a hand: the distance's lower bound (None: no way out at any
    distance) and a confirmed target at it (None: none built)."""

    bound: int | None
    target: Built | None


@dataclass
class Nearest:
    """The nearest-target search of one problem over its routes (``left``: the copies to draw)."""

    problem: Problem
    left: Counter[Face]
    checker: MeldChecker
    budget: Budget
    routes: Sequence[GoOutRoute | None]

    def __post_init__(self) -> None:
        self.totals = totals(self.problem)
        self.discards = self.problem.turn_rule().discard != "none"

    def _splits(
        self, hand: Sequence[Face], left: Counter[Face], most: int | None = None
    ) -> list[tuple[int, GoOutRoute | None, Splits, list]]:
        """Each route's and total's lower bound (at most ``most``, when given: a route and total
        whose bound is above it is left out), its splits and their plans, the lowest bound first."""
        out = []
        for route in self.routes:
            kinds = kinds_of(self.problem, route)
            seen = views(self.checker, self.problem.params, kinds)
            assert seen is not None  # fits() said so
            contract = is_contract(route)
            for total in self.totals[-1:] if contract else self.totals:
                kind_of_splits = ContractSplits if contract else Splits
                splits = kind_of_splits(hand, left, kinds, route, seen, total, self.budget)
                kept, plans = splits.best(need=0 if most is None else total - most)
                if plans:
                    out.append((total - kept, route, splits, plans))
        return sorted(out, key=lambda o: o[0])

    def distance(self) -> Bounded:
        """The hand's distance and a confirmed target, or the bound the swap model starts from."""
        options = self._splits(self.problem.hand, self.left)
        if not options:
            return Bounded(None, None)
        bound = options[0][0]
        hand = list(self.problem.hand)
        for lower, route, splits, plans in options:
            if lower == bound:
                found = self._built(splits, plans, route, hand, [], [], bound)
                if found is not None:
                    return Bounded(bound, found)
        return Bounded(bound, None)

    def aside(self, discard: Face) -> Bounded:
        """The fewest swaps with a copy of ``discard`` set aside (at least one), and a confirmed target."""
        cards = self._cards(discard)
        options = self._splits(cards, self.left)
        if not options:
            return Bounded(None, None)
        bound = max(1, options[0][0])
        for lower, route, splits, plans in options:
            if max(1, lower) == bound:
                found = self._built(splits, plans, route, cards, [discard], [], bound)
                if found is not None:
                    return Bounded(bound, found)
        return Bounded(bound, None)

    def helps(self, discard: Face, draw: Face, swaps: int) -> bool | None:
        """Does drawing ``draw`` after letting ``discard`` go start a way out in ``swaps`` swaps
        (the discard's row)? None: the search cannot tell."""
        cards = sorted([*self._cards(discard), draw], key=lambda f: f.index)
        left = Counter(self.left)
        left[draw] -= 1
        options = self._splits(cards, +left, most=swaps - 1)
        if not options or options[0][0] > swaps - 1:
            return False
        for lower, route, splits, plans in options:
            if lower <= swaps - 1:
                found = self._built(splits, plans, route, cards, [discard], [draw], swaps, +left)
                if found is not None:
                    return True
        return None

    def _cards(self, discard: Face) -> list[Face]:
        hand = Counter(self.problem.hand)
        hand[discard] -= 1
        return sorted(hand.elements(), key=lambda f: f.index)

    @staticmethod
    def _plans(splits: Splits, first: list[Plan]) -> Iterator[Plan]:
        """The search's first split of the best value, then (when it does not build) its ties."""
        yield from first
        yield from (plan for plan in splits.best(ties=PLANS)[1] if plan not in first)

    def _built(
        self,
        splits: Splits,
        plans: list,
        route: GoOutRoute | None,
        cards: list[Face],
        aside: list[Face],
        drawn: list[Face],
        most: int,
        left: Counter[Face] | None = None,
    ) -> Built | None:
        """The first plan built into swaps of the problem's hand — ``aside`` and ``drawn`` taken
        already, ``cards`` the hand after them — at most ``most``, that the turn solver confirms."""
        builder = Builder(splits, self.left if left is None else left, cards)
        hand = Counter(self.problem.hand)
        for plan in self._plans(splits, plans):
            built = builder.build(plan)
            if built is None:
                continue
            kept, more = built
            unkept = list((Counter(cards) - Counter(kept)).elements())
            melded = splits.total if plan.total is None else plan.total
            spare = len(self.problem.hand) - melded  # the cards the way out discards or keeps
            extras = [builder.spare() for _ in range(max(0, spare - len(unkept)))]
            if any(e is None for e in extras):
                continue
            spared = [e for e in extras if e is not None]
            swaps = (aside + unkept[spare:], drawn + more + spared)
            if len(swaps[0]) != len(swaps[1]) or len(swaps[0]) > most or Counter(swaps[0]) - hand:
                continue
            let_go = (unkept[:spare] + spared)[:1] if spare and self.discards else []
            way = (builder.melds, let_go[0] if let_go else None)
            found = confirmed(self.problem, self.checker, self.budget, route, swaps, way)
            if found is not None:
                return found
        return None
