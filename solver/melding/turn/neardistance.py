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
from solver.melding.turn.nearsame import SameCards
from solver.melding.turn.problem import Problem
from solver.melding.turn.routes import GoOutRoute
from solver.sat.budget import Budget

SOLVER_ASKS = 3  # the built targets a search's bound asks the turn solver of (the checker judges the rest)


@dataclass(frozen=True)
class Bounded:
    """What the search knows of a hand: the distance's lower bound (None: no way out at any
    distance), a confirmed target at it (None: none built), and a confirmed target further than
    the bound when one is known (``beyond``: its swaps and target; the distance is at most that)."""

    bound: int | None
    target: Built | None
    beyond: tuple[int, Built] | None = None


@dataclass
class Nearest:
    """The nearest-target search of one problem over its routes (``left``: the copies to draw);
    the routes of identical cards (:mod:`solver.melding.turn.nearsame`) are counted directly."""

    problem: Problem
    left: Counter[Face]
    checker: MeldChecker
    budget: Budget
    routes: Sequence[GoOutRoute | None]

    def __post_init__(self) -> None:
        self.totals = totals(self.problem)
        self.discards = self.problem.turn_rule().discard != "none"
        self.same: list[SameCards] = []
        self.searched: list[GoOutRoute | None] = []
        for route in self.routes:
            kinds = kinds_of(self.problem, route)
            seen = views(self.checker, self.problem.params, kinds)
            assert seen is not None  # fits() said so
            same = SameCards.of(route, kinds, seen)
            if same is not None:
                self.same.append(same)
            else:
                self.searched.append(route)

    def _splits(
        self, hand: Sequence[Face], left: Counter[Face], most: int | None = None
    ) -> list[tuple[int, GoOutRoute | None, Splits, list]]:
        """Each searched route's and total's lower bound (at most ``most``, when given: a route and
        total whose bound is above it is left out), its splits and their plans, the lowest bound first."""
        out = []
        for route in self.searched:
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
        return self._nearest(list(self.problem.hand), self.left, [], 0)

    def aside(self, discard: Face) -> Bounded:
        """The fewest swaps with a copy of ``discard`` set aside (at least one), and a confirmed target."""
        return self._nearest(self._cards(discard), self.left, [discard], 1)

    def _nearest(self, cards: list[Face], left: Counter[Face], aside: list[Face], least: int) -> Bounded:
        """The fewest swaps from ``cards`` (the hand, ``aside`` set aside already), at least ``least``:
        the routes counted directly, and the searched routes' bound with a target built at it."""
        direct = self._same(cards, left, aside, [], least)
        options = self._splits(cards, left)
        if not options or (direct is not None and direct[0] <= max(least, options[0][0])):
            return Bounded(direct[0], direct[1]) if direct is not None else Bounded(None, None)
        bound = max(least, options[0][0])
        for lower, route, splits, plans in options:
            if max(least, lower) == bound:
                found = self._built(splits, plans, route, cards, aside, [], bound)
                if found is not None:
                    return Bounded(bound, found)
        beyond = (direct[0], direct[1]) if direct is not None and direct[1] is not None else None
        return Bounded(bound, None, beyond)

    def helps(self, discard: Face, draw: Face, swaps: int) -> bool | None:
        """Does drawing ``draw`` after letting ``discard`` go start a way out in ``swaps`` swaps
        (the discard's row)? None: the search cannot tell."""
        cards = sorted([*self._cards(discard), draw], key=lambda f: f.index)
        left = Counter(self.left)
        left[draw] -= 1
        direct = self._same(cards, +left, [discard], [draw], swaps)
        if direct is not None and direct[0] <= swaps:
            return True if direct[1] is not None else None
        options = self._splits(cards, +left, most=swaps - 1)
        if not options or options[0][0] > swaps - 1:
            return False
        for lower, route, splits, plans in options:
            if lower <= swaps - 1:
                found = self._built(splits, plans, route, cards, [discard], [draw], swaps, +left)
                if found is not None:
                    return True
        return None

    def _same(
        self, cards: list[Face], left: Counter[Face], aside: list[Face], drawn: list[Face], least: int
    ) -> tuple[int, Built | None] | None:
        """The fewest swaps, at least ``least``, by the routes counted directly, and a target the
        checker confirms (None: none confirmed; None for both: no such way out): ``aside`` and
        ``drawn`` swapped already (``cards``: the hand after them), the other cards let go from
        those outside the melds, a card left drawn for each swap the melds do not need."""
        best: tuple[int, Built | None] | None = None
        for same in self.same:
            room = 1 if self.problem.turn_rule().discard == "required" else 0  # the turn's discard
            melded = same.fewest(cards, left)
            if melded is None:
                continue
            swaps = max(least, len(aside), len(drawn) + len(melded.drawn))
            if best is not None and best[0] <= swaps:
                continue
            more_aside = swaps - len(aside)
            pool = Counter(left) - Counter(melded.drawn)
            spares = sorted(pool.elements(), key=lambda f: f.index)[: swaps - len(drawn) - len(melded.drawn)]
            outside = len(melded.outside) - more_aside
            remaining = list(melded.outside[:outside]) + spares
            if outside < 0 or len(remaining) < room or len(spares) < swaps - len(drawn) - len(melded.drawn):
                continue  # no room for the cards let go and the turn's discard: no way out this way
            let_go = list(melded.outside[outside:])
            way = ([(m, same.kind.id) for m in melded.melds], remaining[0] if self.discards and remaining else None)
            all_drawn = drawn + list(melded.drawn) + spares
            swapped = (aside + let_go, all_drawn)
            best = (swaps, confirmed(self.problem, self.checker, self.budget, same.route, swapped, way, False))
        return best

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
        asked = 0  # the targets the checker refused and the turn solver was asked of
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
            found = confirmed(self.problem, self.checker, self.budget, route, swaps, way, asked < SOLVER_ASKS)
            asked += 1
            if found is not None:
                return found
        return None
