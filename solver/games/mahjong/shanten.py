"""How far a hand is from winning (向聴数, shanten) and what each discard does (何切る: the shanten
it leaves and the draws that lower it, 受け入れ), for the hand shapes of a ruleset.

A shape's *distance* is the fewest tiles the hand must draw (discarding as many) to hold one of the
shape's winning hands: the least, over the shape's winning hands W (no tile more often than the
set has it), of the tiles of W the concealed tiles lack. The shanten is the distance less one
(0 tenpai, -1 a winning hand), the least over the shapes the hand may take (a closed shape only
without declared melds); declared melds count as the parts they are, so a hand with two declared
melds needs two more melds and a pair. Tiles seen elsewhere do not change the shanten (the
standard definition); they only lower the count of the draws left.

The distance is worked out per suit and then across suits (:class:`ShapeDistance`):

* one suit — a small dynamic programme over its ranks (:class:`SuitProgramme`, built from the
  shape's parts as :func:`~solver.games.mahjong.shapes.suit_instances` gives them): for every
  count of each part (how many of the shape's melds, pairs, … lie in this suit) the fewest tiles
  missing; its result, a *table*, is remembered by the suit's counts (packed into one int, as the
  winning tables do) and interned, so the few thousand tables met stand for every hand;
* across suits — two tables joined part-count by part-count (a min-plus convolution), the join
  remembered by the two tables' ids; the last table read at the counts the hand needs.

A hand's shanten is then a dict lookup per suit and per join; a discard table's row reads one suit
anew per draw (:meth:`ShantenTables.discards`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product
from typing import Any, Protocol

from solver.core.errors import MeldsError

INF = 1 << 10  # a distance no hand reaches: a part count the suit cannot hold
BITS = 4  # bits a rank in a suit's packed counts (at most 4 copies held)
LIMIT = 1 << 17  # entries a memo keeps before starting afresh (a long batch must not grow it forever)
PREFIX = 48  # where a prefix's length is packed beside its counts


class ShapeHands(Protocol):
    """What the tables need of a ruleset's hands (a :class:`~solver.games.mahjong.hands.Mahjong`)."""

    rules: Any  # MahjongRules: its hand_shapes
    rs: Any  # the Ruleset: its deck's copies
    suits: list[str]
    identities: list[tuple]

    @property
    def suit_slices(self) -> tuple[tuple[int, int], ...]: ...

    def shape_need(self, shape: Any, declared: int) -> list[int] | None: ...

    def instances(self, shape: Any, s: int) -> tuple: ...

    def identity(self, face: Any) -> tuple: ...


@dataclass(frozen=True)
class Shanten:
    """A hand's shanten and each shape's own (None: a shape the hand cannot take, such as a
    closed one with melds declared)."""

    value: int
    by_shape: tuple[tuple[str, int | None], ...]

    @property
    def best_shapes(self) -> tuple[str, ...]:
        return tuple(shape for shape, n in self.by_shape if n == self.value)


@dataclass(frozen=True)
class DiscardRow:
    """One discard of a 14-tile hand: the shanten it leaves and the draws that lower it, each
    with the copies left (identity indices)."""

    discard: int
    shanten: int
    ukeire: tuple[tuple[int, int], ...]

    @property
    def total(self) -> int:
        return sum(left for _, left in self.ukeire)


# -- one suit ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Choice:
    """Instances of parts started together at one rank: what they add to the part counts, to the
    rank itself, and to the ranks after it."""

    parts: tuple[int, ...]
    here: int
    later: tuple[int, ...]


