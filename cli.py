"""melds — check rummy-family rules, solve go-out puzzles, audit rule documents.

The command line is a thin face over ``solver``: each command (solver/commands/, imported when it
runs) parses its arguments, asks the ruleset's game through the Game protocol
(solver/core/game.py) and prints the answer (text by default, ``--json`` for scripts, ``--batch``
for JSON Lines). Exit codes: 0 yes (legal / solvable / clean), 1 no, 2 bad input, 3 undecided.
"""

from __future__ import annotations

import os
import sys
import typing


def keep_bytecode() -> None:
    """Where Python is told to write no bytecode beside the sources (``PYTHONDONTWRITEBYTECODE``),
    a melds process would compile each of its modules again at every start: their bytecode is kept
    in melds' cache folder instead (``MELDS_CACHE_DIR``, solver/core/cache.py; ``off`` keeps
    nothing), under ``bytecode/``, which mirrors the sources' paths. A Python that writes bytecode
    as usual, or that has a bytecode folder of its own (``PYTHONPYCACHEPREFIX``), is left alone.
    This runs before the solver package is imported, so it cannot ask solver.core.cache."""
    if not sys.dont_write_bytecode or sys.pycache_prefix:
        return
    folder = os.environ.get("MELDS_CACHE_DIR")
    if folder == "off":
        return
    if not folder:
        folder = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "melds")
    folder = os.path.join(folder, "bytecode")
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError:
        return
    if os.access(folder, os.W_OK):
        sys.pycache_prefix, sys.dont_write_bytecode = folder, False


def run() -> None:
    """The ``melds`` command as a process of its own (solver.commands.group.run), its bytecode kept
    first (:func:`keep_bytecode`)."""
    keep_bytecode()
    from solver.commands.group import run as run_command

    run_command()


def __getattr__(name: str) -> typing.Any:
    """``main``, the click group, for in-process callers (tests, scripts): imported when asked, so
    that an in-process caller's interpreter is left as it was (no bytecode folder chosen)."""
    if name == "main":
        from solver.commands.group import main

        return main
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["keep_bytecode", "run"]  # and main, through __getattr__

if __name__ == "__main__":
    run()
