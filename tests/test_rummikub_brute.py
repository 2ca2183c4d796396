"""melds' Rummikub turns against a brute force that knows nothing of melds (tests/rummikub_brute.py):
the bundled puzzles' expected answers, and random small positions, best turns, initial melds and
going out; every arrangement melds returns is re-checked tile by tile."""

from __future__ import annotations

import json
import random

import pytest
import rummikub_brute as brute
import yaml
from clirun import ROOT, run
from profiles import examples

PUZZLES = sorted((ROOT / "puzzles" / "rummikub").glob("rk*.yaml"))
DECK = [f"{c}{n}" for c in brute.COLOURS for n in range(1, 14)] * 2 + ["J", "J"]


def test_there_are_enough_puzzles():
    assert len(PUZZLES) >= 20


@pytest.mark.parametrize("path", PUZZLES, ids=lambda p: p.stem)
def test_puzzle_expectations_are_the_brute_force_answers_and_melds_agrees(path):
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    table = [t["cards"] for t in data.get("table", [])]
    melded = data["turn"]["has_melded"]
    placed, value = brute.best_turn(data["hand"], table, melded)
    assert data["expect"] == {
        "solvable": placed == len(data["hand"].split()),
        "placed": placed,
        "score": {"value_placed": value},
    }
    result = run("solve", str(path), "--json")
    answer = json.loads(result.stdout)
    assert answer["matches"] is True, answer["mismatches"]
    assert brute.arrangement_ok(data["hand"], table, answer["placed"], [" ".join(s) for s in answer["table"]])
    if not melded:  # the initial meld leaves the table as it was
        assert all(sorted(s.split()) in [sorted(x) for x in answer["table"]] for s in table)


def deal(rng: random.Random, table_tiles: int, rack: int) -> tuple[list[str], list[str]]:
    """A reachable position: legal sets dealt out of one box for the table, then a rack."""
    box = DECK.copy()
    rng.shuffle(box)
    table: list[str] = []
    while sum(len(s.split()) for s in table) < table_tiles:
        if rng.random() < 0.5:
            colour, length = rng.choice(brute.COLOURS), rng.randint(3, 5)
            start = rng.randint(1, 14 - length)
            tiles = [f"{colour}{n}" for n in range(start, start + length)]
        else:
            number = rng.randint(1, 13)
            tiles = [f"{c}{number}" for c in rng.sample(brute.COLOURS, rng.choice([3, 4]))]
        if rng.random() < 0.2:
            tiles[rng.randrange(len(tiles))] = "J"
        if all(box.count(t) >= tiles.count(t) for t in tiles) and brute.is_set(tiles):
            for t in tiles:
                box.remove(t)
            table.append(" ".join(tiles))
    near = [t for t in box if t == "J" or any(t[0] == s[0] or t[1:] in s.split() for s in " ".join(table).split())]
    hand = rng.sample(near if len(near) >= rack and rng.random() < 0.7 else box, rack)
    return hand, table


def melds_turn(hand: list[str], table: list[str], melded: bool, best: bool = True) -> dict:
    args = ["solve", "-r", "rummikub", "--hand", " ".join(hand), "--json"]
    for s in table:
        args += ["--table", f"all: {s}"]
    args += ["--has-melded"] * melded + ["--best"] * best
    return json.loads(run(*args).stdout)


def check_position(seed: int) -> None:
    rng = random.Random(seed)
    melded = seed % 4 != 0
    hand, table = deal(rng, rng.randint(3, 10) if melded else rng.randint(0, 6), rng.randint(3, 7))
    placed, value = brute.best_turn(hand, table, melded)
    answer = melds_turn(hand, table, melded)
    assert (len(answer["placed"]), answer["score"]["value_placed"]) == (placed, value), (hand, table, melded)
    assert brute.arrangement_ok(hand, table, answer["placed"], [" ".join(s) for s in answer["table"]])
    out = melds_turn(hand, table, melded, best=False)
    assert out["solvable"] == (placed == len(hand)), (hand, table, melded)


@pytest.mark.parametrize("seed", range(examples(40)))
def test_random_positions_equal_the_brute_force(seed):
    check_position(seed)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(1000, 1000 + examples(400)))
def test_random_positions_equal_the_brute_force_at_length(seed):
    check_position(seed)
