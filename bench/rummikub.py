"""Rummikub turns side by side with the peer solver ``rummikub-solver`` (a MILP), same positions.

    python -m bench.rummikub [--per-size 5] [--seed 3]

Random reachable positions (legal sets dealt from one box for the table, then a rack; jokers
included) at 10, 20, … 100 tiles in all; each is solved by melds in-process (the best turn of a
player who has melded: most rack tiles, then most value) and by the peer in TILE_COUNT mode. Per
size: the median seconds of each, the ratio melds/peer (below 1: melds is faster), and how the
tiles placed compare. The peer is a test-only dependency (``pip install -e '.[test]'``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from rummikub_peer import Peer  # noqa: E402
from test_rummikub_brute import deal  # noqa: E402

from solver.core.registry import load_game  # noqa: E402
from solver.core.ruleset import load_ruleset  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-size", type=int, default=5)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    game, peer = load_game(load_ruleset("rummikub")), Peer()
    rng = random.Random(args.seed)
    print("tiles  melds s  peer s   ratio  same  melds more  peer more")
    for total in range(10, 101, 10):
        ours_t, theirs_t, same, more, fewer = [], [], 0, 0, 0
        for _ in range(args.per_size):
            rack = min(14, max(3, total // 4))
            hand, table = deal(rng, total - rack, rack)
            request = {"hand": " ".join(hand), "table": [f"all: {s}" for s in table], "has_melded": True,
                       "best": True}
            start = time.perf_counter()
            placed = len(game.solve(request).data["placed"])
            ours_t.append(time.perf_counter() - start)
            start = time.perf_counter()
            theirs = len(peer.best(hand, table))
            theirs_t.append(time.perf_counter() - start)
            same += placed == theirs
            more += placed > theirs
            fewer += placed < theirs
        a, b = statistics.median(ours_t), statistics.median(theirs_t)
        print(f"{total:5d}  {a:7.3f}  {b:6.3f}  {a / b:6.2f}  {same:4d}  {more:10d}  {fewer:9d}", flush=True)


if __name__ == "__main__":
    main()
