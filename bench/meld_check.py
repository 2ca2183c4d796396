"""Meld checks per second in-process, and the cold start of `melds check`.

    python -m bench.meld_check [--ruleset fesca] [--count 4000] [--seed 1]

Melds of 3–8 cards with up to 2 wilds: half drawn near a legal set or run (then perturbed), half
random, so that legal and illegal verdicts both weigh in. Target: at least 2,000 checks/s
in-process (verdict only), and a cold start of `melds check` of at most 0.5 s.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import time
from pathlib import Path

from solver.core.deck import Face
from solver.core.ruleset import load_ruleset
from solver.melding.meld.checker import MeldChecker

ROOT = Path(__file__).resolve().parent.parent


def random_melds(ruleset, count: int, seed: int) -> list[list]:
    """Random melds of 3–8 cards, at most 2 of them cards that can act as wilds."""
    rng = random.Random(seed)
    deck = ruleset.deck
    wild_classes = {c for r in ruleset.roles.values() if r.wild for c in r.classes}
    naturals = [f for f in deck.faces if f.cls not in wild_classes]
    wilds = [f for f in deck.faces if f.cls in wild_classes]
    melds: list[list[Face]] = []
    while len(melds) < count:
        n = rng.randint(3, 8)
        k = rng.randint(0, min(2, n - 1)) if wilds else 0
        if rng.random() < 0.5:  # near a run or a set
            base = rng.choice(naturals)
            if rng.random() < 0.5:
                pool = [f for f in naturals if f.suit == base.suit]
                pool.sort(key=lambda f: f.index)
                start = rng.randrange(max(1, len(pool) - (n - k) + 1))
                chosen = pool[start : start + n - k]
            else:
                chosen = [f for f in naturals if f.rank == base.rank]
                rng.shuffle(chosen)
                chosen = chosen[: n - k]
        else:
            chosen = rng.sample(naturals, n - k)
        chosen = list(chosen) + rng.sample(wilds, min(k, len(wilds)))
        if len(chosen) >= 3 and len(set(chosen)) == len(chosen):
            rng.shuffle(chosen)
            melds.append(chosen)
    return melds


def in_process(ruleset_id: str, count: int, seed: int) -> dict:
    ruleset = load_ruleset(ruleset_id)
    melds = random_melds(ruleset, count, seed)
    with MeldChecker(ruleset) as checker:
        warm_start = time.perf_counter()
        for meld in melds:  # first pass compiles every (kind, size) model
            checker.check(meld, explain=False)
        warm = time.perf_counter() - warm_start
        calls0 = checker.sat_calls
        start = time.perf_counter()
        legal = sum(checker.check(meld, explain=False).legal for meld in melds)
        verdict_time = time.perf_counter() - start
        calls = checker.sat_calls - calls0
        start = time.perf_counter()
        for meld in melds[: count // 4]:
            checker.check(meld, explain=True)
        explain_time = time.perf_counter() - start
    return {
        "ruleset": ruleset_id,
        "melds": count,
        "legal": legal,
        "first_pass_s": warm,
        "checks_per_s": count / verdict_time,
        "sat_calls_per_check": calls / count,
        "explained_checks_per_s": (count // 4) / explain_time,
    }


def cold_start(runs: int = 5) -> dict:
    melds = ROOT / ".venv" / "bin" / "melds"
    exe = str(melds) if melds.exists() else "melds"
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([exe, "check", "-r", "fesca", "木3", "木4", "太極"], capture_output=True, check=False)
        times.append(time.perf_counter() - start)
    return {"cold_start_median_s": statistics.median(times), "cold_start_max_s": max(times)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="fesca")
    parser.add_argument("--count", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-cold", action="store_true")
    args = parser.parse_args()
    for key, value in in_process(args.ruleset, args.count, args.seed).items():
        print(f"{key:26} {value:.3f}" if isinstance(value, float) else f"{key:26} {value}")
    if not args.no_cold:
        for key, value in cold_start().items():
            print(f"{key:26} {value:.3f}")


if __name__ == "__main__":
    main()
