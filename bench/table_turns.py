"""Solve times for random Fesca turns with melds on the table (single-card operations).

    python -m bench.table_turns [--turns 20] [--seed 3]

Hands of 6 and 10 cards against 2–3 legal table melds (some the player's own), 陽場, the player
has melded. Prints median and worst time and the states searched.
"""

from __future__ import annotations

import argparse
import random
import statistics

from solver.core.deck import Face
from solver.core.registry import load_game
from solver.core.ruleset import load_ruleset
from solver.melding.table.operations import TableMeld
from solver.melding.turn.problem import Problem


def table_melds(rs, checker, rng: random.Random, count: int = 200) -> list[tuple]:
    """Legal Fesca melds of 3–5 cards, drawn near one suit or rank (the wild classes mixed in)."""
    melds: list[tuple] = []
    while len(melds) < count:
        base = rng.choice(rs.deck.faces[:60])
        pool = [f for f in rs.deck.faces if f.suit == base.suit or f.rank == base.rank or f.cls != "五行"]
        verdict = checker.check(rng.sample(pool, rng.randint(3, 5)), explain=False)
        if verdict.legal:
            melds.append(tuple(p.face for p in verdict.reading.placements))
    return melds


def deal_table(
    rs, melds: list[tuple], rng: random.Random, hand_size: int, full=lambda table: False, tries: int = 20000
) -> tuple[tuple[TableMeld, ...], tuple]:
    """A table of disjoint melds drawn from ``melds`` (each the player's own or B's, at random) until
    ``full(table)`` or ``tries`` draws, and a hand of ``hand_size`` cards from the rest of the deck."""
    table: list[TableMeld] = []
    used: set[Face] = set()
    while tries > 0 and not full(table):
        tries -= 1
        meld = rng.choice(melds)
        if not used & set(meld):
            used |= set(meld)
            owner = rng.choice(["me", "B"])
            table.append(TableMeld(owner, meld, owner == "me"))
    hand = tuple(rng.sample([f for f in rs.deck.faces if f not in used], hand_size))
    return tuple(table), hand


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    rs = load_ruleset("fesca")
    rng = random.Random(args.seed)
    game = load_game(rs)
    melds = table_melds(rs, game.checker, rng)
    print(f"{'hand':>4} {'turns':>5} {'median s':>9} {'worst s':>8} {'go out':>6}")
    for size in (6, 10):
        times, outs = [], 0
        for _ in range(args.turns):
            table, hand = deal_table(rs, melds, rng, size, tries=rng.randint(2, 3))
            answer = game.answer_problem(Problem(rs, hand, table, "normal", None, True, "yang"), max_seconds=60)
            times.append(answer.seconds)
            outs += bool(answer.solvable)
        print(f"{size:>4} {args.turns:>5} {statistics.median(times):>9.3f} {max(times):>8.3f} {outs:>6}")


if __name__ == "__main__":
    main()
