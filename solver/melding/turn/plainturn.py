"""A plain turn's questions — go out, the best turn, whether it goes out, why not — answered from
its packings (:mod:`solver.melding.turn.plain`), as the turn model answers them.

A problem's routes ask of the same packings (:func:`~solver.melding.turn.plain.packed` keeps them
for the problem): a packing's rank is found once for every route and question, and the why's
cards (those no meld takes, a set that cannot all be placed) once a hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from solver.core.deck import Face
from solver.core.idmemo import IdentityMemo
from solver.core.rules import TurnRule
from solver.melding.meld.checker import MeldChecker
from solver.melding.turn.packlist import Listing, Way
from solver.melding.turn.packsearch import Goal
from solver.melding.turn.plain import packed
from solver.melding.turn.plainmelds import Meld
from solver.melding.turn.problem import Answer, Play, Problem
from solver.melding.turn.routes import GoOutRoute, HandLimit
from solver.sat.budget import Budget


class PlainTurn:
    """A plain turn answered by its packings (the questions of
    :class:`~solver.melding.turn.solver.TurnSolver`: go out, the best turn, whether it goes out)."""

    def __init__(
        self,
        problem: Problem,
        checker: MeldChecker,
        budget: Budget | None = None,
        route: GoOutRoute | None = None,
        rule: TurnRule | None = None,
    ):
        """``rule``: the problem's turn rule (:meth:`Problem.turn_rule`), when known."""
        self.problem, self.checker, self.route = problem, checker, route
        self.rs = problem.ruleset
        self.budget = budget or Budget()
        self.rule = rule or problem.turn_rule()
        self.packed = packed(problem, checker, self.rule.discard, route.kind_set if route else None)
        self.melds = self.packed.melds
        self.goals = _route_goals(route)

    def close(self) -> None:
        pass

    def __enter__(self) -> PlainTurn:
        return self

    def __exit__(self, *exc) -> None:
        pass

    def ways(self) -> list[Way] | None:
        return self.packed.ways

    def _stamp(self, answer: Answer) -> Answer:
        answer.seconds = self.budget.elapsed
        return answer

    # -- the questions --------------------------------------------------------------------------

    def _ranks(self, listing: Listing) -> list:
        """Each listed packing's rank, in the listing's order: the objective's levels in order,
        each to be made smallest (one level: a number)."""
        known = self.packed.known
        ranks: list | None = known.get("ranks")
        if ranks is None:
            levels = self.packed.levels
            if levels == (("hand_points", 1),):  # the usual objective: the points kept, made smallest
                ranks = listing.points
            else:
                ranks = [_rank(listing.way(k), levels) for k in range(len(listing.points))]
            known["ranks"] = ranks
        return ranks

    def _first_best(self, key: tuple | None, goal: Goal | None) -> Way | None:
        """The first packing of the best rank (among those that meet ``goal``, known by ``key``;
        None: none does), from the listing or the search, once a hand and goal."""
        known = self.packed.known
        if key not in known:
            listing = self.packed.listing
            if listing is None:
                found = self.packed.search.best(goal)
                known[key] = self.packed.way(found) if found is not None else None
            else:
                among, ranks = self._meeting(listing, goal), self._ranks(listing)
                if isinstance(among, range):  # every packing: the first of the least rank, found in C
                    known[key] = listing.way(ranks.index(min(ranks))) if ranks else None
                else:
                    known[key] = listing.way(min(among, key=ranks.__getitem__)) if among else None
        way: Way | None = known[key]
        return way

    def _any_meets(self, key: tuple, goal: Goal) -> bool:
        """Does some packing meet ``goal`` (known by ``key``)?"""
        listing = self.packed.listing
        if listing is None or key in self.packed.known:
            return self._first_best(key, goal) is not None
        return any(_meets_goal(listing, k, goal) for k in self._candidates(listing, goal))

    def _candidates(self, listing: Listing, goal: Goal) -> Sequence[int]:
        """The listed packings that may meet ``goal``: those that place every card when it asks
        (found once a hand), else all."""
        if not goal.all_cards:
            return range(len(listing.points))
        known = self.packed.known
        placed: list[int] | None = known.get("placed")
        if placed is None:
            placed = known["placed"] = [k for k, left in enumerate(listing.left) if not left]
        return placed

    def _meeting(self, listing: Listing, goal: Goal | None) -> Sequence[int]:
        """The listed packings that meet ``goal`` (None: all), by position."""
        if goal is None:
            return range(len(listing.points))
        candidates = self._candidates(listing, goal)
        if not goal.checks:
            return candidates
        return [k for k in candidates if _meets_goal(listing, k, goal)]

    def goes_out(self) -> bool | None:
        return self._first_best(*self.goals.out) is not None

    def best(self, question: str = "best") -> Answer:
        way = self._first_best(None, None)
        assert way is not None, "leaving every card is a packing"
        answer = self._answer(way, question)
        answer.solvable = not answer.kept
        return answer

    def go_out(self, why_cards: bool = True) -> Answer:
        way = self._first_best(*self.goals.out)
        if way is not None:
            answer = self._answer(way, "go-out")
            answer.solvable = True
            return answer
        answer = self.best(question="go-out")
        answer.solvable = False
        answer.why = self._why(why_cards)
        return answer

    def _answer(self, way: Way, question: str) -> Answer:
        melds = sorted(way.melds, key=_first_face)  # disjoint, each by face index: as the turn model's
        plays = [Play(m.faces, m.reading, m.points) for m in melds] if melds else []
        kept = self.packed.cards.among(~(way.melded | way.discard_bit))  # in no meld and not discarded
        answer = Answer(solvable=None, question=question, plays=plays, discard=way.discard, kept=kept)
        meld_points = sum([p.points for p in plays]) if plays else 0
        score = {"meld_points": meld_points, "hand_points": way.points, "melds": len(plays)}
        shown = {}  # the objective's measures, in its order (all three without one)
        for measure, _ in self.packed.levels:
            shown[measure] = score[measure]
        answer.score = shown or score
        return self._stamp(answer)

    # -- why not --------------------------------------------------------------------------------

    def _why(self, cards: bool = True) -> dict:
        """The cards no meld takes, a set of cards that cannot all be placed (with ``cards``), and
        the requirements the hand fails (as :meth:`TurnSolver._why
        <solver.melding.turn.solver.TurnSolver._why>`)."""
        why: dict = {}
        if cards:
            known = self.packed.known
            if "core" not in known:
                known["lonely"] = self._lonely()
                known["core"] = self._core()
            why = {"no_meld": list(known["lonely"]), "core": list(known["core"])}
        route = self.route
        if route is not None and route.checks:
            leaving = self.goals.leaving
            blamed = []  # each requirement that some packing meets all the others of
            for requirement, goal in zip(route.checks, leaving, strict=True):
                if self._any_meets(*goal):
                    blamed.append((route, requirement))
            if not blamed and len(route.checks) > 1 and self._any_meets(*self.goals.placed):
                blamed = [(route, r) for r in route.checks]
            if blamed:
                why["requirements"] = blamed
        return why

    def requirements_failed(self) -> list:
        """The route's requirements blamed for not going out (``why``'s ``requirements``, without
        the cards)."""
        failed: list = self._why(cards=False).get("requirements", [])
        return failed

    def _lonely(self) -> list[Face]:
        """The cards no meld holds, each face once (as the turn model names them)."""
        hand = self.packed.cards
        held = 0
        for meld in self.melds:
            held |= meld.mask  # a meld of copies holds the first: its face's copies are held
        if not hand.repeated:
            return hand.among(~held)
        lonely = [f for f, copies in zip(hand.order, hand.copies, strict=True) if not held & copies]
        return list(dict.fromkeys(lonely))

    def _core(self) -> list[Face]:
        """A set of cards no turn places all of (each melded or discarded), none of it spare —
        the last cards left out first, so the lowest such set stays; empty when every card can
        be placed. From a listing, only the packings whose melds hold no other's cards and more
        can place more; a search is asked for each set (within the states its first search
        visited: the same cards reached and decided)."""
        spare = int(self.rule.discard != "none")
        hand = self.packed.cards
        listing = self.packed.listing
        if listing is None:
            search = self.packed.search

            def placed(cards: int) -> bool:
                return search.places(hand.lowest(cards), spare)

        else:
            melded = listing.melded
            widest = _widest(melded)
            if len(widest) == 1:  # the cards outside the one widest packing: as many as fit spare, and one
                outside = hand.among(~widest[0], 1 + spare)
                return outside if len(outside) > spare else []

            def placed(cards: int) -> bool:
                cards = hand.lowest(cards)  # the packings take the first copies
                if spare:
                    return any(not (rest := cards & ~m) & (rest - 1) for m in widest)
                return any(not cards & ~m for m in widest)

        core = hand.mask
        if placed(core):
            return []
        for bit in reversed(hand.bits):
            if not placed(core & ~bit):
                core &= ~bit
        return [f for f, bit in zip(hand.order, hand.bits, strict=True) if core & bit]


