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

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import product
from typing import Any, Protocol

from solver.core import cache
from solver.core.deck import Face
from solver.core.errors import MeldsError
from solver.games.mahjong.tiles import Hand

INF = 1 << 10  # a distance no hand reaches: a part count the suit cannot hold
BITS = 4  # bits a rank in a suit's packed counts (at most 4 copies held)
MAX_HELD = 4  # copies of a tile a suit holds at most (the automaton's steps)
LIMIT = 1 << 17  # entries a memo keeps before starting afresh (a long batch must not grow it forever)


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


@dataclass(frozen=True)
class DiscardTable:
    """A 14-tile hand's 何切る table, and the tiles seen outside it."""

    hand: Hand
    shanten: Shanten
    rows: list[DiscardRow]
    visible: list[Face]
    indicators: list[Face]

    @property
    def best(self) -> int:
        """The shanten the best discard leaves."""
        return self.rows[0].shanten if self.rows else self.shanten.value


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

    def step(self, rank: int, current: Sequence[int], held: int) -> tuple[int, ...]:
        """The states' tiles lacking after ``rank`` holding ``held`` tiles, from ``current`` before it."""
        groups, size = self.steps[rank]
        following = [INF] * size
        for here, pairs in groups:
            lack = here - held if here > held else 0
            for source, target in pairs:
                value = current[source] + lack
                if value < following[target]:
                    following[target] = value
        return tuple(following)

    def finish(self, current: Sequence[int]) -> tuple[int, ...]:
        """The table of the states after the last rank."""
        out = [INF] * self.size
        for index, place in self.finals:
            if current[index] < out[place]:
                out[place] = current[index]
        return tuple(out)

    def table(self, counts: Sequence[int]) -> tuple[int, ...]:
        """Tiles lacking, for each part-count vector (INF where the suit cannot hold it)."""
        current: Sequence[int] = (0,)
        for rank, held in enumerate(counts):
            current = self.step(rank, current, held)
        return self.finish(current)


