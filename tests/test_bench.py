"""The benchmark runner runs (its figures are for the closing notes, not for tests): one small
scenario end to end, and its table."""

from __future__ import annotations

import argparse
import random
import subprocess
import sys

from clirun import ROOT


def test_a_scenario_gives_a_row():
    sys.path.insert(0, str(ROOT))
    from bench.run import SCENARIOS

    row = SCENARIOS["fesca-solve-30"](argparse.Namespace(n=1, budget=10.0), random.Random(1))
    assert row.name == "fesca-solve-30" and len(row.times) == 1 and row.cells()[1] == "1"


def test_the_runner_prints_its_table():
    out = subprocess.run([sys.executable, "-m", "bench.run", "--quick", "--only", "fesca-solve-30"],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].split()[:3] == ["scenario", "n", "median"] and lines[2].startswith("fesca-solve-30  3")


def test_the_word_rummy_bench_runs():
    """bench/word_rummy.py (not in bench/run's table) still runs: it was left reading a ruleset
    attribute the game packages replaced."""
    out = subprocess.run([sys.executable, "-m", "bench.word_rummy", "--trials", "1", "--sizes", "10"],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("dictionary: ") and lines[1].split()[:2] == ["table", "tiles"]
    assert lines[2].split()[0] == "10" and lines[2].split()[3] in ("0/1", "1/1")
