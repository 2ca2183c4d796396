"""Agari checks and wait lists: melds' fast path against the ``mahjong`` package, same hands.

    python -m bench.mahjong [--hands 20000] [--seed 11] [--rounds 3]

Hands are dealt from a wall of four of each tile, often from one or two suits (so wins and
tenpai are common), half of them built complete. Each side gets its own native input prepared
beforehand (our per-identity counts, the package's 34-array), then both answer the same hands in
the same process; the best of ``--rounds`` timings is reported, with the ratio and whether every
answer agreed. Waits: ours is :meth:`Mahjong.waits_counts`; the package has no wait call, so its
side is what a user of it writes — ``is_agari`` for each tile not already held four times.
Target (issue 6): our rates at least the package's. Scoring (issue 7): random winning hands
scored by :class:`solver.games.mahjong.scoring.Scorer` and by the package's ``estimate_hand_value``, its inputs
(136-tile lists, melds, config) built beforehand; target twice its rate. The package is a test-only dependency
(``pip install -e '.[test]'``).
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from solver.core.ruleset import load_ruleset

HONOURS = "東南西北白發中"


def deal(rng: random.Random, size: int) -> list[int]:
    """``size`` tiles (a 34-array) from a wall of one to four suits, or a complete hand."""
    if size == 14 and rng.random() < 0.5:
        while True:
            counts = [0] * 34
            for _ in range(4):
                if rng.random() < 0.6:
                    start = rng.choice([s * 9 + r for s in range(3) for r in range(7)])
                    for k in range(start, start + 3):
                        counts[k] += 1
                else:
                    counts[rng.randrange(34)] += 3
            counts[rng.randrange(34)] += 2
            if max(counts) <= 4:
                return counts
    suits = rng.sample(range(4), rng.choice([1, 1, 2, 3, 4]))
    wall = [t for t in range(34) if min(t // 9, 3) in suits for _ in range(4)]
    counts = [0] * 34
    for t in rng.sample(wall, size):
        counts[t] += 1
    return counts


def best_rate(work, items, rounds: int) -> tuple[float, list]:
    best, answers = float("inf"), []
    for _ in range(rounds):
        start = time.perf_counter()
        answers = [work(x) for x in items]
        best = min(best, time.perf_counter() - start)
    return len(items) / best, answers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    try:
        from mahjong.agari import Agari
    except ImportError:
        sys.exit("bench.mahjong compares with the mahjong package: pip install -e '.[test]'")

    from solver.games.mahjong.hands import Mahjong

    start = time.perf_counter()
    mj = Mahjong(load_ruleset("gensou-mahjong"))
    mj.winning_counts([0] * len(mj.identities))  # builds the per-suit tables
    build = time.perf_counter() - start
    order = [("mps".index(s) * 9 + int(r) - 1) if s != "z" else 27 + HONOURS.index(r)
             for s, r in mj.identities]

    rng = random.Random(args.seed)
    fourteen = [deal(rng, 14) for _ in range(args.hands)]
    thirteen = [deal(rng, 13) for _ in range(args.hands)]
    ours14 = [[c[i] for i in order] for c in fourteen]
    ours13 = [[c[i] for i in order] for c in thirteen]
    agari = Agari()

    sys.path.insert(0, "tests")  # the package adapters the tests use
    from riichi_package import package_waits

    def their_waits(counts: list[int]) -> list[int]:
        return package_waits(agari, counts)

    def our_waits(counts: list[int]) -> list[int]:
        return [order[i] for i in mj.waits_counts(counts)]

    ours_a, answers_a = best_rate(mj.winning_counts, ours14, args.rounds)
    theirs_a, expected_a = best_rate(agari.is_agari, fourteen, args.rounds)
    ours_w, answers_w = best_rate(our_waits, ours13, args.rounds)
    theirs_w, expected_w = best_rate(their_waits, thirteen, args.rounds)
    # the package knows no fifth copy: a formal-tenpai wait (every copy held) is ours alone
    answers_w = [[t for t in w if c[t] < 4] for w, c in zip(answers_w, thirteen)]

    score_rates = _scoring(args, agari_module=None)
    print(f"tables built in {build:.2f} s (ruleset load included); {args.hands} hands each, "
          f"best of {args.rounds}")
    print(f"{'query':<8} {'melds /s':>10} {'mahjong /s':>11} {'ratio':>6}  agree  positive")
    for name, ours, theirs, got, want in (("agari", ours_a, theirs_a, answers_a, expected_a),
                                          ("waits", ours_w, theirs_w, answers_w, expected_w)):
        agree = sum(a == b for a, b in zip(got, want))
        print(f"{name:<8} {ours:>10,.0f} {theirs:>11,.0f} {ours / theirs:>6.2f}  "
              f"{agree}/{len(want)}  {sum(bool(a) for a in got)}")
    ours, theirs, agree, count, scored, fresh, fresh_theirs = score_rates
    print(f"{'score':<8} {ours:>10,.0f} {theirs:>11,.0f} {ours / theirs:>6.2f}  {agree}/{count}  {scored}")
    print(f"{'fresh':<8} {fresh:>10,.0f} {fresh_theirs:>11,.0f} {fresh / fresh_theirs:>6.2f}  (new hands, each once)")
    print("score: random winning hands re-scored (best of the rounds: the scorer's caches warm); fresh: "
          "other hands, scored once each after the warm-up, as a batch of new hands meets them; "
          "random winning hands (closed and open, tsumo and ron, all seats, dora, red fives); "
          "the package's side is estimate_hand_value on inputs built beforehand; agree = same han, "
          "fu and points (三連刻/四連刻 hands, unknown to the package, left out)")


def our_input(scorer, deal) -> tuple:
    """The scorer's input for a random deal of tests/riichi_package.py: (hand, win)."""
    from riichi_package import tenhou

    from solver.games.mahjong.scoring import Win

    win = Win(scorer.tile(tenhou(deal.win)), tsumo=deal.tsumo, riichi=deal.riichi, seat=deal.seat,
              round_wind=deal.round_wind, dora_indicators=tuple(scorer.tile(tenhou(t)) for t in deal.dora))
    return scorer.mj.parse_hand(deal.hand_string()), win


