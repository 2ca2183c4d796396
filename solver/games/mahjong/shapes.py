"""Per-suit tables of a ruleset's hand shapes: which count vectors of one suit the shapes' parts
fill, in how many ways, and the packed tables that decide a win or a wait with a few lookups
(the fast path of :class:`~solver.games.mahjong.hands.Mahjong`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from operator import mul
from typing import Any, Protocol

from solver.core import cache as disk_cache
from solver.core.ruleset import Ruleset
from solver.games.mahjong.rules import HandShape

MAX_COPIES = 5  # waits count a tile whose every copy is held (形式聴牌): a fifth, hypothetically


def suit_table(rs: Ruleset, shape, suit: str, ranks: list[str]) -> dict:
    """Every count vector of one suit that the shape's parts fill exactly, with how many of
    each part they use: counts tuple -> set of part-count vectors."""
    instances = tuple((j, vec, ident) for j, _, vec, ident in suit_instances(rs, shape, suit, ranks))
    return fill_table(instances, tuple(p.count for p in shape.parts), shape.distinct, len(ranks))


def suit_instances(rs: Ruleset, shape, suit: str, ranks: list[str]) -> list[tuple]:
    """The parts of a shape that fit in one suit: (part index, kind id, counts vector,
    identity key for 'distinct' or None for a sequence)."""
    width = len(ranks)
    instances: list[tuple[int, str, tuple[int, ...], int | None]] = []
    for j, part in enumerate(shape.parts):
        for kid in part.kinds:
            kind = rs.kind(kid)
            if suit not in kind.suits:
                continue
            if kind.shape == "sequence":
                order = list(kind.order.ranks) if kind.order is not None else []  # (a sequence has its order)
                for start in range(len(order) - kind.size_min + 1):
                    window = order[start : start + kind.size_min]
                    if all(r in ranks for r in window):
                        vec = [0] * width
                        for r in window:
                            vec[ranks.index(r)] += 1
                        instances.append((j, kid, tuple(vec), None))
            else:
                for r in ranks:
                    if r not in kind.ranks:
                        continue
                    vec = [0] * width
                    vec[ranks.index(r)] = kind.size_min
                    instances.append((j, kid, tuple(vec), ranks.index(r)))
    return instances


class SuitWays:
    """Every multiset of a shape's part instances (indices, ascending) that fills one suit's
    counts exactly, worked out once per counts: the suits whose instances are alike (the three
    number suits) share one, so a pattern met in one suit is known in the others.

    Counts are packed into one int, 4 bits a rank (at most 5 copies), so that taking a part away
    is one subtraction: each field carries a guard bit, and a part that does not fit clears it."""

    LIMIT = 1 << 16  # patterns remembered before starting afresh (a long batch must not grow it forever)
    BITS = 4

    def __init__(self, instances: tuple, distinct: bool):
        width = len(instances[0][2]) if instances else 0
        self.guards = sum(1 << (self.BITS * r + self.BITS - 1) for r in range(width))
        self.vectors = [self.pack(vec) for _, _, vec, _ in instances]
        self.firsts = [next(i for i, n in enumerate(vec) if n) for _, _, vec, _ in instances]
        self.idents = [ident if distinct else None for _, _, _, ident in instances]
        # the instances whose lowest tile is each rank: the lowest tile held must start a part
        self.starting = [tuple(k for k, first in enumerate(self.firsts) if first == r) for r in range(width)]
        self.memo: dict[int, tuple] = {}

    @classmethod
    def pack(cls, counts: Sequence[int]) -> int:
        """Counts as one int (the form :meth:`ways` takes)."""
        return sum(map(mul, counts, _POWERS[: len(counts)]))

    def __call__(self, key: tuple) -> tuple:
        return self.ways(self.pack(key))

    def ways(self, key: int) -> tuple:
        """The ways of packed counts."""
        found = self.memo.get(key)
        if found is not None:
            return found
        if not key:
            return ((),)
        first = ((key & -key).bit_length() - 1) // self.BITS
        guards, vectors, firsts, idents, out = self.guards, self.vectors, self.firsts, self.idents, []
        for k in self.starting[first]:
            rest = (key | guards) - vectors[k]
            if rest & guards != guards:
                continue  # the part does not fit
            ident = idents[k]
            for tail in self.ways(rest ^ guards):
                if tail and tail[0] < k and firsts[tail[0]] == first:
                    continue  # one order per multiset of parts starting at the same tile
                if ident is not None and any(idents[t] == ident for t in tail):
                    continue
                out.append((k,) + tail)
        if len(self.memo) >= self.LIMIT:
            self.memo.clear()
        found = self.memo[key] = tuple(out)
        return found


_POWERS = tuple(1 << (SuitWays.BITS * r) for r in range(32))


@cache
def fill_table(instances: tuple, limits: tuple[int, ...], distinct: bool, width: int) -> dict:
    """The count vectors that instances of parts (at most ``limits`` of each part, no identity
    twice if ``distinct``) fill exactly. Cached: the three number suits share one table."""
    table: dict = {}

    def walk(start: int, counts: tuple, used: tuple, ids: frozenset) -> None:
        table.setdefault(counts, set()).add(used)
        for i in range(start, len(instances)):
            j, vec, ident = instances[i]
            if used[j] >= limits[j]:
                continue
            if distinct and ident is not None and ident in ids:
                continue
            new = tuple(a + b for a, b in zip(counts, vec, strict=True))
            if max(new) > MAX_COPIES:
                continue
            bumped = used[:j] + (used[j] + 1,) + used[j + 1 :]
            walk(i if not distinct else i + 1, new, bumped, ids | ({ident} if ident is not None else set()))

    walk(0, (0,) * width, (0,) * len(limits), frozenset())
    return table


def pack_parts(vector: Sequence[int]) -> int:
    """A part-count vector as one int, 6 bits a part (sums of packed vectors add part-wise)."""
    out = 0
    for shift, n in enumerate(vector):
        out |= n << (FIELD * shift)
    return out


FIELD = 6  # bits per part count in a packed vector


class SuitShapes(Protocol):
    """What the fast tables need of a ruleset's hands (a Mahjong)."""

    rules: Any  # MahjongRules: its hand_shapes
    suits: list[str]
    suit_ranks: dict[str, list[str]]

    def suit_shape_table(self, shape, suit: str) -> dict: ...

    def shape_need(self, shape, declared: int) -> list[int] | None: ...


