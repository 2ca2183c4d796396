"""A plain-Python oracle for shanten and discard tables, written from the definition, not from the
ruleset (imports nothing from solver/).

Hands are 34-entry count arrays of the concealed tiles (1m–9m, 1p–9p, 1s–9s, 東南西北白發中).
A shape's distance is the fewest tiles a hand must draw to hold a winning hand of it — a winning
hand holding no tile more than four times —, found by a dynamic programme over each suit's ranks
(runs, triplets and the pair placed rank by rank) and the best split of the melds and the pair
between the suits. Shanten = distance - 1, the least over the shapes (seven distinct pairs and
thirteen orphans only without declared melds). In three-player mahjong 2m–8m do not exist: the
manzu suit is 1m and 9m, where no run fits.

Also: random deals (closed hands, hands with declared melds, few suits, near-complete), as hand
strings for melds and as counts for the oracles, and the discard table by brute force: every
discard, every draw, the shanten recomputed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

YAOCHU = (0, 8, 9, 17, 18, 26, *range(27, 34))
THREE_PLAYER_ABSENT = frozenset(range(1, 8))  # 2m–8m
FAR = 99


@lru_cache(maxsize=1 << 16)
def suit_lacks(counts: tuple[int, ...], runs: bool) -> dict[tuple[int, int], int]:
    """(melds, pairs) placed in one suit -> the fewest of their tiles the counts lack; ``runs``:
    whether runs fit (number suits)."""
    # states: (runs started one rank back, two ranks back, melds, pairs) -> tiles lacking so far
    states = {(0, 0, 0, 0): 0}
    width = len(counts)
    for rank, held in enumerate(counts):
        following: dict[tuple[int, int, int, int], int] = {}
        for (back1, back2, melds, pairs), lack in states.items():
            for started in range(5 - melds if runs and rank + 2 < width else 1):
                for triplet in (0, 1):
                    for pair in (0, 1):
                        if melds + started + triplet > 4 or pairs + pair > 1:
                            continue
                        tiles = back1 + back2 + started + 3 * triplet + 2 * pair
                        if tiles > 4:
                            continue
                        key = (started, back1, melds + started + triplet, pairs + pair)
                        value = lack + max(0, tiles - held)
                        if value < following.get(key, FAR):
                            following[key] = value
        states = following
    out: dict[tuple[int, int], int] = {}
    for (back1, back2, melds, pairs), lack in states.items():
        if not back1 and not back2 and lack < out.get((melds, pairs), FAR):
            out[(melds, pairs)] = lack
    return out


def suits_of(counts: Sequence[int], three_player: bool) -> list[tuple[tuple[int, ...], bool]]:
    manzu = (counts[0], counts[8]) if three_player else tuple(counts[0:9])
    return [
        (manzu, not three_player),
        (tuple(counts[9:18]), True),
        (tuple(counts[18:27]), True),
        (tuple(counts[27:34]), False),
    ]


def standard_distance(counts: Sequence[int], declared: int = 0, three_player: bool = False) -> int:
    melds_needed = 4 - declared
    best = {(0, 0): 0}
    for suit, runs in suits_of(counts, three_player):
        joined: dict[tuple[int, int], int] = {}
        for (m1, p1), v1 in best.items():
            for (m2, p2), v2 in suit_lacks(suit, runs).items():
                key = (m1 + m2, p1 + p2)
                if key[0] <= melds_needed and key[1] <= 1 and v1 + v2 < joined.get(key, FAR):
                    joined[key] = v1 + v2
        best = joined
    return best[(melds_needed, 1)]


def pairs_distance(counts: Sequence[int]) -> int:
    """Seven distinct pairs: keep the seven kinds that hold the most of a pair each."""
    kept = sorted((min(n, 2) for n in counts), reverse=True)[:7]
    return 14 - sum(kept)


def orphans_distance(counts: Sequence[int]) -> int:
    """One of each terminal and honour, one of them twice."""
    held = sum(1 for i in YAOCHU if counts[i])
    return 14 - held - (1 if any(counts[i] >= 2 for i in YAOCHU) else 0)


def by_shape(counts: Sequence[int], declared: int = 0, three_player: bool = False) -> dict[str, int | None]:
    closed = declared == 0
    return {
        "standard": standard_distance(counts, declared, three_player) - 1,
        "chiitoitsu": pairs_distance(counts) - 1 if closed else None,
        "kokushi": orphans_distance(counts) - 1 if closed else None,
    }


def shanten(counts: Sequence[int], declared: int = 0, three_player: bool = False) -> int:
    return min(n for n in by_shape(counts, declared, three_player).values() if n is not None)


# -- discard tables -------------------------------------------------------------------------------


def discard_table(
    counts: Sequence[int],
    declared: int,
    left: Sequence[int],
    three_player: bool = False,
    shanten_of: Callable[[list[int]], int] | None = None,
) -> list[dict]:
    """Every distinct discard of 14 concealed-and-declared tiles by brute force: the shanten left,
    and every tile whose draw (of a tile the hand holds fewer than four of) lowers it, with its
    copies ``left``; sorted by shanten, then most copies left, then tile order."""
    of = shanten_of or (lambda c: shanten(c, declared, three_player))
    exists = [t for t in range(34) if not (three_player and t in THREE_PLAYER_ABSENT)]
    rows: list[dict[str, Any]] = []
    for d in range(34):
        if not counts[d]:
            continue
        after = list(counts)
        after[d] -= 1
        base = of(after)
        ukeire: list[dict[str, Any]] = []
        for t in exists:
            if after[t] >= 4:
                continue
            after[t] += 1
            if of(after) < base:
                ukeire.append({"tile": tile_name(t), "left": left[t]})
            after[t] -= 1
        rows.append(
            {
                "discard": tile_name(d),
                "shanten": base,
                "ukeire": ukeire,
                "ukeire_total": sum(u["left"] for u in ukeire),
                "order": d,
            }
        )
    rows.sort(key=lambda r: (r["shanten"], -r["ukeire_total"], r["order"]))
    for r in rows:
        del r["order"]
    return rows


def tile_name(t: int) -> str:
    return f"{t % 9 + 1}{'mps'[t // 9]}" if t < 27 else f"{t - 26}z"


# -- deals ------------------------------------------------------------------------------------------


@dataclass
class Deal:
    """A hand: its concealed tiles (34-counts), its declared melds (kind, tile types) and the
    hand string melds reads."""

    counts: list[int]
    melds: list[tuple[str, list[int]]]
    text: str
    three_player: bool = False

    @property
    def declared(self) -> int:
        return len(self.melds)

    def all_counts(self) -> list[int]:
        out = list(self.counts)
        for _, tiles in self.melds:
            for t in tiles:
                out[t] += 1
        return out


def spell(counts: Sequence[int], melds: Sequence[tuple[str, list[int]]], rng: random.Random) -> str:
    """A hand string: concealed tiles in a random order, then the melds in brackets; a five is
    sometimes red, and always when all four are in the hand (the set's fourth five is red)."""
    total = list(counts)
    for _, tiles in melds:
        for t in tiles:
            total[t] += 1
    red = {t: ("hand" if counts[t] else "meld") for t in (4, 13, 22) if total[t] == 4}
    red.update({t: "hand" for t in (4, 13, 22) if t not in red and counts[t] and rng.random() < 0.3})
    words = []
    for kind, tiles in melds:
        names = [tile_name(t) for t in tiles]
        five = next((t for t in tiles if red.get(t) == "meld"), None)
        if five is not None:
            names[tiles.index(five)] = f"0{'mps'[five // 9]}"
            red[five] = "done"
        text = "".join(names)
        words.append(f"({text})" if kind == "ankan" else f"[{text}]")
    concealed = []
    for t in range(34):
        for k in range(counts[t]):
            concealed.append(f"0{'mps'[t // 9]}" if k == 0 and red.get(t) == "hand" else tile_name(t))
    rng.shuffle(concealed)
    return " ".join(concealed + words)


def random_deal(rng: random.Random, size: int, three_player: bool = False, declared: int | None = None) -> Deal:
    """A hand of ``size`` tiles (13 or 14, a kan counting as 3): some declared melds, the rest
    drawn from a wall of one to four suits, sometimes most of it built into melds and pairs (a
    hand near complete)."""
    allowed = [t for t in range(34) if not (three_player and t in THREE_PLAYER_ABSENT)]
    while True:
        n_melds = declared if declared is not None else rng.choice([0, 0, 0, 1, 2, 3, 4]) if rng.random() < 0.5 else 0
        suits = rng.sample(range(4), rng.choice([1, 1, 2, 2, 3, 4]))
        pool = [t for t in allowed if min(t // 9, 3) in suits] or allowed
        held = [0] * 34
        melds = []
        for _ in range(n_melds):
            meld = _meld(rng, pool, held, three_player)
            if meld is None:
                break
            melds.append(meld)
        if len(melds) < n_melds:
            continue
        concealed = size - 3 * len(melds)
        counts = [0] * 34
        if rng.random() < 0.35:
            _build(rng, pool, held, counts, concealed)
        wall = [t for t in pool for _ in range(4 - held[t] - counts[t])]
        missing = concealed - sum(counts)
        if missing > len(wall) or missing < 0:
            continue
        for t in rng.sample(wall, missing):
            counts[t] += 1
        return Deal(counts, melds, spell(counts, melds, rng), three_player)


def _meld(rng: random.Random, pool: list[int], held: list[int], three_player: bool) -> tuple[str, list[int]] | None:
    for _ in range(20):
        kind = rng.choice(["chi", "pon", "pon", "minkan", "ankan"] if not three_player else ["pon", "minkan", "ankan"])
        t = rng.choice(pool)
        if kind == "chi":
            if t >= 27 or t % 9 > 6 or any(held[k] >= 4 for k in (t, t + 1, t + 2)):
                continue
            tiles = [t, t + 1, t + 2]
        else:
            n = 3 if kind == "pon" else 4
            if held[t] + n > 4:
                continue
            tiles = [t] * n
        for k in tiles:
            held[k] += 1
        return kind, tiles
    return None


def _build(rng: random.Random, pool: list[int], held: list[int], counts: list[int], size: int) -> None:
    """Put runs, triplets and pairs into ``counts`` while they fit, leaving a tile or two."""
    for _ in range(12):
        if sum(counts) >= size - 2:
            return
        t = rng.choice(pool)
        r = rng.random()
        if r < 0.5 and t < 27 and t % 9 <= 6 and t + 1 in pool and t + 2 in pool:
            tiles = [t, t + 1, t + 2]
        elif r < 0.8:
            tiles = [t] * 3
        else:
            tiles = [t] * 2
        if len(tiles) + sum(counts) > size:
            continue
        if any(held[k] + counts[k] + tiles.count(k) > 4 for k in tiles):
            continue
        for k in tiles:
            counts[k] += 1


def full_wall_deal(rng: random.Random, size: int, three_player: bool = False) -> Deal:
    """A closed hand of ``size`` tiles drawn from the whole wall (as dealt in a game)."""
    wall = [t for t in range(34) if not (three_player and t in THREE_PLAYER_ABSENT) for _ in range(4)]
    counts = [0] * 34
    for t in rng.sample(wall, size):
        counts[t] += 1
    return Deal(counts, [], spell(counts, [], rng), three_player)


# -- reading tenhou notation (for puzzle files) ------------------------------------------------------


def read_tiles(text: str) -> list[int]:
    """Tile types of a tenhou string (123m 0p 東 …; a red five is a five)."""
    out, digits = [], ""
    for ch in text:
        if ch.isdigit():
            digits += ch
        elif ch in "mpsz":
            for d in digits:
                n = 5 if d == "0" else int(d)
                out.append(27 + n - 1 if ch == "z" else "mps".index(ch) * 9 + n - 1)
            digits = ""
        elif ch in HONOURS:
            out.append(27 + HONOURS.index(ch))
        elif not ch.isspace():
            raise ValueError(f"unknown tile character {ch!r} in {text!r}")
    if digits:
        raise ValueError(f"digits without a suit in {text!r}")
    return out


HONOURS = "東南西北白發中"


def read_hand(text: str) -> tuple[list[int], list[list[int]]]:
    """A hand string: concealed counts (34) and the declared melds' tile types ([..] and (..))."""
    melds, concealed = [], []
    rest = text
    for open_, close in (("[", "]"), ("(", ")")):
        while open_ in rest:
            start = rest.index(open_)
            end = rest.index(close, start)
            melds.append(read_tiles(rest[start + 1 : end]))
            rest = rest[:start] + " " + rest[end + 1 :]
    concealed = read_tiles(rest)
    counts = [0] * 34
    for t in concealed:
        counts[t] += 1
    return counts, melds


def puzzle_expect(hand: str, visible: str = "", dora: str = "", three_player: bool = False) -> dict:
    """A discards puzzle's ``expect``: the hand's shanten and its discard table, each row's draws
    as tile -> copies left (four, less the hand, its melds, the visible tiles and the indicators)."""
    counts, melds = read_hand(hand)
    held = list(counts)
    for t in [t for meld in melds for t in meld] + read_tiles(visible) + read_tiles(dora):
        held[t] += 1
    left = [4 - n for n in held]
    rows = discard_table(counts, len(melds), left, three_player)
    return {
        "shanten": shanten(counts, len(melds), three_player),
        "discards": [
            {
                "discard": row["discard"],
                "shanten": row["shanten"],
                "ukeire_total": row["ukeire_total"],
                "ukeire": {u["tile"]: u["left"] for u in row["ukeire"]},
            }
            for row in rows
        ],
    }
