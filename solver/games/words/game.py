"""Word rummy through the Game protocol: ``check`` spells words in tiles and looks them up,
``solve`` plays a turn (or finds a winner's bonus words), ``score`` prices a loser's hand."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cached_property
from pathlib import Path
from typing import Any, ClassVar

from solver.core import requests
from solver.core.errors import ExitCode, MeldsError
from solver.core.files import Document
from solver.core.game import ClaimCheck, OptionSpec, Request
from solver.core.moves import UNKNOWN
from solver.core.reader import RuleReader
from solver.core.result import PuzzleResult, Result, Summary
from solver.core.ruleset import Ruleset
from solver.games.words import present
from solver.games.words.discards import discards_text
from solver.games.words.moves import WordMoves
from solver.games.words.puzzles import answer_puzzle
from solver.games.words.rules import WordGame as WordRules
from solver.games.words.rules import read_rules
from solver.games.words.session import WordSession
from solver.games.words.settlehand import settle_words
from solver.present.text import question_puzzle_text
from solver.sat.budget import Budget

DICTIONARY = [
    OptionSpec(
        "--dict",
        "Add a word list (UTF-8, one word a line, # comments, .gz allowed; repeatable).",
        key="dict_files",
        metavar="FILE",
        type="file",
        multiple=True,
    ),
    OptionSpec("--no-default-dict", "Use only the --dict lists, not the ruleset's dictionary.", flag=True),
    OptionSpec(
        "--exclude",
        "Ban the words of FILE (repeatable).",
        key="exclude_files",
        metavar="FILE",
        type="file",
        multiple=True,
    ),
]
LAST_LAP = OptionSpec("--last-lap", "The last lap after the stock ran out (2 tiles do).", flag=True)
EXAMPLES = {
    "check": ["melds check -r word-rummy がっこう ネコジタ か゛っき"],
    "solve": [
        "melds solve -r word-rummy --hand ねこじたかいぬ --table がっこう --has-melded",
        "melds solve -r word-rummy --bonus --hand ねこいぬかさ",
        "melds solve -r word-rummy --discards --hand たぬきね --table さかな --has-melded",
    ],
    "score": ["melds score -r word-rummy ねこいぬかさ --bonus-words ねこ,いぬ"],
    "move": ["melds move -r word-rummy puzzles/word-rummy/moves/m01-first-word.yaml word たぬき"],
}
ANSWER_TEXT = {"word-turn": present.turn_text, "word-bonus": present.bonus_text, "word-check": present.check_text}


class WordGame:
    name: ClassVar[str] = "words"
    label: ClassVar[str] = "word"

    def __init__(self, ruleset: Ruleset):
        self.ruleset = ruleset
        self.rules: WordRules = ruleset.rules
        self._sessions: dict[tuple, WordSession] = {}

    @classmethod
    def read_rules(cls, reader: RuleReader) -> WordRules:
        return read_rules(reader)

    @classmethod
    def options(cls, command: str) -> Sequence[OptionSpec]:
        if command == "check":
            return [LAST_LAP, *DICTIONARY]
        if command == "solve":
            return [
                OptionSpec("--loose", "Loose tiles on the table (relief discards).", metavar="TILES"),
                LAST_LAP,
                OptionSpec("--bonus", "The winner's best bonus words from a loser's --hand.", flag=True),
                OptionSpec("--discards", "Each tile let go: the kana whose draw then lets the hand go out.", flag=True),
                OptionSpec(
                    "--visible",
                    "With --discards: tiles seen outside the hand and the table, not left to draw.",
                    metavar="TILES",
                ),
                *DICTIONARY,
            ]
        if command == "score":
            return [
                OptionSpec(
                    "--bonus-words",
                    "The winner's bonus words from the loser's revealed CARDS, "
                    "comma-separated (ねこ,いぬ); each tile in them scores -2 instead of -1.",
                    metavar="WORDS",
                ),
                *DICTIONARY,
            ]
        return []

    @classmethod
    def examples(cls, command: str) -> Sequence[str]:
        return EXAMPLES.get(command, [])

    def close(self) -> None:
        self._sessions.clear()

    def describe(self) -> Result:
        rules = self.rules
        data = {
            "words": {
                "tiles": list(rules.tile_kinds),
                "copies": rules.copies or None,
                "dictionary": rules.dictionary_name,
            }
        }
        return Result(
            data, ExitCode.YES, lambda: f"{len(rules.tile_kinds)} kinds of tile; words from {rules.dictionary_name}"
        )

    # -- the dictionary of a request ----------------------------------------------------------------

    def session_for(
        self, lists: tuple[Path, ...] = (), default: bool = True, banned: tuple[Path, ...] = ()
    ) -> WordSession:
        """The tiles and dictionary for these word lists, loaded once."""
        key = (lists, default, banned)
        if key not in self._sessions:
            self._sessions[key] = WordSession(self.ruleset, lists, default, banned)
        return self._sessions[key]

    def session(self, request: Request) -> WordSession:
        return self.session_for(
            tuple(Path(p) for p in request.get("dict_files") or ()),
            not request.get("no_default_dict"),
            tuple(Path(p) for p in request.get("exclude_files") or ()),
        )

    # -- queries ---------------------------------------------------------------------------------------

    def check(self, request: Request) -> Result:
        key = next((k for k in ("words", "word", "cards") if request.get(k) is not None), "words")
        given = requests.strings(key, request.get(key))  # one word is a list of one; a wrong type, a bad request
        if given is None:
            raise MeldsError('each line needs "words": a list of words (or "word": one)')
        least = self.rules.min_length["last_lap"] if request.get("last_lap") else None
        result, code = self.session(request).check_words(list(given), min_tiles=least)
        return Result(result, ExitCode(code), lambda: present.check_text(result))

    def solve(self, request: Request) -> Result:
        if not request.get("hand") and not request.get("args"):
            raise MeldsError('give a puzzle file or folder, or -r RULESET --hand "CARDS"')
        if request.get("args"):
            raise MeldsError("give either a puzzle file or -r RULESET --hand, not both")
        facts = {
            **request,
            "table": list(request.get("table") or ()),
            "loose": request.get("loose") or "",
            "has_word": bool(request.get("has_word", request.get("has_melded"))),
        }
        if facts.get("visible") and not facts.get("discards"):
            raise MeldsError("--visible goes with --discards")
        if facts.get("discards") and facts.get("bonus"):
            raise MeldsError("ask one question: --bonus or --discards")
        budget = Budget(request.get("max_seconds"))  # from the request: loading the dictionary counts
        session = self.session(request)
        text: Callable[[dict[str, Any]], str]
        if facts.get("discards"):
            result, code = session.discards(facts, budget=budget)
            text = discards_text
        else:
            result, code = session.solve(facts, budget=budget)
            text = present.bonus_text if facts.get("bonus") else present.turn_text
        result = {**result, "dictionary": session.dictionary_json()}
        return Result(result, ExitCode(code), lambda: text(result))

    def score(self, request: Request) -> Result:
        facts = dict(request)
        if not facts.get("hand"):
            cards = request.get("cards") or ()
            if not cards:
                raise MeldsError("no hand given: the loser's revealed tiles, e.g. ねこいぬかさ")
            facts["hand"] = "".join(cards)
        result, code = self.session(request).score(facts)
        return Result(result, ExitCode(code), lambda: present.score_text(result))

    def answer(self, document: Document, request: Request, folder: bool = False) -> PuzzleResult:
        row, code = answer_puzzle(document, self.session_for, Budget(request.get("max_seconds")))
        matches = row.get("matches")
        folder_code = ExitCode(code) if matches is None else ExitCode.YES if matches else ExitCode.NO
        single = ExitCode.NO if matches is False else ExitCode(code)
        text = ANSWER_TEXT[row["question"]]
        return PuzzleResult(
            row,
            single,
            lambda: question_puzzle_text(row, text(row)),
            Summary(row["question"], None, matches, tuple(row.get("mismatches", ()))),
            folder_code,
        )

    @classmethod
    def log_formats(cls) -> Sequence:
        return ()  # replayed from the project's own log of actions

    def replay(self, log):
        raise MeldsError(f"{self.ruleset.id} reads no game records of other software; give a log of melds' own format")

    def settle_hand(self, state, turn_start):
        return settle_words(self, state)

    @cached_property
    def _moves(self) -> WordMoves:
        return WordMoves(self.ruleset, self.session_for())

    def moves(self) -> WordMoves:
        return self._moves

    def state_problems(self, state) -> list:
        """With the option tile-copies, the tiles a state shows must fit the set (raised as
        too-many-copies, naming the tile)."""
        moves = self._moves
        texts = [h for h in state.hands.values() if isinstance(h, str)] + [t.cards for t in state.table] + [state.loose]
        moves.session.check_copies(*([t for t in moves.tiles(text) if t != UNKNOWN] for text in texts if text))
        return []

    # -- audit -------------------------------------------------------------------------------------------

    def claim_checks(self) -> Mapping[str, ClaimCheck]:
        def word(claim: Mapping[str, Any]):
            return claim["legal"], self.session_for().check(claim["word"])["legal"], claim["word"]

        return {"word": word}

    def audit_checks(self) -> Sequence[Callable[[Any], None]]:
        return [self._deals]

    def _deals(self, audit) -> None:
        """Each player count's deal against the tile set. A set of unknown size cannot be checked:
        one gap, the deal rows its sides, the largest deal its figure."""
        rules = self.rules
        tiles = rules.copies * len(rules.tile_kinds)
        deals = [(players, each, src) for lo, hi, each, src in rules.hand_sizes for players in range(lo, hi + 1)]
        if not rules.copies and deals:
            players, each, src = max(deals, key=lambda d: d[0] * d[1])
            sides = list({id(s): s for _, _, s in deals if s is not src}.values())
            audit.add(
                "deal/unknown-set",
                "gap",
                src,
                f"the deal hands out up to {players * each} tiles ({players} players × {each}), but the "
                f"document never says how many tiles the set holds, so no deal — nor the draws from what is "
                f"left — can be checked against it",
                players * each,
                None,
                kind="missing-values",
                sides=sides,
            )
            return
        for players, each, src in deals:
            if players * each > tiles:
                audit.add(
                    f"deal/{players}",
                    "contradiction",
                    src,
                    f"{players} players need {players * each} tiles, the set holds {tiles}",
                    players * each,
                    tiles,
                )
