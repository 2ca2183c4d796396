"""Turns asked of the compact slot model (:mod:`solver.melding.arrange.slots`) on live solvers.

The model is built once per game; one solver holds it for turns after the initial meld and one,
made on first need, adds the initial meld's points. A turn is only assumptions: each face's copies
on the table stay (``placed[face][t]``) and no more go down than the table and the hand hold
(``-placed[face][t + r + 1]``). The best turn is then two searches on the same solver
(:func:`solver.sat.search.maximise`):

1. the most hand cards, through the model's count of cards on the table — the whole hand asked
   first (on a big table it usually goes out: one call), then halving the interval between the
   best arrangement found and the most not yet refuted;
2. with that count held, the most value, climbing (each model tends to jump several points)
   through a running sum over the hand cards left: a few hundred clauses made for this turn,
   switched on by one literal and retired after it.

The model that ends the search is read back into melds: each slot's stretches are runs, each
rank's group counts are dealt into groups. Out of time, the best arrangement so far comes back with
the bounds proved (:class:`~solver.melding.arrange.laid.Bounds`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

from solver.core.deck import Face
from solver.core.errors import MeldsError, Undecided
from solver.melding.arrange.laid import Arrangement, Bounds, LaidMeld, MeldCatalogue, settle
from solver.melding.arrange.shape import Shape
from solver.melding.arrange.slots import GroupRank, SlotModel
from solver.sat.budget import Budget
from solver.sat.encodings import TRUE
from solver.sat.pool import VarPool
from solver.sat.search import Optimum, guard, maximise, weight_reached
from solver.sat.solvers import SatSolver

SOLVER = "minisat22"  # on these turns 10–20 % faster than Glucose 3 (bench: same positions, CPU time)
RETIRE = 100_000  # a solver that has gathered this many variables for past turns is made afresh


@dataclass
class Live:
    solver: SatSolver
    scratch: VarPool  # variables of one turn's own clauses (above the model's)
    start: int
    threshold: int | None  # the initial meld's literal (TRUE: none needed; None: out of reach)


class SlotTurns:
    """The turns of one game (ruleset and options) through its slot model."""

    def __init__(self, catalogue: MeldCatalogue, shape: Shape, initial_points: int):
        self.catalogue, self.shape = catalogue, shape
        self.initial_points = initial_points
        self.model = SlotModel(shape)
        self._threshold: tuple[list[list[int]], int | None] | None = None
        self._live: dict[bool, Live] = {}

    def live_solver(self, initial: bool) -> Live:
        """The live solver of turns before the initial meld (``initial``) or after it, made on first
        need (and afresh once it has gathered :data:`RETIRE` variables of past questions)."""
        live = self._live.get(initial)
        if live is not None and live.scratch.top - live.start > RETIRE:
            live.solver.close()
            live = None
        if live is None:
            threshold: int | None = TRUE
            extra: list[list[int]] = []
            if initial:
                if self._threshold is None:
                    self._threshold = self.model.threshold(self.initial_points)
                extra, threshold = self._threshold
            solver = SatSolver(self.model.clauses, SOLVER)
            solver.extend(extra)
            top = self.model.pool.top
            live = self._live[initial] = Live(solver, VarPool(top + 1), top, threshold)
        return live

    # -- a turn --------------------------------------------------------------------------------------

    def turn(
        self, hand: Sequence[Face], before: Sequence[LaidMeld], initial: bool, question: str, budget: Budget
    ) -> Arrangement:
        must = Counter() if initial else Counter(f for s in before for f in s.faces)
        held = Counter(hand)
        live = self.live_solver(initial)

        def nothing(found: bool | None = False, bounds: Bounds | None = None) -> Arrangement:
            answer = Arrangement(found, question, initial, list(before), [], [], list(hand), bounds=bounds)
            return self._done(answer, live, calls0)

        solver, calls0 = live.solver, live.solver.calls
        if live.threshold is None:
            return nothing()
        assumptions = self._bounds(must, held) + ([live.threshold] if live.threshold != TRUE else [])
        on_table, base = self.model.on_table, sum(must.values())
        items = self._hand_items(must, held)  # (literal: that hand copy is placed, its value)

        def at_least(k: int) -> int | None:
            return on_table[base + k] if base + k < len(on_table) else None

        if question == "go-out":
            lit = at_least(len(hand)) if len(items) == len(hand) else None
            try:
                if lit is None or not solver.solve(assumptions + ([lit] if lit != TRUE else []), budget):
                    return nothing()
            except Undecided:
                return nothing(None)
            return self._done(self.read_back(solver.model(), question, hand, before, initial, must), live, calls0)

        def count(model: list[int]) -> int:
            return sum(model[lit - 1] > 0 for lit, _ in items)

        def value(model: list[int]) -> int:
            return sum(w for lit, w in items if model[lit - 1] > 0)

        cards = maximise(solver, assumptions, at_least, count, len(items), budget, hope=True, halve=True)
        if cards.model is None:
            return nothing() if cards.decided else nothing(None, Bounds((0, len(items)), None))
        model, bounds, most = cards.model, None, cards.value or 0
        if not cards.decided:
            bounds = Bounds(_interval(cards), None)
        else:
            held_lit = at_least(most) if most else None
            values = self._most_value(
                live,
                assumptions + ([held_lit] if held_lit is not None else []),
                items,
                most,
                model,
                value,
                budget,
            )
            model = values.model or model
            if not values.decided:
                bounds = Bounds((most, most), _interval(values))
        answer = self.read_back(model, question, hand, before, initial, must)
        if bounds is not None:
            answer.found, answer.bounds = None, bounds
        return self._done(answer, live, calls0)

    def _most_value(
        self,
        live: Live,
        assumptions: list[int],
        items: list[tuple[int, int]],
        placed: int,
        model: list[int],
        value: Callable[[list[int]], int],
        budget: Budget,
    ) -> Optimum:
        """With the number of cards held, the most value: the hand cards left weigh as little as
        can be, asked through a running sum over them made for this turn alone."""
        weights = sorted((w for _, w in items), reverse=True)
        high, total, reached_now = sum(weights[:placed]), sum(weights), value(model)
        if reached_now >= high:
            return Optimum(reached_now, model, reached_now, reached_now)
        act = live.scratch.new()
        clauses: list[list[int]] = []
        deficit = weight_reached([(-lit, w) for lit, w in items if w], total - reached_now, live.scratch, clauses)
        live.solver.extend(guard(clauses, act))

        def at_least(v: int) -> int:
            below = deficit[total - v + 1]  # the cards left weigh less than total - v + 1
            return -below if below is not None else TRUE

        try:
            return maximise(live.solver, assumptions + [act], at_least, value, high, budget, first=model)
        finally:
            live.solver.add([-act])

    def _bounds(self, must: Counter, held: Counter) -> list[int]:
        """The turn's parameters: each face's copies on the table stay, and no more than the table
        and the hand hold go down."""
        out = []
        for face, ge in self.model.placed.items():
            low = must[face]
            if low >= len(ge):  # a legal table never holds more copies of a face than melds can take
                raise MeldsError(f"the table holds {low} copies of a card that no meld takes that often")
            if low:
                out.append(ge[low])
            high = low + held[face]
            if high + 1 < len(ge):
                out.append(-ge[high + 1])
        wild = self.shape.wild
        if wild is not None:
            ge = self.model.wilds_placed
            low, high = must[wild], must[wild] + held[wild]
            if low:
                out.append(ge[low])
            if high + 1 < len(ge):
                out.append(-ge[high + 1])
        return out

    def _hand_items(self, must: Counter, held: Counter) -> list[tuple[int, int]]:
        items = []
        printed = self.catalogue.cards.printed
        for face, copies in held.items():
            ge = self.model.wilds_placed if face == self.shape.wild else self.model.placed.get(face, [TRUE])
            items += [(ge[must[face] + k], printed(face)) for k in range(1, copies + 1) if must[face] + k < len(ge)]
        return items

    def _done(self, answer: Arrangement, live: Live, calls0: int) -> Arrangement:
        answer.sat_calls = live.solver.calls - calls0
        return answer

    # -- reading a model back into melds ------------------------------------------------------------

    def read_back(
        self,
        model: list[int],
        question: str,
        hand: Sequence[Face],
        before: Sequence[LaidMeld],
        initial: bool,
        must: Counter,
    ) -> Arrangement:
        """The model read back into melds: each slot's stretches as runs, each rank's counts dealt
        into groups, and the arrangement they leave."""
        chosen = [self._meld(faces) for faces in self._runs(model) + self._groups(model)]
        return settle(question, hand, before, chosen, initial, must, self.catalogue.cards)

    def _meld(self, faces: list[Face]) -> LaidMeld:
        found = self.catalogue.lookup(faces)
        if found is None:  # the model and the meld reader disagree: a defect, never an answer
            raise AssertionError(f"the slot model laid an illegal meld: {faces}")
        return found

    def _runs(self, model: list[int]) -> list[list[Face]]:
        """Each slot's stretches of taken ranks, a run each (round the corner when the order is
        cyclic)."""
        out = []
        order, cyclic = self.shape.order.ranks, self.shape.order.cyclic
        for suit, grid in self.model.runs.items():
            faces = [self.shape.naturals.get((suit, r)) for r in order]
            for row in grid:
                n = len(row)
                taken = [cell is not None and model[cell.p - 1] > 0 for cell in row]
                # a taken place holds its natural card or a wild
                found = [
                    faces[t] if cell is not None and cell.n and model[cell.n - 1] > 0 else self.shape.wild
                    for t, cell in enumerate(row)
                ]
                # a place is taken by its natural or a wild: None (no such card) only where none is taken
                cards = cast("list[Face]", found)
                if all(taken):
                    out.append(cards)
                    continue
                for start in range(n):
                    if not taken[start] or (taken[start - 1] if cyclic or start > 0 else False):
                        continue
                    end = start
                    while (cyclic or end < n) and taken[end % n]:
                        end += 1
                    out.append([cards[t % n] for t in range(start, end)])
        return out

    def _groups(self, model: list[int]) -> list[list[Face]]:
        out = []
        for rank in self.model.groups:
            out += self._deal(rank, model)
        return out

    def _deal(self, rank: GroupRank, model: list[int]) -> list[list[Face]]:
        """The groups of one rank from its counts: the naturals dealt round the groups suit by suit
        (no suit twice in a group), then the wilds, first where a group is short."""

        def count(bits: list[int]) -> int:
            return sum(model[b - 1] > 0 for b in bits)

        k = count(rank.groups)
        if not k:
            return []
        naturals = [
            self.shape.naturals[(c, rank.rank)] for c, bits in rank.naturals.items() for _ in range(count(bits))
        ]
        groups: list[list[Face]] = [naturals[i::k] for i in range(k)]
        wilds = count(rank.wilds)
        smallest, largest = self.shape.group_kind.size_min, self.shape.group_max
        for need in (smallest, largest):
            for g in groups:
                while wilds and len(g) < need:
                    g.append(_placed(self.shape.wild))
                    wilds -= 1
        return groups


def _placed(face: Face | None) -> Face:
    """The card the model placed somewhere (a taken place always holds one)."""
    if face is None:
        raise AssertionError("the slot model placed a card where no card can stand")
    return face


def _interval(found: Optimum) -> tuple[int, int]:
    """Where an undecided optimum lies: at least what was found (0: nothing yet), at most its bound."""
    return (found.low if found.low is not None else 0, found.high)
