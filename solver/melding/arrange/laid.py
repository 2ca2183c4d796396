"""Melds laid out on a rearranged table and a turn's answer: a meld laid out (each card with what it
stands for, its value), the catalogue of legal melds a game has met, and the :class:`Arrangement`
a turn gives.

A meld's *value* is what its cards stand for: the values of the ranks (a wild counts the rank it
stands for), read for the most value (a wild at the high end of a run, or in a group's missing
suit). For rulesets of the compact shape (:func:`solver.melding.arrange.shape.shape_of`) a meld is
read directly — one rank in distinct suits, or one suit and a window of the rank order — and
agrees with the :class:`~solver.melding.meld.checker.MeldChecker` (tested meld by meld); other
rulesets ask the checker, as ``melds check`` does, for its reading of the most value.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from solver.core.deck import Face
from solver.core.errors import MeldsError
from solver.core.rules import MeldKind
from solver.core.ruleset import Ruleset
from solver.melding.arrange.shape import Shape, rank_values, shape_of
from solver.melding.meld.checker import MeldChecker
from solver.melding.meld.encode import Reading


@dataclass(frozen=True)
class LaidMeld:
    """A meld on the table: its cards in table order, what each stands for, its kind and value."""

    faces: tuple[Face, ...]
    stands_for: tuple[tuple[str, str], ...]  # (suit, rank) per card
    kind: MeldKind
    value: int


@dataclass
class Bounds:
    """Where an undecided best turn's optimum lies: hand cards placed and value placed, each
    ``(at least, at most)``; the answer holds the best arrangement found so far."""

    cards: tuple[int, int]
    value: tuple[int, int] | None  # None: not searched yet


@dataclass
class Arrangement:
    """The answer to a turn: the table after it, the hand's cards placed and kept."""

    found: bool | None  # the turn empties the hand (go-out: can it; best: does the best turn); None: undecided
    question: str
    initial: bool  # the turn is the initial meld (the table is not touched)
    table: list[LaidMeld] = field(default_factory=list)
    new_melds: list[LaidMeld] = field(default_factory=list)  # melds of the table after that were not before
    placed: list[Face] = field(default_factory=list)
    kept: list[Face] = field(default_factory=list)
    value_placed: int = 0  # the values printed on the hand's cards placed (a wild none)
    initial_value: int = 0  # the new melds' value on an initial-meld turn
    seconds: float = 0.0
    sat_calls: int = 0
    candidates: int = 0
    bounds: Bounds | None = None  # an undecided best turn: what is known of the optimum

    @property
    def solvable(self) -> bool | None:  # the name the puzzle runner reads
        return self.found


class Cards:
    """What the turn counts of a ruleset's cards: the ranks' values, and which cards are wilds
    only (no kind reads them as themselves): a wild placed adds nothing to the value placed, its
    rank depending on where it stands."""

    def __init__(self, ruleset: Ruleset):
        self.values = rank_values(ruleset)
        natural = {c for k in ruleset.kinds for r in k.roles if not r.role.wild for c in r.role.classes}
        wild = {c for k in ruleset.kinds for r in k.roles if r.role.wild for c in r.role.classes}
        faces = ruleset.deck.faces
        self.wild_only = frozenset(f for f in faces if f.cls in wild and f.cls not in natural)
        self.dual = frozenset(f for f in faces if f.cls in wild and f.cls in natural)
        # by face index (the turn asks these of every card it reads)
        self._wild = [f in self.wild_only for f in faces]
        self._printed = [0 if self._wild[f.index] or f.rank is None else self.values.get(f.rank, 0) for f in faces]
        self._roles: dict[tuple[str, int, bool], str] = {}

    def printed(self, face: Face) -> int:
        """What a hand card adds to the value placed: its rank's value (a wild only: none)."""
        return self._printed[face.index]

    def is_wild(self, face: Face) -> bool:
        return self._wild[face.index]

    def stands_in(self, face: Face, identity: tuple[str, str]) -> bool:
        """Does the card stand in for another in a laid-out meld (a wild, or a card that may be
        wild or itself standing for another card)?"""
        return self._wild[face.index] or (face.suit, face.rank) != identity

    def role(self, kind: MeldKind, face: Face, wild: bool) -> str:
        """The role a card plays in a laid-out meld: the kind's first wild role for it, or its natural."""
        key = (kind.id, face.index, wild)
        found = self._roles.get(key)
        if found is None:
            found = self._roles[key] = next(
                (r.role.id for r in kind.roles if r.applies(face) and r.role.wild == wild), "natural"
            )
        return found


def identity(face: Face) -> tuple[str, str]:
    """A natural card's own (suit, rank)."""
    if face.suit is None or face.rank is None:
        raise AssertionError(f"a natural card of a laid-out meld has a suit and a rank: {face}")
    return face.suit, face.rank


