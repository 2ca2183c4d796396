"""How far a rack is from going out in a game whose turn rearranges the table and has no discard:
the fewest cards drawn after which one turn places every card of the hand.

Asked of the compact slot model (:mod:`solver.melding.arrange.slots`) on the game's live solver,
as a turn is (:mod:`solver.melding.arrange.slotturns`), with other bounds: each face's copies on
the table after the turn are at least the table's and the hand's (every card placed) and at most
those plus the copies left to draw. The copies above the least are the cards drawn; a running
count over them, made for this question alone, is minimised by the same model-improving search
that finds the best turn (:func:`solver.sat.search.maximise`, of the copies *not* drawn). Before
the initial meld the table is not touched and the melds of the hand and the draws must be worth
the initial meld's points, as in a turn. A wild drawn never stands in a run where its natural card
could be drawn instead (:func:`_drawn_wilds_last`): as few draws either way, and far fewer ways
out for the solver to refute.

The answer is exact: a distance ``d`` comes with a model of ``d`` draws, read back into melds each
looked up as legal, and ``d - 1`` draws refuted by the solver.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from solver.core.deck import Face
from solver.core.errors import MeldsError, Undecided
from solver.melding.arrange.laid import Arrangement, MeldCatalogue
from solver.melding.arrange.slotturns import Live, SlotTurns
from solver.melding.arrange.solve import slot_turns, table_melds
from solver.sat.budget import Budget
from solver.sat.encodings import TRUE
from solver.sat.search import guard, maximise, unary_count


@dataclass(frozen=True)
class Drawn:
    """The fewest draws, the cards drawn (one target) and the turn that then empties the hand."""

    distance: int
    drawn: tuple[Face, ...]
    turn: Arrangement


def game_turns(catalogue: MeldCatalogue, points: int) -> SlotTurns:
    """The game's slot model turns (bad input for a ruleset whose melds are not of its shape)."""
    if catalogue.shape is None:
        raise MeldsError(
            f"--distance of {catalogue.ruleset.name} is answered for rulesets of one run kind and one group "
            "kind (the compact table model); this ruleset's melds are not of that shape"
        )
    return slot_turns(catalogue, catalogue.shape, points)


def fewest_draws(
    turns: SlotTurns,
    hand: Sequence[Face],
    table: Sequence[Sequence[Face]],
    has_melded: bool,
    left: Counter[Face],
    budget: Budget,
) -> Drawn | None:
    """The fewest cards drawn (of the copies ``left``) after which one turn places the whole hand
    (None: no draws do); :class:`Undecided` when the budget runs out first."""
    catalogue = turns.catalogue
    initial = not has_melded and catalogue.ruleset.initial_meld is not None
    before = table_melds(catalogue, table)
    must: Counter[Face] = Counter() if initial else Counter(f for s in before for f in s.faces)
    held = Counter(hand)
    live = turns.live_solver(initial)
    if live.threshold is None:
        return None
    found = _copy_bounds(turns, must, held, left)
    if found is None:
        return None
    assumptions, draws = found
    if live.threshold != TRUE:
        assumptions.append(live.threshold)
    act = live.scratch.new()  # this question's own clauses
    live.solver.extend(guard(_drawn_wilds_last(turns, must, held, left), act))
    try:
        model = _least_drawn(live, [*assumptions, act], [lit for lit, _ in draws], budget)
    finally:
        live.solver.add([-act])
    if model is None:
        return None
    drawn = tuple(face for lit, face in draws if model[lit - 1] > 0)
    turn = turns.read_back(model, "go-out", [*hand, *drawn], before, initial, must)
    if not turn.found:  # the model and the reading disagree: a defect, never an answer
        raise AssertionError(f"the slot model's way out leaves {turn.kept} in the hand")
    return Drawn(len(drawn), drawn, turn)


def _least_drawn(live: Live, assumptions: list[int], lits: list[int], budget: Budget) -> list[int] | None:
    """A model with the fewest of ``lits`` (the copies drawn) true: none drawn asked first (the hand
    goes out now: one call), else any model, then fewer drawn than it through a running count
    made for this question, up to that model's count, and retired after it."""
    solver = live.solver
    if solver.solve([*assumptions, *(-lit for lit in lits)], budget):
        return solver.model()
    if not solver.solve(assumptions, budget):
        return None
    first = solver.model()

    def not_drawn(model: list[int]) -> int:
        return sum(model[lit - 1] < 0 for lit in lits)

    most = len(lits) - not_drawn(first)
    act = live.scratch.new()
    clauses: list[list[int]] = []
    drawn_at_least = unary_count(lits, most, live.scratch, clauses, down=False)
    solver.extend(guard(clauses, act))

    def at_least(k: int) -> int | None:  # at least k copies not drawn: fewer than len - k + 1 drawn
        return -drawn_at_least[len(lits) - k + 1]  # asked only beyond the first model's: below ``most``

    try:
        best = maximise(solver, [*assumptions, act], at_least, not_drawn, len(lits) - 1, budget, first, halve=True)
    finally:
        solver.add([-act])
    if not best.decided:
        raise Undecided("time")
    return best.model


def _drawn_wilds_last(
    turns: SlotTurns, must: Counter[Face], held: Counter[Face], left: Counter[Face]
) -> list[list[int]]:
    """With a wild drawn, no wild stands in a run where its natural card could be drawn instead:
    that card drawn in its place, and one wild fewer drawn (wilds are alike: the one set free
    stands where the drawn one stood), is a way out with as many draws — so the fewest are found
    among the ways out these clauses leave. (Groups are left free: which suit a wild of a group
    stands for is not in the model.)"""
    wild, model = turns.shape.wild, turns.model
    if wild is None:
        return []
    first_drawn = must[wild] + held[wild] + 1
    if first_drawn >= len(model.wilds_placed) or not left[wild]:
        return []
    some_drawn = model.wilds_placed[first_drawn]
    clauses = []
    for suit, grid in model.runs.items():
        faces = [turns.shape.naturals.get((suit, r)) for r in turns.shape.order.ranks]
        for row in grid:
            for face, cell in zip(faces, row, strict=True):
                if cell is None or not cell.j or face is None:
                    continue
                ge = model.placed[face]
                high = must[face] + held[face] + left[face]  # every copy of it there is placed
                if high < len(ge) and ge[high] != TRUE:
                    clauses.append([-some_drawn, -cell.j, ge[high]])
    return clauses


def _copy_bounds(
    turns: SlotTurns, must: Counter[Face], held: Counter[Face], left: Counter[Face]
) -> tuple[list[int], list[tuple[int, Face]]] | None:
    """The assumptions that place every card of the table and the hand and no more than the copies
    left besides, and the literals of the copies drawn (each with its face); None when a card of
    the hand can never be placed."""
    model, wild = turns.model, turns.shape.wild
    ladders: list[tuple[Face, list[int]]] = list(model.placed.items())
    if wild is not None:
        ladders.append((wild, model.wilds_placed))
    assumptions: list[int] = []
    draws: list[tuple[int, Face]] = []
    for face, ge in ladders:
        low = must[face] + held[face]
        if low >= len(ge):
            return None  # more copies than any table takes
        if low:
            assumptions.append(ge[low])
        high = min(low + left[face], len(ge) - 1)
        if high + 1 < len(ge):
            assumptions.append(-ge[high + 1])
        draws += [(ge[k], face) for k in range(low + 1, high + 1)]
    placeable = {face for face, _ in ladders}
    if any(face not in placeable for face in held):
        return None
    return assumptions, draws
