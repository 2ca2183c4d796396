"""Hands replayed per second by melds replay, in this process after a warm-up, with the agreement
table: ``python -m bench.replay [LOG_OR_FOLDER …] [--rounds N] [--selfplay GAMES]`` (default:
tests/data/tenhou; ``--selfplay`` adds that many riichienv self-play games, tests/selfplay.py).

Each round replays every log once; the figure is hands / wall-clock seconds of the best round
(a warm model: rulesets, scorer and meld models built before the first timed round).

``python -m bench.replay FOLDER --whole [--jobs N | --dask …]`` times one whole ``melds replay``
process instead (start-up, workers and all) and samples its memory: one JSON line."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
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
    sys.path.insert(0, str(ROOT / "tests"))
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


def paired_runs(folder: str, runs: int = 3, checkout: Path = ROOT) -> list[tuple[float, float]]:
    """(one job, two jobs): wall seconds of ``runs`` pairs of whole ``melds replay FOLDER --jobs 1``
    and ``--jobs 2`` processes of ``checkout`` (start-up included), each pair run back to back
    (which goes first alternates), so that both of a pair meet the same load. A cache folder of the
    bench's own (``MELDS_CACHE_DIR``) is filled by an untimed replay of the whole folder with each
    job count first (what a pool imports has its bytecode kept there too, where Python writes none
    beside the sources): every timed run starts as a user's second run does, and no other checkout
    of melds replaying meanwhile on the machine replaces what melds keeps there (its entries are
    per version)."""
    command = [sys.executable, "-c", "import sys; sys.argv[0] = 'melds'; from cli import run; run()", "replay", folder]
    pairs = []
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "MELDS_CACHE_DIR": cache, "PYTHONPATH": str(checkout)}

        def timed(jobs: int) -> float:
            began = time.perf_counter()
            subprocess.run([*command, "--jobs", str(jobs)], cwd=checkout, env=env, capture_output=True, check=False)
            return time.perf_counter() - began

        timed(1)
        timed(2)
        for k in range(runs):
            if k % 2:
                two, one = timed(2), timed(1)
            else:
                one, two = timed(1), timed(2)
            pairs.append((one, two))
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
