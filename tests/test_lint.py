"""The code stays lint-, format- and type-clean: ruff check, ruff format --check and mypy (their
settings in pyproject.toml) run over the checkout, and any finding fails the suite, so that CI
fails on a regression. Each runs as the virtualenv's own executable, from the checkout's root.

mypy is clean on the whole tree — solver/core and solver/sat strict — but for the modules listed
in NOT_YET_TYPED (issue 45): each may keep at most the errors it has, and no other module may have
any. Mend a module and lower (or drop) its line."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(BIN)) or shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed: pip install -e '.[test]'")
    return found


# module -> the most mypy errors it may still have: the files other work was changing when the rest of the
# tree was mended (issue 45); lower a count as its errors go, and drop the table when it is empty
NOT_YET_TYPED: dict[str, int] = {
    "solver/core/sections.py": 12,
    "solver/melding/rounds.py": 3,
    "solver/melding/scorecard.py": 4,
    "solver/melding/turn/model.py": 18,
}


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
    per_module = Counter(line.split(":", 1)[0] for line in errors)
    over = {module: count for module, count in per_module.items() if count > NOT_YET_TYPED.get(module, 0)}
    shown = [line for line in errors if line.split(":", 1)[0] in over]
    assert not over, f"new mypy errors in {sorted(over)}:\n" + "\n".join(shown)
    assert done.returncode in (0, 1) and (errors or done.returncode == 0), done.stdout + done.stderr
