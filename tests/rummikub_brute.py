"""Rummikub by brute force, independent of melds (nothing from solver/): the plain checker the
tests hold every answer of ``melds solve -r rummikub`` against.

Tiles are strings: a colour letter (k b o r) and a number 1–13, or ``J`` for a joker.

* a **set**: three or more tiles with at least one numbered tile; a *group* is 3–4 tiles of one
  number in different colours, jokers taking the missing colours; a *run* is tiles of one colour
  whose numbers, with jokers in the gaps or at the ends, are consecutive within 1–13;
* a set's **value**: its numbers, a joker counting the number it stands for (the most it can);
* the **best turn**: with ``has_melded``, the table's tiles and some of the rack's are split into
  sets — every table tile used — placing the most rack tiles, then the most *value placed* (the
  numbers printed on the rack tiles placed; a joker adds none); without it, the table is left as
  it is and sets are made of rack tiles alone, worth at least ``initial`` together.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import combinations

COLOURS = "kbor"


def parse(text: str | list[str]) -> list[str]:
    tiles = text.split() if isinstance(text, str) else list(text)
    for t in tiles:
        if t != "J" and not (t[0] in COLOURS and t[1:].isdigit() and 1 <= int(t[1:]) <= 13):
            raise ValueError(f"not a tile: {t}")
    return tiles


def _number(t: str) -> int:
    return int(t[1:])


def group_value(tiles) -> int | None:
    naturals = [t for t in tiles if t != "J"]
    if not naturals or not 3 <= len(tiles) <= 4:
        return None
    if len({_number(t) for t in naturals}) != 1 or len({t[0] for t in naturals}) != len(naturals):
        return None
    return _number(naturals[0]) * len(tiles)


def run_value(tiles, wrap: bool = False) -> int | None:
    naturals = [t for t in tiles if t != "J"]
    n = len(tiles)
    if not naturals or not 3 <= n <= 13 or len({t[0] for t in naturals}) != 1:
        return None
    numbers = {_number(t) for t in naturals}
    if len(numbers) != len(naturals):
        return None
    best = None
    for start in range(1, 14 if wrap else 15 - n):
        window = [(start + i - 1) % 13 + 1 for i in range(n)]
        if (wrap or window[-1] == start + n - 1) and numbers <= set(window):
            best = max(best or 0, sum(window))
    return best


def set_value(tiles, wrap: bool = False) -> int | None:
    """The value of a legal set (the best reading), None when the tiles are no set."""
    values = [v for v in (group_value(tiles), run_value(tiles, wrap)) if v is not None]
    return max(values) if values else None


def is_set(tiles, wrap: bool = False) -> bool:
    return set_value(tiles, wrap) is not None


def _sets_with(first: str, rest: Counter) -> list[tuple[str, ...]]:
    """Every set holding ``first`` (a numbered tile) and other tiles from ``rest``."""
    out = set()
    jokers = rest["J"]
    colour, number = first[0], _number(first)
    others = [f"{c}{number}" for c in COLOURS if c != colour and rest[f"{c}{number}"]]
    for size in (3, 4):
        for k in range(0, min(jokers, size - 1) + 1):
            for chosen in combinations(others, size - 1 - k):
                out.add(tuple(sorted((first,) + chosen + ("J",) * k)))
    for length in range(3, 14):
        for start in range(max(1, number - length + 1), min(number, 14 - length) + 1):
            window = [f"{colour}{n}" for n in range(start, start + length) if n != number]

            _fill(window, 0, (), jokers, first, rest, out)
    return [s for s in out if is_set(list(s))]


def _fill(window: list, i: int, used: tuple, jokers_left: int, first: str, rest, out: set) -> None:
    """Each other place of ``window``: the tile itself (if there) or a joker."""
    if i == len(window):
        out.add(tuple(sorted((first,) + used)))
        return
    if rest[window[i]]:
        _fill(window, i + 1, used + (window[i],), jokers_left, first, rest, out)
    if jokers_left:
        _fill(window, i + 1, used + ("J",), jokers_left - 1, first, rest, out)


@cache
def _best_partition(tiles: tuple[str, ...]) -> int | None:
    """The most total value over the ways to split ``tiles`` (sorted, jokers last) into sets; None
    when they cannot be split."""
    if not tiles:
        return 0
    first = tiles[0]
    if first == "J":
        return None  # only jokers left: no set holds them
    rest = Counter(tiles[1:])
    best = None
    for s in _sets_with(first, rest):
        left = rest.copy()  # s holds first; its other tiles come from rest
        left.subtract(Counter(s))
        left[first] += 1
        if any(v < 0 for v in left.values()):
            continue
        remaining = tuple(sorted(left.elements(), key=_order))
        sub = _best_partition(remaining)
        if sub is not None:
            value = set_value(list(s))
            assert value is not None  # _sets_with keeps sets only
            value += sub
            best = value if best is None else max(best, value)
    return best


def _order(t: str) -> tuple:
    return (1, 0, "") if t == "J" else (0, _number(t), t[0])


def partition_value(tiles) -> int | None:
    return _best_partition(tuple(sorted(tiles, key=_order)))


def _sub_multisets(hand: list[str]):
    counts = Counter(hand)
    faces = sorted(counts, key=_order)

    def walk(i: int, chosen: tuple):
        if i == len(faces):
            yield chosen
            return
        for k in range(counts[faces[i]] + 1):
            yield from walk(i + 1, chosen + (faces[i],) * k)

    yield from walk(0, ())


def best_turn(hand, table_sets, has_melded: bool, initial: int = 30) -> tuple[int, int]:
    """(rack tiles placed, value placed) of the best turn (see the module docstring)."""
    hand = parse(hand)
    table = [t for s in table_sets for t in parse(s)]
    best = (0, 0)
    for chosen in _sub_multisets(hand):
        key = (len(chosen), sum(_number(t) for t in chosen if t != "J"))
        if key <= best:
            continue
        if has_melded:
            ok = partition_value(table + list(chosen)) is not None
        else:
            value = partition_value(list(chosen))
            ok = value is not None and value >= initial
        if ok:
            best = key
    return best


def go_out(hand, table_sets, has_melded: bool, initial: int = 30) -> bool:
    return best_turn(hand, table_sets, has_melded, initial)[0] == len(parse(hand))


def arrangement_ok(hand, table_before, placed, table_after) -> bool:
    """An answer holds: every set legal, the table after = the table before + the tiles placed,
    which came from the rack."""
    before = Counter(t for s in table_before for t in parse(s))
    after = Counter(t for s in table_after for t in parse(s))
    placed_c = Counter(parse(placed))
    return (
        all(is_set(parse(s)) for s in table_after)
        and after == before + placed_c
        and not placed_c - Counter(parse(hand))
    )


# -- how far from going out: the fewest tiles drawn -------------------------------------------------

DECK = {f"{c}{n}": 2 for c in COLOURS for n in range(1, 14)} | {"J": 2}


def left_of(seen) -> Counter:
    """The copies of each tile not seen (two of each numbered tile, two jokers)."""
    left = Counter(DECK)
    left.subtract(Counter(parse(seen)))
    assert all(n >= 0 for n in left.values()), seen
    return +left


def plays_out(rack: list[str], table_sets, has_melded: bool, initial: int = 30) -> bool:
    """Can one turn place every tile of the rack? After the initial meld: the table's tiles and the
    rack's split into sets; before it: the rack alone, its sets worth ``initial`` together."""
    if has_melded:
        return partition_value([t for s in table_sets for t in parse(s)] + rack) is not None
    value = partition_value(rack)
    return value is not None and value >= initial


def _draws(left: Counter, size: int):
    faces = sorted(left, key=_order)

    def walk(i: int, room: int, chosen: tuple):
        if room == 0:
            yield chosen
            return
        if i == len(faces):
            return
        for k in range(min(left[faces[i]], room), -1, -1):
            yield from walk(i + 1, room - k, chosen + (faces[i],) * k)

    yield from walk(0, size, ())


def draw_distance(hand, table_sets, has_melded: bool, visible="", depth: int = 2, initial: int = 30) -> int | None:
    """The fewest tiles drawn (from those not seen) after which one turn places the whole rack, by
    trying every multiset of 0, 1, … ``depth`` tiles; None when more than ``depth``."""
    rack = parse(hand)
    left = left_of(rack + [t for s in table_sets for t in parse(s)] + parse(visible))
    for d in range(depth + 1):
        if any(plays_out(rack + list(drawn), table_sets, has_melded, initial) for drawn in _draws(left, d)):
            return d
    return None
