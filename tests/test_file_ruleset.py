"""The command line reads the game of a puzzle or state file from its ``ruleset:`` line to know
the game's options, importing that one game rather than every game (start-up of ``melds solve
PUZZLE.yaml``: 0.55 s → 0.34 s); whenever that line is not plain, every game, as before."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from clirun import ROOT, run

from solver.commands.gameoptions import games_for
from solver.core.files import load_document, ruleset_named_in
from solver.core.registry import game_type, known_games

PUZZLES = ROOT / "puzzles"


def write(tmp_path: Path, text: str, name: str = "p.yaml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("folder", ["fesca", "marriage", "basic-rummy", "rummikub", "word-rummy", "gensou-mahjong"])
def test_each_bundled_puzzle_names_the_game_its_loader_finds(folder):
    for path in sorted((PUZZLES / folder).glob("*.yaml"))[:5]:
        ref = ruleset_named_in([str(path)])
        assert ref is not None, path
        (game,) = games_for([str(path)])
        assert game is game_type(load_document(path).ruleset.game), path


@pytest.mark.parametrize(
    "text",
    [
        "format: 1\nruleset: fesca\nhand: 木1\n",
        "\ufeffruleset: 'fesca'  # the game\nhand: 木1\n",
        'hand: 木1\nruleset: "fesca"\n',
    ],
)
def test_a_plain_top_level_line_names_the_ruleset(tmp_path, text):
    assert ruleset_named_in([write(tmp_path, text)]) == "fesca"


@pytest.mark.parametrize(
    "text",
    [
        "{ruleset: fesca, hand: 木1}\n",  # a flow mapping
        "ruleset: ../rulesets/fesca.yaml\nhand: 木1\n",  # a path: resolved by the loader, not here
        "ruleset: no-such-ruleset\n",
        "notes: |\n  ruleset: fesca\nhand: 木1\n",  # indented: not the top-level key
        "ruleset: fesca\nruleset: marriage\n",  # two (the loader refuses the duplicate)
        "hand: 木1\n",
    ],
)
def test_anything_else_leaves_every_game(tmp_path, text):
    path = write(tmp_path, text)
    assert ruleset_named_in([path]) is None
    assert {g.__name__ for g in games_for([path])} == {game_type(n).__name__ for n in known_games()}


def test_two_files_naming_two_games_leave_every_game(tmp_path):
    a = write(tmp_path, "ruleset: fesca\n", "a.yaml")
    b = write(tmp_path, "ruleset: marriage\n", "b.yaml")
    assert ruleset_named_in([a, b]) is None
    assert ruleset_named_in([a, str(tmp_path / "missing.yaml"), "--json"]) == "fesca"


def test_a_puzzle_loads_only_its_own_game():
    code = (
        "import sys, cli; from solver.commands.gameoptions import games_for; "
        "games_for(['puzzles/fesca/f01-run-and-set.yaml']); "
        "print(sorted(m for m in sys.modules if m.startswith('solver.games.') and m.count('.') == 2))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.stdout.strip() == "['solver.games.fesca']", out.stderr


def test_an_option_of_another_game_on_a_puzzle_names_its_owner():
    out = run("solve", str(PUZZLES / "fesca" / "f01-run-and-set.yaml"), "--tiplu", "S3")
    assert out.exit_code == 2
    assert "--tiplu is for Marriage games; fesca has no tiplu" in out.output
