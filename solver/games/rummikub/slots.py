"""A Rummikub table as one compact SAT model per ruleset: tiles counted by face, runs in slots,
groups by counts — built once, every turn asked with assumptions on one live solver.

Where :mod:`solver.games.rummikub.candidates` names every candidate set, this model grows with the
deck's faces, not with the subsets of the tiles in play, and it is the same for every turn of a
ruleset: a turn only sets, by assumptions, how many copies of each face lie on the table (they must
stay) and on the rack (they may go down). Its parts, all read from the ruleset's two kinds:

* **runs** — for each colour, ``S`` slots (the most copies of a face plus the jokers: the most runs
  of one colour that can pass one number) along the run kind's rank order; in each slot and at each
  rank, "a run passes here" ``p`` is a natural tile ``n`` or a joker ``j`` (never both). A slot's
  stretch of consecutive ranks is one run, so it must be at least the run kind's shortest: where a
  stretch starts, the next ``min − 1`` ranks are taken. Symmetry broken: a stretch starts in slot
  s + 1 only where slot s is taken (new runs take the lowest free slot), and at one rank the
  jokers sit in higher slots than the naturals (swapping them changes nothing).
* **groups** — for each rank, counts only: ``g`` the naturals of each colour in groups, ``jg`` the
  jokers in groups, ``k`` the number of groups. Tiles of one rank split into k groups of distinct
  colours exactly when no colour has more than k, there are at least k naturals (a set holds one),
  and k·min ≤ tiles ≤ k·max (max: the kind's, at most the colours) — no group slots to permute.
* **counts** — per face a totalizer ``P`` of its naturals in runs and groups (at most its copies),
  a totalizer of the jokers placed, and one over every tile on the table after the turn: assuming
  its output "at least k" asks for k tiles, which is how the optimiser climbs.

A set needs a numbered tile: with fewer jokers than the shortest run that holds by itself; with
more, each stretch carries a flag "a natural so far" that must be set where the stretch ends.
Rulesets of other shapes (more kinds, wild limits, rank orders with repeats, short longest runs)
are answered by the candidate model instead (:func:`shape_of` says which).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass

from solver.core.deck import Face
from solver.core.rules import MeldKind
from solver.core.ruleset import Ruleset
from solver.sat.pool import VarPool
from solver.sat.search import unary_count, weight_at_least


@dataclass(frozen=True, eq=False)
class Shape:
    """What the compact model needs of a ruleset: its group and run kinds, the numbered tiles by
    (colour, rank), the joker and how many copies of each there are."""

    group: MeldKind | None
    run: MeldKind | None
    naturals: Mapping[tuple[str, str], Face]
    joker: Face | None
    jokers: int
    copies: Mapping[Face, int]

    @property
    def group_max(self) -> int:
        """A group's most tiles: the kind's, and no more than its colours (a joker takes a colour
        no natural of the group has)."""
        return min(self.group.size_max, len(self.group.suits)) if self.group else 0


def shape_of(ruleset: Ruleset) -> Shape | None:
    """The ruleset's kinds as the compact model reads them, or None when they are of another shape
    (then the candidate model answers)."""
    kinds = list(ruleset.kinds)
    groups = [k for k in kinds if k.shape == "group"]
    runs = [k for k in kinds if k.shape == "sequence"]
    if len(groups) > 1 or len(runs) > 1 or len(groups) + len(runs) != len(kinds) or not kinds:
        return None
    wild_roles, natural_classes = set(), set()
    for kind in kinds:
        if (
            kind.short_form
            or kind.wilds
            or kind.distinguish
            or kind.phase
            or kind.suit_step.cycle
            or kind.size_min < 1
            or not kind.distinct
        ):
            return None
        for kind_role in kind.roles:
            role = kind_role.role
            if kind_role.classes is not None or kind_role.sizes is not None:
                return None
            if role.wild:
                covers = set(role.suits or ()) >= set(kind.suits) and set(role.ranks or ()) >= set(
                    kind.order.ranks if kind.order else kind.ranks
                )
                if not covers or role.requires_in_meld is None:
                    return None
                wild_roles.add(role)
            elif role.suits is None and role.ranks is None and role.requires_in_meld is None:
                natural_classes |= role.classes
            else:
                return None
    run = runs[0] if runs else None
    if run is not None:
        ranks = run.order.ranks if run.order else ()
        if not ranks or len(set(ranks)) != len(ranks) or run.size_max < len(ranks):
            return None
    if len(wild_roles) > 1:
        return None
    wild = next(iter(wild_roles), None)
    if wild is not None and not wild.requires_in_meld.classes <= natural_classes:
        return None
    naturals, joker, jokers = {}, None, 0
    for face, copies in ruleset.deck.copies.items():
        if face.cls in natural_classes:
            if face.suit is None or face.rank is None or not face.rank.isdigit():
                return None
            naturals[(face.suit, face.rank)] = face
        elif wild is not None and face.cls in wild.classes:
            if joker is not None:
                return None
            joker, jokers = face, copies
    if run is not None and run.order.cyclic and jokers >= len(run.order.ranks):
        return None  # a whole circle of jokers would need its own rule
    return Shape(groups[0] if groups else None, run, naturals, joker, jokers, dict(ruleset.deck.copies))


@dataclass
class RunCell:
    """One slot at one rank: ``p`` a run passes here; ``n`` it is a natural, ``j`` a joker
    (0: that cannot be)."""

    p: int
    n: int
    j: int


@dataclass
class GroupRank:
    """The groups of one rank: each colour's naturals in groups (unary, per colour), the jokers in
    groups (unary), the number of groups (unary) and the tiles in groups (a totalizer)."""

    rank: str
    naturals: dict[str, list[int]]
    jokers: list[int]
    groups: list[int]
    tiles: list[int]


class SlotModel:
    """The compact model of one ruleset's tables (see the module docstring). Attributes the
    turn reads: ``placed[face]`` (``placed[face][k]``: at least k copies on the table after the
    turn), ``jokers_placed``, ``on_table`` (at least k tiles in all), the run cells and the group
    counts (to read a model back into sets), and ``clauses``."""

    def __init__(self, shape: Shape):
        self.shape = shape
        self.pool = VarPool()
        self.clauses: list[list[int]] = []
        self.uses: dict[Face, list[int]] = {f: [] for f in shape.naturals.values()}
        self.joker_uses: list[int] = []
        self.runs: dict[str, list[list[RunCell | None]]] = {}  # colour -> slot -> rank position
        self.groups: list[GroupRank] = []
        if shape.run is not None:
            for colour in shape.run.suits:
                self._colour(colour)
        if shape.group is not None and shape.group_max >= shape.group.size_min:
            for rank in shape.group.ranks:
                self._group(rank)
        self._counts()

    # -- runs ----------------------------------------------------------------------------------------

    def _colour(self, colour: str) -> None:
        shape, new, clauses = self.shape, self.pool.new, self.clauses
        order = shape.run.order.ranks
        faces = [shape.naturals.get((colour, r)) for r in order]
        if not any(faces):
            return
        slots = max(shape.copies[f] for f in faces if f) + shape.jokers
        grid: list[list[RunCell | None]] = []
        for _ in range(slots):
            row: list[RunCell | None] = []
            for face in faces:
                n = new() if face else 0
                j = new() if shape.jokers else 0
                if n and j:
                    p = new()
                    clauses += [[-p, n, j], [-n, p], [-j, p], [-n, -j]]
                else:
                    p = n or j
                row.append(RunCell(p, n, j) if p else None)
                if n:
                    self.uses[face].append(n)
                if j:
                    self.joker_uses.append(j)
            grid.append(row)
        self.runs[colour] = grid
        for row in grid:
            self._stretches(row)
        if not shape.run.order.cyclic:
            self._lowest_free_slot(grid)
        if shape.jokers < shape.run.size_min:
            for t in range(len(order)):  # at one rank, jokers above naturals
                for s, low in enumerate(grid):
                    for high in grid[s + 1 :]:
                        if low[t] and high[t] and low[t].j and high[t].n:
                            clauses.append([-low[t].j, -high[t].n])
        else:
            for row in grid:
                self._needs_a_natural(row)

    def _at(self, row: list[RunCell | None], t: int) -> int | None:
        """``p`` at rank position t (None: no run can pass there, or off the end of the order)."""
        if self.shape.run.order.cyclic:
            t %= len(row)
        elif not 0 <= t < len(row):
            return None
        return row[t].p if row[t] else None

    def _stretches(self, row: list[RunCell | None]) -> None:
        """Where a stretch starts, the next ``min − 1`` ranks are taken too."""
        shortest = self.shape.run.size_min
        for t, cell in enumerate(row):
            if cell is None:
                continue
            before = self._at(row, t - 1)
            for i in range(1, shortest):
                after = self._at(row, t + i)
                clause = [-cell.p] + ([before] if before else []) + ([after] if after else [])
                self.clauses.append(clause)

    def _lowest_free_slot(self, grid: list[list[RunCell | None]]) -> None:
        """A stretch starts in slot s + 1 only where slot s is taken: any table can be laid out so,
        giving each new run the lowest slot free where it starts."""
        for low, high in itertools.pairwise(grid):
            for t, cell in enumerate(high):
                if cell is None:
                    continue
                before, below = self._at(high, t - 1), self._at(low, t)
                self.clauses.append([-cell.p] + ([before] if before else []) + ([below] if below else []))

    def _needs_a_natural(self, row: list[RunCell | None]) -> None:
        """With as many jokers as the shortest run, a stretch could be jokers alone: ``h`` — "this
        stretch has had a natural by here" — must hold where the stretch ends."""
        flags: list[int] = [self.pool.new() if cell else 0 for cell in row]
        cyclic = self.shape.run.order.cyclic
        for t, cell in enumerate(row):
            if cell is None:
                continue
            h = flags[t]
            prev = flags[(t - 1) % len(row)] if cyclic or t > 0 else 0
            self.clauses.append([-h, cell.p])
            self.clauses.append([-h] + ([cell.n] if cell.n else []) + ([prev] if prev else []))
            after = self._at(row, t + 1)
            self.clauses.append([-cell.p, h] + ([after] if after else []))

    # -- groups --------------------------------------------------------------------------------------

    def _group(self, rank: str) -> None:
        shape, new, clauses = self.shape, self.pool.new, self.clauses
        colours = [c for c in shape.group.suits if (c, rank) in shape.naturals]
        if not colours:
            return
        room = sum(shape.copies[shape.naturals[(c, rank)]] for c in colours)
        most = min(room, (room + shape.jokers) // shape.group.size_min)  # each group holds a natural
        if most == 0:
            return
        naturals = {
            c: _chain([new() for _ in range(shape.copies[shape.naturals[(c, rank)]])], clauses) for c in colours
        }
        jokers = _chain([new() for _ in range(shape.jokers)], clauses)
        groups = _chain([new() for _ in range(most)], clauses)
        for c, bits in naturals.items():
            self.uses[shape.naturals[(c, rank)]] += bits
            for m, bit in enumerate(bits, 1):  # no colour more often than there are groups
                clauses.append([-bit, groups[m - 1]] if m <= most else [-bit])
        self.joker_uses += jokers
        all_naturals = [b for bits in naturals.values() for b in bits]
        if jokers:  # at least one natural a group
            held = unary_count(all_naturals, most, self.pool, clauses, up=False)
            for k, bit in enumerate(groups, 1):
                clauses.append([-bit, held[k]])
        smallest, largest = shape.group.size_min, shape.group_max
        tiles = unary_count(all_naturals + jokers, largest * most + 1, self.pool, clauses)
        for k, bit in enumerate(groups, 1):  # k groups hold k·min tiles or more
            need = smallest * k
            clauses.append([-bit, tiles[need]] if need < len(tiles) else [-bit])
        for k in range(most + 1):  # more than k·max tiles: more than k groups
            if largest * k + 1 < len(tiles):
                clauses.append([-tiles[largest * k + 1]] + ([groups[k]] if k < most else []))
        self.groups.append(GroupRank(rank, naturals, jokers, groups, tiles))

    # -- counts --------------------------------------------------------------------------------------

    def _counts(self) -> None:
        pool, clauses = self.pool, self.clauses
        self.placed: dict[Face, list[int]] = {}
        for face, lits in self.uses.items():
            copies = self.shape.copies[face]
            ge = unary_count(lits, copies + 1, pool, clauses)
            if len(ge) > copies + 1:
                clauses.append([-ge[copies + 1]])
            self.placed[face] = ge[: copies + 1]
        jokers = self.shape.jokers
        ge = unary_count(self.joker_uses, jokers + 1, pool, clauses)
        if len(ge) > jokers + 1:
            clauses.append([-ge[jokers + 1]])
        self.jokers_placed = ge[: jokers + 1]
        tiles = [b for ge in self.placed.values() for b in ge[1:]] + self.jokers_placed[1:]
        self.on_table = unary_count(tiles, len(tiles), pool, clauses, up=False)

    def threshold(self, points: int) -> tuple[list[list[int]], int | None]:
        """Clauses and a literal forcing the sets on the table to be worth ``points`` or more (a
        run tile counts the rank it stands at, a group tile its group's rank): the initial meld's
        test, made once per target. None: out of reach."""
        items = []
        for _colour, grid in self.runs.items():
            for row in grid:
                items += [
                    (cell.p, int(rank)) for cell, rank in zip(row, self.shape.run.order.ranks, strict=True) if cell
                ]
        for group in self.groups:
            items += [(lit, int(group.rank)) for lit in group.tiles[1:]]
        clauses: list[list[int]] = []
        return clauses, weight_at_least(items, points, self.pool, clauses)


def _chain(bits: list[int], clauses: list[list[int]]) -> list[int]:
    """Unary bits: the (k+1)-th implies the k-th."""
    clauses += [[-b, a] for a, b in itertools.pairwise(bits)]
    return bits
