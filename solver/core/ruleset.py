"""Rulesets: what a game is, as data read from YAML, and how they are found and loaded.

A ruleset file names its game family (``game:``, inherited through ``extends:``; ``rummy`` when
absent); the registry (:mod:`solver.core.registry`) maps the name to the game's package. The
sections every game shares are read by :mod:`solver.core.sections`, the game's own sections by
its package into :attr:`Ruleset.rules`. Options (the variants in a document's notes) are resolved
when the ruleset is built: ``load_ruleset(ref, {"decks": 2})`` is the two-deck game, built once
and cached.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

from solver.core import cache, inputs, limits, registry
from solver.core.deck import Deck, Face
from solver.core.errors import BadOption, Location, SchemaError, UnknownRuleset
from solver.core.reader import RuleReader, condition_holds
from solver.core.rules import (
    Assumption,
    Bonus,
    CardPoints,
    ChosenCard,
    Claim,
    Deal,
    Goal,
    HandSize,
    InitialMeld,
    LayoffRule,
    MeldKind,
    MoveRules,
    Option,
    Phase,
    Role,
    RoundScoring,
    TableRule,
    TurnEntry,
    TurnRule,
)
from solver.core.schema import validate
from solver.core.sections import read_common
from solver.core.source import Source
from solver.core.yamlload import LDict, LList, line_of, load_file, merged

BUNDLED_DIR = Path(__file__).resolve().parent.parent.parent / "rulesets"


@dataclass(frozen=True, eq=False)  # compared by identity, like Deck: built once per file and options
class Ruleset:
    id: str
    name: str
    name_en: str | None
    document: str
    document_title: str | None
    path: str
    game: str  # the registry name of the game family that reads it
    players: tuple[int, int] | None
    options: Mapping[str, Option]
    option_values: Mapping[str, Any]
    assumptions: tuple[Assumption, ...]
    deck: Deck
    cycles: Mapping[str, tuple[str, ...]]
    phases: tuple[Phase, ...]
    roles: Mapping[str, Role]
    all_kinds: tuple[MeldKind, ...]
    kinds: tuple[MeldKind, ...]  # the kinds enabled by the option values
    ambiguity_source: Source | None
    ambiguity_rule: str
    deal: Deal | None
    card_points: tuple[CardPoints, ...]
    turn_entries: tuple[TurnEntry, ...]
    layoff_rules: tuple[LayoffRule, ...]
    objective: tuple[Goal, ...]
    round_scorings: tuple[RoundScoring, ...]
    parameters: Mapping[str, ChosenCard]  # query parameters: the cards chosen during the game
    moves: MoveRules | None
    claims: tuple[Claim, ...]
    table: TableRule | None = None  # how the table's melds may change in a turn (table:)
    initial_meld: InitialMeld | None = None  # what a player's first meld must be worth (initial_meld:)
    rules: Any = None  # the game's own sections, as its package reads them (Game.read_rules)
    ambiguity_stated: bool = False  # the ruleset has an ambiguity: section (cited or not)
    compiled: tuple[str, str] | None = None  # a bundled ruleset's cache entry (kind, key); models are kept beside it

    @cached_property  # read by every turn solved: made once (the instance's own attribute after)
    def going_out_only_kinds(self) -> bool:
        """Is an enabled kind melded only in a turn that goes out (``going_out_only``)?"""
        return any(kind.going_out_only for kind in self.kinds)

    @property
    def label(self) -> str:
        return f"{self.name} ({self.name_en})" if self.name_en else self.name

    def kind(self, kind_id: str) -> MeldKind:
        for kind in self.all_kinds:
            if kind.id == kind_id:
                return kind
        raise KeyError(kind_id)

    def holds(self, condition: Mapping[str, Any]) -> bool:
        """Does an ``if:`` condition (option id -> value) hold under this ruleset's options?"""
        return condition_holds(self.option_values, condition)

    def hand_size(self, players: int) -> int:
        """Cards dealt to each player for a player count, under the current options."""
        if self.deal is None:
            raise BadOption(f"ruleset {self.id} has no deal table")
        entry = self._deal_entry(players)
        if entry is None:
            raise BadOption(f"{self.label} is not played by {players} players")
        return entry.cards

    def _deal_entry(self, players: int) -> HandSize | None:
        """The deal entry for a player count (the first that matches it under the options)."""
        assert self.deal is not None
        return next((e for e in self.deal.hand_sizes if players in e.players and self.holds(e.condition)), None)

    @cached_property
    def _turn_rules(self) -> dict[tuple[str, int | None], TurnRule]:
        return {}  # turn_rule's answers (every query asks one)

    def turn_rule(self, kind: str, in_hand: int | None = None) -> TurnRule:
        """The rule for a normal turn or one that claimed a discard, played from a hand of
        ``in_hand`` cards, under the options: the matching entries merged, the first entry that
        sets a field deciding it."""
        known = self._turn_rules.get((kind, in_hand))
        if known is None:
            known = self._turn_rules[kind, in_hand] = self._merged_turn_rule(kind, in_hand)
        return known

    def _merged_turn_rule(self, kind: str, in_hand: int | None) -> TurnRule:
        fields: dict[str, Any] = {}
        sources = []
        for entry in self.turn_entries:
            if entry.applies(kind, in_hand) and self.holds(entry.condition):
                new = {k: v for k, v in entry.fields.items() if k not in fields}
                if new:
                    fields.update(new)
                    sources.append(entry.source)
        if "discard" not in fields:
            raise BadOption(f"{self.label} says nothing of how a {kind} turn ends")
        return TurnRule(kind, sources=tuple(sources), **fields)

    @property
    def rearranges(self) -> bool:
        """Does a turn lay out the whole table and the hand's cards again (``table: {rearrange: free}``)?"""
        return self.table is not None and self.table.rearrange == "free"

    @cached_property
    def largest_hand(self) -> tuple[int, HandSize] | None:
        """The most cards a hand can hold at a turn, and the deal entry that says so: the largest
        deal under the options, and the cards a turn draws (``deal.draws``) — when a turn from such a
        hand ends with a discard (else hands grow, and nothing bounds them). None without a deal
        table, or when a turn may take the whole discard pile (``draws: pile``)."""
        if self.deal is None or self.deal.draws is None:
            return None
        counts = sorted({n for entry in self.deal.hand_sizes for n in entry.players})
        dealt = [e for n in counts if (e := self._deal_entry(n)) is not None]  # the first entry per count
        if not dealt:
            return None
        most = max(dealt, key=lambda e: e.cards)
        for kind in ("normal", "claimed"):
            try:
                if self.turn_rule(kind, most.cards + self.deal.draws).discard == "none":
                    return None
            except BadOption:
                continue  # no rule for such turns: the game has none
        return most.cards + self.deal.draws, most

    def layoff_rule(self) -> LayoffRule | None:
        return next((r for r in self.layoff_rules if self.holds(r.condition)), None)

    def points(self, face: Face, params: Mapping[str, Any] | None = None) -> int:
        """The card-point value of a face (deadwood or penalty value), under the chosen cards a
        query names (``params``: an entry may price cards by their relation to them)."""
        related = self.relations(face, params)
        for entry in self.card_points:
            if entry.matches(face, related):
                if entry.points == "rank":
                    assert face.rank is not None, f"{face} has no rank to count"
                    value = self.deck.rank(face.rank).value
                    return int(value if value is not None else face.rank)
                return int(entry.points)
        return 0

    def relations(self, face: Face, params: Mapping[str, Any] | None) -> frozenset[str]:
        """The card's relations to the chosen cards ``params`` names (none without)."""
        if not params:
            return frozenset()
        return frozenset(
            r for name, chosen in self.parameters.items() for r in chosen.relations_of(face, params.get(name))
        )

    def scoring_systems(self) -> list[RoundScoring]:
        """The round-scoring systems in force under the options."""
        return [r for r in self.round_scorings if self.holds(r.condition)]

    def one_go_bonus(self, system: RoundScoring) -> Bonus | None:
        return next((b for b in system.one_go if self.holds(b.condition)), None)


