"""What a game answers: one :class:`Result` for every query, whatever the game.

A result is its JSON shape (the contract scripts rely on, documented in docs/json-output.md),
its exit code, and its readable text form, rendered only when asked (the game's presenter writes
it in the documents' own notation). :mod:`solver.present` turns a result into output, text or
JSON, in one way for every command.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from solver.core.errors import ExitCode


@dataclass(frozen=True)
class Result:
    data: dict[str, Any]
    code: ExitCode
    text: Callable[[], str] | None = field(default=None, compare=False)

    def readable(self) -> str:
        """The text form (the JSON, indented, where the game gives none)."""
        if self.text is not None:
            return self.text()
        return json.dumps(self.data, ensure_ascii=False, indent=2)


@dataclass(frozen=True)
class Summary:
    """A puzzle's row in a folder's summary table."""

    answer: str  # what the solver answered, in a word or two ("goes out", "waits", "settled")
    seconds: float | None = None
    matches: bool | None = None  # None: the puzzle states no expectation
    mismatches: tuple[str, ...] = ()


@dataclass(frozen=True)
class PuzzleResult(Result):
    """A puzzle file's answer: the result of its question, plus how it fares in a folder of
    puzzles (whether it matches the answer its writer expects)."""

    summary: Summary = Summary("")
    folder_code: ExitCode = ExitCode.YES  # in a folder a puzzle is good when it matches its expectation
