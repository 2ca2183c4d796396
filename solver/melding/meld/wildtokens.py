"""Candidate walks with a pool's free wilds as counts: which wild fills which place is not walked.

A card is a *free wild* of a kind when it may be every identity of the kind (each suit of the
kind at each of its ranks), as a wild or as a natural: a printed joker, or a card of the chosen
rank in Indian Rummy. Such cards are alike to a walk but for their faces, so a walk that tries
each of them at each place (then deduplicates the card sets by faces) repeats itself once per
choice of *which* free wild stands where. Here a kind's walk runs over a reduced pool instead:
every card with only its natural identities (a free wild keeps its own places, where it is
natural), and one anonymous *token* per free wild, which may be any identity as a wild; tokens
are taken in order, as copies of one face are. A card set the reduced walk finds (naturals ``R``
and ``t`` tokens) stands for every set of ``R`` and ``t`` free wilds not in ``R``
(:meth:`TokenCollector.expand`).

That is the same candidates, with the same fewest wilds and bound: every frame of the real walk
is a frame of the reduced one (each card standing in as a wild replaced by a token: as many
wilds, the same natural cards), and a frame of the reduced one with its tokens replaced by free
wilds is a frame of the real walk with no more wilds (a free wild may be any identity; where it
is natural the real frame counts it so, and the reduced walk has that frame too, the card kept
natural). The reduced walk is used only where that holds: each card that may stand in as a wild
is a free wild (:func:`reduced`); elsewhere the kind is walked as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Protocol

from solver.core.idmemo import IdentityMemo

Options = dict[tuple, frozenset[int]]  # a card's identities in a kind -> the sizes it is natural at
Identity = tuple  # (suit, rank) of a place; a suit of None where any suit fills it
Points = Callable[[Sequence[frozenset[int]]], int]  # a reading's bound from the sizes its cards are natural at


class Adds(Protocol):
    """Where found card sets go: the walk's collector (:class:`~solver.melding.meld.candidates._Collector`)."""

    def counted_all(self, found: Sequence[tuple[tuple[int, ...], int, int]]) -> None: ...


def free_wilds(options: Sequence[Options], usable: Sequence[int]) -> tuple[list[int], set[Identity]] | None:
    """The free wilds of a kind's walk (their positions, in pool order) and every identity some
    card may be; None when some card may stand in as a wild but is not a free wild, or when no
    card is a free wild (the reduced walk is the walk itself)."""
    every: set[Identity] = set()
    for i in usable:
        every.update(options[i])
    free: list[int] = []
    for i in usable:
        opts = options[i]
        if all(opts.values()):
            continue  # natural wherever it goes
        if len(opts) != len(every):
            return None  # a wild of some places only
        free.append(i)
    return (free, every) if free else None


def _natural_items(options: Options) -> list[tuple[Identity, frozenset[int]]]:
    return [(identity, natural) for identity, natural in options.items() if natural]


# each card's natural identities, by its options (kept across walks: a batch's cards share them)
_NATURALS: IdentityMemo[list[tuple[Identity, frozenset[int]]]] = IdentityMemo(20_000)


