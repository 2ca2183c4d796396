"""`melds score`: one meld, a hand's penalty, a whole round."""

from __future__ import annotations

import json

from clirun import ROOT, run, runner

from cli import main


def test_meld_points_json_contract():
    result = run("score", "-r", "fesca", "--ordered", "土3", "土4", "土5", "太極", "土7", "--json")
    data = json.loads(result.output)
    assert result.exit_code == 0
    assert data["points"] == 1 and isinstance(data["breakdown"], list)
    counted = {tuple(p["cards"]): p["points"] for p in data["breakdown"]}
    assert counted[("土3", "土4", "土5")] == 1 and counted[("土7",)] == 0
    assert counted[("太極",)] == 0


def test_multiset_meld_scores_its_best_layout():
    data = json.loads(run("score", "-r", "fesca", "空無木", "木1", "木2", "--json").output)
    assert data["points"] == 1  # 空無木 as ZAT counts; as an RW it would not


def test_illegal_meld_scores_nothing():
    result = run("score", "-r", "fesca", "木5", "火5", "空無木", "--json")
    data = json.loads(result.output)
    assert result.exit_code == 1 and data["points"] is None and data["legal"] is False
    assert data["reasons"][0]["code"] == "duplicate-identity"


def test_penalty_and_double():
    data = json.loads(run("score", "-r", "fesca", "--penalty", "木1", "木2", "木3", "空無土", "--json").output)
    assert data["points"] == 8
    assert {p["group"]: p["points"] for p in data["breakdown"]} == {"五行": 3, "空無": 5}
    data = json.loads(run("score", "-r", "fesca", "--penalty", "--double", "火1", "火2", "陰陽2", "--json").output)
    assert data["points"] == 10
    text = run("score", "-r", "basic-rummy", "--penalty", "SA", "H7", "DK").output
    assert text.startswith("hand points: 18")


def test_round_file():
    path = ROOT / "puzzles/fesca/r03-laid-off-cards-count-for-the-owner.yaml"
    result = run("score", "-r", "fesca", "--round", str(path), "--json")
    data = json.loads(result.output)
    assert result.exit_code == 0 and data["matches"] is True
    systems = {s["id"]: s["payments"] for s in data["systems"]}
    assert systems["meld-points"] == {"A": 3, "B": 0, "C": -3}
    assert sum(systems["penalty"].values()) == 0


def test_round_text():
    path = ROOT / "puzzles/fesca/r02-document-penalty-doubled.yaml"
    result = run("score", "-r", "fesca", "--round", str(path))
    assert "B      +62" in result.output and "matches the expected payments" in result.output


def test_basic_rummy_round_going_rummy(tmp_path):
    text = """format: 1
ruleset: basic-rummy
title: Going Rummy
notes: A has 7 + 10 + 1 = 18, C has 5; doubled, B scores 46.
round:
  winner: B
  one_go: true
  players: [A, B, C]
  hands: {A: H7 DK SA, C: C5}
expect:
  payments:
    winner-scores: {A: -36, B: 46, C: -10}
"""
    path = tmp_path / "round.yaml"
    path.write_text(text, encoding="utf-8")
    assert run("score", "-r", "basic-rummy", "--round", str(path)).exit_code == 0
    plus_ten = text.replace("ruleset: basic-rummy", "ruleset: basic-rummy\noptions: {going-rummy: plus-ten}")
    plus_ten = plus_ten.replace("{A: -36, B: 46, C: -10}", "{A: -18, B: 33, C: -5}")
    path.write_text(plus_ten, encoding="utf-8")
    assert run("score", "-r", "basic-rummy", "--round", str(path)).exit_code == 0
    # no ruleset: in the file: the command line's (with its options) settles it
    path.write_text(text.replace("ruleset: basic-rummy\n", ""), encoding="utf-8")
    assert run("score", "-r", "basic-rummy", "--round", str(path)).exit_code == 0
    path.write_text(plus_ten.replace("ruleset: basic-rummy\n", ""), encoding="utf-8")
    assert run("score", "-r", "basic-rummy", "-o", "going-rummy=plus-ten", "--round", str(path)).exit_code == 0
    assert run("score", "-r", "basic-rummy", "--round", str(path)).exit_code == 0  # the file's options: plus ten


def test_score_batch():
    lines = '{"cards": "木1 火2 土3"}\n{"cards": "太極 木1", "penalty": true}\n{"cards": "木13"}\n'
    result = run("score", "-r", "fesca", "--batch", "-", input=lines)
    out = [json.loads(x) for x in result.stdout.splitlines()]
    assert out[0]["points"] == 1 and out[1]["points"] == 8 and out[2]["error"]["code"] == "unknown-card"
    assert result.exit_code == 2


def test_score_bad_input():
    result = runner().invoke(main, ["score", "-r", "fesca"])
    assert result.exit_code == 2 and "no cards given" in result.stderr
    result = runner().invoke(
        main, ["score", "-r", "fesca", "--round", str(ROOT / "puzzles/fesca/f01-run-and-set.yaml")]
    )
    assert result.exit_code == 2 and "no round" in result.stderr
