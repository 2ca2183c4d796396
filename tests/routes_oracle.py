"""A brute-force oracle for tests/data/routes/declare.yaml, sharing no code with melds.

The game: 52 cards (suits S H D C, ranks A 2 … 10 J Q K, the ace low only) and two printed jokers
JK that stand for any card. A sequence is three or more cards of one suit in consecutive ranks, a
set three or four cards of one rank in distinct suits, a pair (with the option ``pairs``) two
natural cards of one rank in distinct suits; jokers fill any place. A meld read both ways is the
first kind of that list (sequence, set, pair). A turn ends with one card discarded.

Every way to place a hand is enumerated (each card kept, or in a meld with cards after it), so
each route's question is answered by looking at all of them.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import combinations

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
JOKER = "JK"
DECK = tuple(s + r for s in SUITS for r in RANKS) + (JOKER, JOKER)


def points(card: str) -> int:
    if card == JOKER:
        return 0
    return min(RANKS.index(card[1:]) + 1, 10)


def _split(cards: tuple[str, ...]) -> tuple[list[tuple[str, int]], int]:
    naturals = [(c[0], RANKS.index(c[1:])) for c in cards if c != JOKER]
    return naturals, len(cards) - len(naturals)


def is_sequence(cards: tuple[str, ...]) -> bool:
    naturals, _ = _split(cards)
    n = len(cards)
    if not 3 <= n <= 13 or len({s for s, _ in naturals}) > 1:
        return False
    ranks = [r for _, r in naturals]
    if len(set(ranks)) != len(ranks):
        return False
    if not ranks:
        return True
    return any(all(start <= r < start + n for r in ranks) for start in range(0, 14 - n))


def is_set(cards: tuple[str, ...]) -> bool:
    naturals, _ = _split(cards)
    if not 3 <= len(cards) <= 4 or len({r for _, r in naturals}) > 1:
        return False
    suits = [s for s, _ in naturals]
    return len(set(suits)) == len(suits)


def is_pair(cards: tuple[str, ...]) -> bool:
    naturals, jokers = _split(cards)
    return len(cards) == 2 and not jokers and naturals[0][1] == naturals[1][1] and naturals[0][0] != naturals[1][0]


def kind_of(cards: tuple[str, ...], pairs: bool) -> str | None:
    """The kind a meld is read as (the first that reads it), or None."""
    if is_sequence(cards):
        return "sequence"
    if is_set(cards):
        return "set"
    if pairs and is_pair(cards):
        return "pair"
    return None


def meld_tag(cards: tuple[str, ...], pairs: bool) -> str | None:
    """What a route counts of a meld: its kind, purity (sequence) or size (set). With ``pairs``
    the one route allows pairs and sets only: a meld read as a sequence is none of its melds."""
    kind = kind_of(cards, pairs)
    if kind == "sequence" and pairs:
        return None
    if kind == "sequence":
        return "pure" if JOKER not in cards else "sequence"
    if kind == "set":
        return f"set{len(cards)}"
    return kind


@lru_cache(maxsize=200_000)
def placements(cards: tuple[str, ...], pairs: bool) -> frozenset[tuple[int, tuple[str, ...]]]:
    """Every way to place sorted ``cards``: (points kept, the sorted tags of the melds made)."""
    if not cards:
        return frozenset([(0, ())])
    first, rest = cards[0], cards[1:]
    out = {(kept + points(first), tags) for kept, tags in placements(rest, pairs)}
    for size in range(1, len(rest) + 1):
        for others in set(combinations(rest, size)):
            meld = (first, *others)
            tag = meld_tag(meld, pairs)
            if tag is None:
                continue
            left = tuple((Counter(rest) - Counter(others)).elements())
            out |= {(kept, tuple(sorted((*tags, tag)))) for kept, tags in placements(tuple(sorted(left)), pairs)}
    return frozenset(out)


def ways(hand: list[str], pairs: bool = False) -> set[tuple[str, int, tuple[str, ...]]]:
    """Every turn: (the discard, points kept, tags of the melds made)."""
    out = set()
    for discard in set(hand):
        left = list(hand)
        left.remove(discard)
        out |= {(discard, kept, tags) for kept, tags in placements(tuple(sorted(left)), pairs)}
    return out


def declares(tags: tuple[str, ...], pure_needed: bool) -> bool:
    sequences = sum(t in ("pure", "sequence") for t in tags)
    return sequences >= 2 and (not pure_needed or "pure" in tags) and "pair" not in tags


def routes_open(hand: list[str], options: dict) -> dict[str, bool]:
    """Which routes the hand goes out by (under the test ruleset's options)."""
    pairs = bool(options.get("pairs"))
    placed = all_placed(hand, pairs)
    if pairs:
        return {"pairs": ("pair", "pair", "pair", "set3") in placed}
    out = {"declaration": any(declares(t, options.get("pure-needed", True)) for t in placed)}
    if options.get("knock"):
        out["knock"] = least_kept(hand, pairs) <= options.get("knock-limit", 10)
    return out


def least_kept(hand: list[str], pairs: bool = False) -> int:
    """The fewest points a turn keeps."""
    return min(kept for _, kept, _ in ways(hand, pairs))


def all_placed(hand: list[str], pairs: bool = False) -> set[tuple[str, ...]]:
    """The tags of every turn that places every card but the discard (jokers too)."""
    out = set()
    for discard in set(hand):
        left = list(hand)
        left.remove(discard)
        out |= {tags for tags in _every_card_placed(tuple(sorted(left)), pairs)}
    return out


@lru_cache(maxsize=200_000)
def _every_card_placed(cards: tuple[str, ...], pairs: bool) -> frozenset[tuple[str, ...]]:
    if not cards:
        return frozenset([()])
    first, rest = cards[0], cards[1:]
    out: set[tuple[str, ...]] = set()
    for size in range(1, len(rest) + 1):
        for others in set(combinations(rest, size)):
            tag = meld_tag((first, *others), pairs)
            if tag is None:
                continue
            left = tuple(sorted((Counter(rest) - Counter(others)).elements()))
            out |= {tuple(sorted((*tags, tag))) for tags in _every_card_placed(left, pairs)}
    return frozenset(out)
