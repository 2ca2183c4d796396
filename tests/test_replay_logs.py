"""melds replay on the project's own game logs (puzzles/*/logs, docs/replay-format.md): the samples
of every rummy-family game agree; an illegal action is caught where it stands, with its rule and
quote; a changed result is a mismatch; a malformed log is bad input, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clirun import run

from solver.core.logs import replay_file, replay_text

ROOT = Path(__file__).resolve().parent.parent
SLOW = {"marriage", "word-rummy"}  # a SAT model of 21 cards, a dictionary: seconds each
SAMPLES = [
    pytest.param(p, marks=pytest.mark.slow) if p.parent.parent.name in SLOW else p
    for p in sorted((ROOT / "puzzles").glob("*/logs/*.jsonl"))
]


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _text(objects: list[dict]) -> str:
    return "\n".join(json.dumps(o, ensure_ascii=False) for o in objects) + "\n"


def test_there_is_a_sample_log_for_every_rummy_family_game():
    games = {p.parent.parent.name for p in (ROOT / "puzzles").glob("*/logs/*.jsonl")}
    assert {"basic-rummy", "fesca", "marriage", "rummikub", "word-rummy"} <= games


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: getattr(p, "name", ""))
def test_every_sample_log_agrees(path):
    (report,) = replay_file(str(path))
    assert report.error is None, report.error
    assert [h.status for h in report.hands] == ["agree"] * len(report.hands)
    assert all(h.deltas == h.expected for h in report.hands)


def test_an_illegal_action_is_caught_where_it_stands_with_its_rule():
    header, hand = _lines(ROOT / "puzzles/basic-rummy/logs/br-a-goes-out.jsonl")
    hand["actions"][2] = "discard H5"  # the card just taken from the discard pile
    (report,) = replay_text("x.jsonl", _text([header, hand]))
    bad = report.hands[0]
    assert bad.status == "illegal" and bad.illegal["turn"] == 3 and bad.illegal["seat"] == "A"
    reasons = {r["code"]: r for r in bad.illegal["reasons"]}
    source = reasons["taken-not-discarded"]["source"]
    assert source.get("quote") or source.get("assumption")  # the rule's own words, or the ruleset's reading


def test_a_changed_result_is_a_mismatch_and_per_system_results_are_checked():
    header, hand = _lines(ROOT / "puzzles/fesca/logs/fe-run-and-set.jsonl")
    hand["result"]["meld-points"] = {"A": 6, "B": -6}
    (report,) = replay_text("x.jsonl", _text([header, hand]))
    bad = report.hands[0]
    assert bad.status == "mismatch" and bad.deltas == [10, -10] and bad.expected == [13, -13]
    assert {m["what"] for m in bad.mismatches} == {"result.meld-points", "deltas"}


def test_the_yaml_form_and_write_example(tmp_path):
    result = run("replay", "--write-example", "-r", "rummikub")
    assert result.exit_code == 0 and "log: melds" in result.stdout
    sample = tmp_path / "rk.yaml"
    sample.write_text(result.stdout, encoding="utf-8")
    result = run("replay", str(sample), "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["hands"][0]["status"] == "agree" and data["hands"][0]["deltas"] == [21, -21]


def test_a_malformed_log_is_bad_input(tmp_path):
    header, hand = _lines(ROOT / "puzzles/rummikub/logs/rk-joker-goes-out.jsonl")
    hand["actions"][1] = "fly away"
    bad = tmp_path / "bad.jsonl"
    bad.write_text(_text([header, hand]), encoding="utf-8")
    result = run("replay", str(bad), "--json")
    assert result.exit_code == 2
    (game,) = json.loads(result.stdout)["games"]
    assert game["status"] == "malformed" and "action 2" in game["error"]["message"]
    (tmp_path / "other.txt").write_text("hello", encoding="utf-8")
    result = run("replay", str(tmp_path / "other.txt"))
    assert result.exit_code == 2 and "not a game log" in result.stdout
