"""An independent go-out oracle for Fesca Wild Rummy R (rulesets/documents/000_*.txt), sharing no
code with melds and asking it nothing.

What it covers, read from the document: hands of 五行札 alone (木 火 土 金 水, ranks 1-12, one copy
of each card), on a normal turn (鳴き手番 excluded), with no table, in a given field phase (陽場 or
陰場). The melds it knows:

- 組 (set): "3 ~ 6 枚の同ランク札": of 五行 cards, one rank and each suit once (three to five cards:
  a sixth suit exists only as a 陰陽 card, which this oracle does not hold).
- 順 (run): "3 枚以上の同スートの連番札", consecutive ranks of one suit; 12 and 1 do not join ("12と1は
  繋がらないので順として認められない": only ZAT, a 空無 card, joins them).
- 相順 (chain): "最大枚数は5枚（各スト1枚ずつ）", "最低は3枚から", "どのストから開始してもよい": three to
  five cards of consecutive ranks whose suits, in rank order, follow a cycle or its reverse,
  相生 木→火→土→金→水 (→木) in 陽場 and 相克 水→火→金→木→土 (→水) in 陰場 ("陽場では相生が有効…
  陰場では逆に相克が有効となる").

A hand goes out on a normal turn when one card is discarded ("通常の手番では、必ず捨て札して上がる
必要がある") and every other card lies in one of these melds. With naturals alone a group of cards
is at most one of set, run and chain, so the document's rule that a meld must be one kind only
("組か順が定まらない複合は認められない") never bites here. Not covered: 陰陽札, 空無札, 太極札 (the wild
roles SW, RW, GW and ZAT), the table and its single-card operations, claimed turns, scoring.
"""

from __future__ import annotations

from functools import lru_cache

SUITS = ("木", "火", "土", "金", "水")
CYCLES = {"yang": ("木", "火", "土", "金", "水"), "yin": ("水", "火", "金", "木", "土")}  # 相生, 相克
Card = tuple[int, str]  # (rank, suit)


def card(text: str) -> Card:
    """(3, '木') for 木3; a 陰陽, 空無 or 太極 card is outside this oracle."""
    suit, rank = text[0], int(text[1:])
    if suit not in SUITS or not 1 <= rank <= 12:
        raise ValueError(f"{text}: not a 五行 card")
    return rank, suit


def goes_out(hand: list[str], phase: str) -> bool:
    """Some discard leaves every other card in sets, runs and the phase's chains."""
    cards = sorted(card(c) for c in hand)
    return any(melds_all(tuple(cards[:i] + cards[i + 1 :]), phase) for i in range(len(cards)))


@lru_cache(maxsize=1 << 16)
def melds_all(cards: tuple[Card, ...], phase: str) -> bool:
    """Every card in a meld: the lowest card (``cards`` sorted by rank) lies in some meld, which it
    starts when a run or a chain, and the rest meld too."""
    if not cards:
        return True
    first, rest = cards[0], cards[1:]
    return any(melds_all(_without(rest, meld), phase) for meld in _melds_from(first, rest, phase))


def _melds_from(first: Card, rest: tuple[Card, ...], phase: str) -> list[list[Card]]:
    """The other cards of each meld holding ``first`` as its lowest rank."""
    rank, suit = first
    out: list[list[Card]] = []
    same_rank = [c for c in rest if c[0] == rank]
    for size in (2, 3, 4):  # a set of three to five
        out.extend(_subsets(same_rank, size))
    run: list[Card] = []
    while (rank + len(run) + 1, suit) in rest:
        run.append((rank + len(run) + 1, suit))
        if len(run) >= 2:
            out.append(list(run))
    for order in (CYCLES[phase], CYCLES[phase][::-1]):
        chain: list[Card] = []
        at = order.index(suit)
        while len(chain) < 4:
            nxt = (rank + len(chain) + 1, order[(at + len(chain) + 1) % 5])
            if nxt not in rest:
                break
            chain.append(nxt)
            if len(chain) >= 2:
                out.append(list(chain))
    return out


def _subsets(cards: list[Card], size: int) -> list[list[Card]]:
    if size == 0:
        return [[]]
    return [[c, *more] for i, c in enumerate(cards) for more in _subsets(cards[i + 1 :], size - 1)]


def _without(cards: tuple[Card, ...], used: list[Card]) -> tuple[Card, ...]:
    left = list(cards)
    for c in used:
        left.remove(c)
    return tuple(left)


def meld_problem(cards: list[str], phase: str) -> str | None:
    """A meld an answer gives, re-checked: a set, a run or the phase's chain of 五行 naturals."""
    parsed = sorted(card(c) for c in cards)
    ok = parsed[1:] in _melds_from(parsed[0], tuple(parsed[1:]), phase)
    return None if ok else f"{' '.join(cards)}: no set, run or chain"
