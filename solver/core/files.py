"""The one loader for the files a user hands melds besides rulesets: puzzles (a hand and its
question, a round to settle) and game states.

A file is YAML, validated against its schema (``rulesets/puzzle.schema.json`` or
``rulesets/state.schema.json``; a state says whose ``turn`` it is and who the ``players`` are) with
file and line, and names its ruleset: a bundled id, or a path relative to the file, with its
options. What the rest of the file means is the game's to read (``Game.answer``, its moves).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solver.core.errors import Location, MeldsError, SchemaError
from solver.core.ruleset import BUNDLED_DIR, Ruleset, load_ruleset, with_options
from solver.core.schema import validate
from solver.core.yamlload import line_of, load_file

PUZZLE_SCHEMA = "puzzle.schema.json"
STATE_SCHEMA = "state.schema.json"


def is_state(data: Any) -> bool:
    """A game state (for melds move), not a puzzle: it says whose turn it is."""
    return isinstance(data, Mapping) and "turn" in data and "players" in data


@dataclass(frozen=True)
class Document:
    """A puzzle or state file: its data (with lines) and its ruleset."""

    path: Path
    data: Mapping[str, Any]
    ruleset: Ruleset

    @property
    def title(self) -> str:
        return str(self.data.get("title", self.path.stem))

    @property
    def state(self) -> bool:
        return is_state(self.data)

    def fail(self, container: Any, key: Any, message: str) -> MeldsError:
        """An error at ``container[key]`` of this file (raise it)."""
        return SchemaError(message, Location(str(self.path), line_of(container, key), str(key)))


def file_ruleset(path: Path, data: Mapping[str, Any]) -> Ruleset:
    """A file's ruleset: a bundled id, or a path relative to the file, with its options."""
    ref = data["ruleset"]
    relative = path.parent / ref
    ruleset_ref = str(relative) if ref.endswith((".yaml", ".yml")) and relative.is_file() else ref
    return load_ruleset(ruleset_ref, data.get("options") or {})


_TOP_RULESET = re.compile(r"^ruleset:[ \t]*([\"']?)([A-Za-z0-9_-]+)\1[ \t]*(?:#.*)?$", re.MULTILINE)


def ruleset_named_in(args: Sequence[str]) -> str | None:
    """The bundled ruleset a puzzle or state file among the command line's ``args`` names (a
    top-level ``ruleset: ID`` line among its first few), read before anything is loaded, so that
    ``melds solve PUZZLE.yaml`` imports that one game to know its options, not every game (a
    quarter of a second of start-up); None when no single YAML file names one plainly — a path
    (:func:`file_ruleset` resolves those), a flow mapping, two files: every game then."""
    named = set()
    for arg in args:
        if not arg.endswith((".yaml", ".yml")) or arg.startswith("-") or not os.path.isfile(arg):
            continue
        try:
            with open(arg, "rb") as file:  # a character cut at the end, or bytes not UTF-8: the loader says
                head = file.read(4096).decode("utf-8-sig", errors="ignore")
        except OSError:
            return None
        found = _TOP_RULESET.findall(head)
        if len(found) != 1:
            return None
        named.add(found[0][1])
    if len(named) != 1:
        return None
    (ref,) = named
    return ref if (BUNDLED_DIR / f"{ref}.yaml").is_file() else None


def load_document(path: str | Path, data: Any = None) -> Document:
    """Read (unless its ``data`` is given), validate and resolve a puzzle or state file."""
    path = Path(path)
    data = load_file(path) if data is None else data
    validate(data, STATE_SCHEMA if is_state(data) else PUZZLE_SCHEMA, str(path))
    return Document(path, data, file_ruleset(path, data))


def load_document_under(path: str | Path, ruleset: Ruleset) -> Document:
    """A file given beside a command line's ruleset (``score -r RULESET --round FILE``): read under
    the ruleset the file names, or under ``ruleset`` (with the file's ``options:``) when it names none."""
    path = Path(path)
    data = load_file(path)
    if not isinstance(data, dict) or "ruleset" in data:
        return load_document(path, data)
    data["ruleset"] = ruleset.id  # the schema asks for one: the command line's stands in
    document = document_of(data, path, ruleset)
    options = data.get("options")
    return Document(path, data, with_options(ruleset, options)) if options else document


def document_of(data: Mapping[str, Any], path: str | Path, ruleset: Ruleset) -> Document:
    """A document from data already in hand (an inline state of a ruleset's claim)."""
    validate(data, STATE_SCHEMA if is_state(data) else PUZZLE_SCHEMA, str(path))
    return Document(Path(path), data, ruleset)
