"""Sequence kinds as slots along lines: the compact part of a turn model whose candidate runs
would be too many to name.

With many wilds the candidate melds of a sequence kind explode (a 45-card hand holding every
wild-capable card: 120,000 candidate runs and chains, seconds to list before any solving), since
every window of the order can be filled with every card each wild role reaches. Here such a kind
is laid out instead, in slots (as a slot model of tile runs does), along *lines*: the identities
(suit, rank) a meld of the kind passes through, position by position — one line a suit for a
run, one line a starting suit and direction for a kind whose suit steps along a cycle (a 相順
chain), unrolled past the end of a cyclic order so that a window may wrap. On each line:

* **slots** — as many as stretches can pass one position (the cards able to stand there), plus,
  on a cyclic line, as many as can cross the boundary chosen where fewest cards reach
  (*wrap slots*; the others never cross it, so greedy interval colouring shows they suffice);
  ``p`` "a stretch passes here", filled by exactly one card able to be the position's identity
  (``fill``); ``join`` "this position continues the stretch before it" (two melds may meet in one
  slot: 木1–3 and 木4–6 are not 木1–6); a stretch is at least the kind's shortest and at most its
  longest, starts before ``starts`` on an unrolled line, and a new one takes the lowest slot free
  where it starts (symmetry: greedy colouring of the stretches in order gives every layout so);
* **points** — ``count[k]`` "the card here is the k-th natural of its segment": a natural card
  here after k − 1 naturals in the same slot. A segment of n naturals scores ``points(n)``, which
  is what its cards are paid position by position (``points(k) − points(k−1)`` to the k-th), so
  the cards' *ladders* (:func:`solver.melding.turn.shares.share_out`) weigh the line's melds exactly.

Only a kind whose points count naturals per segment with increments that never fall, whose order
has no rank twice and which has no short form or wild count of its own is laid out
(:func:`expressible`); the rest stay candidates. A stretch is structural like a candidate: the
turn model verifies each one a solver chooses with :class:`MeldChecker` and forbids an illegal
one (:meth:`Slots.block`) or corrects its points (:meth:`Slots.define`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from solver.core.deck import Face
from solver.core.rules import MeldKind
from solver.melding.meld.candidates import identity_options, sizes_of
from solver.melding.meld.cycles import SuitSteps
from solver.melding.meld.encode import Reading
from solver.melding.meld.gate import RoleGate
from solver.melding.meld.lines import Line, kind_lines
from solver.melding.meld.points import points_for
from solver.sat.pool import VarPool

Clause = list[int]


class Truth(Protocol):
    """A model's true literals, asked one by one (``lit in true``)."""

    def __contains__(self, lit: int, /) -> bool: ...


def increments(kind: MeldKind) -> list[int]:
    """What the k-th natural of a segment adds (k = 1 … the kind's longest)."""
    if kind.score is None:
        return [0] * kind.size_max
    points = [kind.score.points(k) for k in range(kind.size_max + 1)]
    return [b - a for a, b in itertools.pairwise(points)]


def expressible(kind: MeldKind) -> bool:
    """Whether slots can hold the kind exactly (see the module's docstring)."""
    order = kind.order
    if kind.shape != "sequence" or order is None or kind.short_form or kind.wilds or kind.size_min < 2:
        return False
    if kind.suit_step.free:
        return False  # a run of any colours has no lines of identities to lay out along
    if len(set(order.ranks)) != len(order.ranks):
        return False
    if any(
        not entry.role.wild and entry.sizes is not None and not sizes_of(kind) <= entry.sizes for entry in kind.roles
    ):
        return False  # natural at some sizes only
    if kind.score is not None and (kind.score.count != "naturals" or not kind.score.segments):
        return False
    steps = increments(kind)
    return min(steps, default=0) >= 0 and all(a <= b for a, b in itertools.pairwise(steps))


