"""A plain turn's questions — go out, the best turn, whether it goes out, why not — answered from
its packings (:mod:`solver.melding.turn.plain`), as the turn model answers them.

A problem's routes ask of the same packings (:func:`~solver.melding.turn.plain.packed` keeps them
for the problem): a packing's rank is found once for every route and question, and the why's
cards (those no meld takes, a set that cannot all be placed) once a hand.
"""

from __future__ import annotations

from collections.abc import Sequence

from solver.core.deck import Face
from solver.melding.meld.checker import MeldChecker
from solver.melding.turn.plain import _Way, packed
from solver.melding.turn.plainmelds import Meld
from solver.melding.turn.problem import Answer, Play, Problem
from solver.melding.turn.routes import GoOutRoute, HandLimit, MeldCount
from solver.sat.budget import Budget


class PlainTurn:
    """A plain turn answered by its packings (the questions of
    :class:`~solver.melding.turn.solver.TurnSolver`: go out, the best turn, whether it goes out)."""

    def __init__(
        self, problem: Problem, checker: MeldChecker, budget: Budget | None = None, route: GoOutRoute | None = None
    ):
        self.problem, self.checker, self.route = problem, checker, route
        self.rs = problem.ruleset
        self.budget = budget or Budget()
        self.rule = problem.turn_rule()
        self.packed = packed(problem, checker, self.rule.discard, route.kind_set if route else None)
        self.melds = self.packed.melds
        self._out: list[int] | None = None  # the packings that go out (by position)

    def close(self) -> None:
        pass

    def __enter__(self) -> PlainTurn:
        return self

    def __exit__(self, *exc) -> None:
        pass

    def ways(self) -> list[_Way] | None:
        return self.packed.ways

    def _all(self) -> list[_Way]:
        ways = self.packed.ways
        assert ways is not None, "a plain turn is asked only when its packings were few"
        return ways

    def _stamp(self, answer: Answer) -> Answer:
        answer.seconds = self.budget.elapsed
        return answer

    # -- the questions --------------------------------------------------------------------------

    def _ranks(self, ways: list[_Way]) -> list[tuple]:
        """Each packing's rank, in the packings' order: the objective's levels in order, each to
        be made smallest."""
        known = self.packed.known
        ranks: list[tuple] | None = known.get("ranks")
        if ranks is None:
            levels = [(g.measure, -1 if g.sense == "maximize" else 1) for g in self.rs.objective]
            ranks = known["ranks"] = [tuple([sign * _measure(w, m) for m, sign in levels]) for w in ways]
        return ranks

    def _first_best(self, among: Sequence[int]) -> _Way:
        """The first packing of the best rank among the packings ``among`` (by position)."""
        ways = self._all()
        return ways[min(among, key=self._ranks(ways).__getitem__)]

    def _goes_out(self, way: _Way, leave_out: object = None) -> bool:
        """Does a way go out (by the route: every card placed when it asks, its requirements but
        ``leave_out``)?"""
        route = self.route
        if (route is None or route.all_cards) and way.left:
            return False
        if route is None:
            return True
        return all(_meets(way, r) for r in route.checks if r is not leave_out)

    def _ways_out(self) -> list[int]:
        """The packings that go out by the route (by position; each question asks them)."""
        if self._out is None:
            route, ways = self.route, self._all()
            if route is None or (route.all_cards and not route.checks):  # every card placed, and no more
                self._out = [i for i, w in enumerate(ways) if not w.left]
            else:
                self._out = [i for i, w in enumerate(ways) if self._goes_out(w)]
        return self._out

    def goes_out(self) -> bool | None:
        return bool(self._ways_out())

    def best(self, question: str = "best") -> Answer:
        answer = self._answer(self._first_best(range(len(self._all()))), question)
        answer.solvable = not answer.kept
        return answer

    def go_out(self, why_cards: bool = True) -> Answer:
        out = self._ways_out()
        if out:
            answer = self._answer(self._first_best(out), "go-out")
            answer.solvable = True
            return answer
        answer = self.best(question="go-out")
        answer.solvable = False
        answer.why = self._why(why_cards)
        return answer

    def _answer(self, way: _Way, question: str) -> Answer:
        melds = sorted(way.melds, key=_first_face)  # disjoint, each by face index: as the turn model's
        plays = [Play(m.faces, m.reading, m.points) for m in melds]
        kept = self.packed.cards.among(~(way.melded | way.discard_bit))  # in no meld and not discarded
        answer = Answer(solvable=None, question=question, plays=plays, discard=way.discard, kept=kept)
        score = {"meld_points": sum([p.points for p in plays]), "hand_points": way.points, "melds": len(plays)}
        answer.score = {g.measure: score[g.measure] for g in self.rs.objective} or score
        return self._stamp(answer)

    # -- why not --------------------------------------------------------------------------------

    def _why(self, cards: bool = True) -> dict:
        """The cards no meld takes, a set of cards that cannot all be placed (with ``cards``), and
        the requirements the hand fails (as :meth:`TurnSolver._why
        <solver.melding.turn.solver.TurnSolver._why>`)."""
        ways = self._all()
        why: dict = {}
        if cards:
            known = self.packed.known
            if "core" not in known:
                known["lonely"] = self._lonely()
                known["core"] = self._core(ways)
            why = {"no_meld": list(known["lonely"]), "core": list(known["core"])}
        route = self.route
        if route is not None and route.checks:
            placed = [w for w in ways if not (route.all_cards and w.left)]
            blamed = [r for r in route.checks if any(self._goes_out(w, leave_out=r) for w in placed)]
            if not blamed and len(route.checks) > 1 and placed:
                blamed = list(route.checks)
            if blamed:
                why["requirements"] = [(route, r) for r in blamed]
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

    def _core(self, ways: Sequence[_Way]) -> list[Face]:
        """A set of cards no turn places all of (each melded or discarded), none of it spare —
        the last cards left out first, so the lowest such set stays; empty when every card can
        be placed. Only the packings whose melds hold no other's cards and more can place more."""
        one_more = self.rule.discard != "none"
        widest: list[int] = []
        for m in sorted({way.melded for way in ways}, key=int.bit_count, reverse=True):
            if not any(m & wider == m for wider in widest):
                widest.append(m)
        hand = self.packed.cards
        if len(widest) == 1:  # the cards outside the one widest packing: as many as fit spare, and one
            outside = hand.among(~widest[0], 1 + one_more)
            return outside if len(outside) > one_more else []

        def placed(cards: int) -> bool:
            cards = hand.lowest(cards)  # the packings take the first copies
            if one_more:
                return any(not (rest := cards & ~m) & (rest - 1) for m in widest)
            return any(not cards & ~m for m in widest)

        core = hand.mask
        if placed(core):
            return []
        for bit in reversed(hand.bits):
            if not placed(core & ~bit):
                core &= ~bit
        return [f for f, bit in zip(hand.order, hand.bits, strict=True) if core & bit]


def _first_face(meld: Meld) -> int:
    return meld.faces[0].index


def _measure(way: _Way, measure: str) -> int:
    """A packing's value of one of the objective's measures."""
    if measure == "hand_points":
        return way.points
    if measure == "meld_points":
        return sum([m.points for m in way.melds])
    return len(way.melds)


def _meets(way: _Way, requirement: MeldCount | HandLimit) -> bool:
    if isinstance(requirement, HandLimit):
        return way.points <= requirement.at_most
    n = sum(requirement.counts(m.kind, len(m.faces), m.wilds) for m in way.melds)
    return requirement.at_least <= n and (requirement.at_most is None or n <= requirement.at_most)