class SuitAutomaton:
    """A programme run over every suit of up to ``most`` tiles once, kept as an automaton: the
    states after each rank (their tiles lacking so far) interned, a row per rank giving the next
    state of each (state, tiles held), and the table of each last state. Suits share most of their
    states: over all 405,350 counts of a number suit of up to 14 tiles the standard shape meets
    12,000 states, so the whole of it is about 50,000 steps, worked out in half a second once per
    machine (kept in :mod:`solver.core.cache`) and read back in a hundredth; a suit is then a list
    index a rank (a row has 16 entries a state, one per value of a rank's 4 bits: more than
    ``MAX_HELD`` tiles is -1, and the programme is run plainly)."""

    def __init__(self, programme: SuitProgramme, rows: tuple[list[int], ...], ends: dict[int, tuple[int, ...]]):
        self.programme, self.rows, self.ends = programme, rows, ends

    @classmethod
    def build(cls, programme: SuitProgramme, most: int) -> tuple[tuple[list[int], ...], dict[int, tuple[int, ...]]]:
        """Every step of every suit of up to ``most`` tiles, rank by rank: the rows (-1: a step
        past ``most`` tiles) and the last states' tables."""
        rows = []
        vectors: list[tuple[int, ...]] = [(0,)]  # the states of the rank reached, by id
        layer = {0: 0}  # state id -> the fewest tiles held reaching it
        for rank in range(len(programme.steps)):
            ids: dict[tuple[int, ...], int] = {}
            steps: dict[int, int] = {}
            following: dict[int, int] = {}
            for state, tiles in layer.items():
                for held in range(min(MAX_HELD, most - tiles) + 1):
                    target = ids.setdefault(programme.step(rank, vectors[state], held), len(ids))
                    steps[state << BITS | held] = target
                    following[target] = min(following.get(target, most), tiles + held)
            row = [-1] * (len(vectors) << BITS)
            for place, target in steps.items():
                row[place] = target
            rows.append(row)
            vectors, layer = list(ids), following
        return tuple(rows), {state: programme.finish(vector) for state, vector in enumerate(vectors)}

    def last_state(self, key: int) -> int:
        """The state after the last rank of a suit's packed counts (-1: more tiles than the
        automaton was built for)."""
        state, shift = 0, 0
        for row in self.rows:
            state = row[state << BITS | key >> shift & 15]
            if state < 0:
                return state
            shift += BITS
        return state


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

    def __init__(self, shape: Any, programmes: Sequence[SuitProgramme], automata: Sequence[SuitAutomaton]):
        self.shape = shape
        first = programmes[0]
        self.programmes = tuple(programmes)
        self.automata = tuple(automata)
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
        # per suit: its automaton's last states -> their tables' ids
        self.last_tables = tuple({state: self.intern(t) for state, t in a.ends.items()} for a in self.automata)

    def suit_table(self, s: int, key: int, width: int) -> int:
        """The id of the table of suit ``s`` holding its packed counts ``key``."""
        state = self.automata[s].last_state(key)
        if state >= 0:
            return self.last_tables[s][state]
        return self.intern(self.programmes[s].table([(key >> BITS * r) & 15 for r in range(width)]))

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
    """Shanten and discard tables for a ruleset's hands (built once per compiled game): a suit's
    counts -> its table in each shape (remembered), the tables joined suit by suit and the last
    join read at the parts the hand needs, so that a hand is a few dict lookups a shape."""

    def __init__(self, mj: ShapeHands, most_tiles: int):
        self.mj = mj
        copies = [0] * len(mj.identities)
        index = {ident: i for i, ident in enumerate(mj.identities)}
        for face, n in mj.rs.deck.copies.items():
            copies[index[mj.identity(face)]] += n
        self.copies = tuple(copies)
        self.slices = mj.suit_slices
        definitions: dict[tuple, SuitProgramme] = {}  # alike suits share one programme
        shapes = []
        for shape in mj.rules.hand_shapes:
            need = mj.shape_need(shape, 0)
            if need is None:
                continue
            per_suit = []
            for s, (a, b) in enumerate(self.slices):
                key = (mj.instances(shape, s), shape.distinct, tuple(need), self.copies[a:b])
                if key not in definitions:
                    definitions[key] = SuitProgramme(*key)
                per_suit.append(definitions[key])
            shapes.append((shape, per_suit))
        automata = self._automata(mj.rs.id, definitions, most_tiles)
        self.shapes = [
            ShapeDistance(shape, per_suit, [automata[id(p)] for p in per_suit]) for shape, per_suit in shapes
        ]
        # suits alike (same ranks, same programmes) share one memo: packed counts -> table ids
        kinds: dict[tuple, dict[int, tuple[int, ...]]] = {}
        self.memos = tuple(
            kinds.setdefault(tuple(id(d.programmes[s]) for d in self.shapes), {}) for s in range(len(self.slices))
        )
        self.suit_of = tuple(s for s, (a, b) in enumerate(self.slices) for _ in range(a, b))
        self.bit = tuple(1 << BITS * (i - a) for a, b in self.slices for i in range(a, b))
        faces = [index[mj.identity(face)] for face in mj.rs.deck.faces]  # face index -> identity index
        self.face_suit = tuple(self.suit_of[i] for i in faces)
        self.face_bit = tuple(self.bit[i] for i in faces)
        self._needs: dict[int, tuple[int | None, ...]] = {}

    @staticmethod
    def _automata(name: str, definitions: dict[tuple, SuitProgramme], most: int) -> dict[int, SuitAutomaton]:
        """Each programme's automaton (by the programme's id), kept in the cache under what the
        programmes were built from."""
        key = cache.key_of(repr((list(definitions), most)))
        kept = cache.load(f"shanten.{name}", key)
        if not (isinstance(kept, list) and len(kept) == len(definitions)):
            kept = [SuitAutomaton.build(programme, most) for programme in definitions.values()]
            cache.store(f"shanten.{name}", key, kept)
        return {
            id(programme): SuitAutomaton(programme, moves, ends)
            for programme, (moves, ends) in zip(definitions.values(), kept, strict=True)
        }

    # -- suits ----------------------------------------------------------------------------------

    def keys(self, counts: Sequence[int]) -> list[int]:
        """Each suit's counts packed into one int (4 bits a rank)."""
        keys = [0] * len(self.slices)
        suit_of, bit = self.suit_of, self.bit
        for i, n in enumerate(counts):
            if n:
                keys[suit_of[i]] += n * bit[i]
        return keys

    def suit_tables(self, s: int, key: int) -> tuple[int, ...]:
        """The ids of suit ``s``'s tables, one per shape, for its packed counts ``key``."""
        memo = self.memos[s]
        found = memo.get(key)
        if found is None:
            a, b = self.slices[s]
            found = tuple(d.suit_table(s, key, b - a) for d in self.shapes)
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

    # -- shanten ----------------------------------------------------------------------------------

    def distances(self, keys: Sequence[int], declared: int) -> tuple[int, tuple[int | None, ...]]:
        """The fewest tiles to draw to a winning hand, and for each shape (None: out of reach).
        Written out flat: a batch of hands spends its time here."""
        memos = self.memos
        rows = []
        for s, key in enumerate(keys):
            found = memos[s].get(key)
            rows.append(found if found is not None else self.suit_tables(s, key))
        first, middle, last = rows[0], rows[1:-1], rows[-1]
        out: list[int | None] = []
        best = INF
        for k, (d, place) in enumerate(zip(self.shapes, self.needs(declared), strict=True)):
            if place is None:
                out.append(None)
                continue
            joined, table = d.joined, first[k]
            for row in middle:
                other = row[k]
                join = joined.get(table << 32 | other if table < other else other << 32 | table)
                table = join if join is not None else d.join(table, other)
            value = d.ends.get((table << 32 | last[k]) << 8 | place)
            if value is None:
                value = d.end(table, last[k], place)
            if value < best:
                best = value
            out.append(value if value < INF else None)
        if best >= INF:
            raise MeldsError("no hand shape of this ruleset fits a hand with so many melds declared")
        return best, tuple(out)

    def shanten(self, counts: Sequence[int], declared: int = 0) -> Shanten:
        """The shanten of concealed counts (one entry per identity) with ``declared`` melds."""
        return self._shanten(self.keys(counts), declared)

    def shanten_of(self, faces: Iterable[Face], declared: int = 0) -> Shanten:
        """The shanten of concealed tiles with ``declared`` melds (a red five is a five)."""
        keys = [0] * len(self.slices)
        suit_of, bit = self.face_suit, self.face_bit
        for face in faces:
            i = face.index
            keys[suit_of[i]] += bit[i]
        return self._shanten(keys, declared)

    def _shanten(self, keys: Sequence[int], declared: int) -> Shanten:
        best, distances = self.distances(keys, declared)
        by_shape = tuple(
            (d.shape.id, None if n is None else n - 1) for d, n in zip(self.shapes, distances, strict=True)
        )
        return Shanten(best - 1, by_shape)

    # -- discards ---------------------------------------------------------------------------------

    def discards(self, counts: Sequence[int], declared: int, left: Sequence[int]) -> list[DiscardRow]:
        """Each distinct discard of a hand one tile over (concealed counts, one entry per identity):
        the shanten it leaves and the draws that lower it with ``left[i]`` copies of each left,
        best first (lowest shanten, most copies left, then the tiles' order)."""
        keys = self.keys(counts)
        rows = []
        for i, n in enumerate(counts):
            if not n:
                continue
            s = self.suit_of[i]
            keys[s] -= self.bit[i]
            rows.append(self._row(i, keys, declared, counts, left))
            keys[s] += self.bit[i]
        rows.sort(key=lambda row: (row.shanten, -row.total, row.discard))
        return rows

    def _row(
        self, discard: int, keys: list[int], declared: int, counts: Sequence[int], left: Sequence[int]
    ) -> DiscardRow:
        """One discard's row: ``keys`` are the suits' counts after it."""
        tables = [self.suit_tables(s, key) for s, key in enumerate(keys)]
        live = [
            (k, d, p) for k, (d, p) in enumerate(zip(self.shapes, self.needs(declared), strict=True)) if p is not None
        ]
        shanten = self.distances(keys, declared)[0] - 1
        ukeire = []
        copies, bit = self.copies, self.bit
        for s, (a, b) in enumerate(self.slices):
            # each live shape's table of the other suits joined; a draw then reads suit s anew
            rests = []
            for k, d, place in live:
                others = [tables[t][k] for t in range(len(keys)) if t != s]
                rest = others[0]
                for other in others[1:]:
                    rest = d.join(rest, other)
                rests.append((rest, k, d.ends, d, place))
            key = keys[s]
            for t in range(a, b):
                if counts[t] - (t == discard) >= copies[t]:
                    continue  # no copy of it can be drawn
                drawn = self.suit_tables(s, key + bit[t])
                for rest, k, ends, d, place in rests:
                    found = ends.get((rest << 32 | drawn[k]) << 8 | place)
                    if (found if found is not None else d.end(rest, drawn[k], place)) - 1 < shanten:
                        ukeire.append((t, left[t]))
                        break
        return DiscardRow(discard, shanten, tuple(ukeire))
