"""Indian Rummy, Okey and Phase 10 — three rummies written as rulesets alone — against the
independent brute-force oracles of tests/rummies_oracle.py, on dealt hands with wilds and on hands
built from melds: every verdict equal, and every way out melds gives re-checked meld by meld (the
cards are the hand's, each meld legal as the kind it names, the declaration's counts met).

The default run deals a few hundred hands; ``pytest -m slow`` deals thousands.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
import rummies_oracle as oracle
from clirun import run

DEFAULT, SLOW = 150, 2000

# -- dealing ----------------------------------------------------------------------------------

IR_DECK = [s + r for s in oracle.IR_SUITS for r in oracle.IR_RANKS] * 2 + ["JK", "JK"]
OK_DECK = [s + str(n) for s in oracle.OK_SUITS for n in range(1, 14)] * 2 + ["FJ", "FJ"]
P10_DECK = [c + str(n) for c in "rbgy" for n in range(1, 13)] * 2 + ["W"] * 8 + ["S"] * 4


def _deal(deck: list[str], n: int, rng: random.Random) -> tuple[list[str], list[str]]:
    cards = list(deck)
    rng.shuffle(cards)
    return cards[:n], cards[n:]


def _built(deck: list[str], n: int, rng: random.Random, melds: list[list[str]]) -> tuple[list[str], list[str]]:
    """A hand holding these melds (each card taken from the deck), filled up from the deck."""
    left = list(deck)
    hand = []
    for meld in melds:
        if all(Counter(left)[c] >= k for c, k in Counter(meld).items()):
            for c in meld:
                left.remove(c)
            hand += meld
    rng.shuffle(left)
    while len(hand) < n:
        hand.append(left.pop())
    return hand[:n], left


def _ir_run(rng: random.Random, length: int) -> list[str]:
    suit = rng.choice(oracle.IR_SUITS)
    start = rng.randrange(0, len(oracle.IR_ORDER) - length + 1)
    return [suit + r for r in oracle.IR_ORDER[start : start + length]]


def _ir_set(rng: random.Random, size: int) -> list[str]:
    rank = rng.choice(oracle.IR_RANKS)
    return [s + rank for s in rng.sample(oracle.IR_SUITS, size)]


def ir_hands(count: int, seed: int) -> list[tuple[list[str], str]]:
    """Hands of fourteen with a cut joker: half dealt, half built from sequences and sets with a
    card or two swapped for jokers or random cards."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        if i % 3 == 0:
            hand, left = _deal(IR_DECK, 14, rng)
        else:
            melds = [_ir_run(rng, rng.choice((3, 4))), _ir_run(rng, 3) if i % 3 == 1 else _ir_set(rng, 3)]
            melds += [_ir_set(rng, 3) if rng.random() < 0.6 else _ir_run(rng, 3) for _ in range(2)]
            hand, left = _built(IR_DECK, 14, rng, melds)
            for _ in range(rng.randrange(3)):
                hand[rng.randrange(13)] = left.pop(rng.randrange(len(left)))
        out.append((hand, rng.choice(left)))
    return out


def ok_hands(count: int, seed: int) -> list[tuple[list[str], str]]:
    rng = random.Random(seed)
    out = []
    for i in range(count):
        if i % 3 == 0:
            hand, left = _deal(OK_DECK, 15, rng)
        elif i % 3 == 1:
            suit = rng.choice(oracle.OK_SUITS)
            start = rng.randrange(0, 12)
            run = [suit + r for r in oracle.OK_ORDER[start : start + 3]]
            sets = [[s + str(rng.randrange(1, 14)) for s in rng.sample(oracle.OK_SUITS, 3)] for _ in range(3)]
            hand, left = _built(OK_DECK, 15, rng, [run] + [[c] for c in sets[0]] + sets[1:])
            hand[rng.randrange(15)] = left.pop(rng.randrange(len(left)))
        else:
            pairs = [[c, c] for c in rng.sample(OK_DECK[:104], 7)]
            hand, left = _built(OK_DECK, 15, rng, pairs)
            for _ in range(rng.randrange(2)):
                hand[rng.randrange(14)] = left.pop(rng.randrange(len(left)))
        out.append((hand, rng.choice([c for c in left if c != "FJ"])))
    return out


def p10_hands(count: int, seed: int) -> list[tuple[list[str], int]]:
    rng = random.Random(seed)
    out = []
    for i in range(count):
        phase = i % 10 + 1
        if i % 20 < 10:
            hand, _ = _deal(P10_DECK, 11, rng)
        else:
            parts = []
            for shape, size in oracle.P10_PHASES[phase]:
                if shape == "set":
                    n = rng.randrange(1, 13)
                    parts.append([rng.choice("rbgy") + str(n) for _ in range(size)])
                elif shape == "run":
                    a = rng.randrange(1, 14 - size)
                    parts.append([rng.choice("rbgy") + str(m) for m in range(a, a + size)])
                else:
                    c = rng.choice("rbgy")
                    parts.append([c + str(rng.randrange(1, 13)) for _ in range(size)])
            hand, left = _built(P10_DECK, 11, rng, parts)
            for _ in range(rng.randrange(3)):
                hand[rng.randrange(10)] = left.pop(rng.randrange(len(left)))
        out.append((hand, phase))
    return out


