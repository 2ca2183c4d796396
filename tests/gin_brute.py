"""Gin Rummy's minimum deadwood by brute force, importing nothing from ``solver/`` nor any peer:
every meld the hand holds (runs of three or more cards of one suit in consecutive ranks, ace low;
sets of three or four cards of one rank), every packing of disjoint melds, the least value of the
cards left (ace 1, two to ten their number, a face card 10). For eleven cards, the least over
each discard."""

from __future__ import annotations

from itertools import combinations

RANKS = ["A", *map(str, range(2, 11)), "J", "Q", "K"]


def value(card: str) -> int:
    return min(RANKS.index(card[1:]) + 1, 10)


def melds(hand: list[str]) -> list[frozenset[str]]:
    """Every run and set among the hand's cards."""
    held = set(hand)
    out: list[frozenset[str]] = []
    for suit in "SHDC":
        for low in range(len(RANKS)):
            for high in range(low + 2, len(RANKS)):
                run = [suit + r for r in RANKS[low : high + 1]]
                if not held.issuperset(run):
                    break
                out.append(frozenset(run))
    for rank in RANKS:
        same = [c for c in hand if c[1:] == rank]
        out += [frozenset(group) for size in (3, 4) for group in combinations(same, size)]
    return out


def min_deadwood(hand: list[str]) -> int:
    """The least value of the cards no meld of a packing holds."""
    found = melds(hand)
    best = sum(value(c) for c in hand)

    def pack(start: int, used: frozenset[str]) -> None:
        nonlocal best
        best = min(best, sum(value(c) for c in hand if c not in used))
        for i in range(start, len(found)):
            if not found[i] & used:
                pack(i + 1, used | found[i])

    pack(0, frozenset())
    return best


def best_discards(hand: list[str]) -> tuple[int, set[str]]:
    """Eleven cards: the least deadwood after a discard, and every discard that leaves it."""
    left = {card: min_deadwood([c for c in hand if c != card]) for card in hand}
    least = min(left.values())
    return least, {card for card, points in left.items() if points == least}
