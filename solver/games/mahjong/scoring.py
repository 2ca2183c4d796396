"""Riichi scoring from a ruleset's ``mahjong_scoring`` section: yaku, fu, points, payments.

The ruleset names its yaku and gives each a *pattern*: one hand-pattern primitive with its
parameters (``{concealed_triplets: 4, wait: tanki}``), its han closed and open, the lower yaku it
replaces. This module holds only the primitives and the arithmetic; every number — han, fu,
limits, honba, sticks, the 青天井 cap — comes from the ruleset.

A win is scored over every reading: each decomposition of the 14 tiles and each part the winning
tile may have completed (the wait). The reading worth most is the score.

Speed comes from what recurs between hands, worked out once: each suit's tiles (their ways to
split into parts, the classes they share), the yaku a pair of small keys — the hand's flags, tile
classes, suits and winds; the reading's shape, part counts and wait — leave open, and the
payments of a basic value. Each primitive has a key-level *decider* beside its test, and a yaku
is tested on a reading only for what its deciders could not settle.

>>> from solver.core.ruleset import load_ruleset
>>> scorer = Scorer.for_ruleset(load_ruleset("gensou-mahjong"))
>>> hand = scorer.mj.parse_hand("234m 567p 345678s 22p")
>>> s = scorer.score(hand, Win(scorer.tile("8s"), tsumo=True, riichi=True, seat="S"))
>>> [y.name for y in s.yaku], s.han, s.fu, s.points.total
(['立直', '門前清模和', '平和', '断ヤオ九'], 4, 20, 5200)
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from itertools import product
from typing import Callable, Mapping, NamedTuple, Sequence

from solver.core.errors import MeldsError
from solver.games.mahjong.hands import Hand, Mahjong, pack_parts
from solver.core.ruleset import Ruleset
from solver.games.mahjong.rules import Yaku

SEATS = ("E", "S", "W", "N")
# the facts of a win that are flags (pattern `flag:` names spell them with '-')
WIN_FLAGS = ("tsumo", "riichi", "double_riichi", "ippatsu", "haitei", "houtei", "rinshan", "chankan",
             "tenhou", "chiihou", "renhou")
SEAT_NAMES = {"E": "東家", "S": "南家", "W": "西家", "N": "北家"}


class NotAWin(MeldsError):
    """The tiles do not win, or win with no yaku (役が不足しています)."""

    code = "not-a-win"


@dataclass(frozen=True)
class Win:
    """The facts of a win that the tiles do not show."""

    tile: tuple  # the identity of the winning tile
    tsumo: bool = False
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    haitei: bool = False
    houtei: bool = False
    rinshan: bool = False
    chankan: bool = False
    tenhou: bool = False
    chiihou: bool = False
    renhou: bool = False
    seat: str = "E"  # the winner's seat wind: E S W N
    round_wind: str = "E"
    dora_indicators: tuple = ()  # identities
    ura_indicators: tuple = ()
    honba: int = 0
    riichi_sticks: int = 0
    dealer_streak: int = 0  # the dealer's consecutive wins, this one included
    players: int = 4
    discarder: str | None = None  # the seat that dealt in (ron)

    @cached_property
    def flags(self) -> frozenset[str]:
        return frozenset(n.replace("_", "-") for n in WIN_FLAGS if getattr(self, n))

    @property
    def dealer(self) -> bool:
        return self.seat == "E"


class ScoredPart(NamedTuple):  # a NamedTuple: made for every part of every reading, so cheaply
    kind: str  # run | triplet | kan | pair | single (kokushi)
    tiles: tuple[int, ...]  # identity indices
    open: bool
    declared: str | None  # the declared meld id, or None for concealed tiles


class YakuHan(NamedTuple):  # a NamedTuple: listed for every reading scored, so cheaply
    id: str
    name: str
    han: int
    yakuman: int = 0


@dataclass(frozen=True)
class Points:
    total: int  # what the payers pay for the hand itself
    payments: dict  # payer seat (or "discarder") -> points for the hand
    honba: dict  # payer seat -> honba points
    riichi_sticks: int  # points from the sticks on the table
    basic: int
    limit: str | None  # 満貫 … 役満, or None

    @property
    def received(self) -> int:
        return self.total + sum(self.honba.values()) + self.riichi_sticks


@dataclass(frozen=True)
class Score:
    yaku: tuple[YakuHan, ...]
    han: int  # yaku + dora (yakuman: 13 per yakuman in 青天井; else the yakuman count is in yakuman)
    fu: int
    dora: int
    yakuman: int
    points: Points
    shape: str
    parts: tuple[ScoredPart, ...]
    wait: str
    aotenjou: bool
    explain: tuple = field(default=(), repr=False, compare=False)  # (scorer, reading, pinfu) for fu_details

    @cached_property
    def fu_details(self) -> tuple[tuple[str, int], ...]:
        """The items the fu are made of, worked out when asked (most scores are never explained)."""
        scorer, reading, pinfu = self.explain
        return tuple(scorer.fu_of(reading, pinfu, explain=True)[1])


# -- the view of one reading that the primitives look at -------------------------------------------

class Reading:
    """One way to read a win: a decomposition and the part the winning tile completed, with
    the facts of the whole hand the primitives share (plain slots: one per reading, many per
    second)."""

    __slots__ = ("shape", "parts", "runs", "triplets", "pair", "wait", "win_part", "hand", "key", "closed",
                 "scorer", "win")

    def __init__(self, shape: str, parts: tuple, runs: tuple, triplets: tuple, pair: ScoredPart | None,
                 wait: str, win_part: int | None, hand: "_HandFacts", key: tuple):
        self.shape, self.parts, self.runs, self.triplets, self.pair = shape, parts, runs, triplets, pair
        self.wait = wait  # ryanmen kanchan penchan shanpon tanki kokushi kokushi-13
        self.win_part = win_part  # the index in parts of the part the winning tile completed
        self.hand, self.key = hand, key  # key: ReadingKey's fields
        self.closed, self.scorer, self.win = hand.closed, hand.scorer, hand.win

    def concealed_triplet(self, p: ScoredPart) -> bool:
        """Is a triplet (or kan) of this reading concealed? One completed by a ron counts as open
        (明刻); no two triplets of a hand are alike, so the part itself tells which one."""
        return not p.open and (self.win.tsumo or p != self.parts[self.win_part])


class _HandFacts(NamedTuple):
    """What every reading of one hand shares."""

    scorer: "Scorer"
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


def _joined(ways: tuple[_Way, ...]) -> tuple:
    """One way per suit joined: parts, runs, triplets, pair, honour triplets, part classes, kans."""
    if len(ways) == 4:  # the usual four suits, added without a loop
        a, b, c, d = ways
        return (a.parts + b.parts + c.parts + d.parts, a.runs + b.runs + c.runs + d.runs,
                a.triplets + b.triplets + c.triplets + d.triplets, a.pair or b.pair or c.pair or d.pair,
                a.honour_triplets + b.honour_triplets + c.honour_triplets + d.honour_triplets,
                a.part_classes & b.part_classes & c.part_classes & d.part_classes, a.kans + b.kans + c.kans + d.kans)
    classes = -1
    for way in ways:
        classes &= way.part_classes
    return (sum((x.parts for x in ways), ()), sum((x.runs for x in ways), ()), sum((x.triplets for x in ways), ()),
            next((x.pair for x in ways if x.pair), None), sum(x.honour_triplets for x in ways), classes,
            sum(x.kans for x in ways))


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


_NO_DECLARED = _Declared(tiles=(), reds=0, parts=(), runs=(), triplets=(), honour_triplets=0, part_classes=-1, kans=0,
                         concealed=0, every=-1, some=0, suits=0, closed=True)


class _Suit(NamedTuple):
    """One suit's concealed tiles: the classes they share and have, and their ways per shape."""

    every: int  # class bits every tile has (all bits when the suit is empty)
    some: int  # class bits some tile has
    number_suit: int  # the number suit's bit, when the hand holds one of its tiles (else 0)
    ways: tuple[tuple[_Way, ...], ...]  # per hand shape, in the ruleset's order


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
    return name in r.win.flags


