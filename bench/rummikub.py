"""Rummikub turns side by side with the peer solver ``rummikub-solver`` (a MILP), same positions.

    python -m bench.rummikub [--per-size 5] [--seed 3] [--sizes 10,20,...,100] [--batch]
                             [--baseline DIR] [--mode best|initial]

Random reachable positions (legal sets dealt from one box for the table, then a rack; jokers
included) of 10, 20, … 100 tiles in all. Each is solved, in turn and on the same position:

* by melds in-process (``game.solve`` of a request, as a batch line is; the best turn of a player
  who has melded: most rack tiles, then most value; ``--mode initial``: the initial meld);
* by the peer in TILE_COUNT mode (warmed: its model is built before the clock starts);
* with ``--baseline DIR``: by another melds tree (a checkout of an earlier commit) in a worker
  process that times its own calls in-process — paired, position by position, before and after;
* with ``--batch``: every position also goes through one ``melds solve --batch - --json`` process,
  its lines read as they come: the time between one answer line and the next is a line's time
  through the batch path (JSON in and out), start-up excluded (a first line warms it).

Per size: the median seconds of each, the ratios (below 1: melds is faster), and how the tiles
placed compare (the peer leaves out some joker sets, so melds may place more; never fewer). The peer
is a test-only dependency (``pip install -e '.[test]'``).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from rummikub_peer import Peer
from test_rummikub_brute import deal

from solver.core.registry import load_game
from solver.core.ruleset import load_ruleset

ROOT = Path(__file__).resolve().parent.parent

WORKER = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
from solver.core.registry import load_game
from solver.core.ruleset import load_ruleset
game = load_game(load_ruleset("rummikub"))
for line in sys.stdin:
    request = json.loads(line)
    start = time.perf_counter()
    data = game.solve(request).data
    print(json.dumps([time.perf_counter() - start, len(data["placed"])]), flush=True)
"""


def positions(rng: random.Random, total: int, count: int, melded: bool) -> list[tuple[list[str], list[str], dict]]:
    out = []
    for _ in range(count):
        rack = min(14, max(3, total // 4))
        hand, table = deal(rng, total - rack, rack)
        request = {"hand": " ".join(hand), "table": [f"all: {s}" for s in table], "has_melded": melded, "best": True}
        out.append((hand, table, request))
    return out


def batch_times(requests: list[dict]) -> list[float]:
    """Each request's time through ``melds solve --batch - --json`` in one process, start-up left
    out: the interval between one answer line and the next (the first request, repeated in front,
    takes the start-up)."""
    lines = [json.dumps(r) for r in [requests[0], *requests]]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "cli.py"), "solve", "-r", "rummikub", "--batch", "-", "--json"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
        cwd=ROOT,
    )
    assert proc.stdin is not None and proc.stdout is not None  # both piped
    proc.stdin.write("\n".join(lines) + "\n")
    proc.stdin.close()
    stamps = []
    for line in proc.stdout:
        stamps.append(time.perf_counter())
        json.loads(line)
    proc.wait()
    return [b - a for a, b in itertools.pairwise(stamps)]


class Baseline:
    """Another melds tree answering the same requests in a worker process, timed in-process there."""

    def __init__(self, folder: str):
        self.proc = subprocess.Popen(
            [sys.executable, "-c", WORKER, folder], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=folder
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None  # both piped
        self.requests, self.answers = self.proc.stdin, self.proc.stdout

    def solve(self, request: dict) -> tuple[float, int]:
        self.requests.write(json.dumps(request) + "\n")
        self.requests.flush()
        seconds, placed = json.loads(self.answers.readline())
        return seconds, placed

    def close(self) -> None:
        self.requests.close()
        self.proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-size", type=int, default=5)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--sizes", default="10,20,30,40,50,60,70,80,90,100")
    parser.add_argument("--batch", action="store_true", help="also time each position through melds solve --batch")
    parser.add_argument("--baseline", metavar="DIR", help="a melds tree to compare with, position by position")
    parser.add_argument("--mode", choices=["best", "initial"], default="best")
    args = parser.parse_args()
    game, peer = load_game(load_ruleset("rummikub")), Peer()
    baseline = Baseline(args.baseline) if args.baseline else None
    rng = random.Random(args.seed)
    sizes = [int(s) for s in args.sizes.split(",")]
    melded = args.mode == "best"
    warm = positions(random.Random(-1), 40, 1, melded)[0]  # every side builds its models first
    game.solve(warm[2])
    peer.best(warm[0], warm[1])
    if baseline:
        baseline.solve(warm[2])
    head = "tiles  melds s  peer s  melds/peer"
    head += "  batch s  batch/peer" if args.batch else ""
    head += "  before s  after/before" if baseline else ""
    print(head + "  same  melds more  peer more")
    for total in sizes:
        found = positions(rng, total, args.per_size, melded)
        batch = batch_times([r for _, _, r in found]) if args.batch else []
        ours_t, theirs_t, before_t, same, more, fewer = [], [], [], 0, 0, 0
        for hand, table, request in found:
            start = time.perf_counter()
            placed = len(game.solve(request).data["placed"])
            ours_t.append(time.perf_counter() - start)
            if baseline:
                seconds, before_placed = baseline.solve(request)
                before_t.append(seconds)
                assert before_placed == placed, (hand, table, before_placed, placed)
            if not melded:  # the peer's initial mode lets the rack add to the table too: not compared
                continue
            start = time.perf_counter()
            theirs = len(peer.best(hand, table))
            theirs_t.append(time.perf_counter() - start)
            same += placed == theirs
            more += placed > theirs
            fewer += placed < theirs
        a = statistics.median(ours_t)
        b = statistics.median(theirs_t) if melded else None
        row = f"{total:5d}  {a:7.4f}  " + (f"{b:6.4f}  {a / b:10.3f}" if b else f"{'—':>6}  {'—':>10}")
        if args.batch:
            c = statistics.median(batch)
            row += f"  {c:7.4f}  " + (f"{c / b:10.3f}" if b else f"{'—':>10}")
        if baseline:
            d = statistics.median(before_t)
            row += f"  {d:8.4f}  {statistics.median(x / y for x, y in zip(ours_t, before_t, strict=True)):12.4f}"
        print(row + f"  {same:4d}  {more:10d}  {fewer:9d}", flush=True)
    if baseline:
        baseline.close()


if __name__ == "__main__":
    main()
