"""A winning hand read every way it can be: each decomposition of its tiles and each part the
winning tile may have completed (the wait), with the small keys that decide which yaku are worth
testing. Suit patterns and declared melds recur from hand to hand, so each is worked out once."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from itertools import product
from operator import attrgetter
from typing import NamedTuple

from solver.core.errors import MeldsError
from solver.games.mahjong.hands import Hand
from solver.games.mahjong.scorertables import ScorerTables
from solver.games.mahjong.shapes import FIELD, SuitWays, pack_parts
from solver.games.mahjong.win import WIN_FLAGS, Win, remember

_win_flags = attrgetter(*WIN_FLAGS)  # a win's flags as a tuple of booleans, read at C speed


class ScoredPart(NamedTuple):  # a NamedTuple: made for every part of every reading, so cheaply
    kind: str  # run | triplet | kan | pair | single (kokushi)
    tiles: tuple[int, ...]  # identity indices
    open: bool
    declared: str | None  # the declared meld id, or None for concealed tiles


# -- the view of one reading that the primitives look at -------------------------------------------


class Reading(NamedTuple):
    """One way to read a win: a decomposition and the part the winning tile completed, with
    the facts of the whole hand the primitives share (a NamedTuple: one per reading, many per
    second)."""

    shape: str
    parts: tuple
    runs: tuple
    triplets: tuple
    pair: ScoredPart | None
    wait: str  # ryanmen kanchan penchan shanpon tanki kokushi kokushi-13
    win_part: int  # the index in parts of the part the winning tile completed
    hand: HandFacts
    key: tuple  # ReadingKey's fields
    closed: bool  # the hand's
    scorer: HandReader  # the hand's
    win: Win  # the hand's

    def concealed_triplet(self, p: ScoredPart) -> bool:
        """Is a triplet (or kan) of this reading concealed? One completed by a ron counts as open
        (明刻); no two triplets of a hand are alike, so the part itself tells which one."""
        return not p.open and (self.win.tsumo or p != self.parts[self.win_part])


_new_tuple = tuple.__new__  # a NamedTuple made from its fields' tuple in one C call


class HandFacts(NamedTuple):
    """What every reading of one hand shares."""

    scorer: HandReader  # the Scorer that read the hand (the primitives read its tile tables)
    win: Win
    held: tuple[int, ...]  # the identity index of every tile of the hand, sorted (a kan counts 4)
    concealed: tuple[int, ...]  # the same for the concealed tiles, the winning tile included
    closed: bool  # no open declared meld
    declared: int  # declared melds (a closed kan included)
    suits: frozenset  # the number suits the hand holds
    honours: bool  # the hand holds an honour
    key: tuple  # what decides, with a reading's own key, which yaku are worth trying (HandKey)
    reds: int  # red fives held

    @property
    def tiles(self) -> list[int]:
        """identity index -> count over the whole hand (a kan counts 4)."""
        return self._counts(self.held)

    @property
    def before(self) -> list[int]:
        """The concealed counts before the winning tile."""
        counts = self._counts(self.concealed)
        counts[self.scorer.mj.index[self.win.tile]] -= 1
        return counts

    def _counts(self, tiles: tuple[int, ...]) -> list[int]:
        counts = [0] * len(self.scorer.mj.identities)
        for i in tiles:
            counts[i] += 1
        return counts


class HandKey(NamedTuple):
    """The facts of a hand that decide, before any reading is looked at, much of which yaku
    it can have: a few small values, so that the answer is worked out once per key."""

    closed: bool
    flags: frozenset
    classes: int  # bit mask: the tile classes (simples, yaochu, …) every tile of the hand has
    suits: int  # how many number suits it holds
    honours: bool
    seat: str
    round_wind: str
    streak: int  # the dealer's consecutive wins (-1 for a non-dealer)


class ReadingKey(NamedTuple):
    """The same for one reading: its shape and the counts of its parts."""

    shape: str
    runs: int
    triplets: int  # kans included
    kans: int
    concealed: int  # concealed triplets and kans (a triplet completed by a ron is open)
    honour_triplets: int
    part_classes: int  # bit mask: the tile classes every part touches (some tile of it has)
    wait: str


# One way to fill one suit's concealed tiles with a shape's parts, with what the readings and their
# keys need of it (worked out once per suit pattern), a plain tuple: a reading joins one per suit.
(
    WAY_PACKED,  # how many of each part it uses, packed (sums of ways add part-wise)
    WAY_PARTS,  # its ScoredParts
    WAY_RUNS,
    WAY_TRIPLETS,  # kans included
    WAY_PAIR,  # its pair, or None
    WAY_HONOURS,  # honour triplets
    WAY_CLASSES,  # the classes every part touches (all bits when there are no parts)
    WAY_KANS,
    # per rank of the suit: (part index, wait) for each part a tile of that rank may have completed,
    # one of identical parts (wait None: it depends on the whole hand, as 国士無双's does)
    WAY_WINS,
) = range(9)


def _joined(ways: tuple[tuple, ...], need: int) -> tuple | None:
    """One way per suit joined, if together they have the parts the shape needs: parts, runs,
    triplets, pair, honour triplets, part classes, kans (else None)."""
    if len(ways) == 4:  # the usual four suits, added without a loop
        a, b, c, d = ways
        if a[WAY_PACKED] + b[WAY_PACKED] + c[WAY_PACKED] + d[WAY_PACKED] != need:
            return None
        return (
            a[WAY_PARTS] + b[WAY_PARTS] + c[WAY_PARTS] + d[WAY_PARTS],
            a[WAY_RUNS] + b[WAY_RUNS] + c[WAY_RUNS] + d[WAY_RUNS],
            a[WAY_TRIPLETS] + b[WAY_TRIPLETS] + c[WAY_TRIPLETS] + d[WAY_TRIPLETS],
            a[WAY_PAIR] or b[WAY_PAIR] or c[WAY_PAIR] or d[WAY_PAIR],  # the first suit's
            a[WAY_HONOURS] + b[WAY_HONOURS] + c[WAY_HONOURS] + d[WAY_HONOURS],
            a[WAY_CLASSES] & b[WAY_CLASSES] & c[WAY_CLASSES] & d[WAY_CLASSES],
            a[WAY_KANS] + b[WAY_KANS] + c[WAY_KANS] + d[WAY_KANS],
        )
    if sum(x[WAY_PACKED] for x in ways) != need:
        return None
    classes = -1
    for way in ways:
        classes &= way[WAY_CLASSES]
    return (
        sum((x[WAY_PARTS] for x in ways), ()),
        sum((x[WAY_RUNS] for x in ways), ()),
        sum((x[WAY_TRIPLETS] for x in ways), ()),
        next((x[WAY_PAIR] for x in ways if x[WAY_PAIR]), None),
        sum(x[WAY_HONOURS] for x in ways),
        classes,
        sum(x[WAY_KANS] for x in ways),
    )


class _Declared(NamedTuple):
    """A hand's declared melds as parts, with what the readings and keys need of them."""

    tiles: tuple[int, ...]  # their identity indices
    reds: int  # red fives among them
    parts: tuple[ScoredPart, ...]
    runs: tuple[ScoredPart, ...]
    triplets: tuple[ScoredPart, ...]
    honour_triplets: int
    part_classes: int
    kans: int
    concealed: int  # closed kans
    facts: int  # their classes and number suits, packed as a suit's (see _pack_facts)
    closed: bool  # no open meld among them