# --------------------------------------------------------------------------------------------
# Finding and loading


def bundled_rulesets() -> list[Path]:
    return sorted(p for p in BUNDLED_DIR.glob("*.yaml"))


def looks_like_path(ref: str) -> bool:
    """A reference names a file when it looks like one (it holds a ``/`` or ends in .yaml, .yml or
    .json); anything else is a bundled id, whatever files or folders the working folder holds."""
    return "/" in ref or "\\" in ref or ref.lower().endswith((".yaml", ".yml", ".json"))


def resolve_path(ref: str) -> Path:
    """A ruleset reference is a bundled id or a path to a YAML file."""
    if not isinstance(ref, str) or not ref.strip():
        raise UnknownRuleset(f"a ruleset is named by an id or a path, got {ref!r}")
    if looks_like_path(ref):
        return inputs.require(ref, "ruleset file", UnknownRuleset)
    bundled = BUNDLED_DIR / f"{ref}.yaml"
    if ref.isprintable() and "\0" not in ref and bundled.is_file():
        return bundled
    known = ", ".join(p.stem for p in bundled_rulesets())
    shown = ref if len(ref) <= 60 else ref[:57] + "…"
    raise UnknownRuleset(
        f"unknown ruleset {shown!r}; bundled rulesets: {known} (or give a path: it holds a / or ends in .yaml)"
    )


