"""One table of melds' performance: each scenario's median and worst time, and the ratio against a
peer where one exists.

    python -m bench.run [--quick] [--seed 5] [--only NAME ...]

Scenarios (the engine's targets in parentheses; the closing notes quote this table before and
after a change — ratios, not absolute times, are the figures to compare across machines):

* ``fesca-solve-30`` / ``fesca-solve-45``: random Fesca hands of 30 / 45 cards with 0–4
  wild-capable cards, ``--best`` (45 cards: median ≤ 0.5 s, worst ≤ 3 s);
* ``fesca-wilds-30``: 30 cards of which 10 are wild-capable (median ≤ 1 s, none undecided);
* ``fesca-table-40+10``: about 40 cards in legal melds on the table and 10 in hand, 陽場, ``--best``,
  on the 75 fixed tables of ``bench.table_sweep`` (15 with ``--quick``) (median ≤ 2 s, none
  undecided at 10 s);
* ``rummikub-80``: reachable Rummikub positions of about 80 tiles, melds' best turn against the peer
  ``rummikub-solver`` (melds ≥ 5× faster; never fewer tiles placed);
* ``mahjong-score``: fresh random winning hands, each parsed from tenhou notation and scored once,
  against the ``mahjong`` package doing the same (both warmed on other hands; ≥ 2× its rate, i.e.
  melds/peer ≤ 0.5);
* ``mahjong-batch``: 20,000 fresh hands (6,000 with ``--quick``) through one ``melds score
  --batch`` process (JSON Lines in, JSON out) against one process of the ``mahjong`` package
  scoring the same hands in-process (bench/mahjong_package.py: its import and each hand's parse
  counted): both whole processes by wall, start-up included, in five alternating pairs (three
  with ``--quick``), the medians compared (melds/peer ≤ 1; aim ≤ 0.77); the note gives every
  pair's ratio, the ratio of the bests and of the CPU times, and the package's warm in-process
  rate with its import left out (what the row compared with before 2026-11-29);
* ``mahjong-shanten-batch``: fresh 13-tile hands (the tests' deals) through ``melds solve
  --shanten --batch`` (start-up and warm-up lines excluded), CPU seconds per line against the
  ``mahjong`` package's seconds per hand in-process (melds/peer ≤ 1); the note gives riichienv's
  figure (Rust) and that ratio (bench/shanten.py);
* ``mahjong-discards``: a whole 何切る table of a fresh 14-tile hand in-process, against the same
  table by brute force over the package's shanten (median ≤ 5 ms);
* ``check-cold-start``: ``melds check`` as a new process, against a bare ``python3 -c pass``
  (≤ 0.25 s above it);
* ``fesca-batch-check``: ``melds check --batch`` of random Fesca melds, one process, its kind models
  kept on disk beforehand as the compiled ruleset is (≥ 500 lines/s);
* ``budget-overrun``: the cases of ``bench.budgets`` run with ``--max-seconds``, the seconds each
  took past its budget as a new process (each within 10 % + 0.5 s of it);
* ``indian-rummy-batch``: ``melds solve --batch`` of dealt fourteen-card Indian Rummy hands, each with
  a cut joker (bench.rummies: start-up and warm-up excluded) (≥ 1,000 lines/s);
* ``okey-batch`` / ``phase-10-batch``: the same for dealt fifteen-tile Okey hands with an indicator,
  and dealt eleven-card Phase 10 hands with wilds and skips, each line a phase from 1 to 10;
* ``continental-wilds-batch``: the same for sixteen-card Continental hands with four to six wilds
  (tests/data/rulesets/continental.yaml: runs melded only when going out; most hands cannot);
* ``rummy-distance-11`` / ``indian-rummy-distance``: ``melds solve --distance`` of dealt Basic
  Rummy hands of 11 cards (10 dealt and a draw), and of 14-card Indian Rummy hands (13 and a draw)
  with a dealt cut joker, in-process,
  warm (bench/distance.py) (median ≤ 50 ms); ``rummikub-distance``: the fewest tiles drawn before a
  14-tile rack goes out, on reachable tables of about 26 tiles (bench/distance.py), the player melded;
* ``contract-rummy-distance`` / ``phase-10-distance`` / ``marriage-distance``: ``melds solve
  --distance`` of dealt hands in-process, warm, each within 20 s (bench/distance.py): Contract
  Rummy's rounds in turn (11 cards in rounds 1–4, 13 in 5–7: the dealt hand and a draw), Phase 10's
  phases in turn (11 cards), Marriage's 22 cards with a dealt tiplu (undecided hands counted);
* ``fesca-distance`` / ``fesca-discards``: ``melds solve -r fesca --distance`` of 13-card hands and
  ``--discards`` of 7-card hands dealt from the 78 cards (wilds as they come), 陽場 and 陰場 by
  turns, in-process, warm (bench/distance.py) (issue 47: a 13-card distance < 50 ms median, a
  discard table seconds at most);
* ``word-discards``: ``melds solve -r word-rummy --discards`` in-process, warm, on dealt positions
  of an 8-tile hand and about 10 tiles of common words on the table, a first word down
  (bench/word_rummy.py): every discard with every kana drawn (no target set yet);
* ``gin-deadwood-batch``: ``melds solve -r gin-rummy --batch`` of at least 10,000 dealt ten- and
  eleven-card hands (bench.rummies: the batch process's CPU time, best of three, start-up and
  warm-up excluded), the minimum deadwood (eleven cards: after the best discard), against
  OpenSpiel's ``min_deadwood`` in-process on the same hands (≥ 5,000 lines/s);
* ``replay-hands``: ``melds replay``'s CPU seconds per hand (one process: one core's work, whatever
  else the machine runs), warm, on the real Tenhou games of tests/data and on riichienv self-play
  games (mjai logs); each corpus's hands/s in the note against the bar (≥ 1,000 hands/s on one core);
  with ``--replay-base CHECKOUT`` the peer is that earlier checkout on the same Tenhou logs;
* ``replay-jobs``: whole ``melds replay --jobs 2`` processes against ``--jobs 1`` over the same
  folder (the real Tenhou games of tests/data and 400 self-play games), wall seconds per hand with
  start-up, the best of five pairs run back to back (two jobs/one ≤ 0.56, i.e. ≥ 1.8×); every
  pair's ratio, their median and each job count's CPU seconds in the note, and with
  ``--replay-base`` that checkout's, its pairs run in the same rounds.

Every solve runs under a budget (``--budget``, 10 s); an undecided answer counts its full time and
is counted in the ``undecided`` column. Each scenario runs in a process of its own (same seed, same
items as in one process), so that none is timed on a heap another left behind. The peers come from
the ``test`` extra; a scenario whose peer is missing prints ``—`` for the ratio.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from bench.mahjong import WARM_HANDS, ScoringSides, fresh_deals, paired_whole_processes
from solver.core.registry import load_game
from solver.core.ruleset import load_ruleset
from solver.melding.meld.checker import MeldChecker
from solver.melding.turn.problem import Problem

ROOT = Path(__file__).resolve().parent.parent

if TYPE_CHECKING:  # bench.replay is imported when its rows run
    from bench.replay import Pair

WILD_CLASSES = {"陰陽", "空無", "太極"}


@dataclass
class Row:
    name: str
    times: list[float] = field(default_factory=list)  # seconds per item (or per line)
    undecided: int = 0
    peer: list[float] = field(default_factory=list)
    note: str = ""

    def cells(self) -> list[str]:
        med = statistics.median(self.times) if self.times else float("nan")
        ratio = f"{med / statistics.median(self.peer):.2f}" if self.peer else "—"
        return [
            self.name,
            str(len(self.times)),
            f"{med:.4g}",
            f"{max(self.times, default=float('nan')):.4g}",
            str(self.undecided),
            f"{statistics.median(self.peer):.4g}" if self.peer else "—",
            ratio,
            self.note,
        ]


def fesca_hands(size: int, wilds: tuple[int, int], count: int, rng: random.Random) -> list[tuple]:
    rs = load_ruleset("fesca")
    plain = [f for f in rs.deck.faces if f.cls not in WILD_CLASSES]
    wild = [f for f in rs.deck.faces if f.cls in WILD_CLASSES]
    out = []
    for _ in range(count):
        w = rng.randint(*wilds)
        out.append(tuple(rng.sample(plain, size - w) + rng.sample(wild, w)))
    return out


def fesca_solve(name: str, size: int, wilds: tuple[int, int], count: int, rng, budget: float) -> Row:
    rs = load_ruleset("fesca")
    game = load_game(rs)
    game.answer_problem(Problem(rs, fesca_hands(14, (0, 2), 1, rng)[0]), "best")  # warm the checker
    row = Row(name)
    for hand in fesca_hands(size, wilds, count, rng):
        answer = game.answer_problem(Problem(rs, hand), "best", max_seconds=budget)
        row.times.append(answer.seconds if answer.solvable is not None else budget)
        row.undecided += answer.solvable is None
    return row


def fesca_table(per_seed: int, budget: float) -> Row:
    """Fesca table turns on the sweep's fixed tables (bench/data/table-turns.json: about 40 cards
    on the table, 10 in hand, 15 seeds), ``per_seed`` turns of each. (A random deal of disjoint
    melds ran out of melds at 25–35 table cards, short of the 40 the row is named for.)"""
    from bench.table_sweep import NEAR, near_limit, run

    row = Row("fesca-table-40+10")
    turns = run(budget, per_seed)
    for turn in turns:
        row.times.append(turn["seconds"] if not turn["undecided"] else budget)
        row.undecided += turn["undecided"]
    row.note = (
        f"{len(row.times)} fixed tables of about 40 cards (bench.table_sweep: per seed); "
        f"decided past {NEAR:.0%} of the budget: {len(near_limit(turns, budget))}"
    )
    return row


def rummikub(count: int, rng, budget: float) -> Row:
    from test_rummikub_brute import deal

    game = load_game(load_ruleset("rummikub"))
    try:
        from rummikub_peer import Peer

        peer = Peer()
    except ImportError:
        peer = None
    row, fewer = Row("rummikub-80"), 0
    for _ in range(count):
        hand, table = deal(rng, 66, 14)
        request = {
            "hand": " ".join(hand),
            "table": [f"all: {s}" for s in table],
            "has_melded": True,
            "best": True,
            "max_seconds": budget,
        }
        start = time.perf_counter()
        data = game.solve(request).data
        row.times.append(time.perf_counter() - start)
        row.undecided += bool(data.get("undecided"))
        if peer is not None:
            start = time.perf_counter()
            theirs = peer.best(hand, table)
            row.peer.append(time.perf_counter() - start)
            fewer += len(data["placed"]) < len(theirs)
    row.note = f"fewer tiles than the peer: {fewer}" if peer else "peer not installed"
    return row


def mahjong(count: int, rng, batch_lines: int = 0, pairs: int = 5) -> Row:
    """Fresh winning hands, each parsed from tenhou notation and scored once by both sides after
    both warmed up on other hands (bench.mahjong.ScoringSides), CPU seconds a hand; with
    ``batch_lines``, whole processes over that many fresh hands in ``pairs`` alternating pairs
    (bench.mahjong.paired_whole_processes): one ``melds score --batch`` process against one
    process of the package scoring the same hands in-process, each by wall, start-up included."""
    try:
        sides = ScoringSides()
    except ImportError:
        return Row("mahjong-batch" if batch_lines else "mahjong-score", note="package not installed")
    seen: set = set()
    sides.warm(fresh_deals(rng, WARM_HANDS, seen))
    fresh = fresh_deals(rng, max(count, batch_lines), seen)
    if not batch_lines:
        ours, theirs, agree, compared = sides.fresh(fresh[:count])
        return Row(
            "mahjong-score",
            [ours],
            peer=[theirs],
            note=f"CPU seconds per hand over {count} fresh hands; same answer {agree}/{compared}",
        )
    hands = fresh[:batch_lines]
    warm_package = sides.fresh(hands, clock=time.perf_counter)[1]
    timed = paired_whole_processes(hands, pairs)
    ratios = sorted(wall / package for wall, _, package, _ in timed)
    best = min(wall for wall, _, _, _ in timed) / min(package for _, _, package, _ in timed)
    cpu = statistics.median(c for _, c, _, _ in timed) / statistics.median(c for _, _, _, c in timed)
    return Row(
        "mahjong-batch",
        [wall for wall, _, _, _ in timed],
        peer=[package for _, _, package, _ in timed],
        note=f"whole processes by wall over {batch_lines} fresh hands, median of {pairs} alternating pairs "
        f"(melds: JSON in and out; the package: its import and in-process scoring); pair ratios "
        + ", ".join(f"{r:.2f}" for r in ratios)
        + f"; bests {best:.2f}; by CPU (user + system) {cpu:.2f}; "
        f"the package warm in-process, import excluded: {warm_package * 1e6:.0f} µs a hand (wall)",
    )


def shanten_batch(count: int, seed: int) -> Row:
    from bench.shanten import shanten_batch as measure

    figures = measure(count, seed)
    row = Row("mahjong-shanten-batch", [figures["melds"]])
    if figures["package"] is None:
        row.note = "package not installed"
        return row
    row.peer = [figures["package"]]
    row.note = f"CPU seconds per line over {count} fresh hands, JSON in and out; peer in-process"
    if figures["riichienv"]:
        ratio = figures["melds"] / figures["riichienv"]
        row.note += f"; riichienv {figures['riichienv'] * 1e6:.2f} µs a hand, melds/riichienv {ratio:.0f}"
    return row


def discard_tables(count: int, seed: int) -> Row:
    from bench.shanten import discard_tables as measure

    figures = measure(count, seed)
    row = Row("mahjong-discards", figures["melds"], peer=figures["package"])
    row.note = f"a 何切る table of a fresh 14-tile hand in-process; peer: brute force over the package ({count})"
    return row


def cold_start(runs: int) -> Row:
    melds = [sys.executable, "-c", "import sys; sys.argv[0] = 'melds'; from cli import run; run()"]
    row = Row("check-cold-start")
    for _ in range(runs):
        row.times.append(_timed([*melds, "check", "-r", "fesca", "木3", "木4", "太極"]))
        row.peer.append(_timed([sys.executable, "-c", "pass"]))
    row.note = f"{statistics.median(row.times) - statistics.median(row.peer):.3f} s above a bare python"
    return row


def batch_checks(lines: int, rng) -> Row:
    rs = load_ruleset("fesca")
    faces = [f for f in rs.deck.faces]
    notation = load_game(rs).notation
    text = "".join(
        json.dumps({"cards": [notation.format(f) for f in rng.sample(faces, rng.randint(3, 6))]}, ensure_ascii=False)
        + "\n"
        for _ in range(lines)
    )
    with MeldChecker(rs) as checker:  # the kind models kept on disk first, as the compiled ruleset is
        for kind in rs.kinds:
            for size in range(3, 7):
                checker.model(kind, size)
    start = time.perf_counter()
    subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; sys.argv[0] = 'melds'; from cli import run; run()",
            "check",
            "-r",
            "fesca",
            "--batch",
            "-",
        ],
        input=text.encode(),
        capture_output=True,
        cwd=ROOT,
    )
    seconds = time.perf_counter() - start
    row = Row("fesca-batch-check", [seconds / lines])
    row.note = f"{lines / seconds:.0f} lines/s (start-up included)"
    return row


def budget_overrun() -> Row:
    from bench.budgets import measured, promise

    runs = measured()
    row = Row("budget-overrun", [wall - seconds for _, seconds, wall in runs])
    broken = [name for name, seconds, wall in runs if wall > promise(seconds)]
    row.note = f"{len(runs) - len(broken)} of {len(runs)} within 10 % + 0.5 s" + (
        f" ({', '.join(broken)} not)" if broken else ""
    )
    return row


def rummy_batch(ruleset: str, lines: int, rng) -> Row:
    from bench.rummies import go_out_per_line

    seconds, fresh, out = go_out_per_line(lines, max(50, lines // 5), rng, ruleset)
    return Row(f"{ruleset}-batch", [seconds], note=f"{1 / seconds:.0f} lines/s over {fresh} dealt hands, {out} go out")


def continental_wilds(lines: int, rng) -> Row:
    from bench.rummies import CONTINENTAL, go_out_per_line

    seconds, fresh, out = go_out_per_line(lines, max(5, lines // 5), rng, CONTINENTAL)
    return Row(
        "continental-wilds-batch", [seconds], note=f"{1 / seconds:.1f} lines/s, {fresh} dealt hands, {out} go out"
    )


def distance_row(name: str, ruleset: str, size: int, count: int, rng, chosen: str | None = None) -> Row:
    from bench.distance import distance_seconds, rummikub_distance_seconds

    if ruleset == "rummikub":  # tiles drawn, on a table: positions of about 40 tiles, the rack 14
        figures = rummikub_distance_seconds(26, size, count, rng)
    else:
        figures = distance_seconds(ruleset, size, count, rng, chosen)
    seen = _distances_seen(figures["distances"])
    return Row(name, figures["seconds"], note=f"seconds a hand, in-process; distances seen ({seen})")


def _distances_seen(distances: dict) -> str:
    """The distances a row's hands had, as "distance: hands", lowest first (None last)."""
    return ", ".join(f"{d}: {n}" for d, n in sorted(distances.items(), key=lambda kv: (kv[0] is None, kv[0] or 0)))


