"""Rummikub: the meld machinery's sets (groups and runs, a joker for any tile, checked as by every
rummy game), with the game's own turn — the whole table rearranged with the rack
(:mod:`solver.games.rummikub.arrange`) — the initial meld, and tiles left scored at their numbers."""

from __future__ import annotations

from typing import Any, ClassVar

from solver.core.errors import ExitCode, MeldsError
from solver.core.reader import RuleReader
from solver.core.result import Result
from solver.core.source import source_json
from solver.games.rummikub.arrange import Arrangement, SetCatalogue, solve_turn
from solver.games.rummikub.moves import RummikubMoves
from solver.games.rummikub.present import set_json, turn_json, turn_text
from solver.games.rummikub.rules import RummikubRules, read_rules
from solver.games.rummikub.settlehand import settle_racks
from solver.melding.game import MeldGame
from solver.melding.present import verdict_json
from solver.melding.puzzle import Puzzle
from solver.melding.turn.problem import Problem
from solver.present.text import head

EXAMPLES = {
    "check": [
        "melds check -r rummikub r7 r8 J",
        "melds check -r rummikub k5 b5 o5 r5 --json",
        "melds check -r rummikub r12 r13 r1",
    ],
    "solve": [
        'melds solve -r rummikub --hand "r10 r11 J k2" --table "all: r7 r8 r9" --table "all: k5 b5 o5" '
        "--has-melded --best",
        'melds solve -r rummikub --hand "k10 b10 o10 r3 r4" --best',
        "melds solve puzzles/rummikub/",
    ],
    "score": ["melds score -r rummikub --penalty k7 b13 J", "melds score -r rummikub r11 r12 J"],
    "move": ["melds move puzzles/rummikub/moves/m01-initial-meld.yaml play k10 b10 o10 | r7 r8 r9"],
    "moves": ["melds moves puzzles/rummikub/moves/m02-rearrange.yaml"],
}


class RummikubGame(MeldGame):
    name: ClassVar[str] = "rummikub"
    label: ClassVar[str] = "Rummikub"
    rules: RummikubRules
    EXAMPLES = EXAMPLES

    def __init__(self, ruleset):
        super().__init__(ruleset)
        self.catalogue = SetCatalogue(ruleset, self.checker)

    @classmethod
    def read_rules(cls, reader: RuleReader) -> RummikubRules:
        return read_rules(reader)

    def new_moves(self) -> RummikubMoves:
        return RummikubMoves(self.ruleset, self.catalogue)

    # -- solve: the game's own turn -----------------------------------------------------------------

    def answer_problem(
        self,
        problem: Problem,
        question: str = "go-out",
        count: bool = False,
        limit: int = 1000,
        max_seconds: float | None = None,
    ) -> Arrangement:
        if question not in ("go-out", "best"):
            raise MeldsError(f"{self.ruleset.id} has no question {question!r} (ask go-out or best)")
        if count:
            raise MeldsError(
                "--all counts the ways to go out of rummy games with a discard; Rummikub turns "
                "rearrange the whole table, so ask --best or go-out"
            )
        if problem.claimed is not None:
            raise MeldsError("Rummikub has no discards to claim")
        self.notation.check_copies(list(problem.hand) + [f for m in problem.table for f in m.faces])
        return solve_turn(
            self.catalogue,
            problem.hand,
            [m.faces for m in problem.table],
            problem.has_melded,
            self.rules.initial_meld,
            question,
            max_seconds,
        )

    def turn_result(self, answer: Arrangement, problem: Problem, stats: bool = False) -> Result:
        data = turn_json(answer, self.rules, self.notation, self.ruleset.id)
        return Result(data, ExitCode.of(answer.found), lambda: turn_text(answer, self.rules, self.notation, stats))

    def mismatches(self, puzzle: Puzzle, answer: Arrangement) -> list[str]:
        """Where an answer differs from a puzzle's ``expect``: ``solvable``, ``placed`` (how many
        rack tiles the turn places) and ``score`` (``tiles_placed``, ``value_placed``)."""
        got = {
            "solvable": answer.found,
            "placed": len(answer.placed),
            "score": {"tiles_placed": len(answer.placed), "value_placed": answer.value_placed},
        }
        out = []
        for key, want in puzzle.expect.items():
            if key not in got:
                out.append(f"{key}: a Rummikub puzzle expects solvable, placed or score")
            elif key == "score":
                out += [
                    f"score.{k}: expected {v}, got {got['score'].get(k)}"
                    for k, v in want.items()
                    if got["score"].get(k) != v
                ]
            elif got[key] != want:
                out.append(f"{key}: expected {want}, got {got[key]}")
        return out

    def settle_hand(self, state, turn_start):
        return settle_racks(self, state)

    # -- score: a set's value, a rack's penalty -------------------------------------------------------

    def score(self, request: dict[str, Any]) -> Result:
        if request.get("round"):
            return super().score(request)
        faces = self.cards(request)
        self.notation.check_copies(faces)
        fmt = self.notation.format
        if request.get("penalty"):
            rows = [(f, self.rules.joker_penalty if f.rank is None else int(f.rank)) for f in faces]
            points = sum(p for _, p in rows)
            data = {
                "points": points,
                "mode": "penalty",
                "cards": [fmt(f) for f in faces],
                "breakdown": [{"cards": [fmt(f)], "points": p} for f, p in rows],
                "doubled": False,
                "one_go": bool(request.get("double")),
                "one_go_bonus": None,
                "source": source_json(self.rules.sources.get("joker_penalty")),
                "ruleset": self.ruleset.id,
            }
            return Result(
                data,
                ExitCode.YES,
                lambda: f"rack left: {points} points ({' + '.join(f'{fmt(f)} {p}' for f, p in rows)})",
            )
        tile_set = self.catalogue.lookup(faces)
        reasons = [] if tile_set else verdict_json(self.checker.check(faces), self.checker)["reasons"]  # why not
        data = {
            "points": tile_set.value if tile_set else None,
            "mode": "meld",
            "legal": tile_set is not None,
            "kind": tile_set.kind.id if tile_set else None,
            "cards": set_json(tile_set, self.notation)["cards"] if tile_set else [fmt(f) for f in faces],
            "reasons": reasons,
            "ruleset": self.ruleset.id,
        }

        def text() -> str:
            if tile_set is None:
                return head("not a set", False) + ": " + "; ".join(r["message"] for r in data["reasons"])
            return (
                head(f"{tile_set.value} points", True)
                + f": {tile_set.kind.name} "
                + " ".join(f"{c['card']}={c['as']}" if c["wild"] else c["card"] for c in data["cards"])
            )

        return Result(data, ExitCode.of(tile_set is not None), text)
