"""Yaku: hand-pattern primitives, each a test of one reading and a decider on the keys alone, and
the ruleset's yaku compiled from them (its pattern names the primitives and their parameters)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Callable, Mapping, NamedTuple

from solver.games.mahjong.readings import HandKey, Reading, ReadingKey
from solver.games.mahjong.rules import Yaku
from solver.games.mahjong.win import SEATS, remember


class YakuHan(NamedTuple):  # a NamedTuple: listed for every reading scored, so cheaply
    id: str
    name: str
    han: int
    yakuman: int = 0


# -- hand-pattern primitives -------------------------------------------------------------------------
#
# A primitive is two small functions. Its *test* looks at one reading. Its *decider* looks only at
# the hand's and the reading's keys (a KeyFacts) and answers True or False when they settle the
# test, None when the reading must be tested. The deciders run once per pair of keys; the tests run
# only where a decider said None, so that most yaku cost nothing on most readings.

Test = Callable[[Reading, object], bool]


class KeyFacts(NamedTuple):
    """A HandKey and a ReadingKey together, their class masks as class names."""

    closed: bool
    flags: frozenset
    classes: frozenset
    suits: int
    honours: bool
    streak: int
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


def _flag_key(k: KeyFacts, name) -> bool:
    return _flags_hold(k.flags, name)


def _flags_hold(flags: frozenset, name) -> bool:
    """A flag of the win, or a list of flags that must all hold (海底撈月: [haitei, tsumo])."""
    return name in flags if isinstance(name, str) else all(n in flags for n in name)


def _pinfu(r: Reading, _) -> bool:
    return (r.shape == "standard" and len(r.runs) == 4 and r.wait == "ryanmen"
            and r.pair is not None and not r.scorer.pair_fu(r.win)[r.pair.tiles[0]][0])


def _pinfu_key(k: KeyFacts, _) -> bool | None:
    return None if k.shape == "standard" and k.runs == 4 and k.wait == "ryanmen" else False


def _identical_runs(r: Reading, n) -> bool:
    counts = Counter(p.tiles for p in r.runs)
    return sum(c // 2 for c in counts.values()) >= n


def _identical_runs_key(k: KeyFacts, n) -> bool | None:
    return None if k.runs >= 2 * n else False


def _tiles_only(r: Reading, what) -> bool:
    return all(r.scorer.tile_classes[what][i] for i, n in enumerate(r.hand.tiles) if n)


def _tiles_only_key(k: KeyFacts, what) -> bool:
    return what in k.classes


def _triplet_of(r: Reading, target) -> bool:
    if isinstance(target, str):  # seat-wind, round-wind: known at the win
        target = r.scorer.named_tile(target, r.win)
    return any(p.tiles[0] == target for p in r.triplets)


def _triplet_of_key(k: KeyFacts, target) -> bool | None:
    return None if k.triplets else False


def _three_suits(r: Reading, what) -> bool:
    parts = r.runs if what == "run" else r.triplets
    by_rank: dict = {}
    for p in parts:
        suit, rank = r.scorer.suit_rank[p.tiles[0]]
        if suit is not None:
            by_rank.setdefault(rank, set()).add(suit)
    return any(len(s) >= 3 for s in by_rank.values())


def _three_suits_key(k: KeyFacts, what) -> bool | None:
    return None if (k.runs if what == "run" else k.triplets) >= 3 else False


def _straight(r: Reading, _) -> bool:
    starts: dict = {}
    for p in r.runs:
        suit, rank = r.scorer.suit_rank[p.tiles[0]]
        starts.setdefault(suit, set()).add(rank)
    return any({0, 3, 6} <= s for s in starts.values())


def _straight_key(k: KeyFacts, _) -> bool | None:
    return None if k.runs >= 3 else False


def _every_part(r: Reading, what) -> bool:
    if r.shape != "standard" or not r.runs or (what == "terminal" and r.hand.honours):
        return False
    test = r.scorer.tile_classes["terminals" if what == "terminal" else "yaochu"]
    return all(any(test[i] for i in p.tiles) for p in r.parts)


def _every_part_key(k: KeyFacts, what) -> bool:
    if k.shape != "standard" or not k.runs or (what == "terminal" and k.honours):
        return False
    return ("terminals" if what == "terminal" else "yaochu") in k.part_classes


def _concealed_triplets(r: Reading, n) -> bool:
    return sum(1 for p in r.triplets if r.concealed_triplet(p)) >= n


def _concealed_triplets_key(k: KeyFacts, n) -> bool:
    return k.concealed >= n


def _triplets(r: Reading, n) -> bool:
    return len(r.triplets) >= n


def _triplets_key(k: KeyFacts, n) -> bool:
    return k.triplets >= n


def _kans(r: Reading, n) -> bool:
    return sum(p.kind == "kan" for p in r.parts) >= n


def _kans_key(k: KeyFacts, n) -> bool:
    return k.kans >= n


def _consecutive_triplets(r: Reading, n) -> bool:
    by_suit: dict = {}
    for p in r.triplets:
        suit, rank = r.scorer.suit_rank[p.tiles[0]]
        if suit is not None:
            by_suit.setdefault(suit, set()).add(rank)
    return any(any(all(s + k in ranks for k in range(n)) for s in ranks) for ranks in by_suit.values())


def _consecutive_triplets_key(k: KeyFacts, n) -> bool | None:
    return None if k.triplets - k.honour_triplets >= n else False


def _honour_set(r: Reading, spec) -> bool:
    group, count, pair, _ = spec
    if sum(p.tiles[0] in group for p in r.triplets) != count:
        return False
    return not pair or (r.pair is not None and r.pair.tiles[0] in group)


def _honour_set_key(k: KeyFacts, spec) -> bool | None:
    _, count, _, honours_only = spec
    return False if honours_only and k.honour_triplets < count else None


def _one_suit(r: Reading, what) -> bool:
    return len(r.hand.suits) == 1 and r.hand.honours == (what == "with-honours")


def _one_suit_key(k: KeyFacts, what) -> bool:
    return k.suits == 1 and k.honours == (what == "with-honours")


def _shape(r: Reading, shape) -> bool:
    return r.shape == shape


def _shape_key(k: KeyFacts, shape) -> bool:
    return k.shape == shape


def _nine_gates(r: Reading, _) -> bool:
    if not r.closed or r.hand.declared or r.shape != "standard" or len(r.hand.suits) != 1 or r.hand.honours:
        return False
    (suit,) = r.hand.suits
    ranks = r.scorer.suit_members[suit]
    base = [3] + [1] * (len(ranks) - 2) + [3]
    return all(r.hand.tiles[i] >= b for i, b in zip(ranks, base))


def _nine_gates_key(k: KeyFacts, _) -> bool | None:
    return None if k.closed and k.shape == "standard" and k.suits == 1 and not k.honours else False


def _wait(r: Reading, what) -> bool:
    if what == "tanki":
        return r.wait == "tanki"
    if what == "thirteen":
        return r.wait == "kokushi-13"
    if what == "nine":  # the 13 tiles before the win were exactly 1112345678999 of one suit
        sc, before = r.scorer, r.hand.before
        ranks = sc.suit_members.get(sc.suit_rank[sc.index(r.win.tile)][0], [])
        base = [3] + [1] * (len(ranks) - 2) + [3]
        return bool(ranks) and sum(before) == sum(base) and all(before[i] == b for i, b in zip(ranks, base))
    return False


def _wait_key(k: KeyFacts, what) -> bool | None:
    if what == "tanki":
        return k.wait == "tanki"
    if what == "thirteen":
        return k.wait == "kokushi-13"
    return None if what == "nine" else False


def _dealer_streak(r: Reading, n) -> bool:
    return r.win.dealer and r.win.dealer_streak >= n


def _dealer_streak_key(k: KeyFacts, n) -> bool:
    return k.streak >= n


class Primitive(NamedTuple):
    test: Test
    decide: Callable[[KeyFacts, object], bool | None]


PRIMITIVES: dict[str, Primitive] = {
    "flag": Primitive(_flag, _flag_key), "pinfu": Primitive(_pinfu, _pinfu_key),
    "identical_runs": Primitive(_identical_runs, _identical_runs_key),
    "tiles_only": Primitive(_tiles_only, _tiles_only_key),
    "triplet_of": Primitive(_triplet_of, _triplet_of_key),
    "three_suits": Primitive(_three_suits, _three_suits_key), "straight": Primitive(_straight, _straight_key),
    "every_part": Primitive(_every_part, _every_part_key),
    "concealed_triplets": Primitive(_concealed_triplets, _concealed_triplets_key),
    "triplets": Primitive(_triplets, _triplets_key), "kans": Primitive(_kans, _kans_key),
    "consecutive_triplets": Primitive(_consecutive_triplets, _consecutive_triplets_key),
    "honour_set": Primitive(_honour_set, _honour_set_key), "one_suit": Primitive(_one_suit, _one_suit_key),
    "shape": Primitive(_shape, _shape_key), "nine_gates": Primitive(_nine_gates, _nine_gates_key),
    "wait": Primitive(_wait, _wait_key), "dealer_streak": Primitive(_dealer_streak, _dealer_streak_key),
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

    def tests_left(self, facts: KeyFacts) -> tuple[tuple[str, Test, object], ...] | None:
        """The tests a reading with these keys must still pass (none: the yaku is sure), or
        None when the keys rule the yaku out."""
        left = []
        for name, primitive, param in self.checks:
            verdict = primitive.decide(facts, param)
            if verdict is False:
                return None
            if verdict is None:
                left.append((name, primitive.test, param))
        return tuple(left)

    def matches(self, reading: Reading) -> bool:
        """Every primitive's test, keys or not (the reference the decided path is tested against)."""
        return all(primitive.test(reading, param) for _, primitive, param in self.checks)


