"""Riichi scoring from a ruleset's ``mahjong_scoring`` section: yaku, fu, points, payments.

The ruleset names its yaku and gives each a *pattern*: one hand-pattern primitive with its
parameters (``{concealed_triplets: 4, wait: tanki}``), its han closed and open, the lower yaku it
replaces. This module holds only the primitives and the arithmetic; every number — han, fu,
limits, honba, sticks, the 青天井 cap — comes from the ruleset.

A win is scored over every reading: each decomposition of the 14 tiles and each part the winning
tile may have completed (the wait). The reading worth most is the score.

Speed on hands never seen before comes from what recurs between them, worked out once: suit
patterns (their ways to split into parts and the waits of each, shared by the suits alike; a
suit's own parts and classes), declared melds, what a hand's key — its flags, tile classes, suits —
and a reading's key — its shape, part counts and wait — each leave open of the yaku, and the
payments of a basic value. Each primitive has deciders beside its test, one on each key, and a
yaku is tested on a reading only for what its deciders could not settle.

>>> from solver.core.ruleset import load_ruleset
>>> scorer = Scorer.for_ruleset(load_ruleset("gensou-mahjong"))
>>> hand = scorer.mj.parse_hand("234m 567p 345678s 22p")
>>> s = scorer.score(hand, Win(scorer.tile("8s"), tsumo=True, riichi=True, seat="S"))
>>> [y.name for y in s.yaku], s.han, s.fu, s.points.total
(['立直', '門前清模和', '平和', '断ヤオ九'], 4, 20, 5200)
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from solver.core.errors import MeldsError
from solver.core.ruleset import Ruleset
from solver.games.mahjong.fu import FuCounter, FuTable
from solver.games.mahjong.furiten import furiten_reason, waiting_hand
from solver.games.mahjong.hands import Hand, Mahjong
from solver.games.mahjong.payments import Payments, Points
from solver.games.mahjong.readings import HandFacts, HandReader, Reading, ScoredPart
from solver.games.mahjong.shapes import SuitWays
from solver.games.mahjong.win import CACHE_LIMIT, SEAT_NAMES, SEATS, WIN_FLAGS, NotAWin, Win, remember
from solver.games.mahjong.yaku import PRIMITIVES, CompiledYaku, YakuFinder, YakuHan

__all__ = [
    "CACHE_LIMIT",
    "SEAT_NAMES",
    "SEATS",
    "WIN_FLAGS",
    "CompiledYaku",
    "NotAWin",
    "Points",
    "Reading",
    "Score",
    "ScoredPart",
    "Scorer",
    "Win",
    "YakuHan",
    "win_from_facts",
]


@dataclass(frozen=True)
class Score:
    """A scored win: its yaku, han, fu, dora, points and the reading that scored best."""

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
    explain: tuple = field(default=(), repr=False, compare=False)  # the items the fu are made of

    @property
    def fu_details(self) -> tuple[tuple[str, int], ...]:
        """The items the fu are made of: (what, fu) each."""
        return self.explain


# -- the scorer --------------------------------------------------------------------------------------


def _fu_table(fu: Mapping[str, Any]) -> FuTable:
    """The ruleset's fu, with the usual values where it gives none."""
    triplet = fu["triplet"]
    return FuTable(
        fu["base"],
        fu.get("closed_ron", 10),
        fu.get("tsumo", 2),
        fu.get("wait", 2),
        fu.get("round_to", 10),
        fu.get("open_pinfu"),
        fu.get("chiitoitsu", 25),
        triplet["yaochu"],
        triplet["simple"],
        triplet["closed"],
        triplet["kan"],
    )