# -- asking melds ------------------------------------------------------------------------------


def batch(tmp_path, ruleset: str, lines: list[dict], *options: str) -> list[dict]:
    path = tmp_path / "lines.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    result = run("solve", "-r", ruleset, *options, "--batch", str(path))
    answers = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert len(answers) == len(lines)
    return answers


def _played(answer: dict) -> Counter:
    cards = [c["card"] for m in answer["melds"] for c in m["cards"]]
    return Counter(cards + [answer["discard"]] + answer.get("kept", []))


def _melds(answer: dict):
    for meld in answer["melds"]:
        yield [c["card"] for c in meld["cards"]], [c["as"] for c in meld["cards"]], meld["kind"]


# -- the three games ----------------------------------------------------------------------------


def check_indian(tmp_path, count: int, seed: int) -> None:
    hands = ir_hands(count, seed)
    answers = batch(tmp_path, "indian-rummy", [{"hand": " ".join(h), "indicator": cut} for h, cut in hands])
    wrong = []
    for (hand, cut), answer in zip(hands, answers, strict=True):
        expected = oracle.ir_declares(hand, cut)
        if answer["solvable"] != expected:
            wrong.append((" ".join(hand), cut, answer["solvable"], expected))
            continue
        if expected:
            assert _played(answer) == Counter(hand) and not answer["kept"]
            sequences, pure = 0, 0
            for meld in answer["melds"]:
                cards, shown = [c["card"] for c in meld["cards"]], [c["as"] for c in meld["cards"]]
                wild = any(c["wild"] for c in meld["cards"])
                kind = meld["kind"] if meld["kind"] == "set" else "impure-sequence" if wild else "pure-sequence"
                assert oracle.ir_meld_problem(cards, shown, kind, cut) is None, (hand, cut, cards, shown, kind)
                sequences += meld["kind"] == "sequence"
                pure += kind == "pure-sequence"
            assert sequences >= 2 and pure >= 1, (hand, answer["melds"])
    assert wrong == []


def check_okey(tmp_path, count: int, seed: int, pairs: bool = True) -> None:
    hands = ok_hands(count, seed)
    options = () if pairs else ("-o", "pairs=false")
    answers = batch(tmp_path, "okey", [{"hand": " ".join(h), "indicator": i} for h, i in hands], *options)
    wrong = []
    for (hand, indicator), answer in zip(hands, answers, strict=True):
        expected = oracle.ok_goes_out(hand, indicator, pairs)
        if answer["solvable"] != expected:
            wrong.append((" ".join(hand), indicator, answer["solvable"], expected))
            continue
        if expected:
            assert _played(answer) == Counter(hand) and not answer["kept"]
            kinds = []
            for cards, shown, kind in _melds(answer):
                assert oracle.ok_meld_problem(cards, shown, kind, indicator) is None, (hand, indicator, cards, shown)
                kinds.append(kind)
            assert all(k == "pair" for k in kinds) == (answer["route"] == "seven-pairs")
            assert answer["route"] != "seven-pairs" or len(kinds) == 7
    assert wrong == []


def check_phase_10(tmp_path, count: int, seed: int, phases=range(1, 11)) -> None:
    hands = [(h, p) for h, p in p10_hands(count, seed) if p in phases]
    wrong = []
    for phase in phases:
        mine = [h for h, p in hands if p == phase]
        answers = batch(tmp_path, "phase-10", [{"hand": " ".join(h)} for h in mine], "-o", f"phase={phase}")
        for hand, answer in zip(mine, answers, strict=True):
            expected = oracle.p10_lays_down(hand, phase)
            if answer["solvable"] != expected:
                wrong.append((" ".join(hand), phase, answer["solvable"], expected))
                continue
            if expected:
                assert _played(answer) == Counter(hand)
                laid: Counter[tuple[str, int]] = Counter()
                for cards, shown, kind in _melds(answer):
                    assert oracle.p10_meld_problem(cards, shown, kind) is None, (hand, phase, cards, shown, kind)
                    laid[(kind, len(cards))] += 1
                assert laid == Counter(oracle.P10_PHASES[phase]), (hand, phase, laid)
    assert wrong == []


def test_indian_rummy_declarations(tmp_path):
    check_indian(tmp_path, DEFAULT // 3, 1)  # its brute force takes ~50 ms a hand: the slow run deals thousands


def test_okey_going_out(tmp_path):
    check_okey(tmp_path, DEFAULT, 2)


def test_okey_without_pairs(tmp_path):
    check_okey(tmp_path, DEFAULT // 3, 3, pairs=False)


def test_phase_10_every_phase(tmp_path):
    check_phase_10(tmp_path, 2 * DEFAULT, 4)


@pytest.mark.slow
def test_indian_rummy_declarations_thousands(tmp_path):
    check_indian(tmp_path, SLOW, 11)


@pytest.mark.slow
def test_okey_going_out_thousands(tmp_path):
    check_okey(tmp_path, SLOW, 12)


@pytest.mark.slow
def test_phase_10_thousands(tmp_path):
    check_phase_10(tmp_path, 2 * SLOW, 14)