@dataclass(frozen=True)
class Stretch:
    """A meld a model lays on a line: its slot, positions and cards in order."""

    line: int  # index into Slots.lines
    slot: int
    positions: tuple[int, ...]
    faces: tuple[Face, ...]
    points: int  # structural: the segments of its natural cards
    circle: bool = False  # the whole of a cyclic line, joined all round

    @property
    def key(self) -> tuple:
        return self.line, self.slot, self.positions, tuple(f.index for f in self.faces)


class _Grid:
    """One line's slots: ``p[s][t]`` a stretch passes (0: no card can stand at t), ``fill[s][t]``
    (face → literal), ``join[s][t]`` t continues the stretch at its predecessor (0: it cannot),
    ``count[s][t][k-1]`` the card at t is the k-th natural of its segment."""

    def __init__(self, line: Line, fillers: list[list[tuple[Face, bool]]], load: list[int]):
        self.line = line
        self.fillers = fillers
        m = len(fillers)
        self.cut = None  # a cyclic line: the boundary before this position; only wrap slots cross it
        wraps = 0
        if line.cyclic:
            self.cut = min(range(m), key=lambda c: min(load[c - 1], load[c]))
            wraps = min(load[self.cut - 1], load[self.cut])
        self.plain = max(load)  # slots 0 … plain-1 never cross the cut; the rest always do
        self.slots = self.plain + wraps
        self.p: list[list[int]] = []
        self.fill: list[list[dict[Face, int]]] = []
        self.join: list[list[int]] = []
        self.count: list[list[list[int]]] = []

    def pred(self, s: int, t: int) -> int | None:
        if t == self.cut and s < self.plain:
            return None
        if t > 0:
            return t - 1
        return len(self.fillers) - 1 if self.line.cyclic else None

    def succ(self, s: int, t: int) -> int | None:
        m = len(self.fillers)
        if self.cut is not None and (t + 1) % m == self.cut and s < self.plain:
            return None
        if t + 1 < m:
            return t + 1
        return 0 if self.line.cyclic else None

    def joined(self, s: int, t: int | None) -> int:
        return self.join[s][t] if t is not None else 0

    def order(self) -> list[int]:
        """Positions in the order stretches of the plain slots run (from the cut on a cyclic line)."""
        m = len(self.fillers)
        start = self.cut or 0
        return [(start + i) % m for i in range(m)]


def _clause(*parts) -> Clause:
    """A clause of the literals given (0: none)."""
    return [lit for lit in parts if lit]


