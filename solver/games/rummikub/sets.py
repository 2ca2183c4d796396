"""Rummikub's sets and a turn's answer: a set laid out (each tile with what it stands for, its
value), the catalogue of legal sets a game has met, and the :class:`Arrangement` a turn gives.

A set is read by the rules of the ruleset's kinds. For rulesets of the compact shape (one group
kind, one run kind, a joker for any tile: :func:`solver.games.rummikub.slots.shape_of`) the reading
is direct — same number and distinct colours, or one colour and a window of the rank order — and
agrees with the :class:`~solver.melding.meld.checker.MeldChecker` (tested set by set); other rulesets ask
the checker, as ``melds check`` does.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from solver.core.deck import Face
from solver.core.errors import MeldsError
from solver.core.rules import MeldKind
from solver.core.ruleset import Ruleset
from solver.games.rummikub.slots import Shape, shape_of
from solver.melding.meld.checker import MeldChecker


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
class Bounds:
    """Where an undecided best turn's optimum lies: rack tiles placed and value placed, each
    ``(at least, at most)``; the answer holds the best arrangement found so far."""

    tiles: tuple[int, int]
    value: tuple[int, int] | None  # None: not searched yet


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
    bounds: Bounds | None = None  # an undecided best turn: what is known of the optimum

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


def read_set(faces: Sequence[Face], kind: MeldKind, shape: Shape) -> TileSet | None:
    """These tiles as a set of ``kind`` of a compact-shape ruleset, read for the most value; None
    when they are not one: a size the kind allows, numbered tiles and jokers only, a numbered tile
    among them, and either one number in distinct colours (a joker taking a missing colour) or one
    colour whose numbers, jokers in the gaps, fill a window of the rank order."""
    n = len(faces)
    if not kind.size_min <= n <= kind.size_max:
        return None
    naturals = [f for f in faces if f != shape.joker]
    if not naturals or any(shape.naturals.get((f.suit, f.rank)) != f for f in naturals):
        return None
    suits = {f.suit for f in naturals}
    if kind.shape == "group":
        if (
            len({f.rank for f in naturals}) != 1
            or len(suits) != len(naturals)
            or not suits <= set(kind.suits)
            or naturals[0].rank not in kind.ranks
            or n > len(kind.suits)
        ):
            return None
        return layout(faces, kind)
    order = kind.order.ranks
    ranks = {f.rank for f in naturals}
    if len(suits) != 1 or not suits <= set(kind.suits) or len(ranks) != len(naturals) or not ranks <= set(order):
        return None
    positions = sorted(order.index(r) for r in ranks)
    if kind.order.cyclic:  # the smallest arc holding them all: the circle less its widest gap
        gaps = [
            (positions[(i + 1) % len(positions)] - positions[i]) % len(order) or len(order)
            for i in range(len(positions))
        ]
        span = len(order) - max(gaps) + 1
    else:
        span = positions[-1] - positions[0] + 1
    if span > n or n > len(order):
        return None
    return layout(faces, kind)


class SetCatalogue:
    """The legal sets of a ruleset met so far, by face multiset (built once per game: a batch or a
    replay meets the same sets again and again); it also keeps the game's compiled turn models."""

    def __init__(self, ruleset: Ruleset, checker: MeldChecker):
        self.ruleset, self.checker = ruleset, checker
        self.shape = shape_of(ruleset)
        self.models: dict = {}  # the turn models (solver.games.rummikub.arrange), made on first use
        self._known: dict[tuple[int, ...], TileSet | None] = {}

    def lookup(self, faces: Sequence[Face]) -> TileSet | None:
        """The best-valued legal layout of these tiles, or None when they are no set."""
        key = tuple(sorted(f.index for f in faces))
        found = self._known.get(key, False)
        if found is False:
            found = self._known[key] = self._read(faces)
        return found

    def _read(self, faces: Sequence[Face]) -> TileSet | None:
        best = None
        if self.shape is not None:
            for kind in self.ruleset.kinds:
                found = read_set(faces, kind, self.shape)
                if found is not None and (best is None or found.value > best.value):
                    best = found
            return best
        if not self.checker.check(list(faces), explain=False).legal:
            return None
        for kind in self._readable_kinds(faces):
            found = layout(faces, kind)
            if best is None or found.value > best.value:
                best = found
        return best

    def _readable_kinds(self, faces: Sequence[Face]) -> list[MeldKind]:
        """The kinds these tiles can be laid out as (a joker may turn a group into a run)."""
        naturals = [f for f in faces if f.rank is not None]
        out = []
        for kind in self.ruleset.kinds:
            if not kind.size_min <= len(faces) <= kind.size_max:
                continue
            if (
                kind.shape == "group"
                and len({f.rank for f in naturals}) == 1
                and len({f.suit for f in naturals}) == len(naturals)
            ) or (
                kind.shape == "sequence"
                and len({f.suit for f in naturals}) == 1
                and len({f.rank for f in naturals}) == len(naturals)
            ):
                out.append(kind)
        return out


def settle(
    question: str,
    hand: Sequence[Face],
    before: Sequence[TileSet],
    chosen: Sequence[TileSet],
    initial: bool,
    must: Counter,
) -> Arrangement:
    """The arrangement a turn leaves: ``chosen`` is the whole table after it (after the initial
    meld: the new sets, the old ones standing as they were); ``must`` the tiles that were on the
    table before and stay. The rack tiles placed are what the table holds beyond them."""
    after = Counter(f for s in chosen for f in s.faces)
    placed_count = after - must
    kept = Counter(hand) - placed_count
    placed, left = [], Counter(placed_count)
    for f in hand:  # in the rack's order
        if left[f]:
            placed.append(f)
            left[f] -= 1
    table = (list(before) + list(chosen)) if initial else list(chosen)
    unchanged = Counter(set_key(s) for s in before)
    new_sets = []
    for s in table:
        if unchanged[set_key(s)]:
            unchanged[set_key(s)] -= 1
        else:
            new_sets.append(s)
    return Arrangement(
        not kept,
        question,
        initial,
        table,
        new_sets,
        placed,
        list(kept.elements()),
        sum(printed_value(f) for f in placed),
        sum(s.value for s in chosen) if initial else 0,
    )


def set_key(tile_set: TileSet) -> tuple[int, ...]:
    return tuple(sorted(f.index for f in tile_set.faces))
