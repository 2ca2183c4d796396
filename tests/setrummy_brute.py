"""Independent brute force for the two rummies of tests/data/rulesets/ written by the third newcomer:
Canasta (canasta.md) and Carioca (carioca.md), read from their rule statements alone. It imports
nothing from ``solver/``: cards are strings ("S5", "H10", "JK"), every meld is checked by plain
counting, and a hand is searched meld by meld.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from functools import cache
from itertools import combinations

SUITS = "SHDC"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
ESCALA_ORDER = RANKS + ["A"]  # the ace low or high, never round the corner


def suit(card: str) -> str:
    return card[0]


def rank(card: str) -> str:
    return card[1:]


# ---- Canasta (canasta.md)


def canasta_wild(card: str) -> bool:
    """Rule 4: jokers and twos are wild."""
    return card == "JK" or rank(card) == "2"


def canasta_value(card: str) -> int:
    """Rule 10, a card by its own face."""
    if card == "JK":
        return 50
    r = rank(card)
    if r in ("A", "2"):
        return 20
    if r == "3":
        return 100 if suit(card) in "HD" else 5
    return 10 if r in ("8", "9", "10", "J", "Q", "K") else 5


def canasta_meld(cards: Sequence[str]) -> str | None:
    """Rules 3, 5, 6, 7: "meld" (one rank 4…A, at least two naturals, at most three wilds),
    "black-threes" (three or four black threes, no wild), or None."""
    wilds = [c for c in cards if canasta_wild(c)]
    naturals = [c for c in cards if not canasta_wild(c)]
    ranks = {rank(c) for c in naturals}
    if len(cards) < 3 or len(ranks) != 1:
        return None
    (r,) = ranks
    if r == "3":
        black = all(suit(c) in "SC" for c in naturals)
        return "black-threes" if black and not wilds and len(cards) <= 4 else None
    return "meld" if len(naturals) >= 2 and len(wilds) <= 3 else None


def _partitions(cards: tuple[str, ...], legal) -> Iterator[tuple[tuple[str, ...], ...]]:
    """Every way to split ``cards`` (sorted) into legal melds, each meld sorted."""
    if not cards:
        yield ()
        return
    first, rest = cards[0], cards[1:]
    seen = set()
    for k in range(2, len(cards)):
        for others in combinations(range(len(rest)), k):
            meld = (first, *(rest[i] for i in others))
            key = tuple(sorted(meld))
            if key in seen or not legal(key):
                continue
            seen.add(key)
            left = tuple(c for i, c in enumerate(rest) if i not in others)
            for tail in _partitions(left, legal):
                yield (key, *tail)


@cache
def _canasta_splits(cards: tuple[str, ...]) -> tuple[tuple[tuple[str, ...], ...], ...]:
    return tuple(_partitions(cards, lambda m: canasta_meld(m) is not None))


def canasta_goes_out(hand: Sequence[str], has_melded: bool, minimum: int = 50) -> bool:
    """Rules 9, 8, 11: every card melded, but perhaps one discarded, with a canasta (seven cards or
    more) among the melds; a player who has not melded yet melds cards worth ``minimum``."""
    cards = sorted(hand)
    discards: list[str | None] = [None, *sorted(set(cards))]
    for discard in discards:
        left = list(cards)
        if discard is not None:
            left.remove(discard)
        for split in _canasta_splits(tuple(left)):
            if not any(len(m) >= 7 for m in split):
                continue
            if has_melded or sum(canasta_value(c) for m in split for c in m) >= minimum:
                return True
    return False


# ---- Carioca (carioca.md)

CONTRACTS = {1: (2, 0), 2: (1, 1), 3: (0, 2), 4: (3, 0), 5: (2, 1), 6: (1, 2), 7: (4, 0), 8: (0, 3)}


def carioca_trio(cards: Sequence[str]) -> bool:
    """Rules 3, 6: three or more of one rank, at most one joker."""
    naturals = [c for c in cards if c != "JK"]
    return len(cards) >= 3 and len(cards) - len(naturals) <= 1 and len({rank(c) for c in naturals}) == 1


def carioca_escala(cards: Sequence[str]) -> bool:
    """Rules 4, 6: four or more of one suit in a row of A 2 … K A, at most two jokers, never two side
    by side; every placement of the jokers is tried."""
    jokers = sum(c == "JK" for c in cards)
    naturals = [c for c in cards if c != "JK"]
    n = len(cards)
    if n < 4 or jokers > 2 or not naturals or len({suit(c) for c in naturals}) != 1:
        return False
    if len(set(naturals)) != len(naturals):
        return False
    for start in range(len(ESCALA_ORDER) - n + 1):
        window = ESCALA_ORDER[start : start + n]
        if len(set(window)) != n:
            continue  # A … A: the ace once
        ranks = [rank(c) for c in naturals]
        if not all(r in window for r in ranks):
            continue
        holes = [i for i, r in enumerate(window) if r not in ranks]
        if len(holes) == jokers and all(b != a + 1 for a, b in zip(holes, holes[1:], strict=False)):
            return True
    return False


def carioca_melds(hand: Sequence[str]) -> tuple[list[tuple[str, ...]], list[tuple[str, ...]]]:
    """Every trío and every escala the hand's cards can make (as sorted tuples, once each): tríos
    from the cards of one rank and a joker at most, escalas from one suit's and two jokers at most."""
    cards = sorted(hand)
    jokers = [c for c in cards if c == "JK"]
    by_rank: dict[str, list[str]] = {}
    by_suit: dict[str, list[str]] = {}
    for c in cards:
        if c != "JK":
            by_rank.setdefault(rank(c), []).append(c)
            by_suit.setdefault(suit(c), []).append(c)
    trios: set[tuple[str, ...]] = set()
    escalas: set[tuple[str, ...]] = set()
    pools = [(g + jokers[:1], 3, carioca_trio, trios) for g in by_rank.values()]
    pools += [(g + jokers[:2], 4, carioca_escala, escalas) for g in by_suit.values()]
    for pool, least, legal, found in pools:
        for k in range(least, len(pool) + 1):
            for idx in combinations(range(len(pool)), k):
                meld = tuple(sorted(pool[i] for i in idx))
                if legal(meld):
                    found.add(meld)
    return sorted(trios), sorted(escalas)


def carioca_lays_down(hand: Sequence[str], round_: int) -> bool:
    """Rules 7, 8, 9: exactly the round's tríos and escalas, from disjoint cards, and a card left to
    discard."""
    need_trios, need_escalas = CONTRACTS[round_]
    trios, escalas = carioca_melds(hand)
    have = Counter(hand)

    def search(trios_left: int, escalas_left: int, used: Counter, after: int) -> bool:
        if not trios_left and not escalas_left:
            return sum(used.values()) < len(hand)
        pool, pick = (trios, 0) if trios_left else (escalas, 1)
        for i in range(after, len(pool)):
            meld = Counter(pool[i])
            if all(used[c] + n <= have[c] for c, n in meld.items()):
                nxt = i if pick == 1 or trios_left > 1 else 0  # the same pool from here on, else the escalas
                if search(trios_left - (pick == 0), escalas_left - (pick == 1), used + meld, nxt):
                    return True
        return False

    return search(need_trios, need_escalas, Counter(), 0)