def _join_declared(a: _Declared, b: _Declared) -> _Declared:
    """Two sets of declared melds as one."""
    return _Declared(
        a.tiles + b.tiles,
        a.reds + b.reds,
        a.parts + b.parts,
        a.runs + b.runs,
        a.triplets + b.triplets,
        a.honour_triplets + b.honour_triplets,
        a.part_classes & b.part_classes,
        a.kans + b.kans,
        a.concealed + b.concealed,
        a.facts & b.facts,
        a.closed and b.closed,
    )


_NO_DECLARED = _Declared(
    tiles=(),
    reds=0,
    parts=(),
    runs=(),
    triplets=(),
    honour_triplets=0,
    part_classes=-1,
    kans=0,
    concealed=0,
    facts=-1,
    closed=True,
)


# One suit's concealed tiles (per suit and the identity indices of its tiles): one flat list (the
# tables hold thousands, and each object more is one more for the garbage collector to walk) of its
# facts, packed; its counts, packed as SuitWays takes them; the suit's index; then per hand shape,
# in the ruleset's order, its ways — None until a hand asks for them: most hands are open to one
# shape only (a declared meld rules out 七対子 and 国士無双), and a hand stops at its first suit the
# shape cannot fill: working out every shape for each suit met was mostly for shapes no hand asked.
SUIT_FACTS, SUIT_COUNTS, SUIT_INDEX, SUIT_WAYS = 0, 1, 2, 3  # the ways of shape k are at SUIT_WAYS + k

