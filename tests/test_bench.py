"""The benchmark runner runs (its figures are for the closing notes, not for tests): one small
scenario end to end, and its table."""

from __future__ import annotations

import argparse
import random
import subprocess
import sys

import pytest
from clirun import ROOT


def test_a_scenario_gives_a_row():
    sys.path.insert(0, str(ROOT))
    from bench.run import SCENARIOS

    row = SCENARIOS["fesca-solve-30"](argparse.Namespace(n=1, budget=10.0), random.Random(1))
    assert row.name == "fesca-solve-30" and len(row.times) == 1 and row.cells()[1] == "1"


def test_the_runner_prints_its_table():
    out = subprocess.run(
        [sys.executable, "-m", "bench.run", "--quick", "--only", "fesca-solve-30"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].split()[:3] == ["scenario", "n", "median"] and lines[2].startswith("fesca-solve-30  3")


def test_the_word_rummy_bench_runs(monkeypatch, capsys):
    """bench/word_rummy.py (not in bench/run's table) still runs: it was left reading a ruleset
    attribute the game packages replaced. Run in this process (the word list read once a worker,
    tests/conftest.py): its figures are not what is tested."""
    from bench import word_rummy

    monkeypatch.setattr(sys, "argv", ["word_rummy", "--trials", "1", "--sizes", "10"])
    word_rummy.main()
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("dictionary: ") and lines[1].split()[:2] == ["table", "tiles"]
    assert lines[2].split()[0] == "10" and lines[2].split()[3] in ("0/1", "1/1")


def test_the_table_sweeps_turns_are_legal_tables_and_a_sweep_reads_another_file(tmp_path):
    """Both files of fixed table turns hold what they say (legal melds of distinct cards, 20 to 42
    on the table, 10 in hand), and ``--data`` sweeps the turns of the file it names."""
    import json

    sys.path.insert(0, str(ROOT))
    from bench import table_sweep
    from solver.core.registry import load_game
    from solver.core.ruleset import load_ruleset

    rs = load_ruleset("fesca")
    checker = load_game(rs).checker
    for name, count in (("table-turns.json", 75), ("table-turns-more.json", 250)):
        turns = json.loads((ROOT / "bench" / "data" / name).read_text(encoding="utf-8"))["turns"]
        assert len(turns) == count
        for turn in turns:
            cards = [i for _, meld in turn["table"] for i in meld]
            assert len(turn["hand"]) == 10 and 20 <= len(cards) <= 42
            assert len(set(cards + turn["hand"])) == len(cards) + 10
            assert all(
                checker.check([rs.deck.faces[i] for i in meld], ordered=True, explain=False).legal
                for _, meld in turn["table"]
            )
    one = tmp_path / "one.json"
    one.write_text(json.dumps({"turns": turns[:1]}), encoding="utf-8")
    rows = table_sweep.run(10.0, data=one)
    assert [(r["seed"], r["turn"]) for r in rows] == [(turns[0]["seed"], turns[0]["turn"])]
    assert not rows[0]["undecided"]


def test_the_sweep_names_the_turns_decided_near_the_budget(capsys):
    """A turn decided in the last fifth of the budget is named beside the undecided ones (a slower
    machine would leave it undecided); one decided sooner, or left undecided, is not counted near."""
    sys.path.insert(0, str(ROOT))
    from bench import table_sweep

    rows = [
        {"seed": 1, "turn": 0, "seconds": 0.5, "undecided": False, "score": {}},
        {"seed": 1, "turn": 1, "seconds": 8.5, "undecided": False, "score": {}},
        {"seed": 2, "turn": 0, "seconds": 10.02, "undecided": True, "score": {}},
    ]
    assert [(r["seed"], r["turn"]) for r in table_sweep.near_limit(rows, 10.0)] == [(1, 1)]
    table_sweep.report(rows, "rows", 10.0)
    assert "undecided: 2:0; decided past 80% of the budget: 1:1 (8.5 s)" in capsys.readouterr().out


def test_the_package_process_scores_every_hand_it_reads(tmp_path):
    """bench/mahjong_package.py, the package's side of the mahjong-batch row, is a process of its
    own that scores every hand of its file and says how many the package found no win in — the
    same count as the package scoring those hands in-process."""
    import json

    pytest.importorskip("mahjong")
    sys.path.insert(0, str(ROOT))
    from bench.mahjong import fresh_deals, package_notation
    from bench.mahjong_package import package_scorer

    items = [package_notation(d) for d in fresh_deals(random.Random(3), 6, set())]
    hands = tmp_path / "hands.json"
    hands.write_text(json.dumps(items), encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "bench.mahjong_package", str(hands)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert " solver" not in out.stderr  # the import times: nothing of melds is loaded on the package's side
    score = package_scorer()[0]
    assert out.stdout.split() == ["6", str(sum(score(json.loads(json.dumps(item))) is None for item in items))]


@pytest.mark.slow
def test_the_mahjong_batch_row_times_pairs_of_whole_processes():
    """The mahjong-batch row's pairs: each a melds batch and a package process over the same
    hands, both of which answered every hand (checked inside), in seconds per hand."""
    sys.path.insert(0, str(ROOT))
    pytest.importorskip("mahjong")
    from bench.mahjong import fresh_deals, paired_whole_processes

    pairs = paired_whole_processes(fresh_deals(random.Random(4), 20, set()), 2)
    assert len(pairs) == 2 and all(len(p) == 4 and min(p) > 0 for p in pairs)


@pytest.mark.slow  # a turn's forms and two searches: seconds of a loaded machine
def test_the_table_proof_agrees_with_the_optimiser_on_a_small_turn():
    """bench/table_proof asks one SAT question over a table turn's model (a turn of at least N meld
    points?), every model verified and laid out as the optimiser's are: on a bench turn of 36
    forms it finds a turn of the optimiser's best (RC2's, another search) and proves none of one
    point more, with the solver's own counts of that proof; the turn it finds replays under the
    plain checker (tests/replay.py)."""
    sys.path.insert(0, str(ROOT))
    from replay import replay

    from bench import table_proof

    turn = table_proof.table_turn(13, 2)
    best = table_proof.best_of(turn).score["meld_points"]
    found, _ = table_proof.proof(turn, best)
    assert found is not None and found.score["meld_points"] == best
    assert replay(turn.problem, found) == []
    refuted, calls, counts = table_proof.counted_proof(table_proof.over_stand_ins(turn), best + 1)
    assert refuted is None and calls >= 1
    assert counts["conflicts"] >= 0 and counts["propagations"] > 0  # the solver's own counts, printed with its time
    # --classes walks every meld again at the search's fixpoint: the same forms (it asserts so), a row a meld
    assert len(table_proof.classes(turn)) == len(turn.problem.table)
