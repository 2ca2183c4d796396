"""A rearranging turn by brute force, independent of melds (nothing from solver/): the plain checker
the tests hold every answer of a ruleset with ``table: {rearrange: free}`` against, for a game
described by a :class:`Game` (suits, ranks and their values in run order, a wild card's name, the
group and run sizes, the most wilds a run may hold, a rank whose cards may be wild or themselves).

* a **meld**: a *group* is cards of one rank in distinct suits, wilds taking the missing suits; a
  *run* is cards of one suit whose ranks, with wilds in the gaps or at the ends, fill a window of
  the rank order; either holds a natural card;
* a meld's **value**: the values of the ranks its cards stand for, the most it can;
* the **best turn**: with ``has_melded``, the table's cards and some of the hand's are split into
  melds — every table card used — placing the most hand cards, then the most *value placed* (the
  values printed on the hand's cards placed; a wild adds none); without it, the table is left as it
  is and melds are made of the hand's cards alone, worth at least ``initial`` together.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache
from itertools import combinations, product


@dataclass(frozen=True)
class Game:
    suits: tuple[str, ...]
    ranks: tuple[str, ...]  # in run order
    values: tuple[int, ...]  # each rank's value
    wild: str
    group_sizes: tuple[int, int]
    run_sizes: tuple[int, int]
    run_wilds: int | None = None  # the most wilds a run holds (None: any)
    dual_rank: str | None = None  # cards of this rank may be wild or themselves

    def split(self, card: str) -> tuple[str, str]:
        for suit in self.suits:
            if card.startswith(suit) and card[len(suit) :] in self.ranks:
                return suit, card[len(suit) :]
        raise ValueError(f"not a card: {card}")

    def value(self, rank: str) -> int:
        return self.values[self.ranks.index(rank)]

    def printed(self, card: str) -> int:
        return 0 if card == self.wild else self.value(self.split(card)[1])

    def _group(self, naturals: list[tuple[str, str]], n: int) -> int | None:
        low, high = self.group_sizes
        if not naturals or not low <= n <= min(high, len(self.suits)):
            return None
        if len({r for _, r in naturals}) != 1 or len({s for s, _ in naturals}) != len(naturals):
            return None
        return self.value(naturals[0][1]) * n

    def _run(self, naturals: list[tuple[str, str]], n: int) -> int | None:
        low, high = self.run_sizes
        if not naturals or not low <= n <= high or len({s for s, _ in naturals}) != 1:
            return None
        if self.run_wilds is not None and n - len(naturals) > self.run_wilds:
            return None
        ranks = {r for _, r in naturals}
        if len(ranks) != len(naturals):
            return None
        best = None
        for start in range(len(self.ranks) - n + 1):
            window = self.ranks[start : start + n]
            if ranks <= set(window):
                best = max(best or 0, sum(self.value(r) for r in window))
        return best

    def meld_value(self, cards) -> int | None:
        """The most a meld of these cards is worth, each card of ``dual_rank`` natural or wild as
        suits best; None: they are no meld. Wilds need a natural card of another rank beside them."""
        duals = [i for i, c in enumerate(cards) if c != self.wild and self.split(c)[1] == self.dual_rank]
        best = None
        for k in range(len(duals) + 1):
            for standing in combinations(duals, k):
                naturals = [self.split(c) for i, c in enumerate(cards) if c != self.wild and i not in standing]
                if len(naturals) < len(cards) and not any(r != self.dual_rank for _, r in naturals):
                    continue
                for value in (self._group(naturals, len(cards)), self._run(naturals, len(cards))):
                    if value is not None and (best is None or value > best):
                        best = value
        return best

    def partition_value(self, cards) -> int | None:
        """The most total value over the ways to split ``cards`` into melds; None: no way."""
        return _partition(self, tuple(sorted(cards, key=lambda c: (c == self.wild, c))))

    def best_turn(self, hand: list[str], table: list[list[str]], has_melded: bool, initial: int) -> tuple[int, int]:
        """(hand cards placed, value placed) of the best turn (see the module docstring)."""
        on_table = [c for meld in table for c in meld]
        best = (0, 0)
        for chosen in _sub_multisets(hand):
            key = (len(chosen), sum(self.printed(c) for c in chosen))
            if key <= best:
                continue
            if has_melded:
                ok = self.partition_value(on_table + list(chosen)) is not None
            else:
                value = self.partition_value(list(chosen))
                ok = value is not None and value >= initial
            if ok:
                best = key
        return best

    def arrangement_ok(self, hand, table_before, placed, table_after) -> bool:
        """An answer holds: every meld legal, the table after = the table before + the cards
        placed, which came from the hand."""
        before = Counter(c for meld in table_before for c in meld)
        after = Counter(c for meld in table_after for c in meld)
        return (
            all(self.meld_value(m) is not None for m in table_after)
            and after == before + Counter(placed)
            and not Counter(placed) - Counter(hand)
        )


@cache
def _partition(game: Game, cards: tuple[str, ...]) -> int | None:
    if not cards:
        return 0
    first, rest = cards[0], cards[1:]
    if first == game.wild:
        return None  # wilds alone make no meld
    longest = max(game.group_sizes[1], game.run_sizes[1])
    best = None
    seen = set()
    for size in range(2, longest + 1):
        for others in combinations(range(len(rest)), size - 1):
            meld = (first, *(rest[i] for i in others))
            key = tuple(sorted(meld))
            if key in seen:
                continue
            seen.add(key)
            value = game.meld_value(meld)
            if value is None:
                continue
            left = tuple(c for i, c in enumerate(rest) if i not in others)
            sub = _partition(game, left)
            if sub is not None and (best is None or value + sub > best):
                best = value + sub
    return best


def _sub_multisets(hand: list[str]):
    """Every sub-multiset of the hand, each once."""
    counts = Counter(hand)
    faces = sorted(counts)
    for taken in product(*(range(counts[f] + 1) for f in faces)):
        yield tuple(f for f, k in zip(faces, taken, strict=True) for _ in range(k))
