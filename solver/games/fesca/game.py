"""Fesca: the meld machinery plus the field phase (陽場/陰場), which decides where 相順 chains may
be melded and touched and which a 陰陽 discard changes."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from solver.core.game import OptionSpec
from solver.core.reader import RuleReader
from solver.core.validate import Impossible, state_location
from solver.games.fesca.rules import FescaRules, read_rules
from solver.melding.game import MeldGame
from solver.melding.puzzle import table_meld
from solver.melding.turn.problem import Answer, Problem

if TYPE_CHECKING:  # a type only: states load with moves (see MeldGame.moves_type)
    from solver.core.state import GameState
    from solver.melding.game import TurnAnswer

PHASE = OptionSpec(
    "--phase",
    "Field phase (陽場 yang / 陰場 yin) for phase-bound melds such as 相順; none: "
    "before any 陰陽 discard, when neither 相生 nor 相克 may be melded or touched.",
    choices=("yang", "yin", "none"),
)
EXAMPLES = {
    "check": [
        "melds check -r fesca 木3 木4 太極",
        "melds check -r fesca wood3 wood4 taiji --json",
        "melds check -r fesca --ordered 木1 火2 土3 --phase yang",
    ],
    "solve": [
        'melds solve -r fesca --hand "木3 木4 太極 火7 土7 陰陽7 水1" --best',
        'melds solve -r fesca --hand "金6 金7 太極 水3" --table "me: 金9 金10 金11" --has-melded',
        "melds solve puzzles/fesca/",
    ],
    "score": [
        "melds score -r fesca --ordered 土3 土4 土5 太極 土7",
        "melds score -r fesca --penalty 木1 木2 木3 空無土",
        "melds score -r fesca --round puzzles/fesca/r01-document-penalty-example.yaml",
    ],
}


class FescaGame(MeldGame):
    name: ClassVar[str] = "fesca"
    label: ClassVar[str] = "Fesca"
    rules: FescaRules
    OPTIONS = {"check": [PHASE], "solve": [PHASE], "score": [PHASE]}
    EXAMPLES = EXAMPLES

    @classmethod
    def moves_type(cls) -> type:
        from solver.games.fesca.moves import FescaMoves  # loaded when moves are played (see MeldGame.moves_type)

        return FescaMoves

    @classmethod
    def read_rules(cls, reader: RuleReader) -> FescaRules:
        return read_rules(reader)

    def answer_problem(
        self,
        problem: Problem,
        question: str = "go-out",
        count: bool = False,
        limit: int = 1000,
        max_seconds: float | None = None,
    ) -> TurnAnswer:
        answer = super().answer_problem(problem, question, count, limit, max_seconds)
        if (
            isinstance(answer, Answer) and answer.solvable is not None
        ):  # the discard decides the phase the next player meets
            answer.phase_after = self.rules.phase_after(answer.discard, problem.phase)
        return answer

    def state_problems(self, state: GameState) -> list[Impossible]:
        """Beyond the deck's copies: every meld on the table is a legal meld as it lies (table order,
        buried wilds under their cards) — in any field phase, since a 相順 stays where it was melded."""
        problems = list(super().state_problems(state))
        for i, t in enumerate(state.table, 1):
            verdict = self.checker.check(table_meld(self.notation, t.owner, t.cards).faces, ordered=True)
            if not verdict.legal:
                reason = verdict.reasons[0] if verdict.reasons else None
                problems.append(
                    Impossible(
                        f"table meld {i} ({t.cards}) is no legal meld" + (f": {reason.message}" if reason else ""),
                        "table-meld",
                        reason.source if reason else None,
                        state_location(state, "table", i - 1),
                    )
                )
        return problems
