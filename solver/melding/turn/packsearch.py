"""A plain turn's packings searched with a memo instead of listed one by one.

The packings of a hand (:mod:`solver.melding.turn.plain`) are the ways down a search on the hand's
cards in order: the first card not yet decided is left (with the copies of its face after it), or
starts a meld of cards not yet decided (taking the first free copies of its faces). A hand rich in
wilds has thousands of packings but far fewer *states* of that search: the card reached, the
cards decided, and what the rest of the way needs to know of the way so far — the dearest card
left (the discard the turn rule asks is the dearest card left), how many cards are left (0, 1,
more), the melds counted toward each of the goal's meld counts, and the points melded when the
goal limits the hand's value. Each state is searched once (:class:`PackSearch`).

The questions of the plain turn are the search's: the first best packing (the objective's levels
in order, made smallest; among equals the first in the listing's order: a card left before the
melds it starts, those in reverse order, as a stack of the listing pops them), among all packings
or those that meet a :class:`Goal` (every card placed, a route's requirements); and whether some
packing melds all of given cards but a spare one (:meth:`PackSearch.places`, for a set of cards
that cannot all be placed), a search that stops at the first. A search past its limit of states
raises :class:`TooManyStates` (the hand goes to the turn model).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from solver.core.deck import Face
from solver.melding.turn.plainmelds import Meld
from solver.melding.turn.routes import HandLimit, MeldCount

STATES = 200_000  # a search of more states gives up (the hand goes to the turn model)

Start = tuple[Meld, int, int, tuple[int, ...]]  # a meld, its card points, the cards it must take, its faces held twice


class TooManyStates(Exception):
    """The search passed STATES states."""


@dataclass(frozen=True)
class Goal:
    """What a packing must do: place every card (all melded but the discard) and meet ``checks``."""

    all_cards: bool
    checks: tuple[MeldCount | HandLimit, ...] = ()


@dataclass(frozen=True)
class Found:
    """The first best packing a search found: its melds, the cards they hold and their card points."""

    melds: tuple[Meld, ...]
    melded: int
    weight: int


_Key = tuple  # a state: (card reached, cards decided, dearest left, cards left (0, 1, 2: more), counts, weight)


class PackSearch:
    """The packings of one hand: its cards in order (``bits``: each card's bit; ``copies``: the
    bits of its face's copies), the melds starting at each card (``starting``), the card points of
    each face (by index), the turn's discard rule and the objective's ``levels`` (each a measure
    and its sign: 1 made smallest, -1 made largest)."""

    def __init__(
        self,
        order: Sequence[Face],
        bits: Sequence[int],
        copies: Sequence[int],
        starting: Sequence[Sequence[Start]],
        points: Sequence[int],
        rule: str,
        levels: Sequence[tuple[str, int]],
    ):
        self.order, self.bits, self.copies, self.starting = order, bits, copies, starting
        self.card_points = [points[f.index] for f in order]
        self.rule, self.levels = rule, tuple(levels)
        self.total = sum(self.card_points)

    # -- the first best packing -----------------------------------------------------------------

    def best(self, goal: Goal | None = None, limit: int | None = None) -> Found | None:
        """The first best packing (that meets ``goal``); None when none does. Raises
        :class:`TooManyStates` past ``limit`` states."""
        run = _Run(self, goal, limit)
        start: _Key = (0, 0, -1, 0, tuple(0 for _ in run.counts), 0)
        if run.value(start) is None:
            return None
        melds: list[Meld] = []
        melded = weight = 0
        key = start
        while True:
            _, step = run.memo[key]
            if step is None:
                return Found(tuple(melds), melded, weight)
            start_entry, taken, key = step
            if start_entry is not None:
                melds.append(start_entry[0])
                melded |= taken
                weight += start_entry[1]

    # -- whether some packing melds given cards ------------------------------------------------

    def places(self, cards: int, spare: int, limit: int | None = None) -> bool:
        """Does some packing the turn rule allows meld all of ``cards`` (the first copies of their
        faces) but at most ``spare`` of them? A search that stops at the first such packing, its
        dead states (card reached, cards decided, cards of ``cards`` not melded, whether a card is
        left) kept so that each is searched once. Raises :class:`TooManyStates` past ``limit``
        dead states."""
        return _Cover(self, cards, spare, limit).found(0, 0, 0, False)

    def _skip(self, i: int, decided: int) -> tuple[int, int]:
        """The next card to decide from ``i``: cards decided are stepped over, and so are cards no
        meld starts at (left, with the copies after them)."""
        bits, starting, ends = self.bits, self.starting, len(self.order)
        while i < ends and (decided & bits[i] or not starting[i]):
            if not decided & bits[i]:
                decided |= self.copies[i]
            i += 1
        return i, decided


class _Cover:
    """One search of :meth:`PackSearch.places`."""

    def __init__(self, search: PackSearch, cards: int, spare: int, limit: int | None):
        self.search, self.cards, self.spare, self.limit = search, cards, spare, limit
        self.dead: set[tuple[int, int, int, bool]] = set()

    def found(self, i: int, decided: int, missed: int, left: bool) -> bool:
        search = self.search
        i, after = search._skip(i, decided)
        if after != decided:  # cards no meld starts at, left
            missed += (after & ~decided & self.cards).bit_count()
            left, decided = True, after
        if missed > self.spare:
            return False
        if i == len(search.order):
            return left or search.rule != "required"
        key = (i, decided, missed, left)
        if key in self.dead:
            return False
        for entry in search.starting[i]:
            taken = _takes(entry, decided)
            if taken is not None and self.found(i + 1, decided | taken, missed, left):
                return True
        copies = search.copies[i] & ~decided
        if self.found(i + 1, decided | copies, missed + (copies & self.cards).bit_count(), True):
            return True
        if self.limit is not None and len(self.dead) >= self.limit:
            raise TooManyStates
        self.dead.add(key)
        return False


def _takes(entry: Start, decided: int) -> int | None:
    """The cards a meld takes when ``decided`` are taken (the first free copy of each face held
    twice), or None when it does not fit."""
    _, _, once, repeated = entry
    if once & decided:
        return None
    taken = once
    for group in repeated:
        free = group & ~(decided | taken)
        if not free:
            return None
        taken |= free & -free
    return taken


class _Run:
    """One search of the first best packing for a goal: per state its best rank from there (the
    objective's levels, counting only what is melded from there and the discard) and the step
    that reaches it."""

    def __init__(self, search: PackSearch, goal: Goal | None, limit: int | None):
        self.search, self.goal, self.limit = search, goal, limit
        checks = goal.checks if goal is not None else ()
        self.counts = [c for c in checks if isinstance(c, MeldCount)]
        self.limits = [c for c in checks if isinstance(c, HandLimit)]
        self.caps = [c.at_least if c.at_most is None else c.at_most + 1 for c in self.counts]
        self.memo: dict[_Key, tuple[tuple | None, tuple | None]] = {}

    def value(self, key: _Key) -> tuple | None:
        """The best rank from the state ``key`` (None: no way from it meets the goal)."""
        found = self.memo.get(key)
        if found is None:
            if self.limit is not None and len(self.memo) >= self.limit:
                raise TooManyStates
            found = self.memo[key] = self._solve(key)
        return found[0]

    def _solve(self, key: _Key) -> tuple[tuple | None, tuple | None]:
        search = self.search
        i, decided, dearest, left, counts, weight = key
        bits, copies, points = search.bits, search.copies, search.card_points
        ends = len(search.order)
        while i < ends and (decided & bits[i] or not search.starting[i]):
            if not decided & bits[i]:
                dearest, left = max(dearest, points[i]), min(2, left + (copies[i] & ~decided).bit_count())
                decided |= copies[i]
            i += 1
        if self.goal is not None and self.goal.all_cards and left > (search.rule != "none"):
            return None, None
        if i == ends:
            return self._end(dearest, left, counts, weight), None
        best: tuple | None = None
        step: tuple | None = None
        after = (i + 1, decided | copies[i], max(dearest, points[i]))
        leave_key = (*after, min(2, left + (copies[i] & ~decided).bit_count()), counts, weight)
        rank = self.value(leave_key)
        if rank is not None:
            best, step = rank, (None, 0, leave_key)
        for entry in reversed(search.starting[i]):
            taken = _takes(entry, decided)
            if taken is None:
                continue
            meld, more = entry[0], entry[1]
            counted = self._counted(meld, counts)
            next_key = (i + 1, decided | taken, dearest, left, counted, weight + more if self.limits else 0)
            rank = self.value(next_key)
            if rank is None:
                continue
            rank = tuple(
                r + self._adds(measure, sign, meld, more)
                for r, (measure, sign) in zip(rank, search.levels, strict=True)
            )
            if best is None or rank < best:
                best, step = rank, (entry, taken, next_key)
        return best, step

    def _counted(self, meld: Meld, counts: tuple[int, ...]) -> tuple[int, ...]:
        if not self.counts:
            return counts
        size = len(meld.faces)
        return tuple(
            min(cap, n + c.counts(meld.kind, size, meld.wilds))
            for n, c, cap in zip(counts, self.counts, self.caps, strict=True)
        )

    @staticmethod
    def _adds(measure: str, sign: int, meld: Meld, weight: int) -> int:
        """What a meld adds to a level: fewer points kept, its meld points, one meld more."""
        if measure == "hand_points":
            return -weight * sign
        return (meld.points if measure == "meld_points" else 1) * sign

    def _end(self, dearest: int, left: int, counts: tuple[int, ...], weight: int) -> tuple | None:
        """The rank of the way's end (the discard and the points of every card, as kept; each meld
        takes its own off), or None when the turn rule or the goal rules it out."""
        search = self.search
        if not left and search.rule == "required":
            return None
        discard = dearest if left and search.rule != "none" else 0
        if not all(c.allows(n) for c, n in zip(self.counts, counts, strict=True)):
            return None
        kept = search.total - discard
        if any(kept - weight > limit.at_most for limit in self.limits):
            return None
        return tuple(sign * kept if measure == "hand_points" else 0 for measure, sign in search.levels)
