"""Riichi mahjong's own ruleset sections: winning hand shapes, declared melds, the rule on closed
kans after riichi, guest winds, 北抜き (``nuki_dora``), tenpai, and ``mahjong_scoring`` (yaku, fu,
points, sticks, 青天井).

Each yaku is a hand-pattern primitive with its parameters (``pattern``, interpreted by
:mod:`solver.games.mahjong.yaku`) and its value; every number comes from the ruleset.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from solver.core.reader import RuleReader
from solver.core.source import Source
from solver.games.mahjong.flow import GameFlow, read_flow


@dataclass(frozen=True)
class DeclaredKind:
    """A meld a player may declare (mahjong: chi, pon, open kan, closed kan)."""

    id: str
    name: str
    kind: str
    open: bool
    source: Source | None
    allowed: bool = True  # false: the document forbids it (三人麻雀: チーは不可)


@dataclass(frozen=True)
class ShapePart:
    """One kind of part a hand shape is made of: its meld kinds and how many of them."""

    kinds: tuple[str, ...]
    count: int
    declared: bool  # declared melds count toward this part


@dataclass(frozen=True)
class HandShape:
    """A winning shape: parts of given kinds and counts; 'closed' allows no declared meld;
    'distinct' allows no two parts of one identity (seven distinct pairs)."""

    id: str
    name: str
    parts: tuple[ShapePart, ...]
    closed: bool
    distinct: bool
    source: Source | None


@dataclass(frozen=True)
class RiichiKan:
    """When a riichi hand may declare a closed kan (立直後の暗槓), and the sentences that say so."""

    rule: str  # waits-unchanged | decompositions-unchanged
    general_rule: str
    no_okuri_kan: bool
    examples: tuple[Source, ...]
    source: Source | None


@dataclass(frozen=True)
class NukiDora:
    """抜きドラ (三人麻雀's 北抜き): on one's turn a tile of this kind is set aside beside the hand,
    counts ``dora`` dora for its player (and, being that tile, whatever the dora indicators make
    it), and is replaced by a draw from the dead wall."""

    tile: str  # the rank set aside (北)
    dora: int  # dora each tile set aside counts
    ron: bool  # another player may win on it before the replacement draw
    chankan: bool  # … and that win counts 槍槓
    rinshan: bool  # a tsumo on the replacement draw is 嶺上開花
    call: bool  # it interrupts the play as a call does: every ippatsu and the first go-around end
    source: Source | None


@dataclass(frozen=True)
class Yaku:
    """One yaku of a mahjong ruleset: a hand-pattern primitive with its parameters
    (``pattern``, interpreted by :mod:`solver.games.mahjong.scoring`) and its value."""

    id: str
    name: str
    han: int  # closed; 0 for yakuman and fixed hands
    open_han: int | None  # None: closed only (門前役); yakuman: 1 when open is allowed
    open_if: Mapping[str, Any]  # option values under which the open han applies
    yakuman: int  # 0 for ordinary yaku
    fixed: str | None  # a fixed limit hand (人和: 倍満), not combined with other yaku
    aotenjou_han: int | None
    pattern: Mapping[str, Any]
    excludes: tuple[str, ...]
    source: Source | None


@dataclass(frozen=True, eq=False)
class MahjongScoring:
    """The scoring section of a mahjong ruleset: yaku, fu, points, sticks, 青天井."""

    yaku: tuple[Yaku, ...]
    winds: tuple[str, ...]
    dragons: tuple[str, ...]
    green: tuple[str, ...]
    honour_cycles: tuple[tuple[str, ...], ...]
    red_fives: int
    fu: Mapping[str, Any]
    points: Mapping[str, Any]
    honba: int
    riichi_stick: int
    noten_penalty: int
    nagashi: Mapping[str, int]
    shibari: tuple[int, int] | None  # (from honba, han) when the option enables it
    three_player_split: bool
    yakuman_combine: bool
    aotenjou: Mapping[str, Any] | None  # when the option enables it
    sources: Mapping[str, Source | None]


@dataclass(frozen=True, eq=False)
class MahjongRules:
    """The mahjong sections of a ruleset: hand shapes, declared melds, riichi kans, scoring."""

    hand_shapes: tuple[HandShape, ...]
    declared_melds: tuple[DeclaredKind, ...]
    tenpai_source: Source | None
    riichi_kan: RiichiKan | None
    guest_winds: tuple[str, ...]
    mahjong_scoring: MahjongScoring | None
    flow: GameFlow | None = None  # a whole game's flow (mahjong_game:), for replaying game records
    nuki_dora: NukiDora | None = None  # 北抜き: the tile a player may set aside as a dora


def read_rules(reader: RuleReader) -> MahjongRules:
    d = reader.data
    for key in ("deck", "roles", "melds"):
        reader.require(key, "the tiles and the parts of a hand are meld kinds")
    reader.require("hand_shapes", "the winning shapes of a hand")
    return MahjongRules(
        hand_shapes=read_shapes(reader, d["hand_shapes"]),
        declared_melds=tuple(
            DeclaredKind(
                m["id"],
                m.get("name", m["id"]),
                reader.check_ids([m["kind"]], reader.kind_ids, "meld kind", f"declared_melds[{i}].kind")[0],
                m["open"],
                reader.source(m),
                bool(m.get("allowed", True)),
            )
            for i, m in enumerate(d.get("declared_melds", []))
        ),
        tenpai_source=reader.source(d.get("tenpai")),
        riichi_kan=read_riichi_kan(reader, d.get("riichi_kan")),
        guest_winds=tuple(g["rank"] for g in d.get("guest_winds", [])),
        mahjong_scoring=read_scoring(reader, d.get("mahjong_scoring")),
        flow=read_flow(reader, d.get("mahjong_game")),
        nuki_dora=read_nuki_dora(reader, d.get("nuki_dora")),
    )


def read_nuki_dora(reader: RuleReader, raw: Mapping | None) -> NukiDora | None:
    if raw is None:
        return None
    reader.check_ids([raw["tile"]], [r.id for r in reader.deck.ranks], "rank", "nuki_dora.tile")
    return NukiDora(
        str(raw["tile"]),
        int(raw.get("dora", 1)),
        bool(raw.get("ron", True)),
        bool(raw.get("chankan", False)),
        bool(raw.get("rinshan", True)),
        bool(raw.get("call", True)),
        reader.source(raw),
    )


def read_shapes(reader: RuleReader, raw: list) -> tuple[HandShape, ...]:
    out = []
    for i, h in enumerate(raw):
        parts = []
        for j, p in enumerate(h["parts"]):
            reader.check_ids(p["kinds"], reader.kind_ids, "meld kind", f"hand_shapes[{i}].parts[{j}].kinds")
            parts.append(ShapePart(tuple(p["kinds"]), p["count"], bool(p.get("declared", False))))
        out.append(
            HandShape(
                h["id"],
                h.get("name", h["id"]),
                tuple(parts),
                bool(h.get("closed", False)),
                bool(h.get("distinct", False)),
                reader.source(h),
            )
        )
    return tuple(out)


def read_riichi_kan(reader: RuleReader, raw: Mapping | None) -> RiichiKan | None:
    if raw is None:
        return None
    examples = tuple(Source(e.get("doc") or reader.document_of(e), e["quote"]) for e in raw.get("examples", []))
    return RiichiKan(
        raw["rule"],
        raw.get("general_rule", "decompositions-unchanged"),
        bool(raw.get("no_okuri_kan", True)),
        examples,
        reader.source(raw),
    )


def read_scoring(reader: RuleReader, raw: Mapping | None) -> MahjongScoring | None:
    if raw is None:
        return None
    for key in ("fu", "points", "yaku"):
        if key not in raw:
            reader.fail(reader.data, "mahjong_scoring", f"mahjong_scoring needs '{key}'", "mahjong_scoring")
    yaku = []
    for yid, y in raw["yaku"].items():
        where = f"mahjong_scoring.yaku.{yid}"
        if not reader.enabled(y, where):  # a yaku the options leave out (a table without local yaku)
            continue
        open_if = reader.condition(y, where, key="open_if")
        opened = y.get("open")
        if y.get("yakuman"):
            open_han = 1 if opened is True else None
        else:
            open_han = opened if isinstance(opened, int) and not isinstance(opened, bool) else None
            if opened is True:
                reader.fail(y, "open", "open: true is for yakuman; give the open han", f"{where}.open")
        if not y.get("yakuman") and not y.get("fixed") and "han" not in y:
            reader.fail(raw["yaku"], yid, "a yaku needs han, yakuman or fixed", where)
        yaku.append(
            Yaku(
                yid,
                y["name"],
                y.get("han", 0),
                open_han,
                open_if,
                y.get("yakuman", 0),
                y.get("fixed"),
                y.get("aotenjou_han"),
                dict(y["pattern"]),
                tuple(y.get("excludes", ())),
                reader.source(y),
            )
        )
    ids = [y.id for y in yaku]
    for y in yaku:
        reader.check_ids(list(y.excludes), ids, "yaku", f"mahjong_scoring.yaku.{y.id}.excludes")
    shibari = raw.get("shibari")
    aotenjou = raw.get("aotenjou")
    dora = raw.get("dora", {})
    sources = {k: reader.source(v) for k, v in raw.items() if isinstance(v, Mapping)}
    for key in ("open_pinfu_source", "double_wind_pair_source"):
        sources[key] = reader.source({"source": raw["fu"][key]}) if key in raw["fu"] else None
    return MahjongScoring(
        tuple(yaku),
        tuple(raw.get("winds", ())),
        tuple(raw.get("dragons", ())),
        tuple(raw.get("green", ())),
        tuple(tuple(c) for c in dora.get("honour_cycles", ())),
        dora.get("red_fives", 0),
        dict(raw["fu"]),
        dict(raw["points"]),
        raw.get("honba", {}).get("points", 0),
        raw.get("riichi_stick", {}).get("points", 0),
        raw.get("noten_penalty", {}).get("points", 0),
        {k: raw["nagashi_mangan"][k] for k in ("dealer", "other")} if "nagashi_mangan" in raw else {},
        (shibari["honba"], shibari["han"]) if shibari and reader.enabled(shibari, "mahjong_scoring.shibari") else None,
        "three_player_tsumo" in raw,
        raw.get("yakuman", {}).get("combine", True),
        dict(aotenjou) if aotenjou and reader.enabled(aotenjou, "mahjong_scoring.aotenjou") else None,
        sources,
    )
