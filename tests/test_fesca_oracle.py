"""Fesca's go-out verdict (``melds solve -r fesca``) against the independent oracle of
tests/fesca_oracle.py, on dealt hands of 五行 cards in 陽場 and 陰場 (the oracle's subset: no wild
cards, no table, a normal turn). Every hand melds says goes out is re-checked: its melds are the
oracle's sets, runs and chains, and with the discard they are the hand. Under -m slow, ``--distance``
too, where the oracle is exact: 0 when the hand goes out, 1 when it does not and one swap for a 五行
card makes it go out (a wild drawn may do what no 五行 card does, so beyond 1 it bounds from above)."""

from __future__ import annotations

import json
import random
from collections import Counter

import distance_oracle
import fesca_oracle
import pytest
from clirun import run

SUITS = fesca_oracle.SUITS
DECK = [s + str(r) for s in SUITS for r in range(1, 13)]


def _meld(rng: random.Random, phase: str) -> list[str]:
    """A random set, run or chain (in either phase's cycle: the other phase's are near misses)."""
    rank = rng.randint(1, 10)
    kind = rng.choice(["set", "run", "chain"])
    if kind == "set":
        return [s + str(rank) for s in rng.sample(SUITS, rng.choice([3, 4]))]
    size = rng.choice([3, 4])
    if kind == "run":
        suit = rng.choice(SUITS)
        return [suit + str(r) for r in range(rank, min(rank + size, 13))]
    cycle = fesca_oracle.CYCLES[rng.choice(["yang", "yin"])]
    step, at = rng.choice([1, -1]), rng.randrange(5)
    return [cycle[(at + step * i) % 5] + str(rank + i) for i in range(size) if rank + i <= 12]


def _deals(hands: int, seed: int) -> list[dict]:
    """Hands of two or three random melds and a card, half of them with one card swapped for another."""
    rng = random.Random(seed)
    lines = []
    while len(lines) < hands:
        phase = rng.choice(["yang", "yin"])
        cards = [c for _ in range(rng.choice([2, 3])) for c in _meld(rng, phase)] + [rng.choice(DECK)]
        if rng.random() < 0.5:
            cards[rng.randrange(len(cards))] = rng.choice(DECK)
        if len(set(cards)) == len(cards):  # one copy of each card
            lines.append({"hand": " ".join(cards), "phase": phase})
    return lines


def check_verdicts(hands: int, seed: int) -> Counter[bool]:
    """melds' verdict on each dealt hand is the oracle's; the verdicts seen."""
    lines = _deals(hands, seed)
    result = run("solve", "-r", "fesca", "--batch", "-", input="\n".join(json.dumps(line) for line in lines))
    answers = [json.loads(text) for text in result.stdout.splitlines() if text.startswith("{")]
    assert len(answers) == len(lines), result.output
    seen: Counter[bool] = Counter()
    for line, answer in zip(lines, answers, strict=True):
        hand = line["hand"].split()
        expected = fesca_oracle.goes_out(hand, line["phase"])
        assert answer["solvable"] is expected, (line, answer)
        seen[expected] += 1
        if expected:
            placed = [c["card"] for meld in answer["melds"] for c in meld["cards"]] + [answer["discard"]]
            assert Counter(placed) == Counter(hand), (line, answer)
            for meld in answer["melds"]:
                assert fesca_oracle.meld_problem([c["card"] for c in meld["cards"]], line["phase"]) is None, meld
    return seen


def test_go_out_against_the_oracle() -> None:
    seen = check_verdicts(hands=8, seed=47)
    assert seen[True] and seen[False]


@pytest.mark.slow
def test_go_out_against_the_oracle_many() -> None:
    seen = check_verdicts(hands=2000, seed=4747)
    assert seen[True] >= 100 and seen[False] >= 100


def test_the_oracle_reads_the_document_examples() -> None:
    """Cases the document states: 12 and 1 do not join; a 相生 chain in 陽場 only; five at most."""
    assert fesca_oracle.meld_problem(["木3", "木4", "木5"], "yang") is None  # 木の3連順
    assert fesca_oracle.meld_problem(["木12", "木1", "木2"], "yang") is not None
    assert fesca_oracle.meld_problem(["木1", "火2", "土3"], "yang") is None  # 相生昇順
    assert fesca_oracle.meld_problem(["土1", "火2", "木3"], "yang") is None  # 相生降順
    assert fesca_oracle.meld_problem(["木1", "火2", "土3"], "yin") is not None
    assert fesca_oracle.meld_problem(["水1", "火2", "金3", "木4", "土5"], "yin") is None  # 相克昇順
    assert fesca_oracle.meld_problem(["金1", "水2", "木3", "火4", "土5", "金6"], "yang") is not None
    assert fesca_oracle.goes_out(["木1", "火2", "土3", "金4", "水5", "土9", "金9", "水9"], "yang")


@pytest.mark.slow
def test_distance_against_the_oracle_many() -> None:
    lines = [{**line, "distance": True} for line in _deals(60, 474747)]
    result = run("solve", "-r", "fesca", "--batch", "-", input="\n".join(json.dumps(line) for line in lines))
    answers = [json.loads(text) for text in result.stdout.splitlines() if text.startswith("{")]
    assert len(answers) == len(lines), result.output
    seen: Counter[int] = Counter()
    for line, answer in zip(lines, answers, strict=True):
        g = distance_oracle.game("fesca", line["phase"])
        hand = line["hand"].split()
        natural = distance_oracle.distance(g, hand, distance_oracle.left_of(g, hand), 1)
        seen[answer["distance"]] += 1
        assert (answer["distance"] == 0) is (natural == 0), (line, answer)
        assert natural != 1 or answer["distance"] == 1, (line, answer)
        drawn = answer["target"]["drawn"] if answer["distance"] is not None else []
        if answer["distance"] and all(c in g.deck for c in drawn):  # a target of 五行 cards: the oracle's
            assert g.goes_out(answer["target"]["hand"].split()), (line, answer)
    assert seen[0] and seen[1]
