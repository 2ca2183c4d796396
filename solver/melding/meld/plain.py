"""What cards read as under *plain* kinds, decided by counting instead of asking SAT.

A kind is plain when each of its role entries makes a card either one card (its own suit and rank,
or the one card its chosen card makes it stand for) or a wild that may be any card of the kind
(every suit of the kind, every rank of its order or ranks), under no condition but the query's
chosen card: no role kept to some sizes or needing another class beside it, no short form, no
distinction rule; a group, identical cards, a flush, or a sequence whose suit stays the same or is
free (no cycle, one card a place). Most rummies' kinds are plain (a run, a set, jokers, a cut joker).

Then a kind reads the cards in a *frame* — a rank for a group, a suit and a rank for identical
cards, a suit for a flush, a window of the order (and a suit) for a sequence — when every card is
natural there or may be wild, and the frame's places hold the naturals (one a place where the kind
keeps identities distinct): the fewest wilds are the cards left over, at least the kind's own
minimum, and the frames are counted through. The reading has the fewest wilds of any frame, as the
SAT models' (:mod:`solver.melding.meld.encode`) fewest-wilds reading has; which free place a wild
takes is this module's choice (the first), where the solver's was its own.

:class:`MeldChecker` asks this for unordered questions that need no explanation — what a turn
verifies, what a search weighs — and the SAT models for the rest; tests/test_plain_check.py
compares both on every plain bundled ruleset.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from solver.core.deck import Face
from solver.core.rules import MeldKind
from solver.melding.meld.encode import Placement, Reading
from solver.melding.meld.gate import RoleGate


@dataclass(frozen=True)
class View:
    """What a card may be in a kind under the query's parameters: one natural identity (with the
    role that gives it) or none, and the wild role open to it or none."""

    natural: tuple[str | None, str | None] | None
    natural_role: str | None
    wild_role: str | None


NOT_PLAIN = View(None, None, None)  # a card no plain view covers (the SAT models answer)


def plain_kind(kind: MeldKind) -> bool:
    """The kind's shape and rules are ones :class:`PlainReader` counts (see the module's docstring)."""
    if kind.short_form or kind.distinguish or not kind.roles or (kind.wilds is not None and kind.wilds.apart):
        return False
    if any(e.sizes is not None or e.role.requires_in_meld is not None for e in kind.roles):
        return False
    if kind.shape == "sequence":
        order = kind.order
        return (
            order is not None
            and kind.distinct
            and not kind.suit_step.cycle
            and not (order.cyclic and len(set(order.ranks)) != len(order.ranks))
        )
    return kind.shape in ("group", "identical", "flush")


class PlainReader:
    """The fewest-wilds reading of cards by each plain kind, per query (views remembered per
    kind, face and parameters)."""

    def __init__(self, gate: RoleGate):
        self.gate = gate
        self._views: dict[tuple, View] = {}
        self._read: dict[tuple, View] = {}  # by kind, face and what its roles read of the parameters
        self._frame_index: dict[tuple[str, int], tuple[list[_Frame], dict[tuple, list[int]]]] = {}

    def view(self, kind: MeldKind, face: Face, params: Mapping[str, Any] | None, key: Any) -> View:
        found = self._views.get((kind.id, face.index, key))
        if found is None:
            if len(self._views) > 65536:
                self._views.clear()
            read = (kind.id, face.index, self.gate.reads(kind, face, params))  # the same under parameters read alike
            found = self._read.get(read)
            if found is None:
                found = self._read[read] = self._view(kind, face, params)
            self._views[(kind.id, face.index, key)] = found
        return found

    def _view(self, kind: MeldKind, face: Face, params: Mapping[str, Any] | None) -> View:
        ranks = set(kind.order.ranks if kind.shape == "sequence" and kind.order else kind.ranks)
        natural: tuple[str | None, str | None] | None = None
        natural_role = wild_role = None
        for i, entry in enumerate(kind.roles):
            if not entry.applies(face) or not self.gate.open(kind, i, face, params):
                continue
            role = entry.role
            suits, their_ranks = self.gate.identities(kind, i, face, params) or (
                role.suits_for(face),
                role.ranks_for(face),
            )
            if role.wild:
                if not (set(kind.suits) <= set(suits) and ranks <= set(their_ranks)):
                    return NOT_PLAIN  # a wild kept to some cards of the kind
                wild_role = wild_role or role.id
                continue
            if len(suits) != 1 or len(their_ranks) != 1:
                return NOT_PLAIN  # a card that may be one of several cards
            identity = (suits[0], their_ranks[0])
            if identity[0] not in kind.suits or identity[1] not in ranks:
                continue
            if natural is not None and natural != identity:
                return NOT_PLAIN
            natural, natural_role = identity, natural_role or role.id
        return View(natural, natural_role, wild_role)

    def read(
        self, kind: MeldKind, cards: Sequence[tuple[Face, int]], params: Mapping[str, Any] | None, key: Any
    ) -> Reading | Literal[False] | None:
        """The kind's fewest-wilds reading of the cards, None when it reads them in no frame; False
        when a card's roles are not plain."""
        views = [self.view(kind, face, params, key) for face, _ in cards]
        if any(v is NOT_PLAIN for v in views):
            return False
        if any(v.natural is None and v.wild_role is None for v in views):
            return None
        frames, index = self._frames(kind, len(cards))
        best: tuple[int, _Frame, list] | None = None
        bounds = _wild_bounds(kind, len(cards))
        for f in _worth_trying(kind, views, index, len(frames)):
            placed = _fill(frames[f], views, bounds)
            if placed is not None and (best is None or placed[0] < best[0]):
                best = (placed[0], frames[f], placed[1])
        if best is None:
            return None
        return _reading(kind, cards, views, best[1], best[2])

    def _frames(self, kind: MeldKind, n: int) -> tuple[list[_Frame], dict[tuple, list[int]]]:
        """The kind's frames for n cards, and per place the frames that have it (remembered)."""
        found = self._frame_index.get((kind.id, n))
        if found is None:
            frames = _frames(kind, n)
            index: dict[tuple, list[int]] = {}
            for f, frame in enumerate(frames):
                for place in frame.at:
                    index.setdefault(place, []).append(f)
            found = self._frame_index[(kind.id, n)] = (frames, index)
        return found


