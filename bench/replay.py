"""Hands replayed per second by melds replay, in this process after a warm-up, with the agreement
table: ``python -m bench.replay [LOG_OR_FOLDER …] [--rounds N] [--selfplay GAMES]`` (default:
tests/data/tenhou; ``--selfplay`` adds that many riichienv self-play games, tests/selfplay.py).

Each round replays every log once; the figure is hands / wall-clock seconds of the best round
(a warm model: rulesets, scorer and meld models built before the first timed round).

``python -m bench.replay FOLDER --whole [--jobs N | --dask …]`` times one whole ``melds replay``
process instead (start-up, workers and all) and samples its memory: one JSON line."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from solver.core.logs import log_files, replay_file
from solver.core.replay import Summary
from solver.present.replay import summary_lines

ROOT = Path(__file__).resolve().parent.parent
TENHOU = ROOT / "tests" / "data" / "tenhou"


def measure(paths: list[str], rounds: int = 3, clock=time.perf_counter) -> Summary:
    """The best of ``rounds`` replays of every log (after one warm-up replay of each), timed by
    ``clock`` (``time.process_time``: the CPU seconds of this one process, one core's work)."""
    for path in paths:  # warm-up: every ruleset and model the logs need is built
        replay_file(path)
    best = None
    for _ in range(rounds):
        summary = Summary(files=len(paths))
        began = clock()
        for path in paths:
            for report in replay_file(path):
                summary.add(report)
        summary.seconds = clock() - began
        if best is None or summary.seconds < best.seconds:
            best = summary
    assert best is not None
    return best


def selfplay_logs(folder: Path, games: int, first_seed: int = 0) -> list[str]:
    """``games`` riichienv self-play games written as mjai logs (the test extra's engine)."""
    from selfplay import write_games  # noqa: PLC0415 - the tests' driver of the engine

    return [str(p) for p in write_games(folder, range(first_seed, first_seed + games))]


# the previous version's replay of the same logs, warm, in a process of its own (only what every
# version has: log_files and replay_file), timed in CPU seconds as replay-hands times this version:
# argv = checkout, rounds, logs…; prints [seconds, hands]
_ELSEWHERE = """
import json, sys, time
from solver.core.logs import log_files, replay_file
paths = [str(p) for p in log_files(sys.argv[3:])]
for path in paths:
    replay_file(path)
best = None
for _ in range(int(sys.argv[2])):
    began, hands = time.process_time(), 0
    for path in paths:
        hands += sum(len(r.hands) for r in replay_file(path))
    seconds = time.process_time() - began
    best = min(best or (seconds, hands), (seconds, hands))
print(json.dumps(best))
"""


def measure_checkout(checkout: str, logs: list[str], rounds: int = 3) -> tuple[float, int]:
    """(CPU seconds, hands) of the best of ``rounds`` warm replays of ``logs`` by another checkout
    of melds (an earlier commit's worktree), in a process of its own."""
    env = {**os.environ, "PYTHONPATH": checkout}
    done = subprocess.run(
        [sys.executable, "-c", _ELSEWHERE, checkout, str(rounds), *logs],
        cwd=checkout,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    seconds, hands = json.loads(done.stdout.strip().splitlines()[-1])
    return float(seconds), int(hands)


@dataclass(frozen=True)
class Pair:
    """One job's whole ``melds replay`` process and two jobs', run back to back: wall seconds and
    CPU seconds (user and system, every process of the run: the workers too)."""

    wall_one: float
    wall_two: float
    cpu_one: float
    cpu_two: float

    @property
    def ratio(self) -> float:
        """How many times faster two jobs were than one, in wall time."""
        return self.wall_one / self.wall_two


def paired_runs(folder: str, runs: int = 3, checkouts: Sequence[Path] = (ROOT,)) -> dict[Path, list[Pair]]:
    """``runs`` pairs for each checkout of melds: whole ``melds replay FOLDER --jobs 1`` and
    ``--jobs 2`` processes (start-up included) run back to back, which goes first alternating, and
    the checkouts' pairs of a round one after the other (their order alternating too), so that
    both runs of a pair, and every checkout's pair of a round, meet the same load. Each checkout
    has a cache folder of the bench's own (``MELDS_CACHE_DIR``), filled by an untimed replay of
    the whole folder with each job count first (what a pool imports has its bytecode kept there
    too, where Python writes none beside the sources): every timed run starts as a user's second
    run does, and no other checkout of melds replaying meanwhile on the machine replaces what melds
    keeps there (its entries are per version)."""
    command = [sys.executable, "-c", "import sys; sys.argv[0] = 'melds'; from cli import run; run()", "replay", folder]
    pairs: dict[Path, list[Pair]] = {checkout: [] for checkout in checkouts}
    with contextlib.ExitStack() as stack:
        caches = {checkout: stack.enter_context(tempfile.TemporaryDirectory()) for checkout in checkouts}

        def timed(checkout: Path, jobs: int) -> tuple[float, float]:
            env = {**os.environ, "MELDS_CACHE_DIR": caches[checkout], "PYTHONPATH": str(checkout)}
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            began = time.perf_counter()
            subprocess.run([*command, "--jobs", str(jobs)], cwd=checkout, env=env, capture_output=True, check=False)
            wall = time.perf_counter() - began
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime

        for checkout in checkouts:
            timed(checkout, 1)
            timed(checkout, 2)
        for k in range(runs):
            for checkout in checkouts if k % 2 == 0 else checkouts[::-1]:
                if k % 2:
                    two, one = timed(checkout, 2), timed(checkout, 1)
                else:
                    one, two = timed(checkout, 1), timed(checkout, 2)
                pairs[checkout].append(Pair(one[0], two[0], one[1], two[1]))
    return pairs


def whole_run(folder: str, options: list[str]) -> dict:
    """One whole ``melds replay FOLDER --json OPTIONS…`` process: its wall seconds, summary, the
    peak memory (resident) of the command's process and, apart, of all its descendants (the
    workers of ``--jobs`` or of a local Dask cluster) at once, sampled every half second, and the
    hands that do not agree, named."""
    import psutil  # noqa: PLC0415 - Dask's dependency: this measure is for the dask extra

    command = [sys.executable, "-c", "import sys; sys.argv[0] = 'melds'; from cli import run; run()"]
    began = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out:
        child = subprocess.Popen([*command, "replay", folder, "--json", *options], cwd=ROOT, stdout=out)
        process, parent_peak, workers_peak, workers = psutil.Process(child.pid), 0, 0, 0
        while child.poll() is None:
            try:
                parent_peak = max(parent_peak, process.memory_info().rss)
                below = process.children(recursive=True)
                workers = max(workers, len(below))
                workers_peak = max(workers_peak, sum(p.memory_info().rss for p in below if p.is_running()))
            except psutil.Error:
                pass
            time.sleep(0.5)
        seconds = time.perf_counter() - began
        out.seek(0)
        replayed = json.loads(out.read())
        summary = replayed["summary"]
    return {
        "seconds": round(seconds, 1),
        "hands": summary["hands"],
        "agree": summary["agree"],
        "hands_per_second": round(summary["hands"] / seconds, 1),
        "processes_below": workers,
        "parent_mb": parent_peak >> 20,
        "workers_mb": workers_peak >> 20,
        "not_agreeing": [
            f"{h['file']} hand {h['number']} ({h['round']}): {h['status']}"
            for h in replayed["hands"]
            if h["status"] != "agree"
        ],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("logs", nargs="*", default=[str(TENHOU)])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--selfplay", type=int, default=0, help="add this many self-play games")
    parser.add_argument(
        "--whole",
        nargs=argparse.REMAINDER,
        help="then OPTIONS…: one whole `melds replay LOG --json OPTIONS…` process, its time and memory",
    )
    args = parser.parse_args()
    if args.whole is not None:
        print(json.dumps(whole_run(args.logs[0], args.whole)))
        return
    paths = [str(p) for p in log_files(args.logs)]
    with tempfile.TemporaryDirectory() as folder:
        if args.selfplay:
            print(f"playing {args.selfplay} self-play games …", file=sys.stderr, flush=True)
            paths += selfplay_logs(Path(folder), args.selfplay)
        print("\n".join(summary_lines(measure(paths, args.rounds))))


if __name__ == "__main__":
    main()