def _flag_key(k: KeyFacts, name) -> bool:
    return name in k.flags


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


class _FuTable(NamedTuple):
    """The ruleset's fu values, read once."""

    base: int
    closed_ron: int
    tsumo: int
    wait: int  # kanchan, penchan, tanki
    round_to: int
    open_pinfu: int | None  # an open hand with no fu but the base (食い平和形); None: no such rule
    chiitoitsu: int
    yaochu_triplet: int
    simple_triplet: int
    closed_factor: int
    kan_factor: int


# -- the scorer --------------------------------------------------------------------------------------

class Scorer:
    """Scores winning hands of one ruleset (built once; each hand only reads its tables)."""

    def __init__(self, mj: Mahjong):
        ms = mj.rs.mahjong_scoring
        if ms is None:
            raise MeldsError(f"{mj.rs.id} has no mahjong_scoring section")
        self.mj, self.rs, self.ms = mj, mj.rs, ms
        for y in ms.yaku:
            for name in y.pattern:
                if name not in PRIMITIVES:
                    raise MeldsError(f"{mj.rs.path}: yaku {y.id}: unknown pattern {name!r} "
                                     f"(known: {', '.join(PRIMITIVES)})")
        ids = mj.identities
        run_kind = next((k for k in mj.rs.kinds if k.shape == "sequence"), None)
        number_suits = set(run_kind.suits) if run_kind else set()
        order = list(run_kind.order.ranks) if run_kind else []
        self.suit_rank = [(s, order.index(r)) if s in number_suits else (None, None) for s, r in ids]
        self.suit_members = {s: [i for i, (t, _) in enumerate(ids) if t == s] for s in number_suits}
        honours = [s not in number_suits for s, _ in ids]
        terminals = [s in number_suits and r in (order[0], order[-1]) for s, r in ids]
        green = {self._identity_index(t) for t in ms.green}
        self.tile_classes = {
            "honours": honours, "terminals": terminals,
            "yaochu": [h or t for h, t in zip(honours, terminals)],
            "simples": [not (h or t) for h, t in zip(honours, terminals)],
            "green": [i in green for i in range(len(ids))],
        }
        self.winds = [self._identity_index(w) for w in ms.winds]
        self.dragons = {self._identity_index(d) for d in ms.dragons}
        self.dora_next = self._dora_cycle()
        self.kind_shape = {k.id: self._part_kind(k) for k in mj.rs.kinds}
        self.option_values = mj.rs.option_values
        compiled = [self._compile(k, y) for k, y in enumerate(ms.yaku)]
        self.closed_yaku = tuple(compiled)
        # 門前役 never count with open melds, nor an open han the options switch off (食いタン)
        self.open_yaku = tuple(c for c in compiled if c.yaku.open_han is not None and self._open_ok(c.yaku))
        self._candidates: dict = {}
        self._dora_targets: dict = {}
        self._suits: list[dict] = [{} for _ in mj.suits]  # per suit: its counts -> _Suit
        self._shapes_by_declared: dict = {}
        self._declared_cache: dict = {}
        # shapes of single tiles (国士無双): their wait (13-sided or not) depends on the whole hand
        self._hand_waits = {shape.id for shape in mj.rs.hand_shapes
                            if any(self.kind_shape[k] == "single" for p in shape.parts for k in p.kinds)}
        self._pair_fu_cache: dict = {}
        fu, triplet = ms.fu, ms.fu["triplet"]
        self._fu = _FuTable(fu["base"], fu.get("closed_ron", 10), fu.get("tsumo", 2), fu.get("wait", 2),
                            fu.get("round_to", 10), fu.get("open_pinfu"), fu.get("chiitoitsu", 25),
                            triplet["yaochu"], triplet["simple"], triplet["closed"], triplet["kan"])
        self._yaochu = self.tile_classes["yaochu"]
        self._payments: dict = {}
        reds = {f.index for f in mj.reds}
        self._is_red = [int(f.index in reds) for f in mj.rs.deck.faces]
        self._suit_position = [next(k for k, (a, b) in enumerate(mj.suit_slices) if a <= i < b)
                               for i in range(len(ids))]
        self._suit_bit = {suit: 1 << k for k, suit in enumerate(sorted(number_suits))}
        self._suit_sets = [frozenset(suit for suit, bit in self._suit_bit.items() if mask & bit)
                           for mask in range(1 << len(number_suits))]
        names = list(self.tile_classes)
        self._class_mask = [sum(1 << b for b, n in enumerate(names) if self.tile_classes[n][i])
                            for i in range(len(ids))]
        self._all_classes = (1 << len(names)) - 1
        self._honour_bit = 1 << names.index("honours")
        self._suit_of = [suit for suit, _ in self.suit_rank]
        self._class_sets = [frozenset(n for b, n in enumerate(names) if m >> b & 1)
                            for m in range(1 << len(names))]

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

    @classmethod
    def for_ruleset(cls, ruleset: Ruleset) -> "Scorer":
        return cls(Mahjong(ruleset))

    # -- tiles ------------------------------------------------------------------------------

    def _identity_index(self, text: str) -> int:
        faces = self.mj.parse_tiles(text)
        if len(faces) != 1:
            raise MeldsError(f"{self.rs.path}: {text!r} is not one tile")
        return self.mj.index[self.mj.identity(faces[0])]

    def tile(self, text: str) -> tuple:
        """One tile's identity from its notation (``"5p"``, ``"東"``)."""
        faces = self.mj.parse_tiles(text)
        if len(faces) != 1:
            raise MeldsError(f"{text!r} is not one tile")
        return self.mj.identity(faces[0])

    def index(self, ident: tuple) -> int:
        return self.mj.index[ident]

    def _dora_cycle(self) -> list[int]:
        """identity index -> the dora its indicator points at: the next rank of the suit the
        deck holds (三人麻雀: 1m → 9m), honours along the ruleset's cycles."""
        nxt = list(range(len(self.mj.identities)))
        for members in self.suit_members.values():
            for k, i in enumerate(members):
                nxt[i] = members[(k + 1) % len(members)]
        for cycle in self.ms.honour_cycles:
            idx = [self._identity_index(t) for t in cycle]
            for k, i in enumerate(idx):
                nxt[i] = idx[(k + 1) % len(idx)]
        return nxt

    @staticmethod
    def _part_kind(kind) -> str:
        if kind.shape == "sequence":
            return "run"
        return {1: "single", 2: "pair", 3: "triplet", 4: "kan"}[kind.size_min]

    def group(self, spec) -> set[int]:
        if spec == "winds":
            return set(self.winds)
        if spec == "dragons":
            return set(self.dragons)
        return {self._identity_index(t) for t in spec}

    def named_tile(self, name: str, win: Win) -> int | None:
        if name == "seat-wind":
            return self.winds[SEATS.index(win.seat)]
        if name == "round-wind":
            return self.winds[SEATS.index(win.round_wind)]
        return self._identity_index(name)

    def value_pair_fu(self, tile: int, win: Win) -> tuple[int, str]:
        fu = self.ms.fu
        seat = self.winds[SEATS.index(win.seat)]
        round_ = self.winds[SEATS.index(win.round_wind)]
        if tile in self.dragons:
            return fu.get("value_pair", 2), "value pair (dragon)"
        if tile == seat == round_:
            return fu.get("double_wind_pair", 4), "double wind pair (連風牌)"
        if tile in (seat, round_):
            return fu.get("value_pair", 2), "value pair (wind)"
        return 0, ""

    # -- readings ---------------------------------------------------------------------------

    def readings(self, hand: Hand, win: Win) -> list[Reading]:
        """Every reading of a winning hand (none when the tiles do not win)."""
        mj = self.mj
        counts = [0] * len(mj.identities)
        by_face, is_red, reds = mj.identity_of_face, self._is_red, 0
        for f in hand.concealed:
            counts[by_face[f.index]] += 1
            reds += is_red[f.index]
        w = mj.index[win.tile]
        if not counts[w]:
            raise MeldsError(f"the winning tile {mj.tile_text(win.tile)} is not in the hand")
        before = counts.copy()
        before[w] -= 1
        suits = []
        for s, (cache, (a, b)) in enumerate(zip(self._suits, mj.suit_slices)):
            key = tuple(counts[a:b])
            found = cache.get(key)
            if found is None:
                found = _remember(cache, key, self._new_suit(s, key))
            suits.append(found)
        every, some, number_suits = self._all_classes, 0, 0
        for info in suits:
            every &= info.every
            some |= info.some
            number_suits |= info.number_suit
        tiles, declared = counts, _NO_DECLARED
        if hand.melds:
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
        hand_key = (closed, win.flags, every, len(suit_set), honours, win.seat, win.round_wind,
                    win.dealer_streak if win.dealer else -1)  # HandKey's fields
        facts = _HandFacts(self, win, tiles, before, closed, len(hand.melds), suit_set, honours, hand_key, reds)
        ron = not win.tsumo
        sw = self._suit_position[w]
        out = []
        for shape_index, shape, need in self._shape_needs(len(hand.melds)):
            ways = [info.ways[shape_index] for info in suits]
            if not all(ways):
                continue
            for combo in product(*ways):
                if sum(way.packed for way in combo) != need:
                    continue
                hidden, runs, triplets, pair, honour_triplets, part_classes, kans = _joined(combo)
                parts, concealed = hidden, len(triplets)
                if declared.parts:
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
        mj = self.mj
        start = mj.suit_slices[s][0]
        every, some = self._all_classes, 0
        for i, n in enumerate(key):
            if n:
                every &= self._class_mask[start + i]
                some |= self._class_mask[start + i]
        suit = self._suit_of[start]
        number_suit = self._suit_bit[suit] if suit is not None and any(key) else 0
        ways = []
        for shape in self.rs.hand_shapes:
            found = []
            for used, parts in mj.suit_parts(shape, s, key):
                scored = tuple(ScoredPart(self.kind_shape[kind], tiles, False, None) for kind, tiles in parts)
                wins: dict = {}
                for k, part in enumerate(scored):
                    if k and scored[k - 1] == part:
                        continue  # the same wait in an identical part is the same reading
                    for tile in sorted(set(part.tiles)):
                        wait = None if shape.id in self._hand_waits else self._wait_kind(shape.id, part, tile, None)
                        wins[tile] = wins.get(tile, ()) + ((k, wait),)
                found.append(_Way(pack_parts(used), *self._part_facts(scored), wins))
            ways.append(tuple(found))
        return _Suit(every, some, number_suit, tuple(ways))

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
        """The declared melds as parts (cached: a meld's key is its kind, openness and faces)."""
        key = tuple((m.kind, m.open) + tuple(f.index for f in m.faces) for m in melds)
        found = self._declared_cache.get(key)
        if found is None:
            found = _remember(self._declared_cache, key, self._new_declared(melds))
        return found

    def _new_declared(self, melds) -> _Declared:
        by_face, class_mask = self.mj.identity_of_face, self._class_mask
        parts, tiles, every, some = [], [], self._all_classes, 0
        for m in melds:
            idx = sorted(by_face[f.index] for f in m.faces)
            tiles += idx
            for i in idx:
                every &= class_mask[i]
                some |= class_mask[i]
            kind = self.kind_shape[m.meld_kind]
            parts.append(ScoredPart(kind, tuple(idx[:3]) if kind == "run" else (idx[0],) * (4 if kind == "kan" else 3),
                                    m.open, m.kind))
        parts, runs, triplets, _, honour_triplets, touched, kans = self._part_facts(tuple(parts))
        suits = 0
        for p in parts:
            suit = self._suit_of[p.tiles[0]]
            suits |= self._suit_bit[suit] if suit is not None else 0
        return _Declared(tuple(tiles), sum(self._is_red[f.index] for m in melds for f in m.faces), parts, runs,
                         triplets, honour_triplets, touched, kans, sum(not p.open for p in triplets), every, some,
                         suits, not any(m.open for m in melds))

    def _shape_needs(self, declared: int) -> list[tuple]:
        """(shape index, shape id, packed part counts needed) for the shapes open to ``declared``
        declared melds."""
        found = self._shapes_by_declared.get(declared)
        if found is None:
            position = {shape.id: k for k, shape in enumerate(self.rs.hand_shapes)}
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

    # -- yaku, fu, points -------------------------------------------------------------------

    def _open_ok(self, y: Yaku) -> bool:
        return all(self.option_values.get(k) == v for k, v in y.open_if.items())

    def yaku_of(self, r: Reading) -> list[CompiledYaku]:
        """The yaku a reading has, in the ruleset's order, less those a higher one replaces."""
        by_hand = self._candidates.get(r.hand.key)
        if by_hand is None:
            by_hand = _remember(self._candidates, r.hand.key, {})
        candidates = by_hand.get(r.key)
        if candidates is None:
            candidates = _remember(by_hand, r.key, self._candidates_for(r.hand.key, r.key))
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

    def fu_of(self, r: Reading, pinfu: bool, explain: bool = False) -> tuple[int, list[tuple[str, int]]]:
        """The fu of a reading, with the items that make it up when ``explain``."""
        fu = self._fu
        if r.shape == "chiitoitsu":
            return fu.chiitoitsu, [("七対子", fu.chiitoitsu)]
        tsumo = r.win.tsumo
        details = [("base", fu.base)]
        if r.shape == "kokushi":  # only 青天井 needs this (assumption aotenjou-kokushi-fu)
            extra = fu.tsumo if tsumo else fu.closed_ron
            details.append(("tsumo" if tsumo else "closed ron", extra))
            return _round_up(fu.base + extra, fu.round_to), details
        if pinfu:
            if tsumo:
                return fu.base, details
            details.append(("closed ron", fu.closed_ron))
            return fu.base + fu.closed_ron, details
        total = fu.base
        if r.closed and not tsumo:
            total += fu.closed_ron
            details.append(("closed ron", fu.closed_ron))
        if tsumo:
            total += fu.tsumo
            details.append(("tsumo", fu.tsumo))
        yaochu = self._yaochu
        for p in r.triplets:
            value = fu.yaochu_triplet if yaochu[p.tiles[0]] else fu.simple_triplet
            if r.concealed_triplet(p):
                value *= fu.closed_factor
            if p.kind == "kan":
                value *= fu.kan_factor
            total += value
            if explain:
                tile = self.mj.tile_text(self.mj.identities[p.tiles[0]])
                details.append((f"{'kan' if p.kind == 'kan' else 'triplet'} {tile}", value))
        if r.pair is not None:
            value, why = self.pair_fu(r.win)[r.pair.tiles[0]]
            if value:
                total += value
                details.append((why, value))
        if r.wait in ("kanchan", "penchan", "tanki"):
            total += fu.wait
            details.append((f"wait ({r.wait})", fu.wait))
        if not r.closed and fu.open_pinfu is not None and (
                total == fu.base or (tsumo and total == fu.base + fu.tsumo)):
            return fu.open_pinfu, [("open pinfu shape (食い平和形)", fu.open_pinfu)]
        return _round_up(total, fu.round_to), details

    def pair_fu(self, win: Win) -> list[tuple[int, str]]:
        """tile -> the fu of a pair of it, and why, for the winner's seat and the round."""
        key = (win.seat, win.round_wind)
        found = self._pair_fu_cache.get(key)
        if found is None:
            found = _remember(self._pair_fu_cache, key, [self.value_pair_fu(i, win) for i in range(len(self.mj.identities))])
        return found

    def dora_of(self, facts: _HandFacts) -> int:
        """Dora, ura dora (with riichi) and red fives held."""
        win = facts.win
        shown = win.dora_indicators + (win.ura_indicators if win.riichi or win.double_riichi else ())
        targets = self._dora_targets.get(shown)
        if targets is None:  # the tiles the indicators point at, looked up once per set of indicators
            targets = _remember(self._dora_targets, shown, [self.dora_next[self.mj.index[i]] for i in shown])
        tiles = facts.tiles
        dora = 0
        for t in targets:
            dora += tiles[t]
        return dora + self.ms.red_fives * facts.reds

    def score(self, hand: Hand, win: Win) -> Score:
        """The best reading of a winning hand, scored. Raises NotAWin without a win or a yaku."""
        mj = self.mj
        mj.require_size(hand, mj.winning_size, "a winning hand", "")
        readings = self.readings(hand, win)
        if not readings:
            raise NotAWin(f"{mj.format_hand(hand)} is not a winning hand")
        aotenjou = self.ms.aotenjou
        dora = self.dora_of(readings[0].hand)
        best = None
        for r in readings:
            scored = self._score_reading(r, dora, aotenjou)
            if scored is not None and (best is None or scored.rank > best.rank):
                best = scored
        if best is None:
            shibari = self.ms.shibari
            if shibari and win.honba >= shibari[0]:
                raise NotAWin(f"役が不足しています: from honba {shibari[0]} a win needs {shibari[1]} han "
                              f"of yaku (dora do not count)")
            raise NotAWin("the hand wins with no yaku (dora are not yaku)")
        r = best.reading
        return Score(tuple(best.listed), best.han, best.fu, best.dora, best.yakuman,
                     self.payments(best.basic, win, best.limit), r.shape, tuple(r.parts), r.wait,
                     best.aotenjou, (self, r, best.pinfu))

    def _score_reading(self, r: Reading, dora: int, aotenjou) -> "_Scored | None":
        found = self.yaku_of(r)
        if not found:
            return None
        pinfu = any(c.pinfu for c in found)
        fu = self.fu_of(r, pinfu)[0]
        closed = r.closed
        if aotenjou:
            listed = [YakuHan(c.yaku.id, c.yaku.name, (c.yaku.yakuman * aotenjou["yakuman_han"]) if c.yaku.yakuman
                              else (c.yaku.aotenjou_han or 0) if c.yaku.fixed
                              else c.listed_closed.han if closed else c.listed_open.han, c.yaku.yakuman)
                      for c in found]
            yaku_han = sum(y.han for y in listed)
            han = yaku_han + dora
            cap = aotenjou["cap_basic_4n"] if self.option_values.get("aotenjou-4n") else aotenjou["cap_basic"]
            basic = min(fu * 2 ** (han + 2), cap)
            return self._finish(r, pinfu, listed, han, fu, dora, 0, basic, None, True, yaku_han)
        if not any(c.limit_hand for c in found):  # the usual case: ordinary yaku only
            listed = [c.listed_closed for c in found] if closed else [c.listed_open for c in found]
            yaku_han = sum(y.han for y in listed)
            basic, limit = self._basic(yaku_han + dora, fu)
            return self._finish(r, pinfu, listed, yaku_han + dora, fu, dora, 0, basic, limit, False, yaku_han)
        yakuman = [c.yaku for c in found if c.yaku.yakuman]
        if yakuman:
            count = sum(y.yakuman for y in yakuman) if self.ms.yakuman_combine else 1
            per = self.yakuman_han
            listed = [YakuHan(y.id, y.name, per * y.yakuman, y.yakuman) for y in yakuman]
            basic = self.ms.points["yakuman_basic"] * count
            return self._finish(r, pinfu, listed, per * count, fu, dora, count, basic,
                                "役満" if count == 1 else f"{count}倍役満", False, per)
        fixed = [c.yaku for c in found if c.yaku.fixed]
        ordinary = [c for c in found if not c.yaku.fixed]
        options = []
        if ordinary:
            listed = [c.listed_closed for c in ordinary] if closed else [c.listed_open for c in ordinary]
            yaku_han = sum(y.han for y in listed)
            han = yaku_han + dora
            basic, limit = self._basic(han, fu)
            options.append(self._finish(r, pinfu, listed, han, fu, dora, 0, basic, limit, False, yaku_han))
        for y in fixed:  # 人和: a fixed limit, alone; the hand without it wins if it is worth more
            limit = next(lim for lim in self.ms.points["limits"] if lim["name"] == y.fixed)
            options.append(self._finish(r, pinfu, [YakuHan(y.id, y.name, limit["han"])], limit["han"], fu,
                                        0, 0, limit["basic"], y.fixed, False, limit["han"]))
        options = [o for o in options if o is not None]
        # on equal points the fixed hand is named (the document prefers the other only when higher)
        return max(options, key=lambda s: (s.basic, s.limit in {y.fixed for y in fixed}), default=None)

    def _basic(self, han: int, fu: int) -> tuple[int, str | None]:
        pts = self.ms.points
        limit = None
        basic = fu * 2 ** (han + 2)
        for lim in pts["limits"]:
            if han >= lim["han"]:
                basic, limit = lim["basic"], lim["name"]
        if limit is None and basic > pts["mangan_basic"]:
            basic, limit = pts["mangan_basic"], pts["limits"][0]["name"]
        return basic, limit

    def _finish(self, r: Reading, pinfu, listed, han, fu, dora, yakuman, basic, limit, aotenjou,
                yaku_han) -> "_Scored | None":
        shibari = self.ms.shibari
        if shibari and r.win.honba >= shibari[0] and yaku_han < shibari[1]:
            return None
        return _Scored((basic, yakuman, han, fu), r, pinfu, listed, han, fu, dora, yakuman, basic, limit,
                       aotenjou)

    # -- payments ---------------------------------------------------------------------------

    @property
    def yakuman_han(self) -> int:
        """The han a yakuman is shown as: the 数え役満 limit (13)."""
        return self.ms.points["limits"][-1]["han"]

    def seats(self, players: int) -> tuple[str, ...]:
        return SEATS[:players]

    def payments(self, basic: int, win: Win, limit: str | None = None) -> Points:
        """Who pays what for a hand of ``basic`` points (cached: a Points is read, never changed)."""
        key = (basic, win.seat, win.tsumo, win.players, win.discarder, win.honba, win.riichi_sticks, limit)
        found = self._payments.get(key)
        if found is None:
            found = _remember(self._payments, key, self._new_payments(basic, win, limit))
        return found

    def _new_payments(self, basic: int, win: Win, limit: str | None) -> Points:
        pts = self.ms.points
        step = pts.get("round_to", 100)
        seats = self.seats(win.players)
        others = [s for s in seats if s != win.seat]
        honba_total = self.ms.honba * win.honba
        if not win.tsumo:
            total = _round_up(basic * (pts["ron"]["dealer"] if win.dealer else pts["ron"]["other"]), step)
            payer = win.discarder or "discarder"
            payments = {payer: total}
            honba = {payer: honba_total} if honba_total else {}
        else:
            def share(seat: str) -> int:
                factor = pts["tsumo"]["dealer"] if (win.dealer or seat == "E") else pts["tsumo"]["other"]
                return _round_up(basic * factor, step)

            payments = {s: share(s) for s in others}
            if win.players == 3 and self.ms.three_player_split:
                north = _round_up(share("N") / 2, step)  # 北家分を残る2人で折半
                payments = {s: v + north for s, v in payments.items()}
            total = sum(payments.values())
            honba = {s: _round_up(honba_total / len(others), step) for s in others} if honba_total else {}
        return Points(total, payments, honba, self.ms.riichi_stick * win.riichi_sticks, basic, limit)

    # -- several rons on one discard ------------------------------------------------------------

    def settle_rons(self, wins: Sequence[tuple[str, int]], discarder: str, players: int, honba: int = 0,
                    riichi_sticks: int = 0) -> dict:
        """ダブロン、トリロン: each winner (seat, hand total) is paid by the discarder; the honba and
        the sticks on the table go to the winner nearest the discarder in turn order (上家取り).
        Returns seat -> points received (negative: paid)."""
        seats = self.seats(players)
        if discarder not in seats or any(seat not in seats or seat == discarder for seat, _ in wins):
            raise MeldsError(f"winners and discarder must be different seats among {' '.join(seats)}")
        out = {s: 0 for s in seats}
        for seat, total in wins:
            out[seat] += total
            out[discarder] -= total
        k = seats.index(discarder)
        winners = {seat for seat, _ in wins}
        nearest = next(seats[(k + step) % len(seats)] for step in range(1, len(seats))
                       if seats[(k + step) % len(seats)] in winners)
        out[nearest] += self.ms.honba * honba + self.ms.riichi_stick * riichi_sticks
        out[discarder] -= self.ms.honba * honba
        return out

    # -- draws ------------------------------------------------------------------------------

    def settle_draw(self, players: int, tenpai: Sequence[str] = (), nagashi: Sequence[str] = ()) -> dict:
        """Payments at an exhaustive draw: 流し満貫 (fixed, summed when several) or else 不聴罰符.
        Returns seat -> points received (negative: paid); sums to zero."""
        seats = self.seats(players)
        for s in list(tenpai) + list(nagashi):
            if s not in seats:
                raise MeldsError(f"unknown seat {s!r} for {players} players (seats: {' '.join(seats)})")
        out = {s: 0 for s in seats}
        if nagashi:
            nm = self.ms.nagashi
            for s in nagashi:
                win = Win(tile=(), tsumo=True, seat=s, players=players)
                ron = self.ms.points["ron"]  # the fixed total as basic points, paid like a tsumo
                basic = nm["dealer"] // ron["dealer"] if s == "E" else nm["other"] // ron["other"]
                pay = self.payments(basic, win)
                for payer, amount in pay.payments.items():
                    out[payer] -= amount
                    out[s] += amount
            return out
        ready = [s for s in seats if s in tenpai]
        if ready and len(ready) < len(seats):
            total = self.ms.noten_penalty
            noten = [s for s in seats if s not in ready]
            for s in noten:
                out[s] -= total // len(noten)
            for s in ready:
                out[s] += total // len(ready)
        return out


