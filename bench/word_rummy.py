"""Word Rummy: dictionary load time, and turn-solving time for a 12-tile hand against tables of
10, 20 and 40 tiles.

    python -m bench.word_rummy [--trials 15] [--seed 5] [--sizes 10 20 40]

Load: the default dictionary (JMdict kana readings) read and indexed on tiles, best of three,
in this process. Turns: each trial deals a table of common dictionary words (3–5 tiles) reaching
the size, and a hand of 12 tiles drawn with the letter frequencies of the dictionary; the player
has a first word down, so the whole table may be arranged. Reported: median and worst time, how
many hands went out, the mean number of candidate words. Targets (issue 8): load plus index
under 1 s; median ≤ 1 s at 20 table tiles, ≤ 5 s at 40.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter

from solver.core.ruleset import load_ruleset
from solver.games.words.tiles import Dictionary
from solver.games.words.turn import Turn, solve_turn


def deal_table(rng: random.Random, words: list[str], size: int) -> tuple[str, ...]:
    table, n = [], 0
    while n < size:
        word = rng.choice(words)
        if n + len(word) <= size + 2:
            table.append(word)
            n += len(word)
    return tuple(table)


def discard_seconds(count: int, rng: random.Random, hand_size: int = 8, table_size: int = 10) -> dict:
    """``solve --discards`` in-process on ``count`` dealt positions: a hand of ``hand_size`` tiles
    (the dictionary's letter frequencies) and common words of about ``table_size`` tiles on the
    table, a first word down. Seconds each, and how many had a discard that goes out in one draw."""
    from solver.games.words.session import WordSession

    session = WordSession(load_ruleset("word-rummy"))
    d = session.dictionary
    common = [k for k, entries in d.by_key.items() if 3 <= len(k) <= 5 and any(e.common for e in entries)]
    letters = Counter("".join(d.keys))
    kinds, weights = list(letters), list(letters.values())
    seconds, out = [], 0
    for _ in range(count):
        facts = {
            "hand": "".join(rng.choices(kinds, weights, k=hand_size)),
            "table": list(deal_table(rng, common, table_size)),
            "has_word": True,
        }
        start = time.perf_counter()
        _, code = session.discards(facts)
        seconds.append(time.perf_counter() - start)
        out += code == 0
    return {"seconds": seconds, "one_draw": out}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=15)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 20, 40], help="table sizes in tiles")
    args = parser.parse_args()
    game = load_ruleset("word-rummy").rules  # the WordGame rules (read by the game package)
    loads = []
    for _ in range(3):
        start = time.perf_counter()
        d = Dictionary.for_game(game)
        _ = d.keys  # the sorted index the walk uses, built on first use
        loads.append(time.perf_counter() - start)
    print(
        f"dictionary: {len(d):,} tile keys from {d.reports[0].loaded:,} readings; "
        f"load + index best {min(loads):.2f} s (worst {max(loads):.2f} s)"
    )
    common = [k for k, entries in d.by_key.items() if 3 <= len(k) <= 5 and any(e.common for e in entries)]
    letters = Counter("".join(d.keys))
    kinds, weights = list(letters), list(letters.values())
    rng = random.Random(args.seed)
    print(f"{'table tiles':>11} {'median s':>9} {'worst s':>8} {'went out':>9} {'candidates':>11}")
    for size in args.sizes:
        times, out, cands = [], 0, []
        for _ in range(args.trials):
            turn = Turn(tuple(rng.choices(kinds, weights, k=12)), deal_table(rng, common, size), has_word=True)
            start = time.perf_counter()
            answer = solve_turn(d, turn, game)
            times.append(time.perf_counter() - start)
            out += answer.goes_out
            cands.append(answer.candidates)
        print(
            f"{size:>11} {statistics.median(times):>9.2f} {max(times):>8.2f} {out:>5}/{args.trials:<3} "
            f"{statistics.mean(cands):>11,.0f}"
        )


if __name__ == "__main__":
    main()
