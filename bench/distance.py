"""The rummy distance rows of bench/run.py: ``melds solve --distance`` of dealt hands in-process, the
game loaded and warmed on other hands first, seconds per hand."""

from __future__ import annotations

import random
import time

from solver.core.registry import load_game
from solver.core.ruleset import load_ruleset, with_options

WARM = 3  # hands answered before the clock starts (the checker's first models, the imports)


def distance_seconds(ruleset: str, size: int, count: int, rng: random.Random, chosen: str | None = None) -> dict:
    """Seconds per ``--distance`` of ``count`` random hands of ``size`` cards dealt from the full deck
    (with ``chosen``: each hand's chosen card, an indicator, dealt too), and the distances seen."""
    game = load_game(load_ruleset(ruleset))
    return _timed(game, _dealt(game, size, WARM + count, rng, chosen))


def staged_distance_seconds(
    ruleset: str,
    option: str | None,
    sizes: dict[int, int],
    count: int,
    rng: random.Random,
    chosen: str | None = None,
    budget: float | None = None,
) -> dict:
    """The same for a game of stages (Contract Rummy's rounds, Phase 10's phases: the option
    ``option``; None: one stage, the ruleset's own): each hand at a stage dealt in turn, of that
    stage's size (``sizes``), each answer
    within ``budget`` seconds (an undecided hand counted)."""
    base = load_ruleset(ruleset)
    stages = list(sizes)
    games = {stage: load_game(with_options(base, {option: stage}) if option else base) for stage in stages}
    extra = {"max_seconds": budget} if budget else {}
    pairs = []
    for i in range(WARM + count):
        game = games[stages[i % len(stages)]]
        pairs += [(game, {**r, **extra}) for r in _dealt(game, sizes[stages[i % len(stages)]], 1, rng, chosen)]
    return _timed_each(pairs)


def _dealt(game, size: int, count: int, rng: random.Random, chosen: str | None) -> list[dict]:
    """``count`` distance requests of ``size`` cards dealt from the full deck (with ``chosen``: each
    hand's chosen card dealt too)."""
    deck = [game.notation.format(f) for f in game.ruleset.deck.faces for _ in range(game.ruleset.deck.copies[f])]
    requests = []
    for _ in range(count):
        cards = rng.sample(deck, size + (1 if chosen else 0))
        requests.append({"hand": " ".join(cards[:size]), "distance": True, **({chosen: cards[size]} if chosen else {})})
    return requests


def fesca_seconds(question: str, size: int, count: int, rng: random.Random, budget: float) -> dict:
    """Seconds per Fesca ``--distance`` or ``--discards`` (``question``) of ``count`` hands of ``size``
    cards dealt from the 78 (wilds as they come), in 陽場 and 陰場 by turns, each under ``budget``
    seconds; the distances seen and the answers left undecided."""
    game = load_game(load_ruleset("fesca"))
    deck = [game.notation.format(f) for f in game.ruleset.deck.faces for _ in range(game.ruleset.deck.copies[f])]
    phases = ("yang", "yin")
    requests = [
        {"hand": " ".join(rng.sample(deck, size)), question: True, "phase": phases[i % 2], "max_seconds": budget}
        for i in range(WARM + count)
    ]
    return _timed(game, requests)


def _timed(game, requests: list[dict]) -> dict:
    return _timed_each([(game, request) for request in requests])


def _timed_each(pairs: list[tuple]) -> dict:
    """Each request's seconds (the first WARM untimed), the distances seen and the answers left
    undecided (out of budget)."""
    seconds: list[float] = []
    distances: dict[int | None, int] = {}
    undecided = 0
    for i, (game, request) in enumerate(pairs):
        start = time.perf_counter()
        result = game.solve(request)
        if i >= WARM:
            seconds.append(time.perf_counter() - start)
            distances[result.data["distance"]] = distances.get(result.data["distance"], 0) + 1
            undecided += bool(result.data.get("undecided"))
    return {"seconds": seconds, "distances": distances, "undecided": undecided}


def rummikub_distance_seconds(table_tiles: int, rack: int, count: int, rng: random.Random) -> dict:
    """Seconds per Rummikub ``--distance`` (the fewest tiles drawn) of ``count`` reachable positions:
    legal sets of about ``table_tiles`` tiles on the table and a rack of ``rack`` tiles dealt from the
    same box (tests/test_rummikub_brute.py's deal), the player melded, and the distances seen."""
    from test_rummikub_brute import deal

    requests = []
    for _ in range(WARM + count):
        hand, table = deal(rng, table_tiles, rack)
        requests.append({"hand": " ".join(hand), "table": [f"all: {s}" for s in table], "has_melded": True})
    return _timed(load_game(load_ruleset("rummikub")), [{**r, "distance": True} for r in requests])
