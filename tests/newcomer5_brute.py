"""Independent brute force for the three rummies of tests/data/rulesets/ written by the fifth newcomer:
Chinchón (chinchon.md), Scala 40 (scala-40.md) and Okey 101 (okey-101.md), read from their rule
statements alone. It imports nothing from ``solver/``: cards are strings like ``O7``, ``SA``,
``r12``, ``JK`` and ``FJ``.

One search serves the three games: a hand is split into melds by taking its first natural card and
trying every meld that holds it (every set of its rank, every run window through it, wilds filling
the gaps), memoised on what is left. Each game says what a meld is and what a meld or a kept card is
worth.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations

NONE = float("-inf")


@dataclass(frozen=True)
class Game:
    """What the search needs of a game: the suits, the run order (a rank may stand twice: an ace
    low and high), set and run sizes, the most wilds a meld holds, and what a card is worth."""

    suits: tuple[str, ...]
    order: tuple[str, ...]
    set_sizes: tuple[int, int]
    run_sizes: tuple[int, int]
    wilds_per_meld: int
    worth: Callable[[str, int, int], int]  # (rank stood for, place in the run or -1 in a set, run length)


def split(card: str) -> tuple[str, str]:
    """A natural card's suit and rank (``O12`` → ``O``, ``12``; ``r5`` → ``r``, ``5``)."""
    return card[0], card[1:]


def melds_with(game: Game, first: str, naturals: Counter, wilds: int) -> Iterator[tuple[tuple[str, ...], int, int]]:
    """Every meld holding ``first``: (its other natural cards, the wilds it uses, its worth)."""
    suit, rank = split(first)
    others = [s for s in game.suits if s != suit and naturals[s + rank] > 0]
    low, high = game.set_sizes
    for size in range(low, high + 1):
        for n_nat in range(max(0, size - 1 - min(wilds, game.wilds_per_meld)), min(size - 1, len(others)) + 1):
            used = size - 1 - n_nat
            for chosen in combinations(others, n_nat):
                yield tuple(s + rank for s in chosen), used, game.worth(rank, -1, size) * size
    places = [i for i, r in enumerate(game.order) if r == rank]
    low, high = game.run_sizes
    for place in places:
        for length in range(low, high + 1):
            for start in range(max(0, place - length + 1), min(place, len(game.order) - length) + 1):
                window = game.order[start : start + length]
                if len(set(window)) < length:  # a run holds each rank once (no A ... A round the corner)
                    continue
                need = [suit + r for i, r in enumerate(window) if start + i != place]
                present = [c for c in need if naturals[c] > 0]  # each needed once: a run's ranks differ
                missing = len(need) - len(present)
                room = min(wilds, game.wilds_per_meld) - missing
                worth = sum(game.worth(r, i, length) for i, r in enumerate(window))
                for replaced in range(max(-1, min(room, len(present))) + 1):  # wilds in place of naturals too
                    for taken in combinations(present, len(present) - replaced):
                        yield taken, missing + replaced, worth


def best_split(game: Game, cards: Sequence[str], wild: Callable[[str], bool]) -> float:
    """The most worth the cards can make melded every one (``NONE``: they cannot all be melded)."""
    naturals = tuple(sorted(c for c in cards if not wild(c)))
    wilds = sum(1 for c in cards if wild(c))
    return _best(game, naturals, wilds)


@cache
def _best(game: Game, naturals: tuple[str, ...], wilds: int) -> float:
    if not naturals:
        return 0 if wilds == 0 else NONE  # a wild alone is no meld; jokers go with naturals
    first, rest = naturals[0], Counter(naturals[1:])
    best = NONE
    for taken, used, worth in melds_with(game, first, rest, wilds):
        left = rest.copy()
        left.subtract(taken)
        if min(left.values(), default=0) < 0:
            continue
        tail = _best(game, tuple(sorted(left.elements())), wilds - used)
        if tail != NONE:
            best = max(best, worth + tail)
    return best


def least_kept(game: Game, cards: Sequence[str], wild: Callable[[str], bool], kept_points: Callable[[str], int]) -> int:
    """The fewest points the cards can keep unmatched, the rest melded."""
    return _least(game, tuple(sorted(cards)), wild, kept_points)


@cache
def _least(game: Game, cards: tuple[str, ...], wild: Callable[[str], bool], kept_points: Callable[[str], int]) -> int:
    naturals = [c for c in cards if not wild(c)]
    if not naturals:
        return sum(kept_points(c) for c in cards)
    first = naturals[0]
    rest = list(cards)
    rest.remove(first)
    best = kept_points(first) + _least(game, tuple(rest), wild, kept_points)
    left_nat = Counter(c for c in rest if not wild(c))
    wilds = [c for c in rest if wild(c)]
    for taken, used, _ in melds_with(game, first, left_nat, len(wilds)):
        left = list(rest)
        for c in taken:
            left.remove(c)
        for c in wilds[:used]:
            left.remove(c)
        best = min(best, _least(game, tuple(left), wild, kept_points))
    return best


# ---- Chinchón (chinchon.md): 40 Spanish cards, 7 in hand, closing with 5 points or fewer kept

CHINCHON_SUITS = ("O", "C", "E", "B")
CHINCHON_ORDER = ("1", "2", "3", "4", "5", "6", "7", "10", "11", "12")  # rule 5: 7 and 10 neighbours
CHINCHON_DECK = [s + r for s in CHINCHON_SUITS for r in CHINCHON_ORDER]
CHINCHON = Game(CHINCHON_SUITS, CHINCHON_ORDER, (3, 4), (3, 10), 8, lambda rank, place, n: 0)


