"""A plain turn's packings listed field by field: a hand rich in wilds lists thousands.

The listing (:func:`listed`) walks the hand's cards in order (:mod:`solver.melding.turn.plain`):
the first card not yet decided is left (with the copies of its face after it), or starts a meld
of cards not yet decided (taking the first free copies of its faces); popped from a stack, so a
card left comes before the melds it starts, those in reverse order. Each packing is kept as a
row of plain lists (:class:`Listing`): the cards melded, the discard, the cards kept and their
points, and its melds as a chain of (meld, the melds before it) — most packings are only ranked
by their points and cards and never asked for their melds, so neither a tuple of melds nor a
:class:`Way` is made for them until one is asked for (:meth:`Listing.way`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from solver.core.deck import Face
from solver.melding.turn.packsearch import Start
from solver.melding.turn.plainmelds import Meld

Chain = tuple  # a packing's melds: () or (its last meld, the chain of those before it)


class Way(NamedTuple):
    """One packing: its melds and the cards they hold (a mask of the hand's card bits), the discard
    made of the cards left (``discard_bit``: its bit), how many cards are kept and their card
    points (the cards in no meld and not discarded)."""

    melds: tuple[Meld, ...]
    melded: int
    discard: Face | None
    left: int
    points: int
    discard_bit: int = 0


def melds_of(chain: Chain) -> tuple[Meld, ...]:
    """A chain's melds, in the order they were chosen."""
    out: list[Meld] = []
    while chain:
        meld, chain = chain
        out.append(meld)
    out.reverse()
    return tuple(out)


class Listing(NamedTuple):
    """Every packing of a hand the turn rule allows, in the listing's order, field by field: its
    melds (a :data:`Chain`), the cards melded, the discard's place among the hand's cards (-1:
    none), how many cards are kept and their card points; ``order``/``bits``: the hand's cards
    and each one's bit."""

    chains: list[Chain]
    melded: list[int]
    discards: list[int]
    left: list[int]
    points: list[int]
    order: Sequence[Face]
    bits: Sequence[int]

    def melds(self, k: int) -> tuple[Meld, ...]:
        return melds_of(self.chains[k])

    def way(self, k: int) -> Way:
        """The ``k``-th packing."""
        place = self.discards[k]
        discard, bit = (self.order[place], self.bits[place]) if place >= 0 else (None, 0)
        return Way(self.melds(k), self.melded[k], discard, self.left[k], self.points[k], bit)


def listed(
    order: Sequence[Face],
    bits: Sequence[int],
    copies: Sequence[int],
    starting: Sequence[Sequence[Start]],
    worth: Sequence[int],
    rule: str,
    most: int,
    steps: int | None,
) -> Listing | None:
    """Every packing of the melds ``starting`` at each card (the cards ``order``, each one's bit in
    ``bits`` and its face's copies in ``copies``; ``worth``: each card's points) with the discard
    the turn rule asks (the first of the dearest cards left); None past ``most`` packings, or past
    ``steps`` steps of the walk (None: no limit), a step each card that starts a meld reached.

    A card no meld starts at is only ever left, and not walked at all: a meld starts at its lowest
    face, so none after it takes a copy of that card's face. The way of cards left from a state
    (the card reached, the cards decided) — the melds that start along it and what each takes —
    does not depend on the melds before, so it is walked once for every state (:class:`_Ways`),
    not once for every packing that reaches it."""
    ways = _Ways(bits, copies, starting)
    n = len(bits)
    total = sum(worth)
    discarding, required = rule != "none", rule == "required"
    # the cards by worth (places, bits), the first of the dearest first (only a turn that discards asks)
    dearest = sorted(range(n), key=worth.__getitem__, reverse=True) if discarding else []
    dear_bits = [bits[p] for p in dearest]
    chains: list[Chain] = []
    melded_cards: list[int] = []
    discards: list[int] = []
    kept: list[int] = []
    points: list[int] = []
    limit = steps if steps is not None else -1
    count = 0
    known, walk = ways.known, ways.walk
    stack: list[tuple[int, Chain, int, int]] = [(0, (), 0, 0)]  # (state, melds, melded, points)
    pop, push = stack.pop, stack.append
    add_chain, add_melded, add_discard, add_kept, add_points = (
        chains.append,
        melded_cards.append,
        discards.append,
        kept.append,
        points.append,
    )
    while stack:
        state, chain, melded, weight = pop()
        way = known.get(state) or walk(state)
        count += way[0]
        for after, meld, more, taken in way[1]:  # pushed in order: popped the last first
            push((after, (meld, chain), melded | taken, weight + more))
        if count > limit >= 0:
            return None
        left = n - melded.bit_count()
        place = -1
        if left and discarding:
            k = 0
            while melded & dear_bits[k]:  # the first of the dearest left
                k += 1
            place = dearest[k]
            left -= 1
            weight += worth[place]
        elif not left and required:
            continue
        add_chain(chain)
        add_melded(melded)
        add_discard(place)
        add_kept(left)
        add_points(total - weight)
        if len(points) > most:
            return None
    return Listing(chains, melded_cards, discards, kept, points, order, bits)


# the state a meld leads to (see :class:`_Ways`), the meld, its card points and its cards
_Push = tuple[int, Meld, int, int]


class _Ways:
    """The ways of cards left of one hand's listing, by state (card reached, cards decided, as one
    int: the cards decided shifted past the card's place): the steps along each (a card that
    starts a meld reached, and its end) and the melds that start along it, in order. Only the
    cards some meld starts at are walked; the melds that fit at a card depend only on which of the
    cards they might take are decided (:func:`_fitting`, kept for each such set)."""

    def __init__(self, bits: Sequence[int], copies: Sequence[int], starting: Sequence[Sequence[Start]]):
        places = [p for p in range(len(bits)) if starting[p]]
        self.walked, self.starts = [bits[p] for p in places], [starting[p] for p in places]
        self.leaves = self.walked if copies is bits else [copies[p] for p in places]
        self.reach = [_reach(entries) for entries in self.starts]
        self.fitting: list[dict[int, list[tuple[Meld, int, int]]]] = [{} for _ in places]
        self.known: dict[int, tuple[int, list[_Push]]] = {}
        self.shift = (len(places) + 1).bit_length()

    def walk(self, state: int) -> tuple[int, list[_Push]]:
        """The way of cards left from ``state``, kept."""
        shift = self.shift
        i, decided = state & ((1 << shift) - 1), state >> shift
        walked, leaves, reach, fitting = self.walked, self.leaves, self.reach, self.fitting
        ends = len(walked)
        pushes: list[_Push] = []
        count = 0
        while True:
            count += 1
            while i < ends and decided & walked[i]:
                i += 1
            if i == ends:
                break
            seen = decided & reach[i]
            fits = fitting[i].get(seen)
            if fits is None:
                fits = fitting[i][seen] = _fitting(self.starts[i], seen)
            for meld, more, taken in fits:
                pushes.append(((decided | taken) << shift | (i + 1), meld, more, taken))
            decided |= leaves[i]
            i += 1
        found = self.known[state] = (count, pushes)
        return found


def _reach(entries: Sequence[Start]) -> int:
    """The bits of every card the melds ``entries`` might take."""
    reach = 0
    for _, _, once, repeated in entries:
        reach |= once
        for group in repeated:
            reach |= group
    return reach


def _fitting(entries: Sequence[Start], decided: int) -> list[tuple[Meld, int, int]]:
    """The melds of ``entries`` that fit when ``decided`` are taken, in order, each with its card
    points and the cards it takes (the first free copy of each face held twice)."""
    out: list[tuple[Meld, int, int]] = []
    for meld, more, once, repeated in entries:
        if once & decided:
            continue
        taken = once
        for group in repeated:
            free = group & ~(decided | taken)
            if not free:
                break
            taken |= free & -free
        else:
            out.append((meld, more, taken))
    return out
