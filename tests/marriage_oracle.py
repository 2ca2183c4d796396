"""Marriage rules written out by hand from the document, for cross-checking the engine.

Nothing here uses the ruleset machinery: a card is (suit, rank 1..13), maal is computed from the
tiplu directly, and each combination kind is a predicate over three cards.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import combinations

RANKS = {"A": 1, **{str(i): i for i in range(2, 11)}, "J": 11, "Q": 12, "K": 13}


def card(face) -> tuple[str, int]:
    return face.suit, RANKS[face.rank]


def maal(c, tiplu) -> str | None:
    """tiplu, poplu, jhiplu, joker or None (ranks cycle: K → A → 2)."""
    if tiplu is None:
        return None
    (s, r), (ts, tr) = c, tiplu
    up = tr % 13 + 1
    down = (tr - 2) % 13 + 1
    if r == tr:
        return "tiplu" if s == ts else "joker"
    if s == ts and r == up:
        return "poplu"
    if s == ts and r == down:
        return "jhiplu"
    return None


def is_wild(c, tiplu) -> bool:
    return maal(c, tiplu) is not None


def consecutive(ranks) -> bool:
    """Three ranks in a row, the ace low (A-2-3) or high (Q-K-A), never K-A-2."""
    ranks = sorted(ranks)
    if ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1:
        return True
    return ranks == [1, 12, 13]


def pure_sequence(cards) -> bool:
    return len({s for s, _ in cards}) == 1 and consecutive([r for _, r in cards])


def tunnela(cards) -> bool:
    return len(set(cards)) == 1


def triplet(cards) -> bool:
    return len({r for _, r in cards}) == 1 and len({s for s, _ in cards}) == 3


def dirty_sequence(cards, tiplu) -> int | None:
    """The fewest wilds (one or two) with which the others, as themselves, fit a same-suit run of
    three; None if no such reading."""
    for k in (1, 2):
        for wilds in combinations(range(3), k):
            if not all(is_wild(cards[i], tiplu) for i in wilds):
                continue
            naturals = [cards[i] for i in range(3) if i not in wilds]
            if len({s for s, _ in naturals}) != 1:
                continue
            ranks = [r for _, r in naturals]
            if len(set(ranks)) != len(ranks):
                continue
            # some run of three holding the natural ranks
            for low in range(1, 13):
                run = [low, low + 1, low + 2]
                run = [14 if x == 14 else x for x in run]
                run = [1 if x == 14 else x for x in run]  # Q-K-A
                if all(r in run for r in ranks):
                    return k
    return None


def dirty_triplet(cards, tiplu) -> bool:
    """Two of a rank in different suits and one wild."""
    for i in range(3):
        if not is_wild(cards[i], tiplu):
            continue
        a, b = [cards[j] for j in range(3) if j != i]
        if a[1] == b[1] and a[0] != b[0]:
            return True
    return False


def combination(cards, tiplu) -> str | None:
    """The best kind of three cards (pure kinds first), or None."""
    cards = list(cards)
    if tunnela(cards):
        return "tunnela"
    if pure_sequence(cards):
        kinds = {maal(c, tiplu) for c in cards}
        return "marriage" if kinds == {"tiplu", "poplu", "jhiplu"} else "pure-sequence"
    if triplet(cards):
        return "triplet"
    # Of the dirty readings, the one with fewer cards acting as wilds is named (a dirty triplet
    # has one; on a tie the sequence, listed first).
    wilds = dirty_sequence(cards, tiplu)
    if wilds == 1:
        return "dirty-sequence"
    if dirty_triplet(cards, tiplu):
        return "dirty-triplet"
    if wilds == 2:
        return "dirty-sequence"
    return None


PURE = {"tunnela", "pure-sequence", "marriage"}


ROUTES = ("combinations", "dublees")


def can_go_out(hand, tiplu, shown_pure: int = 0, shown_melds: int = 0, routes=ROUTES) -> bool:
    """Seven combinations (shown ones count), three of them pure, and one discard; or eight
    dublees. ``routes``: the ways out tried (both by default)."""
    cards = sorted(card(f) for f in hand)
    counts = Counter(cards)
    if "dublees" in routes and sum(v // 2 for v in counts.values()) + shown_melds >= 8 and shown_pure == 0:
        return True  # the dublee route (dublees shown count toward it)
    if "combinations" not in routes:
        return False
    need = 7 - shown_melds

    @cache
    def search(rest: tuple, discarded: bool, pure: int, melds: int) -> bool:
        if not rest:
            return discarded and melds == need and pure + shown_pure >= 3
        first, others = rest[0], rest[1:]
        if not discarded and search(others, True, pure, melds):
            return True
        if melds == need:  # no room for another combination
            return False
        seen = set()
        for i, j in combinations(range(len(others)), 2):
            pair = (others[i], others[j])
            if pair in seen:
                continue
            seen.add(pair)
            kind = combination((first,) + pair, tiplu)
            if kind is None:
                continue
            left = others[:i] + others[i + 1 : j] + others[j + 1 :]
            if search(left, discarded, pure + (kind in PURE), melds + 1):
                return True
        return False

    return search(tuple(cards), False, 0, 0)