class SuitProgramme:
    """The fewest tiles one suit's counts lack, for every count of the shape's parts placed in it.

    States after each rank are (tiles the started parts still put on the next ranks, part counts
    so far); the steps between them are precomputed, grouped by the tiles the rank then holds, so
    that a suit's counts are read with one pass of additions and comparisons."""

    def __init__(self, instances: tuple, distinct: bool, need: Sequence[int], copies: Sequence[int]):
        self.need = tuple(need)
        self.radix = tuple(n + 1 for n in need)
        self.size = 1
        for r in self.radix:
            self.size *= r
        spans = [_span(vec) for _, _, vec, _ in instances]
        reach = max((len(tail) for _, tail in spans), default=1) - 1
        layer: dict[tuple, int] = {((0,) * reach, (0,) * len(need)): 0}
        steps = []
        for rank, most in enumerate(copies):
            starting = [
                (j, tail, ident)
                for (j, _, _, ident), (first, tail) in zip(instances, spans, strict=True)
                if first == rank
            ]
            choices = _choices(starting, len(need), distinct, most, reach)
            room = (*copies[rank + 1 : rank + 1 + reach], 0, 0, 0)[:reach]  # copies of the ranks ahead
            layer, step = self._step(layer, choices, most, room)
            steps.append(step)
        self.steps = tuple(steps)
        self.finals = tuple((index, self.flat(parts)) for (pending, parts), index in layer.items() if not any(pending))
        self.prefixes: dict[int, list[int]] = {}  # a prefix of a suit's counts (and its length) -> its states

    def _step(
        self, layer: dict[tuple, int], choices: list[Choice], most: int, room: tuple[int, ...]
    ) -> tuple[dict[tuple, int], tuple]:
        """The states after one rank, and the steps to them grouped by the tiles the rank holds."""
        following: dict[tuple, int] = {}
        by_here: dict[int, list[tuple[int, int]]] = {}
        for (pending, parts), index in layer.items():
            for choice in choices:
                here = (pending[0] if pending else 0) + choice.here
                used = tuple(a + b for a, b in zip(parts, choice.parts, strict=True))
                ahead = tuple(a + b for a, b in zip((*pending, 0)[1:], choice.later, strict=True))
                if here > most or any(u > n for u, n in zip(used, self.need, strict=True)):
                    continue
                if any(n > free for n, free in zip(ahead, room, strict=True)):
                    continue
                target = following.setdefault((ahead, used), len(following))
                by_here.setdefault(here, []).append((index, target))
        groups = tuple((here, tuple(pairs)) for here, pairs in sorted(by_here.items()))
        return following, (groups, len(following))

    def flat(self, parts: Sequence[int]) -> int:
        """A part-count vector's place in a table."""
        out = 0
        for n, r in zip(parts, self.radix, strict=True):
            out = out * r + n
        return out

    def table(self, counts: Sequence[int]) -> tuple[int, ...]:
        """Tiles lacking, for each part-count vector (INF where the suit cannot hold it).

        The states after each prefix of the ranks are remembered (by the prefix's counts): the
        suits met one after another differ in a tile or two, so most of a suit's ranks are known."""
        prefixes, width = self.prefixes, len(self.steps)
        keys, key = [], 0
        for rank, held in enumerate(counts):
            key |= held << BITS * rank
            keys.append(key | (rank + 1) << PREFIX)
        start, current = 0, [0]
        for rank in range(width - 1, 0, -1):
            known = prefixes.get(keys[rank - 1])
            if known is not None:
                start, current = rank, known
                break
        if len(prefixes) >= LIMIT // 4:
            prefixes.clear()
        for rank in range(start, width):
            groups, size = self.steps[rank]
            held = counts[rank]
            following = [INF] * size
            for here, pairs in groups:
                lack = here - held if here > held else 0
                for source, target in pairs:
                    value = current[source] + lack
                    if value < following[target]:
                        following[target] = value
            current = following
            if rank + 1 < width:
                prefixes[keys[rank]] = current
        out = [INF] * self.size
        for index, place in self.finals:
            if current[index] < out[place]:
                out[place] = current[index]
        return tuple(out)


