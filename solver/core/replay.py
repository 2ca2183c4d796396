"""Whole games replayed: what a replay reports, hand by hand and game by game, and the summary
of many games.

A *game log* is a recorded game: the project's own log of actions (:mod:`solver.core.actionlog`)
or a format a game reads itself (``Game.log_formats``: a table's own records). Each hand is
rebuilt from its start, every action judged by the game's moves (the legality ``melds move``
uses), and the hand settled and compared with what the record says was paid:

* ``agree`` — every action legal, the score changes equal the record's;
* ``illegal`` — the first action a rule forbids (the hand stops there);
* ``mismatch`` — the play is legal but the settlement differs (expected vs computed).

Score changes are lists in the players' order, in the record's own convention.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

STATUSES = ("agree", "mismatch", "illegal")


@dataclass(frozen=True)
class LogFormat:
    """A game-record format a game reads: how to recognise it and the ruleset its records are
    read through unless ``-r`` says otherwise."""

    id: str
    label: str
    suffixes: tuple[str, ...]
    sniff: Callable[[str], bool]  # the file's first characters -> is it this format?
    ruleset: str


@dataclass(frozen=True)
class GameLog:
    """One file's text as read (gzip undone), with the format it was recognised as."""

    path: str
    text: str
    format: LogFormat | None = None
    ruleset: str | None = None  # -r: read the records through this ruleset
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Settlement:
    """A finished hand settled by a game: what each player gains (negative: pays)."""

    deltas: Mapping[str, int]
    details: Mapping[str, Any] = field(default_factory=dict)
    tags: tuple[str, ...] = ()  # what the summary counts the hand under (the yaku of a win, a kind of meld)


@dataclass
class HandReport:
    round: str  # the hand's name in the game's own terms (東1局 0本場, "hand 3")
    status: str = "agree"  # agree | mismatch | illegal
    deltas: list[int] | None = None  # the score changes melds computed
    expected: list[int] | None = None  # those the record states
    number: int = 0  # 1-based in its game
    illegal: dict[str, Any] | None = None  # the first illegal action: turn, seat, action, record, reasons
    mismatches: list[dict[str, Any]] = field(default_factory=list)  # {"what", "expected", "computed"}
    result: dict[str, Any] = field(default_factory=dict)  # the game's account of the hand (winner, yaku, payments)
    tags: tuple[str, ...] = ()

    def fail(self, what: str, expected: Any, computed: Any, **more: Any) -> None:
        """A difference between the record and melds: the hand mismatches (unless illegal)."""
        self.mismatches.append({"what": what, "expected": expected, "computed": computed, **more})
        if self.status == "agree":
            self.status = "mismatch"

    def forbid(
        self, turn: int, seat: int | str | None, action: str, reasons: list[dict[str, Any]], record: str = ""
    ) -> None:
        self.status = "illegal"
        self.illegal = {"turn": turn, "seat": seat, "action": action, "record": record, "reasons": reasons}

    def to_json(self) -> dict[str, Any]:
        out = {
            "round": self.round,
            "status": self.status,
            "deltas": self.deltas,
            "expected": self.expected,
            "number": self.number,
            "illegal": self.illegal,
            "mismatches": self.mismatches,
            "result": self.result,
            "tags": list(self.tags),
        }
        return out


@dataclass
class GameReport:
    path: str
    format: str
    ruleset: str | None = None
    players: list[str] = field(default_factory=list)
    hands: list[HandReport] = field(default_factory=list)
    final: dict[str, Any] | None = None  # scores and placement at the end, computed and expected
    problems: list[dict[str, Any]] = field(default_factory=list)  # game-level differences (the end, the placement)
    error: dict[str, Any] | None = None  # the log could not be read: {"code", "message"}
    game: int = 1  # 1-based among the games of its file
    seconds: float = 0.0

    @property
    def status(self) -> str:
        if self.error is not None:
            return "malformed"
        if any(h.status == "illegal" for h in self.hands):
            return "illegal"
        if self.problems or any(h.status == "mismatch" for h in self.hands):
            return "mismatch"
        return "agree"

    def to_json(self, with_hands: bool = True) -> dict[str, Any]:
        out = {
            "file": self.path,
            "game": self.game,
            "format": self.format,
            "ruleset": self.ruleset,
            "players": self.players,
            "status": self.status,
            "hands": len(self.hands),
            "final": self.final,
            "problems": self.problems,
            "error": self.error,
            "seconds": round(self.seconds, 4),
        }
        if with_hands:
            out["hand_reports"] = [h.to_json() for h in self.hands]
        return out


@dataclass
class Summary:
    """Counts over many games: what the closing table shows."""

    files: int = 0
    games: int = 0
    hands: int = 0
    agree: int = 0
    illegal: int = 0
    mismatch: int = 0
    malformed: int = 0
    games_agreeing: int = 0
    seconds: float = 0.0  # wall-clock time of the whole replay
    by_tag: dict[str, dict[str, int]] = field(default_factory=dict)

    def add(self, report: GameReport) -> None:
        if report.error is not None:
            self.malformed += 1
            return
        self.games += 1
        self.games_agreeing += report.status == "agree"
        for hand in report.hands:
            self.hands += 1
            setattr(self, hand.status, getattr(self, hand.status) + 1)
            for tag in hand.tags:
                row = self.by_tag.setdefault(tag, {"hands": 0, "agree": 0, "mismatch": 0, "illegal": 0})
                row["hands"] += 1
                row[hand.status] += 1

    def merge(self, other: Summary) -> None:
        """Add the counts of ``other`` (a part of the same replay, counted apart: a worker's logs),
        as if its games had been added here one by one, in order (a tag's row where it first came)."""
        for name in ("files", "games", "hands", "agree", "illegal", "mismatch", "malformed", "games_agreeing"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for tag, counts in other.by_tag.items():
            row = self.by_tag.setdefault(tag, {"hands": 0, "agree": 0, "mismatch": 0, "illegal": 0})
            for key, value in counts.items():
                row[key] += value

    @property
    def hands_per_second(self) -> float | None:
        return round(self.hands / self.seconds, 1) if self.seconds > 0 else None

    def to_json(self) -> dict[str, Any]:
        return {
            "files": self.files,
            "games": self.games,
            "games_agreeing": self.games_agreeing,
            "hands": self.hands,
            "agree": self.agree,
            "illegal": self.illegal,
            "mismatch": self.mismatch,
            "malformed": self.malformed,
            "seconds": round(self.seconds, 3),
            "hands_per_second": self.hands_per_second,
            "by_yaku": {k: self.by_tag[k] for k in sorted(self.by_tag, key=lambda t: -self.by_tag[t]["hands"])},
        }


def report_code(reports: Sequence[GameReport]) -> int:
    """0 when every hand of every game agrees, 1 for a mismatch or an illegal action, 2 for a log
    that could not be read."""
    statuses = {r.status for r in reports}
    if "malformed" in statuses:
        return 2
    return 1 if statuses & {"illegal", "mismatch"} else 0
