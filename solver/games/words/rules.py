"""Word rummy's own ruleset section (``words:``): the tiles the options enable, the small kana a
tile stands for, word lengths, the turn, scoring, and the default dictionary.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from solver.core.reader import RuleReader
from solver.core.source import Source


@dataclass(frozen=True)
class WordTiles:
    """One group of tile kinds of a word game (one character a tile)."""

    tiles: str
    mark: bool  # the ゛/゜ tiles: a voiced kana is its base tile plus a mark tile
    source: Source | None


@dataclass(frozen=True, eq=False)
class WordGame:
    """A word game's rules (``words:``): the tiles the options enable, which tiles may stand for
    small kana, word lengths, the turn, scoring and the default dictionary."""

    tiles: tuple[WordTiles, ...]
    copies: int  # of each tile kind; 0: not limited
    small_kana: Mapping[str, str]  # small kana -> the tile that stands for it
    small_sources: tuple[Source | None, ...]
    hand_sizes: tuple[tuple[int, int, int, Source | None], ...]  # (min players, max players, tiles)
    min_length: Mapping[str, int]  # word, table, last_lap, bonus
    words_from_hand: int
    relief: Mapping[str, int]  # discard, draw, per_turn
    no_word_draw: int
    timeout_draw: int  # the penalty draw when time runs out while arranging (FAQ 2)
    left_in_hand: int
    bonus_tile: int
    dictionary_file: Path
    dictionary_name: str
    dictionary_licence: str | None
    sources: Mapping[str, Source | None]  # rule name -> its source

    @property
    def tile_kinds(self) -> str:
        return "".join(t.tiles for t in self.tiles)

    @property
    def marks(self) -> str:
        return "".join(t.tiles for t in self.tiles if t.mark)


def read_rules(reader: RuleReader) -> WordGame:
    raw = reader.require("words", "the tiles, word lengths, turn and scoring of a word game")
    tiles = tuple(
        WordTiles(t["tiles"], bool(t.get("mark")), reader.source(t))
        for i, t in enumerate(raw["tiles"])
        if reader.enabled(t, f"words.tiles[{i}]")
    )
    kinds = "".join(t.tiles for t in tiles)
    if len(set(kinds)) != len(kinds):
        reader.fail(raw, "tiles", "a tile kind is listed twice under these options", "words.tiles")
    small: dict[str, str] = {}
    small_sources = []
    for i, g in enumerate(raw.get("small_kana", [])):
        if len(g["tiles"]) != len(g["small"]):
            reader.fail(g, "small", "small needs one kana for each tile", f"words.small_kana[{i}]")
        for tile in g["tiles"]:
            if tile not in kinds:
                reader.fail(g, "tiles", f"{tile} is not a tile of the set", f"words.small_kana[{i}]")
        if reader.enabled(g, f"words.small_kana[{i}]"):
            small.update(zip(g["small"], g["tiles"], strict=True))
            small_sources.append(reader.source(g))
    turn = raw["turn"]
    scoring = raw["scoring"]
    dictionary = raw["dictionary"]
    sources = {f"min_length.{k}": reader.source(v) for k, v in raw["min_length"].items()}
    sources.update({f"turn.{k}": reader.source(v) for k, v in turn.items()})
    sources.update({f"scoring.{k}": reader.source(v) for k, v in scoring.items()})
    sources["dictionary"] = reader.source(dictionary)
    sources["tiles"] = next((t.source for t in tiles), None)
    relief = turn.get("relief", {"discard": 1, "draw": 0, "per_turn": 0})
    return WordGame(
        tiles=tiles,
        copies=reader.option_value(raw.get("copies"), 0),
        small_kana=small,
        small_sources=tuple(small_sources),
        hand_sizes=tuple(
            (h["players"][0], h["players"][1], h["tiles"], reader.source(h)) for h in raw.get("hand_size", [])
        ),
        min_length={k: v["tiles"] for k, v in raw["min_length"].items()},
        words_from_hand=turn["words_from_hand"]["max"],
        relief={k: relief[k] for k in ("discard", "draw", "per_turn")},
        no_word_draw=turn.get("no_word", {}).get("draw", 1),
        timeout_draw=turn.get("timeout", {}).get("draw", 0),
        left_in_hand=scoring["left_in_hand"]["points"],
        bonus_tile=scoring["bonus_tile"]["points"],
        dictionary_file=reader.file_path(dictionary, "file"),
        dictionary_name=dictionary["name"],
        dictionary_licence=dictionary.get("licence"),
        sources=sources,
    )
