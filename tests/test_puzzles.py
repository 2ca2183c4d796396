"""The puzzle library: every puzzle's expected answer, and small ones against brute force."""

from __future__ import annotations

from pathlib import Path

import oracle
import pytest
from replay import replay

from solver.core.files import is_state, load_document
from solver.core.registry import load_game
from solver.core.yamlload import load_file
from solver.games.mahjong.puzzles import is_mahjong_puzzle
from solver.games.words.puzzles import is_word_puzzle
from solver.melding.puzzle import round_mismatches
from solver.melding.rounds import score_round

ROOT = Path(__file__).resolve().parent.parent
READ = {p: load_file(p) for p in (ROOT / "puzzles").rglob("*.yaml")}  # each file read once, to sort them
ALL_PUZZLES = sorted(p for p, data in READ.items() if not is_state(data))  # states: test_moves
# a rummy hand's distance or discard table (question: distance, or discards expecting a distance): test_distance_puzzles
DISTANCE = [p for p in ALL_PUZZLES if READ[p].get("question") == "distance" or "distance" in READ[p].get("expect", {})]
MAHJONG = [p for p in ALL_PUZZLES if is_mahjong_puzzle(READ[p]) and p not in DISTANCE]
WORDS = [p for p in ALL_PUZZLES if is_word_puzzle(READ[p])]  # tests/test_words.py
PUZZLES = [p for p in ALL_PUZZLES if p not in MAHJONG and p not in WORDS and p not in DISTANCE]
SETTLEMENTS = [p for p in PUZZLES if "settle" in READ[p]]  # Marriage rounds to settle


def load_puzzle(path):
    """A rummy-like puzzle file, read by its game: (the game, the puzzle)."""
    document = load_document(path)
    game = load_game(document.ruleset)
    return game, game.read(document)


def test_library_size():
    by_ruleset: dict = {}
    for path in ALL_PUZZLES:
        by_ruleset.setdefault(path.parent.name, []).append(path)
    assert len(by_ruleset.get("basic-rummy", [])) >= 20
    assert len(by_ruleset.get("fesca", [])) >= 45
    assert len(by_ruleset.get("marriage", [])) >= 20
    assert len(by_ruleset.get("gensou-mahjong", [])) >= 20
    assert len(by_ruleset.get("word-rummy", [])) >= 20
    # rulesets only: their puzzles are their examples
    for game in ("indian-rummy", "okey", "phase-10", "contract-rummy"):
        assert len(by_ruleset.get(game, [])) >= 10, game