class Scorer(HandReader, YakuFinder, FuCounter, Payments):
    """Scores winning hands of one ruleset (built once; each hand only reads its tables). Its parts
    live beside it: readings (HandReader), yaku (YakuFinder), fu (FuCounter), payments (Payments)."""

    def __init__(self, mj: Mahjong):
        ms = mj.rules.mahjong_scoring
        if ms is None:
            raise MeldsError(f"{mj.rs.id} has no mahjong_scoring section")
        self.mj, self.rs, self.ms = mj, mj.rs, ms
        for y in ms.yaku:
            for name in y.pattern:
                if name not in PRIMITIVES:
                    raise MeldsError(
                        f"{mj.rs.path}: yaku {y.id}: unknown pattern {name!r} (known: {', '.join(PRIMITIVES)})"
                    )
        run_kind = next((k for k in mj.rs.kinds if k.shape == "sequence"), None)
        number_suits = set(run_kind.suits) if run_kind else set()
        self._tile_classes_of(number_suits, list(run_kind.order.ranks) if run_kind and run_kind.order else [])
        self.kind_shape = {k.id: self._part_kind(k) for k in mj.rs.kinds}
        self.option_values = mj.rs.option_values
        compiled = [self._compile(k, y) for k, y in enumerate(ms.yaku)]
        self.closed_yaku = tuple(compiled)
        # 門前役 never count with open melds, nor an open han the options switch off (食いタン)
        self.open_yaku = tuple(c for c in compiled if c.yaku.open_han is not None and self._open_ok(c.yaku))
        self._start_caches()
        # shapes of single tiles (国士無双): their wait (13-sided or not) depends on the whole hand
        self._hand_waits = {
            shape.id
            for shape in mj.rules.hand_shapes
            if any(self.kind_shape[k] == "single" for p in shape.parts for k in p.kinds)
        }
        self._fu = _fu_table(ms.fu)
        self._yaochu = self.tile_classes["yaochu"]
        self._per_tile_tables(number_suits)

    def _tile_classes_of(self, number_suits: set[str], order: list[str]) -> None:
        """Each tile's suit and rank, its classes (honours, terminals, ...), the winds, the dragons
        and the dora each indicator names."""
        ms, ids = self.ms, self.mj.identities
        self.suit_rank = [(s, order.index(r)) if s in number_suits else (None, None) for s, r in ids]
        self.suit_members = {s: [i for i, (t, _) in enumerate(ids) if t == s] for s in number_suits}
        suit_bits: dict[str | None, int] = {s: 1 << k for k, s in enumerate(sorted(number_suits))}
        self.rank_suit = [(rank, suit_bits.get(s, 0)) for s, rank in self.suit_rank]  # tile -> (rank, suit bit)
        honours = [s not in number_suits for s, _ in ids]
        terminals = [s in number_suits and r in (order[0], order[-1]) for s, r in ids]
        green = {self._identity_index(t) for t in ms.green}
        self.tile_classes = {
            "honours": honours,
            "terminals": terminals,
            "yaochu": [h or t for h, t in zip(honours, terminals, strict=True)],
            "simples": [not (h or t) for h, t in zip(honours, terminals, strict=True)],
            "green": [i in green for i in range(len(ids))],
        }
        self.winds = [self._identity_index(w) for w in ms.winds]
        self.dragons = {self._identity_index(d) for d in ms.dragons}
        self.dora_next = self._dora_cycle()

    def _start_caches(self) -> None:
        """The tables the hands scored fill as they come (each read many times after)."""
        mj = self.mj
        self._candidates = {}  # (hand side, reading side) -> the yaku worth testing
        self._hand_sides = {}  # hand key -> what it leaves open
        self._hand_facts_sides = {}  # the same, by the facts the deciders read
        self._reading_sides = {}  # reading key -> its verdicts
        self._side_ids = {}
        self._side_numbers = itertools.count()
        self._dora_targets = {}
        self._suits = [{} for _ in mj.suits]  # per suit: its tiles' identities -> its entry
        self._tile_texts = {}  # a tile's text -> its identity
        self._tiles_texts = {}  # tiles' text -> their identities
        self._suit_tables = {}  # suit -> what making its entry needs
        self._patterns = {}  # per SuitWays: packed counts -> the ways as suits alike share them
        self._part_numbers_by_suit = {}  # (shape, suit) -> its part instances' numbers
        # the parts of every shape in every suit, by number, with what a way needs of each
        self._part_table = []
        self._part_packed = []  # one of its part, packed
        self._part_touched = []  # the classes some tile of it has
        self._part_honour = []  # 1 if it is an honour part
        self._part_wins = []  # (rank in its suit, wait) for each tile that may complete it
        self._shapes_by_declared = {}
        self._declared_cache = {}  # a declared meld's kind, openness and faces -> its parts
        self._meld_objects = {}  # id of a declared meld -> (the meld, its parts)
        self._flag_sets = {}  # a win's flags as booleans -> their names
        self._pair_fu_cache = {}
        self._payments = {}
        self._basics = {}  # (han, fu) -> basic points and limit

    def _per_tile_tables(self, number_suits: set[str]) -> None:
        """Per tile and per suit, what the hot loops look up rather than work out: red fives,
        suit positions and ranks, packed counts, suit bits and sets, class masks."""
        mj, ids = self.mj, self.mj.identities
        reds = {f.index for f in mj.reds}
        self._is_red = [int(f.index in reds) for f in mj.rs.deck.faces]
        self._suit_position = [
            next(k for k, (a, b) in enumerate(mj.suit_slices) if a <= i < b) for i in range(len(ids))
        ]
        self._rank_in_suit = [i - mj.suit_slices[s][0] for i, s in enumerate(self._suit_position)]
        self._suit_ends = [
            (s, cache, b) for s, (cache, (_, b)) in enumerate(zip(self._suits, mj.suit_slices, strict=True))
        ]
        # identity index -> one of it, packed as SuitWays packs a suit's counts
        self._packed_tile = [1 << (SuitWays.BITS * rank) for rank in self._rank_in_suit]
        self._suit_bit = {suit: 1 << k for k, suit in enumerate(sorted(number_suits))}
        self._suit_sets = [
            frozenset(suit for suit, bit in self._suit_bit.items() if mask & bit)
            for mask in range(1 << len(number_suits))
        ]
        names = list(self.tile_classes)
        self._class_mask = [
            sum(1 << b for b, n in enumerate(names) if self.tile_classes[n][i]) for i in range(len(ids))
        ]
        self._all_classes = (1 << len(names)) - 1
        self._honour_bit = 1 << names.index("honours")
        self._suit_of = [suit for suit, _ in self.suit_rank]
        self._class_sets = [frozenset(n for b, n in enumerate(names) if m >> b & 1) for m in range(1 << len(names))]

    @classmethod
    def for_ruleset(cls, ruleset: Ruleset) -> Scorer:
        return cls(Mahjong(ruleset))

    # -- tiles ------------------------------------------------------------------------------

    def _identity_index(self, text: str) -> int:
        faces = self.mj.parse_tiles(text)
        if len(faces) != 1:
            raise MeldsError(f"{self.rs.path}: {text!r} is not one tile")
        return self.mj.index[self.mj.identity(faces[0])]

    def tile(self, text: str) -> tuple:
        """One tile's identity from its notation (``"5p"``, ``"東"``)."""
        found = self._tile_texts.get(text)
        if found is None:
            faces = self.mj.parse_tiles(text)
            if len(faces) != 1:
                raise MeldsError(f"{text!r} is not one tile")
            found = remember(self._tile_texts, text, self.mj.identity(faces[0]))
        return found

    def tiles(self, text) -> tuple:
        """The identities of tiles in notation (indicators: ``"1m 東"``; none for None or "")."""
        if not text:
            return ()
        text = " ".join(map(str, text)) if isinstance(text, (list, tuple)) else str(text)
        found = self._tiles_texts.get(text)
        if found is None:
            found = remember(self._tiles_texts, text, tuple(self.mj.identity(f) for f in self.mj.parse_tiles(text)))
        return found

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

    def dora_of(self, facts: HandFacts) -> int:
        """Dora, ura dora (with riichi) and red fives held; tiles set aside (北抜き) count their
        own dora and, being that tile, whatever the indicators make them."""
        win = facts.win
        shown = win.dora_indicators + (win.ura_indicators if win.riichi or win.double_riichi else ())
        if not shown:
            return self.ms.red_fives * facts.reds + (self._nuki_dora(win.nuki, ()) if win.nuki else 0)
        targets = self._dora_targets.get(shown)
        if targets is None:  # the tiles the indicators point at, looked up once per set of indicators
            targets = remember(self._dora_targets, shown, tuple(self.dora_next[self.mj.index[i]] for i in shown))
        aside = self._nuki_dora(win.nuki, targets) if win.nuki else 0
        return sum(map(facts.held.count, targets)) + self.ms.red_fives * facts.reds + aside

    def _nuki_dora(self, tiles: int, targets: tuple) -> int:
        """The dora of tiles set aside by the ruleset's 北抜き: their own, and the indicators' (``targets``)."""
        nuki = self.mj.rules.nuki_dora
        if nuki is None:
            raise MeldsError(f"{self.rs.id} has no 北抜き (nuki_dora): no tile is set aside as a dora")
        return tiles * (nuki.dora + targets.count(self._identity_index(nuki.tile)))

    def score(self, hand: Hand, win: Win) -> Score:
        """The best reading of a winning hand, scored. Raises NotAWin without a win or a yaku."""
        mj = self.mj
        mj.require_size(hand, mj.winning_size, "a winning hand", "")
        readings = self.readings(hand, win)
        if not readings:
            raise NotAWin(f"{mj.format_hand(hand)} is not a winning hand")
        if not win.tsumo and (win.river or win.furiten):
            why = furiten_reason(mj, waiting_hand(mj, hand, win.tile), win)
            if why:
                raise NotAWin(why)
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
                raise NotAWin(
                    f"役が不足しています: from honba {shibari[0]} a win needs {shibari[1]} han "
                    f"of yaku (dora do not count)"
                )
            raise NotAWin("the hand wins with no yaku (dora are not yaku)")
        r = best.reading
        return _new_score(
            yaku=tuple(best.listed),
            han=best.han,
            fu=best.fu,
            dora=best.dora,
            yakuman=best.yakuman,
            points=self.payments(best.basic, win, best.limit),
            shape=r.shape,
            parts=tuple(r.parts),
            wait=r.wait,
            aotenjou=best.aotenjou,
            explain=tuple(best.fu_items),
        )

    def _score_reading(self, r: Reading, dora: int, aotenjou) -> _Scored | None:
        found = self.yaku_of(r)
        if not found:
            return None
        pinfu = limit_hand = False
        for c in found:  # a loop: on a few yaku it beats any() over a generator
            pinfu |= c.pinfu
            limit_hand |= c.limit_hand
        fu, fu_items = self.fu_of(r, pinfu)
        closed = r.closed
        if aotenjou:
            return self._aotenjou_score(r, found, fu, fu_items, dora, aotenjou)
        if not limit_hand:  # the usual case: ordinary yaku only
            listed, yaku_han = [], 0
            for c in found:
                y = c.listed_closed if closed else c.listed_open
                listed.append(y)
                yaku_han += y.han
            basic, limit = self._basic(yaku_han + dora, fu)
            return self._finish(r, fu_items, listed, yaku_han + dora, fu, dora, 0, basic, limit, False, yaku_han)
        return self._limit_score(r, found, fu, fu_items, dora)

    def _aotenjou_score(self, r: Reading, found, fu: int, fu_items, dora: int, aotenjou) -> _Scored | None:
        """Under 青天井: every yaku's han counted (a yakuman's as the ruleset says), no limit but the cap."""
        closed = r.closed
        listed = [
            YakuHan(
                c.yaku.id,
                c.yaku.name,
                (c.yaku.yakuman * aotenjou["yakuman_han"])
                if c.yaku.yakuman
                else (c.yaku.aotenjou_han or 0)
                if c.yaku.fixed
                else c.listed_closed.han
                if closed
                else c.listed_open.han,
                c.yaku.yakuman,
            )
            for c in found
        ]
        yaku_han = sum(y.han for y in listed)
        han = yaku_han + dora
        cap = aotenjou["cap_basic_4n"] if self.option_values.get("aotenjou-4n") else aotenjou["cap_basic"]
        basic = min(fu * 2 ** (han + 2), cap)
        return self._finish(r, fu_items, listed, han, fu, dora, 0, basic, None, True, yaku_han)

    def _limit_score(self, r: Reading, found, fu: int, fu_items, dora: int) -> _Scored | None:
        """A hand with a yakuman, or a yaku of a fixed limit (人和) scored against the rest."""
        closed = r.closed
        yakuman = [c.yaku for c in found if c.yaku.yakuman]
        if yakuman:
            count = sum(y.yakuman for y in yakuman) if self.ms.yakuman_combine else 1
            per = self.yakuman_han
            listed = [YakuHan(y.id, y.name, per * y.yakuman, y.yakuman) for y in yakuman]
            basic = self.ms.points["yakuman_basic"] * count
            return self._finish(
                r,
                fu_items,
                listed,
                per * count,
                fu,
                dora,
                count,
                basic,
                "役満" if count == 1 else f"{count}倍役満",
                False,
                per,
            )
        fixed = [c.yaku for c in found if c.yaku.fixed]
        ordinary = [c for c in found if not c.yaku.fixed]
        options = []
        if ordinary:
            listed = [c.listed_closed for c in ordinary] if closed else [c.listed_open for c in ordinary]
            yaku_han = sum(y.han for y in listed)
            han = yaku_han + dora
            basic, limit = self._basic(han, fu)
            options.append(self._finish(r, fu_items, listed, han, fu, dora, 0, basic, limit, False, yaku_han))
        for y in fixed:  # 人和: a fixed limit, alone; the hand without it wins if it is worth more
            limit = next(lim for lim in self.ms.points["limits"] if lim["name"] == y.fixed)
            options.append(
                self._finish(
                    r,
                    fu_items,
                    [YakuHan(y.id, y.name, limit["han"])],
                    limit["han"],
                    fu,
                    0,
                    0,
                    limit["basic"],
                    y.fixed,
                    False,
                    limit["han"],
                )
            )
        scored = [o for o in options if o is not None]
        # on equal points the fixed hand is named (the document prefers the other only when higher)
        return max(scored, key=lambda s: (s.basic, s.limit in {y.fixed for y in fixed}), default=None)

    def _finish(
        self, r: Reading, fu_items, listed, han, fu, dora, yakuman, basic, limit, aotenjou, yaku_han
    ) -> _Scored | None:
        shibari = self.ms.shibari
        if shibari and r.win.honba >= shibari[0] and yaku_han < shibari[1]:
            return None
        return _Scored((basic, yakuman, han, fu), r, fu_items, listed, han, fu, dora, yakuman, basic, limit, aotenjou)


