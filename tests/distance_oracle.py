"""A brute-force oracle for ``melds solve --distance`` and ``--discards``, sharing no code with melds.

A hand's distance is the fewest swaps (one card of the hand let go, one card drawn from the copies
left) after which it goes out. Here it is found by trying every swap: every multiset of ``d`` cards
of the hand let go with every multiset of ``d`` cards drawn, for d = 0, 1, … up to a depth, each new
hand judged by the game's own plain go-out oracle: Basic Rummy's written here, Indian Rummy's,
Okey's and Phase 10's (rummies_oracle.py), Contract Rummy's contract (contract_brute.py),
Marriage's (marriage_oracle.py), Gin Rummy's knock (the least deadwood of gin_brute.py), Fesca's
with its wild roles (fesca_oracle.py), Conquian's (every card melded, no discard, written here),
each judgement remembered by the hand's multiset. Each
game's deck is spelled out from its document (Fesca's from the ruleset's assumption, its deck list
being lost: fesca_oracle.DECK).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, combinations_with_replacement
from typing import NamedTuple

import contract_brute
import fesca_oracle
import gin_brute
import marriage_oracle
import rummies_oracle

BR_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
BR_SUITS = ("S", "H", "D", "C")
FIFTY_TWO = tuple(s + r for s in BR_SUITS for r in BR_RANKS)


def _br_card(text: str) -> tuple[int, str]:
    return BR_RANKS.index(text[1:]) + 1, text[0]


@lru_cache(maxsize=1 << 18)
def _br_melds(cards: tuple[tuple[int, str], ...]) -> bool:
    """Every card in groups (3-4 of a rank) or sequences (3+ of a suit in a row, the ace low only);
    ``cards`` sorted by rank, so the first card starts its sequence."""
    if not cards:
        return True
    (rank, suit), rest = cards[0], cards[1:]
    same = [c for c in rest if c[0] == rank]
    for n in (2, 3):
        for others in combinations(same, n):
            if len({suit, *(s for _, s in others)}) == n + 1:
                left = list(rest)
                for o in others:
                    left.remove(o)
                if _br_melds(tuple(left)):
                    return True
    left = list(rest)
    run = 1
    while (rank + run, suit) in left:
        left.remove((rank + run, suit))
        run += 1
        if run >= 3 and _br_melds(tuple(left)):
            return True
    return False


CQ_RANKS = ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K")  # Conquian's forty cards: 7 and J are neighbours
FORTY = tuple(s + r for s in BR_SUITS for r in CQ_RANKS)


def conquian_goes_out(hand: list[str]) -> bool:
    """Conquian (tests/data/rulesets/conquian.md): every card melded, none discarded — sets of three
    or four of a rank, sequences of three or more of a suit in the order A 2 … 7 J Q K."""
    return _br_melds(tuple(sorted((CQ_RANKS.index(c[1:]) + 1, c[0]) for c in hand)))


def br_goes_out(hand: list[str]) -> bool:
    """Basic Rummy: every card melded, or all but one, which is discarded."""
    cards = sorted(_br_card(c) for c in hand)
    return _br_melds(tuple(cards)) or any(_br_melds(tuple(cards[:i] + cards[i + 1 :])) for i in range(len(cards)))


class _Card(NamedTuple):
    suit: str
    rank: str


def marriage_goes_out(hand: list[str], tiplu: str) -> bool:
    return marriage_oracle.can_go_out(
        [_Card(c[0], c[1:]) for c in hand], marriage_oracle.card(_Card(tiplu[0], tiplu[1:]))
    )


@dataclass(frozen=True)
class Game:
    """A game's deck (card -> copies) and its go-out oracle (of a hand's card spellings)."""

    deck: dict[str, int]
    goes_out: Callable[[list[str]], bool]


def _by_multiset(judge: Callable[[list[str]], bool]) -> Callable[[list[str]], bool]:
    """The judge remembered by the hand's multiset: swaps reach one hand many ways."""
    remembered = lru_cache(maxsize=1 << 16)(lambda cards: judge(list(cards)))
    return lambda hand: remembered(tuple(sorted(hand)))


def game(ruleset: str, chosen: str | None = None, phase: int | None = None) -> Game:
    """The oracle of a ruleset under its chosen card (indicator, tiplu) or phase."""
    g = _game(ruleset, chosen, phase)
    return Game(g.deck, _by_multiset(g.goes_out))


