"""Running melds in tests: through click's runner, and as a real subprocess of the installed command."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from cli import main

ROOT = Path(__file__).resolve().parent.parent


# The memory ceiling of an in-process run, unless it names one: the ceiling watches the process's
# resident size, and a test worker with every ruleset, dictionary and peer loaded is past the 1 GiB
# default of its own (1.0-1.3 GiB by the suite's end): a query would be refused for memory that is
# not its own, as a Rummikub turn of tests/test_rummikub_vs_peer.py once was
IN_PROCESS_MEMORY = "64GiB"


def runner() -> CliRunner:
    """Click's runner for melds in-process, under :data:`IN_PROCESS_MEMORY` unless a test names a ceiling."""
    return CliRunner(env={"MELDS_MAX_MEMORY": IN_PROCESS_MEMORY})


def run(*args, input=None):
    """melds ARGS in-process (click's runner); exceptions propagate so a traceback fails the test."""
    return runner().invoke(main, list(args), input=input, catch_exceptions=False)


def melds_exe() -> list[str]:
    exe = shutil.which("melds", path=str(Path(sys.executable).parent))
    return [exe] if exe else [sys.executable, str(ROOT / "cli.py")]


def subprocess_run(*args, input=None):
    """melds ARGS as a separate process, the way a user's script calls it."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        melds_exe() + list(args), input=input, capture_output=True, text=True, encoding="utf-8", env=env, timeout=60
    )


def batch(tmp_path: Path, command: str, ruleset: str, lines: list[dict], *args: str) -> list[dict]:
    """``melds COMMAND -r RULESET --batch FILE ARGS`` of ``lines`` written to a file: one JSON answer
    a line, in order (a line of anything else on stdout is not an answer)."""
    path = tmp_path / f"{command}.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    result = run(command, "-r", ruleset, "--batch", str(path), *args)
    answers = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert len(answers) == len(lines)
    return answers


def melded(answer: dict) -> list[list[str]]:
    """The cards of each meld an answer lays."""
    return [[c["card"] for c in m["cards"]] for m in answer["melds"]]