# A suit's facts packed in one int, so that a hand's are its suits' (and its declared melds') ANDed
# together: the class bits every tile has; the class bits some tile has and the number suits held,
# each stored complemented (an OR is the complement of an AND of complements).
_SHIFT = 16
_FIELD = (1 << _SHIFT) - 1


def _pack_facts(every: int, some: int, number_suits: int) -> int:
    return every & _FIELD | (~some & _FIELD) << _SHIFT | (~number_suits & _FIELD) << 2 * _SHIFT


def _unpack_facts(facts: int) -> tuple[int, int, int]:
    """every, some, number suits."""
    return facts & _FIELD, ~(facts >> _SHIFT) & _FIELD, ~(facts >> 2 * _SHIFT) & _FIELD


class HandReader(ScorerTables):
    """The Scorer's reading of hands (a part of :class:`~solver.games.mahjong.scoring.Scorer`: the
    tile tables and caches it reads are built by ``Scorer.__init__``)."""

    # -- readings ---------------------------------------------------------------------------

    def readings(self, hand: Hand, win: Win) -> list[Reading]:
        """Every reading of a winning hand (none when the tiles do not win)."""
        w, suits, declared, facts = self._hand_facts(hand, win)
        melds, closed = len(hand.melds), declared.closed
        ron = not win.tsumo
        sw, rank = self._suit_position[w], self._rank_in_suit[w]
        out = []
        for shape_index, shape, need in self._shape_needs(melds):
            at = SUIT_WAYS + shape_index
            filled = True
            for info in suits:
                ways = info[at]
                if ways is None:
                    ways = info[at] = self._suit_ways(info, shape_index)
                if not ways:
                    filled = False  # this suit cannot be filled with the shape's parts
                    break
            if not filled:
                continue
            for combo in product(*[info[at] for info in suits]):
                joined = _joined(combo, need)
                if joined is None:
                    continue
                hidden, runs, triplets, pair, honour_triplets, part_classes, kans = joined
                parts, concealed = hidden, len(triplets)
                if melds:
                    parts = hidden + declared.parts
                    runs += declared.runs
                    triplets += declared.triplets
                    honour_triplets += declared.honour_triplets
                    part_classes &= declared.part_classes
                    kans += declared.kans
                    concealed += declared.concealed
                offset = 0  # the winning tile completed a concealed part of its own suit
                for way in combo[:sw]:
                    offset += len(way[WAY_PARTS])
                for k, wait in combo[sw][WAY_WINS][rank]:
                    k += offset
                    part = hidden[k]
                    if wait is None:
                        wait = self._wait_kind(shape, part, w, facts.before)
                    # ReadingKey's fields; a triplet completed by a ron is open (明刻)
                    key = (
                        shape,
                        len(runs),
                        len(triplets),
                        kans,
                        concealed - (ron and (part.kind == "triplet" or part.kind == "kan")),
                        honour_triplets,
                        part_classes,
                        wait,
                    )
                    out.append(
                        _new_tuple(
                            Reading, (shape, parts, runs, triplets, pair, wait, k, facts, key, closed, self, win)
                        )
                    )
        return out

    def _hand_facts(self, hand: Hand, win: Win) -> tuple:
        """(the winning tile's identity, each suit's cached entry, the declared melds, the hand's
        facts) — what every reading of the hand shares."""
        mj = self.mj
        by_face, is_red, reds = mj.identity_of_face, self._is_red, 0
        held: list[int] = []
        for f in hand.concealed:  # plain loops: on a dozen tiles they beat map() and comprehensions
            i = f.index
            held.append(by_face[i])
            reds += is_red[i]
        held.sort()
        w = mj.index[win.tile]
        if w not in held:
            raise MeldsError(f"the winning tile {mj.tile_text(win.tile)} is not in the hand")
        # each suit's tiles, a slice of the sorted identities, looked up in that suit's table
        suits, packed, start = [], -1, 0
        for s, cache, end in self._suit_ends:
            stop = bisect_left(held, end, start)
            key = tuple(held[start:stop])
            start = stop
            info = cache.get(key)
            if info is None:
                info = remember(cache, key, self._new_suit(s, key))
            suits.append(info)
            packed &= info[SUIT_FACTS]
        declared, melds, concealed_ids = _NO_DECLARED, len(hand.melds), tuple(held)
        tiles = concealed_ids
        if melds:
            declared = self._declared(hand.melds)
            tiles += declared.tiles
            packed &= declared.facts
        every, some, number_suits = _unpack_facts(packed)
        reds += declared.reds
        closed = declared.closed
        honours = bool(some & self._honour_bit)
        suit_set = self._suit_sets[number_suits]
        raised = _win_flags(win)
        flags = self._flag_sets.get(raised)
        if flags is None:
            flags = remember(self._flag_sets, raised, win.flags)
        hand_key = (
            closed,
            flags,
            every,
            len(suit_set),
            honours,
            win.seat,
            win.round_wind,
            win.dealer_streak if win.dealer else -1,
        )  # HandKey's fields
        facts = _new_tuple(
            HandFacts, (self, win, tiles, concealed_ids, closed, melds, suit_set, honours, hand_key, reds)
        )
        return w, suits, declared, facts

    def _new_suit(self, s: int, key: tuple[int, ...]) -> list:
        """One suit's concealed tiles, from their identity indices (cached by the caller: suit
        patterns recur from hand to hand), its ways left to :meth:`_suit_ways`."""
        number_suit, shapes = self._suit_making(s)
        every, some, packed, class_mask, packed_tile = self._all_classes, 0, 0, self._class_mask, self._packed_tile
        for i in key:
            every &= class_mask[i]
            some |= class_mask[i]
            packed += packed_tile[i]  # the counts packed as SuitWays takes them
        return [_pack_facts(every, some, number_suit if key else 0), packed, s] + [None] * len(shapes)

    def _suit_ways(self, info: list, shape_index: int) -> tuple:
        """The ways a hand shape fills a suit's entry (see :meth:`_new_suit`); none when it cannot."""
        s = info[SUIT_INDEX]
        ways, numbers = self._suit_making(s)[1][shape_index]
        return tuple(
            [self._suit_way(pattern, numbers) for pattern in self._pattern(shape_index, s, ways, info[SUIT_COUNTS])]
        )

    def _suit_making(self, s: int) -> tuple:
        """What making a suit's entry needs, looked up once: its number suit's bit, and per hand
        shape the ways of filling it and its part instances' numbers."""
        found = self._suit_tables.get(s)
        if found is None:
            mj = self.mj
            a, b = mj.suit_slices[s]
            suit = self._suit_of[a]
            found = self._suit_tables[s] = (
                self._suit_bit[suit] if suit is not None else 0,
                tuple(
                    (mj.suit_ways_of(shape, s), self._part_numbers(k, s))
                    for k, shape in enumerate(mj.rules.hand_shapes)
                ),
            )
        return found

    def _suit_way(self, pattern: tuple, numbers: tuple[int, ...]) -> tuple:
        """A way of a suit pattern (see :meth:`_pattern`) in one suit: its parts' numbers."""
        instances, packed, runs, triplets, pair, kans, wins = pattern
        table, touched, honour = self._part_table, self._part_touched, self._part_honour
        ids = [numbers[i] for i in instances]
        classes, honours = self._all_classes, 0
        for p in ids:
            classes &= touched[p]
        for k in triplets:
            honours += honour[ids[k]]
        parts = tuple([table[p] for p in ids])
        return (
            packed,
            parts,
            tuple([parts[k] for k in runs]),
            tuple([parts[k] for k in triplets]),
            parts[pair] if pair >= 0 else None,
            honours,
            classes,
            kans,
            wins,
        )

    def _pattern(self, shape_index: int, s: int, ways: SuitWays, packed: int) -> tuple:
        """The ways to fill packed counts with a shape's parts, as suits alike share them: per way
        its part instances, part counts (packed), the places of its runs, triplets and pair, its
        kans and, per rank, the parts a tile of that rank may have completed with their waits."""
        memo = self._patterns.get(ways)
        if memo is None:
            memo = self._patterns[ways] = {}
        found = memo.get(packed)
        if found is None:
            numbers, table, part_wins = self._part_numbers(shape_index, s), self._part_table, self._part_wins
            found = []
            for instances in ways.ways(packed):
                wins: list[tuple] = [()] * len(ways.starting)
                runs, triplets, pair, kans, parts, previous = [], [], -1, 0, 0, None
                for k, i in enumerate(instances):
                    number = numbers[i]
                    part = table[number]
                    parts += self._part_packed[number]
                    kind = part.kind
                    if kind == "run":
                        runs.append(k)
                    elif kind == "triplet" or kind == "kan":
                        triplets.append(k)
                        kans += kind == "kan"
                    elif kind == "pair" and pair < 0:
                        pair = k
                    if part != previous:  # the same wait in an identical part is the same reading
                        for rank, wait in part_wins[number]:
                            wins[rank] += ((k, wait),)
                    previous = part
                found.append((instances, parts, tuple(runs), tuple(triplets), pair, kans, tuple(wins)))
            found = remember(memo, packed, tuple(found))
        return found

    def _part_numbers(self, shape_index: int, s: int) -> tuple[int, ...]:
        """The numbers, in the scorer's table of parts, of a shape's part instances in suit ``s``
        (made once per shape and suit)."""
        key = (shape_index, s)
        found = self._part_numbers_by_suit.get(key)
        if found is None:
            mj = self.mj
            offset = mj.suit_slices[s][0]
            found = []
            shape = mj.rules.hand_shapes[shape_index]
            for j, kid, vec, _ in mj.instances(shape, s):
                part = ScoredPart(
                    self.kind_shape[kid], tuple(offset + i for i, n in enumerate(vec) for _ in range(n)), False, None
                )
                touched = 0
                for i in part.tiles:
                    touched |= self._class_mask[i]
                found.append(len(self._part_table))
                self._part_table.append(part)
                self._part_wins.append(
                    tuple(  # (rank, wait) of each tile that may have completed it
                        (
                            tile - offset,
                            None if shape.id in self._hand_waits else self._wait_kind(shape.id, part, tile, None),
                        )
                        for tile in sorted(set(part.tiles))
                    )
                )
                self._part_packed.append(1 << (FIELD * j))
                self._part_touched.append(touched)
                self._part_honour.append(int(bool(self._class_mask[part.tiles[0]] & self._honour_bit)))
            found = self._part_numbers_by_suit[key] = tuple(found)
        return found

    def _part_facts(self, parts: tuple[ScoredPart, ...]) -> tuple:
        """parts, runs, triplets, pair, honour triplets, classes every part touches, kans."""
        triplets = tuple(p for p in parts if p.kind in ("triplet", "kan"))
        touched = self._all_classes
        for p in parts:
            touch = 0
            for i in p.tiles:
                touch |= self._class_mask[i]
            touched &= touch
        return (
            parts,
            tuple(p for p in parts if p.kind == "run"),
            triplets,
            next((p for p in parts if p.kind == "pair"), None),
            sum(bool(self._class_mask[p.tiles[0]] & self._honour_bit) for p in triplets),
            touched,
            sum(p.kind == "kan" for p in triplets),
        )

    def _declared(self, melds) -> _Declared:
        """The declared melds as parts: each meld worked out once (a parsed hand's melds are shared
        objects, remembered by identity; others by their kind, openness and faces), then joined
        (``melds`` is not empty)."""
        out: _Declared | None = None
        for m in melds:
            known = self._meld_objects.get(id(m))
            if known is None or known[0] is not m:
                key = (m.kind, m.open) + tuple(f.index for f in m.faces)
                one = self._declared_cache.get(key)
                if one is None:
                    one = remember(self._declared_cache, key, self._new_declared(m))
                known = remember(self._meld_objects, id(m), (m, one))  # holds m: its id is not reused
            out = known[1] if out is None else _join_declared(out, known[1])
        assert out is not None, "no declared melds"
        return out

    def _new_declared(self, m) -> _Declared:
        by_face, class_mask = self.mj.identity_of_face, self._class_mask
        every, some = self._all_classes, 0
        idx = sorted(by_face[f.index] for f in m.faces)
        for i in idx:
            every &= class_mask[i]
            some |= class_mask[i]
        kind = self.kind_shape[m.meld_kind]
        part = ScoredPart(
            kind, tuple(idx[:3]) if kind == "run" else (idx[0],) * (4 if kind == "kan" else 3), m.open, m.kind
        )
        parts, runs, triplets, _, honour_triplets, touched, kans = self._part_facts((part,))
        suit = self._suit_of[part.tiles[0]]
        return _Declared(
            tuple(idx),
            sum(self._is_red[f.index] for f in m.faces),
            parts,
            runs,
            triplets,
            honour_triplets,
            touched,
            kans,
            sum(not p.open for p in triplets),
            _pack_facts(every, some, self._suit_bit[suit] if suit is not None else 0),
            not m.open,
        )

    def _shape_needs(self, declared: int) -> list[tuple]:
        """(shape index, shape id, packed part counts needed) for the shapes open to ``declared``
        declared melds."""
        found = self._shapes_by_declared.get(declared)
        if found is None:
            position = {shape.id: k for k, shape in enumerate(self.mj.rules.hand_shapes)}
            found = self._shapes_by_declared[declared] = [
                (position[shape.id], shape.id, pack_parts(need)) for shape, need in self.mj.shape_needs(declared)
            ]
        return found

    def _wait_kind(self, shape: str, part: ScoredPart, w: int, before: Sequence[int] | None) -> str:
        if part.kind == "run":
            pos = part.tiles.index(w)
            if pos == 1:
                return "kanchan"
            low_rank = self.suit_rank[part.tiles[0]][1]
            assert low_rank is not None, "a run is of a number suit"
            last = len(self.suit_members[self.suit_rank[w][0]]) - 1
            if (pos == 2 and low_rank == 0) or (pos == 0 and low_rank + 2 == last):
                return "penchan"
            return "ryanmen"
        if part.kind == "triplet":
            return "shanpon"
        if shape in self._hand_waits and before is not None:  # (the counts are given for these shapes)
            return (
                "kokushi-13"
                if part.kind == "pair"
                and all(before[i] == 1 for i in part.tiles[:1])
                and sum(1 for n in before if n) == 13
                else "kokushi"
            )
        return "tanki"