def _game(ruleset: str, chosen: str | None, phase: int | None) -> Game:
    if ruleset == "basic-rummy":
        return Game(dict.fromkeys(FIFTY_TWO, 1), br_goes_out)
    if ruleset == "indian-rummy":
        assert chosen is not None
        return Game({**dict.fromkeys(FIFTY_TWO, 2), "JK": 2}, lambda h: rummies_oracle.ir_declares(h, chosen))
    if ruleset == "okey":
        assert chosen is not None
        tiles = {c + str(n): 2 for c in "rybk" for n in range(1, 14)}
        return Game({**tiles, "FJ": 2}, lambda h: rummies_oracle.ok_goes_out(h, chosen))
    if ruleset == "phase-10":
        assert phase is not None
        cards = {c + str(n): 2 for c in "rbgy" for n in range(1, 13)}
        return Game({**cards, "W": 8, "S": 4}, lambda h: rummies_oracle.p10_lays_down(h, phase))
    if ruleset == "gin-rummy":  # a knock: ten cards after the discard with at most 10 of deadwood
        return Game(dict.fromkeys(FIFTY_TWO, 1), lambda h: gin_brute.best_discards(h)[0] <= 10)
    if ruleset == "contract-rummy":  # 1.1: two decks and four jokers; going out lays the round's contract
        assert phase is not None
        return Game({**dict.fromkeys(FIFTY_TWO, 2), "JK": 4}, lambda h: contract_brute.lays_contract(h, phase))
    if ruleset == "fesca":  # 五行, 陰陽, 空無 and 太極 cards, one of each (fesca_oracle.py)
        assert chosen in fesca_oracle.CYCLES
        return Game(dict.fromkeys(fesca_oracle.DECK, 1), lambda h: fesca_oracle.goes_out(h, chosen))
    if ruleset == "conquian":  # a way out melds every card: no discard (going_out: discard: none)
        return Game(dict.fromkeys(FORTY, 1), conquian_goes_out)
    if ruleset == "marriage":
        assert chosen is not None
        return Game(dict.fromkeys(FIFTY_TWO, 3), lambda h: marriage_goes_out(h, chosen))
    raise KeyError(ruleset)


def left_of(g: Game, seen: list[str]) -> Counter[str]:
    """The copies of each card not seen."""
    left = Counter(g.deck)
    left.subtract(Counter(seen))
    assert all(n >= 0 for n in left.values()), seen
    return +left


def _multisets(counts: Counter[str], size: int) -> Iterator[tuple[str, ...]]:
    for combo in combinations_with_replacement(sorted(counts), size):
        if all(counts[c] >= n for c, n in Counter(combo).items()):
            yield combo


def swapped(hand: list[str], aside: tuple[str, ...], drawn: tuple[str, ...]) -> list[str]:
    out = Counter(hand)
    out.subtract(Counter(aside))
    out.update(Counter(drawn))
    return sorted(out.elements())


def within(g: Game, hand: list[str], left: Counter[str], d: int) -> bool:
    """Does some swap of exactly ``d`` cards make the hand go out? (A card let go and drawn back is
    no swap: its swaps are those of fewer cards, which callers try first.)"""
    for aside in _multisets(Counter(hand), d):
        for drawn in _multisets(left, d):
            if set(aside) & set(drawn):
                continue  # a card let go and drawn back: a swap of fewer cards, tried at a lower d
            if g.goes_out(swapped(hand, aside, drawn)):
                return True
    return False


def distance(g: Game, hand: list[str], left: Counter[str], depth: int) -> int | None:
    """The hand's distance when at most ``depth`` (None: more than ``depth``)."""
    return next((d for d in range(depth + 1) if within(g, hand, left, d)), None)


def proved_distance(g: Game, hand: list[str], left: Counter[str], aside: list[str], drawn: list[str]) -> int:
    """The distance of a hand given a way out: the swaps of ``aside`` for ``drawn`` (cards of the
    hand and cards left) make it go out, and no fewer swaps do (every one tried)."""
    assert len(aside) == len(drawn) and not Counter(aside) - Counter(hand) and not Counter(drawn) - left
    assert g.goes_out(swapped(hand, tuple(aside), tuple(drawn))), (hand, aside, drawn)
    assert not any(within(g, hand, left, d) for d in range(len(aside))), (hand, aside, drawn)
    return len(aside)


def discard_row(g: Game, hand: list[str], left: Counter[str], discard: str, depth: int) -> tuple[int, list[str]] | None:
    """A discard's row: 1 + the least distance of the hand once it is let go and a card drawn, and
    the cards whose draw reaches that least (None: beyond ``depth``). Every draw is tried at one
    depth before any at the next, so the search stops at the first depth some draw reaches."""
    rest = list(hand)
    rest.remove(discard)
    for d in range(depth):
        draws = [y for y in sorted(left) if within(g, sorted(rest + [y]), left - Counter([y]), d)]
        if draws:
            return d + 1, draws
    return None