def _worth_trying(kind: MeldKind, views: list[View], index: Mapping[tuple, list[int]], count: int) -> list[int]:
    """The frames that may hold the fewest wilds: those that give every card that cannot be wild a
    place, and at least one natural a place when any may have one (the first frame when none)."""
    free = kind.free_suit and kind.shape == "sequence"

    def key(natural: tuple[str | None, str | None]) -> tuple[str | None, str | None]:
        return (None, natural[1]) if free else natural

    keys = [key(v.natural) for v in views if v.natural is not None]
    fixed = [key(v.natural) for v in views if v.natural is not None and v.wild_role is None]
    if fixed:
        common = set(index.get(fixed[0], ()))
        for place in fixed[1:]:
            common &= set(index.get(place, ()))
        return sorted(common)
    some = sorted({f for place in keys for f in index.get(place, ())})
    return some or list(range(min(count, 1)))


@dataclass(frozen=True)
class _Frame:
    """Where a kind may read cards: ``places`` (identities; one card each when ``slotted``, any
    number of naturals matching them otherwise) and how many of them a meld fills (all of a
    window; as many as it has cards, of a group's or a flush's distinct places)."""

    places: tuple[tuple[str | None, str | None], ...]
    slotted: bool
    filled_all: bool

    @property
    def at(self) -> dict[tuple[str | None, str | None], int]:
        """Each place's first index."""
        found = self.__dict__.get("_at")
        if found is None:
            found = {}
            for q, place in enumerate(self.places):
                found.setdefault(place, q)
            object.__setattr__(self, "_at", found)
        return found


