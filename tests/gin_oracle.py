"""OpenSpiel's Gin Rummy utilities as an oracle for rulesets/gin-rummy.yaml (no code of melds).

``pyspiel.gin_rummy.GinRummyUtils`` gives the minimum deadwood of a hand of ten (``min_deadwood``),
the melds (``is_rank_meld``, ``is_suit_meld``) and what may be laid off on a meld
(``rank_meld_layoff``, ``suit_meld_layoffs``). Its ``all_layoffs`` extends each run once by the
cards laid off before (A 2 3 with 4 and 5 laid off offers the 5 again, not the 6), so the
defender's lay-offs are chained here meld by meld with the two single-meld functions instead.
"""

from __future__ import annotations

import random
from functools import lru_cache

import pyspiel

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "C", "D", "H")  # OpenSpiel's order: spades, clubs, diamonds, hearts
DECK = tuple(s + r for s in SUITS for r in RANKS)


@lru_cache(maxsize=1)
def utils():
    return pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)


def to_spiel(card: str) -> int:
    """A melds card (SA, H10) as OpenSpiel's index (suit × 13 + rank)."""
    return SUITS.index(card[0]) * 13 + RANKS.index(card[1:])


def from_spiel(index: int) -> str:
    return SUITS[index // 13] + RANKS[index % 13]


def value(card: str) -> int:
    return utils().card_value(to_spiel(card))


def min_deadwood(cards: list[str]) -> int:
    """The least deadwood of a hand as it stands (OpenSpiel's min_deadwood of its cards)."""
    return utils().min_deadwood([to_spiel(c) for c in cards])


def best_discards(cards: list[str]) -> tuple[int, set[str]]:
    """For eleven cards: the least deadwood after a discard, and every discard that leaves it."""
    after = {c: min_deadwood([d for d in cards if d != c]) for c in cards}
    least = min(after.values())
    return least, {c for c, v in after.items() if v == least}


def is_meld(cards: list[str]) -> bool:
    ints = [to_spiel(c) for c in cards]
    return utils().is_rank_meld(ints) or utils().is_suit_meld(ints)


def best_melds(cards: list[str]) -> list[list[str]]:
    """One arrangement with the least deadwood (OpenSpiel's best_meld_group)."""
    return [[from_spiel(i) for i in meld] for meld in utils().best_meld_group([to_spiel(c) for c in cards])]


def layoff_deadwood(knocker_melds: list[list[str]], defender: list[str]) -> int:
    """The defender's least deadwood after laying off on the knocker's melds (chained: a run
    extended may be extended again) and melding the rest."""
    melds = [tuple(sorted(to_spiel(c) for c in m)) for m in knocker_melds]
    best = min_deadwood(defender)
    seen = set()
    stack = [(tuple(melds), frozenset(to_spiel(c) for c in defender))]
    while stack:
        state = stack.pop()
        if state in seen:
            continue
        seen.add(state)
        current, hand = state
        best = min(best, utils().min_deadwood(sorted(hand)))
        for k, meld in enumerate(current):
            for card in _layoffs(list(meld)):
                if card in hand:
                    grown = (*current[:k], tuple(sorted((*meld, card))), *current[k + 1 :])
                    stack.append((grown, hand - {card}))
    return best


def _layoffs(meld: list[int]) -> list[int]:
    if utils().is_rank_meld(meld):
        return [utils().rank_meld_layoff(meld)] if len(meld) == 3 else []
    return list(utils().suit_meld_layoffs(meld))


def meld_built(rng: random.Random, size: int) -> list[str]:
    """A hand of ``size`` cards made mostly of runs and sets."""
    deck = list(DECK)
    hand: list[str] = []
    while size - len(hand) >= 3:  # room for one more meld
        if rng.random() < 0.5:
            suit, length = rng.choice(SUITS), rng.randint(3, 5)
            start = rng.randint(0, 13 - length)
            meld = [suit + r for r in RANKS[start : start + length]]
        else:
            rank = rng.choice(RANKS)
            meld = [s + rank for s in rng.sample(SUITS, rng.randint(3, 4))]
        if any(c not in deck for c in meld) or len(hand) + len(meld) > size:
            continue
        for c in meld:
            deck.remove(c)
        hand += meld
    while len(hand) < size:
        hand.append(deck.pop(rng.randrange(len(deck))))
    rng.shuffle(hand)
    return hand
