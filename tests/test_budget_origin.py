"""A budget counts from the command's start (issue 20, item 4): ``--max-seconds`` is the whole
command's time as its user measures it — start-up, reading the ruleset and loading a state
included. The command line hands each query's budget the process's start
(:func:`solver.sat.budget.count_from`); a batch gives every line its own time.

Measured before: ``melds moves`` on a state with every wild ended 2.0 s after its start at
``--max-seconds 1`` (the budget began after the state was loaded), and a Marriage turn 1.5 s,
because an unused budget was made before the one the turn ran under."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from clirun import ROOT, run

from solver.commands.batch import ordered_map
from solver.sat import budget as budgets
from solver.sat.budget import Budget, count_from, process_start

MANY_WILDS = Path(__file__).resolve().parent / "data" / "hostile" / "state-many-wilds.yaml"


@pytest.fixture(autouse=True)
def no_origin_left():
    """An origin set by a test must not reach the next test's budgets."""
    yield
    count_from(None)


def test_every_budget_with_a_deadline_counts_from_the_origin():
    origin = time.perf_counter() - 0.4
    count_from(origin)
    unlimited = Budget()  # no deadline: nothing to count
    assert unlimited.start > origin
    first = Budget(1.0)
    assert first.start == origin and first.deadline == origin + 1.0
    assert 0.5 <= first.left() <= 0.6 + 0.1
    second = Budget(1.0)  # a second budget of the command (an unused one made first, say): the same start
    assert second.start == origin
    count_from(None)  # a batch's line: its own start
    assert Budget(1.0).start > origin + 0.39


def test_an_origin_later_than_now_is_not_a_gift_of_time():
    count_from(time.perf_counter() + 100)
    made = Budget(1.0)
    assert made.start <= time.perf_counter() and made.left() <= 1.0


def test_the_process_start_is_read_from_the_system():
    """A new interpreter's age at its first line: its start-up so far (more than 10 ms: a start
    time that fell back to now would read about 0), well under five seconds."""
    code = "import time; from solver.sat.budget import process_start; print(time.perf_counter() - process_start())"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    age = float(out.stdout)
    assert 0.01 < age < 5
    assert process_start() <= time.perf_counter()


def test_a_batch_gives_each_line_its_own_time():
    origin = time.perf_counter() - 100
    count_from(origin)
    starts = list(ordered_map(lambda _: Budget(1.0).start, range(3)))
    assert all(start > origin + 99 for start in starts)
    assert budgets._origin is None


# Each a query that answers at once when its budget starts with it: given an origin 30 s in the
# past, its 5 s are spent before it begins, so it must answer undecided (exit 3). A query that
# answered would have counted from a budget of its own, made after the origin was taken.
QUERIES = {
    "fesca go-out": ["solve", "-r", "fesca", "--hand", "木1 木2 木3 火5", "--max-seconds", "5", "--json"],
    "fesca best": ["solve", "-r", "fesca", "--hand", "木1 木2 木3 火5", "--best", "--max-seconds", "5", "--json"],
    "marriage go-out": ["solve", "-r", "marriage", "--hand", "S2 S3 S4 H5", "--max-seconds", "5", "--json"],
    "marriage best": ["solve", "-r", "marriage", "--hand", "S2 S3 S4 H5", "--best", "--max-seconds", "5", "--json"],
    "basic rummy count": [
        "solve",
        "-r",
        "basic-rummy",
        "--hand",
        "S2 S3 S4 H5",
        "--all",
        "--max-seconds",
        "5",
        "--json",
    ],
    "rummikub": ["solve", "-r", "rummikub", "--hand", "k10 b10 o10 r3 r4", "--best", "--max-seconds", "5", "--json"],
    "word rummy": ["solve", "-r", "word-rummy", "--hand", "ねこじたかいぬ", "--max-seconds", "5", "--json"],
    "moves": ["moves", str(MANY_WILDS), "--max-seconds", "5", "--json"],
    "audit": ["audit", "basic-rummy", "--max-seconds", "5", "--json"],
}


@pytest.mark.parametrize("name", sorted(QUERIES))
def test_the_query_counts_from_the_commands_start(name):
    count_from(time.perf_counter() - 30)
    out = run(*QUERIES[name])
    assert out.exit_code == 3, out.output
    data = json.loads(out.stdout)
    assert data.get("partial") or data.get("solvable", "absent") is None or "undecided" in json.dumps(data)
    assert Budget(5).left() < 0  # any other budget of the command counts from its start too