def _in_order(c: CompiledYaku) -> int:
    return c.order


class _Candidates(NamedTuple):
    """The yaku worth trying on readings with one pair of keys: in the ruleset's order, each with
    the tests left; and those whose only test left is a triplet of one tile (役牌), by that tile."""

    ordered: tuple[tuple[CompiledYaku, tuple], ...]
    by_triplet: Mapping[int, tuple[CompiledYaku, ...]]


class YakuFinder:
    """The Scorer's yaku (a part of :class:`~solver.games.mahjong.scoring.Scorer`: the compiled
    yaku and the caches it reads are built by ``Scorer.__init__``)."""

    def _compile(self, order: int, y: Yaku) -> CompiledYaku:
        checks = []
        for name, param in y.pattern.items():
            if name == "triplet_of" and param not in ("seat-wind", "round-wind"):
                param = self._identity_index(param)
            elif name == "honour_set":
                group = frozenset(self.group(param["tiles"]))
                param = (group, param["triplets"], bool(param.get("pair")),
                         all(self.tile_classes["honours"][i] for i in group))
            checks.append((name, PRIMITIVES[name], param))
        listed = [YakuHan(y.id, y.name, han) for han in (y.han, y.open_han or 0)]
        return CompiledYaku(y, order, tuple(checks), frozenset(y.excludes), "pinfu" in y.pattern,
                            bool(y.yakuman or y.fixed), *listed)

    # -- yaku, fu, points -------------------------------------------------------------------

    def _open_ok(self, y: Yaku) -> bool:
        return all(self.option_values.get(k) == v for k, v in y.open_if.items())

    def yaku_of(self, r: Reading) -> list[CompiledYaku]:
        """The yaku a reading has, in the ruleset's order, less those a higher one replaces."""
        by_hand = self._candidates.get(r.hand.key)
        if by_hand is None:
            by_hand = remember(self._candidates, r.hand.key, {})
        candidates = by_hand.get(r.key)
        if candidates is None:
            candidates = remember(by_hand, r.key, self._candidates_for(r.hand.key, r.key))
        found = []
        for c, tests in candidates.ordered:
            for _, test, param in tests:
                if not test(r, param):
                    break
            else:
                found.append(c)
        if candidates.by_triplet:
            hits = [c for p in r.triplets for c in candidates.by_triplet.get(p.tiles[0], ())]
            if hits:
                found = sorted(found + hits, key=_in_order)
        for c in found:
            if c.excludes:
                excluded = {e for c in found for e in c.excludes}
                return [c for c in found if c.yaku.id not in excluded]
        return found

    def _candidates_for(self, hand_key: tuple, reading_key: tuple) -> _Candidates:
        """The yaku the keys leave open, each with the tests the keys did not settle."""
        hand, reading = HandKey._make(hand_key), ReadingKey._make(reading_key)
        names = self._class_sets
        facts = KeyFacts(hand.closed, hand.flags, names[hand.classes], hand.suits, hand.honours, hand.streak,
                         reading.shape, reading.runs, reading.triplets, reading.kans, reading.concealed,
                         reading.honour_triplets, names[reading.part_classes], reading.wait)
        named = {"seat-wind": self.winds[SEATS.index(hand.seat)],
                 "round-wind": self.winds[SEATS.index(hand.round_wind)]}
        ordered, by_triplet = [], {}
        for c in (self.closed_yaku if hand.closed else self.open_yaku):
            tests = c.tests_left(facts)
            if tests is None:
                continue
            if len(tests) == 1 and tests[0][0] == "triplet_of":
                tile = named.get(tests[0][2], tests[0][2])
                by_triplet[tile] = by_triplet.get(tile, ()) + (c,)
            else:
                ordered.append((c, tests))
        return _Candidates(tuple(ordered), by_triplet)
