"""Yaku: hand-pattern primitives, each a test of one reading with deciders on the hand's and the
reading's keys alone, and the ruleset's yaku compiled from them (its pattern names the primitives
and their parameters)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from solver.games.mahjong.readings import HandKey, Reading, ReadingKey
from solver.games.mahjong.rules import Yaku
from solver.games.mahjong.scorertables import ScorerTables
from solver.games.mahjong.win import SEATS, remember


class YakuHan(NamedTuple):  # a NamedTuple: listed for every reading scored, so cheaply
    id: str
    name: str
    han: int
    yakuman: int = 0


# -- hand-pattern primitives -------------------------------------------------------------------------
#
# A primitive is a *test* of one reading and up to two *deciders*: one that looks only at the
# hand's key (a HandKeyFacts), one only at the reading's key (a ReadingKeyFacts). A decider answers True
# or False when its key settles its side of the test, None when the reading must be tested; a side
# with no decider has no say. The test passes only if both sides could pass: False on either side
# rules the yaku out, True on both makes it sure. The hand deciders run once per hand key, the
# reading deciders once per reading key, and a yaku is tested on a reading only for what they left
# open — so that most yaku cost nothing on most readings, even on hands never seen before.

Test = Callable[[Reading, object], bool]


class HandKeyFacts(NamedTuple):
    """A HandKey as the hand deciders see it (its class mask as class names)."""

    closed: bool
    flags: frozenset
    classes: frozenset
    suits: int
    honours: bool
    streak: int


class ReadingKeyFacts(NamedTuple):
    """A ReadingKey as the reading deciders see it (its class mask as class names)."""

    shape: str
    runs: int
    triplets: int
    kans: int
    concealed: int
    honour_triplets: int
    part_classes: frozenset
    wait: str


def _flag(r: Reading, name) -> bool:
    return _flags_hold(r.win.flags, name)


def _flag_hand(h: HandKeyFacts, name) -> bool:
    return _flags_hold(h.flags, name)


def _flags_hold(flags: frozenset, name) -> bool:
    """A flag of the win, or a list of flags that must all hold (海底撈月: [haitei, tsumo])."""
    return name in flags if name.__class__ is str else flags.issuperset(name)


def _pinfu(r: Reading, _) -> bool:
    return (
        r.shape == "standard"
        and len(r.runs) == 4
        and r.wait == "ryanmen"
        and r.pair is not None
        and not r.scorer.pair_fu(r.win)[r.pair.tiles[0]][0]
    )


def _pinfu_reading(k: ReadingKeyFacts, _) -> bool | None:
    return None if k.shape == "standard" and k.runs == 4 and k.wait == "ryanmen" else False


def _identical_runs(r: Reading, n) -> bool:
    runs = [p.tiles for p in r.runs]
    if len(set(runs)) == len(runs):
        return n <= 0  # no two alike (the usual case)
    runs.sort()
    pairs, k = 0, 1
    while k < len(runs):  # pairs of equal runs, each run in one pair at most
        if runs[k] == runs[k - 1]:
            pairs += 1
            k += 2
        else:
            k += 1
    return pairs >= n


def _identical_runs_reading(k: ReadingKeyFacts, n) -> bool | None:
    return None if k.runs >= 2 * n else False


def _tiles_only(r: Reading, what) -> bool:
    return all(r.scorer.tile_classes[what][i] for i, n in enumerate(r.hand.tiles) if n)


def _tiles_only_hand(h: HandKeyFacts, what) -> bool:
    return what in h.classes


def _triplet_of(r: Reading, target) -> bool:
    if isinstance(target, str):  # seat-wind, round-wind: known at the win
        target = r.scorer.named_tile(target, r.win)
    return any(p.tiles[0] == target for p in r.triplets)


def _triplet_of_reading(k: ReadingKeyFacts, target) -> bool | None:
    return None if k.triplets else False


def _three_suits(r: Reading, what) -> bool:
    suits_at: dict = {}  # rank -> bit mask of the number suits with such a part there
    rank_suit = r.scorer.rank_suit
    for p in r.runs if what == "run" else r.triplets:
        rank, bit = rank_suit[p.tiles[0]]
        if bit:
            suits_at[rank] = suits_at.get(rank, 0) | bit
    return any(bin(m).count("1") >= 3 for m in suits_at.values())


def _three_suits_reading(k: ReadingKeyFacts, what) -> bool | None:
    return None if (k.runs if what == "run" else k.triplets) >= 3 else False


_STRAIGHT = 1 << 0 | 1 << 3 | 1 << 6  # runs starting at ranks 1, 4 and 7


def _straight(r: Reading, _) -> bool:
    starts: dict = {}  # suit -> bit mask of the ranks its runs start at
    suit_rank = r.scorer.suit_rank
    for p in r.runs:
        suit, rank = suit_rank[p.tiles[0]]
        starts[suit] = starts.get(suit, 0) | 1 << rank
    return any(m & _STRAIGHT == _STRAIGHT for m in starts.values())


def _straight_reading(k: ReadingKeyFacts, _) -> bool | None:
    return None if k.runs >= 3 else False


def _every_part(r: Reading, what) -> bool:
    if r.shape != "standard" or not r.runs or (what == "terminal" and r.hand.honours):
        return False
    test = r.scorer.tile_classes["terminals" if what == "terminal" else "yaochu"]
    return all(any(test[i] for i in p.tiles) for p in r.parts)


def _every_part_hand(h: HandKeyFacts, what) -> bool:
    return not (what == "terminal" and h.honours)


def _every_part_reading(k: ReadingKeyFacts, what) -> bool:
    if k.shape != "standard" or not k.runs:
        return False
    return ("terminals" if what == "terminal" else "yaochu") in k.part_classes


def _concealed_triplets(r: Reading, n) -> bool:
    return sum(1 for p in r.triplets if r.concealed_triplet(p)) >= n


def _concealed_triplets_reading(k: ReadingKeyFacts, n) -> bool:
    return k.concealed >= n


def _triplets(r: Reading, n) -> bool:
    return len(r.triplets) >= n


def _triplets_reading(k: ReadingKeyFacts, n) -> bool:
    return k.triplets >= n


def _kans(r: Reading, n) -> bool:
    return sum(p.kind == "kan" for p in r.parts) >= n


def _kans_reading(k: ReadingKeyFacts, n) -> bool:
    return k.kans >= n


def _consecutive_triplets(r: Reading, n) -> bool:
    by_suit: dict = {}  # suit -> bit mask of the ranks of its triplets
    suit_rank = r.scorer.suit_rank
    for p in r.triplets:
        suit, rank = suit_rank[p.tiles[0]]
        if suit is not None:
            by_suit[suit] = by_suit.get(suit, 0) | 1 << rank
    for ranks in by_suit.values():
        starts = ranks  # ranks that start n triplets in a row
        for k in range(1, n):
            starts &= ranks >> k
        if starts:
            return True
    return False


def _consecutive_triplets_reading(k: ReadingKeyFacts, n) -> bool | None:
    return None if k.triplets - k.honour_triplets >= n else False


def _honour_set(r: Reading, spec) -> bool:
    group, count, pair, _ = spec
    if sum(p.tiles[0] in group for p in r.triplets) != count:
        return False
    return not pair or (r.pair is not None and r.pair.tiles[0] in group)


def _honour_set_reading(k: ReadingKeyFacts, spec) -> bool | None:
    _, count, _, honours_only = spec
    return False if honours_only and k.honour_triplets < count else None


def _one_suit(r: Reading, what) -> bool:
    return len(r.hand.suits) == 1 and r.hand.honours == (what == "with-honours")


def _one_suit_hand(h: HandKeyFacts, what) -> bool:
    return h.suits == 1 and h.honours == (what == "with-honours")


def _shape(r: Reading, shape) -> bool:
    return r.shape == shape


def _shape_reading(k: ReadingKeyFacts, shape) -> bool:
    return k.shape == shape


def _nine_gates(r: Reading, _) -> bool:
    if not r.closed or r.hand.declared or r.shape != "standard" or len(r.hand.suits) != 1 or r.hand.honours:
        return False
    (suit,) = r.hand.suits
    ranks = r.scorer.suit_members[suit]
    base = [3] + [1] * (len(ranks) - 2) + [3]
    return all(r.hand.tiles[i] >= b for i, b in zip(ranks, base, strict=True))


def _nine_gates_hand(h: HandKeyFacts, _) -> bool | None:
    return None if h.closed and h.suits == 1 and not h.honours else False


def _nine_gates_reading(k: ReadingKeyFacts, _) -> bool | None:
    return None if k.shape == "standard" else False


def _wait(r: Reading, what) -> bool:
    if what == "tanki":
        return r.wait == "tanki"
    if what == "thirteen":
        return r.wait == "kokushi-13"
    if what == "nine":  # the 13 tiles before the win were exactly 1112345678999 of one suit
        sc, before = r.scorer, r.hand.before
        ranks = sc.suit_members.get(sc.suit_rank[sc.index(r.win.tile)][0], [])
        base = [3] + [1] * (len(ranks) - 2) + [3]
        return (
            bool(ranks) and sum(before) == sum(base) and all(before[i] == b for i, b in zip(ranks, base, strict=True))
        )
    return False


def _wait_reading(k: ReadingKeyFacts, what) -> bool | None:
    if what == "tanki":
        return k.wait == "tanki"
    if what == "thirteen":
        return k.wait == "kokushi-13"
    return None if what == "nine" else False


def _dealer_streak(r: Reading, n) -> bool:
    return r.win.dealer and r.win.dealer_streak >= n


def _dealer_streak_hand(h: HandKeyFacts, n) -> bool:
    return h.streak >= n


# a key's say on a check with its parameter: True passes, False rules the yaku out, None leaves the test to run
HandDecider = Callable[[HandKeyFacts, Any], "bool | None"]
ReadingDecider = Callable[[ReadingKeyFacts, Any], "bool | None"]


class Primitive(NamedTuple):
    test: Test
    on_hand: HandDecider | None = None  # the hand key's side (None: it has no say)
    on_reading: ReadingDecider | None = None  # the reading key's side


PRIMITIVES: dict[str, Primitive] = {
    "flag": Primitive(_flag, on_hand=_flag_hand),
    "pinfu": Primitive(_pinfu, on_reading=_pinfu_reading),
    "identical_runs": Primitive(_identical_runs, on_reading=_identical_runs_reading),
    "tiles_only": Primitive(_tiles_only, on_hand=_tiles_only_hand),
    "triplet_of": Primitive(_triplet_of, on_reading=_triplet_of_reading),
    "three_suits": Primitive(_three_suits, on_reading=_three_suits_reading),
    "straight": Primitive(_straight, on_reading=_straight_reading),
    "every_part": Primitive(_every_part, _every_part_hand, _every_part_reading),
    "concealed_triplets": Primitive(_concealed_triplets, on_reading=_concealed_triplets_reading),
    "triplets": Primitive(_triplets, on_reading=_triplets_reading),
    "kans": Primitive(_kans, on_reading=_kans_reading),
    "consecutive_triplets": Primitive(_consecutive_triplets, on_reading=_consecutive_triplets_reading),
    "honour_set": Primitive(_honour_set, on_reading=_honour_set_reading),
    "one_suit": Primitive(_one_suit, on_hand=_one_suit_hand),
    "shape": Primitive(_shape, on_reading=_shape_reading),
    "nine_gates": Primitive(_nine_gates, _nine_gates_hand, _nine_gates_reading),
    "wait": Primitive(_wait, on_reading=_wait_reading),
    "dealer_streak": Primitive(_dealer_streak, on_hand=_dealer_streak_hand),
}


@dataclass(frozen=True)
class CompiledYaku:
    """A yaku with its primitives looked up and their parameters resolved once."""

    yaku: Yaku
    order: int  # its place in the ruleset's list: yaku are listed in that order
    checks: tuple[tuple[str, Primitive, object], ...]  # (name, primitive, resolved parameter)
    excludes: frozenset[str]
    pinfu: bool  # the pattern is 平和 (its fu are the pinfu fu)
    limit_hand: bool  # a yakuman or a fixed limit (人和): not summed with ordinary yaku
    listed_closed: YakuHan
    listed_open: YakuHan

    tests: tuple[tuple[tuple[str, Test, object], ...], ...]  # need mask -> the tests of the checks it names

    hand_checks: tuple[
        tuple[int, HandDecider, object], ...
    ]  # (bit, decider, parameter) of each check the hand's key has a say in
    reading_checks: tuple[tuple[int, ReadingDecider, object], ...]  # the same for the reading's key

    def on_hand(self, facts: HandKeyFacts) -> int | None:
        """The checks the hand's key leaves to be tested (a bit mask: bit i for check i), or None
        when it rules the yaku out."""
        return _verdicts(self.hand_checks, facts)

    def on_reading(self, facts: ReadingKeyFacts) -> int | None:
        """The same for the reading's key."""
        return _verdicts(self.reading_checks, facts)

    def matches(self, reading: Reading) -> bool:
        """Every primitive's test, keys or not (the reference the decided path is tested against)."""
        return all(primitive.test(reading, param) for _, primitive, param in self.checks)