class TokenWalk:
    """The reduced walk of one kind over a pool's cards (``options``: each card's identities,
    ``usable``: the cards that may be in it): its natural cards and as many tokens as free wilds
    (``free``). Copies of one face are taken in pool order (``before``: each card's previous copy;
    ``faces``: each card's face index). Each card set found is kept once as (naturals, tokens)
    with the sizes its naturals are natural at and its best bound; :meth:`expand` hands them on."""

    def __init__(
        self,
        options: Sequence[Options],
        usable: Sequence[int],
        free: Sequence[int],
        every: set[Identity],
        before: Sequence[int | None],
        faces: Sequence[int],
    ):
        """``every``: each identity some card may be (as :func:`free_wilds` found)."""
        self.options, self.usable, self.free, self.every = options, usable, free, every
        self.before, self.faces = before, faces
        self.tokens = len(free)
        self.found: dict[tuple[tuple[int, ...], int], tuple[int, list[frozenset[int]]]] = {}

    def _keep(self, real: list[int], naturals: list[frozenset[int]], tokens: int, points: Points | None) -> None:
        """A card set found: its natural cards ``real`` (natural at the sizes ``naturals``) and
        ``tokens``; ``points``: the kind's bound of a reading (None: it scores no melds)."""
        key = (tuple(sorted(real)), tokens)
        old = self.found.get(key)
        if old is not None and points is None:
            return  # the same card set, with the same naturals and no bound to better
        bound = points([*naturals, *[frozenset[int]()] * tokens]) if points is not None else 0
        if old is None or bound > old[0]:
            self.found[key] = (bound, [natural for _, natural in sorted(zip(real, naturals, strict=True))])

    def _natural_at(self, free_suit: bool) -> tuple[dict[Identity, list[tuple[int, frozenset[int]]]], bool]:
        """The natural cards of each identity (a suit of None where any suit fills a place), and
        whether each card is natural at one identity only."""
        at: dict[Identity, dict[int, frozenset[int]]] = {}
        places = 0
        for i in self.usable:
            for (suit, rank), natural in _NATURALS.of(self.options[i], _natural_items):
                cards = at.setdefault((None if free_suit else suit, rank), {})
                places += i not in cards
                cards[i] = cards.get(i, frozenset()) | natural
        single = places == len({i for cards in at.values() for i in cards})
        return {identity: list(cards.items()) for identity, cards in at.items()}, single

    def sequences(
        self, windows: Sequence[Sequence[Identity]], sizes: set[int], free_suit: bool, points: Points | None
    ) -> None:
        """Every meld along each window (the identities of its places from its start): each place
        a natural card of it or a token. Where each card is natural at one identity, a frame whose
        first place is a token is walked only as long as no other window holds the rest of it with
        a token after (:func:`_shifted`): the same card set, with the same naturals, is found there
        (moved so, a frame of tokens alone may come back to its window in a cyclic order: those
        are kept wherever they are met)."""
        natural_at, single = self._natural_at(free_suit)
        every = {(None, rank) for _, rank in self.every} if free_suit else self.every
        smallest, before, most = min(sizes), self.before, self.tokens

        def walk(
            window: Sequence[Identity], k: int, real: list[int], naturals: list[frozenset[int]], tokens: int, least: int
        ) -> None:
            if k in sizes and (k >= least or not real):  # tokens alone: no natural to start another window
                self._keep(real, naturals, tokens, points)
            if k == len(window):
                return
            for card, natural in natural_at.get(window[k], ()):
                if card not in real and (before[card] is None or before[card] in real):
                    walk(window, k + 1, [*real, card], [*naturals, natural], tokens, least)
            if tokens < most:
                walk(window, k + 1, real, naturals, tokens + 1, least)

        for window, shifted in _walked(windows, frozenset(every), smallest):
            for card, natural in natural_at.get(window[0], ()):
                walk(window, 1, [card], [natural], 0, 0)
            least = shifted + 1 if single else 0  # a first token: the lengths no other window holds
            if most and least <= len(window):
                walk(window, 1, [], [], 1, least)

    def groups(self, suits: Sequence, ranks: Sequence, sizes: set[int], points: Points | None) -> None:
        """Every group of one rank, one card of each suit at most: a suit a natural card of it
        or a token (a token only where some card may be that identity)."""
        natural_at, _ = self._natural_at(False)
        for rank in ranks:
            able = [s for s in suits if (s, rank) in self.every]
            choices = [natural_at.get((s, rank), []) for s in able]
            self._group(choices, 0 if any(choices) else len(choices), [], [], sizes, points)  # none: tokens alone

    def _group(
        self,
        choices: list[list[tuple[int, frozenset[int]]]],
        j: int,
        real: list[int],
        naturals: list[frozenset[int]],
        sizes: set[int],
        points: Points | None,
    ) -> None:
        """The groups of one rank from its ``j``-th suit on (``choices``: each suit's natural
        cards), holding the natural cards ``real`` so far."""
        if j == len(choices):  # the suits no natural card took: tokens' or no one's
            for tokens in range(min(self.tokens, len(choices) - len(real)) + 1):
                if len(real) + tokens in sizes:
                    self._keep(real, naturals, tokens, points)
            return
        self._group(choices, j + 1, real, naturals, sizes, points)
        if len(real) < max(sizes):
            before = self.before
            for card, natural in choices[j]:
                if card not in real and (before[card] is None or before[card] in real):
                    self._group(choices, j + 1, [*real, card], [*naturals, natural], sizes, points)

    def expand(self, out: Adds) -> None:
        """Each card set found, its tokens replaced by free wilds not among its naturals (each
        choice of faces once, the first copies of a face taken), handed to ``out`` with its wilds
        (the tokens, and the naturals not natural at its size), all at once and in order."""
        faces = self.faces
        sets: list[tuple[tuple[int, ...], int, int]] = []
        add = sets.append
        for (real, tokens), (bound, naturals) in self.found.items():
            size = len(real) + tokens
            wilds = tokens + [size in sizes for sizes in naturals].count(False)
            if not tokens:
                add((real, bound, wilds))
                continue
            held = set(real)
            spare = [i for i in self.free if i not in held]
            if tokens == 1:  # one wild: the first card of each face
                taken: set[int] = set()
                for i in spare:
                    if faces[i] not in taken:
                        taken.add(faces[i])
                        add((tuple(sorted((*real, i))), bound, wilds))
                continue
            seen: set[tuple[int, ...]] = set()
            for chosen in combinations(spare, tokens):
                key = tuple(sorted(faces[i] for i in chosen))  # the first of a multiset: its first copies
                if key in seen:
                    continue
                seen.add(key)
                add((tuple(sorted(real + chosen)), bound, wilds))
        out.counted_all(sets)


Walked = list[tuple[Sequence[Identity], int]]
_WALKED: IdentityMemo[Walked] = IdentityMemo(256)  # by windows, identities reached and smallest size


def _walked(windows: Sequence[Sequence[Identity]], every: frozenset[Identity], smallest: int) -> Walked:
    """The windows walked (each up to its first identity no card may be, when that leaves room
    for a meld), each with :func:`_shifted`'s length; kept by the windows and what they depend on
    (a kind's windows are kept for it, and a batch's hands reach the same identities)."""
    return _WALKED.get((windows,), (every, smallest), lambda: _shifted(windows, every, smallest))


def _shifted(windows: Sequence[Sequence[Identity]], every: frozenset[Identity], smallest: int) -> Walked:
    """Each window walked, with the most places ``n`` such that another window walked starts with
    its places 1 to ``n - 1`` and reaches a place after them: a frame whose first place is a token
    and that is ``n`` long or shorter is that window's frame with the token moved to its end."""
    walked = []
    for window in windows:
        reach = next((k for k, identity in enumerate(window) if identity not in every), len(window))
        if reach >= smallest:
            walked.append(tuple(window[:reach]))
    extended = {window[:k] for window in walked for k in range(len(window))}  # a prefix with a place after it
    out: Walked = []
    for window in walked:
        shifted = 1
        while shifted < len(window) and window[1 : shifted + 1] in extended:
            shifted += 1
        out.append((window, shifted))
    return out
