"""Hands replayed per second by melds replay, in this process after a warm-up, with the agreement
table: ``python -m bench.replay [LOG_OR_FOLDER …] [--rounds N] [--selfplay GAMES]`` (default:
tests/data/tenhou; ``--selfplay`` adds that many riichienv self-play games, tests/selfplay.py).

Each round replays every log once; the figure is hands / wall-clock seconds of the best round
(a warm model: rulesets, scorer and meld models built before the first timed round)."""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from solver.core.logs import log_files, replay_file
from solver.core.replay import Summary
from solver.present.replay import summary_lines

ROOT = Path(__file__).resolve().parent.parent
TENHOU = ROOT / "tests" / "data" / "tenhou"


def measure(paths: list[str], rounds: int = 3) -> Summary:
    """The best of ``rounds`` replays of every log (after one warm-up replay of each)."""
    for path in paths:  # warm-up: every ruleset and model the logs need is built
        replay_file(path)
    best = None
    for _ in range(rounds):
        summary = Summary(files=len(paths))
        began = time.perf_counter()
        for path in paths:
            for report in replay_file(path):
                summary.add(report)
        summary.seconds = time.perf_counter() - began
        if best is None or summary.seconds < best.seconds:
            best = summary
    assert best is not None
    return best


def selfplay_logs(folder: Path, games: int, first_seed: int = 0) -> list[str]:
    """``games`` riichienv self-play games written as mjai logs (the test extra's engine)."""
    sys.path.insert(0, str(ROOT / "tests"))
    from selfplay import write_games  # noqa: PLC0415 - the tests' driver of the engine

    return [str(p) for p in write_games(folder, range(first_seed, first_seed + games))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("logs", nargs="*", default=[str(TENHOU)])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--selfplay", type=int, default=0, help="add this many self-play games")
    args = parser.parse_args()
    paths = [str(p) for p in log_files(args.logs)]
    with tempfile.TemporaryDirectory() as folder:
        if args.selfplay:
            print(f"playing {args.selfplay} self-play games …", file=sys.stderr, flush=True)
            paths += selfplay_logs(Path(folder), args.selfplay)
        print("\n".join(summary_lines(measure(paths, args.rounds))))


if __name__ == "__main__":
    main()
