"""Solve times for random Fesca hands.

    python -m bench.solve [--hands 30] [--seed 7] [--sizes 10 14 20 30] [--budget 10]

Hands of 10, 14, 20 and 30 cards, of which 0–4 are wild-capable (陰陽, 空無, 太極), asked
"can this hand go out?" (with the best turn when it cannot) in one process, the checker warmed
by a few hands first. Prints, per size, the median and worst time, how many hands could go out,
and how many were undecided within the budget. Targets: 14 cards median ≤ 0.1 s, 30 cards
median ≤ 2 s, none undecided at 10 s.
"""

from __future__ import annotations

import argparse
import random
import statistics

from solver.core.registry import load_game
from solver.core.ruleset import load_ruleset
from solver.melding.turn.problem import Problem

WILD_CLASSES = {"陰陽", "空無", "太極"}


def random_hands(ruleset, size: int, count: int, rng: random.Random) -> list[tuple]:
    plain = [f for f in ruleset.deck.faces if f.cls not in WILD_CLASSES]
    wild = [f for f in ruleset.deck.faces if f.cls in WILD_CLASSES]
    hands = []
    for _ in range(count):
        k = rng.randint(0, 4)
        hands.append(tuple(rng.sample(plain, size - k) + rng.sample(wild, k)))
    return hands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 14, 20, 30])
    parser.add_argument("--budget", type=float, default=10.0)
    args = parser.parse_args()
    ruleset = load_ruleset("fesca")
    rng = random.Random(args.seed)
    print(
        f"{'cards':>5} {'hands':>5} {'median s':>9} {'worst s':>8} {'go out':>6} {'undecided':>9}"
        f" {'sat calls (median)':>18}"
    )
    game = load_game(ruleset)
    for hand in random_hands(ruleset, 14, 5, rng):  # compile the game's meld models once
        game.answer_problem(Problem(ruleset, hand))
    for size in args.sizes:
        answers = [
            game.answer_problem(Problem(ruleset, hand), max_seconds=args.budget)
            for hand in random_hands(ruleset, size, args.hands, rng)
        ]
        times = [a.seconds for a in answers]
        print(
            f"{size:>5} {len(answers):>5} {statistics.median(times):>9.3f} {max(times):>8.3f} "
            f"{sum(a.solvable is True for a in answers):>6} "
            f"{sum(a.solvable is None for a in answers):>9} "
            f"{statistics.median(a.sat_calls for a in answers):>18.0f}"
        )


if __name__ == "__main__":
    main()
