"""Shanten and 何切る tables: melds against the ``mahjong`` package and riichienv, same hands.

    python -m bench.shanten [--hands 20000] [--tables 300] [--seed 7]

Hands are the tests' deals (tests/shanten_oracle.py): a quarter dealt from the whole wall, the
rest from one to four suits, some near complete, a third of those with declared melds. Each hand
is a fresh one (no two alike).

* ``shanten-batch``: ``melds solve -r gensou-mahjong --shanten --batch`` on 13-tile hands (JSON
  Lines in, JSON out, one process), CPU seconds per line with start-up and 2,000 warm-up lines
  excluded, against the package's ``Shanten.calculate_shanten`` in-process on the same hands
  (its 34-count input built beforehand) and riichienv's ``calculate_shanten`` (136-tile input);
  every figure compared. Target (issue 47): at least the package's rate.
* ``discards``: a whole 何切る table of a fresh 14-tile hand in-process (``game.solve`` with
  ``discards``: the hand read, the table worked out and put in JSON form), median seconds after
  warm-up on other hands, against the same table by brute force over the package's shanten
  (every discard, every draw), as a user of the package writes it. Target: median under 5 ms.

Both peers are test-only dependencies (``pip install -e '.[test]'``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from bench.mahjong import batch_seconds

WARM_LINES = 2000


def fresh_deals(rng: random.Random, count: int, size: int, seen: set) -> list:
    """``count`` deals of ``size`` tiles, none alike and none in ``seen`` (which they join)."""
    import shanten_oracle as oracle

    out: list[oracle.Deal] = []
    while len(out) < count:
        k = len(seen)
        deal = oracle.full_wall_deal(rng, size) if k % 4 == 0 else oracle.random_deal(rng, size)
        if deal.text not in seen:
            seen.add(deal.text)
            out.append(deal)
    return out


def peers() -> tuple:
    """(package shanten of 34 counts, riichienv shanten of 136 indices), or None each if missing."""
    try:
        from mahjong.shanten import Shanten

        package = Shanten.calculate_shanten
    except ImportError:
        package = None
    try:
        import riichienv

        rust = riichienv.calculate_shanten
    except ImportError:
        rust = None
    return package, rust


def cpu_per_item(work, items) -> tuple[float, list]:
    start = time.process_time()
    answers = [work(x) for x in items]
    return (time.process_time() - start) / len(items), answers


def shanten_batch(hands: int, seed: int) -> dict:
    """Seconds per hand: melds' batch, the package and riichienv in-process; how many agree."""
    rng = random.Random(seed)
    seen: set[str] = set()
    warm = fresh_deals(rng, WARM_LINES, 13, seen)
    deals = fresh_deals(rng, hands, 13, seen)
    line = batch_seconds(
        [{"hand": d.text} for d in deals],
        [{"hand": d.text} for d in warm],
        runs=2,  # the least of two: the first run of a new build of melds also builds the automata
        command=("solve", "-r", "gensou-mahjong", "--shanten"),
    )
    package, rust = peers()
    out: dict[str, Any] = {"melds": line, "package": None, "riichienv": None, "agree": None}
    if package is not None:
        for d in warm:
            package(list(d.counts))
        counts = [list(d.counts) for d in deals]
        out["package"], theirs = cpu_per_item(package, counts)
        if rust is not None:
            tiles = [[4 * t + k for t, n in enumerate(c) for k in range(n)] for c in counts]
            out["riichienv"], rusts = cpu_per_item(rust, tiles)
            out["agree"] = sum(a == b for a, b in zip(theirs, rusts, strict=True)), len(deals)
    return out


def discard_tables(tables: int, seed: int) -> dict:
    """Median seconds of a whole 何切る table: melds in-process, and a brute force over the package."""
    from solver.core.registry import load_game
    from solver.core.ruleset import load_ruleset

    game = load_game(load_ruleset("gensou-mahjong"))
    rng = random.Random(seed)
    seen: set[str] = set()
    for deal in fresh_deals(rng, 1000, 14, seen):  # warm-up: the automata read, the memos started
        game.solve({"hand": deal.text, "discards": True})
    deals = fresh_deals(rng, tables, 14, seen)
    ours = []
    for deal in deals:
        start = time.perf_counter()
        game.solve({"hand": deal.text, "discards": True})
        ours.append(time.perf_counter() - start)
    package, _ = peers()
    theirs = []
    if package is not None:
        for deal in deals:
            start = time.perf_counter()
            brute_force(package, deal.counts)
            theirs.append(time.perf_counter() - start)
    return {"melds": ours, "package": theirs}


def brute_force(shanten, counts: list[int]) -> list:
    """A discard table as a user of a shanten function writes it: each discard, each draw."""
    rows = []
    for d in range(34):
        if not counts[d]:
            continue
        counts[d] -= 1
        base = shanten(counts)
        draws = []
        for t in range(34):
            if counts[t] < 4:
                counts[t] += 1
                if shanten(counts) < base:
                    draws.append(t)
                counts[t] -= 1
        counts[d] += 1
        rows.append((d, base, draws))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    batch = shanten_batch(args.hands, args.seed)
    print(f"shanten, {args.hands} fresh 13-tile hands (CPU µs a hand; melds through --batch, the peers in-process)")
    print(f"  melds --batch {batch['melds'] * 1e6:8.1f}")
    if batch["package"]:
        print(f"  mahjong       {batch['package'] * 1e6:8.1f}   melds/package {batch['melds'] / batch['package']:.2f}")
    if batch["riichienv"]:
        ratio = batch["melds"] / batch["riichienv"]
        print(f"  riichienv     {batch['riichienv'] * 1e6:8.1f}   melds/riichienv {ratio:.0f}")
        print(f"  the peers agree on {batch['agree'][0]}/{batch['agree'][1]}")
    tables = discard_tables(args.tables, args.seed + 1)
    print(f"何切る tables, {args.tables} fresh 14-tile hands (median ms)")
    print(f"  melds                  {statistics.median(tables['melds']) * 1e3:7.2f}")
    if tables["package"]:
        print(f"  brute force, mahjong   {statistics.median(tables['package']) * 1e3:7.2f}")


if __name__ == "__main__":
    main()
