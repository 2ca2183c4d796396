"""The forms of the sweep's fixed table turns, as digests: what a change to the search of forms must
leave as it was, compared between two trees.

    python -m bench.table_forms OUT.json [--data FILE] [--turns 13:4,5:0]
    python -m bench.table_forms --compare A.json B.json
    PYTHONPATH=/tmp/base python bench/table_forms.py BASE.json   # another tree's forms, by this script

Each turn's forms are found with no budget and forks off, in one process, in the file's order (the
checker's readings depend on what it was asked before, so run both trees the same way, under
``PYTHONHASHSEED=0``). Per turn: the number of forms, their CPU seconds, and digests of every form —
``full`` (its layout, reading, path step by step, cards played and taken, gain, restrictions),
``shape`` (the same with each reading as its kind and wilds: a wild's identity is the checker's
choice among equal readings) —, the cards taken from the table and the rungs (their forms' shapes).
``--compare`` names the turns whose digests differ, and sums the CPU.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path
from typing import Any

from bench.table_sweep import DATA, problem_of

FIELDS = ("forms", "full", "shape", "extra", "rungs")


def _reading(reading: Any, identities: bool) -> tuple:
    if not identities:
        return (reading.kind.id, reading.wilds)
    places = tuple((p.face.index, p.copy, p.role, p.wild, p.identity, p.offset) for p in reading.placements)
    return (reading.kind.id, reading.direction, places)


def _meld(meld: Any) -> tuple:
    buried = tuple(-1 if b is None else b.index for b in meld.buried)
    return (meld.owner, meld.mine, tuple(f.index for f in meld.faces), buried)


def _form(form: Any, identities: bool) -> str:
    path = tuple(
        (m.op.id, m.table, tuple(f.index for f in m.played), tuple(f.index for f in m.taken), _meld(m.result))
        + _reading(m.reading, identities)
        for m in form.path
    )
    played, taken = tuple(f.index for f in form.played), tuple(f.index for f in form.taken)
    restricted = tuple(sorted(form.restricted))
    reading = _reading(form.reading, identities)
    return repr((form.table, _meld(form.meld), reading, path, played, taken, form.gain, restricted))


def _digest(lines: list[str]) -> str:
    return hashlib.sha256("\n".join(sorted(lines)).encode()).hexdigest()


def digests(data: Path, only: set[str] | None = None) -> dict[str, dict]:
    """Per turn ``seed:turn`` of ``data`` (``only``: these alone), its forms' digests."""
    from solver.core.registry import load_game
    from solver.core.ruleset import load_ruleset
    from solver.melding.table.forms import table_forms
    from solver.melding.table.operations import Table
    from solver.sat.budget import Budget

    game = load_game(load_ruleset("fesca"))
    out = {}
    for row in json.loads(data.read_text(encoding="utf-8"))["turns"]:
        name = f"{row['seed']}:{row['turn']}"
        if only is not None and name not in only:
            continue
        problem = problem_of(game.ruleset, row)
        ops = tuple(
            op
            for op in game.rules.operations
            if op.effect != "recall" and (op.turns is None or problem.turn in op.turns)
        )
        cpu = time.process_time()
        found = table_forms(
            Table(game.checker), problem.table, problem.hand, problem.phase, ops, Budget(None), beside=False
        )
        cpu = time.process_time() - cpu
        every = [form for per_meld in found.forms for form in per_meld]
        out[name] = {
            "forms": len(every),
            "cpu": round(cpu, 3),
            "full": _digest([_form(f, True) for f in every]),
            "shape": _digest([_form(f, False) for f in every]),
            "extra": [f.index for f in found.extra],
            "rungs": _digest([repr(sorted(_form(f, False) for per in rung for f in per)) for rung, _ in found.earlier]),
        }
        print(name, len(every), f"{cpu:.2f} s", file=sys.stderr, flush=True)
    return out


def compare(a: dict[str, dict], b: dict[str, dict]) -> None:
    for field in FIELDS:
        differ = [name for name in a if name in b and a[name][field] != b[name][field]]
        print(f"{field}: {len(differ)} of {len(set(a) & set(b))} turns differ {' '.join(differ)}")
    both = set(a) & set(b)
    print(f"CPU: {sum(a[n]['cpu'] for n in both):.1f} s against {sum(b[n]['cpu'] for n in both):.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", type=Path, help="where the digests go (JSON)")
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--turns", help="seed:turn,... (default: every turn of the file)")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("A", "B"))
    args = parser.parse_args()
    if args.compare:
        first, second = (json.loads(p.read_text(encoding="utf-8")) for p in args.compare)
        compare(first, second)
        return
    if args.out is None:
        parser.error("give OUT.json, or --compare A B")
    only = set(args.turns.split(",")) if args.turns else None
    args.out.write_text(json.dumps(digests(args.data, only), indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
