"""Fesca table turns on 75 fixed tables (bench/data/table-turns.json): 15 seeds of 5 turns, about 40
cards on the table and 10 in hand, 陽場, after one's own meld, ``--best`` under a budget.

    python -m bench.table_sweep [--budget 10] [--baseline DIR] [--data bench/data/table-turns-more.json]

Prints each seed's median and worst time and its undecided turns, and the whole sweep's; then the
turns left undecided and those decided in the last fifth of the budget, by name (seed:turn): a
machine that much slower would leave them undecided. The
tables are fixed (the random deal depends on the checker's readings, which change between
versions), so two versions are timed on the same turns; ``--baseline DIR`` runs another melds
tree (a checkout of an earlier commit, with its own interpreter via ``--baseline-python``) on them
too, one after the other, and compares the answers of the turns both decided. ``--data``: another
file of fixed turns, as ``table-turns-more.json`` (250 turns of 50 more seeds, dealt the same way:
the sweep's tail, the turns undecided at 10 s, shows on a larger sample).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data" / "table-turns.json"
NEAR = 0.8  # a turn decided past this part of its budget is named: on a machine 1/0.8 times slower it would not be


def run(budget: float, turns: int | None = None, data: Path = DATA) -> list[dict]:
    """Each turn's seconds, whether it was undecided, and its score (this tree's melds);
    ``turns``: the first that many of each seed's five (all five by default)."""
    from solver.core.registry import load_game
    from solver.core.ruleset import load_ruleset

    rs = load_ruleset("fesca")
    game = load_game(rs)
    rows = []
    for turn in json.loads(data.read_text(encoding="utf-8"))["turns"]:
        if turns is not None and turn["turn"] >= turns:
            continue
        start = time.perf_counter()
        answer = game.answer_problem(problem_of(rs, turn), "best", max_seconds=budget)
        rows.append(
            {
                "seed": turn["seed"],
                "turn": turn["turn"],
                "seconds": time.perf_counter() - start,
                "undecided": answer.solvable is None,
                "score": answer.score,
            }
        )
        print(".", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return rows


def problem_of(rs: Any, turn: dict) -> Any:
    """The problem of one turn of a data file (its table's melds, with their owners, and the hand),
    after one's own meld, in 陽場."""
    from solver.melding.table.operations import TableMeld
    from solver.melding.turn.problem import Problem

    faces = rs.deck.faces
    table = tuple(TableMeld(owner, tuple(faces[i] for i in cards), owner == "me") for owner, cards in turn["table"])
    hand = tuple(faces[i] for i in turn["hand"])
    return Problem(rs, hand, table, "normal", None, True, "yang")


def near_limit(rows: list[dict], budget: float) -> list[dict]:
    """The turns decided past :data:`NEAR` of the budget."""
    return [r for r in rows if not r["undecided"] and r["seconds"] > NEAR * budget]


def report(rows: list[dict], title: str, budget: float) -> None:
    by_seed = defaultdict(list)
    for row in rows:
        by_seed[row["seed"]].append(row)
    print(f"{title}\n{'seed':>4} {'median s':>9} {'worst s':>8} {'undecided':>9}")
    for seed, turns in sorted(by_seed.items()):
        times = [t["seconds"] for t in turns]
        print(f"{seed:>4} {statistics.median(times):>9.2f} {max(times):>8.2f} {sum(t['undecided'] for t in turns):>9}")
    times = [r["seconds"] for r in rows]
    print(
        f"{'all':>4} {statistics.median(times):>9.2f} {max(times):>8.2f} {sum(r['undecided'] for r in rows):>9}"
        f"   ({len(rows)} turns; seeds with a median of 2 s or less: "
        f"{sum(statistics.median([t['seconds'] for t in ts]) <= 2 for ts in by_seed.values())} of {len(by_seed)})"
    )
    undecided = [f"{r['seed']}:{r['turn']}" for r in rows if r["undecided"]]
    near = [f"{r['seed']}:{r['turn']} ({r['seconds']:.1f} s)" for r in near_limit(rows, budget)]
    print(
        f"undecided: {', '.join(undecided) or 'none'};"
        f" decided past {NEAR:.0%} of the budget: {', '.join(near) or 'none'}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=10.0)
    parser.add_argument("--baseline", type=Path, help="another melds tree to run on the same tables")
    parser.add_argument("--baseline-python", default=sys.executable)
    parser.add_argument("--json", action="store_true", help="print the rows as JSON (what --baseline reads)")
    parser.add_argument("--data", type=Path, default=DATA, help="a file of fixed turns (default: the bench's 75)")
    args = parser.parse_args()
    rows = run(args.budget, data=args.data.resolve())
    if args.json:
        print(json.dumps(rows))
        return
    report(rows, "this tree", args.budget)
    if args.baseline:
        out = subprocess.run(
            [
                args.baseline_python,
                "-c",
                "import runpy, sys; budget, tree, script, data = sys.argv[1:]; "
                "sys.argv = ['table_sweep', '--json', '--budget', budget, '--data', data]; "
                "sys.path.insert(0, tree); runpy.run_path(script, run_name='__main__')",
                str(args.budget),
                str(args.baseline.resolve()),
                __file__,
                str(args.data.resolve()),
            ],
            cwd=args.baseline,
            stdout=subprocess.PIPE,
            text=True,
            check=True,
        )
        theirs = json.loads(out.stdout.strip().splitlines()[-1])
        report(theirs, f"baseline {args.baseline}", args.budget)
        both = [(a, b) for a, b in zip(rows, theirs, strict=True) if not a["undecided"] and not b["undecided"]]
        differ = [(a["seed"], a["turn"]) for a, b in both if a["score"] != b["score"]]
        print(f"decided by both: {len(both)}, answers that differ: {len(differ)} {differ or ''}")


if __name__ == "__main__":
    main()
