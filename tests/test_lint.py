"""The code stays lint-, format- and type-clean: ruff check, ruff format --check and mypy (their
settings in pyproject.toml) run over the checkout, and any finding fails the suite, so that CI
fails on a regression. Each runs as the virtualenv's own executable, from the checkout's root."""

from __future__ import annotations

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
    [
        ("ruff", "check", "--quiet", "."),
        ("ruff", "format", "--check", "--quiet", "."),
        # its cache, .mypy_cache in the checkout, keeps a run after the first to a few seconds
        ("mypy", "--no-error-summary"),
    ],
    ids=["ruff-check", "ruff-format", "mypy"],
)
def test_the_tree_is_clean(command):
    name, *args = command
    done = subprocess.run([_tool(name), *args], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{' '.join(command)}:\n{done.stdout}{done.stderr}"
