"""melds — check rummy-family rules, solve go-out puzzles, audit rule documents.

The command line is a thin face over ``solver``: each command (solver/commands/, imported when it
runs) parses its arguments, asks the ruleset's game through the Game protocol
(solver/core/game.py) and prints the answer (text by default, ``--json`` for scripts, ``--batch``
for JSON Lines). Exit codes: 0 yes (legal / solvable / clean), 1 no, 2 bad input, 3 undecided.
"""

from __future__ import annotations

from solver.commands.group import main, run

__all__ = ["main", "run"]

if __name__ == "__main__":
    run()
