"""Game state files: whose turn, the hands, the table, the discards, the stock, per-player flags.

A state is YAML (``rulesets/state.schema.json``, documented in docs/state-format.md), loaded by
:mod:`solver.core.files` with file and line like a ruleset. Cards stay in their written form
here; each game's moves parse them with its notation. A hand is a string of cards (known) or a
number (hidden: only its size is known).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

from solver.core.chosen import given_values
from solver.core.errors import Location, SchemaError
from solver.core.files import Document, load_document
from solver.core.ruleset import Ruleset
from solver.core.yamlload import line_of


@dataclass(frozen=True)
class TableWord:
    owner: str
    cards: str


@dataclass(frozen=True)
class GameState:
    ruleset: Ruleset
    players: tuple[str, ...]
    turn: str
    step: str  # draw: the turn's draw is to come; play: the player has drawn
    hands: Mapping[str, str | int]  # known cards, or the size of a hidden hand
    table: tuple[TableWord, ...] = ()
    discards: tuple[str, ...] = ()  # bottom to top
    stock: int = 0
    taken: str | None = None  # the card taken from the discard pile this turn
    flags: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    melds_this_turn: int = 0
    discarded_by: str | None = None  # who made the top discard
    params: Mapping[str, str] = field(default_factory=dict)  # the ruleset's query parameters, as written
    loose: str = ""  # tiles left face up on the table, outside any meld (a relief action's)
    last_lap: bool = False  # the stock has run out: the last lap is played
    turn_start_table: tuple[TableWord, ...] | None = None  # the table as the turn began (rearranging)
    facts: Mapping[str, Any] = field(default_factory=dict)  # game-level facts (mahjong: round, kans, claims)
    path: str = "<state>"
    data: Mapping[str, Any] | None = field(default=None, compare=False, repr=False)  # the file's, with lines

    def flag(self, player: str, name: str) -> Any:
        return self.flags.get(player, {}).get(name, False)

    def with_flag(self, player: str, name: str, value: Any) -> GameState:
        own = dict(self.flags.get(player, {}))
        own[name] = value
        return self.but(flags={**self.flags, player: own})

    def but(self, **changes: Any) -> GameState:
        """The state with these fields changed: what ``dataclasses.replace`` gives, without its
        checks (a replay makes a state per action; the fields are the state's own)."""
        new = object.__new__(GameState)
        new.__dict__.update(self.__dict__)
        new.__dict__.update(changes)
        return new

    @property
    def next_player(self) -> str:
        return self.players[(self.players.index(self.turn) + 1) % len(self.players)]

    @property
    def previous_player(self) -> str:
        return self.players[(self.players.index(self.turn) - 1) % len(self.players)]

    def to_json(self, extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The state as JSON (docs/state-format.md); ``extra``: the keys a game's states add."""
        out: dict[str, Any] = {
            "ruleset": self.ruleset.id,
            "players": list(self.players),
            "turn": self.turn,
            "step": self.step,
            "hands": dict(self.hands),
            "table": [{"owner": t.owner, "cards": t.cards} for t in self.table],
            "discards": list(self.discards),
            "stock": self.stock,
            "taken": self.taken,
            "flags": {p: dict(f) for p, f in self.flags.items() if f},
        }
        if self.ruleset.options:
            out["options"] = {
                k: v for k, v in self.ruleset.option_values.items() if v != self.ruleset.options[k].default
            }
        out.update(self.params)
        out.update(extra or {})
        if self.melds_this_turn:
            out["melds_this_turn"] = self.melds_this_turn
        if self.discarded_by:
            out["discarded_by"] = self.discarded_by
        if self.facts:
            out["facts"] = dict(self.facts)
        return out


def _text(value: Any) -> str:
    return " ".join(value) if isinstance(value, list) else str(value)


def state_of(document: Document) -> GameState:
    """The game state a state file describes."""
    return state_from_data(document.data, document.path, document.ruleset)


def state_from_data(data: Mapping[str, Any], path: Path, ruleset: Ruleset) -> GameState:
    """A state from validated data (a file's, or a ruleset claim's)."""
    players = tuple(str(p) for p in data["players"])

    def fail(container: Any, key: Any, message: str) -> NoReturn:
        raise SchemaError(message, Location(str(path), line_of(container, key), str(key)))

    if len(set(players)) != len(players):
        fail(data, "players", "a player is listed twice")
    if data["turn"] not in players:
        fail(data, "turn", f"turn: {data['turn']!r} is not one of the players ({', '.join(players)})")
    hands = {}
    for p, h in data["hands"].items():
        if str(p) not in players:
            fail(data["hands"], p, f"hands: {p!r} is not one of the players")
        hands[str(p)] = h if isinstance(h, int) else _text(h)
    for p in players:
        if p not in hands:
            fail(data, "hands", f"hands: no hand for {p}")
    flags = {str(p): dict(f) for p, f in (data.get("flags") or {}).items()}
    for p in flags:
        if p not in players:
            fail(data["flags"], p, f"flags: {p!r} is not one of the players")
    table = tuple(TableWord(str(t["owner"]), _text(t["cards"])) for t in data.get("table", []))
    discards = data.get("discards", "")
    if isinstance(discards, str):
        discards = discards.split()
    return GameState(
        ruleset=ruleset,
        players=players,
        turn=str(data["turn"]),
        step=data.get("step", "draw"),
        hands=hands,
        table=table,
        discards=tuple(str(d) for d in discards),
        stock=int(data.get("stock", 0)),
        taken=data.get("taken"),
        flags=flags,
        melds_this_turn=int(data.get("melds_this_turn", 0)),
        discarded_by=data.get("discarded_by"),
        params={name: str(v) for name, (_, v) in given_values(ruleset.parameters, data).items() if v},
        loose=_text(data.get("loose", "")),
        last_lap=bool(data.get("last_lap", False)),
        facts=dict(data.get("facts") or {}),
        path=str(path),
        data=data,
    )


def load_state(path: str | Path) -> GameState:
    document = load_document(path)
    if not document.state:
        raise SchemaError(
            "not a game state: a state file says whose turn it is (turn:) and who plays (players:)",
            Location(str(path), getattr(document.data, "line", 1)),
        )
    return state_of(document)