class Slots:
    """The laid-out kinds of one turn: their clauses (appended to ``clauses``), the literals each
    card is used by (``uses``), what the cards are paid (``ladders``), and the stretches a model
    makes."""

    def __init__(
        self,
        kinds: Iterable[MeldKind],
        hand: Mapping[Face, int],
        steps: Mapping[str, SuitSteps],
        gate: RoleGate,
        params,
        pool: VarPool,
        clauses: list[Clause],
        phase_lit: Mapping[str, int],
        holdable: Callable[[Sequence[Face]], bool] | None = None,
    ):
        """``holdable``: whether the turn can hold some cards at once (a table turn's forms give
        cards one meld at a time, :meth:`~solver.melding.table.takings.Takings.holdable`); None: every card
        it may have, at once."""
        self.pool, self.clauses = pool, clauses
        self.holdable = holdable
        self.uses: dict[Face, list[int]] = {}
        self.ladders: dict[Hashable, list[list[tuple[int, list[int]]]]] = {}  # card -> a ladder a line
        self.lines: list[Line] = []
        self.grids: list[_Grid] = []
        for kind in kinds:
            options = {face: identity_options(kind, face, gate, params) for face in hand}
            cycle = kind.suit_step.cycle
            for line in kind_lines(kind, steps.get(cycle) if cycle else None):
                fillers = [
                    [(face, bool(opts[ident])) for face, opts in options.items() if ident in opts]
                    for ident in line.identities
                ]
                load = [sum(hand[face] for face, _ in cell) for cell in fillers]
                if _longest_reach(load, line.cyclic) >= kind.size_min:
                    self._lay(_Grid(line, fillers, load), phase_lit.get(kind.phase) if kind.phase else None)

    # -- building ------------------------------------------------------------------------------------

    def _lay(self, grid: _Grid, phase: int | None) -> None:
        new, clauses, m = self.pool.new, self.clauses, len(grid.fillers)
        for s in range(grid.slots):
            row_p, row_fill = [], []
            for cell in grid.fillers:
                fill = {face: new() for face, _ in cell}
                p = next(iter(fill.values()), 0)
                if len(fill) > 1:  # exactly one card where a stretch passes
                    p = new()
                    lits = list(fill.values())
                    clauses.append([-p, *lits])
                    clauses += [[-f, p] for f in lits]
                    clauses += [[-a, -b] for i, a in enumerate(lits) for b in lits[i + 1 :]]
                for face, lit in fill.items():
                    self.uses.setdefault(face, []).append(lit)
                if p and phase:
                    clauses.append([-p, phase])
                row_p.append(p)
                row_fill.append(fill)
            grid.p.append(row_p)
            grid.fill.append(row_fill)
            row_join = []
            for t in range(m):  # two stretches may meet in one slot: t joins its predecessor or not
                back = grid.pred(s, t)
                join = 0
                if row_p[t] and back is not None and row_p[back]:
                    join = new()
                    clauses += [[-join, row_p[t]], [-join, row_p[back]]]
                row_join.append(join)
            grid.join.append(row_join)
        for s in range(grid.slots):
            self._stretch_rules(grid, s)
        for low, high in itertools.pairwise(range(grid.plain)):  # a new stretch takes the lowest free slot
            for t in grid.order():
                if grid.p[high][t]:
                    clauses.append(_clause(-grid.p[high][t], grid.join[high][t], grid.p[low][t]))
        self._counts(grid)
        self.lines.append(grid.line)
        self.grids.append(grid)

    def _stretch_rules(self, grid: _Grid, s: int) -> None:
        """Where a stretch starts, the next min − 1 positions join it; no more than the longest
        join in a row; an unrolled line's repeated head only continues; a wrap slot's stretch
        crosses the cut."""
        kind, clauses, m = grid.line.kind, self.clauses, len(grid.fillers)
        p, join = grid.p[s], grid.join[s]
        for t in range(m):
            if not p[t]:
                continue
            ahead: int | None = t
            for _ in range(kind.size_min - 1):
                ahead = grid.succ(s, ahead) if ahead is not None else None
                clauses.append(_clause(-p[t], join[t], grid.joined(s, ahead)))
            chain: list[int] = []
            here: int | None = t
            for _ in range(kind.size_max):
                here = grid.succ(s, here) if here is not None else None
                if here is None or not join[here] or here == t:
                    break
                chain.append(join[here])
            else:
                clauses.append([-lit for lit in chain])
            if t >= grid.line.starts:
                clauses.append(_clause(-p[t], join[t]))
            if s >= grid.plain and grid.cut is not None:  # (a slot past the plain ones crosses the cut)
                clauses.append(_clause(-p[t], join[grid.cut]))

    def _counts(self, grid: _Grid) -> None:
        kind, steps, new, m = grid.line.kind, increments(grid.line.kind), self.pool.new, len(grid.fillers)
        natural = [next((face for face, nat in cell if nat), None) for cell in grid.fillers]
        reach = [0] * m  # naturals in a row ending here (an upper bound on k)
        for _ in range(2 if grid.line.cyclic else 1):
            for t in range(m):
                back = t - 1 if t > 0 else (m - 1 if grid.line.cyclic else None)
                reach[t] = (
                    0 if natural[t] is None else min(kind.size_max, m, 1 + (reach[back] if back is not None else 0))
                )
        if self.holdable is not None:
            alone = [sum(nat for _, nat in cell) == 1 for cell in grid.fillers]
            holdable = self.holdable
            reach = [_held_reach(holdable, natural, alone, t, r, grid.line.cyclic) for t, r in enumerate(reach)]
        for s in range(grid.slots):
            row: list[list[int]] = []
            for t in range(m):
                face = natural[t]
                row.append([grid.fill[s][t][face]] if face is not None else [])
            for k in range(2, max(reach, default=0) + 1):
                for t in grid.order():
                    back, join = grid.pred(s, t), grid.join[s][t]
                    if k <= reach[t] and join and back is not None and len(row[back]) >= k - 1 and len(row[t]) == k - 1:
                        lit = new()
                        self.clauses += [[-lit, row[t][0]], [-lit, join], [-lit, row[back][k - 2]]]
                        row[t].append(lit)
            grid.count.append(row)
        for t, face in enumerate(natural):
            if face is None:
                continue
            ladder = []
            for value in sorted({v for v in steps[: reach[t]] if v > 0}):  # paid this much from the k-th on
                k = next(i for i, v in enumerate(steps, 1) if v >= value)
                lits = [grid.count[s][t][k - 1] for s in range(grid.slots) if len(grid.count[s][t]) >= k]
                if lits:
                    ladder.append((value, lits))
            if ladder:
                self.ladders.setdefault(face, []).append(ladder)

    # -- reading a model -----------------------------------------------------------------------------

    def stretches(self, true: Truth) -> list[Stretch]:
        out = []
        for index, grid in enumerate(self.grids):
            kind, m = grid.line.kind, len(grid.fillers)
            for s in range(grid.slots):
                taken = [bool(grid.p[s][t]) and grid.p[s][t] in true for t in range(m)]
                joined = [bool(grid.join[s][t]) and grid.join[s][t] in true for t in range(m)]
                starts = [t for t in range(m) if taken[t] and not joined[t]]
                circle = not starts and any(taken)
                for start in starts or ([grid.cut or 0] if circle else []):
                    positions, t = [start], grid.succ(s, start)
                    while t is not None and joined[t] and t != start:
                        positions.append(t)
                        t = grid.succ(s, t)
                    faces, naturals = [], []
                    for t in positions:
                        face = next(f for f, lit in grid.fill[s][t].items() if lit in true)
                        faces.append(face)
                        naturals.append(dict(grid.fillers[t])[face])
                    out.append(Stretch(index, s, tuple(positions), tuple(faces), points_for(kind, naturals), circle))
        return out

    def _pattern(self, stretch: Stretch, s: int) -> Clause | None:
        """A clause false exactly when slot ``s`` lays the stretch: its cards at its positions,
        joined, and not joined to what is before and after (None: the slot cannot, its positions
        not joined there — a stretch across the cut of a cyclic line is for wrap slots only)."""
        grid = self.grids[stretch.line]
        positions = stretch.positions
        inside = [grid.join[s][t] for t in positions[1:]] + ([grid.join[s][positions[0]]] if stretch.circle else [])
        if not all(inside):
            return None
        clause = [-grid.fill[s][t][face] for t, face in zip(positions, stretch.faces, strict=True)]
        clause += [-lit for lit in inside[: len(positions) - 1]]
        if stretch.circle:  # joined all round
            return clause + [-grid.join[s][positions[0]]]
        return clause + _clause(grid.join[s][positions[0]], grid.joined(s, grid.succ(s, positions[-1])))

    def block(self, stretch: Stretch) -> list[Clause]:
        """Clauses forbidding the stretch in every slot of its line (an illegal meld)."""
        patterns = (self._pattern(stretch, s) for s in range(self.grids[stretch.line].slots))
        return [clause for clause in patterns if clause is not None]

    def define(self, stretch: Stretch) -> tuple[int, Clause]:
        """A literal forced true when the stretch is laid in its slot (to weigh or bind it), and its
        clause."""
        lit = self.pool.new()
        pattern = self._pattern(stretch, stretch.slot)
        if pattern is None:
            raise ValueError(f"stretch {stretch.key} cannot lie in its own slot")
        return lit, [lit] + pattern

    def fits(self) -> set[Face]:
        return set(self.uses)

    def passing(self) -> list[int]:
        """Every "a stretch passes here" literal: one is true when some meld is laid out."""
        return [p for grid in self.grids for row in grid.p for p in row if p]