def _verdicts(checks: tuple, facts) -> int | None:
    need = 0
    for bit, decide, param in checks:
        verdict = decide(facts, param)
        if verdict is False:
            return None
        if verdict is None:
            need |= bit
    return need


def _in_order(c: CompiledYaku) -> int:
    return c.order


class _Candidates(NamedTuple):
    """The yaku worth trying on readings with one pair of keys: in the ruleset's order, each with
    the tests left; and those whose only test left is a triplet of one tile (役牌), by that tile
    (or by ``seat-wind``/``round-wind``, resolved at the win)."""

    ordered: tuple[tuple[CompiledYaku, tuple], ...]
    by_triplet: Mapping[int, tuple[CompiledYaku, ...]]
    by_named: tuple[tuple[str, tuple[CompiledYaku, ...]], ...]


class _Side(NamedTuple):
    """What one key leaves open: the yaku not ruled out (a bit mask by their order) and, by
    order, the mask of each one's checks still to be tested; with a number naming that answer."""

    id: int
    alive: int
    needs: tuple[int, ...]


class YakuFinder(ScorerTables):
    """The Scorer's yaku (a part of :class:`~solver.games.mahjong.scoring.Scorer`: the compiled
    yaku and the caches it reads are built by ``Scorer.__init__``)."""

    closed_yaku: tuple[CompiledYaku, ...]
    open_yaku: tuple[CompiledYaku, ...]

    def _compile(self, order: int, y: Yaku) -> CompiledYaku:
        checks = []
        for name, param in y.pattern.items():
            if name == "triplet_of" and param not in ("seat-wind", "round-wind"):
                param = self._identity_index(param)
            elif name == "honour_set":
                group = frozenset(self.group(param["tiles"]))
                param = (
                    group,
                    param["triplets"],
                    bool(param.get("pair")),
                    all(self.tile_classes["honours"][i] for i in group),
                )
            checks.append((name, PRIMITIVES[name], param))
        listed_closed, listed_open = (YakuHan(y.id, y.name, han) for han in (y.han, y.open_han or 0))
        tests = tuple(
            tuple(
                (name, primitive.test, param) for bit, (name, primitive, param) in enumerate(checks) if need >> bit & 1
            )
            for need in range(1 << len(checks))
        )
        hand_checks = tuple(
            (1 << bit, primitive.on_hand, param)
            for bit, (_, primitive, param) in enumerate(checks)
            if primitive.on_hand is not None
        )
        reading_checks = tuple(
            (1 << bit, primitive.on_reading, param)
            for bit, (_, primitive, param) in enumerate(checks)
            if primitive.on_reading is not None
        )
        return CompiledYaku(
            y,
            order,
            tuple(checks),
            frozenset(y.excludes),
            "pinfu" in y.pattern,
            bool(y.yakuman or y.fixed),
            listed_closed,
            listed_open,
            tests,
            hand_checks,
            reading_checks,
        )

    # -- yaku, fu, points -------------------------------------------------------------------

    def _open_ok(self, y: Yaku) -> bool:
        return all(self.option_values.get(k) == v for k, v in y.open_if.items())

    def yaku_of(self, r: Reading) -> list[CompiledYaku]:
        """The yaku a reading has, in the ruleset's order, less those a higher one replaces."""
        known = self._hand_sides.get(r.hand.key)
        if known is None:
            known = remember(self._hand_sides, r.hand.key, self._hand_side(r.hand.key))
        hand, winds = known
        reading = self._reading_sides.get(r.key)
        if reading is None:
            reading = remember(self._reading_sides, r.key, self._reading_side(r.key))
        pair = (hand.id, reading.id)
        candidates = self._candidates.get(pair)
        if candidates is None:
            candidates = remember(self._candidates, pair, self._candidates_for(hand, reading))
        found = []
        for c, tests in candidates.ordered:
            for _, test, param in tests:
                if not test(r, param):
                    break
            else:
                found.append(c)
        if candidates.by_triplet or candidates.by_named:
            hits: list = []
            by_triplet = candidates.by_triplet
            for p in r.triplets:
                if p.tiles[0] in by_triplet:
                    hits += by_triplet[p.tiles[0]]
            for name, named in candidates.by_named:
                tile = winds[name]
                for p in r.triplets:
                    if p.tiles[0] == tile:
                        hits += named
                        break
            if hits:
                found = sorted(found + hits, key=_in_order)
        excluded: set = set()
        for c in found:
            if c.excludes:
                excluded |= c.excludes
        if excluded:
            return [c for c in found if c.yaku.id not in excluded]
        return found

    def _hand_side(self, hand_key: tuple) -> tuple[_Side, Mapping[str, int]]:
        """What a hand's key leaves open (its seat and round winds aside: the candidates looked up
        by a triplet of the seat's or the round's wind are shared by every seat), with those
        winds' tiles."""
        hand = HandKey._make(hand_key)
        winds = {
            "seat-wind": self.winds[SEATS.index(hand.seat)],
            "round-wind": self.winds[SEATS.index(hand.round_wind)],
        }
        facts = HandKeyFacts(
            hand.closed, hand.flags, self._class_sets[hand.classes], hand.suits, hand.honours, hand.streak
        )
        found = self._hand_facts_sides.get(facts)
        if found is None:
            found = remember(
                self._hand_facts_sides,
                facts,
                self._side([(c, c.on_hand(facts)) for c in (self.closed_yaku if hand.closed else self.open_yaku)]),
            )
        return found, winds

    def _reading_side(self, reading_key: tuple) -> _Side:
        """What a reading's key leaves open."""
        reading = ReadingKey._make(reading_key)
        facts = ReadingKeyFacts(
            reading.shape,
            reading.runs,
            reading.triplets,
            reading.kans,
            reading.concealed,
            reading.honour_triplets,
            self._class_sets[reading.part_classes],
            reading.wait,
        )
        return self._side([(c, c.on_reading(facts)) for c in self.closed_yaku])

    def _side(self, needs: list[tuple[CompiledYaku, int | None]]) -> _Side:
        """A key's verdicts as a _Side; equal answers get the same number, and so share their
        candidates (numbers are never reused, so a cache emptied when full stays right)."""
        alive, by_order = 0, [0] * len(self.closed_yaku)
        for c, need in needs:
            if need is not None:
                alive |= 1 << c.order
                by_order[c.order] = need
        content = (alive, tuple(by_order))
        number = self._side_ids.get(content)
        if number is None:
            number = remember(self._side_ids, content, next(self._side_numbers))
        return _Side(number, *content)

    def _candidates_for(self, hand: _Side, reading: _Side) -> _Candidates:
        """The yaku both keys leave open, each with the tests they did not settle."""
        ordered: list[tuple[CompiledYaku, tuple]] = []
        by_triplet: dict[int, tuple[CompiledYaku, ...]] = {}
        by_named: dict[str, tuple[CompiledYaku, ...]] = {}
        alive, yaku = hand.alive & reading.alive, self.closed_yaku
        while alive:
            low = alive & -alive
            alive ^= low
            order = low.bit_length() - 1
            c = yaku[order]
            tests = c.tests[hand.needs[order] | reading.needs[order]]
            if len(tests) == 1 and tests[0][0] == "triplet_of":
                tile = tests[0][2]
                if isinstance(tile, str):
                    by_named[tile] = by_named.get(tile, ()) + (c,)
                else:
                    assert isinstance(tile, int), "a resolved triplet_of names an identity index"
                    by_triplet[tile] = by_triplet.get(tile, ()) + (c,)
            else:
                ordered.append((c, tests))
        return _Candidates(tuple(ordered), by_triplet, tuple(by_named.items()))
