"""Game state files: whose turn, the hands, the table, the discards, the stock, per-player flags.

A state is YAML (``rulesets/state.schema.json``, documented in docs/state-format.md), validated
with file and line like a ruleset. Cards stay in their written form here; each game's moves
(:mod:`solver.melding.moves`) parse them with the ruleset's notation. A hand is a string of cards
(known) or a number (hidden: only its size is known).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Mapping

from solver.core.errors import Location, SchemaError
from solver.melding.puzzle import puzzle_ruleset
from solver.core.ruleset import Ruleset
from solver.core.schema import validate
from solver.core.yamlload import line_of, load_file

FLAGS = ("melded", "seen", "dublee", "has_word", "relief_used", "riichi")


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
    tiplu: str | None = None
    loose: str = ""  # word games: tiles left face up by relief actions
    last_lap: bool = False
    turn_start_table: tuple[TableWord, ...] | None = None  # word games: the table when the turn began
    facts: Mapping[str, Any] = field(default_factory=dict)  # game-level facts (mahjong: round, kans, claims)
    path: str = "<state>"

    def flag(self, player: str, name: str) -> Any:
        return self.flags.get(player, {}).get(name, False)

    def with_flag(self, player: str, name: str, value: Any) -> "GameState":
        flags = {p: dict(f) for p, f in self.flags.items()}
        flags.setdefault(player, {})[name] = value
        return replace(self, flags=flags)

    @property
    def next_player(self) -> str:
        return self.players[(self.players.index(self.turn) + 1) % len(self.players)]

    @property
    def previous_player(self) -> str:
        return self.players[(self.players.index(self.turn) - 1) % len(self.players)]

    def to_json(self) -> dict:
        out: dict[str, Any] = {
            "ruleset": self.ruleset.id, "players": list(self.players), "turn": self.turn, "step": self.step,
            "hands": dict(self.hands), "table": [{"owner": t.owner, "cards": t.cards} for t in self.table],
            "discards": list(self.discards), "stock": self.stock, "taken": self.taken,
            "flags": {p: dict(f) for p, f in self.flags.items() if f},
        }
        if self.ruleset.options:
            out["options"] = {k: v for k, v in self.ruleset.option_values.items()
                              if v != self.ruleset.options[k].default}
        if self.tiplu:
            out["tiplu"] = self.tiplu
        if self.ruleset.words is not None:
            out.update(loose=self.loose, last_lap=self.last_lap)
        if self.melds_this_turn:
            out["melds_this_turn"] = self.melds_this_turn
        if self.discarded_by:
            out["discarded_by"] = self.discarded_by
        if self.facts:
            out["facts"] = dict(self.facts)
        return out

    def to_yaml_data(self) -> dict:
        data = {"format": 1, **self.to_json()}
        if not data.get("options"):
            data.pop("options", None)
        return data


def _text(value: Any) -> str:
    return " ".join(value) if isinstance(value, list) else str(value)


def state_from_data(data: Mapping, path: Path, ruleset: Ruleset | None = None) -> GameState:
    """A state from validated data (a file's, or an action's result)."""
    ruleset = ruleset or puzzle_ruleset(path, dict(data))
    players = tuple(str(p) for p in data["players"])

    def fail(container, key, message):
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
        ruleset=ruleset, players=players, turn=str(data["turn"]), step=data.get("step", "draw"),
        hands=hands, table=table, discards=tuple(str(d) for d in discards), stock=int(data.get("stock", 0)),
        taken=data.get("taken"), flags=flags, melds_this_turn=int(data.get("melds_this_turn", 0)),
        discarded_by=data.get("discarded_by"), tiplu=data.get("tiplu"), loose=_text(data.get("loose", "")),
        last_lap=bool(data.get("last_lap", False)), facts=dict(data.get("facts") or {}), path=str(path))


def is_state_file(path: str | Path) -> bool:
    """A game state (for melds move), not a puzzle: it says whose turn it is."""
    data = load_file(Path(path))
    return isinstance(data, dict) and "turn" in data and "players" in data


def load_state(path: str | Path) -> GameState:
    path = Path(path)
    data = load_file(path)
    validate(data, "state.schema.json", str(path))
    return state_from_data(data, path)
