"""Rummies through ``melds solve --batch``, JSON Lines in, one answer out per line: going out in the
rummies whose wilds come from a chosen card or from the deck — Indian Rummy (dealt fourteen cards of
two decks and two printed jokers, a cut joker drawn from the rest), Okey (fifteen tiles of 106, an
indicator drawn from the rest) and Phase 10 (eleven cards with wilds and skips, each line a phase
from 1 to 10, ``"options"``) —, and Continental's hands of many wilds (its runs melded only when
going out: most hands cannot); and Gin Rummy's minimum deadwood on dealt hands of ten and eleven
cards (eleven: after the best discard), against OpenSpiel's ``GinRummyUtils.min_deadwood`` on the
same hands in-process.

The figure is seconds per line with start-up and warm-up excluded: one process answers the warm-up
lines alone, another the warm-up lines and then the fresh ones, and the difference is divided by
the fresh lines (the models compiled while warming are those a long batch keeps). Gin Rummy's
figure takes the processes' CPU time, the least of three runs each (:func:`gin_deadwood_per_line`).
"""

from __future__ import annotations

import json
import random
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SUITS, RANKS = "SHDC", ["A", *map(str, range(2, 11)), "J", "Q", "K"]
DECK = [s + r for s in SUITS for r in RANKS] * 2 + ["JK", "JK"]
OKEY_TILES = [c + str(n) for c in "rybk" for n in range(1, 14)] * 2 + ["FJ", "FJ"]
PHASE_10_CARDS = [c + str(n) for c in "rbgy" for n in range(1, 13)] * 2 + ["W"] * 8 + ["S"] * 4


def _with_indicator(deck: list[str], size: int, never: str = "") -> Callable[[random.Random], dict]:
    """``size`` cards dealt, and the chosen card drawn from the cards left (drawn again while it is
    ``never``: Okey's false jokers are not indicators)."""

    def deal(rng: random.Random) -> dict:
        cards = list(deck)
        rng.shuffle(cards)
        return {"hand": " ".join(cards[:size]), "indicator": next(c for c in cards[size:] if c != never)}

    return deal


def _phase_10(rng: random.Random) -> dict:
    cards = list(PHASE_10_CARDS)
    rng.shuffle(cards)
    return {"hand": " ".join(cards[:11]), "options": {"phase": rng.randrange(1, 11)}}


CONTINENTAL = str(ROOT / "tests" / "data" / "rulesets" / "continental.yaml")  # runs melded only going out
WILD_CARDS = [s + "2" for s in SUITS] * 2 + ["JK", "JK"]


def _continental(rng: random.Random) -> dict:
    """Sixteen cards of Continental's two decks and jokers, four to six of them wild: most such
    hands cannot go out (the turn that shows its best turn instead)."""
    wilds = rng.sample(WILD_CARDS, rng.randint(4, 6))
    naturals = rng.sample([c for c in DECK if c not in WILD_CARDS], 16 - len(wilds))
    return {"hand": " ".join(naturals + wilds)}


DEALS: dict[str, Callable[[random.Random], dict]] = {
    CONTINENTAL: _continental,
    "indian-rummy": _with_indicator(DECK, 14),
    "okey": _with_indicator(OKEY_TILES, 15, never="FJ"),
    "phase-10": _phase_10,
}


def deals(count: int, rng: random.Random, ruleset: str = "indian-rummy") -> list[dict]:
    """``count`` batch lines of dealt hands of the ruleset."""
    return [DEALS[ruleset](rng) for _ in range(count)]


def _batch(ruleset: str, lines: list[dict]) -> tuple[float, list[dict]]:
    """(wall seconds, answers) of one ``melds solve --batch`` process."""
    seconds, _, answers = _batch_timed(ruleset, lines)
    return seconds, answers


