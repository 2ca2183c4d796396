"""Riichi scoring from a ruleset's ``mahjong_scoring`` section: yaku, fu, points, payments.

The ruleset names its yaku and gives each a *pattern*: one hand-pattern primitive with its
parameters (``{concealed_triplets: 4, wait: tanki}``), its han closed and open, the lower yaku it
replaces. This module holds only the primitives and the arithmetic; every number — han, fu,
limits, honba, sticks, the 青天井 cap — comes from the ruleset.

A win is scored over every reading: each decomposition of the 14 tiles and each part the winning
tile may have completed (the wait). The reading worth most is the score.

>>> from solver.ruleset import load_ruleset
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
from typing import Callable, Mapping, NamedTuple, Sequence

from .errors import MeldsError
from .mahjong import Hand, Mahjong
from .ruleset import Ruleset, Yaku

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

    __slots__ = ("shape", "held", "parts", "runs", "triplets", "triplet_tiles", "pair", "wait", "win_part", "tiles", "closed",
                 "scorer", "win", "before", "hand_classes", "suits", "honours")

    def __init__(self, shape: str, parts: list[ScoredPart], runs: list, triplets: list,
                 pair: ScoredPart | None, wait: str, win_part: int | None, hand: "_HandFacts"):
        self.shape, self.parts, self.runs, self.triplets, self.pair = shape, parts, runs, triplets, pair
        self.triplet_tiles = {p.tiles[0] for p in triplets}
        self.wait = wait  # ryanmen kanchan penchan shanpon tanki kokushi kokushi-13
        self.win_part = win_part
        self.tiles, self.held = hand.tiles, hand.held
        self.closed = hand.closed  # no open declared meld
        self.scorer, self.win, self.before = hand.scorer, hand.win, hand.before
        self.hand_classes = hand.classes  # the tile classes (simples, yaochu, …) of every tile
        self.suits = hand.suits  # the number suits the hand holds
        self.honours = hand.honours  # the hand holds an honour

    def concealed_triplet(self, k: int, p: ScoredPart) -> bool:
        # a triplet completed by a ron counts as open (明刻)
        return not p.open and not (k == self.win_part and not self.win.tsumo)


@dataclass
class _HandFacts:
    scorer: "Scorer"
    win: Win
    tiles: list  # identity index -> count over the whole hand (a kan counts 4)
    held: list  # the identity indices held
    before: list  # the concealed counts before the winning tile
    closed: bool
    classes: frozenset
    suits: frozenset
    honours: bool


Primitive = Callable[[Reading, object, Mapping], bool]


def _flag(r: Reading, name, pattern) -> bool:
    return name in r.win.flags


def _pinfu(r: Reading, _, pattern) -> bool:
    return (r.shape == "standard" and len(r.runs) == 4 and r.wait == "ryanmen"
            and r.pair is not None and not r.scorer.value_pair_fu(r.pair.tiles[0], r.win)[0])


def _identical_runs(r: Reading, n, pattern) -> bool:
    counts = Counter(p.tiles for p in r.runs)
    return sum(c // 2 for c in counts.values()) >= n


def _tiles_only(r: Reading, what, pattern) -> bool:
    return what in r.hand_classes


def _triplet_of(r: Reading, target, pattern) -> bool:
    if isinstance(target, str):  # seat-wind, round-wind: known at the win
        target = r.scorer.named_tile(target, r.win)
    return target in r.triplet_tiles


def _three_suits(r: Reading, what, pattern) -> bool:
    parts = r.runs if what == "run" else r.triplets
    by_rank: dict = {}
    for p in parts:
        suit, rank = r.scorer.suit_rank[p.tiles[0]]
        if suit is not None:
            by_rank.setdefault(rank, set()).add(suit)
    return any(len(s) >= 3 for s in by_rank.values())


def _straight(r: Reading, _, pattern) -> bool:
    starts: dict = {}
    for p in r.runs:
        suit, rank = r.scorer.suit_rank[p.tiles[0]]
        starts.setdefault(suit, set()).add(rank)
    return any({0, 3, 6} <= s for s in starts.values())


def _every_part(r: Reading, what, pattern) -> bool:
    sc = r.scorer
    if r.shape != "standard" or not r.runs:
        return False
    test = sc.tile_classes["terminals" if what == "terminal" else "yaochu"]
    if what == "terminal" and r.honours:
        return False
    return all(any(test[i] for i in p.tiles) for p in r.parts)


def _concealed_triplets(r: Reading, n, pattern) -> bool:
    count = sum(1 for k, p in enumerate(r.parts) if p.kind in ("triplet", "kan") and r.concealed_triplet(k, p))
    return count >= n


def _triplets(r: Reading, n, pattern) -> bool:
    return len(r.triplets) >= n


def _kans(r: Reading, n, pattern) -> bool:
    return sum(p.kind == "kan" for p in r.parts) >= n


def _consecutive_triplets(r: Reading, n, pattern) -> bool:
    by_suit: dict = {}
    for p in r.triplets:
        suit, rank = r.scorer.suit_rank[p.tiles[0]]
        if suit is not None:
            by_suit.setdefault(suit, set()).add(rank)
    return any(any(all(s + k in ranks for k in range(n)) for s in ranks) for ranks in by_suit.values())


def _honour_set(r: Reading, spec, pattern) -> bool:
    group, count, pair = spec
    if sum(p.tiles[0] in group for p in r.triplets) != count:
        return False
    return not pair or (r.pair is not None and r.pair.tiles[0] in group)


def _one_suit(r: Reading, what, pattern) -> bool:
    return len(r.suits) == 1 and r.honours == (what == "with-honours")


def _shape(r: Reading, shape, pattern) -> bool:
    return r.shape == shape


def _nine_gates(r: Reading, _, pattern) -> bool:
    if not r.closed or any(p.declared for p in r.parts) or r.shape != "standard":
        return False
    sc = r.scorer
    suits = {sc.suit_rank[i][0] for i in r.held}
    if len(suits) != 1 or None in suits:
        return False
    (suit,) = suits
    ranks = sc.suit_members[suit]
    base = [3] + [1] * (len(ranks) - 2) + [3]
    return all(r.tiles[i] >= b for i, b in zip(ranks, base))


def _wait(r: Reading, what, pattern) -> bool:
    if what == "tanki":
        return r.wait == "tanki"
    if what == "thirteen":
        return r.wait == "kokushi-13"
    if what == "nine":  # the 13 tiles before the win were exactly 1112345678999 of one suit
        ranks = r.scorer.suit_members.get(r.scorer.suit_rank[r.scorer.index(r.win.tile)][0], [])
        base = [3] + [1] * (len(ranks) - 2) + [3]
        return bool(ranks) and sum(r.before) == sum(base) and all(
            r.before[i] == b for i, b in zip(ranks, base))
    return False


def _dealer_streak(r: Reading, n, pattern) -> bool:
    return r.win.dealer and r.win.dealer_streak >= n


PRIMITIVES: dict[str, Primitive] = {
    "flag": _flag, "pinfu": _pinfu, "identical_runs": _identical_runs, "tiles_only": _tiles_only,
    "triplet_of": _triplet_of, "three_suits": _three_suits, "straight": _straight,
    "every_part": _every_part, "concealed_triplets": _concealed_triplets, "triplets": _triplets,
    "kans": _kans, "consecutive_triplets": _consecutive_triplets, "honour_set": _honour_set,
    "one_suit": _one_suit, "shape": _shape, "nine_gates": _nine_gates, "wait": _wait,
    "dealer_streak": _dealer_streak,
}


# the order in which a pattern's primitives are tried: cheap and selective first
_ORDER = ("flag", "shape", "dealer_streak", "tiles_only", "one_suit", "kans", "triplets", "wait")


# primitives whose answer the candidate key already decides (flags, shape, tile classes, one suit)
_KEY_LEVEL = frozenset(("flag", "shape", "tiles_only", "one_suit"))


@dataclass(frozen=True)
class CompiledYaku:
    """A yaku with its primitives looked up and their parameters resolved once, and what a
    reading needs at the least for the pattern to be worth trying (checked once per kind of
    reading, so that most yaku are never tried on a hand that cannot have them). A yaku whose
    primitives the key decides entirely (``key_level``) is never tried at all: possible is
    matched."""

    yaku: Yaku
    checks: tuple[tuple[Primitive, object], ...]
    flag: str | None
    shape: str | None
    tiles_only: str | None
    one_suit: bool
    honours: bool | None  # one_suit: with honours (True) or without (False)
    min_runs: int
    min_triplets: int
    key_level: bool

    def matches(self, reading: Reading) -> bool:
        for test, param in self.checks:
            if not test(reading, param, None):
                return False
        return True

    def possible(self, key: tuple) -> bool:
        shape, flags, classes, suits, honours, runs, triplets = key
        return ((self.flag is None or self.flag in flags) and (self.shape is None or self.shape == shape)
                and (self.tiles_only is None or self.tiles_only in classes)
                and (not self.one_suit or suits == 1) and (self.honours is None or self.honours == honours)
                and runs >= self.min_runs and triplets >= self.min_triplets)


def _least(pattern: Mapping) -> tuple[int, int]:
    """The fewest runs and triplets (kans included) a pattern can hold."""
    runs = max(pattern.get("identical_runs", 0) * 2, 4 if pattern.get("pinfu") else 0,
               3 if pattern.get("three_suits") == "run" or pattern.get("straight") else 0,
               1 if pattern.get("every_part") else 0)
    honour = pattern.get("honour_set") or {}
    triplets = max(pattern.get("triplets", 0), pattern.get("concealed_triplets", 0), pattern.get("kans", 0),
                   pattern.get("consecutive_triplets", 0), honour.get("triplets", 0),
                   3 if pattern.get("three_suits") == "triplet" else 0, 1 if "triplet_of" in pattern else 0)
    return runs, triplets


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
        compiled = [self._compile(y) for y in ms.yaku]
        self.closed_yaku = tuple(compiled)
        # 門前役 never count with open melds, nor an open han the options switch off (食いタン)
        self.open_yaku = tuple(c for c in compiled if c.yaku.open_han is not None and self._open_ok(c.yaku))
        self._candidates: dict = {}
        self._dora_targets: dict = {}
        self._part_of: dict = {}  # (kind id, tiles) -> ScoredPart, for concealed parts
        self._reds = frozenset(mj.reds)
        names = list(self.tile_classes)
        self._class_mask = [sum(1 << b for b, n in enumerate(names) if self.tile_classes[n][i])
                            for i in range(len(ids))]
        self._all_classes = (1 << len(names)) - 1
        self._honour_bit = 1 << names.index("honours")
        self._suit_of = [suit for suit, _ in self.suit_rank]
        self._class_sets = [frozenset(n for b, n in enumerate(names) if m >> b & 1)
                            for m in range(1 << len(names))]

    def _compile(self, y: Yaku) -> CompiledYaku:
        checks = []
        for name in sorted(y.pattern, key=lambda n: _ORDER.index(n) if n in _ORDER else len(_ORDER)):
            param = y.pattern[name]
            if name == "triplet_of" and param not in ("seat-wind", "round-wind"):
                param = self._identity_index(param)
            elif name == "honour_set":
                param = (frozenset(self.group(param["tiles"])), param["triplets"], bool(param.get("pair")))
            checks.append((PRIMITIVES[name], param))
        runs, triplets = _least(y.pattern)
        one_suit = y.pattern.get("one_suit")
        return CompiledYaku(y, tuple(checks), y.pattern.get("flag"), y.pattern.get("shape"),
                            y.pattern.get("tiles_only"), "one_suit" in y.pattern or "nine_gates" in y.pattern,
                            None if one_suit is None else one_suit == "with-honours", runs, triplets,
                            all(name in _KEY_LEVEL for name in y.pattern))

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
        mj = self.mj
        counts = mj.counts(hand.concealed)
        w = mj.index[win.tile]
        if not counts[w]:
            raise MeldsError(f"the winning tile {mj.tile_text(win.tile)} is not in the hand")
        before = list(counts)
        before[w] -= 1
        tiles = list(counts)
        declared = []
        for m in hand.melds:
            idx = tuple(sorted(mj.index[mj.identity(f)] for f in m.faces))
            kind = self.kind_shape[m.meld_kind]
            declared.append(ScoredPart(kind, idx[:3] if kind == "run" else idx[:1] * (4 if kind == "kan" else 3),
                                       m.open, m.kind))
            for i in idx:
                tiles[i] += 1
        closed = not any(m.open for m in hand.melds)
        held = [i for i, n in enumerate(tiles) if n]
        every, some, class_mask = self._all_classes, 0, self._class_mask
        for i in held:
            every &= class_mask[i]
            some |= class_mask[i]
        suit_of = self._suit_of
        facts = _HandFacts(self, win, tiles, held, before, closed, self._class_sets[every],
                           frozenset(suit_of[i] for i in held if suit_of[i] is not None),
                           bool(some & self._honour_bit))
        out = []
        part_of = self._part_of
        for shape, parts in mj.fast_decompositions(counts, len(hand.melds)):
            concealed = [part_of[p] if p in part_of else self._new_part(p) for p in parts]
            all_parts = concealed + declared
            runs = [p for p in all_parts if p.kind == "run"]
            triplets = [p for p in all_parts if p.kind == "triplet" or p.kind == "kan"]
            pair = next((p for p in all_parts if p.kind == "pair"), None)
            for k, part in enumerate(concealed):
                if w not in part.tiles or (k and concealed[k - 1] == part):
                    continue  # the same wait in an identical part is the same reading
                out.append(Reading(shape, all_parts, runs, triplets, pair,
                                   self._wait_kind(shape, part, w, before), k, facts))
        return out

    def _new_part(self, part: tuple) -> ScoredPart:
        kind, tiles = part
        made = self._part_of[part] = ScoredPart(self.kind_shape[kind], tiles, False, None)
        return made

    def _wait_kind(self, shape: str, part: ScoredPart, w: int, before: Counter) -> str:
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
        if shape == "kokushi":
            return "kokushi-13" if part.kind == "pair" and all(before[i] == 1 for i in part.tiles[:1]) \
                and sum(1 for n in before if n) == 13 else "kokushi"
        return "tanki"

    # -- yaku, fu, points -------------------------------------------------------------------

    def _open_ok(self, y: Yaku) -> bool:
        return all(self.option_values.get(k) == v for k, v in y.open_if.items())

    def yaku_of(self, r: Reading) -> list[Yaku]:
        key = (r.closed, r.shape, r.win.flags, r.hand_classes, len(r.suits), r.honours, len(r.runs),
               len(r.triplets))
        candidates = self._candidates.get(key)
        if candidates is None:
            pool = self.closed_yaku if r.closed else self.open_yaku
            candidates = self._candidates[key] = tuple(c for c in pool if c.possible(key[1:]))
        found = [c.yaku for c in candidates if c.key_level or c.matches(r)]
        excluded = {e for y in found for e in y.excludes}
        return [y for y in found if y.id not in excluded] if excluded else found

    def fu_of(self, r: Reading, pinfu: bool, explain: bool = False) -> tuple[int, list[tuple[str, int]]]:
        """The fu of a reading, with the items that make it up when ``explain``."""
        fu = self.ms.fu
        step = fu.get("round_to", 10)
        if r.shape == "chiitoitsu":
            return fu.get("chiitoitsu", 25), [("七対子", fu.get("chiitoitsu", 25))]
        base = fu["base"]
        details = [("base", base)]
        if r.shape == "kokushi":  # only 青天井 needs this (assumption aotenjou-kokushi-fu)
            extra = fu.get("closed_ron", 10) if not r.win.tsumo else fu.get("tsumo", 2)
            details.append(("closed ron" if not r.win.tsumo else "tsumo", extra))
            return _round_up(base + extra, step), details
        if pinfu:
            if r.win.tsumo:
                return base, details
            details.append(("closed ron", fu.get("closed_ron", 10)))
            return base + fu.get("closed_ron", 10), details
        total = base
        if r.closed and not r.win.tsumo:
            total += fu.get("closed_ron", 10)
            details.append(("closed ron", fu.get("closed_ron", 10)))
        if r.win.tsumo:
            total += fu.get("tsumo", 2)
            details.append(("tsumo", fu.get("tsumo", 2)))
        t = fu["triplet"]
        for k, p in enumerate(r.parts):
            if p.kind not in ("triplet", "kan"):
                continue
            value = t["yaochu"] if self.tile_classes["yaochu"][p.tiles[0]] else t["simple"]
            if r.concealed_triplet(k, p):
                value *= t["closed"]
            if p.kind == "kan":
                value *= t["kan"]
            total += value
            if explain:
                tile = self.mj.tile_text(self.mj.identities[p.tiles[0]])
                details.append((f"{'kan' if p.kind == 'kan' else 'triplet'} {tile}", value))
        if r.pair is not None:
            value, why = self.value_pair_fu(r.pair.tiles[0], r.win)
            if value:
                total += value
                details.append((why, value))
        if r.wait in ("kanchan", "penchan", "tanki"):
            total += fu.get("wait", 2)
            details.append((f"wait ({r.wait})", fu.get("wait", 2)))
        tsumo_only = r.win.tsumo and total == base + fu.get("tsumo", 2)
        if not r.closed and (total == base or tsumo_only) and "open_pinfu" in fu:
            details = [("open pinfu shape (食い平和形)", fu["open_pinfu"])]
            return fu["open_pinfu"], details
        return _round_up(total, step), details

    def dora_of(self, hand: Hand, win: Win, tiles: Counter) -> int:
        shown = win.dora_indicators + (win.ura_indicators if win.riichi or win.double_riichi else ())
        targets = self._dora_targets.get(shown)
        if targets is None:  # the tiles the indicators point at, looked up once per set of indicators
            targets = self._dora_targets[shown] = [self.dora_next[self.mj.index[i]] for i in shown]
        dora = sum(tiles[t] for t in targets)
        if self.ms.red_fives:
            reds = self._reds
            dora += self.ms.red_fives * sum(1 for f in hand.tiles if f in reds)
        return dora

    def score(self, hand: Hand, win: Win) -> Score:
        """The best reading of a winning hand, scored. Raises NotAWin without a win or a yaku."""
        mj = self.mj
        mj.require_size(hand, mj.winning_size, "a winning hand", "")
        readings = self.readings(hand, win)
        if not readings:
            raise NotAWin(f"{mj.format_hand(hand)} is not a winning hand")
        aotenjou = self.ms.aotenjou
        dora = self.dora_of(hand, win, readings[0].tiles)
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

    def _score_reading(self, r: Reading, dora: int, aotenjou) -> Score | None:
        found = self.yaku_of(r)
        if not found:
            return None
        pinfu = any("pinfu" in y.pattern for y in found)
        fu, _ = self.fu_of(r, pinfu)
        closed = r.closed

        def han_of(y: Yaku) -> int:
            return y.han if closed else (y.open_han or 0)

        if aotenjou:
            listed = [YakuHan(y.id, y.name, (y.yakuman * aotenjou["yakuman_han"]) if y.yakuman
                              else (y.aotenjou_han or 0) if y.fixed else han_of(y), y.yakuman) for y in found]
            yaku_han = sum(y.han for y in listed)
            han = yaku_han + dora
            cap = aotenjou["cap_basic_4n"] if self.option_values.get("aotenjou-4n") else aotenjou["cap_basic"]
            basic = min(fu * 2 ** (han + 2), cap)
            return self._finish(r, pinfu, listed, han, fu, dora, 0, basic, None, True, yaku_han)
        yakuman = [y for y in found if y.yakuman]
        if yakuman:
            count = sum(y.yakuman for y in yakuman) if self.ms.yakuman_combine else 1
            per = self.yakuman_han
            listed = [YakuHan(y.id, y.name, per * y.yakuman, y.yakuman) for y in yakuman]
            basic = self.ms.points["yakuman_basic"] * count
            return self._finish(r, pinfu, listed, per * count, fu, dora, count, basic,
                                "役満" if count == 1 else f"{count}倍役満", False, per)
        fixed = [y for y in found if y.fixed]
        ordinary = [y for y in found if not y.fixed]
        options = []
        if ordinary:
            listed = [YakuHan(y.id, y.name, han_of(y)) for y in ordinary]
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