# the stage games' distance rows: the option, each stage's hand size (dealt cards and a draw)
STAGES = {
    "contract-rummy": ("round", {r: 11 if r <= 4 else 13 for r in range(1, 8)}),
    "phase-10": ("phase", dict.fromkeys(range(1, 11), 11)),
}


def staged_distance_row(name: str, ruleset: str, count: int, rng, budget: float) -> Row:
    """``--distance`` of dealt hands of a game of stages (each hand at the next stage) or of
    Marriage (22 cards, a tiplu dealt), in-process, each within ``budget`` seconds."""
    from bench.distance import staged_distance_seconds

    if ruleset == "marriage":
        figures = staged_distance_seconds(ruleset, None, {0: 22}, count, rng, "tiplu", budget)
    else:
        option, sizes = STAGES[ruleset]
        figures = staged_distance_seconds(ruleset, option, sizes, count, rng, budget=budget)
    seen = _distances_seen(figures["distances"])
    note = f"seconds a hand, in-process, {budget:g} s budget; distances seen ({seen})"
    return Row(name, figures["seconds"], figures["undecided"], note=note)


def fesca_distance_row(name: str, question: str, size: int, count: int, rng, budget: float) -> Row:
    from bench.distance import fesca_seconds

    figures = fesca_seconds(question, size, count, rng, budget)
    seen = _distances_seen(figures["distances"])
    note = f"seconds a hand, in-process; distances seen ({seen}; None: undecided)"
    return Row(name, figures["seconds"], undecided=figures["undecided"], note=note)