@lru_cache(maxsize=32)
def _load_raw(path: str, mtime: float, chain: tuple[str, ...] = ()) -> Any:
    """A ruleset file's data, validated, with the ruleset it ``extends`` laid under it; ``chain``:
    the files that extend it, nearest last (a cycle is named with its path)."""
    data = load_file(path)
    validate(data, "ruleset.schema.json", path)
    if "extends" in data:
        ref = data["extends"]
        where = Location(path, line_of(data, "extends"), "extends")
        is_path = looks_like_path(ref)
        base_path = (Path(path).parent / ref) if is_path else resolve_path(ref)
        why = inputs.problem(base_path, "ruleset file")
        if why:
            raise UnknownRuleset(f"{where}: extends {ref!r} — {why}")
        here = str(Path(path).resolve())
        base = str(base_path.resolve())
        seen = (*chain, here)
        if base in seen:
            cycle = " → ".join(Path(p).name for p in (*seen[seen.index(base) :], base))
            raise SchemaError(f"rulesets extend each other in a cycle: {cycle}", where)
        if len(seen) > limits.RULESET_EXTENDS:
            raise SchemaError(f"more than {limits.RULESET_EXTENDS} rulesets extend one another", where)
        base_data = _load_raw(str(base_path), base_path.stat().st_mtime, seen)
        child = {k: v for k, v in data.items() if k != "extends"}
        if isinstance(base_data.get("assumptions"), list) and isinstance(child.get("assumptions"), list):
            child["assumptions"] = _joined(base_data["assumptions"], child["assumptions"])  # assumptions add up
        data = merged({k: v for k, v in base_data.items() if k != "extends"}, child)
        if "document" not in data:
            raise SchemaError("missing required key 'document'", Location(path, 1))
        data.documents = {**base_data.documents, path: data["document"]["file"]}
    elif isinstance(data, LDict) and isinstance(data.get("document"), dict):
        data.documents = {path: data["document"]["file"]}
    return data


def _joined(base: list[Any], more: list[Any]) -> list[Any]:
    """The base's list with the extension's items after it, each item's line and file kept."""
    out = LList(base + more)
    out.line, out.file = getattr(more, "line", None), getattr(more, "file", None)
    out.lines = list(getattr(base, "lines", [None] * len(base))) + list(getattr(more, "lines", [None] * len(more)))
    return out


def raw_game(ref: str) -> str:
    """The game a ruleset names, read without building it (the command line needs it to know the
    game's options before it parses them); a bundled ruleset's from its compiled form."""
    path = resolve_path(ref)
    if _bundled(str(path)):
        return load_ruleset(ref).game
    return str(_load_raw(str(path), path.stat().st_mtime).get("game") or registry.default_game())


def ruleset_data(ruleset: Ruleset) -> Any:
    """A ruleset file's data as read, with the ruleset it extends laid under it (for tools that
    read what no game reads: melds audit's own section)."""
    path = Path(ruleset.path)
    return _load_raw(str(path), path.stat().st_mtime)


def load_ruleset(ref: str, options: Mapping[str, Any] | None = None) -> Ruleset:
    """Load, validate and build a ruleset by id or path, with option values applied."""
    path = resolve_path(ref)
    return _build_cached(str(path), path.stat().st_mtime, tuple(sorted((options or {}).items())))


@lru_cache(maxsize=64)
def _build_cached(path: str, mtime: float, options: tuple[tuple[str, Any], ...]) -> Ruleset:
    """A ruleset built once per process; a bundled one also kept compiled across processes
    (solver.core.cache), keyed by the bytes of every bundled ruleset and by melds' code."""
    if not _bundled(path):
        return _build(path, mtime, options)
    kind = f"ruleset.{Path(path).stem}.{hashlib.sha256(repr(options).encode()).hexdigest()[:8]}"
    key = cache.key_of(_bundled_bytes(), path, repr(options))
    compiled = cache.load(kind, key)
    if isinstance(compiled, Ruleset) and compiled.path == path:
        return compiled
    ruleset = replace(_build(path, mtime, options), compiled=(kind, key))
    cache.store(kind, key, ruleset)
    return ruleset


def _bundled(path: str) -> bool:
    try:
        return Path(path).resolve().parent == BUNDLED_DIR
    except OSError:
        return False


@lru_cache(maxsize=1)  # no arguments: one value
def _bundled_bytes() -> bytes:
    """Every bundled ruleset file's bytes, hashed: a compiled ruleset is stale when any changed (a
    ruleset may extend another)."""
    digest = hashlib.sha256()
    for path in bundled_rulesets():
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.digest()


def _build(path: str, mtime: float, options: tuple[tuple[str, Any], ...]) -> Ruleset:
    data = _load_raw(path, mtime)
    reader = RuleReader(path, data)
    common = read_common(reader, dict(options))
    game_name = str(data.get("game") or registry.default_game())
    game = registry.game_type(game_name, where=Location(path, line_of(data, "game")))
    rules = game.read_rules(reader)
    reader.refuse_unread(game_name)
    d = data
    return Ruleset(
        id=d["id"],
        name=d["name"],
        name_en=d.get("name_en"),
        document=reader.doc,
        document_title=d["document"].get("title"),
        path=path,
        game=game_name,
        rules=rules,
        **common,
    )


def with_options(ruleset: Ruleset, options: Mapping[str, Any]) -> Ruleset:
    """The same ruleset file built with other option values."""
    values = {**{k: v for k, v in ruleset.option_values.items() if v != ruleset.options[k].default}, **options}
    return load_ruleset(ruleset.path, values)