def _batch_timed(ruleset: str, lines: list[dict]) -> tuple[float, float, list[dict]]:
    """(wall seconds, CPU seconds, answers) of one ``melds solve --batch`` process: the CPU time is
    the process's own (user and system), which other work on the machine changes far less than
    the wall time."""
    text = "".join(json.dumps(line) + "\n" for line in lines)
    command = [sys.executable, "-c", "import sys; sys.argv[0] = 'melds'; from cli import run; run()"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [*command, "solve", "-r", ruleset, "--batch", "-"], input=text.encode(), capture_output=True, cwd=ROOT
    )
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    answers = [json.loads(line) for line in done.stdout.decode().splitlines() if line.startswith("{")]
    return seconds, cpu, answers


def go_out_per_line(fresh: int, warm: int, rng: random.Random, ruleset: str = "indian-rummy") -> tuple[float, int, int]:
    """(seconds per fresh line, fresh lines, those that go out)."""
    warm_lines, fresh_lines = deals(warm, rng, ruleset), deals(fresh, rng, ruleset)
    alone, _ = _batch(ruleset, warm_lines)
    both, answers = _batch(ruleset, warm_lines + fresh_lines)
    out = sum(bool(a.get("solvable")) for a in answers[warm:])
    return (both - alone) / fresh, fresh, out


GIN_DECK = [s + r for s in SUITS for r in RANKS]


def gin_deals(count: int, rng: random.Random) -> list[dict]:
    """Ten or eleven cards (alternately) dealt from one deck."""
    return [{"hand": " ".join(rng.sample(GIN_DECK, 10 + i % 2))} for i in range(count)]


def gin_deadwood_per_line(
    fresh: int, warm: int, rng: random.Random, repeats: int = 3
) -> tuple[float, float | None, int]:
    """(melds' CPU seconds per fresh line through ``melds solve -r gin-rummy --batch``, OpenSpiel's
    seconds for the same answer in-process — None when open_spiel is missing —, lines whose answers
    differ from OpenSpiel's).

    melds' figure is the batch process's own CPU time (user and system, not the wall: the machine's
    other work changes it far less), start-up and warm-up excluded: the least of ``repeats`` runs
    of a process answering the warm-up lines alone, taken from the least of ``repeats`` runs of a
    process answering the warm-up lines and then the fresh ones, divided by the fresh lines."""
    warm_lines, fresh_lines = gin_deals(warm, rng), gin_deals(fresh, rng)
    alone = min(_batch_timed("gin-rummy", warm_lines)[1] for _ in range(repeats))
    both = float("inf")
    answers: list[dict] = []
    for _ in range(repeats):
        _, cpu, answers = _batch_timed("gin-rummy", warm_lines + fresh_lines)
        both = min(both, cpu)
    seconds = (both - alone) / fresh
    try:
        import gin_oracle  # tests/: OpenSpiel's utilities
    except ImportError:
        return seconds, None, 0
    hands = [line["hand"].split() for line in fresh_lines]
    start = time.perf_counter()
    least = [gin_oracle.best_discards(h)[0] if len(h) == 11 else gin_oracle.min_deadwood(h) for h in hands]
    peer = (time.perf_counter() - start) / fresh
    differ = sum(a.get("deadwood") != d for a, d in zip(answers[warm:], least, strict=True))
    return seconds, peer, differ


def warm_cpu_per_line(ruleset: str, count: int, seed: int = 7) -> float:
    """CPU seconds per line in-process, warm: ``count`` dealt lines answered, then ``count`` fresh
    ones timed (a profile's or a loaded machine's figure: CPU, not wall)."""
    from solver.core.registry import load_game
    from solver.core.ruleset import load_ruleset

    rng = random.Random(seed)
    games: dict[tuple, Any] = {}

    def answer(lines: list[dict]) -> None:
        for line in lines:
            request = dict(line)
            options = request.pop("options", None) or {}
            key = tuple(sorted(options.items()))
            if key not in games:
                games[key] = load_game(load_ruleset(ruleset, options))
            games[key].solve(request)

    answer(deals(count, rng, ruleset))
    fresh = deals(count, rng, ruleset)
    start = time.process_time()
    answer(fresh)
    return (time.process_time() - start) / count
