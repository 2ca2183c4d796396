"""Canasta and Carioca, written from docs/ruleset-format.md alone by a third newcomer
(tests/data/rulesets/): the hand-worked queries first, then both against the independent brute force
of tests/setrummy_brute.py on dealt and meld-built hands — every verdict equal, and every meld melds
shows re-checked by the brute force's own reading. Then what the newcomer found the language could
not say, now said (``wilds: {apart}``, ``going_out_only``, ``size: {min}``, ``deal.draws: pile``) or
refused with file and line, and a best turn along a route that fails the route's requirements.

The default run deals a few hands a game; ``pytest -m slow`` deals hundreds.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
import setrummy_brute as oracle
from clirun import ROOT, batch, run

RULESETS = ROOT / "tests" / "data" / "rulesets"
CANASTA = str(RULESETS / "canasta.yaml")
CARIOCA = str(RULESETS / "carioca.yaml")
DECK = [s + r for s in oracle.SUITS for r in oracle.RANKS] * 2 + ["JK"] * 4


# ---- hand-worked queries

CANASTA_MELDS = [
    # (cards, kind or None): canasta.md 3 to 7
    ("S5 H5 D5", "meld"),
    ("S5 H5 JK", "meld"),
    ("S5 JK S2", None),  # one natural (rule 5)
    ("S5 H5 JK S2 C2", "meld"),  # two naturals, three wilds
    ("S5 H5 JK S2 C2 D2", None),  # four wilds
    ("S3 C3 S3", "black-threes"),
    ("S3 C3 JK", None),  # black threes take no wild
    ("H3 D3 H3", None),  # red threes are never melded
    ("S4 S5 S6", None),  # no sequences
    ("SK SK HK DK CK JK S2", "meld"),  # a canasta
]

CANASTA_TURNS = [
    # (hand, has melded, best, goes out): canasta.md 8, 9, 11
    ("S5 H5 D5 C5 S5 JK S2 S9 H9 D9 C4", True, False, True),  # a canasta of fives, the nines, C4 away
    ("SA HA DA SK HK DK S7 H7 D7 C4", True, False, False),  # every card melded, but no canasta
    ("SA HA DA SK HK DK S7 H7 D7 C4", True, True, False),  # nor as a best turn (it said "goes out")
    ("S5 H5 D5 C5 S5 JK S2 S9 H9 D9 S3 C3 S3 C4", True, False, True),  # black threes going out
    ("S9 H9 D9 S3 C3 S3 C4", True, True, False),  # black threes kept: no way out, so none melded
    ("S4 H4 D4 C4 S4 D4 C4 S9 H9 D9 C5", False, False, True),  # a first meld of 65 ≥ 50
    ("S5 H5 D5 C5 S5 JK S2 S9 H9 D9 C4 H6 D6 S6 SJ HJ DJ", True, False, True),  # the pile taken: 17 cards
]


def test_canasta_worked(tmp_path):
    checks = batch(tmp_path, "check", CANASTA, [{"cards": cards} for cards, _ in CANASTA_MELDS])
    for (cards, kind), answer in zip(CANASTA_MELDS, checks, strict=True):
        assert (answer["kind"] if answer["legal"] else None) == kind, cards
    assert checks[5]["going_out_only"] is True and "going_out_only" not in checks[0]
    lines = [
        {"hand": h, "turn": {"has_melded": m}, "question": "best" if b else "go-out"} for h, m, b, _ in CANASTA_TURNS
    ]
    answers = batch(tmp_path, "solve", CANASTA, lines)
    for (hand, _, _, out), answer in zip(CANASTA_TURNS, answers, strict=True):
        assert answer["solvable"] is out, hand
    assert [r["requirement"] for r in answers[1]["why"]["requirements"]] == ["at least 1 meld of 7 to 11 cards"]
    assert not any(m["kind"] == "black-threes" for m in answers[4]["melds"])
    assert "first_meld" not in answers[1]["why"]  # melding first changes nothing: no canasta either way


def test_canasta_first_meld_counts_a_wild_at_its_own_value(tmp_path):
    """A wild two counts 20 (its class's entry comes first), not the five it stands for."""
    hands = ["S5 H5 S2 C9", "S5 H5 JK C9", "S5 H5 S2 JK C9"]
    answers = batch(tmp_path, "solve", CANASTA, [{"hand": h, "question": "best"} for h in hands])
    assert [len(a["melds"]) for a in answers] == [0, 1, 1]  # 30 < 50; 60; 90


CARIOCA_MELDS = [
    # (cards, kind or None): carioca.md 3 to 6
    ("S5 H5 S5", "trio"),
    ("S5 JK JK", None),  # two jokers in a trío
    ("H4 H5 H6 H7", "escala"),
    ("H5 H6 H7", None),  # an escala has four cards
    ("H4 JK H6 JK", "escala"),
    ("H4 JK JK H7", None),  # two jokers side by side
    ("H3 JK JK H6 H7", None),
    ("HJ HQ HK HA", "escala"),
    ("HQ HK HA H2", None),  # round the corner
]

CARIOCA_TURNS = [
    # (hand, round, goes out): carioca.md 7 and 8
    ("S5 H5 D5 S9 H9 C9 S2 H7 DK CQ C4 SA D8", 1, True),
    ("S5 H5 D5 H6 H7 H8 H9 H7 DK CQ C4 SA D8", 1, False),  # one trío only
    ("H4 JK H6 JK S5 S6 S7 S8 D2 C9 CK D5 DJ", 3, True),
    ("S5 H5 D5 S9 H9 C9 SK HK DK C4 H4 D4 D8", 7, True),  # four tríos, D8 away
    ("S5 H5 D5 S9 H9 C9 SK HK DK CK C4 HA DA", 7, False),  # three tríos: the aces are two
]
CARIOCA_TURNS_MORE = [  # a second or more each: under -m slow
    ("S5 H5 D5 S9 H9 C9 S2 H7 DK CQ C4 SA D8", 2, False),
    ("S5 H5 D5 H6 H7 H8 H9 H7 DK CQ C4 SA D8", 2, True),
    ("H4 JK JK H7 S5 S6 S7 S8 D2 C9 CK D5 DJ", 3, False),  # the jokers only side by side
    ("S5 H5 D5 S9 H9 C9 SK HK JK CQ C4 SA D8", 4, True),
]


def test_carioca_melds_worked(tmp_path):
    checks = batch(tmp_path, "check", CARIOCA, [{"cards": cards} for cards, _ in CARIOCA_MELDS])
    for (cards, kind), answer in zip(CARIOCA_MELDS, checks, strict=True):
        assert (answer["kind"] if answer["legal"] else None) == kind, cards
    assert "side by side" in checks[5]["reasons"][0]["message"]


@pytest.mark.parametrize(
    "turns", [CARIOCA_TURNS, pytest.param(CARIOCA_TURNS_MORE, marks=pytest.mark.slow)], ids=["few", "more"]
)
def test_carioca_contracts_worked(tmp_path, turns):
    lines = [{"hand": h, "options": {"round": r}} for h, r, _ in turns]
    for (hand, r, out), answer in zip(turns, batch(tmp_path, "solve", CARIOCA, lines), strict=True):
        assert answer["solvable"] is out, (hand, r)
        assert oracle.carioca_lays_down(hand.split(), r) is out, (hand, r)


# ---- against the brute force


def _meld(rng: random.Random, jokers: bool) -> list[str]:
    """A set or a run of one suit, a card of it perhaps a joker or a two."""
    if rng.random() < 0.5:
        r = rng.choice(oracle.RANKS[3:] + ["A"])
        meld = [rng.choice(oracle.SUITS) + r for _ in range(rng.choice((3, 3, 4, 5, 7)))]
    else:
        size, s = rng.choice((4, 4, 5)), rng.choice(oracle.SUITS)
        start = rng.randrange(0, len(oracle.ESCALA_ORDER) - size + 1)
        meld = [s + r for r in oracle.ESCALA_ORDER[start : start + size]]
    if jokers and rng.random() < 0.6:
        meld[rng.randrange(len(meld))] = rng.choice(("JK", "S2", "H2"))
    return meld


def hands(seed: int, count: int, size: int) -> list[list[str]]:
    """Dealt hands (one in three) and hands built from melds, filled up from the deck."""
    rng = random.Random(seed)
    return [_hand(rng, size, built=i % 3 != 0) for i in range(count)]


def _hand(rng: random.Random, size: int, built: bool) -> list[str]:
    stock = list(DECK)
    rng.shuffle(stock)
    hand: list[str] = []
    for meld in (_meld(rng, True) for _ in range(size if built else 0)):
        if len(hand) >= size - 2 or Counter(meld) - Counter(stock):
            break  # full, or a meld the stock no longer holds
        hand += meld
        for card in meld:
            stock.remove(card)
    return hand[:size] + stock[: size - len(hand[:size])]


def check_canasta(tmp_path, count: int, seed: int) -> None:
    rng = random.Random(seed)
    dealt = [(h, rng.random() < 0.7) for h in hands(seed, count, 10)]
    lines = [{"hand": " ".join(h), "turn": {"has_melded": m}} for h, m in dealt]
    for (hand, melded), answer in zip(dealt, batch(tmp_path, "solve", CANASTA, lines), strict=True):
        assert answer["solvable"] is oracle.canasta_goes_out(hand, melded), (hand, melded)
        made = [[c["card"] for c in m["cards"]] for m in answer["melds"]]
        assert all(oracle.canasta_meld(m) == k["kind"] for m, k in zip(made, answer["melds"], strict=True)), made
        used = Counter(c for m in made for c in m) + Counter([answer["discard"]] if answer["discard"] else [])
        assert not used - Counter(hand), hand
        if answer["solvable"]:
            assert used == Counter(hand) and any(len(m) >= 7 for m in made), (hand, made)


def check_carioca(tmp_path, count: int, seed: int) -> None:
    rng = random.Random(seed)
    dealt = [(h, rng.randint(1, 8)) for h in hands(seed, count, 13)]
    lines = [{"hand": " ".join(h), "options": {"round": r}} for h, r in dealt]
    for (hand, r), answer in zip(dealt, batch(tmp_path, "solve", CARIOCA, lines), strict=True):
        assert answer["solvable"] is oracle.carioca_lays_down(hand, r), (hand, r)
        if answer["solvable"]:
            made = [tuple(c["card"] for c in m["cards"]) for m in answer["melds"]]
            trios = sum(oracle.carioca_trio(m) for m in made)
            assert all(oracle.carioca_trio(m) or oracle.carioca_escala(m) for m in made), made
            assert (trios, len(made) - trios) == oracle.CONTRACTS[r], (hand, r, made)


@pytest.mark.parametrize(
    "check,count,seed",
    [
        (check_canasta, 4, 1),
        (check_carioca, 2, 2),
        pytest.param(check_canasta, 400, 11, marks=pytest.mark.slow),
        pytest.param(check_carioca, 400, 12, marks=pytest.mark.slow),
    ],
    ids=["canasta", "carioca", "canasta-many", "carioca-many"],
)
def test_against_brute_force(tmp_path, check, count, seed):
    check(tmp_path, count, seed)


# ---- what the language could not say, said now or refused


def test_a_best_turn_that_fails_the_routes_requirements_does_not_go_out():
    """Indian Rummy's declaration needs two sequences: a best turn placing every card with one
    sequence is no way out (it said "goes out by declaration", exit 0)."""
    hand = "H2 H3 H4 D5 C5 S5 DK CK SK HQ DQ CQ SQ S7"
    answer = run("solve", "-r", "indian-rummy", "--indicator", "D9", "--best", "--hand", hand, "--json")
    assert answer.exit_code == 1 and json.loads(answer.stdout)["solvable"] is False


def refusal(tmp_path, base: str, body: str) -> str:
    """What ``melds check`` says of a ruleset that extends ``base`` with ``body`` (exit 2)."""
    path = tmp_path / "bad.yaml"
    path.write_text(f"format: 1\nextends: {base}\nid: bad\nname: bad\n{body}", encoding="utf-8")
    result = run("check", "-r", str(path), "S5", "H5", "D5")
    assert result.exit_code == 2, result.output
    return result.output


@pytest.mark.parametrize(
    "body,key,message",
    [
        ("wilds: {apart: true}", "wilds", "only a sequence has neighbouring places"),
        ("going_out_only: maybe", "going_out_only", "boolean"),
    ],
)
def test_what_cannot_be_meant_is_refused_with_file_and_line(tmp_path, body, key, message):
    trio = (
        "  - {id: trio, name: trío, shape: group, distinct: false, size: {min: 3, max: 9}, roles: [natural, joker],\n"
    )
    output = refusal(tmp_path, CARIOCA, f"melds:\n{trio}     {body}}}\n")
    assert f"bad.yaml:7: melds[0].{key}" in output and message in output


def test_a_text_cut_at_a_comma_inside_braces_is_named_so(tmp_path):
    """``{description: The round, which sets it.}``: YAML reads a key 'which sets it.'; the error says why."""
    body = "options:\n  round: {type: integer, default: 1, description: The round, which sets the contract.}\n"
    output = refusal(tmp_path, CARIOCA, body)
    assert "bad.yaml:6: options.round" in output and "a comma ends the value before it" in output


def test_canasta_round_counts_its_canastas_and_going_out():
    """canasta.md 13: A's cards 205, a mixed canasta 300, a natural one 500, going out 100; B 15 − 75."""
    result = run(
        "score", "-r", CANASTA, "--round", str(ROOT / "tests" / "data" / "rounds" / "canasta-bonuses.yaml"), "--json"
    )
    assert result.exit_code == 0, result.output
    [system] = json.loads(result.stdout)["systems"]
    assert system["payments"] == {"A": 1105, "B": -60}
    bonuses = {b["for"]: b["points"] for b in system["details"]["A"]["bonuses"]}
    assert bonuses == {
        "melds of 7 or more cards with no wild": 500,
        "melds of 7 or more cards with a wild": 300,
        "going out": 100,
    }
    assert system["details"]["B"]["bonuses"] == []


def test_a_bonus_says_what_it_counts(tmp_path):
    body = "round_scoring:\n  - {id: x, name: x, method: each-player, terms: [{add: 500}]}\n"
    output = refusal(tmp_path, CANASTA, body)
    assert "bad.yaml:6: round_scoring[0].terms[0]" in output and "per_meld" in output and "winner" in output
