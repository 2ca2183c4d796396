"""A Rummikub turn as one MaxSAT model: the whole table and the rack, rearranged.

After the initial meld the table may be rearranged freely, so a turn is a partition: every tile
on the table, and some tiles of the rack, into legal sets. The model, over the candidate sets of
the tiles in play (:func:`solver.melding.candidates.candidates`, each verified by the
:class:`~solver.melding.checker.MeldChecker`, the same rules as ``melds check``):

* ``x[c, k]`` — candidate set ``c`` is on the table at least ``k`` times (identical sets may
  stand twice: the tiles come in copies); ``x[c, k+1] → x[c, k]`` keeps the copies in order;
* per tile, the copies the chosen sets use are at least those on the table (no table tile goes
  back to a rack) and at most those on the table and the rack together;
* the objective: the most rack tiles placed, then the most value placed (the numbers printed on
  the rack tiles placed; a joker's number depends on where it stands, so it adds none, as for the
  peer solver): one soft clause per rack tile, on its face's count — "at least k copies of this
  face on the table" — so the optimiser weighs a dozen literals, not every candidate set.

Before the initial meld the table is not touched: the candidates are the rack's own, and the
sets chosen must reach the initial meld's points (:func:`reach`). Going out asks that every rack
tile be placed, a plain SAT question on the same clauses.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Sequence

from solver.core.deck import Face
from solver.core.errors import MeldsError, Undecided
from solver.core.rules import MeldKind
from solver.core.ruleset import Ruleset
from solver.melding.candidates import candidates
from solver.melding.checker import MeldChecker
from solver.sat.budget import Budget
from solver.sat.encodings import TRUE, exact_counter
from solver.sat.pool import VarPool
from solver.sat.solvers import MaxSat, SatSolver

SIZE_WEIGHT = 10_000  # one more tile placed outweighs any difference of value (106 tiles × 13 < 10,000)


def printed_value(face: Face) -> int:
    """What a rack tile adds to the value placed: its number (a joker none)."""
    return int(face.rank) if face.rank is not None else 0


@dataclass(frozen=True)
class TileSet:
    """A set on the table: its tiles in table order, what each stands for, its kind and value."""

    faces: tuple[Face, ...]
    stands_for: tuple[tuple[str, str], ...]  # (colour, number) per tile
    kind: MeldKind
    value: int


@dataclass
class Arrangement:
    """The answer to a turn: the table after it, the rack tiles placed and kept."""

    found: bool | None  # the turn empties the rack (go-out: can it; best: does the best turn); None: undecided
    question: str
    initial: bool  # the turn is the initial meld (the table is not touched)
    table: list[TileSet] = field(default_factory=list)
    new_sets: list[TileSet] = field(default_factory=list)  # sets of the table after that were not before
    placed: list[Face] = field(default_factory=list)
    kept: list[Face] = field(default_factory=list)
    value_placed: int = 0  # the numbers printed on the rack tiles placed
    initial_value: int = 0  # the new sets' value on an initial-meld turn
    seconds: float = 0.0
    sat_calls: int = 0
    candidates: int = 0

    @property
    def solvable(self) -> bool | None:  # the name the puzzle runner reads
        return self.found


def layout(faces: Sequence[Face], kind: MeldKind) -> TileSet:
    """The tiles of a legal set in table order, each with what it stands for, read for the
    most value (a joker at the high end of a run, or in a group's missing colour)."""
    naturals = [f for f in faces if f.rank is not None]
    jokers = [f for f in faces if f.rank is None]
    if kind.shape == "group":
        number = naturals[0].rank
        free = [s for s in kind.suits if s not in {f.suit for f in naturals}]
        ordered = sorted(naturals, key=lambda f: kind.suits.index(f.suit)) + jokers
        identities = [(f.suit, number) for f in naturals] + [(free[i], number) for i in range(len(jokers))]
        return TileSet(tuple(ordered), tuple(identities), kind, int(number) * len(faces))
    order = list(kind.order.ranks)
    colour = naturals[0].suit
    held = {f.rank: f for f in naturals}
    n, best = len(faces), None
    starts = range(len(order)) if kind.order.cyclic else range(len(order) - n + 1)
    for start in starts:
        window = [order[(start + i) % len(order)] for i in range(n)]
        if set(held) <= set(window):
            value = sum(int(r) for r in window)
            if best is None or value > best[0]:
                best = (value, window)
    if best is None:
        raise MeldsError(f"no run of {n} tiles holds {' '.join(sorted(held))}")  # the checker said legal
    value, window = best
    spare = iter(jokers)
    ordered = [held[r] if r in held else next(spare) for r in window]
    return TileSet(tuple(ordered), tuple((colour, r) for r in window), kind, value)


class SetCatalogue:
    """The legal sets of a ruleset met so far, by face multiset (built once per game: a batch or a
    replay meets the same sets again and again)."""

    def __init__(self, ruleset: Ruleset, checker: MeldChecker):
        self.ruleset, self.checker = ruleset, checker
        self._known: dict[tuple[int, ...], TileSet | None] = {}

    def lookup(self, faces: Sequence[Face]) -> TileSet | None:
        """The best-valued legal layout of these tiles, or None when they are no set."""
        key = tuple(sorted(f.index for f in faces))
        if key not in self._known:
            verdict = self.checker.check(list(faces), explain=False)
            best = None
            if verdict.legal:
                for kind in self._readable_kinds(faces):
                    found = layout(faces, kind)
                    if best is None or found.value > best.value:
                        best = found
            self._known[key] = best
        return self._known[key]

    def _readable_kinds(self, faces: Sequence[Face]) -> list[MeldKind]:
        """The kinds these tiles can be laid out as (a joker may turn a group into a run)."""
        naturals = [f for f in faces if f.rank is not None]
        out = []
        for kind in self.ruleset.kinds:
            if not kind.size_min <= len(faces) <= kind.size_max:
                continue
            if kind.shape == "group" and len({f.rank for f in naturals}) == 1 \
                    and len({f.suit for f in naturals}) == len(naturals):
                out.append(kind)
            elif kind.shape == "sequence" and len({f.suit for f in naturals}) == 1 \
                    and len({f.rank for f in naturals}) == len(naturals):
                out.append(kind)
        return out


def reach(items: Sequence[tuple[int, int]], target: int, pool: VarPool, clauses: list) -> int | None:
    """A literal that can be true only when the items chosen (literal, weight) weigh at least
    ``target`` in all: a capped running sum, ``s[v] → s'[v] ∨ (x ∧ s'[v - w])``. Only this
    direction is needed: the literal is asserted, never denied. None: the target is out of reach."""
    if target <= 0:
        return TRUE
    sums: list = [TRUE] + [None] * target  # sums[v]: the items so far weigh at least v (None: cannot)
    for lit, weight in items:
        nxt: list = [TRUE]
        for v in range(1, target + 1):
            keep, step = sums[v], sums[max(0, v - weight)]
            if keep is TRUE:
                nxt.append(TRUE)
                continue
            if step is None:
                nxt.append(keep)
                continue
            out = pool.new()
            tail = [keep] if keep is not None else []
            clauses.append([-out, lit] + tail)
            if step is not TRUE:
                clauses.append([-out, step] + tail)
            nxt.append(out)
        sums = nxt
    return sums[target]


class TurnModel:
    """One turn's clauses: candidate sets, copies, tile counts; asked for the best turn or going
    out (see the module docstring)."""

    def __init__(self, catalogue: SetCatalogue, hand: Sequence[Face], table: Sequence[Sequence[Face]],
                 has_melded: bool, initial_points: int):
        self.catalogue, self.ruleset = catalogue, catalogue.ruleset
        self.hand, self.table = list(hand), [list(s) for s in table]
        self.initial = not has_melded
        self.initial_points = initial_points
        self.before = [self._table_set(s) for s in self.table]
        on_table = Counter(f for s in self.table for f in s) if not self.initial else Counter()
        self.must = on_table  # copies that must stay on the table
        self.avail = on_table + Counter(self.hand)  # copies that may be placed
        self.pool = VarPool()
        self.clauses: list[list[int]] = []
        self.sets: list[tuple[TileSet, int, int]] = []  # (set, copy k, variable)
        self._build()

    def _table_set(self, faces: Sequence[Face]) -> TileSet:
        found = self.catalogue.lookup(faces)
        if found is None:
            shown = " ".join(self.catalogue.checker.notation.format(f) for f in faces)
            raise MeldsError(f"the table set {shown} is not a legal set: a table holds legal sets only")
        return found

    def _build(self) -> None:
        faces = self.ruleset.deck.faces
        by_index = {f.index: f for f in faces}
        distinct = [f for f in self.avail if f.rank is not None]
        jokers = [f for f in self.avail for _ in range(self.avail[f]) if f.rank is None]
        found = candidates(self.ruleset, distinct + jokers)
        self.candidate_count = len(found)
        uses: dict[Face, list[int]] = {f: [] for f in self.avail}
        for cand in found:
            tiles = [by_index[i] for i in cand.key]
            tile_set = self.catalogue.lookup(tiles)
            if tile_set is None:
                continue
            need = Counter(tiles)
            copies = min(self.avail[f] // n for f, n in need.items())
            previous = None
            for k in range(1, copies + 1):
                x = self.pool.new()
                self.sets.append((tile_set, k, x))
                if previous is not None:
                    self.clauses.append([-x, previous])
                previous = x
                for f, n in need.items():
                    uses[f] += [x] * n
        self.counters: dict[Face, list] = {}
        for f, lits in uses.items():
            top = self.avail[f] + 1
            ge = self.counters[f] = exact_counter(lits, top, self.pool, self.clauses)
            if self.must[f]:
                at_least = ge[self.must[f]]
                self.clauses.append([at_least] if at_least is not None else [])
            if ge[top] is not None:
                self.clauses.append([-ge[top]])
        self.uses = uses
        if self.initial:
            self.threshold = reach([(x, s.value) for s, _, x in self.sets], self.initial_points, self.pool,
                                   self.clauses)

    # -- questions ----------------------------------------------------------------------------------

    def _hard(self) -> list[list[int]] | None:
        """The turn's clauses, with the initial meld's points when it is one (None: out of reach)."""
        if not self.initial:
            return list(self.clauses)
        return None if self.threshold is None else self.clauses + [[self.threshold]]

    def _satisfy(self, clauses: list[list[int]], question: str, budget: Budget) -> Arrangement:
        with SatSolver(clauses) as solver:
            if not solver.solve(budget=budget):
                return self._none(question)
            return self._decode(solver.true(), question)

    def best(self, budget: Budget) -> Arrangement:
        clauses = self._hard()
        if clauses is None:
            return self._none("best")
        soft = []
        for f, held in Counter(self.hand).items():  # the k-th copy of a rack face placed
            ge = self.counters[f]
            soft += [([ge[self.must[f] + k]], SIZE_WEIGHT + printed_value(f)) for k in range(1, held + 1)
                     if ge[self.must[f] + k] is not None]
        if not soft:  # no rack tile can go down anywhere: the table as it may stand, unchanged or not
            return self._satisfy(clauses, "best", budget)
        with MaxSat(clauses, soft, top=self.pool.top) as maxsat:
            model = maxsat.optimum(budget)
        if model is None:
            return self._none("best")
        return self._decode(set(lit for lit in model if lit > 0), "best")

    def go_out(self, budget: Budget) -> Arrangement:
        clauses = self._hard()
        if clauses is None:
            return self._none("go-out")
        for f in Counter(self.hand):  # every copy of the rack's faces placed: the counter's top cell
            every = self.counters[f][self.avail[f]]
            clauses.append([every] if every is not None else [])
        return self._satisfy(clauses, "go-out", budget)

    def _none(self, question: str) -> Arrangement:
        return Arrangement(False, question, self.initial, list(self.before), [], [], list(self.hand),
                           candidates=self.candidate_count)

    def _decode(self, true: set[int], question: str) -> Arrangement:
        chosen = [s for s, _, x in self.sets if x in true]
        after = Counter(f for s in chosen for f in s.faces)
        placed_count = after - self.must
        kept = Counter(self.hand) - placed_count
        placed, left = [], Counter(placed_count)
        for f in self.hand:  # in the rack's order
            if left[f]:
                placed.append(f)
                left[f] -= 1
        new_value = sum(s.value for s in chosen)
        table = (list(self.before) + chosen) if self.initial else chosen
        value_placed = sum(printed_value(f) for f in placed)
        found = not kept
        unchanged = Counter(_key(s) for s in self.before)
        new_sets = []
        for s in table:
            if unchanged[_key(s)]:
                unchanged[_key(s)] -= 1
            else:
                new_sets.append(s)
        return Arrangement(found, question, self.initial, table, new_sets, placed, list(kept.elements()),
                           value_placed, new_value if self.initial else 0, candidates=self.candidate_count)


def _key(tile_set: TileSet) -> tuple[int, ...]:
    return tuple(sorted(f.index for f in tile_set.faces))


def solve_turn(catalogue: SetCatalogue, hand: Sequence[Face], table: Sequence[Sequence[Face]], has_melded: bool,
               initial_points: int, question: str, max_seconds: float | None = None) -> Arrangement:
    """The best turn (most rack tiles placed, then most value) or whether the rack can go out."""
    budget = Budget(max_seconds)
    calls = MaxSat.calls
    try:
        model = TurnModel(catalogue, hand, table, has_melded, initial_points)
        answer = model.go_out(budget) if question == "go-out" else model.best(budget)
    except Undecided:
        answer = Arrangement(None, question, not has_melded, kept=list(hand))
    answer.seconds = round(budget.elapsed, 4)
    answer.sat_calls = MaxSat.calls - calls if question != "go-out" else 1
    return answer
