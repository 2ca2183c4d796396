"""Shanten of a riichi mahjong hand, for the self-play policy of tests/selfplay.py (an oracle's
helper: it imports nothing from solver/).

A hand is 34 counts (1–9m, 1–9p, 1–9s, 東南西北白發中). The regular form's shanten is
``8 - 2·melds - partial - head`` with melds + partial ≤ 4 (a declared meld counts as a meld); each
suit's best (melds, partial, head) combinations are searched once per count pattern and kept.
Seven pairs and thirteen orphans count for a closed hand of 13 or 14 tiles.
"""

from __future__ import annotations

from functools import cache

YAOCHU = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


@cache
def _suit_options(counts: tuple[int, ...], runs: bool) -> frozenset[tuple[int, int, int]]:
    """Every (melds, partial sets, head) a suit's tiles can be split into (head: a pair kept as
    the hand's pair, at most one); only the undominated ones are kept."""
    found: set[tuple[int, int, int]] = set()
    _split(list(counts), 0, 0, 0, 0, runs, found)
    return frozenset(o for o in found if not any(_dominates(p, o) for p in found if p != o))


def _dominates(a: tuple[int, int, int], b: tuple[int, int, int]) -> bool:
    return all(x >= y for x, y in zip(a, b, strict=True))


def _split(c: list[int], i: int, melds: int, partial: int, head: int, runs: bool, out: set) -> None:
    while i < len(c) and c[i] == 0:
        i += 1
    if i == len(c):
        out.add((melds, partial, head))
        return
    if c[i] >= 3:
        c[i] -= 3
        _split(c, i, melds + 1, partial, head, runs, out)
        c[i] += 3
    if runs and i + 2 < len(c) and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        _split(c, i, melds + 1, partial, head, runs, out)
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1
    if c[i] >= 2:
        c[i] -= 2
        if not head:
            _split(c, i, melds, partial, 1, runs, out)
        _split(c, i, melds, partial + 1, head, runs, out)
        c[i] += 2
    if runs:
        for step in (1, 2):
            if i + step < len(c) and c[i + step]:
                c[i] -= 1
                c[i + step] -= 1
                _split(c, i, melds, partial + 1, head, runs, out)
                c[i] += 1
                c[i + step] += 1
    c[i] -= 1  # the tile left alone
    _split(c, i, melds, partial, head, runs, out)
    c[i] += 1


def regular_shanten(counts: list[int], declared: int = 0) -> int:
    states = {(declared, 0, 0)}
    for start, width, runs in ((0, 9, True), (9, 9, True), (18, 9, True), (27, 7, False)):
        options = _suit_options(tuple(counts[start : start + width]), runs)
        states = {(m + a, t + b, h + c) for m, t, h in states for a, b, c in options if h + c <= 1}
    return min(8 - 2 * m - min(t, 4 - m) - h for m, t, h in states)


def shanten(counts: list[int], declared: int = 0) -> int:
    """The hand's shanten (-1: a winning hand, 0: tenpai)."""
    best = regular_shanten(counts, declared)
    if declared == 0 and sum(counts) >= 13:
        pairs = sum(1 for n in counts if n >= 2)
        kinds = sum(1 for n in counts if n)
        best = min(best, 6 - pairs + max(0, 7 - kinds))
        orphans = sum(1 for i in YAOCHU if counts[i])
        best = min(best, 13 - orphans - (1 if any(counts[i] >= 2 for i in YAOCHU) else 0))
    return best
