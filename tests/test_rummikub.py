"""Rummikub through every command: sets, the initial meld, the table rearranged, scoring, moves,
the audit, and the options (house rules)."""

from __future__ import annotations

import json

import pytest
from clirun import run

from solver.core.registry import load_game
from solver.core.ruleset import load_ruleset


def solve(*args: str) -> dict:
    return json.loads(run("solve", "-r", "rummikub", *args, "--json").stdout)


@pytest.mark.parametrize(
    "tiles,legal",
    [
        ("r7 r8 J", True),
        ("k5 b5 o5", True),
        ("k5 b5 o5 r5", True),
        ("k5 b5 o5 r5 J", False),
        ("k5 k5 o5", False),
        ("r10 r11 r12 r13", True),
        ("r12 r13 r1", False),
        ("r1 r2 r3", True),
        ("k9 b9 J", True),
        ("J J r5", True),
        ("r7 b8 o9", False),
        ("r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 r13", True),
    ],
)
def test_sets(tiles, legal):
    result = run("check", "-r", "rummikub", *tiles.split())
    assert result.exit_code == (0 if legal else 1), result.output


def test_house_rules_are_options():
    assert run("check", "-r", "rummikub", "-o", "wrap=true", "r12", "r13", "r1").exit_code == 0
    assert run("check", "-r", "rummikub", "-o", "jokers=3", "J", "J", "J").exit_code == 1  # jokers alone: no set
    assert run("check", "-r", "rummikub", "-o", "jokers=3", "J", "J", "J", "r5").exit_code == 0
    assert "deck holds 2 copies" in run("check", "-r", "rummikub", "J", "J", "J", "r5").stderr  # two in the box
    data = json.loads(
        run(
            "solve", "-r", "rummikub", "-o", "initial-meld=50", "--hand", "k10 b10 o10 r3 r4", "--best", "--json"
        ).stdout
    )
    assert data["placed"] == [] and data["initial_meld"]["needed"] == 50


def test_aliases_of_the_colours():
    assert run("check", "-r", "rummikub", "R7", "red-8", "red9").exit_code == 0
    assert run("check", "-r", "rummikub", "black7", "blue7", "orange7").exit_code == 0


def test_the_best_turn_rearranges_the_table():
    data = solve(
        "--hand", "r10 r11 J k2", "--table", "all: r7 r8 r9", "--table", "all: k5 b5 o5", "--has-melded", "--best"
    )
    assert sorted(data["placed"]) == ["J", "r10", "r11"] and data["kept"] == ["k2"]
    assert data["score"] == {"tiles_placed": 3, "value_placed": 21}  # the numbers printed: 10 + 11 (a joker none)
    tiles = sorted(t for s in data["table"] for t in s)  # the joker may go on the run or into the fives
    assert tiles == sorted(["r7", "r8", "r9", "k5", "b5", "o5", "r10", "r11", "J"]) and data["solvable"] is False


def test_a_fourth_tile_moves_from_a_group_into_a_run():
    data = solve("--hand", "b4 b6 b7", "--table", "all: k5 b5 o5 r5", "--has-melded")
    assert data["solvable"] is True
    assert sorted(map(sorted, data["table"])) == [["b4", "b5", "b6", "b7"], ["k5", "o5", "r5"]]


def test_the_initial_meld_needs_thirty_from_the_rack_alone():
    at_thirty = solve("--hand", "k10 b10 o10 r3 r4", "--table", "all: r5 r6 r7", "--best")
    assert at_thirty["placed"] == ["k10", "b10", "o10"] and at_thirty["initial_meld"]["value"] == 30
    assert ["r5", "r6", "r7"] in at_thirty["table"]  # the table is not touched (r3 r4 stay on the rack)
    short = solve("--hand", "k9 b9 o9 r3 r4", "--best")
    assert short["placed"] == [] and short["solvable"] is False
    assert run("solve", "-r", "rummikub", "--hand", "k9 b9 o9 r3 r4", "--best").exit_code == 1
    joker = solve("--hand", "r11 r12 J", "--best")  # the joker counts as the number it stands for: 13
    assert joker["placed"] and joker["initial_meld"]["value"] == 36


def test_going_out_and_its_exit_code():
    assert (
        run("solve", "-r", "rummikub", "--hand", "r10 r11 J", "--table", "all: r7 r8 r9", "--has-melded").exit_code == 0
    )
    assert (
        run("solve", "-r", "rummikub", "--hand", "r10 r11 J k3", "--table", "all: r7 r8 r9", "--has-melded").exit_code
        == 1
    )


def test_an_illegal_table_is_bad_input():
    result = run("solve", "-r", "rummikub", "--hand", "r1", "--table", "all: r7 r9 k3", "--has-melded")
    assert result.exit_code == 2 and "not a legal set" in result.stderr


def test_the_batch_gives_the_same_keys():
    line = {"hand": "r10 r11 J k2", "table": ["all: r7 r8 r9", "all: k5 b5 o5"], "has_melded": True, "best": True}
    out = json.loads(run("solve", "-r", "rummikub", "--batch", "-", input=json.dumps(line) + "\n").stdout)
    alone = solve(
        "--hand", "r10 r11 J k2", "--table", "all: r7 r8 r9", "--table", "all: k5 b5 o5", "--has-melded", "--best"
    )
    assert out["line"] == 1 and out["placed"] == alone["placed"] and out["table"] == alone["table"]


def test_score_a_set_and_a_rack():
    assert json.loads(run("score", "-r", "rummikub", "r11", "r12", "J", "--json").stdout)["points"] == 36
    rack = json.loads(run("score", "-r", "rummikub", "--penalty", "k7", "b13", "J", "--json").stdout)
    assert rack["points"] == 50
    house = json.loads(run("score", "-r", "rummikub", "-o", "joker-value=50", "--penalty", "k7", "J", "--json").stdout)
    assert house["points"] == 57


def test_moves_judge_plays_written_as_the_table_they_leave():
    path = "puzzles/rummikub/moves/m02-rearrange.yaml"
    assert run("move", path, "play k5 o5 r5 | b4 b5 b6 b7").exit_code == 0
    taken = run("move", path, "play b4 b5 b6 b7", "--json")
    assert taken.exit_code == 1 and json.loads(taken.stdout)["reasons"][0]["code"] == "table-stays"
    listed = json.loads(run("moves", path, "--json").stdout)
    assert "draw" in listed["actions"] and any(a.startswith("play ") for a in listed["actions"])


def test_audit_is_clean_and_lists_its_assumptions():
    result = run("audit", "rummikub", "--json")
    data = json.loads(result.stdout)
    assert result.exit_code == 0
    assert data["rulesets"][0]["claims_checked"] == data["rulesets"][0]["claims_agreeing"] >= 8
    assert {f["id"] for f in data["findings"] if f["severity"] == "assumption"} == {
        "rummikub/assumption/notation",
        "rummikub/assumption/joker-needs-a-tile",
        "rummikub/assumption/pool-empty",
    }


def test_the_game_comes_from_its_package_through_the_registry():
    game = load_game(load_ruleset("rummikub"))
    assert type(game).name == "rummikub" and game.ruleset.initial_meld.points == 30
    assert load_game(load_ruleset("rummikub", {"initial-meld": 50})).ruleset.initial_meld.points == 50
