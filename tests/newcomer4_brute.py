"""Independent brute force for the two rummies of tests/data/rulesets/ written by the fourth newcomer:
Conquian (conquian.md) and Continental (continental.md), read from their rule statements alone. It
imports nothing from ``solver/``: cards are strings like ``S7`` and ``JK``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache

SUITS = ("S", "H", "D", "C")

# ---- Conquian (conquian.md): forty cards, sets and sequences, eleven cards melded, no discard

CONQUIAN_RANKS = ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K")  # rule 4: 7 and J are neighbours
CONQUIAN_DECK = [s + r for s in SUITS for r in CONQUIAN_RANKS]


def conquian_meld(cards: Sequence[str]) -> bool:
    """Rules 3 and 4: a set of three or four of one rank, or three or more of one suit in a row."""
    ranks = [c[1:] for c in cards]
    if 3 <= len(cards) <= 4 and len(set(ranks)) == 1:
        return True
    if len(cards) < 3 or len({c[0] for c in cards}) != 1:
        return False
    places = sorted(CONQUIAN_RANKS.index(r) for r in ranks)
    return places == list(range(places[0], places[0] + len(places)))


def conquian_goes_out(hand: Sequence[str], taken: str) -> bool:
    """Rule 7: the ten cards of the hand and the card taken, all eleven in melds."""
    return _all_melded(tuple(sorted([*hand, taken])))


@cache
def _all_melded(cards: tuple[str, ...]) -> bool:
    if not cards:
        return True
    first, rest = cards[0], cards[1:]
    for size in range(2, len(rest) + 1):
        for others in _choose(rest, size):
            if conquian_meld((first, *others)):
                left = list(rest)
                for c in others:
                    left.remove(c)
                if _all_melded(tuple(left)):
                    return True
    return False


def _choose(cards: tuple[str, ...], k: int):
    if k == 0:
        yield ()
        return
    for i in range(len(cards) - k + 1):
        if i and cards[i] == cards[i - 1]:
            continue
        for tail in _choose(cards[i + 1 :], k - 1):
            yield (cards[i], *tail)


# ---- Continental (continental.md): two decks and two jokers, runs only, twos wild, fixed groups

CONTINENTAL_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
ORDER = (*CONTINENTAL_RANKS, "A")  # rule 3: the ace low or high, never both ends at once
CONTINENTAL_DECK = [s + r for s in SUITS for r in CONTINENTAL_RANKS] * 2 + ["JK", "JK"]
PATTERNS = ((3, 3, 3, 3, 3), (3, 4, 4, 4), (5, 5, 5))  # rule 7


def is_wild(card: str) -> bool:
    """Rule 4: a joker, or a two (which may also be itself)."""
    return card == "JK" or card[1:] == "2"


def continental_goes_out(hand: Sequence[str]) -> str | None:
    """Rules 6 and 7: with one card discarded, the other fifteen make one of the three groups of
    runs; the sizes of the group found, or None."""
    for discard in set(hand):
        left = list(hand)
        left.remove(discard)
        for pattern in PATTERNS:
            if _runs(tuple(sorted(left)), pattern):
                return "-".join(map(str, pattern))
    return None


@cache
def _runs(cards: tuple[str, ...], sizes: tuple[int, ...]) -> bool:
    """Can these cards make runs of exactly these sizes (each card in one run)?"""
    if not sizes:
        return not cards
    anchor = next((c for c in cards if not is_wild(c)), None)
    if anchor is None:  # wilds alone: any of them make a run of any suit
        return len(cards) == sum(sizes)
    rest = list(cards)
    rest.remove(anchor)
    suit = anchor[0]
    places = [i for i, r in enumerate(ORDER) if r == anchor[1:]]
    for size in set(sizes):
        left_sizes = list(sizes)
        left_sizes.remove(size)
        for place in places:
            for start in range(max(0, place - size + 1), min(place, len(ORDER) - size) + 1):
                others = [suit + ORDER[p] for p in range(start, start + size) if p != place]
                for used in _fillings(others, tuple(rest)):
                    left = list(rest)
                    for c in used:
                        left.remove(c)
                    if _runs(tuple(sorted(left)), tuple(sorted(left_sizes))):
                        return True
    return False


def _fillings(wanted: list[str], cards: tuple[str, ...]):
    """The ways to fill these places of a run from the cards: each by that card or by a wild."""
    if not wanted:
        yield ()
        return
    have = Counter(cards)
    head, tail = wanted[0], wanted[1:]
    for card in dict.fromkeys([head, *(c for c in cards if is_wild(c))]):
        if have[card]:
            left = list(cards)
            left.remove(card)
            for more in _fillings(tail, tuple(left)):
                yield (card, *more)


def continental_run(cards: Sequence[str]) -> bool:
    """Rules 3 and 4: the cards make one run."""
    return _runs(tuple(sorted(cards)), (len(cards),))
