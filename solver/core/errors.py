"""Errors a user can cause, each with the exit code the command line reports.

Everything a user can get wrong (a card that does not exist, a ruleset that does not parse, a
puzzle that asks for more copies of a card than the deck holds) raises a subclass of
:class:`MeldsError`. The command line turns it into one readable message and exit code 2; it never
shows a traceback for them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum
from typing import Any


class ExitCode(IntEnum):
    """The exit codes of every command, the one place they are defined."""

    YES = 0  # legal, solvable, clean, agrees
    NO = 1  # illegal, not solvable, a contradiction, a mismatch
    BAD_INPUT = 2  # the input is wrong: nothing was decided
    UNDECIDED = 3  # the solver's budget ran out before an answer

    @classmethod
    def of(cls, answer: bool | None) -> ExitCode:
        """Yes, no, or undecided (None)."""
        return cls.UNDECIDED if answer is None else cls.YES if answer else cls.NO

    @classmethod
    def worst(cls, codes: Iterable[int]) -> ExitCode:
        """The exit code of many answers (a batch, a folder): bad input wins, then undecided, then
        no, else yes."""
        found = set(codes)
        for code in (cls.BAD_INPUT, cls.UNDECIDED, cls.NO):
            if code in found:
                return code
        return cls.YES


class MeldsError(Exception):
    """Base class of every error caused by input; exit code 2."""

    exit_code = ExitCode.BAD_INPUT
    code = "bad-input"

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": str(self)}


class UnknownCard(MeldsError):
    code = "unknown-card"


class TooManyCopies(MeldsError):
    code = "too-many-copies"


class UnknownRuleset(MeldsError):
    code = "unknown-ruleset"


class BadOption(MeldsError):
    code = "bad-option"


class UnknownGame(MeldsError):
    code = "unknown-game"


class UsageError(MeldsError):
    """A command line that does not parse: an unknown flag, a missing ``-r``, a bad value."""

    code = "usage-error"


class BadRequest(MeldsError):
    """A request (a ``--batch`` line, a flag's value) with a key of the wrong type or range."""

    code = "bad-request"


class BadJson(MeldsError):
    """A ``--batch`` line that is not one JSON object (or not UTF-8, or too long, or too deep)."""

    code = "bad-json"


class Unreadable(MeldsError):
    """A file that cannot be read: missing, a folder, not permitted, not UTF-8 text, too large."""

    code = "unreadable-file"


class TooLarge(MeldsError):
    """Input beyond melds' limits (a document's size or nodes, a deck's copies, a hand's cards):
    refused before anything is built, so that time and memory stay bounded."""

    code = "too-large"


class InternalError(MeldsError):
    """A fault of melds itself, reported as an answer (a batch goes on) rather than a traceback."""

    code = "internal-error"


class Undecided(BaseException):
    """The solver budget ran out before an answer (exit code 3; not an input error).

    A BaseException, as KeyboardInterrupt is: the budget's guard raises it in the main thread
    wherever the work happens to be, and a handler of faults (``except Exception``: a broken
    cache entry, a batch line's fault) must not take it for one and go on — the guard fires once
    a query (the cache's read once swallowed it, and an audit ran on to its end)."""

    exit_code = ExitCode.UNDECIDED
    code = "undecided"

    def __init__(self, message: str = "", limit: str | None = None):
        super().__init__(message)
        self.limit = limit  # a bound of the search itself that ran out (else the budget's)

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": str(self) or "the budget ran out before an answer"}


@dataclass(frozen=True)
class Location:
    """Where in a file a problem is: file, 1-based line, and the key path inside the document."""

    file: str
    line: int | None = None
    path: str = ""

    def __str__(self) -> str:
        where = self.file
        if self.line is not None:
            where += f":{self.line}"
        if self.path:
            where += f": {self.path}"
        return where


class FileFormatError(MeldsError):
    """A YAML/JSON file that does not parse or does not fit its schema."""

    code = "schema-error"

    def __init__(self, message: str, location: Location | None = None):
        self.location = location
        self.message = message
        super().__init__(f"{location}: {message}" if location else message)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": str(self)}
        if self.location:
            out["file"] = self.location.file
            out["line"] = self.location.line
            out["path"] = self.location.path
        return out


class MalformedYaml(FileFormatError):
    code = "malformed-yaml"


class SchemaError(FileFormatError):
    code = "schema-error"
