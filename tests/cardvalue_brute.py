"""Independent brute force for two rummies whose melds count card values (imports nothing from
solver/): Rummy 500's best turn (the most card points melded, then the least kept) and its round
settled (each player's cards melded or laid off less the cards left in hand), and Kalooki's
going out with a first meld worth 40 or more. A card is written suit then rank ("S10", "HA") or
"JK" (a joker: any card). Sets are three or four cards of one rank and distinct suits; runs three
or more of one suit in the order A 2 … K A (an ace low or high, never both ends of one run).
Card values: an ace 1 at the low end of a run, else ``ace``; J Q K 10; a number its number; a
melded joker the card it stands for."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from itertools import combinations

SUITS = "SHDC"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
ORDER = RANKS + ["A"]  # places 0..13 of a run


def rank_value(rank: str, ace: int, low: bool = False) -> int:
    if rank == "A":
        return 1 if low else ace
    return 10 if rank in "JQK" else int(rank)


def hand_value(card: str, ace: int, joker: int) -> int:
    return joker if card == "JK" else rank_value(card[1:], ace)


def set_worth(cards: tuple[str, ...], ace: int) -> int | None:
    naturals = [c for c in cards if c != "JK"]
    if not 3 <= len(cards) <= 4 or not naturals:
        return None
    ranks = {c[1:] for c in naturals}
    if len(ranks) != 1 or len({c[0] for c in naturals}) != len(naturals):
        return None
    return rank_value(naturals[0][1:], ace) * len(cards)


def run_worth(cards: tuple[str, ...], ace: int) -> int | None:
    """The most a run of these cards counts, over every window the jokers let it fill."""
    naturals = [c for c in cards if c != "JK"]
    n = len(cards)
    if not 3 <= n <= 13 or not naturals or len({c[0] for c in naturals}) != 1:
        return None
    ranks = [c[1:] for c in naturals]
    if len(set(ranks)) != len(ranks):
        return None
    best = None
    for start in range(0, 14 - n + 1):
        window = ORDER[start : start + n]
        if set(ranks) <= set(window):
            worth = sum(rank_value(r, ace, low=(start + i == 0)) for i, r in enumerate(window))
            best = worth if best is None else max(best, worth)
    return best


def meld_worth(cards: tuple[str, ...], ace: int) -> int | None:
    """The most the cards count as one meld (a set or a run), None if they are none."""
    found = [w for w in (set_worth(cards, ace), run_worth(cards, ace)) if w is not None]
    return max(found) if found else None


def partitions(cards: tuple[str, ...], ace: int) -> Iterator[tuple[int, list[tuple[str, ...]]]]:
    """Every way to split all the cards into melds: (the melds' worth, the melds)."""
    if not cards:
        yield 0, []
        return
    first, rest = cards[0], cards[1:]
    seen = set()
    for size in range(2, min(12, len(rest)) + 1):
        for others in combinations(range(len(rest)), size):
            meld = tuple(sorted((first, *(rest[i] for i in others))))
            left = tuple(c for i, c in enumerate(rest) if i not in others)
            if (meld, left) in seen:
                continue
            seen.add((meld, left))
            worth = meld_worth(meld, ace)
            if worth is None:
                continue
            for more, melds in partitions(left, ace):
                yield worth + more, [meld, *melds]


@cache
def best_partition(cards: tuple[str, ...], ace: int) -> int | None:
    """The most all the (sorted) cards count split into melds, None if they cannot be."""
    return max((w for w, _ in partitions(cards, ace)), default=None)


def subsets(cards: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], tuple[str, ...]]]:
    """(melded, kept) for every subset of the cards."""
    n = len(cards)
    seen = set()
    for mask in range(1 << n):
        melded = tuple(sorted(cards[i] for i in range(n) if mask >> i & 1))
        kept = tuple(sorted(cards[i] for i in range(n) if not mask >> i & 1))
        if melded not in seen:
            seen.add(melded)
            yield melded, kept


def rummy500_best(hand: list[str]) -> tuple[int, int]:
    """(meld points, hand points) of the best turn: the most card points melded, then the least
    kept; a card left over means one of them is discarded."""
    best = (-1, 0)
    for melded, kept in subsets(tuple(sorted(hand))):
        worth = best_partition(melded, 15)
        if worth is None:
            continue
        values = sorted(hand_value(c, 15, 0) for c in kept)
        left = sum(values[:-1]) if values else 0  # the dearest card is discarded
        best = max(best, (worth, -left))
    return best[0], -best[1]


def kalooki_goes_out(hand: list[str], first_meld: int = 40) -> bool:
    """Can the hand meld every card but one discard, its melds worth ``first_meld`` together?"""
    cards = sorted(hand)
    for d in sorted(set(cards)):
        rest = list(cards)
        rest.remove(d)
        if any(w >= first_meld for w, _ in partitions(tuple(rest), 11)):
            return True
    return False


def kalooki_meld_ok(meld: list[str]) -> int | None:
    return meld_worth(tuple(sorted(meld)), 11)


def meld_card_values(cards: tuple[str, ...], ace: int) -> list[int] | None:
    """Each natural card's points as it lies in a meld (in the order given): a set's cards their
    rank's value, a run's by their place (an ace at the low end, before the 2, counts 1); None if
    the cards are no meld."""
    if set_worth(cards, ace) is not None:
        return [rank_value(c[1:], ace) for c in cards]
    if run_worth(cards, ace) is None or "JK" in cards:
        return None
    ranks = {c[1:] for c in cards}
    for start in range(0, 14 - len(cards) + 1):
        window = ORDER[start : start + len(cards)]
        if set(window) == ranks:
            place = {r: start + i for i, r in enumerate(window)}
            return [rank_value(c[1:], ace, low=place[c[1:]] == 0) for c in cards]
    return None


def round_scores(
    melds: list[tuple[str, list[str], dict[str, list[str]]]], hands: dict[str, list[str]], ace: int = 15
) -> dict[str, int]:
    """Each player's score for a Rummy 500 round: the points of every card they put on the table
    (their own melds' cards, less those others laid off on them, and the cards they laid off on
    others' melds), each valued as it lies in its meld, less their hand's card points.
    ``melds``: (owner, cards, {player: cards laid off on it})."""
    scores = {player: -sum(hand_value(c, ace, 0) for c in cards) for player, cards in hands.items()}
    for owner, cards, laid_off in melds:
        values = meld_card_values(tuple(cards), ace)
        assert values is not None, cards
        worth = dict(zip(cards, values, strict=True))
        others = {c for laid in laid_off.values() for c in laid}
        scores[owner] = scores.get(owner, 0) + sum(v for c, v in worth.items() if c not in others)
        for player, laid in laid_off.items():
            scores[player] = scores.get(player, 0) + sum(worth[c] for c in laid)
    return scores