@pytest.mark.parametrize("path", MAHJONG, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_mahjong_puzzle_answer_matches_expectation(path):
    data = load_file(path)
    assert data.get("expect") and data.get("notes"), "every bundled puzzle states its answer and how"
    document = load_document(path)
    row = load_game(document.ruleset).answer(document, {}).data
    assert row["matches"], row["mismatches"]
    if row["question"] == "discards":  # the table is the plain oracle's, worked out from the definition
        import shanten_oracle

        faces = load_document(path).ruleset.deck.faces
        three = not any((f.suit, f.rank) == ("m", "2") for f in faces)  # three players: no 2m–8m
        want = shanten_oracle.puzzle_expect(
            data["hand"], data.get("visible", ""), data.get("dora_indicators", ""), three
        )
        assert data["expect"] == want
    if row["question"] in ("waits", "best-discard"):  # the plain-Python oracle agrees
        import mahjong_oracle

        from solver.core.ruleset import load_ruleset
        from solver.games.mahjong.hands import Mahjong

        mj = Mahjong(load_ruleset(data["ruleset"]))
        hand = mj.parse_hand(data["hand"])
        counts34 = [0] * 34
        for f in hand.concealed:
            counts34[mahjong_oracle.index_of(f.suit, f.rank)] += 1
        allowed = sorted(mahjong_oracle.index_of(s, r) for s, r in mj.identities)
        if row["question"] == "waits":
            waits = mahjong_oracle.waits(counts34, len(hand.melds), allowed)
            assert [tile34(t) for t in waits] == sorted(row["waits"], key=lambda t: _order34(t))
        else:
            for discard in row["best_discard"]:
                t = _order34(discard)
                counts34[t] -= 1
                assert [tile34(w) for w in mahjong_oracle.waits(counts34, len(hand.melds), allowed)] == sorted(
                    row["waits"] if discard == row["best_discard"][0] else row["discards"][discard]["waits"],
                    key=_order34,
                )
                counts34[t] += 1


def tile34(t: int) -> str:
    return f"{t % 9 + 1}{'mps'[t // 9]}" if t < 27 else f"{t - 26}z"


def _order34(text: str) -> int:
    n, suit = int(text[0]), text[1]
    return 27 + n - 1 if suit == "z" else "mps".index(suit) * 9 + n - 1


@pytest.mark.parametrize("path", PUZZLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_puzzle_answer_matches_expectation(path):
    data = load_file(path)
    assert data.get("expect"), "every bundled puzzle states its expected answer"
    assert data.get("notes"), "and how it was worked out"
    if path in SETTLEMENTS:
        document = load_document(path)
        assert load_game(document.ruleset).answer(document, {}, folder=True).data["mismatches"] == []
        return
    game, puzzle = load_puzzle(path)
    if puzzle.round is not None:
        assert round_mismatches(puzzle, score_round(puzzle.round, game.checker)) == []
        return
    answer = game.answer_problem(puzzle.problem, puzzle.question, count=puzzle.count)
    assert game.mismatches(puzzle, answer) == []
    if getattr(answer, "steps", None):  # table operations, replayed (a Rummikub turn has none: it rearranges)
        assert replay(puzzle.problem, answer) == []


def _small(path: Path) -> bool:
    """A hand of at most nine cards and no table (Rummikub's turns rearrange the whole table: its
    own brute force checks them, tests/test_rummikub_brute.py)."""
    game, puzzle = load_puzzle(path)
    problem = puzzle.problem
    return problem is not None and not problem.table and len(problem.hand) <= 9 and game.name != "rummikub"


SMALL = [p for p in PUZZLES if p not in SETTLEMENTS and _small(p)]
# the brute force of a hand of eight or nine cards takes seconds each, and of a Fesca hand of seven
# (its wilds and chains) one to three: the slow suite runs those, the default run two Fesca ones
DEFAULT_FESCA_BRUTE_FORCE = {"f06-void-set", "f19-two-taiji"}


def _slow_brute_force(path: Path) -> bool:
    seven = len(load_puzzle(path)[1].problem.hand) <= 7
    return not seven or (path.parent.name == "fesca" and path.stem not in DEFAULT_FESCA_BRUTE_FORCE)


BRUTE_FORCE_CASES = [pytest.param(p, marks=pytest.mark.slow) if _slow_brute_force(p) else p for p in SMALL]


@pytest.mark.parametrize("path", BRUTE_FORCE_CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_small_puzzle_expectations_agree_with_brute_force(path):
    """The expected answers of small puzzles, re-derived by exhaustive search."""
    _, puzzle = load_puzzle(path)
    p = puzzle.problem
    turn = dict(table=p.table, turn=p.turn, claimed=p.claimed, has_melded=p.has_melded, phase=p.phase)
    can_out, best_out, best_any = oracle.best_turns(p.ruleset, list(p.hand), **turn)
    exp = puzzle.expect
    if "solvable" in exp:
        assert can_out == exp["solvable"]
    goals = p.ruleset.objective
    best = best_out if (puzzle.question == "go-out" and can_out) else best_any
    for goal, value in zip(goals, best, strict=True):
        if goal.measure in exp.get("score", {}):
            want = exp["score"][goal.measure]
            assert (value if goal.sense == "maximize" else -value) == want, goal.measure
    if "solutions" in exp:
        assert oracle.go_out_ways(p.ruleset, list(p.hand), **turn) == exp["solutions"]
    if "no_meld" in exp:
        assert sorted(oracle.unmeldable(p.ruleset, list(p.hand), p.phase)) == sorted(exp["no_meld"])