# the fast tables this process has, by ruleset name and key: one copy for every ruleset built from the same shapes
_KEPT: dict[tuple[str, str], FastTables] = {}


@dataclass
class FastTables:
    """Per-suit lookup tables of a ruleset's hand shapes, every shape packed into one int."""

    tables: tuple[dict, ...]  # per suit: counts tuple -> packed contribution to every shape
    poison: int  # the contribution of a suit no shape can fill
    needs: tuple[tuple[tuple[int, int], ...], ...]  # per declared count: (mask, need) per shape
    slow_shapes: tuple  # shapes whose suits can be filled several ways: decided by shape_fits
    width: tuple[int, ...]  # tiles per suit
    _completions: list[dict] = field(default_factory=list)

    @classmethod
    def build(cls, mj: SuitShapes) -> FastTables:
        fast_shapes: list[tuple[HandShape, list[dict]]] = []
        slow_shapes: list[tuple[HandShape, list[dict]]] = []
        for shape in mj.rules.hand_shapes:
            tables = [mj.suit_shape_table(shape, suit) for suit in mj.suits]
            unique = all(len(vs) == 1 for t in tables for vs in t.values())
            (fast_shapes if unique else slow_shapes).append((shape, tables))
        offsets, offset = [], 0
        for shape, _ in fast_shapes:
            offsets.append(offset)
            offset += FIELD * (len(shape.parts) + 1)  # the parts, then the poison field
        poison = sum(
            1 << (off + FIELD * len(shape.parts)) for off, (shape, _) in zip(offsets, fast_shapes, strict=True)
        )
        merged = []
        for s in range(len(mj.suits)):
            keys = set().union(*(tables[s] for _, tables in fast_shapes))
            table = {}
            for key in keys:
                value = 0
                for off, (shape, tables) in zip(offsets, fast_shapes, strict=True):
                    vs = tables[s].get(key)
                    value += (pack_parts(next(iter(vs))) << off) if vs else 1 << (off + FIELD * len(shape.parts))
                table[key] = value
            merged.append(table)
        most = max((p.count for shape in mj.rules.hand_shapes for p in shape.parts if p.declared), default=0)
        needs = []
        for declared in range(most + 1):
            row = []
            for off, (shape, _) in zip(offsets, fast_shapes, strict=True):
                need = mj.shape_need(shape, declared)
                if need is not None:
                    row.append(((1 << FIELD * (len(shape.parts) + 1)) - 1 << off, pack_parts(need) << off))
            needs.append(tuple(row))
        return cls(
            tuple(merged),
            poison,
            tuple(needs),
            tuple(s for s, _ in slow_shapes),
            tuple(len(mj.suit_ranks[s]) for s in mj.suits),
            [{} for _ in mj.suits],
        )

    @classmethod
    def kept(cls, mj: SuitShapes, name: str, signature: str) -> FastTables:
        """:meth:`build`'s tables, built once per machine and kept in :mod:`solver.core.cache`
        under ``signature`` (what they are built from: the shapes and their parts' instances in
        each suit): a process's first wait or win then reads them back instead of walking every
        suit's fills again (most of a short replay's start). The rulesets built from the same shapes
        (one game's variants: a record's options) share the tables in a process (:data:`_KEPT`): read
        once, their memo of completions filled for all."""
        key = disk_cache.key_of(signature)
        found = _KEPT.get((name, key))
        if found is not None:
            return found
        found = disk_cache.load(f"fast-tables.{name}", key)
        if not isinstance(found, cls) or len(found.tables) != len(mj.suits):
            found = cls.build(mj)
            disk_cache.store(f"fast-tables.{name}", key, found)
        _KEPT[name, key] = found
        return found

    def completions(self, suit: int, key: tuple) -> tuple:
        """(rank index, contribution) for each tile of the suit that, added, leaves a fillable
        suit (cached: the same suit patterns recur across hands)."""
        cache = self._completions[suit]
        found = cache.get(key)
        if found is None:
            table = self.tables[suit]
            out = []
            trial = list(key)
            for i in range(len(trial)):
                if trial[i] >= MAX_COPIES:
                    continue
                trial[i] += 1
                value = table.get(tuple(trial))
                trial[i] -= 1
                if value is not None:
                    out.append((i, value))
            found = cache[key] = tuple(out)
        return found