def _span(vec: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """An instance's first rank and its counts from there to its last."""
    first = next(i for i, n in enumerate(vec) if n)
    last = max(i for i, n in enumerate(vec) if n)
    return first, tuple(vec[first : last + 1])


def _choices(starting: list[tuple], parts_count: int, distinct: bool, most: int, reach: int) -> list[Choice]:
    """Every multiset of the instances starting at a rank that puts at most ``most`` tiles on it
    (at most one instance of an identity in a shape of distinct parts)."""
    out: list[Choice] = []

    def walk(k: int, parts: list[int], here: int, later: list[int], idents: frozenset) -> None:
        if k == len(starting):
            out.append(Choice(tuple(parts), here, tuple(later)))
            return
        walk(k + 1, parts, here, later, idents)
        j, tail, ident = starting[k]
        if distinct and ident is not None and ident in idents:
            return
        times = 0
        while True:
            times += 1
            if here + times * tail[0] > most or (distinct and ident is not None and times > 1):
                return
            bumped = list(parts)
            bumped[j] += times
            ahead = [a + times * (tail[1 + i] if 1 + i < len(tail) else 0) for i, a in enumerate(later)]
            walk(k + 1, bumped, here + times * tail[0], ahead, idents | {ident} if ident is not None else idents)

    walk(0, [0] * parts_count, 0, [0] * reach, frozenset())
    return out


# -- across suits -----------------------------------------------------------------------------------


class ShapeDistance:
    """One hand shape over every suit: per-suit tables (interned) and their joins."""

    def __init__(self, shape: Any, programmes: Sequence[SuitProgramme]):
        self.shape = shape
        first = programmes[0]
        self.programmes = tuple(programmes)
        self.size = first.size
        ranges = [range(r) for r in first.radix]
        self.pairs = tuple(
            (first.flat(a), first.flat(b), first.flat(tuple(x + y for x, y in zip(a, b, strict=True))))
            for a in product(*ranges)
            for b in product(*ranges)
            if all(x + y <= n for x, y, n in zip(a, b, first.need, strict=True))
        )
        self.at_place = tuple(tuple((i, j) for i, j, k in self.pairs if k == place) for place in range(self.size))
        self.tables: list[tuple[int, ...]] = []
        self.ids: dict[tuple[int, ...], int] = {}
        self.joined: dict[int, int] = {}
        self.ends: dict[int, int] = {}

    def intern(self, table: tuple[int, ...]) -> int:
        found = self.ids.get(table)
        if found is None:
            found = self.ids[table] = len(self.tables)
            self.tables.append(table)
        return found

    def join(self, a: int, b: int) -> int:
        """The table of two suits together (remembered: the same tables meet again and again)."""
        key = a << 32 | b if a < b else b << 32 | a
        found = self.joined.get(key)
        if found is None:
            left, right, out = self.tables[a], self.tables[b], [INF] * self.size
            for i, j, k in self.pairs:
                value = left[i] + right[j]
                if value < out[k]:
                    out[k] = value
            if len(self.joined) >= LIMIT:
                self.joined.clear()
            found = self.joined[key] = self.intern(tuple(out))
        return found

    def end(self, a: int, b: int, place: int) -> int:
        """The fewest tiles lacking when tables ``a`` and ``b`` hold together the part counts at
        ``place`` (the last join of a hand, read at once; remembered)."""
        key = (a << 32 | b) << 8 | place
        found = self.ends.get(key)
        if found is None:
            left, right = self.tables[a], self.tables[b]
            found = min(left[i] + right[j] for i, j in self.at_place[place])
            if len(self.ends) >= LIMIT:
                self.ends.clear()
            self.ends[key] = found
        return found


class ShantenTables:
    """Shanten and discard tables for a ruleset's hands (built once per compiled game)."""

    def __init__(self, mj: ShapeHands):
        self.mj = mj
        copies = [0] * len(mj.identities)
        index = {ident: i for i, ident in enumerate(mj.identities)}
        for face, n in mj.rs.deck.copies.items():
            copies[index[mj.identity(face)]] += n
        self.copies = tuple(copies)
        self.slices = mj.suit_slices
        programmes: dict[tuple, SuitProgramme] = {}
        self.shapes: list[ShapeDistance] = []
        for shape in mj.rules.hand_shapes:
            need = mj.shape_need(shape, 0)
            if need is None:
                continue
            per_suit = []
            for s, (a, b) in enumerate(self.slices):
                key = (mj.instances(shape, s), shape.distinct, tuple(need), self.copies[a:b])
                if key not in programmes:
                    programmes[key] = SuitProgramme(*key)
                per_suit.append(programmes[key])
            self.shapes.append(ShapeDistance(shape, per_suit))
        # suits alike (same ranks, same programmes) share one memo: counts -> the tables' ids
        kinds: dict[tuple, dict[int, tuple[int, ...]]] = {}
        self.memos = tuple(
            kinds.setdefault(tuple(id(d.programmes[s]) for d in self.shapes), {}) for s in range(len(self.slices))
        )
        self.suit_of = tuple(s for s, (a, b) in enumerate(self.slices) for _ in range(a, b))
        self.bit = tuple(1 << BITS * (i - a) for a, b in self.slices for i in range(a, b))
        self._needs: dict[int, tuple[int | None, ...]] = {}

    # -- reading a hand -------------------------------------------------------------------------

    def keys(self, counts: Sequence[int]) -> list[int]:
        """Each suit's counts packed into one int (4 bits a rank)."""
        keys = [0] * len(self.slices)
        suit_of, bit = self.suit_of, self.bit
        for i, n in enumerate(counts):
            if n:
                keys[suit_of[i]] += n * bit[i]
        return keys

    def suit_tables(self, s: int, key: int) -> tuple[int, ...]:
        """The ids of suit ``s``'s tables, one per shape, for its packed counts."""
        memo = self.memos[s]
        found = memo.get(key)
        if found is None:
            a, b = self.slices[s]
            counts = [(key >> BITS * r) & 15 for r in range(b - a)]
            found = tuple(d.intern(d.programmes[s].table(counts)) for d in self.shapes)
            if len(memo) >= LIMIT:
                memo.clear()
            memo[key] = found
        return found

    def needs(self, declared: int) -> tuple[int | None, ...]:
        """For each shape, the place in its table of the parts a hand with ``declared`` melds needs
        (None: the shape is out of reach, a closed one with melds declared or too many melds)."""
        found = self._needs.get(declared)
        if found is None:
            places = []
            for d in self.shapes:
                need = self.mj.shape_need(d.shape, declared)
                places.append(None if need is None else d.programmes[0].flat(need))
            found = self._needs[declared] = tuple(places)
        return found

    def distances(self, keys: Sequence[int], declared: int) -> list[int | None]:
        """For each shape, the fewest tiles to draw to a winning hand of it (None: out of reach)."""
        out: list[int | None] = []
        ids = [self.suit_tables(s, key) for s, key in enumerate(keys)]
        for k, (d, place) in enumerate(zip(self.shapes, self.needs(declared), strict=True)):
            if place is None:
                out.append(None)
                continue
            table = ids[0][k]
            for suit in ids[1:-1]:
                table = d.join(table, suit[k])
            value = d.end(table, ids[-1][k], place)
            out.append(None if value >= INF else value)
        return out

    def shanten(self, counts: Sequence[int], declared: int = 0) -> Shanten:
        """The shanten of concealed counts (one entry per identity) with ``declared`` melds."""
        distances = self.distances(self.keys(counts), declared)
        by_shape = tuple(
            (d.shape.id, None if n is None else n - 1) for d, n in zip(self.shapes, distances, strict=True)
        )
        reached = [n for _, n in by_shape if n is not None]
        if not reached:
            raise MeldsError("no hand shape of this ruleset fits a hand with so many melds declared")
        return Shanten(min(reached), by_shape)

    # -- discards ---------------------------------------------------------------------------------

    def discards(self, counts: Sequence[int], declared: int, left: Sequence[int]) -> list[DiscardRow]:
        """Each distinct discard of a hand one tile over (concealed counts, one entry per identity):
        the shanten it leaves and the draws that lower it with ``left[i]`` copies of each left,
        best first (lowest shanten, most copies left, then the tiles' order)."""
        keys = self.keys(counts)
        places = self.needs(declared)
        rows = []
        for i, n in enumerate(counts):
            if not n:
                continue
            s = self.suit_of[i]
            keys[s] -= self.bit[i]
            rows.append(self._row(i, keys, places, counts, left))
            keys[s] += self.bit[i]
        rows.sort(key=lambda row: (row.shanten, -row.total, row.discard))
        return rows

    def _row(
        self, discard: int, keys: list[int], places: tuple[int | None, ...], counts: Sequence[int], left: Sequence[int]
    ) -> DiscardRow:
        """One discard's row: ``keys`` are the suits' counts after it."""
        ids = [self.suit_tables(s, key) for s, key in enumerate(keys)]
        live = [(k, d, p) for k, (d, p) in enumerate(zip(self.shapes, places, strict=True)) if p is not None]
        # for each suit, every live shape's table of the other suits joined
        rests = []
        for s in range(len(keys)):
            rest = []
            for k, d, _ in live:
                others = [ids[t][k] for t in range(len(keys)) if t != s]
                table = others[0]
                for other in others[1:]:
                    table = d.join(table, other)
                rest.append(table)
            rests.append(rest)
        shanten = self._best(rests[0], ids[0], live) - 1
        ukeire = []
        copies, bit = self.copies, self.bit
        for s, (a, b) in enumerate(self.slices):
            key, rest = keys[s], rests[s]
            for t in range(a, b):
                held = counts[t] - (t == discard)
                if held >= copies[t]:
                    continue  # no copy of it can be drawn
                if self._best(rest, self.suit_tables(s, key + bit[t]), live) - 1 < shanten:
                    ukeire.append((t, left[t]))
        return DiscardRow(discard, shanten, tuple(ukeire))

    @staticmethod
    def _best(rest: list[int], suit: tuple[int, ...], live: list[tuple[int, ShapeDistance, int]]) -> int:
        """The least distance over the live shapes of a suit's tables joined with the others'."""
        best = INF
        for table, (k, d, place) in zip(rest, live, strict=True):
            value = d.ends.get((table << 32 | suit[k]) << 8 | place)
            if value is None:
                value = d.end(table, suit[k], place)
            if value < best:
                best = value
        return best
