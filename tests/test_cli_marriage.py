"""Marriage through the command line: check --tiplu, solve --see/--which-tiplu, score --settle."""

from __future__ import annotations

import json

from clirun import ROOT, run, runner

from cli import main

GOOD = "SA S2 S3 H5 H6 H7 D9 D9 D9 CJ CQ CK S8 H8 D8 C4 C4 C4 HK SK DK S7"


def test_check_names_the_kind():
    data = json.loads(run("check", "-r", "marriage", "--tiplu", "S10", "S9", "S10", "SJ", "--json").output)
    assert data["legal"] and data["kind"] == "marriage"
    data = json.loads(run("check", "-r", "marriage", "--tiplu", "C5", "SJ", "HJ", "D5", "--json").output)
    assert data["kind"] == "dirty-triplet" and data["cards"][2]["wild"] is True


def test_check_without_tiplu_has_no_wilds():
    result = run("check", "-r", "marriage", "SJ", "HJ", "D5")
    assert result.exit_code == 1


def test_tiplu_only_for_marriage():
    result = runner().invoke(main, ["check", "-r", "fesca", "--tiplu", "木3", "木3", "木4", "木5"])
    assert result.exit_code == 2 and "has no tiplu" in result.stderr


def test_solve_go_out_and_route():
    data = json.loads(run("solve", "-r", "marriage", "--hand", GOOD, "--json").output)
    assert data["solvable"] and data["route"] == "combinations" and len(data["melds"]) == 7


def test_solve_see():
    result = run("solve", "-r", "marriage", "--hand", GOOD, "--see")
    assert result.exit_code == 0 and "see the tiplu" in result.output


def test_solve_which_tiplu():
    hand = GOOD.replace("C4 C4 C4", "C4 C4 C5")
    data = json.loads(run("solve", "-r", "marriage", "--hand", hand, "--which-tiplu", "--json").output)
    assert data["question"] == "which-tiplu" and "S7" in data["tiplus"] and "SK" in data["tiplus"]


def test_solve_with_shown_tunnela():
    hand = "S8 H8 D8 HK SK DK C2 C3 C4 S5 S6 S7 C9 H9 S9 D4 S4 H4 H3"
    assert run("solve", "-r", "marriage", "--hand", hand).exit_code == 1
    assert run("solve", "-r", "marriage", "--hand", hand, "--shown", "DJ DJ DJ").exit_code == 0


def test_score_settle():
    path = ROOT / "puzzles/marriage/s01-settlement-by-hand.yaml"
    data = json.loads(run("score", "-r", "marriage", "--settle", str(path), "--json").output)
    assert data["payments"] == {"A": 41, "B": -14, "C": -27} and data["matches"] is True
    text = run("score", "-r", "marriage", "--settle", str(path)).output
    assert "B pays A: 3 + 17 − 2 × 3 = 14" in text


def test_one_question_at_a_time():
    result = runner().invoke(main, ["solve", "-r", "marriage", "--hand", GOOD, "--see", "--best"])
    assert result.exit_code == 2
