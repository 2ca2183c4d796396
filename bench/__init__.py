"""Benchmarks, run by hand (python -m bench.<name>); figures go in the closing notes.

The oracles, the peers' drivers and the position generators the benchmarks compare with are the
tests' own helpers, top-level modules of tests/ as pytest imports them: importing bench puts tests/
on the path once (mypy finds them the same way: mypy_path in pyproject.toml)."""

import sys
from pathlib import Path

TESTS = str(Path(__file__).resolve().parent.parent / "tests")
if TESTS not in sys.path:
    sys.path.insert(0, TESTS)