def layout(faces: Sequence[Face], kind: MeldKind, cards: Cards) -> LaidMeld:
    """The cards of a legal meld in table order, each with what it stands for, read for the most
    value (a wild at the high end of a run, or in a group's missing suit). Cards other than
    wilds only stand for themselves."""
    values = cards.values
    naturals = [f for f in faces if not cards.is_wild(f)]
    wilds = [f for f in faces if cards.is_wild(f)]
    if kind.shape == "group":  # the naturals in the kind's order of suits, then the wilds in the suits left
        own = sorted((identity(f) for f in naturals), key=lambda ident: kind.suits.index(ident[0]))
        rank = own[0][1]
        free = [s for s in kind.suits if s not in {suit for suit, _ in own}]
        ordered = sorted(naturals, key=lambda f: kind.suits.index(identity(f)[0])) + wilds
        identities = own + [(free[i], rank) for i in range(len(wilds))]
        return LaidMeld(tuple(ordered), tuple(identities), kind, values[rank] * len(faces))
    own = [identity(f) for f in naturals]
    if kind.order is None:
        raise AssertionError("a sequence kind has an order")
    order, cyclic = list(kind.order.ranks), kind.order.cyclic
    suit = own[0][0]
    held = {rank: f for (_, rank), f in zip(own, naturals, strict=True)}
    n, best = len(faces), None
    starts = range(len(order)) if cyclic else range(len(order) - n + 1)
    for start in starts:
        window = [order[(start + i) % len(order)] for i in range(n)]
        if set(held) <= set(window):
            value = sum(values[r] for r in window)
            if best is None or value > best[0]:
                best = (value, window)
    if best is None:
        raise MeldsError(f"no run of {n} cards holds {' '.join(sorted(held))}")  # the checker said legal
    value, window = best
    spare = iter(wilds)
    ordered = [held[r] if r in held else next(spare) for r in window]
    return LaidMeld(tuple(ordered), tuple((suit, r) for r in window), kind, value)


def read_laid(faces: Sequence[Face], kind: MeldKind, shape: Shape, cards: Cards) -> LaidMeld | None:
    """These cards as a meld of ``kind`` of a compact-shape ruleset, read for the most value; None
    when they are not one: a size the kind allows, naturals and wilds only, a natural among them,
    and either one rank in distinct suits (a wild taking a missing suit) or one suit whose ranks,
    wilds in the gaps, fill a window of the rank order."""
    n = len(faces)
    if not kind.size_min <= n <= kind.size_max:
        return None
    naturals = [f for f in faces if f != shape.wild]
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
        return layout(faces, kind, cards)
    order = shape.order.ranks
    ranks = {f.rank for f in naturals}
    if len(suits) != 1 or not suits <= set(kind.suits) or len(ranks) != len(naturals) or not ranks <= set(order):
        return None
    positions = sorted(order.index(r) for r in ranks)
    if shape.order.cyclic:  # the smallest arc holding them all: the circle less its widest gap
        gaps = [
            (positions[(i + 1) % len(positions)] - positions[i]) % len(order) or len(order)
            for i in range(len(positions))
        ]
        span = len(order) - max(gaps) + 1
    else:
        span = positions[-1] - positions[0] + 1
    if span > n or n > len(order):
        return None
    return layout(faces, kind, cards)


class MeldCatalogue:
    """The legal melds of a ruleset met so far, by face multiset (built once per game: a batch or a
    replay meets the same melds again and again); it also keeps the game's compiled turn models."""

    def __init__(self, ruleset: Ruleset, checker: MeldChecker):
        self.ruleset, self.checker = ruleset, checker
        self.cards = Cards(ruleset)
        self.shape = shape_of(ruleset)
        self.models: dict[Any, Any] = {}  # the turn models (solver.melding.arrange.solve), made on first use
        self._known: dict[tuple[int, ...], LaidMeld | None] = {}

    def lookup(self, faces: Sequence[Face]) -> LaidMeld | None:
        """The best-valued legal layout of these cards, or None when they are no meld."""
        key = tuple(sorted(f.index for f in faces))
        if key not in self._known:
            self._known[key] = self._read(faces)
        return self._known[key]

    def _read(self, faces: Sequence[Face]) -> LaidMeld | None:
        best = None
        if self.shape is not None:
            for kind in self.ruleset.kinds:
                found = read_laid(faces, kind, self.shape, self.cards)
                if found is not None and (best is None or found.value > best.value):
                    best = found
            return best
        verdict, _, reading = self.checker.best_reading(list(faces), worth=self._worth)
        return self._as_read(reading) if verdict.legal else None

    def _worth(self, reading: Reading) -> int:
        """A reading's value: the values of the ranks its cards stand for."""
        return sum(self.cards.values.get(p.identity[1], 0) for p in reading.placements)

    def _as_read(self, reading: Reading) -> LaidMeld:
        """A meld as the checker reads it, its cards in the reading's order (a sequence's along
        its window, a group's by suit)."""
        identities = tuple(p.identity for p in reading.placements)
        faces = tuple(p.face for p in reading.placements)
        return LaidMeld(faces, identities, reading.kind, self._worth(reading))


def settle(
    question: str,
    hand: Sequence[Face],
    before: Sequence[LaidMeld],
    chosen: Sequence[LaidMeld],
    initial: bool,
    must: Counter[Face],
    cards: Cards,
) -> Arrangement:
    """The arrangement a turn leaves: ``chosen`` is the whole table after it (before the initial
    meld is made: the new melds, the old ones standing as they were); ``must`` the cards that were
    on the table before and stay. The hand's cards placed are what the table holds beyond them."""
    after = Counter(f for s in chosen for f in s.faces)
    placed_count = after - must
    kept = Counter(hand) - placed_count
    placed, left = [], Counter(placed_count)
    for f in hand:  # in the hand's order
        if left[f]:
            placed.append(f)
            left[f] -= 1
    table = (list(before) + list(chosen)) if initial else list(chosen)
    unchanged = Counter(meld_key(s.faces) for s in before)
    new_melds = []
    for s in table:
        if unchanged[meld_key(s.faces)]:
            unchanged[meld_key(s.faces)] -= 1
        else:
            new_melds.append(s)
    return Arrangement(
        not kept,
        question,
        initial,
        table,
        new_melds,
        placed,
        list(kept.elements()),
        sum(cards.printed(f) for f in placed),
        sum(s.value for s in chosen) if initial else 0,
    )


def meld_key(faces: Sequence[Face]) -> tuple[int, ...]:
    """A meld as a multiset of faces (two melds of the same cards are one whatever their order)."""
    return tuple(sorted(f.index for f in faces))
