"""A winning hand read every way it can be: each decomposition of its tiles and each part the
winning tile may have completed (the wait), with the small keys that decide which yaku are worth
testing. Suit patterns and declared melds recur from hand to hand, so each is worked out once."""

from __future__ import annotations

from itertools import product
from operator import attrgetter
from typing import Mapping, NamedTuple, Sequence

from solver.core.errors import MeldsError
from solver.games.mahjong.hands import Hand
from solver.games.mahjong.shapes import FIELD, SuitWays, pack_parts
from solver.games.mahjong.win import WIN_FLAGS, Win, remember

_win_flags = attrgetter(*WIN_FLAGS)  # a win's flags as a tuple of booleans, read at C speed


class ScoredPart(NamedTuple):  # a NamedTuple: made for every part of every reading, so cheaply
    kind: str  # run | triplet | kan | pair | single (kokushi)
    tiles: tuple[int, ...]  # identity indices
    open: bool
    declared: str | None  # the declared meld id, or None for concealed tiles


# -- the view of one reading that the primitives look at -------------------------------------------

class Reading:
    """One way to read a win: a decomposition and the part the winning tile completed, with
    the facts of the whole hand the primitives share (plain slots: one per reading, many per
    second)."""

    __slots__ = ("shape", "parts", "runs", "triplets", "pair", "wait", "win_part", "hand", "key", "closed",
                 "scorer", "win")

    def __init__(self, shape: str, parts: tuple, runs: tuple, triplets: tuple, pair: ScoredPart | None,
                 wait: str, win_part: int | None, hand: "HandFacts", key: tuple):
        self.shape, self.parts, self.runs, self.triplets, self.pair = shape, parts, runs, triplets, pair
        self.wait = wait  # ryanmen kanchan penchan shanpon tanki kokushi kokushi-13
        self.win_part = win_part  # the index in parts of the part the winning tile completed
        self.hand, self.key = hand, key  # key: ReadingKey's fields
        self.closed, self.scorer, self.win = hand.closed, hand.scorer, hand.win

    def concealed_triplet(self, p: ScoredPart) -> bool:
        """Is a triplet (or kan) of this reading concealed? One completed by a ron counts as open
        (明刻); no two triplets of a hand are alike, so the part itself tells which one."""
        return not p.open and (self.win.tsumo or p != self.parts[self.win_part])


class HandFacts(NamedTuple):
    """What every reading of one hand shares."""

    scorer: "HandReader"  # the Scorer that read the hand (the primitives read its tile tables)
    win: Win
    tiles: list  # identity index -> count over the whole hand (a kan counts 4)
    before: list  # the concealed counts before the winning tile
    closed: bool  # no open declared meld
    declared: int  # declared melds (a closed kan included)
    suits: frozenset  # the number suits the hand holds
    honours: bool  # the hand holds an honour
    key: tuple  # what decides, with a reading's own key, which yaku are worth trying (HandKey)
    reds: int  # red fives held


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


class _Way(NamedTuple):
    """One way to fill one suit's concealed tiles with a shape's parts, with what the readings
    and their keys need of it (worked out once per suit pattern)."""

    packed: int  # how many of each part it uses, packed (sums of ways add part-wise)
    parts: tuple[ScoredPart, ...]
    runs: tuple[ScoredPart, ...]
    triplets: tuple[ScoredPart, ...]  # kans included
    pair: ScoredPart | None
    honour_triplets: int
    part_classes: int  # the classes every part touches (all bits when there are no parts)
    kans: int
    # tile -> (part index, wait) for each part the tile may have completed, one of identical parts
    # (wait None: it depends on the whole hand, as 国士無双's does)
    wins: Mapping[int, tuple[tuple[int, str | None], ...]]