def _longest_reach(load: Sequence[int], cyclic: bool) -> int:
    """The most positions in a row some card can fill."""
    if all(load):
        return len(load)
    best = run = 0
    for value in list(load) * 2 if cyclic else load:
        run = run + 1 if value else 0
        best = max(best, run)
    return best


class LaidOut:
    """The laid-out part of one turn model (:class:`~solver.melding.turn.model.TurnModel`): its
    slots, the stretches verified so far and the corrections their true points made."""

    def __init__(self, kinds: Sequence[MeldKind]):
        self.kinds = list(kinds)
        self.slots: Slots | None = None  # built with the model (build)
        self.seen: dict[tuple, tuple[Reading, int]] = {}  # stretch key -> (reading, true points)
        self.corrections: list[tuple[int, int]] = []  # (literal of a stretch in its slot, points over)

    def build(self, model, clauses: list[Clause], uses: dict[Face, list[int]]) -> None:
        steps = {k.suit_step.cycle: model.checker.steps(k) for k in self.kinds if k.suit_step.cycle}
        self.slots = Slots(
            self.kinds,
            model.supply_top,
            steps,
            model.checker.gate,
            model.problem.params,
            model.pool,
            clauses,
            model.phase_lit,
            model.holdable,
        )  # the hand's cards and those forms may take
        for face, lits in self.slots.uses.items():
            uses[face] += lits

    @property
    def built(self) -> Slots:
        """The slots, once built."""
        if self.slots is None:
            raise ValueError("the laid-out part is not built yet")
        return self.slots

    def learn(self, model, true: Truth, weights_matter: bool) -> bool:
        """Verify the stretches a model lays (as TurnModel._learn verifies options): an illegal
        one is forbidden on its line, one worth less than its structural points is weighed down
        through a literal of its own, one read as a kind of a phase binds that phase."""
        changed = False
        for stretch in self.built.stretches(true):
            if stretch.key in self.seen:
                continue
            model.budget.check()
            verdict, points = model.checker.best_points(
                stretch.faces, phase=model.problem.phase, params=model.problem.params
            )
            reading = verdict.reading
            if not verdict.legal or reading is None:  # (a legal verdict has its reading)
                for clause in self.built.block(stretch):
                    model._add_hard(clause)
                changed = True
                continue
            self.seen[stretch.key] = (reading, points)
            needs = reading.kind.phase
            phase = model.phase_lit.get(needs) if needs != self.built.lines[stretch.line].kind.phase else None
            if points >= stretch.points and phase is None:
                continue
            lit, clause = self.built.define(stretch)
            model._add_hard(clause)
            if points < stretch.points:
                self.corrections.append((lit, stretch.points - points))
                for opt in model._optimisers.values():
                    opt.maxsat.add_soft([-lit], (stretch.points - points) * opt.meld_scale)
                changed |= weights_matter
            if phase is not None:
                model._add_hard([-lit, phase])
                changed |= phase not in true
        return changed

    def nogood(self, true: Truth) -> list[int]:
        """Literals of which one is true in every model that does not lay out exactly the
        stretches this one lays where it lays them (a clause part forbidding its layout)."""
        out: list[int] = []
        for stretch in self.built.stretches(true):
            out += self.built._pattern(stretch, stretch.slot) or []
        return out

    def melds(self, true: Truth) -> list[tuple[tuple[Face, ...], Reading, int]]:
        """The verified stretches of a model: (cards, reading, points)."""
        return [(stretch.faces, *self.seen[stretch.key]) for stretch in self.built.stretches(true)]


def _held_reach(
    holdable: Callable[[Sequence[Face]], bool], natural: list, alone: list[bool], t: int, most: int, cyclic: bool
) -> int:
    """Of the ``most`` naturals in a row that may end at ``t``, how many the turn can hold at
    once: a count literal past it could never hold, and the card's ladder would pay it the
    increment of a segment that long (a run's points double with each natural), for the
    optimiser to prove out of reach. Counted only through positions with one natural card
    (with two, either might do)."""
    run = []
    for k in range(most):
        at = (t - k) % len(natural) if cyclic else t - k
        if not alone[at]:
            return most
        run.append(natural[at])
        if not holdable(run):
            return k
    return most


# -- reading a model -----------------------------------------------------------------------------
