"""Agari checks, wait lists and scoring: melds against the ``mahjong`` package, same hands.

    python -m bench.mahjong [--hands 20000] [--seed 11] [--rounds 3]

Agari and waits: hands are dealt from a wall of four of each tile, often from one or two suits
(so wins and tenpai are common), half of them built complete. Each side gets its own native input
prepared beforehand (our per-identity counts, the package's 34-array), then both answer the same
hands in the same process; the best of ``--rounds`` timings is reported, with the ratio and
whether every answer agreed. Waits: ours is :meth:`Mahjong.waits_counts`; the package has no wait
call, so its side is what a user of it writes — ``is_agari`` for each tile not already held four
times. Target (issue 6): our rates at least the package's.

Scoring: random winning hands scored by :class:`solver.games.mahjong.scoring.Scorer` and by the
package's ``estimate_hand_value``, three ways (the closing lines of the output say how each is
measured): ``rescore`` (the same hands again, inputs built beforehand), ``fresh`` (distinct hands
never seen, each side parsing the same tenhou notation in the loop, warmed on other hands) and
``batch`` (``melds score --batch``, start-up excluded, against the package's fresh rate
in-process). Targets (issue 20): fresh at least twice the package's rate, batch at least its rate.
The package is a test-only dependency (``pip install -e '.[test]'``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

from bench.mahjong_package import package_scorer
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
    order = [("mps".index(s) * 9 + int(r) - 1) if s != "z" else 27 + HONOURS.index(r) for s, r in mj.identities]

    rng = random.Random(args.seed)
    fourteen = [deal(rng, 14) for _ in range(args.hands)]
    thirteen = [deal(rng, 13) for _ in range(args.hands)]
    ours14 = [[c[i] for i in order] for c in fourteen]
    ours13 = [[c[i] for i in order] for c in thirteen]
    agari = Agari()

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
    answers_w = [[t for t in w if c[t] < 4] for w, c in zip(answers_w, thirteen, strict=True)]

    print(f"tables built in {build:.2f} s (ruleset load included); {args.hands} hands each, best of {args.rounds}")
    print(f"{'query':<8} {'melds /s':>10} {'mahjong /s':>11} {'ratio':>6}  agree  positive")
    for name, ours, theirs, got, want in (
        ("agari", ours_a, theirs_a, answers_a, expected_a),
        ("waits", ours_w, theirs_w, answers_w, expected_w),
    ):
        agree = sum(a == b for a, b in zip(got, want, strict=True))
        print(
            f"{name:<8} {ours:>10,.0f} {theirs:>11,.0f} {ours / theirs:>6.2f}  "
            f"{agree}/{len(want)}  {sum(bool(a) for a in got)}"
        )
    for name, ours, theirs, agree in _scoring(args):
        print(f"{name:<8} {ours:>10,.0f} {theirs:>11,.0f} {ours / theirs:>6.2f}  {agree}")
    print(
        "Scoring: random winning hands (closed and open, tsumo and ron, all seats, dora, red fives); "
        "agree = same han, fu and points (三連刻/四連刻 hands, unknown to the package, left out).\n"
        "  rescore: the same hands scored again and again, inputs built beforehand (best of the rounds; "
        "caches warm on the very hands);\n"
        "  fresh:   distinct hands never seen before, each scored once after both sides warmed up on "
        "other hands, each side parsing the same tenhou notation in the loop (ours: the hand string "
        "with [..] melds and the win's facts; the package's: TilesConverter strings, Meld objects, "
        "HandConfig), chunks of hands alternated between the sides;\n"
        "  batch:   `melds score --batch` on those fresh hands as JSON Lines, JSON out, one process, "
        "start-up and warm-up lines excluded (a batch of warm-up + fresh lines less one of the warm-up "
        "lines alone), against the package's fresh rate in-process.\n"
        "  fresh and batch count CPU time (the process's, the batch child's), so that other work on the "
        "machine weighs less on the ratio."
    )


# -- scoring: the notation both sides start from ---------------------------------------------------


def request_of(deal) -> dict:
    """A deal as melds' request: the hand in tenhou notation with [..] / (..) melds and the win's
    facts — a line of ``melds score --batch``."""
    from riichi_package import tenhou

    request = {
        "hand": deal.hand_string(),
        "win": _win_text(deal),
        "seat": deal.seat,
        "round": deal.round_wind,
        "dora_indicators": " ".join(tenhou(t) for t in deal.dora),
    }
    if deal.tsumo:
        request["tsumo"] = True
    if deal.riichi:
        request["riichi"] = True
    return request


def _win_text(deal) -> str:
    """The winning tile as written: a red five when the hand's only copy of it is red."""
    from riichi_package import tenhou

    return tenhou(deal.win, deal.win in deal.red and deal.concealed.count(deal.win) == 1)


