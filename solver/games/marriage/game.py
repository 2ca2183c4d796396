"""Marriage: the meld machinery, with wilds chosen by the tiplu (the maal, which count only for a
player who has seen it), two more questions — can the hand show what it takes to see the tiplu,
which tiplus would let it go out — and the settlement of a round."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from solver.core.errors import ExitCode, MeldsError
from solver.core.files import Document, load_document
from solver.core.game import OptionSpec, Request
from solver.core.reader import RuleReader
from solver.core.result import PuzzleResult, Result, Summary
from solver.games.marriage import settle
from solver.games.marriage.rules import MarriageRules, read_rules
from solver.games.marriage.settle import RoundResult
from solver.games.marriage.settlehand import settle_marriage
from solver.melding.game import MeldGame
from solver.melding.present import answer_heading, answer_json, answer_text, undecided_text
from solver.melding.puzzle import Puzzle, mismatches, parse_cards
from solver.melding.scorecard import payments_lines
from solver.melding.turn.solve import solve_turn
from solver.melding.turn.solver import Answer, Problem, TurnSolver
from solver.present.text import bold, head
from solver.sat.budget import Budget

if TYPE_CHECKING:
    from solver.melding.game import TurnAnswer

TIPLU = OptionSpec("--tiplu", "The tiplu, when known (its maal are wild); none: no wilds.", metavar="CARD")
EXAMPLES = {
    "check": ["melds check -r marriage S5 S6 S7", "melds check -r marriage S5 S6 H9 --tiplu H9"],
    "solve": [
        "melds solve puzzles/marriage/m02-see-with-three-pure.yaml --json",
        "melds solve puzzles/marriage/m09-which-tiplu.yaml",
        "melds solve puzzles/marriage/",
    ],
    "score": ["melds score -r marriage --settle puzzles/marriage/s01-settlement-by-hand.yaml"],
    "move": ["melds move -r marriage puzzles/marriage/moves/m02-wild-to-seen-player.yaml draw discard"],
}


class MarriageGame(MeldGame):
    name: ClassVar[str] = "marriage"
    label: ClassVar[str] = "Marriage"
    QUESTIONS: ClassVar[dict[str, str]] = {"best": "best", "see": "see", "which_tiplu": "which-tiplu"}
    rules: MarriageRules
    OPTIONS = {
        "check": [TIPLU],
        "solve": [
            TIPLU,
            OptionSpec(
                "--shown", "A meld of the player's already on the table (repeatable).", metavar='"CARDS"', multiple=True
            ),
            OptionSpec("--see", "Can the hand show what it takes to see the tiplu?", flag=True),
            OptionSpec("--which-tiplu", "Which tiplus would let the hand go out?", flag=True),
        ],
        "score": [
            OptionSpec(
                "--settle", "Settle a round (settle: section) — maal points and payments.", metavar="FILE", type="path"
            )
        ],
    }
    EXAMPLES = EXAMPLES

    @classmethod
    def moves_type(cls) -> type:
        from solver.games.marriage.moves import MarriageMoves  # loaded when moves are played (see MeldGame.moves_type)

        return MarriageMoves

    @classmethod
    def read_rules(cls, reader: RuleReader) -> MarriageRules:
        return read_rules(reader)

    # -- questions ------------------------------------------------------------------------------------

    def answer_problem(
        self,
        problem: Problem,
        question: str = "go-out",
        count: bool = False,
        limit: int = 1000,
        max_seconds: float | None = None,
    ) -> TurnAnswer:
        if question == "see":
            budget = Budget(max_seconds)
            with budget.guarding(), TurnSolver(problem, self.checker, budget, requirements=self.rules.seeing) as solver:
                return solver._stamp(solver.see())
        if question == "which-tiplu":
            budget = Budget(max_seconds)
            with budget.guarding():
                return self.which_tiplu(problem, budget)
        return super().answer_problem(problem, question, count, limit, max_seconds)  # its own budget

    def which_tiplu(self, problem: Problem, budget: Budget) -> Answer:
        """Every tiplu for which the hand could go out this turn."""
        rs, maal = self.ruleset, self.rules.maal
        if maal is None:
            raise MeldsError(f"{rs.id} has no chosen card that makes wilds")
        held = Counter(problem.hand) + Counter(f for m in problem.shown for f in m)
        winners, calls = [], 0
        for face in rs.deck.faces:
            if held[face] >= rs.deck.copies[face] or face.cls not in maal.classes:
                continue  # every copy is in the player's hands: it cannot be the tiplu
            left = budget.left()
            if left is not None and left <= 0:
                return Answer(solvable=None, question="which-tiplu")
            trial = replace(problem, params={maal.id: face})
            answer = solve_turn(trial, self.checker, "go-out", budget=budget, routes=self.rules.going_out)
            calls += answer.sat_calls
            if answer.solvable is None:
                return Answer(solvable=None, question="which-tiplu")
            if answer.solvable:
                winners.append(face)
        answer = Answer(solvable=bool(winners), question="which-tiplu", found=winners)
        answer.seconds, answer.sat_calls = budget.elapsed, calls
        return answer

    def turn_result(self, answer: TurnAnswer, problem: Problem, stats: bool = False) -> Result:
        if not isinstance(answer, Answer):  # the table rearranged: as every game shows it
            return super().turn_result(answer, problem, stats)
        data = answer_json(answer, problem, self.checker)
        fmt = self.notation
        if answer.question == "which-tiplu":
            data["tiplus"] = [fmt.format(f) for f in answer.found]

            def text() -> str:
                if answer.solvable is None:
                    return undecided_text(answer.seconds)
                tiplus = " ".join(fmt.format(f) for f in answer.found) or "none"
                verdict = head("yes" if answer.solvable else "no", answer.solvable)
                return f"{verdict}: the hand goes out with the tiplu {tiplus}"
        else:
            heading = answer_heading(answer)
            if answer.question == "see":
                heading = (
                    f"{head('yes', True)}: the hand can show these and see the tiplu"
                    if answer.solvable
                    else f"{head('no', False)}: the hand cannot yet show what it takes to see the tiplu"
                )

            def text() -> str:
                return answer_text(answer, problem, self.checker, stats, heading)

        return Result(data, ExitCode.of(answer.solvable), text)

    def read(self, document: Document) -> Puzzle:
        puzzle = super().read(document)
        raw = document.data.get("expect", {})
        if "tiplus" in raw:  # a which-tiplu puzzle expects the tiplus that let the hand go out
            puzzle.expect["tiplus"] = tuple(sorted(parse_cards(self.notation, raw["tiplus"])))
        return puzzle

    def mismatches(self, puzzle: Puzzle, answer: TurnAnswer) -> list[str]:
        if not isinstance(answer, Answer):
            return super().mismatches(puzzle, answer)
        out = mismatches(puzzle, answer)
        want = puzzle.expect.get("tiplus")
        if want is not None and tuple(sorted(answer.found)) != want:
            fmt = self.notation
            out.append(f"tiplus: expected {fmt.format_many(want)}, got {fmt.format_many(sorted(answer.found))}")
        return out

    # -- settlement -------------------------------------------------------------------------------------

    def score(self, request: Request) -> Result:
        if request.get("settle"):
            return self.settle(Path(request["settle"]))
        return super().score(request)

    def settle(self, path: Path) -> Result:
        document = load_document(path)
        if "settle" not in document.data:
            raise MeldsError(f"{path} has no settle: section")
        result, expect = self._settlement(document)
        settled = settle.settle(result)
        problems = _settlement_mismatches(expect, settled) if expect else None
        fmt = self.notation
        out = {"settle": str(path), "tiplu": fmt.format(result.tiplu), "winner": result.winner, **settled}
        if problems is not None:
            out.update(matches=not problems, mismatches=problems)

        def text() -> str:
            lines = [
                bold(document.title) + f" — tiplu {fmt.format(result.tiplu)}, winner {result.winner}",
                "maal points: "
                + ", ".join(f"{k} {v}" for k, v in settled["maal"].items())
                + f" (total {settled['total']})",
            ]
            for name, row in settled["per_player"].items():
                lines.append(
                    f"  {name} pays {result.winner}: {row['game']} + {row['total']} − "
                    f"{row['own']} × {row['players']} = {row['pays']}"
                )
            return "\n".join(lines + payments_lines(settled["payments"], problems, "settlement"))

        return Result(out, ExitCode.YES if not problems else ExitCode.NO, text)

    def _settlement(self, document: Document) -> tuple[RoundResult, Mapping[str, Any]]:
        raw = document.data["settle"]

        def cards(container, key, value):
            try:
                return parse_cards(self.notation, value)
            except MeldsError as exc:
                raise document.fail(container, key, str(exc)) from None

        players = tuple(
            settle.PlayerResult(
                name,
                bool(p["seen"]),
                cards(p, "cards", p["cards"]) if p.get("cards") else (),
                p.get("marriages", 0),
                tuple(cards(p["dealt_tunnelas"], i, t) for i, t in enumerate(p.get("dealt_tunnelas", []))),
                p.get("maal"),
            )
            for name, p in raw["players"].items()
        )
        result = settle.RoundResult(
            document.ruleset,
            cards(raw, "tiplu", raw["tiplu"])[0],
            raw["winner"],
            players,
            bool(raw.get("dublee_win", False)),
        )
        return result, dict(document.data.get("expect", {}))

    def answer(self, document: Document, request: Request, folder: bool = False) -> PuzzleResult:
        if "settle" not in document.data:
            return super().answer(document, request, folder)
        if not folder:
            raise MeldsError(f"{document.path} is a round to settle: use melds score --settle {document.path}")
        result, expect = self._settlement(document)
        settled = settle.settle(result)
        problems = _settlement_mismatches(expect, settled)
        row = {
            "puzzle": str(document.path),
            "title": document.title,
            "systems": [settled],
            "matches": not problems,
            "mismatches": problems,
        }
        code = ExitCode.YES if not problems else ExitCode.NO
        return PuzzleResult(row, code, None, Summary("settled", None, not problems, tuple(problems)), code)

    def settle_hand(self, state, turn_start):
        return settle_marriage(self, state)


def _settlement_mismatches(expect: Mapping[str, Any], settled: dict) -> list[str]:
    out = []
    for key in ("payments", "maal"):
        for player, value in expect.get(key, {}).items():
            if settled[key].get(player) != value:
                out.append(f"{key}.{player}: expected {value}, got {settled[key].get(player)}")
    return out
