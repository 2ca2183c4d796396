"""melds solve -r rummikub --distance (the fewest tiles drawn before the rack can be played out)
against the brute force of tests/rummikub_brute.py, which imports nothing from solver/.

Each answer is bounded both ways: the target shown is re-checked (its tiles drawn are tiles left,
its table after the turn is every set legal and holds exactly the table and the rack with the draws,
the initial meld's 30 points when not melded), and no fewer draws let the rack go out (every
multiset of fewer tiles tried, to the brute force's depth). ``--discards`` has no answer (no
discard in Rummikub): exit 2 with the reason."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
import rummikub_brute as brute
from clirun import run

# racks near going out: one or two sets (of a narrow pool: two colours, low numbers, a joker) with
# tiles taken out and a stray tile put in, on a few tables
SETS = ["k1 k2 k3", "r4 r5 r6 r7", "k5 r5 b5", "r2 r3 J", "k6 k7 k8", "b3 k3 r3 J", "r6 r7 r8"]
STRAYS = [f"{c}{n}" for c in "kr" for n in range(1, 9)] + ["b4", "J"]
TABLES = [["k9 k10 k11"], ["b8 o8 r8"], ["o3 o4 o5 o6"], ["k9 k10 k11", "b8 o8 r8"], []]


def _lines(count: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    lines: list[dict] = []
    while len(lines) < count:
        rack = [t for s in rng.sample(SETS, rng.randint(1, 2)) for t in s.split()]
        for _ in range(rng.randint(0, 2)):
            rack.remove(rng.choice(rack))
        rack += rng.sample(STRAYS, rng.randint(0, 1))
        if max(Counter(rack).values()) <= 2:
            melded = rng.random() < 0.6
            lines.append({"hand": " ".join(rack), "has_melded": melded, "table": rng.choice(TABLES)})
    return lines


def _answers(lines: list[dict], *flags: str) -> list[dict]:
    text = "\n".join(json.dumps({**line, "table": [f"all: {s}" for s in line["table"]]}) for line in lines)
    result = run("solve", "-r", "rummikub", "--distance", *flags, "--batch", "-", input=text)
    out = [json.loads(t) for t in result.stdout.splitlines() if t.startswith("{")]
    assert len(out) == len(lines), result.output
    return out


def recheck_target(line: dict, answer: dict) -> None:
    """The target: tiles left drawn, as many as the distance, and a table after the turn of legal
    sets holding the table before, the rack and the draws (before the initial meld: the table
    untouched and the new sets worth 30 or more)."""
    hand, table = brute.parse(line["hand"]), line["table"]
    target = answer["target"]
    drawn = target["drawn"]
    assert len(drawn) == answer["distance"] and target["aside"] == [] and target["discard"] is None
    left = brute.left_of(hand + [t for s in table for t in brute.parse(s)] + brute.parse(line.get("visible", "")))
    assert not Counter(drawn) - left, (line, drawn)
    assert {d["card"]: d["left"] for d in target["draws"]} == {c: left[c] for c in drawn}
    assert sorted(target["hand"].split()) == sorted(hand + drawn)
    after = [" ".join(s) for s in target["table"]]
    assert brute.arrangement_ok(hand + drawn, table, hand + drawn, after), (line, target)
    if not line["has_melded"]:
        new = Counter(after)
        new.subtract(Counter(" ".join(brute.parse(s)) for s in table))
        assert not -new, "the table before the initial meld stays as it was"
        values = [brute.set_value(brute.parse(s)) for s in (+new).elements()]
        assert None not in values, "every set on the table is legal"
        assert sum(v for v in values if v is not None) >= 30
        assert target["initial_meld"]["value"] >= target["initial_meld"]["needed"] == 30


def check(lines: list[dict], depth: int) -> Counter:
    seen: Counter = Counter()
    for line, answer in zip(lines, _answers(lines), strict=True):
        found = answer["distance"]
        seen[found] += 1
        expected = brute.draw_distance(line["hand"], line["table"], line["has_melded"], depth=depth)
        if found is None or found > depth:
            assert expected is None, (line, found)
        else:
            assert found == expected, (line, found, expected)
        if found is not None:
            recheck_target(line, answer)
    return seen


def test_distance_against_brute_force() -> None:
    seen = check(_lines(5, seed=47), depth=1)
    assert len(seen) >= 2, seen


@pytest.mark.slow
def test_distance_against_brute_force_many() -> None:
    seen = check(_lines(60, seed=4747), depth=2)
    assert len(seen) >= 3, seen


def test_visible_tiles_are_not_drawn() -> None:
    """Both k3 copies seen: the run k1 k2 waits on a joker instead, one draw still."""
    line = {"hand": "k1 k2", "has_melded": True, "table": ["r5 r6 r7"], "visible": "k3 k3"}
    answer = _answers([line])[0]
    assert answer["distance"] == 1 == brute.draw_distance("k1 k2", ["r5 r6 r7"], True, visible="k3 k3")
    assert answer["target"]["drawn"] == ["J"] and answer["visible"] == "k3 k3"
    recheck_target(line, answer)


def test_discards_is_refused_naming_why() -> None:
    result = run("solve", "-r", "rummikub", "--hand", "k1 k2", "--discards", "--json")
    assert result.exit_code == 2
    assert "no discard" in json.loads(result.stdout)["error"]["message"]


def test_text_form_names_the_draws_and_the_table() -> None:
    table = ["--table", "all: r7 r8 r9", "--has-melded"]
    result = run("solve", "-r", "rummikub", "--hand", "r10 r11", *table, "--distance")
    assert result.exit_code == 0, result.output
    assert "distance 0" in result.output and "r7 r8 r9 r10 r11" in result.output


def test_batch_keeps_every_line_and_refuses_discards_on_its_own_line() -> None:
    lines = [
        {"hand": "r10 r11", "table": ["all: r7 r8 r9"], "has_melded": True, "distance": True},
        {"hand": "r10 r11", "discards": True},
        {"hand": "r5 o12 b1 b12 o5 o8 b7 k12 r7 k6 r9 o8 b6 k10", "table": ["all: k6 k7 k8 k9 k10"]}
        | {"has_melded": True, "distance": True, "max_seconds": 0.05},
    ]
    result = run("solve", "-r", "rummikub", "--batch", "-", input="\n".join(json.dumps(x) for x in lines))
    out = [json.loads(t) for t in result.stdout.splitlines()]
    assert [o["line"] for o in out] == [1, 2, 3]
    assert out[0]["distance"] == 0
    assert "no discard" in out[1]["error"]["message"]
    assert out[2]["distance"] is None and out[2]["undecided"] is True  # a 14-tile rack far out: past 0.05 s