def package_notation(deal) -> tuple:
    """The same deal as a user of the package writes it: one tile string for the whole hand, a
    (type, tile string, opened) per meld, the winning tile and the dora indicators as strings, the
    HandConfig's facts. The package parses these with its TilesConverter in the timed loop."""
    from mahjong.constants import EAST
    from mahjong.meld import Meld
    from riichi_package import SEATS, tenhou

    hand = deal.hand_string()
    concealed = hand.split(" [")[0].split(" (")[0].replace(" ", "")
    types = {"chi": Meld.CHI, "pon": Meld.PON, "minkan": Meld.KAN, "ankan": Meld.KAN}
    melds = [(types[kind], "".join(tenhou(t) for t in tiles), kind != "ankan") for kind, tiles in deal.melds]
    facts = {
        "is_tsumo": deal.tsumo,
        "is_riichi": deal.riichi,
        "player_wind": EAST + SEATS.index(deal.seat),
        "round_wind": EAST + SEATS.index(deal.round_wind),
    }
    return (
        concealed + "".join(m[1] for m in melds),
        melds,
        _win_text(deal),
        "".join(tenhou(t) for t in deal.dora),
        facts,
    )


def fresh_deals(rng: random.Random, count: int, seen: set) -> list:
    """``count`` random winning deals, none alike and none in ``seen`` (which they join)."""
    from riichi_package import Deal, random_deal

    out: list[Deal] = []
    while len(out) < count:
        deal = random_deal(rng)
        key = repr(request_of(deal))
        if key not in seen:
            seen.add(key)
            out.append(deal)
    return out


