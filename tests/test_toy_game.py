"""A new game arrives through the registry alone: a toy package in the tests' own folder,
registered, runs check, solve, score, puzzles, --json and --help through the command line."""

from __future__ import annotations

import json

import pytest
from clirun import run
from toygame import RULESET, Tens

from solver.core import registry
from solver.core.game import Game
from solver.core.ruleset import load_ruleset


@pytest.fixture
def tens(tmp_path):
    registry.register(Tens)
    path = tmp_path / "tens.yaml"
    path.write_text(RULESET, encoding="utf-8")
    yield str(path)
    registry.unregister(Tens.name)


def test_the_toy_implements_the_protocol(tens):
    game = registry.load_game(load_ruleset(tens))
    assert isinstance(game, Tens) and isinstance(game, Game)


def test_check_solve_score_through_the_command_line(tens):
    legal = run("check", "-r", tens, "3", "7", "--json")
    assert legal.exit_code == 0 and json.loads(legal.output) == {"legal": True, "cards": ["3", "7"], "sum": 10}
    illegal = run("check", "-r", tens, "3", "8", "--show-sum")
    assert illegal.exit_code == 1 and illegal.output.strip() == "illegal (sum 11)"
    solved = run("solve", "-r", tens, "--hand", "1 9 2 8 5 5", "--json")
    assert solved.exit_code == 0 and json.loads(solved.output)["solvable"] is True
    assert run("solve", "-r", tens, "--hand", "1 2 3").exit_code == 1
    assert run("score", "-r", tens, "4", "4").output.strip() == "8 points"
    eleven = run("check", "-r", tens, "-o", "target=11", "3", "8", "--json")
    assert json.loads(eleven.output)["legal"] is True


def test_its_options_and_examples_are_its_own(tens):
    help_text = run("check", "-r", tens, "--help").output
    assert "--show-sum" in help_text and "melds check -r tens.yaml 3 7" in help_text
    assert "--show-sum" not in run("check", "-r", "basic-rummy", "--help").output
    refused = run("check", "-r", tens, "--ordered", "3", "7")
    assert refused.exit_code == 2


def test_batches_and_puzzles(tens, tmp_path):
    batch = run("check", "-r", tens, "--batch", "-", input='{"cards": "2 8"}\n{"cards": "2 2"}\n{"cards": "x"}\n')
    rows = [json.loads(line) for line in batch.stdout.splitlines()]
    assert [r.get("legal") for r in rows] == [True, False, None] and rows[2]["error"]["code"] == "unknown-card"
    assert batch.exit_code == 2
    (tmp_path / "puzzles").mkdir()
    puzzle = tmp_path / "puzzles" / "p1.yaml"
    puzzle.write_text(f"format: 1\nruleset: {tens}\nhand: 4 6 3 7\nexpect: {{solvable: true}}\n", encoding="utf-8")
    assert run("solve", str(puzzle), "--json").exit_code == 0
    folder = run("solve", str(tmp_path / "puzzles"))
    assert folder.exit_code == 0 and "1 puzzles: 1 match" in folder.output


def test_an_unknown_game_is_a_clear_error(tmp_path):
    path = tmp_path / "odd.yaml"
    path.write_text("format: 1\nid: odd\ngame: nosuchgame\nname: Odd\ndocument: {file: x.txt}\n", encoding="utf-8")
    result = run("check", "-r", str(path), "1")
    assert result.exit_code == 2 and "unknown game 'nosuchgame'" in result.output
