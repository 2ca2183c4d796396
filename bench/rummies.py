"""Indian Rummy's go-out through ``melds solve --batch``: dealt fourteen-card hands (two decks and
two printed jokers) with a cut joker drawn from the rest, JSON Lines in, one answer out per line.

The figure is seconds per line with start-up and warm-up excluded: one process answers the warm-up
lines alone, another the warm-up lines and then the fresh ones, and the difference is divided by
the fresh lines (the models compiled while warming are those a long batch keeps).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUITS, RANKS = "SHDC", ["A", *map(str, range(2, 11)), "J", "Q", "K"]
DECK = [s + r for s in SUITS for r in RANKS] * 2 + ["JK", "JK"]


def deals(count: int, rng: random.Random) -> list[dict]:
    """Fourteen cards dealt, and a cut joker drawn from the cards left."""
    out = []
    for _ in range(count):
        cards = list(DECK)
        rng.shuffle(cards)
        out.append({"hand": " ".join(cards[:14]), "indicator": cards[14]})
    return out


def _batch(lines: list[dict]) -> tuple[float, list[dict]]:
    text = "".join(json.dumps(line) + "\n" for line in lines)
    command = [sys.executable, "-c", "import sys; sys.argv[0] = 'melds'; from cli import run; run()"]
    start = time.perf_counter()
    done = subprocess.run(
        [*command, "solve", "-r", "indian-rummy", "--batch", "-"], input=text.encode(), capture_output=True, cwd=ROOT
    )
    seconds = time.perf_counter() - start
    answers = [json.loads(line) for line in done.stdout.decode().splitlines() if line.startswith("{")]
    return seconds, answers


def go_out_per_line(fresh: int, warm: int, rng: random.Random) -> tuple[float, int, int]:
    """(seconds per fresh line, fresh lines, those that go out)."""
    warm_lines, fresh_lines = deals(warm, rng), deals(fresh, rng)
    alone, _ = _batch(warm_lines)
    both, answers = _batch(warm_lines + fresh_lines)
    out = sum(bool(a.get("solvable")) for a in answers[warm:])
    return (both - alone) / fresh, fresh, out
