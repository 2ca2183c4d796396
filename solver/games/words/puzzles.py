"""Word-game puzzles: "can this hand go out this turn?", "what are the best bonus words?", "are
these words legal?" — the shared puzzle format (docs/puzzle-format.md) with ``question:
word-turn | word-bonus | word-check``. The table is a list of ``{owner, cards: WORD}``, the
player's first word is ``turn: {has_melded: true}``, and ``expect:`` names the counts a correct
answer must have (``goes_out``, ``placed``; ``tiles_in_words``, ``points``; ``legal``), not the
words, since a hand often goes out several ways; tests re-check the words found."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from solver.core.errors import ExitCode, MeldsError
from solver.core.files import Document
from solver.games.words.session import WordSession
from solver.sat.budget import Budget

QUESTIONS = ("word-turn", "word-bonus", "word-check")


def is_word_puzzle(data: Any) -> bool:
    return isinstance(data, dict) and data.get("question") in QUESTIONS


def puzzle_facts(data: Mapping[str, Any]) -> dict[str, Any]:
    """The request facts of a puzzle, as the command line and batches give them."""
    hand = data.get("hand", "")
    return {
        "hand": hand if isinstance(hand, str) else "".join(hand),
        "table": [t["cards"] if isinstance(t["cards"], str) else "".join(t["cards"]) for t in data.get("table", [])],
        "loose": data.get("loose", ""),
        "has_word": bool(data.get("turn", {}).get("has_melded", False)),
        "last_lap": bool(data.get("last_lap", False)),
    }


def answer_puzzle(
    document: Document, session_for: Callable[..., WordSession], budget: Budget | None = None
) -> tuple[dict, int]:
    """Answer a word puzzle: (result with matches/mismatches, exit code of the answer), within
    ``budget`` (the request's ``max_seconds``; undecided: exit 3, nothing to compare).
    ``session_for(lists, default, banned)`` gives the session of the puzzle's dictionary."""
    data, path = document.data, document.path
    if not is_word_puzzle(data):
        raise MeldsError(f"{path}: a word puzzle asks {', '.join(QUESTIONS)} (question:)")
    spec = data.get("dictionary", {})
    lists = tuple((path.parent / f).resolve() for f in spec.get("files", []))
    banned = tuple((path.parent / f).resolve() for f in spec.get("exclude", []))
    session = session_for(lists, spec.get("default", True), banned)
    question = data["question"]
    if question == "word-check":
        if "words" not in data:
            raise MeldsError(f"{path}: a word-check puzzle lists its words under words:")
        lap = session.game.min_length["last_lap"] if data.get("last_lap") else None
        result, code = session.check_words(data["words"], min_tiles=lap)
        got: dict[str, Any] = {"legal": [w["legal"] for w in result["words"]]}
    elif question == "word-bonus":
        result, code = session.bonus(puzzle_facts(data), budget=budget)
        got = {"tiles_in_words": result.get("tiles_in_words"), "points": result.get("points")}
    else:
        result, code = session.solve(puzzle_facts(data), budget=budget)
        got = {"goes_out": result.get("goes_out"), "placed": result.get("placed")}
    row = {"puzzle": str(path), "title": document.title, "question": question, **result}
    expect = data.get("expect") or {}
    if expect and code != ExitCode.UNDECIDED:
        problems = [f"{k}: expected {v!r}, got {got.get(k)!r}" for k, v in expect.items() if got.get(k) != v]
        unknown = [k for k in expect if k not in got]
        if unknown:
            raise MeldsError(
                f"{path}: expect has {', '.join(unknown)}, which a {question} puzzle does not answer "
                f"(it answers {', '.join(got)})"
            )
        row.update(matches=not problems, mismatches=problems)
    return row, code
