"""`melds solve` end to end: inline hands, puzzle files and folders, JSON, batch, budgets."""

from __future__ import annotations

import json

import pytest
from clirun import ROOT, run, runner, subprocess_run

from cli import main


def test_inline_go_out_text():
    result = run("solve", "-r", "basic-rummy", "--hand", "S9 S10 SJ H4 D4 C4 C7")
    assert result.exit_code == 0
    assert "yes: the hand can go out" in result.output
    assert "discard  C7" in result.output


def test_inline_json_contract():
    result = run("solve", "-r", "basic-rummy", "--hand", "S9 S10 SJ H4 D4 C4 C7", "--json")
    data = json.loads(result.output)
    assert {"solvable", "melds", "discard", "score", "stats"} <= set(data)
    assert data["solvable"] is True and data["discard"] == "C7"
    assert sorted(tuple(c["card"] for c in m["cards"]) for m in data["melds"]) == [
        ("H4", "D4", "C4"),
        ("S9", "S10", "SJ"),
    ]
    assert all({"kind", "cards"} <= set(m) for m in data["melds"])
    assert all({"card", "as"} <= set(c) for m in data["melds"] for c in m["cards"])
    assert data["score"] == {"hand_points": 0}
    # a small plain hand is answered from its packings (solver/melding/turn/plain.py): no SAT call
    assert isinstance(data["stats"]["seconds"], float) and data["stats"]["sat_calls"] == 0
    # a hand with wilds goes to the turn model, and its SAT calls are counted
    wild = json.loads(run("solve", "-r", "fesca", "--hand", "木3 木4 太極 火5 火6 火7 水1", "--json").output)
    assert wild["stats"]["sat_calls"] > 0


def test_not_solvable_explains_why():
    result = run("solve", "-r", "basic-rummy", "--hand", "S2 S3 S4 H9 HK D8 C5 C6", "--json")
    data = json.loads(result.output)
    assert result.exit_code == 1 and data["solvable"] is False
    assert set(data["why"]["no_meld"]) == {"H9", "HK", "D8", "C5", "C6"}
    assert data["score"]["hand_points"] == 28


def test_wild_identities_in_answers():
    data = json.loads(run("solve", "-r", "fesca", "--hand", "太極 木7 木9 火3 土3 金3 水12", "--json").output)
    taiji = [c for m in data["melds"] for c in m["cards"] if c["card"] == "太極"][0]
    assert taiji == {"card": "太極", "as": "木8", "role": "GW", "wild": True}


def test_best_and_all_flags():
    data = json.loads(
        run(
            "solve", "-r", "fesca", "--hand", "木1 火2 土3 金4 水5 土9 金9 水9", "--phase", "yang", "--all", "--json"
        ).output
    )
    assert data["solvable"] is True and data["solutions"] == 2 and data["score"]["meld_points"] == 4
    best = json.loads(
        run("solve", "-r", "fesca", "--hand", "木9 火9 土9 金9 水9 陰陽9 木1 木2", "--best", "--json").output
    )
    assert best["question"] == "best" and best["score"] == {"meld_points": 8, "hand_points": 1}


def test_table_and_claimed_options():
    data = json.loads(
        run(
            "solve",
            "-r",
            "basic-rummy",
            "--hand",
            "D2 D6 D7 S8 H8 C8 CK",
            "--table",
            "me: D3 D4 D5",
            "--has-melded",
            "--json",
        ).output
    )
    assert data["layoffs"][0]["added"] == ["D2", "D6", "D7"] and data["layoffs"][0]["owner"] == "me"
    data = json.loads(
        run("solve", "-r", "fesca", "--hand", "木3 木4 木5 火8 土8 金8 水8", "--claimed", "木5", "--json").output
    )
    assert data["solvable"] is True and data["discard"] is None


