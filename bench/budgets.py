"""How closely the budgets hold their promise: ``--max-seconds S`` answers within ``1.1 S + 0.5``
seconds of wall time, start-up included (docs/json-output.md). The cases are those whose answers
tests/test_budgets.py checks without a clock: a 45-card Fesca hand's best turn, the hard table turn,
``melds moves`` over a hand of wilds, a Word Rummy puzzle of forty tiles, ``melds audit --all``.

    python -m bench.budgets

Each case's wall time as a new process, against its promise; the bench/run row ``budget-overrun``
is the seconds each case took past its budget (its note: how many broke the promise)."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MELDS = [sys.executable, "-c", "import sys; sys.argv[0] = 'melds'; from cli import run; run()"]


def big_hand(seed: int = 4, size: int = 45) -> str:
    """A 45-card Fesca hand of plain cards (tests/test_budgets.py's)."""
    sys.path.insert(0, str(ROOT))
    from solver.core.registry import load_game
    from solver.core.ruleset import load_ruleset

    rs = load_ruleset("fesca")
    plain = [f for f in rs.deck.faces if f.cls == "五行"]
    return " ".join(load_game(rs).notation.format(f) for f in random.Random(seed).sample(plain, size))


def cases() -> list[tuple[str, float, list[str]]]:
    """(name, budget in seconds, the command's arguments)."""
    return [
        ("solve-45-best", 0.5, ["solve", "-r", "fesca", "--hand", big_hand(), "--best", "--max-seconds", "0.5"]),
        ("hard-table-turn", 1.0, ["solve", "--best", str(ROOT / "bench" / "data" / "hard-table-turn.yaml")]),
        ("moves-many-wilds", 1.0, ["moves", str(ROOT / "tests" / "data" / "hostile" / "state-many-wilds.yaml")]),
        ("word-puzzle-40", 1.0, ["solve", str(ROOT / "tests" / "data" / "word-turn-forty-tiles.yaml")]),
        ("audit-all", 1.0, ["audit", "--all"]),
    ]


def measured() -> list[tuple[str, float, float]]:
    """(name, budget, wall seconds) of each case, run once as a new process."""
    out = []
    for name, seconds, args in cases():
        if "--max-seconds" not in args:
            args = [*args, "--max-seconds", str(seconds)]
        start = time.perf_counter()
        subprocess.run([*MELDS, *args, "--json"], capture_output=True, cwd=ROOT)
        out.append((name, seconds, time.perf_counter() - start))
    return out


def promise(seconds: float) -> float:
    return 1.1 * seconds + 0.5


def main() -> None:
    for name, seconds, wall in measured():
        verdict = "kept" if wall <= promise(seconds) else "BROKEN"
        print(f"{name:18} budget {seconds:4.1f} s  wall {wall:5.2f} s  promise {promise(seconds):4.2f} s  {verdict}")


if __name__ == "__main__":
    main()