def _scoring(args, agari_module=None) -> tuple:
    """Hands scored per second, ours and the package's, on the same winning hands."""
    from riichi_package import package_inputs, random_deal

    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.hand_calculating.hand_config import OptionalRules

    from solver.games.mahjong.scoring import NotAWin, Scorer

    scorer = Scorer.for_ruleset(load_ruleset("gensou-mahjong"))
    options = OptionalRules(has_open_tanyao=True, has_aka_dora=True, has_double_yakuman=False,
                            kiriage=False, fu_for_open_pinfu=False)
    rng = random.Random(args.seed)
    count = max(1000, args.hands // 4)
    deals = [random_deal(rng) for _ in range(count)]
    ours_in = [our_input(scorer, d) for d in deals]
    theirs_in = [package_inputs(d, options) for d in deals]
    calculator = HandCalculator()

    def ours(item):
        try:
            s = scorer.score(*item)
            return (s.han, s.fu, s.points.total, {y.id for y in s.yaku} & {"sanrenkou", "suurenkou"})
        except NotAWin:
            return None

    def theirs(item):
        r = calculator.estimate_hand_value(*item[0], **item[1])
        return None if r.error else (r.han, r.fu, item[2](r.cost))

    our_rate, got = best_rate(ours, ours_in, args.rounds)
    their_rate, want = best_rate(theirs, theirs_in, args.rounds)
    compared = [(g, w) for g, w in zip(got, want) if not (g and g[3])]
    agree = sum((g and g[:3]) == w for g, w in compared)
    # fresh hands: both sides warmed on the hands above, then each new hand scored once
    fresh = [random_deal(rng) for _ in range(count)]
    fresh_ours = [our_input(scorer, d) for d in fresh]
    fresh_theirs = [package_inputs(d, options) for d in fresh]
    fresh_rate, _ = best_rate(ours, fresh_ours, 1)
    fresh_their_rate, _ = best_rate(theirs, fresh_theirs, 1)
    return our_rate, their_rate, agree, len(compared), sum(bool(g) for g in got), fresh_rate, fresh_their_rate


if __name__ == "__main__":
    sys.exit(main())