def _widest(melded: list[int]) -> list[int]:
    """The masks of ``melded`` that no other holds, the widest first. (A hand has hundreds of masks
    and a handful of widest: a loop that breaks at the first wider, not a generator a mask.)"""
    if len(melded) == 1:
        return [melded[0]]
    widest: list[int] = []
    for m in sorted(set(melded), key=int.bit_count, reverse=True):
        for wider in widest:
            if m & wider == m:
                break
        else:
            widest.append(m)
    return widest


@dataclass(frozen=True)
class _RouteGoals:
    """What a way out by a route must do (:class:`Goal`), each with the key its first best packing
    is known by in a hand's packings (cheap to hash): ``out``, every card placed when the route
    asks (always without a route) and its requirements; ``placed``, without the requirements;
    ``leaving``, the requirements but each in turn (in the route's order)."""

    out: tuple[tuple, Goal]
    placed: tuple[tuple, Goal]
    leaving: tuple[tuple[tuple, Goal], ...]


_GOALS: IdentityMemo[_RouteGoals] = IdentityMemo(1000)  # by route


def _route_goals(route: GoOutRoute | None) -> _RouteGoals:
    """A route's goals, made once."""
    return _GOALS.of(route, _goals_of)


def _goals_of(route: GoOutRoute | None) -> _RouteGoals:
    if route is None:
        out = ((0, 0), Goal(True))
        return _RouteGoals(out, out, ())
    n, checks = id(route), tuple(route.checks)
    leaving = tuple(((n, 2 + i), Goal(route.all_cards, checks[:i] + checks[i + 1 :])) for i in range(len(checks)))
    return _RouteGoals(((n, 0), Goal(route.all_cards, checks)), ((n, 1), Goal(route.all_cards)), leaving)


def _first_face(meld: Meld) -> int:
    return meld.faces[0].index


def _measure(way: Way, measure: str) -> int:
    """A packing's value of one of the objective's measures."""
    if measure == "hand_points":
        return way.points
    if measure == "meld_points":
        return sum([m.points for m in way.melds])
    return len(way.melds)


def _rank(way: Way, levels: tuple[tuple[str, int], ...]) -> tuple:
    return tuple([sign * _measure(way, m) for m, sign in levels])


def _meets_goal(listing: Listing, k: int, goal: Goal) -> bool:
    """Does the ``k``-th listed packing meet ``goal`` (every card placed when it asks, its
    requirements)? Its melds are made only when a requirement counts them."""
    if goal.all_cards and listing.left[k]:
        return False
    melds: tuple[Meld, ...] | None = None
    for requirement in goal.checks:
        if isinstance(requirement, HandLimit):
            if listing.points[k] > requirement.at_most:
                return False
            continue
        if melds is None:
            melds = listing.melds(k)
        if not requirement.allows(sum(requirement.counts(m.kind, len(m.faces), m.wilds) for m in melds)):
            return False
    return True
