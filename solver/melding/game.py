"""The rummy-like games' side of the Game protocol: melds of cards, turns that partition a hand.

:class:`MeldGame` implements :class:`solver.core.game.Game` for any ruleset of meld kinds over a
deck: ``check`` judges a meld with the :class:`~solver.melding.meld.checker.MeldChecker`, ``solve``
partitions a hand (:mod:`solver.melding.turn.solve`), ``score`` prices a meld, a hand left or a round,
``answer`` reads puzzle files, ``moves`` plays turns. A game built on melds subclasses it and
changes only what differs: its own sections (``read_rules``), options, questions, gate, moves.

The sections read here are the shared melding mechanisms: single-card table ``operations`` and
ways of ``going_out``. A ruleset whose table is rearranged freely (``table: {rearrange: free}``)
plays the rearranging turn of :mod:`solver.melding.arrange` — solve, puzzles and moves — with no
code of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, cast

import click

from solver.core import inputs
from solver.core.chosen import chosen_faces
from solver.core.errors import ExitCode, MeldsError
from solver.core.files import Document, load_document_under
from solver.core.game import ClaimCheck, OptionSpec, Request
from solver.core.reader import RuleReader
from solver.core.registry import load_game
from solver.core.result import PuzzleResult, Result, Summary
from solver.core.ruleset import Ruleset, with_options
from solver.core.validate import Impossible, copies_problems, state_location
from solver.melding import scorecard
from solver.melding.figures import Figure, figure_values, read_figures
from solver.melding.meld.checker import MeldChecker
from solver.melding.meld.gate import RoleGate, gate_for
from solver.melding.options import MELD_OPTIONS
from solver.melding.present import answer_json, partition_text, verdict_json, verdict_text
from solver.melding.puzzle import Puzzle, mismatches, read_puzzle, round_mismatches, table_meld
from solver.melding.rounds import Round, score_round
from solver.melding.table.operations import Operation, TableMeld, read_operations
from solver.melding.turn.problem import Answer, Problem
from solver.melding.turn.routes import GoOutRoute, read_routes
from solver.present.text import BAD, GOOD, bold, deck_line
from solver.sat.budget import Budget

if TYPE_CHECKING:  # types only: what plays moves, replays and audits loads when it runs (cold start)
    from solver.core.moves import Moves
    from solver.core.replay import Settlement
    from solver.core.state import GameState
    from solver.melding.arrange.laid import Arrangement, MeldCatalogue
    from solver.melding.arrange.present import Nouns
    from solver.melding.moves import MeldMoves

    TurnAnswer = Answer | Arrangement  # a turn's answer: a partition of the hand, or the table rearranged

DISTANCE_QUESTIONS = ("distance", "discards")  # the questions solver.melding.distance answers


KNOCKER, DEFENDER = "knocker", "defender"  # the players of a knock settled from two hands


@dataclass(frozen=True, eq=False)
class MeldRules:
    """The melding mechanisms a ruleset may use: single-card operations on table melds, and
    several ways to go out."""

    operations: tuple[Operation, ...] = ()
    going_out: tuple[GoOutRoute, ...] = ()
    figures: tuple[Figure, ...] = ()

    @cached_property  # read by every turn solved: made once (the instance's own attribute after)
    def every_route(self) -> bool:
        """Does a figure ask whether a route goes out (then every route is asked)?"""
        return any(f.route is not None for f in self.figures)


def read_meld_rules(reader: RuleReader) -> MeldRules:
    for key in ("deck", "roles", "melds"):
        reader.require(key, "a rummy game melds cards of a deck")
    d = reader.data
    routes = read_routes(reader, d.get("going_out", []))
    return MeldRules(
        read_operations(reader, d.get("operations", []), "operations"),
        routes,
        read_figures(reader, d.get("figures", {}), routes),
    )


class MeldGame:
    """A game of melds over a deck (see the module docstring)."""

    name: ClassVar[str] = "meld"
    label: ClassVar[str] = "rummy-like"
    QUESTIONS: ClassVar[dict[str, str]] = {"best": "best"}  # request flag -> the question it asks
    OPTIONS: ClassVar[dict[str, list[OptionSpec]]] = {}  # a game's own options, by command
    EXAMPLES: ClassVar[dict[str, list[str]]] = {}  # its example command lines, by command
    NOUNS: ClassVar[dict[str, str]] = {}  # what its text calls a card, the hand, a meld, the stock (arrange.Nouns)

    def __init__(self, ruleset: Ruleset):
        self.ruleset = ruleset
        self.rules: MeldRules = ruleset.rules
        self.checker = MeldChecker(ruleset, self.gate())
        self.notation = self.checker.notation

    # -- the protocol: rules and command line ---------------------------------------------------

    @classmethod
    def read_rules(cls, reader: RuleReader) -> MeldRules:
        return read_meld_rules(reader)

    @classmethod
    def options(cls, command: str) -> Sequence[OptionSpec]:
        """The shared options of a meld game, a game's own replacing one of the same name (a game
        whose phases are fixed may list them as the choices of its ``--phase``)."""
        specs = {spec.name: spec for spec in MELD_OPTIONS.get(command, ())}
        specs.update((spec.name, spec) for spec in cls.OPTIONS.get(command, ()))
        return list(specs.values())

    @classmethod
    def examples(cls, command: str) -> Sequence[str]:
        return list(cls.EXAMPLES.get(command, ()))

    def gate(self) -> RoleGate:
        """Which roles a card may play under a query's parameters: those the ruleset's chosen
        cards open (every role, in a game without one)."""
        return gate_for(self.ruleset.parameters, self.ruleset.kinds)

    def close(self) -> None:
        self.checker.close()

    def describe(self) -> Result:
        return Result({}, ExitCode.YES, lambda: deck_line(self.ruleset))

    # -- reading requests ---------------------------------------------------------------------------

    def cards(self, request: Request, key: str = "cards"):
        given = request.get(key)
        if isinstance(given, (list, tuple)) and not given and key == "cards":
            raise MeldsError("no cards given. " + self.notation.describe())
        if not isinstance(given, (str, list, tuple)) or not given:
            raise MeldsError(f'each line needs "{key}": a string or a list of cards')
        return self.notation.parse_many(list(given) if isinstance(given, tuple) else given)

    def params(self, request: Request) -> Mapping[str, Any] | None:
        """The query parameters a request gives: the ruleset's chosen cards (``parameters:``), each
        by its own name or the first by ``indicator``, as cards."""
        rs = self.ruleset
        return chosen_faces(rs.id, rs.parameters, request, self.notation) or None

    @cached_property
    def question_flags(self) -> dict[str, str]:
        """Each request flag that asks a question, and the question it asks."""
        return {**self.QUESTIONS, **{q: q for q in DISTANCE_QUESTIONS}}

    def question(self, request: Request) -> str | None:
        """The question a request asks: its ``question``, or the flag it sets (None: the puzzle's
        own, else go-out)."""
        if request.get("question"):
            return str(request["question"])
        if self.question_flags.keys().isdisjoint(request):  # the usual line: no flag named at all
            return None
        asked = [q for flag, q in self.question_flags.items() if request.get(flag)]
        if len(asked) > 1:
            flags = [f"--{f.replace('_', '-')}" for f in self.question_flags]
            raise MeldsError(f"ask one question: {', '.join(flags[:-1])} or {flags[-1]}")
        return asked[0] if asked else None

    def problem(self, request: Request) -> Problem:
        """The turn a request describes: hand, table ("OWNER: CARDS" each), the turn's facts."""
        turn = {
            **{k: request[k] for k in ("claimed", "has_melded", "phase") if request.get(k) is not None},
            **(request.get("turn") or {}),
        }
        melds = []
        for entry in request.get("table") or ():
            owner, sep, cards = str(entry).partition(":")
            if not sep:
                owner, cards = "other", entry
            melds.append(table_meld(self.notation, owner.strip(), cards))
        claimed = self.notation.parse(turn["claimed"]) if turn.get("claimed") else None
        faces = tuple(self.cards(request, "hand"))
        given = request.get("shown")
        shown = tuple(tuple(self.notation.parse_many(m)) for m in given) if given else ()
        return Problem(
            self.ruleset,
            faces,
            tuple(melds),
            "claimed" if claimed else "normal",
            claimed,
            bool(turn.get("has_melded")) or (any(m.mine for m in melds) if melds else False),  # one's own meld: out
            turn.get("phase"),
            self.params(request),
            shown,
        )

    # -- check ---------------------------------------------------------------------------------------

    def check(self, request: Request) -> Result:
        verdict = self.checker.check(
            self.cards(request),
            phase=request.get("phase"),
            ordered=bool(request.get("ordered")),
            params=self.params(request),
        )
        return Result(
            verdict_json(verdict, self.checker), ExitCode.of(verdict.legal), lambda: verdict_text(verdict, self.checker)
        )

    # -- solve ---------------------------------------------------------------------------------------

    def solve(self, request: Request) -> Result:
        if request.get("args"):
            raise MeldsError("give either a puzzle file or -r RULESET --hand, not both")
        if not request.get("hand"):
            raise MeldsError('give a puzzle file or folder, or -r RULESET --hand "CARDS"')
        problem = self.problem(request)
        question = self.question(request) or "go-out"
        if request.get("visible") and question not in DISTANCE_QUESTIONS:
            raise MeldsError("--visible goes with --distance or --discards")
        if question in DISTANCE_QUESTIONS:
            return self.distance(problem, question, request)
        answer = self.answer_problem(problem, question, **budget_of(request))
        return self.turn_result(answer, problem, bool(request.get("stats")))

    def distance(self, problem: Problem, question: str, request: Request) -> Result:
        """How far the hand is from going out (``distance``), or each discard's table (``discards``)."""
        if self.ruleset.rearranges:  # no discard: the fewest cards drawn (solver.melding.drawdistance)
            from solver.melding import drawdistance

            return drawdistance.answer(self.checker, self.catalogue, problem, question, request, self.nouns())
        from solver.melding import distance  # its search (the turn solver) only when asked: not on a check's start-up

        return distance.answer(self.checker, problem, self.rules.going_out, question, request)

    def answer_problem(
        self,
        problem: Problem,
        question: str = "go-out",
        count: bool = False,
        limit: int = 1000,
        max_seconds: float | None = None,
    ) -> TurnAnswer:
        """Answer a question about a turn (go-out or best; a game adds its own)."""
        if question not in ("go-out", "best"):
            raise MeldsError(f"{self.ruleset.id} has no question {question!r} (ask go-out or best)")
        if self.ruleset.rearranges:
            return self.rearranged(problem, question, count, max_seconds)
        from solver.melding.turn.solve import (
            solve_turn,  # the turn solvers load when a turn is asked (not for check)
        )

        return solve_turn(  # under the budget's guard (or a small hand's timer): see solve_turn
            problem,
            self.checker,
            question,
            count,
            limit,
            Budget(max_seconds),
            self.rules.going_out,
            self.rules.operations,
            every_route=self.rules.every_route,
        )

    # -- the rearranging turn ------------------------------------------------------------------------

    @cached_property
    def catalogue(self) -> MeldCatalogue:
        """The legal melds met so far and the compiled models of the rearranging turn (made once a
        game: a batch or a replay meets the same melds again and again)."""
        from solver.melding.arrange.laid import MeldCatalogue  # loads when a rearranging turn is asked

        return MeldCatalogue(self.ruleset, self.checker)

    def nouns(self) -> Nouns:
        from solver.melding.arrange.present import Nouns

        return Nouns(**self.NOUNS)

    def rearranged(self, problem: Problem, question: str, count: bool, max_seconds: float | None) -> Arrangement:
        """A turn of a ruleset whose table is rearranged freely: the whole table and the hand laid
        out again (:mod:`solver.melding.arrange`)."""
        from solver.melding.arrange.solve import initial_points, solve_turn

        if count:
            raise MeldsError(
                f"--all counts the ways to go out of rummy games with a discard; {self.ruleset.name} turns "
                "rearrange the whole table, so ask --best or go-out"
            )
        if problem.claimed is not None:
            raise MeldsError(f"{self.ruleset.name} has no discards to claim")
        self.notation.check_copies(list(problem.hand) + [f for m in problem.table for f in m.faces])
        table = [m.faces for m in problem.table]
        points = initial_points(self.catalogue)
        return solve_turn(self.catalogue, problem.hand, table, problem.has_melded, points, question, max_seconds)

    def turn_result(self, answer: TurnAnswer, problem: Problem, stats: bool = False) -> Result:
        if self.ruleset.rearranges:
            from solver.melding.arrange.present import turn_json, turn_text

            arranged, cards = cast("Arrangement", answer), self.catalogue.cards
            data = turn_json(arranged, self.ruleset, self.notation, cards)
            return Result(
                data,
                ExitCode.of(arranged.found),
                lambda: turn_text(arranged, self.ruleset, self.notation, cards, self.nouns(), stats),
            )
        assert isinstance(answer, Answer)  # not rearranged: the partition's answer
        figures = figure_values(self.rules.figures, self.ruleset, answer)  # the ruleset's figures: beside it
        data = answer_json(answer, problem, self.checker)
        data.update(figures)
        text = partial(partition_text, answer, problem, self.checker, stats, figures)
        return Result(data, ExitCode.of(answer.solvable), text)

    # -- score ---------------------------------------------------------------------------------------

    def score(self, request: Request) -> Result:
        if request.get("round"):
            return self.settle_round(Path(request["round"]), self.chosen_options(request))
        if request.get("knock") or request.get("against"):
            return self.settle_knock(request)
        faces = self.cards(request)
        params = self.params(request)
        if request.get("penalty"):
            result = scorecard.penalty(self.ruleset, self.checker, faces, bool(request.get("double")), params)
        else:
            result = scorecard.meld(self.checker, faces, bool(request.get("ordered")), request.get("phase"), params)
        return Result(result, scorecard.code(result), lambda: scorecard.text(result))

    def chosen_options(self, request: Request) -> dict[str, Any]:
        """The options a request sets (``-o`` on the command line, "options" in a batch line)."""
        rs = self.ruleset
        return {
            **{k: v for k, v in rs.option_values.items() if v != rs.options[k].default},
            **dict(request.get("options") or {}),
        }

    def settle_round(self, path: Path, options: Mapping[str, Any] | None = None) -> Result:
        """A finished round, settled under each scoring system of its ruleset (the file's, else the
        command line's) — with the options the command gives (``-o``) over the file's own."""
        inputs.require(path, "round file")
        document = load_document_under(path, self.ruleset)
        if options:
            document = Document(document.path, document.data, with_options(document.ruleset, options))
        game = load_game(document.ruleset)
        if not isinstance(game, MeldGame):
            raise MeldsError(f"{path} is a round of {document.ruleset.id}; --round FILE settles rounds of rummy games")
        puzzle = game.read(document)
        round_ = puzzle.round
        if round_ is None:
            raise MeldsError(f"{path} has no round: section to score")
        systems = score_round(round_, game.checker)
        problems = round_mismatches(puzzle, systems) if puzzle.expect else None
        out = {"round": str(path), "winner": round_.winner, "one_go": round_.one_go, "systems": systems}
        if problems is not None:
            out.update(matches=not problems, mismatches=problems)
        return Result(
            out,
            ExitCode.YES if not problems else ExitCode.NO,
            lambda: scorecard.round_text(puzzle.title, round_.winner, round_.one_go, systems, problems),
        )

    def settle_knock(self, request: Request) -> Result:
        """A knock settled from the two hands (``--knock CARDS --against CARDS``): the knocker's
        hand laid down by its way out (its melds, the discard of eleven cards, the deadwood kept),
        the defender's counted after its melds and lay-offs (:mod:`~solver.melding.knock`)."""
        if not any(s.method == "knock" for s in self.ruleset.scoring_systems()):
            raise MeldsError(f"{self.ruleset.label} settles no knock (no round_scoring of method knock)")
        if not request.get("knock") or not request.get("against"):
            raise MeldsError("a knock is settled from two hands: --knock CARDS (the knocker's) and --against CARDS")
        knocker, defender = self.cards(request, "knock"), self.cards(request, "against")
        self.notation.check_copies([*knocker, *defender])
        way = self.answer_problem(Problem(self.ruleset, tuple(knocker), params=self.params(request)), "go-out")
        assert isinstance(way, Answer)  # a turn's answer (an arrangement answers only --arrange)
        if not way.solvable:
            least = way.score.get("hand_points")
            raise MeldsError(f"the knocker's hand cannot go out (least deadwood {least}): no knock to settle")
        melds = tuple(TableMeld(KNOCKER, tuple(p.face for p in play.reading.placements)) for play in way.plays)
        hands = {KNOCKER: tuple(way.kept), DEFENDER: tuple(defender)}
        systems = score_round(Round(self.ruleset, (KNOCKER, DEFENDER), KNOCKER, False, melds, hands), self.checker)
        fmt = self.notation
        discard = None if way.discard is None else fmt.format(way.discard)
        laid = [[fmt.format(f) for f in meld.faces] for meld in melds]
        out = {"knock": {"route": way.route, "discard": discard, "melds": laid}, "winner": KNOCKER, "systems": systems}
        title = f"{KNOCKER} goes out by {way.route}" + (f", discarding {discard}" if discard else "")
        return Result(out, ExitCode.YES, lambda: scorecard.round_text(title, KNOCKER, False, systems, None))

    # -- puzzles -------------------------------------------------------------------------------------

    def read(self, document: Document) -> Puzzle:
        """A puzzle file of this game, read."""
        return read_puzzle(document, self.notation)

    def answer(self, document: Document, request: Request, folder: bool = False) -> PuzzleResult:
        puzzle = self.read(document)
        if puzzle.round is not None:
            if not folder:
                raise MeldsError(f"{document.path} is a round to settle: use melds score --round {document.path}")
            return self._round_row(document, puzzle, puzzle.round)
        problem = puzzle.problem
        if problem is None:
            raise MeldsError(f"{document.path} has neither a hand to solve nor a round to settle")
        question = self.question(request) or puzzle.question
        if question in DISTANCE_QUESTIONS:
            shown = self.notation.format_many(puzzle.visible)
            result = self.distance(problem, question, {**request, "visible": request.get("visible") or shown})
            from solver.melding import distance

            return distance.puzzle_result(str(document.path), puzzle.title, puzzle.expect, result)
        budget = budget_of(request)
        budget["count"] = budget["count"] or puzzle.count
        answer = self.answer_problem(problem, question, **budget)
        problems = self.mismatches(puzzle, answer) if puzzle.expect else None
        info: dict[str, Any] = {"puzzle": str(document.path), "title": puzzle.title}
        if problems is not None:
            info.update(matches=not problems, mismatches=problems)
        turn = self.turn_result(answer, problem, bool(request.get("stats")))

        def text() -> str:
            lines = [bold(f"{puzzle.title} ") + f"({document.path})", turn.readable()]
            if problems == []:
                lines.append(click.style("matches the puzzle's expected answer", fg=GOOD))
            elif problems:
                lines.append(click.style("differs from the puzzle's expected answer:", fg=BAD))
                lines += [f"  {line}" for line in problems]
            return "\n".join(lines)

        word = {True: "goes out", False: "no", None: "undecided"}[answer.solvable]
        folder_code = ExitCode.UNDECIDED if answer.solvable is None else ExitCode.NO if problems else ExitCode.YES
        return PuzzleResult(
            {**turn.data, **info},
            turn.code,
            text,
            Summary(word, answer.seconds, None if problems is None else not problems, tuple(problems or ())),
            folder_code,
        )

    def mismatches(self, puzzle: Puzzle, answer: TurnAnswer) -> list[str]:
        """Where an answer differs from the puzzle's expectation."""
        if self.ruleset.rearranges:
            from solver.melding.arrange.present import mismatches as arranged_mismatches

            return arranged_mismatches(puzzle.expect, cast("Arrangement", answer))
        return mismatches(puzzle, cast(Answer, answer))

    def _round_row(self, document: Document, puzzle: Puzzle, round_: Round) -> PuzzleResult:
        systems = score_round(round_, self.checker)
        problems = round_mismatches(puzzle, systems)
        row = {
            "puzzle": str(document.path),
            "title": puzzle.title,
            "systems": systems,
            "matches": not problems,
            "mismatches": problems,
        }
        code = ExitCode.YES if not problems else ExitCode.NO
        return PuzzleResult(row, code, None, Summary("settled", None, not problems, tuple(problems)), code)

    # -- moves and audit -----------------------------------------------------------------------------

    @cached_property
    def _moves(self) -> Moves:
        return self.new_moves()

    def new_moves(self) -> Moves:
        """The game's turn rules, made once (a game whose moves need more than the checker
        overrides this): a ruleset whose table is rearranged freely plays plays of the whole table."""
        if self.ruleset.rearranges:
            from solver.melding.arrange.moves import ArrangeMoves

            return ArrangeMoves(self.ruleset, self.catalogue, self.nouns())
        return self.moves_type()(self.ruleset, self.checker)

    @classmethod
    def moves_type(cls) -> type[MeldMoves]:
        """The game's moves class (a game with moves of its own overrides this). Imported here,
        when moves are played: check and solve never load the turn rules (cold start)."""
        from solver.melding.moves import MeldMoves

        return MeldMoves

    def moves(self) -> Moves:
        return self._moves

    def state_problems(self, state: GameState) -> list[Impossible]:
        """The cards a state shows (known hands, table melds with buried wilds, discards) against
        the deck's copies; ``?`` is a card nobody has seen."""
        from solver.core.moves import UNKNOWN  # states load with moves, not with every command

        fmt = self.notation

        def faces(text: str) -> list:
            return fmt.parse_many([t for t in fmt.split(text) if t != UNKNOWN])

        places: dict[str, Sequence] = {f"{p}'s hand": faces(h) for p, h in state.hands.items() if isinstance(h, str)}
        keys: dict[str, tuple] = {f"{p}'s hand": ("hands", p) for p in state.hands}
        for i, t in enumerate(state.table, 1):
            places[f"table meld {i}"] = table_meld(fmt, t.owner, t.cards).all_cards
            keys[f"table meld {i}"] = ("table", i - 1)
        places["the discards"] = faces(" ".join(d for d in state.discards))
        keys["the discards"] = ("discards",)
        return copies_problems(
            self.ruleset.deck, places, fmt.format, lambda place: state_location(state, *keys.get(place, ()))
        )

    @classmethod
    def log_formats(cls) -> Sequence:
        return ()  # replayed from the project's own log of actions

    def replay(self, log):
        raise MeldsError(f"{self.ruleset.id} reads no game records of other software; give a log of melds' own format")

    def settle_hand(self, state, turn_start) -> Settlement:
        from solver.melding.settlehand import settle_melds  # replays load it (see state_problems)

        return settle_melds(state, turn_start, self.checker)

    def claim_checks(self) -> Mapping[str, ClaimCheck]:
        from solver.melding import claims  # moves and audits load it (see state_problems)

        return claims.meld_claims(self.checker, self.params)

    def audit_checks(self) -> Sequence[Callable[[Any], None]]:
        from solver.melding.audit import ambiguous_kinds, dead_sizes  # audit loads it (see state_problems)

        return [lambda audit: dead_sizes(audit, self.checker), lambda audit: ambiguous_kinds(audit, self.checker)]


def budget_of(request: Request) -> dict[str, Any]:
    """The solver budget a request sets: count the ways (``all``) up to ``limit``, ``max_seconds``."""
    return {
        "count": bool(request.get("all")),
        "limit": int(request.get("limit") or 1000),
        "max_seconds": request.get("max_seconds"),
    }
