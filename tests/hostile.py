"""Running melds on hostile input the way issue 21 checks it: a separate process under an
address-space limit, its time and peak memory measured, its output held to the contract (no
traceback, a documented exit code, JSON that parses under --json)."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import time
from dataclasses import dataclass

from clirun import ROOT, melds_exe

GIB = 1 << 30
ADDRESS_LIMIT = 2 * GIB  # as the held-back corpus runs
PEAK_LIMIT = 1 * GIB
EXIT_CODES = {0, 1, 2, 3}


@dataclass
class Run:
    code: int
    stdout: str
    stderr: str
    seconds: float
    peak: int  # bytes (the child's maximum resident set)
    cpu: float = 0.0  # the child's own CPU seconds (user and system)

    def json_lines(self) -> list:
        return [json.loads(line) for line in self.stdout.splitlines()]

    def json(self) -> dict:
        lines = self.json_lines()
        assert len(lines) == 1, f"expected one JSON object, got {len(lines)} lines: {self.stdout[:300]}"
        return lines[0]


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_LIMIT, ADDRESS_LIMIT))


def guarded(
    *args: str,
    input: bytes | None = None,
    cwd=None,
    timeout: float = 60,
    close_stdin: bool = False,
    env: dict | None = None,
) -> Run:
    """melds ARGS in its own process under a 2 GiB address-space limit; a fault of melds shows
    as a traceback (MELDS_DEBUG is not set), which the callers' checks refuse."""
    environment = {k: v for k, v in os.environ.items() if k != "MELDS_DEBUG"}
    environment.update(PYTHONIOENCODING="utf-8", **(env or {}))

    def prepare() -> None:
        _limit()
        if close_stdin:
            os.close(0)

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    process = subprocess.Popen(
        melds_exe() + list(args),
        stdin=None if close_stdin else subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd or ROOT,
        env=environment,
        preexec_fn=prepare,
    )
    try:
        out, err = process.communicate(input if not close_stdin else None, timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        raise AssertionError(f"melds {' '.join(args)[:200]} ran past {timeout} s") from None
    seconds = time.perf_counter() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)  # the largest child so far: an upper bound
    cpu = (usage.ru_utime + usage.ru_stime) - (before.ru_utime + before.ru_stime)  # this child's, reaped here
    return Run(
        process.returncode,
        out.decode("utf-8", "replace"),
        err.decode("utf-8", "replace"),
        seconds,
        usage.ru_maxrss * 1024,
        cpu,
    )


def holds_contract(run: Run, as_json: bool, budget: float | None = None) -> None:
    """What every run must show, whatever its input."""
    assert run.code in EXIT_CODES, (run.code, run.stderr[-2000:])
    assert "Traceback" not in run.stderr and "Traceback" not in run.stdout, run.stderr[-3000:]
    assert "internal-error" not in run.stdout, run.stdout[:2000]
    assert run.peak <= PEAK_LIMIT, f"peak memory {run.peak / GIB:.2f} GiB"
    if budget is not None:  # on a loaded machine the wall time stretches (start-up included): the
        # process's own CPU time tells whether it worked past its budget (the bench row budget-overrun
        # times the deadline itself)
        assert run.seconds <= budget + 1 or run.cpu <= budget + 1, (
            f"{run.seconds:.1f} s ({run.cpu:.1f} s of CPU) against a budget of {budget} s"
        )
    if as_json:
        lines = run.json_lines()
        assert lines, f"no JSON on stdout (stderr: {run.stderr[-500:]})"
        assert all(isinstance(line, dict) for line in lines)
