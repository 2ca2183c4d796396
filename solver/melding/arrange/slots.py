"""A table as one compact SAT model per ruleset: cards counted by face, runs in slots, groups by
counts — built once, every turn asked with assumptions on one live solver.

Where the candidate model (:mod:`solver.melding.arrange.bycandidates`) names every candidate meld,
this model grows with the deck's faces, not with the subsets of the cards in play, and it is the
same for every turn of a ruleset: a turn only sets, by assumptions, how many copies of each face lie
on the table (they must stay) and in the hand (they may go down). Its parts, all read from the
ruleset's two kinds (:func:`solver.melding.arrange.shape.shape_of`):

* **runs** — for each suit, ``S`` slots (the most copies of a face plus the wilds: the most runs
  of one suit that can pass one rank) along the run kind's rank order; in each slot and at each
  rank, "a run passes here" ``p`` is a natural card ``n`` or a wild ``j`` (never both). A slot's
  stretch of consecutive ranks is one run, so it must be at least the run kind's shortest: where a
  stretch starts, the next ``min − 1`` ranks are taken. Symmetry broken: a stretch starts in slot
  s + 1 only where slot s is taken (new runs take the lowest free slot), and at one rank the
  wilds sit in higher slots than the naturals (swapping them changes nothing).
* **groups** — for each rank, counts only: ``g`` the naturals of each suit in groups, ``jg`` the
  wilds in groups, ``k`` the number of groups. Cards of one rank split into k groups of distinct
  suits exactly when no suit has more than k, there are at least k naturals (a meld holds one),
  and k·min ≤ cards ≤ k·max (max: the kind's, at most the suits) — no group slots to permute.
* **counts** — per face a totalizer ``P`` of its naturals in runs and groups (at most its copies),
  a totalizer of the wilds placed, and one over every card on the table after the turn: assuming
  its output "at least k" asks for k cards, which is how the optimiser climbs.

A meld needs a natural card: with fewer wilds than the shortest run that holds by itself; with
more, each stretch carries a flag "a natural so far" that must be set where the stretch ends.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from solver.core.deck import Face
from solver.melding.arrange.shape import Shape
from solver.sat.pool import VarPool
from solver.sat.search import unary_count, weight_at_least


@dataclass
class RunCell:
    """One slot at one rank: ``p`` a run passes here; ``n`` it is a natural, ``j`` a wild
    (0: that cannot be)."""

    p: int
    n: int
    j: int


@dataclass
class GroupRank:
    """The groups of one rank: each suit's naturals in groups (unary, per suit), the wilds in
    groups (unary), the number of groups (unary) and the cards in groups (a totalizer)."""

    rank: str
    naturals: dict[str, list[int]]
    wilds: list[int]
    groups: list[int]
    cards: list[int]


class SlotModel:
    """The compact model of one ruleset's tables (see the module docstring). Attributes the
    turn reads: ``placed[face]`` (``placed[face][k]``: at least k copies on the table after the
    turn), ``wilds_placed``, ``on_table`` (at least k cards in all), the run cells and the group
    counts (to read a model back into melds), and ``clauses``."""

    def __init__(self, shape: Shape):
        self.shape = shape
        self.pool = VarPool()
        self.clauses: list[list[int]] = []
        self.uses: dict[Face, list[int]] = {f: [] for f in shape.naturals.values()}
        self.wild_uses: list[int] = []
        self.runs: dict[str, list[list[RunCell | None]]] = {}  # suit -> slot -> rank position
        self.groups: list[GroupRank] = []
        if shape.run is not None:
            for suit in shape.run.suits:
                self._suit(suit)
        if shape.group is not None and shape.group_max >= shape.group.size_min:
            for rank in shape.group.ranks:
                self._group(rank)
        self._counts()

    # -- runs ----------------------------------------------------------------------------------------

    def _suit(self, suit: str) -> None:
        shape, new, clauses = self.shape, self.pool.new, self.clauses
        order = shape.order.ranks
        faces = [shape.naturals.get((suit, r)) for r in order]
        if not any(faces):
            return
        slots = max(shape.copies[f] for f in faces if f) + shape.wilds
        grid: list[list[RunCell | None]] = []
        for _ in range(slots):
            row: list[RunCell | None] = []
            for face in faces:
                n = new() if face else 0
                j = new() if shape.wilds else 0
                if n and j:
                    p = new()
                    clauses += [[-p, n, j], [-n, p], [-j, p], [-n, -j]]
                else:
                    p = n or j
                row.append(RunCell(p, n, j) if p else None)
                if face is not None and n:
                    self.uses[face].append(n)
                if j:
                    self.wild_uses.append(j)
            grid.append(row)
        self.runs[suit] = grid
        for row in grid:
            self._stretches(row)
        if not shape.order.cyclic:
            self._lowest_free_slot(grid)
        if shape.wilds < shape.run_kind.size_min:
            for t in range(len(order)):  # at one rank, wilds above naturals
                for s, low_row in enumerate(grid):
                    low = low_row[t]
                    for high_row in grid[s + 1 :]:
                        high = high_row[t]
                        if low is not None and high is not None and low.j and high.n:
                            clauses.append([-low.j, -high.n])
        else:
            for row in grid:
                self._needs_a_natural(row)

    def _at(self, row: list[RunCell | None], t: int) -> int | None:
        """``p`` at rank position t (None: no run can pass there, or off the end of the order)."""
        if self.shape.order.cyclic:
            t %= len(row)
        elif not 0 <= t < len(row):
            return None
        cell = row[t]
        return cell.p if cell is not None else None

    def _stretches(self, row: list[RunCell | None]) -> None:
        """Where a stretch starts, the next ``min − 1`` ranks are taken too."""
        shortest = self.shape.run_kind.size_min
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
        """With as many wilds as the shortest run, a stretch could be wilds alone: ``h`` — "this
        stretch has had a natural by here" — must hold where the stretch ends."""
        flags: list[int] = [self.pool.new() if cell else 0 for cell in row]
        cyclic = self.shape.order.cyclic
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
        group = shape.group_kind
        suits = [c for c in group.suits if (c, rank) in shape.naturals]
        if not suits:
            return
        room = sum(shape.copies[shape.naturals[(c, rank)]] for c in suits)
        most = min(room, (room + shape.wilds) // group.size_min)  # each group holds a natural
        if most == 0:
            return
        naturals = {c: _chain([new() for _ in range(shape.copies[shape.naturals[(c, rank)]])], clauses) for c in suits}
        wilds = _chain([new() for _ in range(shape.wilds)], clauses)
        groups = _chain([new() for _ in range(most)], clauses)
        for c, bits in naturals.items():
            self.uses[shape.naturals[(c, rank)]] += bits
            for m, bit in enumerate(bits, 1):  # no suit more often than there are groups
                clauses.append([-bit, groups[m - 1]] if m <= most else [-bit])
        self.wild_uses += wilds
        all_naturals = [b for bits in naturals.values() for b in bits]
        if wilds:  # at least one natural a group
            held = unary_count(all_naturals, most, self.pool, clauses, up=False)
            for k, bit in enumerate(groups, 1):
                clauses.append([-bit, held[k]])
        smallest, largest = group.size_min, shape.group_max
        cards = unary_count(all_naturals + wilds, largest * most + 1, self.pool, clauses)
        for k, bit in enumerate(groups, 1):  # k groups hold k·min cards or more
            need = smallest * k
            clauses.append([-bit, cards[need]] if need < len(cards) else [-bit])
        for k in range(most + 1):  # more than k·max cards: more than k groups
            if largest * k + 1 < len(cards):
                clauses.append([-cards[largest * k + 1]] + ([groups[k]] if k < most else []))
        self.groups.append(GroupRank(rank, naturals, wilds, groups, cards))

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
        wilds = self.shape.wilds
        ge = unary_count(self.wild_uses, wilds + 1, pool, clauses)
        if len(ge) > wilds + 1:
            clauses.append([-ge[wilds + 1]])
        self.wilds_placed = ge[: wilds + 1]
        cards = [b for ge in self.placed.values() for b in ge[1:]] + self.wilds_placed[1:]
        self.on_table = unary_count(cards, len(cards), pool, clauses, up=False)

    def threshold(self, points: int) -> tuple[list[list[int]], int | None]:
        """Clauses and a literal forcing the melds on the table to be worth ``points`` or more (a
        run's card counts the value of the rank it stands at, a group's card its group's rank): the
        initial meld's test, made once per target. None: out of reach."""
        values = self.shape.values
        items = []
        for grid in self.runs.values():
            for row in grid:
                items += [
                    (cell.p, values[rank]) for cell, rank in zip(row, self.shape.order.ranks, strict=True) if cell
                ]
        for group in self.groups:
            items += [(lit, values[group.rank]) for lit in group.cards[1:]]
        clauses: list[list[int]] = []
        return clauses, weight_at_least(items, points, self.pool, clauses)


def _chain(bits: list[int], clauses: list[list[int]]) -> list[int]:
    """Unary bits: the (k+1)-th implies the k-th."""
    clauses += [[-b, a] for a, b in itertools.pairwise(bits)]
    return bits