class ScoringSides:
    """Both sides of the scoring comparison, each from its own notation: ``ours(request)`` parses
    melds' request and scores it (a Score, or None without a win); ``theirs(item)`` parses the
    package's strings and scores them (its HandResponse)."""

    def __init__(self):
        from solver.games.mahjong.scoring import NotAWin, Scorer, win_from_facts

        self.scorer = scorer = Scorer.for_ruleset(load_ruleset("gensou-mahjong"))
        theirs, self.options = package_scorer()
        parse_hand = scorer.mj.parse_hand

        # each side answers with a small summary of atomic values, so that neither keeps a
        # thousand result objects alive (which would put the garbage collector in the timings)
        def ours(request: dict):
            try:
                s = scorer.score(parse_hand(request["hand"]), win_from_facts(scorer, request["win"], request, 4))
            except NotAWin:
                return None
            return s.han, s.fu, s.points.total, any(y.id in _RENKOU for y in s.yaku)

        self.ours, self.theirs = ours, theirs

    def warm(self, deals) -> None:
        for d in deals:
            self.ours(request_of(d))
            self.theirs(package_notation(d))

    def fresh(self, deals, chunks: int = 10, clock=time.process_time) -> tuple[float, float, int, int]:
        """Seconds per hand by ``clock``, ours and theirs, on hands each side meets once (chunks
        alternated between the sides, so that a change in the machine's load falls on both; CPU time
        by default, so that other processes on the machine count less), and how many of the
        comparable answers agree."""
        requests = [request_of(d) for d in deals]
        items = [package_notation(d) for d in deals]
        ours_s = theirs_s = 0.0
        got, want = [], []
        step = -(-len(deals) // chunks)
        for k in range(0, len(deals), step):
            start = clock()
            got += [self.ours(r) for r in requests[k : k + step]]
            middle = clock()
            want += [self.theirs(x) for x in items[k : k + step]]
            theirs_s += clock() - middle
            ours_s += middle - start
        compared = agree = 0
        for deal, g, w in zip(deals, got, want, strict=True):
            if g is not None and g[3]:
                continue  # 三連刻/四連刻: the document's yaku, unknown to the package
            compared += 1
            agree += _same(deal, g, w)
        return ours_s / len(deals), theirs_s / len(deals), agree, compared


_RENKOU = {"sanrenkou", "suurenkou"}


def _same(deal, ours: tuple | None, theirs: tuple | None) -> bool:
    if ours is None or theirs is None:
        return ours is None and theirs is None
    han, fu, main, additional = theirs
    total = main if not deal.tsumo else main * 3 if deal.seat == "E" else main + 2 * additional
    return ours[:3] == (han, fu, total)


MELDS = [sys.executable, "-c", "import sys; sys.argv[0] = 'melds'; from cli import run; run()"]
# Both scoring benchmarks (this one and bench/run's mahjong rows) warm each side on as many other
# hands before the fresh ones are timed, and a batch on as many lines before its timed ones.
WARM_HANDS = 1000
WARM_LINES = 200


def batch_seconds(
    requests: list[dict], warm: list[dict], runs: int = 2, command: tuple[str, ...] = ("score", "-r", "gensou-mahjong")
) -> float:
    """CPU seconds per line of ``melds COMMAND --batch`` (by default ``score -r gensou-mahjong``;
    JSON Lines in, JSON out, one process) over ``requests``, start-up and the ``warm`` lines
    excluded: the least CPU time of a batch of warm + requests less the least of a batch of warm
    alone. Every line must answer."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        alone = _batch_process(Path(folder), warm, runs, command)[1]
        both = _batch_process(Path(folder), warm + requests, runs, command)[1]
    return (both - alone) / len(requests)


def paired_whole_processes(deals, pairs: int = 5) -> list[tuple[float, float, float, float]]:
    """``pairs`` pairs of whole processes over the same hands, each timed from outside by wall
    (its start, its import, the ruleset's load and every hand from the first counted, as a user
    waits for it): one ``melds score -r gensou-mahjong --batch`` (JSON Lines in, JSON out) and
    one process of the ``mahjong`` package scoring the same hands in-process from its own
    notation (``python -m bench.mahjong_package``: the package's import and the hands' parse
    counted, no output). The order within a pair alternates, so that a change in the machine's
    load falls on both sides. Each pair is (melds' wall, melds' CPU, the package's wall, its CPU)
    in seconds per hand (CPU: the child's user + system time). One untimed run of each side on a
    few hands comes first: the compiled ruleset and both sides' files are then as a user's second
    run finds them."""
    import tempfile

    requests = [request_of(d) for d in deals]
    items = [package_notation(d) for d in deals]
    package = [sys.executable, "-m", "bench.mahjong_package"]
    with tempfile.TemporaryDirectory() as folder:
        ours, theirs = Path(folder) / "batch.jsonl", Path(folder) / "hands.json"
        _write_batch(ours, requests[:3])
        theirs.write_text(json.dumps(items[:3]), encoding="utf-8")
        _run_melds(Path(folder), ours, ("score", "-r", "gensou-mahjong"), 3)
        _timed_process([*package, str(theirs)], Path(folder) / "package.out")
        _write_batch(ours, requests)
        theirs.write_text(json.dumps(items), encoding="utf-8")
        out: list[tuple[float, float, float, float]] = []
        for k in range(pairs):
            if k % 2:
                package_wall, package_cpu = _run_package(package, theirs, Path(folder), len(items))
                wall, cpu = _run_melds(Path(folder), ours, ("score", "-r", "gensou-mahjong"), len(requests))
            else:
                wall, cpu = _run_melds(Path(folder), ours, ("score", "-r", "gensou-mahjong"), len(requests))
                package_wall, package_cpu = _run_package(package, theirs, Path(folder), len(items))
            n = len(deals)
            out.append((wall / n, cpu / n, package_wall / n, package_cpu / n))
    return out


def _run_package(command: list[str], hands: Path, folder: Path, count: int) -> tuple[float, float]:
    """(wall, CPU) seconds of one package process over ``hands``; it must score every hand."""
    timed = _timed_process([*command, str(hands)], folder / "package.out")
    scored = (folder / "package.out").read_text(encoding="utf-8").split()
    if not scored or int(scored[0]) != count:
        raise RuntimeError(f"the package's process scored {scored[:1]} of {count} hands")
    return timed


def _write_batch(path: Path, lines: list[dict]) -> None:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in lines), encoding="utf-8")


def _batch_process(folder: Path, lines: list[dict], runs: int, command: tuple[str, ...]) -> tuple[float, float]:
    """The least wall and the least CPU seconds (the child's user + system) of ``runs`` runs of
    ``melds COMMAND --batch`` over ``lines`` (written to a file in ``folder``); every line must
    answer, with no error."""
    path = folder / "batch.jsonl"
    _write_batch(path, lines)
    runs_seen = [_run_melds(folder, path, command, len(lines)) for _ in range(runs)]
    return min(w for w, _ in runs_seen), min(c for _, c in runs_seen)


def _run_melds(folder: Path, batch: Path, command: tuple[str, ...], count: int) -> tuple[float, float]:
    """(wall, CPU) seconds of one ``melds COMMAND --batch`` process over ``batch``; every line
    must answer, with no error."""
    out = folder / "out.jsonl"
    timed = _timed_process([*MELDS, *command, "--batch", str(batch)], out)
    answers = out.read_text(encoding="utf-8").splitlines()
    if len(answers) != count or any('"error"' in a for a in answers):
        raise RuntimeError(f"the batch answered {len(answers)} of {count} lines, or with errors")
    return timed


def _timed_process(command: list[str], out: Path) -> tuple[float, float]:
    """(wall, CPU) seconds of one child process run from the checkout's root, its stdout to
    ``out``: wall from before its start to its end, CPU its user + system time."""
    import resource
    import subprocess

    def child_seconds() -> float:
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime

    root = Path(__file__).resolve().parent.parent
    with open(out, "w", encoding="utf-8") as sink:
        start, clock = child_seconds(), time.perf_counter()
        subprocess.run(command, stdout=sink, stderr=subprocess.DEVNULL, cwd=root)
        wall = time.perf_counter() - clock
        return wall, child_seconds() - start


def _scoring(args) -> list[tuple]:
    """(row name, melds hands/s, package hands/s, agreement) for re-scored, fresh and batch."""
    from riichi_package import package_inputs

    sides = ScoringSides()
    scorer, options = sides.scorer, sides.options
    from mahjong.hand_calculating.hand import HandCalculator

    from solver.games.mahjong.scoring import NotAWin

    rng = random.Random(args.seed)
    seen: set[str] = set()
    count = max(1000, args.hands // 4)
    deals = fresh_deals(rng, count, seen)
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
    compared = [(g, w) for g, w in zip(got, want, strict=True) if not (g and g[3])]
    agree = sum((g and g[:3]) == w for g, w in compared)
    rows = [("rescore", our_rate, their_rate, f"{agree}/{len(compared)}")]
    # fresh: both sides warmed on other hands, then each new hand parsed and scored once
    sides.warm(fresh_deals(rng, WARM_HANDS, seen))
    fresh = fresh_deals(rng, count, seen)
    ours_s, theirs_s, fresh_agree, fresh_compared = sides.fresh(fresh)
    rows.append(("fresh", 1 / ours_s, 1 / theirs_s, f"{fresh_agree}/{fresh_compared}"))
    batch = batch_seconds([request_of(d) for d in fresh], [request_of(d) for d in fresh_deals(rng, WARM_LINES, seen)])
    rows.append(("batch", 1 / batch, 1 / theirs_s, "(the package in-process)"))
    return rows


def our_input(scorer, deal) -> tuple:
    """The scorer's input for a random deal of tests/riichi_package.py, built beforehand: (hand, win)."""
    from riichi_package import tenhou

    from solver.games.mahjong.scoring import Win

    win = Win(
        scorer.tile(tenhou(deal.win)),
        tsumo=deal.tsumo,
        riichi=deal.riichi,
        seat=deal.seat,
        round_wind=deal.round_wind,
        dora_indicators=tuple(scorer.tile(tenhou(t)) for t in deal.dora),
    )
    return scorer.mj.parse_hand(deal.hand_string()), win


if __name__ == "__main__":
    main()