def chinchon_points(card: str) -> int:
    """Rule 12: a number its number, a figure 10, a joker 25."""
    if card == "JK":
        return 25
    rank = int(card[1:])
    return 10 if rank >= 10 else rank


def is_joker(card: str) -> bool:
    return card == "JK"


def chinchon_turn(hand: Sequence[str]) -> dict:
    """Eight cards (seven and the one drawn): the least points kept after each discard, and whether
    the turn closes, closes with every card melded, or makes chinchón (rules 9–11)."""
    least, chinchon = 10**9, False
    for i in set(range(len(hand))):
        kept = [c for j, c in enumerate(hand) if j != i]
        least = min(least, least_kept(CHINCHON, kept, is_joker, chinchon_points))
        suits = {c[0] for c in kept}
        if "JK" not in kept and len(suits) == 1:
            places = sorted(CHINCHON_ORDER.index(c[1:]) for c in kept)
            chinchon = chinchon or places == list(range(places[0], places[0] + 7))
    return {"least": least, "all_melded": least == 0, "can_close": least <= 5, "chinchon": chinchon}


# ---- Scala 40 (scala-40.md): two decks and four jokers, one joker a meld, the apertura of 40

SCALA_SUITS = ("S", "H", "D", "C")
SCALA_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SCALA_DECK = [s + r for s in SCALA_SUITS for r in SCALA_RANKS] * 2 + ["JK"] * 4


def _scala_worth(rank: str, place: int, length: int) -> int:
    """Rule 9: an ace 11, but 1 at the low end of a run; a figure 10; a number its number."""
    if rank == "A":
        return 1 if place == 0 else 11
    return 10 if rank in ("J", "Q", "K") else int(rank)


SCALA = Game(SCALA_SUITS, (*SCALA_RANKS, "A"), (3, 4), (3, 13), 1, _scala_worth)


def scala_goes_out(hand: Sequence[str], has_opened: bool) -> bool:
    """Rules 8 and 11: every card but one discarded in melds, worth 40 or more unless opened."""
    for i in set(range(len(hand))):
        kept = [c for j, c in enumerate(hand) if j != i]
        worth = best_split(SCALA, kept, is_joker)
        if worth != NONE and (has_opened or worth >= 40):
            return True
    return False


def scala_meld(cards: Sequence[str]) -> bool:
    """Rules 3–6: is this one set or run?"""
    return _one_meld(SCALA, cards, "JK")


def _one_meld(game: Game, cards: Sequence[str], joker: str) -> bool:
    naturals = sorted(c for c in cards if c != joker)
    wilds = len(cards) - len(naturals)
    if not naturals:
        return False
    rest = Counter(naturals[1:])
    return any(
        used == wilds and Counter(taken) == rest for taken, used, _ in melds_with(game, naturals[0], rest, wilds)
    )


# ---- Okey 101 (okey-101.md): 106 tiles, an indicator, 21 tiles, 101 points or five pairs to open

OKEY_SUITS = ("r", "y", "b", "k")
OKEY_ORDER = tuple(str(n) for n in range(1, 14))  # rule 7: 12 13 1 is no run
OKEY_DECK = [s + r for s in OKEY_SUITS for r in OKEY_ORDER] * 2 + ["FJ", "FJ"]
OKEY = Game(OKEY_SUITS, OKEY_ORDER, (3, 4), (3, 13), 99, lambda rank, place, n: int(rank))


def okey_of(indicator: str) -> str:
    """Rule 3: the next number of the indicator's colour, 1 after 13."""
    suit, rank = split(indicator)
    return suit + str(int(rank) % 13 + 1)


def okey_tiles(hand: Sequence[str], indicator: str) -> list[str]:
    """Rules 4 and 5: each okey tile a wild ``W`` (a wild may stand for the tile it is), each false
    joker the okey tile as a natural."""
    okey = okey_of(indicator)
    return ["W" if c == okey else okey if c == "FJ" else c for c in hand]


def is_okey(card: str) -> bool:
    return card == "W"


def okey_opens(hand: Sequence[str], indicator: str, has_opened: bool = False) -> bool:
    """Rules 9 and 12 along sets and runs: every tile but one discarded melded, worth 101 or more
    unless opened before."""
    tiles = okey_tiles(hand, indicator)
    for i in set(range(len(tiles))):
        worth = best_split(OKEY, [c for j, c in enumerate(tiles) if j != i], is_okey)
        if worth != NONE and (has_opened or worth >= 101):
            return True
    return False


def okey_most_pairs(hand: Sequence[str], indicator: str) -> int:
    """Rule 10: the most pairs the hand can lay after its discard — identical tiles, the okey
    wild, a false joker as the okey tile (two okeys may pair as two of one tile)."""
    tiles, best = okey_tiles(hand, indicator), 0
    for i in set(range(len(tiles))):
        kept = [c for j, c in enumerate(tiles) if j != i]
        wilds = kept.count("W")
        naturals = Counter(c for c in kept if c != "W")
        pairs = sum(n // 2 for n in naturals.values())
        singles = sum(n % 2 for n in naturals.values())
        pairs += min(wilds, singles) + max(0, wilds - singles) // 2
        best = max(best, pairs)
    return best