class _Scored(NamedTuple):
    """A reading's value, before payments and explanations are worked out for the best one."""

    rank: tuple  # (basic, yakuman, han, fu): a yakuman is named before an equal 数え役満
    reading: Reading
    fu_items: list  # the items its fu are made of
    listed: list
    han: int
    fu: int
    dora: int
    yakuman: int
    basic: int
    limit: str | None
    aotenjou: bool


def _plain_fields(cls: type) -> dict[str, Any] | None:
    """A frozen dataclass's fields and their defaults (MISSING where there is none), or None when
    its instances may not be made by setting their fields at once: it has a __post_init__ or a
    default factory, which its own __init__ would run."""
    fields = dataclasses.fields(cls)
    if hasattr(cls, "__post_init__") or any(f.default_factory is not dataclasses.MISSING for f in fields):
        return None
    return {f.name: f.default for f in fields}


def _made(cls: type, fields: dict[str, Any]) -> Any:
    """An instance of a frozen dataclass with ``fields`` (every one of them), set in one step: the
    dataclass's own __init__ sets each field by a call of its own (a Win's 22 of them were a
    twentieth of a fresh hand's scoring)."""
    made: Any = object.__new__(cls)
    object.__setattr__(made, "__dict__", fields)
    return made


def _maker(cls: type) -> Callable[..., Any]:
    """A maker of a frozen dataclass's instances from keyword values (:func:`_made`). The class
    itself when its fields are not plain (:func:`_plain_fields`), so nothing it checks is passed by."""
    defaults = _plain_fields(cls)
    if defaults is None:
        return cls
    required = [name for name, default in defaults.items() if default is dataclasses.MISSING]

    def make(**values):
        for name in required:
            if name not in values:
                return cls(**values)  # let the class say what is missing
        fields = dict(defaults)
        fields.update(values)
        return _made(cls, fields)

    return make