def win_from_facts(scorer: "Scorer", tile: str, facts: Mapping, players: int) -> Win:
    """A Win from the keys of a request or a puzzle's ``win:`` (flags as true values; ``seat``,
    ``round``, ``from``, tiles in notation) — one reading for the CLI, batches and puzzles."""
    mj = scorer.mj
    seats = SEATS[:players]
    for key in ("seat", "from", "discarder"):
        if facts.get(key) and facts[key] not in seats:
            raise MeldsError(f"--{key} {facts[key]}: {players} players sit {', '.join(seats)}")
    if str(facts.get("round", "E")) not in SEATS:
        raise MeldsError(f"round wind {facts.get('round')!r}: give E, S, W or N")

    def tiles(key: str) -> tuple:
        return tuple(mj.identity(f) for f in mj.parse_tiles(str(facts.get(key) or "")))

    win = Win(scorer.tile(tile), **{k: bool(facts.get(k) or facts.get(k.replace("_", "-"))) for k in WIN_FLAGS},
              seat=facts.get("seat") or "E", round_wind=facts.get("round") or "E",
              dora_indicators=tiles("dora_indicators"), ura_indicators=tiles("ura_indicators"),
              honba=int(facts.get("honba") or 0), riichi_sticks=int(facts.get("riichi_sticks") or 0),
              dealer_streak=int(facts.get("dealer_streak") or 0), players=players,
              discarder=facts.get("discarder") or facts.get("from"))
    if win.tsumo and win.discarder:
        raise MeldsError("a tsumo has no discarder: drop --from or --tsumo")
    if win.discarder == win.seat:
        raise MeldsError("the winner cannot deal in to themself")
    return win


CACHE_LIMIT = 1 << 16  # entries a scorer's cache keeps before it starts afresh (long batches)


def _remember(cache: dict, key, value):
    """cache[key] = value, the cache emptied first when full: the scorer's caches hold what recurs
    from hand to hand (suit patterns, keys, payments), and a long batch must not grow them forever."""
    if len(cache) >= CACHE_LIMIT:
        cache.clear()
    cache[key] = value
    return value


def _round_up(value: float, step: int) -> int:
    return int(math.ceil(value / step - 1e-9) * step)


class _Scored(NamedTuple):
    """A reading's value, before payments and explanations are worked out for the best one."""

    rank: tuple  # (basic, yakuman, han, fu): a yakuman is named before an equal 数え役満
    reading: Reading
    pinfu: bool
    listed: list
    han: int
    fu: int
    dora: int
    yakuman: int
    basic: int
    limit: str | None
    aotenjou: bool
