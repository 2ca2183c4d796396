"""The turn replayer (tests/replay.py) finds what is wrong in a turn: a sound turn replays clean,
and each way of spoiling it — a step's cards, what it takes, the discard, the cards kept, the
score — is named. (An oracle that passed everything would let every table-turn test pass.)"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from replay import replay
from test_puzzles import load_puzzle

ROOT = Path(__file__).resolve().parent.parent
# a turn of four table operations and a meld (発掘, 差し札, 抜き札), and one of a meld and a burial
TURNS = ["t11-excavate.yaml", "t06-bury-to-go-out-on-a-claimed-turn.yaml"]


def _turn(name: str):
    game, puzzle = load_puzzle(ROOT / "puzzles" / "fesca" / name)
    answer = game.answer_problem(puzzle.problem, puzzle.question, count=puzzle.count)
    assert answer.steps, "a turn of table operations"
    return puzzle.problem, answer


def _spoilings(problem, answer):
    """(what is spoilt, the answer spoilt), each one change."""
    steps = answer.steps
    other = next(f for f in problem.hand if f not in answer.kept and f != answer.discard)
    absent = next(f for f in problem.ruleset.deck.faces if f not in problem.hand)
    yield "first step dropped", dataclasses.replace(answer, steps=steps[1:])
    yield "meld points", dataclasses.replace(answer, score={**answer.score, "meld_points": 99})
    yield "a card kept more", dataclasses.replace(answer, kept=[*answer.kept, other])
    yield "discard not held", dataclasses.replace(answer, discard=absent)
    taking = [i for i, s in enumerate(steps) if s.taken]
    if taking:
        i = taking[0]
        yield (
            "nothing taken",
            dataclasses.replace(answer, steps=[*steps[:i], dataclasses.replace(steps[i], taken=()), *steps[i + 1 :]]),
        )
    yield (
        "a card not held played",
        dataclasses.replace(
            answer, steps=[dataclasses.replace(steps[0], played=(absent, *steps[0].played[1:])), *steps[1:]]
        ),
    )


@pytest.mark.parametrize("name", TURNS)
def test_replay_finds_every_spoiling(name):
    problem, answer = _turn(name)
    assert replay(problem, answer) == []
    for what, spoilt in _spoilings(problem, answer):
        assert replay(problem, spoilt) != [], what