_new_score = _maker(Score)
_FLAG_NAMES = {key: name for name in WIN_FLAGS for key in (name, name.replace("_", "-"))}  # its keys -> a flag
_PLAIN_WIN = _plain_fields(Win)  # every field but the tile has a plain default
assert _PLAIN_WIN is not None, "win_from_facts sets a Win's fields at once"
_WIN_FIELDS: dict[str, Any] = _PLAIN_WIN
_WIN_NUMBERS = ("honba", "riichi_sticks", "dealer_streak", "nuki")
_WIN_TILES = ("dora_indicators", "ura_indicators", "river")
# the keys whose false value still says something (a round wind of "" is an error, "from" is
# "discarder"'s other name); every other key's false value is its field's default
_FALSE_READ = frozenset({"round", "from", "discarder"})


def win_from_facts(scorer: Scorer, tile: str, facts: Mapping, players: int) -> Win:
    """A Win from the keys of a request or a puzzle's ``win:`` (flags as true values; ``seat``,
    ``round``, ``from``, tiles in notation) — one reading for the CLI, batches and puzzles. Made
    in one pass over the few keys a request holds, its fields set at once: about half the cost
    of looking up every key by name and making the Win through keywords (docs/performance.md)."""
    fields = dict(_WIN_FIELDS)
    fields["tile"], fields["players"] = scorer.tile(tile), players
    for key, value in facts.items():
        if not value and key not in _FALSE_READ:
            continue  # a request holds every option, most of them unset
        flag = _FLAG_NAMES.get(key)
        if flag is not None:
            if value:
                fields[flag] = True
        elif key == "seat" or key == "from" or key == "discarder":
            if value and value not in SEATS[:players]:
                raise MeldsError(f"--{key} {value}: {players} players sit {', '.join(SEATS[:players])}")
            if key == "seat":
                fields["seat"] = value or "E"
            else:
                fields["discarder"] = facts.get("discarder") or facts.get("from")
        elif key == "round":
            if str(value) not in SEATS:
                raise MeldsError(f"round wind {value!r}: give E, S, W or N")
            fields["round_wind"] = value or "E"
        elif key in _WIN_NUMBERS:
            if value:
                fields[key] = int(value)
        elif key in _WIN_TILES:
            if value:
                fields[key] = scorer.tiles(value)
        elif key == "furiten":
            fields["furiten"] = bool(value)
    win = _made(Win, fields)
    if win.tsumo and win.discarder:
        raise MeldsError("a tsumo has no discarder: drop --from or --tsumo")
    if win.discarder == win.seat:
        raise MeldsError("the winner cannot deal in to themself")
    return win
