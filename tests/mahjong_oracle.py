"""A plain-Python oracle for riichi hand shapes, written from the rules, not from the ruleset.

Hands are 34-entry count arrays: 1m–9m, 1p–9p, 1s–9s, then 東南西北白發中. A decomposition is
``(shape, parts)`` with ``parts`` a sorted tuple of ``(kind, index of the lowest tile)``, kinds
named as in the ruleset (shuntsu, koutsu, toitsu, yaochu, yaochu-pair).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

HONOURS = "東南西北白發中"
YAOCHU = (0, 8, 9, 17, 18, 26, *range(27, 34))


def index_of(suit: str, rank: str) -> int:
    if suit == "z":
        return 27 + HONOURS.index(rank)
    return "mps".index(suit) * 9 + int(rank) - 1


def _standard(counts: list[int], melds: int, pair: bool, start: int) -> Iterator[tuple]:
    i = next((k for k in range(start, 34) if counts[k]), None)
    if i is None:
        if melds == 0 and pair:
            yield ()
        return
    if melds and counts[i] >= 3:
        counts[i] -= 3
        for rest in _standard(counts, melds - 1, pair, i):
            yield (("koutsu", i),) + rest
        counts[i] += 3
    if melds and i < 27 and i % 9 <= 6 and counts[i + 1] and counts[i + 2]:
        for k in (i, i + 1, i + 2):
            counts[k] -= 1
        for rest in _standard(counts, melds - 1, pair, i):
            yield (("shuntsu", i),) + rest
        for k in (i, i + 1, i + 2):
            counts[k] += 1
    if not pair and counts[i] >= 2:
        counts[i] -= 2
        for rest in _standard(counts, melds, True, i):
            yield (("toitsu", i),) + rest
        counts[i] += 2


def decompositions(counts: Sequence[int], declared: int = 0) -> set[tuple]:
    """Every way the concealed tiles complete a hand with ``declared`` melds already declared."""
    counts = list(counts)
    out = {("standard", tuple(sorted(parts))) for parts in _standard(counts, 4 - declared, False, 0)}
    if declared == 0 and sum(counts) == 14:
        if sorted(c for c in counts if c) == [2] * 7:
            out.add(("chiitoitsu", tuple(("toitsu", i) for i, c in enumerate(counts) if c)))
        if all(counts[i] for i in YAOCHU) and all(counts[i] == 0 for i in range(34) if i not in YAOCHU):
            pair = next(i for i in YAOCHU if counts[i] == 2)
            out.add(("kokushi", tuple(sorted([("yaochu", i) for i in YAOCHU if i != pair] + [("yaochu-pair", pair)]))))
    return out


def is_winning(counts: Sequence[int], declared: int = 0) -> bool:
    return bool(decompositions(counts, declared))


def waits(counts: Sequence[int], declared: int = 0, allowed: Sequence[int] = range(34)) -> list[int]:
    """The tiles that complete the hand (a fifth copy allowed: formal tenpai)."""
    out = []
    trial = list(counts)
    for i in allowed:
        trial[i] += 1
        if is_winning(trial, declared):
            out.append(i)
        trial[i] -= 1
    return out


# -- random hands that are often interesting ---------------------------------------------------


def random_complete(rng: random.Random, melds: int = 4, allowed: Sequence[int] = range(34)) -> list[int]:
    """A random complete hand (melds + pair), at most four of a tile, from the allowed tiles."""
    allowed = list(allowed)
    while True:
        counts = [0] * 34
        for _ in range(melds):
            if rng.random() < 0.55:
                starts = [i for i in allowed if i < 27 and i % 9 <= 6 and i + 1 in allowed and i + 2 in allowed]
                if starts:
                    s = rng.choice(starts)
                    for k in (s, s + 1, s + 2):
                        counts[k] += 1
                    continue
            counts[rng.choice(allowed)] += 3
        counts[rng.choice(allowed)] += 2
        if max(counts) <= 4:
            return counts


def random_hand(
    rng: random.Random, size: int, allowed: Sequence[int] = range(34), suits: int | None = None
) -> list[int]:
    """A random hand of ``size`` tiles drawn from a full set (four of each allowed tile),
    often from few suits so that tenpai and wins are common."""
    allowed = list(allowed)
    if suits is None:
        suits = rng.choice([1, 1, 2, 3, 4])
    chosen = rng.sample(range(4), suits)
    pool = [i for i in allowed if (i // 9 if i < 27 else 3) in chosen for _ in range(4)]
    if len(pool) < size:
        pool = [i for i in allowed for _ in range(4)]
    counts = [0] * 34
    for i in rng.sample(pool, size):
        counts[i] += 1
    return counts


def near_complete(rng: random.Random, allowed: Sequence[int] = range(34)) -> list[int]:
    """A complete hand with one tile taken out (13 tiles, usually tenpai)."""
    counts = random_complete(rng, allowed=allowed)
    i = rng.choice([k for k, c in enumerate(counts) if c])
    counts[i] -= 1
    return counts