def word_discards(count: int, rng) -> Row:
    from bench.word_rummy import discard_seconds

    figures = discard_seconds(count, rng)
    note = f"seconds a position, in-process; {figures['one_draw']}/{count} one draw from going out"
    return Row("word-discards", figures["seconds"], note=note)


GIN_LINES = 10_000  # the fewest fresh lines the gin-deadwood-batch row times


def gin_deadwood(lines: int, rng) -> Row:
    from bench.rummies import gin_deadwood_per_line

    lines = max(lines, GIN_LINES)  # fewer: the two processes' start-up differences blur the figure
    seconds, peer, differ = gin_deadwood_per_line(lines, max(200, lines // 5), rng)
    row = Row("gin-deadwood-batch", [seconds], peer=[peer] if peer is not None else [])
    row.note = f"{1 / seconds:.0f} lines/s (CPU, best of 3) over {lines} dealt hands" + (
        f"; OpenSpiel {1 / peer:.0f}/s, {differ} answers differ" if peer else "; open_spiel not installed"
    )
    return row


REPLAY_BAR = 1000  # hands a second on one core, on each of the two corpora (issue 48)


def replay_rate(rounds: int, games: int, base: str | None = None) -> Row:
    """melds replay's seconds per hand on one core — the CPU seconds of this one process, so that
    the other work on a shared machine does not count — on the real Tenhou games of tests/data
    (warm, best of ``rounds``), and on ``games`` riichienv self-play games (mjai logs) when the
    engine is installed; each rate against the bar; the peer, with ``--replay-base CHECKOUT``:
    that checkout's CPU seconds per hand on the same Tenhou logs."""
    import tempfile

    from bench.replay import TENHOU, measure, measure_checkout, selfplay_logs
    from solver.core.logs import log_files

    def verdict(rate: float) -> str:
        return f"{rate:.0f} hands/s ({'≥' if rate >= REPLAY_BAR else '<'} {REPLAY_BAR:,})"

    real = measure([str(p) for p in log_files([str(TENHOU)])], rounds, time.process_time)
    row = Row("replay-hands", [real.seconds / real.hands])
    row.note = (
        f"CPU, one core: {verdict(real.hands / real.seconds)} over {real.hands} real Tenhou hands ({real.agree} agree)"
    )
    if base:  # the peer: the previous version on the same logs (it reads fewer of them: its own hands counted)
        seconds, hands = measure_checkout(base, [str(TENHOU)], rounds)
        row.peer.append(seconds / hands)
        row.note += f"; {base}: {hands / seconds:.0f} hands/s over {hands}"
    try:
        with tempfile.TemporaryDirectory() as folder:
            played = measure(selfplay_logs(Path(folder), games), rounds, time.process_time)
    except ImportError:
        row.note += "; self-play: riichienv not installed"
        return row
    row.times.append(played.seconds / played.hands)
    row.note += f"; {verdict(played.hands / played.seconds)} over {played.hands} self-play hands ({played.agree} agree)"
    return row


def replay_jobs(games: int, runs: int, base: str | None = None) -> Row:
    """Whole ``melds replay --jobs 2`` processes against ``--jobs 1`` over the same folder — the
    real Tenhou games of tests/data and ``games`` self-play games — in pairs run back to back
    (bench.replay.paired_runs): wall seconds per hand, start-up included, the best of ``runs`` of
    each (the bar: two jobs ≥ 1.8× one); the note gives the ratio of every pair and their median,
    the CPU seconds of each job count (every process of a run: what two jobs spend beyond one),
    and with ``--replay-base CHECKOUT`` that checkout's pairs too, run in the same rounds."""
    import shutil
    import tempfile

    from bench.replay import TENHOU, paired_runs, selfplay_logs
    from solver.core.logs import log_files, replay_file

    checkouts = [ROOT, *([Path(base)] if base else [])]
    with tempfile.TemporaryDirectory() as folder:
        try:
            paths = selfplay_logs(Path(folder), games)
        except ImportError:
            return Row("replay-jobs", note="riichienv not installed")
        paths += [shutil.copy(real, folder) for real in log_files([str(TENHOU)])]
        hands = sum(len(r.hands) for p in paths for r in replay_file(p))
        pairs = paired_runs(folder, runs, checkouts)
    ours = pairs[ROOT]
    one, two = min(p.wall_one for p in ours), min(p.wall_two for p in ours)
    row = Row("replay-jobs", [two / hands], peer=[one / hands])
    row.note = (
        f"best of {runs}: {hands / one:.0f} hands/s one job, {hands / two:.0f} two ({one / two:.2f}×), {hands} hands"
    )
    for checkout in checkouts:
        row.note += f"; {'' if checkout == ROOT else f'{checkout}: '}{_pairs_note(pairs[checkout])}"
    return row


def _pairs_note(pairs: list[Pair]) -> str:
    """Every pair's ratio, their median, and the median CPU seconds of each job count."""
    ratios = ", ".join(f"{p.ratio:.2f}×" for p in pairs)
    cpu_one, cpu_two = statistics.median(p.cpu_one for p in pairs), statistics.median(p.cpu_two for p in pairs)
    return (
        f"pairs {ratios} (median {statistics.median(p.ratio for p in pairs):.2f}×), "
        f"CPU {cpu_one:.2f} s one job, {cpu_two:.2f} s two ({cpu_two / cpu_one - 1:+.1%})"
    )


def _timed(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, capture_output=True, cwd=ROOT)
    return time.perf_counter() - start


SCENARIOS: dict[str, Callable[[argparse.Namespace, random.Random], Row]] = {
    "fesca-solve-30": lambda a, r: fesca_solve("fesca-solve-30", 30, (0, 4), a.n, r, a.budget),
    "fesca-solve-45": lambda a, r: fesca_solve("fesca-solve-45", 45, (0, 4), a.n, r, a.budget),
    "fesca-wilds-30": lambda a, r: fesca_solve("fesca-wilds-30", 30, (10, 10), a.n, r, a.budget),
    "fesca-table-40+10": lambda a, r: fesca_table(1 if a.quick else 5, a.budget),
    "rummikub-80": lambda a, r: rummikub(a.n, r, a.budget),
    "mahjong-score": lambda a, r: mahjong(a.n * 200, r),
    "mahjong-batch": lambda a, r: mahjong(a.n * 200, r, a.n * 2000, 3 if a.quick else 5),
    "mahjong-shanten-batch": lambda a, r: shanten_batch(a.n * 2000, a.seed),
    "mahjong-discards": lambda a, r: discard_tables(a.n * 30, a.seed),
    "check-cold-start": lambda a, r: cold_start(max(5, a.n)),
    "fesca-batch-check": lambda a, r: batch_checks(a.n * 100, r),
    "budget-overrun": lambda a, r: budget_overrun(),
    "indian-rummy-batch": lambda a, r: rummy_batch("indian-rummy", a.n * 100, r),
    "okey-batch": lambda a, r: rummy_batch("okey", a.n * 100, r),
    "phase-10-batch": lambda a, r: rummy_batch("phase-10", a.n * 100, r),
    "continental-wilds-batch": lambda a, r: continental_wilds(a.n * 4, r),
    "rummy-distance-11": lambda a, r: distance_row("rummy-distance-11", "basic-rummy", 11, a.n * 10, r),
    "rummikub-distance": lambda a, r: distance_row("rummikub-distance", "rummikub", 14, a.n * 5, r),
    "indian-rummy-distance": lambda a, r: distance_row(
        "indian-rummy-distance", "indian-rummy", 14, a.n * 5, r, chosen="indicator"
    ),
    "contract-rummy-distance": lambda a, r: staged_distance_row(
        "contract-rummy-distance", "contract-rummy", a.n * 7, r, 20
    ),
    "phase-10-distance": lambda a, r: staged_distance_row("phase-10-distance", "phase-10", a.n * 5, r, 20),
    "marriage-distance": lambda a, r: staged_distance_row("marriage-distance", "marriage", a.n * 2, r, 20),
    "fesca-distance": lambda a, r: fesca_distance_row("fesca-distance", "distance", 13, a.n * 3, r, a.budget),
    "fesca-discards": lambda a, r: fesca_distance_row("fesca-discards", "discards", 7, max(2, a.n // 2), r, a.budget),
    "gin-deadwood-batch": lambda a, r: gin_deadwood(a.n * 1000, r),
    "word-discards": lambda a, r: word_discards(max(2, a.n // 2), r),
    "replay-hands": lambda a, r: replay_rate(1 if a.quick else 3, 4 if a.quick else 20, a.replay_base),
    "replay-jobs": lambda a, r: replay_jobs(40 if a.quick else 400, 1 if a.quick else 5, a.replay_base),
}


def _in_own_process(name: str, args: argparse.Namespace) -> list[str]:
    """One scenario's cells, measured in a process of its own: what one scenario leaves on the
    heap (the Fesca checkers' models) would tax the next one's collections — the mahjong row's
    melds side read 0.57–0.79 after the Fesca rows and 0.47 alone."""
    command = [
        sys.executable,
        "-m",
        "bench.run",
        "--row",
        name,
        "--seed",
        str(args.seed),
        "--budget",
        str(args.budget),
    ] + (["--quick"] if args.quick else [])
    if args.replay_base:
        command += ["--replay-base", args.replay_base]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stderr)
        return [name, "0", "—", "—", "—", "—", "—", f"failed (exit {done.returncode})"]
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer items per scenario (a smoke run)")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--budget", type=float, default=10.0, help="seconds for each solve")
    parser.add_argument("--only", nargs="*", choices=list(SCENARIOS), help="these scenarios only")
    parser.add_argument("--replay-base", metavar="CHECKOUT", help="replay-hands' peer: an earlier checkout of melds")
    parser.add_argument("--row", choices=list(SCENARIOS), help=argparse.SUPPRESS)  # one scenario, its cells as JSON
    args = parser.parse_args()
    args.n = 3 if args.quick else 10
    if args.row:
        print(json.dumps(SCENARIOS[args.row](args, random.Random(args.seed)).cells()))
        return
    header = ["scenario", "n", "median s", "worst s", "undecided", "peer median s", "melds/peer", "note"]
    rows = []
    for name in args.only or SCENARIOS:
        print(f"running {name} …", file=sys.stderr, flush=True)
        rows.append(_in_own_process(name, args))
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for line in [header, ["-" * w for w in widths], *rows]:
        print("  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)).rstrip())


if __name__ == "__main__":
    main()