def test_puzzle_file_and_expectation():
    result = run("solve", str(ROOT / "puzzles/basic-rummy/br01-two-melds-and-a-discard.yaml"))
    assert result.exit_code == 0
    assert "matches the puzzle's expected answer" in result.output
    data = json.loads(run("solve", str(ROOT / "puzzles/fesca/f07-six-card-set.yaml"), "--json").output)
    assert data["matches"] is True and data["solvable"] is False


def test_puzzle_folder_summary():
    result = run("solve", str(ROOT / "puzzles/basic-rummy"))
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].split()[:2] == ["puzzle", "answer"]
    assert "match their expected answers, 0 differ, 0 bad files" in lines[-1]


def test_puzzle_mismatch_is_reported(tmp_path):
    text = (ROOT / "puzzles/basic-rummy/br01-two-melds-and-a-discard.yaml").read_text(encoding="utf-8")
    (tmp_path / "wrong.yaml").write_text(text.replace("discard: C7", "discard: S9"), encoding="utf-8")
    result = run("solve", str(tmp_path))
    assert result.exit_code == 1 and "MISMATCH: discard: expected S9, got C7" in result.stdout


def test_budget_gives_exit_3():
    result = run(
        "solve", "-r", "fesca", "--hand", "木1 火2 土3 金4 水5 土9 金9 水9", "--max-seconds", "0.000001", "--json"
    )
    assert result.exit_code == 3 and json.loads(result.output)["solvable"] is None


def test_batch(tmp_path):
    lines = [
        {"hand": "S9 S10 SJ H4 D4 C4 C7"},
        {"hand": "S2 S3 S4 H9 HK D8 C5 C6"},
        {"puzzle": str(ROOT / "puzzles/fesca/f01-run-and-set.yaml")},
        {"hand": "木3 木4 木5", "ruleset": "fesca"},
        {"hand": "X1"},
    ]
    text = "\n".join(json.dumps(x, ensure_ascii=False) for x in lines)
    result = run("solve", "-r", "basic-rummy", "--batch", "-", input=text)
    out = [json.loads(x) for x in result.stdout.splitlines()]
    assert [o.get("solvable") for o in out[:3]] == [True, False, True]
    assert out[2]["matches"] is True
    assert out[3]["solvable"] is False  # three cards and a required discard
    assert out[4]["error"]["code"] == "unknown-card"
    assert result.exit_code == 2


@pytest.mark.parametrize(
    "args,fragment",
    [
        (["solve", "-r", "fesca"], "give a puzzle file or folder"),
        (["solve", "-r", "fesca", "--hand", "木3 木3"], "given 2 times"),
        (["solve", "-r", "fesca", "--hand", "水1 木3 木4 木5", "--claimed", "水1"], "impossible state"),
        (["solve", "-r", "basic-rummy", "--hand", "S9", "--table", "B: H5 H7 H9"], "not a legal meld"),
        (["solve", "-r", "basic-rummy", "--hand", "S9", "--claimed", "H2"], "not in the hand"),
    ],
)
def test_bad_input(args, fragment):
    result = runner().invoke(main, args)
    assert result.exit_code == 2 and fragment in result.stderr
    assert "Traceback" not in result.output + result.stderr


def test_bad_puzzle_file_names_the_line(tmp_path):
    path = tmp_path / "p.yaml"
    path.write_text("format: 1\nruleset: fesca\nhand: 木3 木4\nturn: {kind: sideways}\n", encoding="utf-8")
    result = runner().invoke(main, ["solve", str(path)])
    assert result.exit_code == 2 and f"{path}:4: turn.kind" in result.stderr


def test_subprocess_solve():
    proc = subprocess_run("solve", "-r", "basic-rummy", "--hand", "HA H2 H3 S5 D5 C5 HK", "--json")
    assert proc.returncode == 0 and json.loads(proc.stdout)["discard"] == "HK"
    # a folder in a real process (each of Fesca's puzzles is answered in tests/test_puzzles.py)
    proc = subprocess_run("solve", str(ROOT / "puzzles/basic-rummy"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0 differ" in proc.stdout
