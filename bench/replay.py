"""Hands replayed per second by melds replay, in this process after a warm-up, with the agreement
table: ``python -m bench.replay [LOG_OR_FOLDER …] [--rounds N]`` (default: tests/data/tenhou).

Each round replays every log once; the figure is hands / wall-clock seconds of the best round
(a warm model: rulesets, scorer and meld models built before the first timed round)."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from solver.core.logs import log_files, replay_file
from solver.core.replay import Summary
from solver.present.replay import summary_lines

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("logs", nargs="*", default=[str(ROOT / "tests" / "data" / "tenhou")])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    paths = [str(p) for p in log_files(args.logs)]
    for path in paths:  # warm-up: every ruleset and model the logs need is built
        replay_file(path)
    best = None
    for _ in range(args.rounds):
        summary = Summary(files=len(paths))
        began = time.perf_counter()
        for path in paths:
            for report in replay_file(path):
                summary.add(report)
        summary.seconds = time.perf_counter() - began
        if best is None or summary.seconds < best.seconds:
            best = summary
    print("\n".join(summary_lines(best)))


if __name__ == "__main__":
    main()