def _frames(kind: MeldKind, n: int) -> list[_Frame]:
    shape = kind.shape
    if shape == "group":
        return [_Frame(tuple((s, r) for s in kind.suits), kind.distinct, False) for r in kind.ranks]
    if shape == "identical":
        return [_Frame(((s, r),), False, False) for r in kind.ranks for s in kind.suits]
    if shape == "flush":
        return [_Frame(tuple((s, r) for r in kind.ranks), kind.distinct, False) for s in kind.suits]
    order = kind.order.ranks if kind.order else ()
    length = len(order)
    if n > length:
        return []
    starts = range(length) if kind.order and kind.order.cyclic else range(length - n + 1)
    suits: Sequence[str | None] = [None] if kind.suit_step.free else kind.suits
    out = []
    for suit in suits:
        for p in starts:
            window = tuple((suit, order[(p + i) % length]) for i in range(n))
            if len(set(window)) == n:  # an identity twice (an ace low and high) cannot be filled twice
                out.append(_Frame(window, True, True))
    return out


def _wild_bounds(kind: MeldKind, n: int) -> tuple[int, int]:
    if kind.wilds is None:
        return 0, n
    return kind.wilds.bounds(n)


def _fill(frame: _Frame, views: list[View], bounds: tuple[int, int]) -> tuple[int, list] | None:
    """(wilds, each card's place or None for a wild) of the fewest wilds the frame allows within
    the kind's bounds; None when it reads the cards in no way."""
    n = len(views)
    if frame.slotted and not frame.filled_all and n > len(frame.places):
        return None
    if not frame.slotted:
        return _within([_place_of(frame, v) for v in views], views, bounds)
    holders: dict[int, list[int]] = {}
    for c, v in enumerate(views):
        q = _place_of(frame, v)
        if q is not None:
            holders.setdefault(q, []).append(c)
    place: list[int | None] = [None] * n
    for q, cards in holders.items():
        fixed = [c for c in cards if views[c].wild_role is None]
        if len(fixed) > 1:
            return None  # two cards that can only be this place
        place[(fixed or cards)[0]] = q
    return _within(place, views, bounds)


def _place_of(frame: _Frame, view: View) -> int | None:
    """The first place of the frame the card is natural at, or None (a place with no suit: any)."""
    natural = view.natural
    if natural is None:
        return None
    at = frame.at
    q = at.get(natural)
    return at.get((None, natural[1])) if q is None else q


def _within(place: list[int | None], views: list[View], bounds: tuple[int, int]) -> tuple[int, list] | None:
    """The placing with as few wilds as the bounds allow: cards left without a place must be wild;
    more become wild (the last naturals that may) when the kind asks for more."""
    lo, hi = bounds
    if any(q is None and v.wild_role is None for q, v in zip(place, views, strict=True)):
        return None
    wilds = sum(q is None for q in place)
    for c in reversed(range(len(place))):
        if wilds >= lo:
            break
        if place[c] is not None and views[c].wild_role is not None:
            place[c] = None
            wilds += 1
    return (wilds, place) if lo <= wilds <= hi else None


def _reading(
    kind: MeldKind, cards: Sequence[tuple[Face, int]], views: list[View], frame: _Frame, place: list
) -> Reading:
    """The placements: naturals at their places, wilds at the free places in order (any place of
    a frame whose places take any number)."""
    taken = {q for q in place if q is not None}
    free = iter([q for q in range(len(frame.places)) if q not in taken] if frame.slotted else [])
    sequence = kind.shape == "sequence"
    placements = []
    for (face, copy), view, q in zip(cards, views, place, strict=True):
        identity: tuple[str | None, str | None]
        if q is not None and view.natural is not None:
            identity = view.natural
            at = q
            role, wild = view.natural_role, False
        else:
            at = next(free) if frame.slotted else 0
            suit, rank = frame.places[at]
            identity = kind.shown((suit or kind.suits[0], rank or kind.ranks[0]))
            role, wild = view.wild_role, True
        placements.append(Placement(face, copy, role or "", wild, identity, at if sequence else None))
    if sequence:
        placements.sort(key=lambda p: p.offset or 0)
        return Reading(kind, tuple(placements), None)
    return Reading(kind, tuple(sorted(placements, key=lambda p: _order(kind, p))), None)


def _order(kind: MeldKind, p: Placement) -> tuple:
    suit, rank = p.identity
    by_rank = kind.ranks.index(rank) if kind.shape == "flush" and rank in kind.ranks else -1
    return (kind.suits.index(suit) if suit in kind.suits else -1, by_rank, p.face)
