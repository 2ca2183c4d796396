"""The code stays lint-, format- and type-clean: ruff check, ruff format --check and mypy (their
settings in pyproject.toml) run over the checkout, and any finding fails the suite, so that CI
fails on a regression. Each runs as the virtualenv's own executable, from the checkout's root.

mypy is clean on the whole tree (solver/core and solver/sat strict): any error in any module fails."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(BIN)) or shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed: pip install -e '.[test]'")
    return found


@pytest.mark.parametrize(
    "command",
    [("ruff", "check", "--quiet", "."), ("ruff", "format", "--check", "--quiet", ".")],
    ids=["ruff-check", "ruff-format"],
)
def test_the_tree_is_lint_clean(command):
    name, *args = command
    done = subprocess.run([_tool(name), *args], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{' '.join(command)}:\n{done.stdout}{done.stderr}"


def test_the_tree_is_type_clean():
    # its cache, .mypy_cache in the checkout, keeps a run after the first to a few seconds
    done = subprocess.run([_tool("mypy"), "--no-error-summary"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    errors = [line for line in done.stdout.splitlines() if re.match(r"[^:]+:\d+: error:", line)]
    assert not errors, "mypy errors:\n" + "\n".join(errors)
    assert done.returncode == 0, done.stdout + done.stderr
