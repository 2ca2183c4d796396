"""Contract Rummy — a ruleset alone — against the independent brute-force oracle of
tests/contract_brute.py, on dealt hands and on hands built from the contract's melds with wilds,
round by round: every verdict equal, and every contract melds lays down re-checked meld by meld (the
cards are the hand's, each meld legal as the kind it names, the contract's counts met).

The default run deals a few dozen hands a round; ``pytest -m slow`` deals hundreds.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import contract_brute as oracle
import pytest
import yaml
from clirun import ROOT, run

DEFAULT, SLOW = 24, 300
DECK = [s + r for s in oracle.SUITS for r in oracle.RANKS] * 2 + ["JK"] * 4


def _meld(rng: random.Random, shape: str) -> list[str]:
    if shape == "set":
        rank = rng.choice(oracle.RANKS[2:])
        return [rng.choice(oracle.SUITS) + rank for _ in range(rng.choice((3, 3, 4)))]
    size = rng.choice((4, 4, 5))
    start = rng.randrange(0, len(oracle.ORDER) - size + 1)
    suit = rng.choice(oracle.SUITS)
    return [suit + r for r in oracle.ORDER[start : start + size]]


def hands(round_: int, count: int, seed: int) -> list[list[str]]:
    """Hands of eleven (rounds 1-4) or thirteen (5-7) cards: a third dealt, the rest built from the
    contract's melds with a card or two swapped for a wild or a random card."""
    rng = random.Random(seed * 10 + round_)
    size = 11 if round_ <= 4 else 13
    out = []
    for i in range(count):
        left = list(DECK)
        rng.shuffle(left)
        hand: list[str] = []
        if i % 3:
            sets, runs = oracle.CONTRACTS[round_]
            for shape in ["set"] * sets + ["run"] * runs:
                meld = _meld(rng, shape)
                if all(Counter(left)[c] >= k for c, k in Counter(meld).items()):
                    for c in meld:
                        left.remove(c)
                    hand += meld
        while len(hand) < size:
            hand.append(left.pop())
        hand = hand[:size]
        for _ in range(rng.randrange(3) if i % 3 else 0):
            swap = rng.choice(["JK", "S2", "H2", "D2", "C2", left[-1]])
            if swap in left:
                left.remove(swap)
                hand[rng.randrange(size)] = swap
        rng.shuffle(hand)
        out.append(hand)
    return out


def batch(tmp_path, lines: list[dict], round_: int) -> list[dict]:
    path = tmp_path / f"round-{round_}.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    result = run("solve", "-r", "contract-rummy", "-o", f"round={round_}", "--batch", str(path))
    answers = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert len(answers) == len(lines)
    return answers


def check_round(tmp_path, round_: int, count: int, seed: int) -> None:
    dealt = hands(round_, count, seed)
    answers = batch(tmp_path, [{"hand": " ".join(h)} for h in dealt], round_)
    wrong = []
    laid_down = 0
    for hand, answer in zip(dealt, answers, strict=True):
        expected = oracle.lays_contract(hand, round_)
        if answer["solvable"] != expected:
            wrong.append((" ".join(hand), round_, answer["solvable"], expected))
            continue
        if not expected:
            continue
        laid_down += 1
        played = [c["card"] for m in answer["melds"] for c in m["cards"]] + [answer["discard"]] + answer["kept"]
        assert Counter(played) == Counter(hand), (hand, answer)
        assert round_ != 7 or not answer["kept"], (hand, answer)
        kinds: Counter = Counter()
        for meld in answer["melds"]:
            cards, shown = [c["card"] for c in meld["cards"]], [c["as"] for c in meld["cards"]]
            assert oracle.meld_problem(cards, shown, meld["kind"]) is None, (hand, cards, shown, meld["kind"])
            kinds[meld["kind"]] += 1
        sets, runs = oracle.CONTRACTS[round_]
        assert (kinds["set"], kinds["run"]) == (sets, runs), (hand, round_, kinds)
        assert answer["route"] == f"round-{round_}"
    assert wrong == []
    assert laid_down > 0  # the built hands reach the yes side too


@pytest.mark.parametrize("round_", range(1, 8))
def test_every_round_against_brute_force(tmp_path, round_):
    check_round(tmp_path, round_, DEFAULT, 1)


@pytest.mark.slow
@pytest.mark.parametrize("round_", range(1, 8))
def test_every_round_hundreds(tmp_path, round_):
    check_round(tmp_path, round_, SLOW, 2)


def cards(text: str) -> list[str]:
    return text.split(" ")


def test_the_oracle_knows_the_statement():
    """The oracle's own reading of the statement's sentences, on cards worked by hand."""
    assert oracle.is_run(cards("SJ SQ SK SA")) and not oracle.is_run(cards("SK SA S2 S3"))  # 3.3
    assert oracle.is_set(cards("S7 S7 H7"))  # 3.1
    assert not oracle.is_set(cards("S7 JK H2")) and oracle.is_set(cards("S2 H2 JK"))  # 2.2, 2.3
    assert oracle.is_run(cards("SA S2 S3 JK")) and not oracle.is_run(cards("S5 JK H2 S8 JK"))
    assert oracle.lays_contract(cards("S5 H5 D5 C9 C10 CJ D2 CK HQ S3 H7"), 2)
    assert not oracle.lays_contract(cards("S5 H5 D5 C9 S9 H9 D2 CK HQ S3 H7"), 2)
    assert not oracle.lays_contract(cards("S5 S6 S7 S8 C9 C10 CJ D2 H4 H5 H6 H7"), 7)  # 12 cards, 12 melded


def test_a_meld_with_more_wilds_than_naturals_is_refused_with_the_rule():
    result = run("check", "-r", "contract-rummy", "--json", "S5", "JK", "D2")
    verdict = json.loads(result.stdout)
    assert result.exit_code == 1 and verdict["legal"] is False
    assert any("No meld may hold more wild cards than natural cards." in json.dumps(r) for r in verdict["reasons"])


def test_the_answer_names_the_contract_laid_down():
    result = run("solve", "-r", "contract-rummy", "-o", "round=2", "--hand", "S5 H5 D5 C9 C10 CJ D2 CK HQ S3 H7")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == "yes: the hand can go out by a set and a run (round-2)"


# The go-out puzzles; the distance ones (dNN-*) are recomputed by tests/test_distance_puzzles.py.
GO_OUT_PUZZLES = [
    path
    for path in sorted((ROOT / "puzzles" / "contract-rummy").glob("*.yaml"))
    if yaml.safe_load(path.read_text(encoding="utf-8"))["question"] == "go-out"
]


@pytest.mark.parametrize("path", GO_OUT_PUZZLES, ids=lambda p: p.stem)
def test_puzzle_expectations_agree_with_brute_force(path):
    puzzle = yaml.safe_load(path.read_text(encoding="utf-8"))
    hand = puzzle["hand"].split()
    assert oracle.lays_contract(hand, puzzle["options"]["round"]) == puzzle["expect"]["solvable"]