def _joined(ways: tuple[_Way, ...], need: int) -> tuple | None:
    """One way per suit joined, if together they have the parts the shape needs: parts, runs,
    triplets, pair, honour triplets, part classes, kans (else None)."""
    if len(ways) == 4:  # the usual four suits, added without a loop
        a, b, c, d = ways
        if a.packed + b.packed + c.packed + d.packed != need:
            return None
        return (a.parts + b.parts + c.parts + d.parts, a.runs + b.runs + c.runs + d.runs,
                a.triplets + b.triplets + c.triplets + d.triplets, a.pair or b.pair or c.pair or d.pair,
                a.honour_triplets + b.honour_triplets + c.honour_triplets + d.honour_triplets,
                a.part_classes & b.part_classes & c.part_classes & d.part_classes, a.kans + b.kans + c.kans + d.kans)
    if sum(x.packed for x in ways) != need:
        return None
    classes = -1
    for way in ways:
        classes &= way.part_classes
    return (sum((x.parts for x in ways), ()), sum((x.runs for x in ways), ()), sum((x.triplets for x in ways), ()),
            next((x.pair for x in ways if x.pair), None), sum(x.honour_triplets for x in ways), classes,
            sum(x.kans for x in ways))


class _Piece(NamedTuple):
    """A part instance of a shape in one suit, with what a way needs of it."""

    part: ScoredPart
    packed: int  # one of its part, packed
    touched: int  # the classes some tile of it has
    honour: int  # 1 if it is an honour part
    wins: tuple[tuple[int, str | None], ...]  # (tile, wait) for each tile it may have been completed by


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
    every: int
    some: int
    suits: int  # bit mask of the number suits
    closed: bool  # no open meld among them


def _extended(w: _Way, p: _Piece) -> _Way:
    """A way with one more part."""
    part, k = p.part, len(w.parts)
    kind = part.kind
    runs, triplets, pair, honour_triplets, kans = w.runs, w.triplets, w.pair, w.honour_triplets, w.kans
    if kind == "run":
        runs += (part,)
    elif kind == "triplet" or kind == "kan":
        triplets += (part,)
        honour_triplets += p.honour
        kans += kind == "kan"
    elif kind == "pair" and pair is None:
        pair = part
    wins = w.wins
    if not (k and w.parts[-1] == part):  # the same wait in an identical part is the same reading
        wins = dict(wins)
        for tile, wait in p.wins:
            wins[tile] = wins.get(tile, ()) + ((k, wait),)
    return _Way(w.packed + p.packed, w.parts + (part,), runs, triplets, pair, honour_triplets,
                w.part_classes & p.touched, kans, wins)


def _join_declared(a: _Declared, b: _Declared) -> _Declared:
    """Two sets of declared melds as one."""
    return _Declared(a.tiles + b.tiles, a.reds + b.reds, a.parts + b.parts, a.runs + b.runs, a.triplets + b.triplets,
                     a.honour_triplets + b.honour_triplets, a.part_classes & b.part_classes, a.kans + b.kans,
                     a.concealed + b.concealed, a.every & b.every, a.some | b.some, a.suits | b.suits,
                     a.closed and b.closed)


_NO_DECLARED = _Declared(tiles=(), reds=0, parts=(), runs=(), triplets=(), honour_triplets=0, part_classes=-1, kans=0,
                         concealed=0, every=-1, some=0, suits=0, closed=True)


class _Suit(NamedTuple):
    """One suit's concealed tiles: the classes they share and have, and their ways per shape."""

    every: int  # class bits every tile has (all bits when the suit is empty)
    some: int  # class bits some tile has
    number_suit: int  # the number suit's bit, when the hand holds one of its tiles (else 0)
    ways: tuple[tuple[_Way, ...], ...]  # per hand shape, in the ruleset's order
    shapes: int  # bit mask: the shapes (by their place in the ruleset) with a way to fill the suit


