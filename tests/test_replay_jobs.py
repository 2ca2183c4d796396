"""melds replay --jobs N shows what one job shows, in the same order: each log is shown where it
is replayed (a worker sends back its lines and counts), and the parent adds the counts up; the
log formats are asked only of the games that read some."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from clirun import run

from solver.core import registry
from solver.core.logs import foreign_formats
from solver.core.replay import GameReport, HandReport, Summary

TENHOU = Path(__file__).parent / "data" / "tenhou"
SMALL = ["kyushukyuhai", "four_reach", "rinshan", "double_ron", "ryukyoku"]


def _folder(tmp_path: Path) -> Path:
    """Small real records in a folder, with a copy of one whose first win's payment is moved by
    100 points (a mismatch) and a file that is no record (malformed), amid them."""
    for k, name in enumerate(SMALL):
        shutil.copy(TENHOU / f"{name}.json", tmp_path / f"{k:02d}-{name}.json")
    text = (TENHOU / "double_ron.json").read_text(encoding="utf-8")
    moved = text.replace('["和了",[13000,0,0,-12000]', '["和了",[13100,0,0,-12100]', 1)
    assert moved != text
    (tmp_path / "03a-moved.json").write_text(moved, encoding="utf-8")
    (tmp_path / "04a-broken.json").write_text('{"log": [[1, 2]]}', encoding="utf-8")
    return tmp_path


def _steady(output: str) -> str:
    """The output without its clock readings."""
    output = re.sub(r'"(seconds|hands_per_second)": [0-9.]+', r'"\1": 0', output)
    return re.sub(r"in [0-9.]+ s: [0-9.]+ hands/s", "in _", output)


def test_two_jobs_show_what_one_job_shows_in_the_same_order(tmp_path):
    folder = str(_folder(tmp_path))
    one = run("replay", folder, "--json")
    two = run("replay", folder, "--json", "--jobs", "2")
    assert two.exit_code == one.exit_code == 2  # the malformed file's code, as one job gives it
    assert _steady(two.stdout) == _steady(one.stdout)
    shown = json.loads(two.stdout)
    assert [g["status"] for g in shown["games"]].count("malformed") == 1
    assert [h["status"] for h in shown["hands"]].count("mismatch") == 1
    assert [Path(g["file"]).name for g in shown["games"]] == sorted(p.name for p in tmp_path.iterdir())
    assert shown["summary"]["files"] == len(SMALL) + 2 and shown["summary"]["agree"] > 0


@pytest.mark.slow
@pytest.mark.parametrize("form", [(), ("-v",)], ids=["text", "every-hand"])
def test_the_text_forms_of_three_jobs_are_one_jobs(tmp_path, form):
    folder = str(_folder(tmp_path))
    one = run("replay", folder, *form)
    three = run("replay", folder, *form, "--jobs", "3")
    assert three.exit_code == one.exit_code == 2
    assert _steady(three.stdout) == _steady(one.stdout)
    assert "mismatch" in three.stdout and "03a-moved.json" in three.stdout  # the game is named


def test_counts_added_up_in_parts_are_the_counts_added_one_by_one():
    tags = [("立直", "ドラ"), ("門前清模和",), (), ("ドラ", "一気通貫"), ("立直",)]
    statuses = ["agree", "mismatch", "agree", "illegal", "agree"]
    reports = []
    for k in range(5):
        report = GameReport(f"{k}.json", "tenhou-json")
        report.hands = [
            HandReport("東1局 0本場", status=statuses[(k + j) % 5], tags=tags[(k * j) % 5]) for j in range(k + 1)
        ]
        reports.append(report)
    reports.append(GameReport("bad.json", "unknown", error={"code": "bad-input", "message": "not a log"}))
    whole = Summary(files=len(reports))
    for report in reports:
        whole.add(report)
    parted = Summary(files=len(reports))
    for part in (reports[:2], reports[2:3], reports[3:]):
        counted = Summary()
        for report in part:
            counted.add(report)
        parted.merge(counted)
    assert json.dumps(parted.to_json(), ensure_ascii=False) == json.dumps(whole.to_json(), ensure_ascii=False)
    assert whole.malformed == 1 and whole.hands == 15


def test_the_formats_read_are_every_games_own_though_not_every_game_is_asked():
    asked = [
        (name, fmt.id)
        for name in registry.known_games()
        for fmt in getattr(registry.game_type(name), "log_formats", lambda: ())()
    ]
    assert asked and [(name, fmt.id) for name, fmt in foreign_formats()] == asked
