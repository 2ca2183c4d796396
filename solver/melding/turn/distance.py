"""How far a hand is from going out: the fewest swaps (draw one card, set one aside) after which
it goes out under the ruleset's turn, and what each discard does.

The turn model (:class:`~solver.melding.turn.model.TurnModel`) is the one ``melds solve`` asks,
widened by two sets of literals per face: ``aside[f][k]`` — the hand's ``k``-th copy of ``f`` is
set aside (it counts as a copy used, so the turn need not place it), and ``drawn[f][k]`` — a
``k``-th copy of ``f`` is drawn from those left (it joins the hand's supply, so the turn must place
it). Copies go in order (copy ``k`` needs copy ``k - 1``). Two counters make the draws as many as
the cards set aside, and the distance ``d`` is the assumption "not ``d + 1`` draws": one live
solver answers every bound, every discard's row (a copy of it set aside, assumed) and every draw
that helps (its first copy drawn, assumed).

Candidate melds may hold at most ``reach`` drawn cards (:class:`~solver.melding.meld.candidates.Scarce`;
a small reach keeps the candidates of wild cards few), and the counters reach one swap past it. A
bound is refuted only by models reaching it; a way out one swap past the reach is a way out all
the same. So each bound is first asked of the models as they are, and only their refusal builds
models reaching it, whose refusal refutes it. The answers are exact: a distance ``d`` is found with
``d - 1`` refuted (by the solver or the floor below), every meld of the target verified by the
checker as in any turn.

Before a bound is asked of the solver, a floor may rule it out without a SAT call
(:mod:`~solver.melding.turn.swapfloor`: each hand card's least share of a candidate's drawn cards,
and the cards the way out melds; proved up to the reach). A discard table's rows and draws use it
too: a draw the floor rules out of a row is not asked. Every way out found is kept: it lets its
cards go and draws its cards within its swaps, so a row whose card one of them lets go at the
hand's distance needs no question, and its draws start a row's.

A plain turn (no table, route or first meld; :mod:`~solver.melding.turn.swappack`) is first
asked of a depth-first search of the models' candidates: it finds a way out, or, having tried
every choice, refutes the bound as the solver would; a discard row's draws are those of every way
out it finds. The floor and the solver answer what it leaves (a search out of steps).

A plain hand (:func:`solver.melding.turn.nearest.fits`) is first asked of the nearest-target search
(:mod:`solver.melding.turn.neardistance`): its bound with a confirmed target is the answer; without
one, the model is asked from that bound up.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import partial

from solver.core.deck import Face
from solver.core.idmemo import IdentityMemo
from solver.core.rules import MeldKind
from solver.melding.meld.candidates import Scarce
from solver.melding.meld.checker import MeldChecker
from solver.melding.turn.firstmeld import first_meld_due
from solver.melding.turn.model import _Option
from solver.melding.turn.nearbuild import Built
from solver.melding.turn.neardistance import Nearest
from solver.melding.turn.nearest import fits
from solver.melding.turn.problem import Answer, Play, Problem
from solver.melding.turn.routes import GoOutRoute
from solver.melding.turn.solver import TurnSolver, verified
from solver.melding.turn.swapfloor import SwapFloor
from solver.melding.turn.swappack import Draws, Packing, PackSearch
from solver.sat import encodings
from solver.sat.budget import Budget
from solver.sat.solvers import TrueLiterals

REACH_STEP = 1  # how much further each rebuilt model reaches than the bound that needed it
_SCORELESS: IdentityMemo[MeldKind] = IdentityMemo(1000)  # each kind without its score (SwapModel._kinds)


@dataclass
class Target:
    """A hand the swaps reach and its way out: the cards set aside, those drawn, the turn."""

    aside: list[Face]
    drawn: list[Face]
    answer: Answer
    route: str | None = None


@dataclass
class DiscardRow:
    """One discard: the distance left once it is let go, and the draws that bring it closer."""

    discard: Face
    distance: int | None  # None: the hand never goes out with it let go
    draws: list[Face] = field(default_factory=list)


class SwapModel(TurnSolver):
    """The turn model with copies set aside and drawn (the module's docstring)."""

    def __init__(
        self,
        problem: Problem,
        left: Counter[Face],
        reach: int,
        checker: MeldChecker,
        budget: Budget,
        route: GoOutRoute | None,
    ):
        self.left = +left
        self.reach = reach
        self._floor: SwapFloor | None = None
        self._packer: PackSearch[_Option] | None | bool = None  # False: the turn is not one the search knows
        super().__init__(problem, checker, budget, route=route)

    def _drawable(self) -> Counter[Face]:
        return Counter({f: min(n, self.reach) for f, n in self.left.items()})

    def _kinds(self) -> list[MeldKind]:
        """The turn's kinds, their scores left out: a distance weighs no meld points, so the
        candidate walk need not count them (a verified meld's points are the checker's). The same
        objects for every model of a kind, so that what the walk keeps by kind (its cards'
        identities) serves every hand."""
        return [_SCORELESS.get((kind,), None, partial(replace, kind, score=None)) for kind in super()._kinds()]

    def _scarce(self, pool: list[Face]) -> Scarce:
        offset = len(pool) - sum(self.supply_top.values())  # a table meld's cards come first
        positions: set[int] = set()
        start = offset
        for face in self.faces:
            top = self.supply_top[face]
            positions.update(range(start + self.count[face], start + top))
            start += top
        return Scarce(frozenset(positions), self.reach)

    def _swap_clauses(self, clauses: list[list[int]], uses: dict[Face, list[int]], releases: dict) -> None:
        pool = self.pool
        self.aside: dict[Face, list[int]] = {f: [pool.new() for _ in range(self.count[f])] for f in self.faces}
        self.drawn: dict[Face, list[int]] = {
            f: [pool.new() for _ in range(self.supply_top[f] - self.count[f])] for f in self.faces
        }
        for face in self.faces:
            for lits in (self.aside[face], self.drawn[face]):
                clauses += [[-later, earlier] for earlier, later in zip(lits, lits[1:], strict=False)]
            uses[face] += self.aside[face]
            releases.setdefault(face, []).extend(self.drawn[face])
        top = self.reach + 2  # a way out one swap past the reach may be found (not refuted) too
        self.draws_at_least = encodings.exact_counter(
            [lit for f in self.faces for lit in self.drawn[f]], top, pool, clauses
        )
        asides = encodings.exact_counter([lit for f in self.faces for lit in self.aside[f]], top, pool, clauses)
        for k in range(1, top + 1):  # as many set aside as drawn
            d, a = self.draws_at_least[k], asides[k]
            if d is None and a is not None:
                clauses.append([-a])
            elif a is None and d is not None:
                clauses.append([-d])
            elif a is not None and d is not None:
                clauses += [[-a, d], [-d, a]]

    def floor(self, aside: Face | None = None) -> int:
        """The fewest swaps the candidates' shares allow (:mod:`~solver.melding.turn.swapfloor`), a
        copy of ``aside`` set aside when given; proved only up to the reach."""
        floor = self._swap_floor()
        if floor is None:
            return 0
        held = self.count - Counter([aside] if aside is not None else [])
        return max(floor.floor(floor.shares(held), held), 1 if aside is not None else 0)

    def may_help(self, aside: Face, bound: int) -> list[Face]:
        """The cards left whose draw, ``aside`` let go, the floor does not rule out of a way out
        in ``bound`` swaps in all (``bound`` at most the reach)."""
        floor = self._swap_floor()
        faces = sorted(f for f, n in self.left.items() if n > 0)
        if floor is None:
            return faces
        held = self.count - Counter([aside])
        shares = floor.shares(held)
        return [f for f in faces if floor.floor(floor.with_drawn(shares, held, f), held + Counter([f])) < bound]

    def _swap_floor(self) -> SwapFloor | None:
        """The candidates' shares, once (None: a turn the floor does not know: a route that
        leaves cards, requirements to see, table forms)."""
        if not self._all_cards() or self.seeing or self.forms:
            return None
        if self._floor is None:
            melded = len(self.problem.hand) - (self.rule.discard != "none")
            self._floor = SwapFloor((o.hand_faces for o in self.options if o.var not in self.forbidden), melded)
        return self._floor

    def within(self, bound: int, assumptions: Sequence[int] = ()) -> list[int] | None:
        """A verified way out after at most ``bound`` swaps (``bound`` at most one past the reach;
        None refutes it only up to the reach)."""
        assert bound <= self.reach + 1, "the counters stop one past the reach"
        self._build()
        over = self.draws_at_least[bound + 1] if bound + 1 < len(self.draws_at_least) else None
        return self._satisfy([self.goal, *assumptions, *([-over] if over is not None else [])])

    def target(self, model: list[int]) -> Target:
        """The swaps of a model and the turn that goes out after them."""
        true = TrueLiterals(model)
        aside = [f for f in self.faces for lit in self.aside[f] if lit in true]
        drawn = [f for f in self.faces for lit in self.drawn[f] if lit in true]
        plays = [Play(o.hand_faces, verified(self.reading_of(o, true)), o.weight, o.table) for o in self._chosen(model)]
        if self.laid is not None:
            plays += [Play(faces, reading, points) for faces, reading, points in self.laid.melds(true)]
        discard = next((f for f in self.faces if self.discard_lit[f] in true), None)
        return self._target_of(aside, drawn, plays, discard, self.phase_of(model))

    def _target_of(
        self, aside: list[Face], drawn: list[Face], plays: list[Play], discard: Face | None, phase: str | None
    ) -> Target:
        plays.sort(key=lambda p: (p.table is not None, p.table or 0, sorted(p.faces)))
        answer = Answer(solvable=True, question="distance", plays=plays, discard=discard, kept=[])
        answer.score = self._score(plays, [])
        if any(p.reading.kind.phase for p in plays):
            answer.phase_needed = phase or self.problem.phase
        return Target(aside, drawn, self._stamp(answer), self.route.id if self.route is not None else None)

    def packed(self, bound: int, aside: Face | None = None) -> tuple[Target | None, bool] | None:
        """A way out in at most ``bound`` swaps (``aside`` set aside, when given) by the search of
        :mod:`~solver.melding.turn.swappack`, and whether the search was complete (then None
        refutes the bound, up to the reach); None: a turn it does not know."""
        search = self._pack_search()
        if search is None:
            return None
        found = search.find(bound, self._verify, aside)
        return (self._packing_target(found.packing) if found.packing else None), found.complete

    def packed_draws(self, bound: int, aside: Face) -> Draws | None:
        """The cards drawn in the search's ways out in at most ``bound`` swaps with ``aside`` set
        aside (None: a turn it does not know)."""
        search = self._pack_search()
        return search.draws(bound, self._verify, aside) if search is not None else None

    def _packing_target(self, found: Packing[_Option]) -> Target:
        plays = [Play(o.hand_faces, verified(o.reading), o.weight, o.table) for o in found.options]
        return self._target_of(sorted(found.aside), sorted(found.drawn), plays, found.discard, None)

    def _pack_search(self) -> PackSearch[_Option] | None:
        """The search over this model's options, once (None: a turn with a table, a route, a
        first-meld minimum, a cap on melds, an optional discard or no phase given)."""
        if self._packer is None:
            p, rule = self.problem, self.rule
            plain = (
                self.route is None
                and not p.table
                and not self.forms
                and not self.seeing
                and self.laid is None
                and p.turn == "normal"
                and rule.max_new_melds is None
                and rule.discard in ("required", "none")
                and first_meld_due(p) is None
                and (p.phase is not None or all(k.phase is None for k in self.rs.kinds))
            )
            live = [o for o in self.options if o.var not in self.forbidden and o.table is None]
            required = rule.discard == "required"
            melded = len(p.hand) - required
            self._packer = PackSearch(live, self.count, self.supply_top, melded, required) if plain else False
        return self._packer if isinstance(self._packer, PackSearch) else None


class DistanceSearch:
    """The distance questions of one problem, over its routes (one :class:`SwapModel` each, built
    again with a larger reach when a bound needs it)."""

    def __init__(
        self,
        problem: Problem,
        left: Counter[Face],
        checker: MeldChecker,
        budget: Budget,
        routes: Sequence[GoOutRoute] = (),
    ):
        if routes and not any(route.discards for route in routes):  # every way out melds every card
            problem = replace(problem, at_rest=True)  # so every part of the search lets no card be discarded
        self.problem, self.left, self.checker, self.budget = problem, +left, checker, budget
        self.routes: list[GoOutRoute | None] = list(routes) or [None]
        self.reach = -1  # no model yet
        self.models: list[SwapModel] = []
        self.most = len(problem.hand)  # swapping every card is as far as a hand can be
        self.targets: list[Target] = []  # every way out found: each tells the rows of the cards it lets go
        # routes that differ on the discard: the nearest-target search counts one discard rule for all
        plain = fits(problem, checker, self.routes) and len({r is None or r.discards for r in self.routes}) == 1
        self.nearest = Nearest(problem, self.left, checker, budget, self.routes) if plain else None

    def close(self) -> None:
        for model in self.models:
            model.close()

    def __enter__(self) -> DistanceSearch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _reaching(self, bound: int) -> list[SwapModel]:
        if bound > self.reach:
            self.close()
            self.reach = min(self.most, max(bound, 1) + REACH_STEP - 1)
            self.models = [
                SwapModel(self.problem, self.left, self.reach, self.checker, self.budget, route)
                for route in self.routes
            ]
        return self.models

    def within(
        self, bound: int, aside: Face | None = None, drawn: Sequence[Face] = (), proving: bool = True
    ) -> Target | None:
        """A way out after at most ``bound`` swaps, with a copy of ``aside`` set aside and at least
        one of ``drawn`` drawn (when given), on the first route that has one. ``proving``: on models
        reaching ``bound`` (built if need be), so that None refutes the bound; else on the models
        as they are (reaching at least ``bound - 1``): a way out found is one all the same."""
        models = self._reaching(bound) if proving else self.models
        for model in models:
            model._build()
            assumptions = [model.aside[aside][0]] if aside is not None else []
            if drawn:
                act = model.pool.new()
                model._add_hard([-act] + [model.drawn[f][0] for f in drawn if model.drawn.get(f)])
                assumptions.append(act)
            found = model.within(bound, assumptions)
            if drawn:
                model._add_hard([-act])  # this question's clause is spent
            if found is not None:
                target = model.target(found)
                self.targets.append(target)
                return target
        return None

    def distance(self) -> tuple[int, Target] | None:
        """The fewest swaps and a target they reach (None: no swaps make the hand go out): the
        nearest-target search's when it confirms a target at its bound, else the swap model's
        from that bound up."""
        start = 0
        if self.nearest is not None:
            known = self.nearest.distance()
            if known.bound is None:
                return None
            if known.target is not None:
                return known.bound, _target(known.target)
            start = known.bound
        return self._fewest(start)

    def _packed(self, bound: int, aside: Face | None = None) -> tuple[Target | None, bool]:
        """A way out in ``bound`` swaps by the search of the models' candidates (each model's
        :meth:`SwapModel.packed`), and whether every choice was searched (then no way out is one
        that refutes ``bound`` when the models reach it). (None, False): the solver is to be asked."""
        complete = True
        for model in self.models:
            searched = model.packed(bound, aside)
            if searched is None:
                return None, False
            target, done = searched
            if target is not None:
                self.targets.append(target)
                return target, False
            complete = complete and done
        return None, complete

    def _packed_draws(self, bound: int, aside: Face) -> Draws:
        """The draws of every model's ways out by the search (complete when every model's search
        was; none and incomplete when a model has none)."""
        faces: set[Face] = set()
        complete = True
        for model in self.models:
            draws = model.packed_draws(bound, aside)
            if draws is None:
                return Draws(frozenset(faces), False)
            faces |= draws.faces
            complete = complete and draws.complete
        return Draws(frozenset(faces), complete)

    def _fewest(self, low: int, aside: Face | None = None) -> tuple[int, Target] | None:
        """The fewest swaps from ``low`` up (proved: no fewer go out), ``aside`` among them when
        given, and a target they reach. Each turn of the loop either proves a larger ``low``,
        reaches further, or asks the solver at ``low``: the search of a plain turn's candidates
        (:meth:`_packed`) finds a way out or refutes ``low`` when the models reach it, else the
        floor of the models proves up to one past their reach; a way out is asked first of the
        models as they are (reaching ``low - 1`` at least), and only a refusal there builds models
        reaching ``low``, whose refusal refutes it."""
        while low <= self.most:
            models = self._reaching(max(low - 1, 1))
            target, searched = self._packed(low, aside)
            if target is not None:
                return low, target
            if searched:  # no way out among every choice of the models: ``low`` refuted if they reach it
                if self.reach >= low:
                    low += 1
                else:
                    self._reaching(low)
                continue
            floor = min(model.floor(aside) for model in models)
            if low <= self.reach and floor > low:
                low = min(floor, self.reach + 1)
            elif floor > self.reach + 1:  # no way out at ``low``, as far as the floor can tell: reach further
                self._reaching(low)
            elif (found := self.within(low, aside, proving=False)) is not None:
                return low, found
            elif self.reach >= low:
                low += 1
            else:
                self._reaching(low)
        return None

    def discard_row(self, discard: Face, least: int) -> DiscardRow:
        """A discard's row: the swaps needed with it among them (at least ``least``, and one), and
        every card whose draw after it leaves one swap fewer."""
        if self.nearest is not None:
            row = self._nearest_row(discard)
            if row is not None:
                return row
        least = max(1, least)
        known = next((t for t in self.targets if discard in t.aside and len(t.aside) == least), None)
        fewest = (least, known) if known is not None else self._fewest(least, discard)
        if fewest is None:
            return DiscardRow(discard, None)
        bound, found = fewest
        return DiscardRow(discard, bound, self._draws(discard, bound, found))

    def _nearest_row(self, discard: Face) -> DiscardRow | None:
        """The row by the nearest-target search (None: it cannot tell the bound); the draws it
        cannot tell are asked of the swap model at that bound."""
        assert self.nearest is not None
        known = self.nearest.aside(discard)
        if known.bound is None:
            return DiscardRow(discard, None)
        if known.target is None:
            return None
        helps, untold = [], []
        for face in sorted(f for f, n in self.left.items() if n > 0):
            answer = self.nearest.helps(discard, face, known.bound)
            if answer is None:
                untold.append(face)
            elif answer:
                helps.append(face)
        asked = self._asked(discard, known.bound, untold) if untold else []
        return DiscardRow(discard, known.bound, sorted(set(helps) | set(asked)))

    def _draws(self, discard: Face, bound: int, found: Target) -> list[Face]:
        """The cards one of whose copies, drawn for ``discard``, starts a way out in ``bound`` swaps
        (``found``: a way out that lets ``discard`` go: its draws are some, as are those of every
        way out found before that lets it go in ``bound`` swaps or fewer): those of the search's
        ways out (:meth:`_packed_draws`), every one when it searched every choice; else those the
        floor does not rule out are asked of the solver."""
        helps = set(found.drawn).union(*(t.drawn for t in self.targets if discard in t.aside and len(t.aside) <= bound))
        self._reaching(bound)
        searched = self._packed_draws(bound, discard)  # on models reaching ``bound``: every draw, when complete
        helps |= searched.faces
        if searched.complete:
            return sorted(helps)
        maybe = {f for model in self.models for f in model.may_help(discard, bound)}
        return sorted(helps | set(self._asked(discard, bound, sorted(maybe - helps))))

    def _asked(self, discard: Face, bound: int, draws: list[Face]) -> list[Face]:
        """Those of ``draws`` that start a way out in ``bound`` swaps with ``discard`` let go, and
        the other cards each way out found draws (the search stops when none of those left does)."""
        helps: set[Face] = set()
        untried = list(draws)
        while untried:
            more = self.within(bound, aside=discard, drawn=untried)
            if more is None:
                break
            helps.update(more.drawn)
            untried = [f for f in untried if f not in helps]
        return sorted(helps)


def _target(built: Built) -> Target:
    answer = built.answer
    answer.question = "distance"
    return Target(list(built.aside), list(built.drawn), answer, built.route)