class HandReader:
    """The Scorer's reading of hands (a part of :class:`~solver.games.mahjong.scoring.Scorer`: the
    tile tables and caches it reads are built by ``Scorer.__init__``)."""

    # -- readings ---------------------------------------------------------------------------

    def readings(self, hand: Hand, win: Win) -> list[Reading]:
        """Every reading of a winning hand (none when the tiles do not win)."""
        mj = self.mj
        counts = [0] * len(mj.identities)
        by_face, is_red, reds = mj.identity_of_face, self._is_red, 0
        for f in hand.concealed:
            i = f.index
            counts[by_face[i]] += 1
            reds += is_red[i]
        w = mj.index[win.tile]
        if not counts[w]:
            raise MeldsError(f"the winning tile {mj.tile_text(win.tile)} is not in the hand")
        before = counts.copy()
        before[w] -= 1
        suits = []
        every, some, number_suits, shapes = self._all_classes, 0, 0, -1
        for s, cache, a, b in self._suit_spans:
            key = tuple(counts[a:b])
            info = cache.get(key)
            if info is None:
                info = remember(cache, key, self._new_suit(s, key))
            suits.append(info)
            every &= info.every
            some |= info.some
            number_suits |= info.number_suit
            shapes &= info.shapes
        tiles, declared, melds = counts, _NO_DECLARED, len(hand.melds)
        if melds:
            declared = self._declared(hand.melds)
            tiles = counts.copy()
            for i in declared.tiles:
                tiles[i] += 1
            every &= declared.every
            some |= declared.some
            number_suits |= declared.suits
            reds += declared.reds
        closed = declared.closed
        honours = bool(some & self._honour_bit)
        suit_set = self._suit_sets[number_suits]
        raised = _win_flags(win)
        flags = self._flag_sets.get(raised)
        if flags is None:
            flags = remember(self._flag_sets, raised, win.flags)
        hand_key = (closed, flags, every, len(suit_set), honours, win.seat, win.round_wind,
                    win.dealer_streak if win.dealer else -1)  # HandKey's fields
        facts = HandFacts(self, win, tiles, before, closed, melds, suit_set, honours, hand_key, reds)
        ron = not win.tsumo
        sw = self._suit_position[w]
        out = []
        for shape_index, shape, need in self._shape_needs(melds):
            if not shapes >> shape_index & 1:
                continue  # some suit cannot be filled with this shape's parts
            for combo in product(*[info.ways[shape_index] for info in suits]):
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
                    offset += len(way.parts)
                for k, wait in combo[sw].wins[w]:
                    k += offset
                    part = hidden[k]
                    if wait is None:
                        wait = self._wait_kind(shape, part, w, before)
                    # ReadingKey's fields; a triplet completed by a ron is open (明刻)
                    key = (shape, len(runs), len(triplets), kans,
                           concealed - (ron and (part.kind == "triplet" or part.kind == "kan")),
                           honour_triplets, part_classes, wait)
                    out.append(Reading(shape, parts, runs, triplets, pair, wait, k, facts, key))
        return out

    def _new_suit(self, s: int, key: tuple) -> _Suit:
        """One suit's concealed tiles (cached by the caller: suit patterns recur from hand to hand)."""
        masks, number_suit, shapes = self._suit_making(s)
        every, some = self._all_classes, 0
        for n, mask in zip(key, masks):
            if n:
                every &= mask
                some |= mask
        packed, by_shape, fillable = SuitWays.pack(key), [], 0
        for k, (pieces, ways, memo) in enumerate(shapes):
            found = ways.ways(packed)
            if found:
                fillable |= 1 << k
                by_shape.append(tuple([memo.get(w) or self._way(memo, pieces, w) for w in found]))
            else:
                by_shape.append(())
        return _Suit(every, some, number_suit if some else 0, tuple(by_shape), fillable)

    def _suit_making(self, s: int) -> tuple:
        """What making a suit's _Suit needs, looked up once: its tiles' class masks, its number
        suit's bit, and per hand shape its part instances, the ways of filling it and the
        _Ways made so far."""
        found = self._suit_tables.get(s)
        if found is None:
            mj = self.mj
            a, b = mj.suit_slices[s]
            suit = self._suit_of[a]
            found = self._suit_tables[s] = (
                self._class_mask[a:b], self._suit_bit[suit] if suit is not None else 0,
                tuple((self._pieces(k, s), mj.suit_ways_of(shape, s), {})
                      for k, shape in enumerate(mj.rules.hand_shapes)))
        return found

    def _way(self, memo: dict, pieces: list[_Piece], way: tuple[int, ...]) -> _Way:
        """One way to fill a suit (a tuple of part instances): its last part added to the way of
        the others, each remembered (ways of different patterns share their first parts)."""
        found = memo.get(way)
        if found is None:
            if not way:
                found = _Way(0, (), (), (), None, 0, self._all_classes, 0, {})
            else:
                found = _extended(self._way(memo, pieces, way[:-1]), pieces[way[-1]])
            remember(memo, way, found)
        return found

    def _pieces(self, shape_index: int, s: int) -> list[_Piece]:
        """The shape's part instances in suit ``s``, each with what a way needs of it (once per
        shape and suit)."""
        key = (shape_index, s)
        found = self._pieces_by_suit.get(key)
        if found is None:
            mj = self.mj
            shape = mj.rules.hand_shapes[shape_index]
            offset = mj.suit_slices[s][0]
            found = []
            for j, kid, vec, _ in mj.instances(shape, s):
                part = ScoredPart(self.kind_shape[kid], tuple(offset + i for i, n in enumerate(vec) for _ in range(n)),
                                  False, None)
                touched = 0
                for i in part.tiles:
                    touched |= self._class_mask[i]
                wins = tuple((tile, None if shape.id in self._hand_waits else self._wait_kind(shape.id, part, tile, None))
                             for tile in sorted(set(part.tiles)))
                found.append(_Piece(part, 1 << (FIELD * j), touched,
                                    int(bool(self._class_mask[part.tiles[0]] & self._honour_bit)), wins))
            self._pieces_by_suit[key] = found
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
        return (parts, tuple(p for p in parts if p.kind == "run"), triplets,
                next((p for p in parts if p.kind == "pair"), None),
                sum(bool(self._class_mask[p.tiles[0]] & self._honour_bit) for p in triplets), touched,
                sum(p.kind == "kan" for p in triplets))

    def _declared(self, melds) -> _Declared:
        """The declared melds as parts: each meld worked out once (a parsed hand's melds are shared
        objects, remembered by identity; others by their kind, openness and faces), then joined."""
        out = None
        for m in melds:
            known = self._meld_objects.get(id(m))
            if known is None or known[0] is not m:
                key = (m.kind, m.open) + tuple(f.index for f in m.faces)
                one = self._declared_cache.get(key)
                if one is None:
                    one = remember(self._declared_cache, key, self._new_declared(m))
                known = remember(self._meld_objects, id(m), (m, one))  # holds m: its id is not reused
            out = known[1] if out is None else _join_declared(out, known[1])
        return out

    def _new_declared(self, m) -> _Declared:
        by_face, class_mask = self.mj.identity_of_face, self._class_mask
        every, some = self._all_classes, 0
        idx = sorted(by_face[f.index] for f in m.faces)
        for i in idx:
            every &= class_mask[i]
            some |= class_mask[i]
        kind = self.kind_shape[m.meld_kind]
        part = ScoredPart(kind, tuple(idx[:3]) if kind == "run" else (idx[0],) * (4 if kind == "kan" else 3),
                          m.open, m.kind)
        parts, runs, triplets, _, honour_triplets, touched, kans = self._part_facts((part,))
        suit = self._suit_of[part.tiles[0]]
        return _Declared(tuple(idx), sum(self._is_red[f.index] for f in m.faces), parts, runs, triplets,
                         honour_triplets, touched, kans, sum(not p.open for p in triplets), every, some,
                         self._suit_bit[suit] if suit is not None else 0, not m.open)

    def _shape_needs(self, declared: int) -> list[tuple]:
        """(shape index, shape id, packed part counts needed) for the shapes open to ``declared``
        declared melds."""
        found = self._shapes_by_declared.get(declared)
        if found is None:
            position = {shape.id: k for k, shape in enumerate(self.mj.rules.hand_shapes)}
            found = self._shapes_by_declared[declared] = [
                (position[shape.id], shape.id, pack_parts(need)) for shape, need in self.mj.shape_needs(declared)]
        return found

    def _wait_kind(self, shape: str, part: ScoredPart, w: int, before: Sequence[int] | None) -> str:
        if part.kind == "run":
            pos = part.tiles.index(w)
            if pos == 1:
                return "kanchan"
            low_rank = self.suit_rank[part.tiles[0]][1]
            last = len(self.suit_members[self.suit_rank[w][0]]) - 1
            if (pos == 2 and low_rank == 0) or (pos == 0 and low_rank + 2 == last):
                return "penchan"
            return "ryanmen"
        if part.kind == "triplet":
            return "shanpon"
        if shape in self._hand_waits:
            return "kokushi-13" if part.kind == "pair" and all(before[i] == 1 for i in part.tiles[:1]) \
                and sum(1 for n in before if n) == 13 else "kokushi"
        return "tanki"
