"""A toy game, added to melds through the registry alone (tests/test_toy_game.py): Tens.

Cards are the numbers 1–9; a meld is two or more cards that add up to the ruleset's ``target``
option (10 by default); a hand goes out when it splits into such melds. Nothing outside this
package knows the game: its ruleset names it (``game: tens``) and the test registers the class.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import combinations
from typing import Any, ClassVar

from solver.core.errors import ExitCode, MeldsError
from solver.core.game import OptionSpec
from solver.core.notation import Notation
from solver.core.reader import RuleReader
from solver.core.result import PuzzleResult, Result, Summary

RULESET = """\
format: 1
id: tens
game: tens
name: Tens
document: {file: tens.txt}
options:
  target: {type: integer, default: 10, minimum: 2, description: what a meld adds up to}
deck:
  suits: [{id: n}]
  ranks: ["1..9"]
  classes:
    - {id: number, suits: [n], ranks: ["1..9"], spell: ["{rank}"], copies: 4}
"""


class Tens:
    name: ClassVar[str] = "tens"
    label: ClassVar[str] = "Tens"

    def __init__(self, ruleset):
        self.ruleset = ruleset
        self.target: int = ruleset.rules
        self.notation = Notation.for_deck(ruleset.deck)

    @classmethod
    def read_rules(cls, reader: RuleReader) -> int:
        return int(reader.values["target"])

    @classmethod
    def options(cls, command: str) -> Sequence[OptionSpec]:
        return [OptionSpec("--show-sum", "Say what the cards add up to.", flag=True)] if command == "check" else []

    @classmethod
    def examples(cls, command: str) -> Sequence[str]:
        return ["melds check -r tens.yaml 3 7"] if command == "check" else []

    def close(self) -> None:
        pass

    def describe(self) -> Result:
        return Result({"target": self.target}, ExitCode.YES, lambda: f"numbers adding up to {self.target}")

    def _values(self, given: Any) -> list[int]:
        if not given:
            raise MeldsError("no cards given. " + self.notation.describe())
        faces = self.notation.parse_many(list(given) if isinstance(given, tuple) else given)
        self.notation.check_copies(faces)
        return sorted(int(f.rank) for f in faces)

    def check(self, request: Mapping[str, Any]) -> Result:
        values = self._values(request.get("cards"))
        legal = len(values) >= 2 and sum(values) == self.target
        data = {"legal": legal, "cards": [str(v) for v in values], "sum": sum(values)}
        return Result(
            data,
            ExitCode.of(legal),
            lambda: ("legal" if legal else "illegal") + (f" (sum {sum(values)})" if request.get("show_sum") else ""),
        )

    def split(self, values: list[int]) -> list[list[int]] | None:
        """The hand split into melds adding up to the target, or None (a plain search)."""
        if not values:
            return []
        first, rest = values[0], values[1:]
        for size in range(1, len(rest) + 1):
            for picked in combinations(range(len(rest)), size):
                meld = [first] + [rest[i] for i in picked]
                if sum(meld) == self.target:
                    others = self.split([v for i, v in enumerate(rest) if i not in picked])
                    if others is not None:
                        return [meld] + others
        return None

    def solve(self, request: Mapping[str, Any]) -> Result:
        melds = self.split(self._values(request.get("hand")))
        data: dict[str, Any] = {"solvable": melds is not None, "melds": [[str(v) for v in m] for m in melds or []]}
        return Result(
            data,
            ExitCode.of(melds is not None),
            lambda: "yes: " + " | ".join(" ".join(m) for m in data["melds"]) if melds is not None else "no",
        )

    def score(self, request: Mapping[str, Any]) -> Result:
        values = self._values(request.get("cards"))
        return Result({"points": sum(values)}, ExitCode.YES, lambda: f"{sum(values)} points")

    def answer(self, document, request: Mapping[str, Any], folder: bool = False) -> PuzzleResult:
        result = self.solve({"hand": document.data["hand"]})
        want = document.data.get("expect", {}).get("solvable")
        matches = None if want is None else want == result.data["solvable"]
        return PuzzleResult(
            {**result.data, "puzzle": str(document.path), "matches": matches},
            result.code,
            result.text,
            Summary("goes out" if result.data["solvable"] else "no", None, matches),
            ExitCode.YES if matches is not False else ExitCode.NO,
        )

    def moves(self):
        raise MeldsError("Tens has no turn rules")

    def state_problems(self, state) -> list:
        return []

    @classmethod
    def log_formats(cls) -> Sequence:
        return ()  # no records of other software: logs of its own format only

    def replay(self, log):
        raise MeldsError("Tens reads no game records")

    def settle_hand(self, state, turn_start):
        raise MeldsError("Tens has no turn rules, so no hand to settle")

    def claim_checks(self) -> Mapping[str, Callable]:
        return {}

    def audit_checks(self) -> Sequence[Callable[[Any], None]]:
        return []


GAME = Tens
