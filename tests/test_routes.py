"""The going-out route language: requirements that must all hold (counts of kinds, pure melds,
sizes, exactly / at least), routes and requirements chosen by option, a limit on the hand's value
(a knock) — against a brute-force oracle of the test game (tests/routes_oracle.py, no code of
melds), every answer's melds re-checked by it; the why of a hand that fails only a requirement;
and the rulesets that cannot be meant, refused with file and line."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
import routes_oracle as oracle
from clirun import run

from solver.core.errors import SchemaError
from solver.core.registry import load_game
from solver.core.ruleset import load_ruleset

RULESET = Path(__file__).parent / "data" / "routes" / "declare.yaml"
OPTION_SETS = [{}, {"pure-needed": False}, {"knock": True}, {"knock": True, "knock-limit": 4}, {"pairs": True}]


def meld_built(rng: random.Random, size: int = 11) -> list[str]:
    """A hand of ``size`` cards made mostly of melds (sequences, sets, pairs, jokers among them)."""
    deck = list(oracle.DECK)
    hand: list[str] = []
    while len(hand) < size - 2:
        shape = rng.choice(["sequence", "sequence", "set", "pair"])
        if shape == "sequence":
            suit, length = rng.choice(oracle.SUITS), rng.randint(3, 5)
            start = rng.randint(0, 13 - length)
            meld = [suit + r for r in oracle.RANKS[start : start + length]]
        else:
            rank = rng.choice(oracle.RANKS)
            meld = [s + rank for s in rng.sample(oracle.SUITS, 2 if shape == "pair" else rng.randint(3, 4))]
        if rng.random() < 0.3 and oracle.JOKER in deck:
            meld[rng.randrange(len(meld))] = oracle.JOKER
        if Counter(meld) - Counter(deck) or len(hand) + len(meld) > size:
            continue
        for card in meld:
            deck.remove(card)
        hand += meld
    while len(hand) < size:
        hand.append(deck.pop(rng.randrange(len(deck))))
    rng.shuffle(hand)
    return hand


def hands(seed: int, n: int) -> list[list[str]]:
    rng = random.Random(seed)
    return [meld_built(rng) if i % 4 else rng.sample(oracle.DECK, 11) for i in range(n)]


def answers_agree(hand: list[str], options: dict) -> None:
    """melds' answer for one hand equals the oracle's, and its way out is one the oracle allows."""
    game = load_game(load_ruleset(str(RULESET), options))
    data = game.solve({"hand": " ".join(hand)}).data
    routes = oracle.routes_open(hand, options)
    assert data["solvable"] == any(routes.values()), (hand, options, data.get("route"))
    melds = [tuple(c["card"] for c in m["cards"]) for m in data["melds"]]
    placed = Counter(card for meld in melds for card in meld) + Counter([data["discard"]])
    assert placed + Counter(data["kept"]) == Counter(hand) and data["discard"] is not None
    pairs = bool(options.get("pairs"))
    named = [oracle.meld_tag(meld, pairs) for meld in melds]
    assert None not in named, melds
    tags = sorted(tag for tag in named if tag is not None)
    kept = sum(oracle.points(c) for c in data["kept"])
    assert data["score"]["hand_points"] == kept
    if not data["solvable"]:
        assert kept == oracle.least_kept(hand, pairs)  # the best turn instead
        return
    route = data["route"]
    assert routes[route], (hand, route)
    if route == "declaration":
        assert not data["kept"] and oracle.declares(tuple(tags), options.get("pure-needed", True))
    elif route == "pairs":
        assert not data["kept"] and tags == ["pair", "pair", "pair", "set3"]
    else:
        assert kept == oracle.least_kept(hand) <= options.get("knock-limit", 10)
        assert not routes["declaration"]  # the first route that goes out answers


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_routes_against_the_oracle(options):
    for hand in hands(46, 8):
        answers_agree(hand, options)


@pytest.mark.slow
@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_routes_against_the_oracle_many(options):
    for hand in hands(4600, 400):
        answers_agree(hand, options)


def test_a_hand_that_fails_only_a_requirement_is_told_which():
    hand = "S2 S3 JK H5 H6 JK DK CK SK C9"  # two sequences, each with a joker: no pure one
    data = load_game(load_ruleset(str(RULESET))).solve({"hand": hand}).data
    assert data["solvable"] is False
    assert data["why"]["requirements"] == [
        {"route": "declaration", "requirement": "at least 1 pure meld of sequence", "source": None}
    ]
    text = run("solve", "-r", str(RULESET), "--hand", hand).output
    assert "why: going out by declaration needs: at least 1 pure meld of sequence" in text
    relaxed = load_game(load_ruleset(str(RULESET), {"pure-needed": False})).solve({"hand": hand}).data
    assert relaxed["solvable"] is True


def test_each_routes_failed_requirement_is_named():
    hand = "S2 S3 S4 H5 H6 H9 DK CK SK C9 D8"  # 28 points kept at best
    data = load_game(load_ruleset(str(RULESET), {"knock": True})).solve({"hand": hand}).data
    assert data["solvable"] is False and data["score"]["hand_points"] == 28
    assert {"route": "knock", "requirement": "the cards kept weigh at most 10 points", "source": None} in data["why"][
        "requirements"
    ]


def test_counts_of_sizes_exactly():
    game = load_game(load_ruleset(str(RULESET), {"pairs": True}))
    four_sets = game.solve({"hand": "S2 H2 S5 D5 C9 H9 D9 CK SK HK C3"}).data
    assert four_sets["solvable"] is False
    named = {r["requirement"] for r in four_sets["why"]["requirements"]}
    assert named == {"exactly 3 melds of pair", "exactly 1 meld of set of 3 cards"}


BASE = RULESET.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("replace", "by", "message"),
    [
        (
            "      - {kinds: [sequence], at_least: 2}",
            "      - {kinds: [pair], at_least: 2}",
            "meld kind 'pair' is disabled under these options",
        ),
        (
            "      - {kinds: [sequence], at_least: 2}",
            "      - {kinds: [sequence], at_least: 3, at_most: 2}",
            "at_least 3 is more than at_most 2",
        ),
        (
            "      - {kinds: [sequence], at_least: 2}",
            "      - {kinds: [sequence], exactly: 2, at_least: 1}",
            "exactly says it all",
        ),
        (
            "      - {kinds: [set], size: 3, exactly: 1}",
            "      - {kinds: [sequence], size: 3, exactly: 1}",
            "the route allows none of these kinds",
        ),
        (
            "      - {kinds: [set], size: 3, exactly: 1}",
            "      - {kinds: [set], size: 5, exactly: 1}",
            "no kind counted here has a meld of this size",
        ),
        (
            "      - {kinds: [sequence], at_least: 2}",
            "      - {kinds: [sequence], at_least: 2}\n      - {kinds: [sequence], at_least: 1, size: 14}",
            "no kind counted here has a meld of this size",
        ),
        (
            "      - {kinds: [sequence], pure: true, at_least: 1, enabled_if: {pure-needed: true}}",
            "      - {kinds: [set], pure: true, at_least: 1}",
            "no kind counted here has a meld without a wild",
        ),
        (
            "    kinds: [sequence, set]\n",
            "    kinds: [sequence, set, stray]\n",
            "unknown meld kind 'stray'",
        ),
    ],
)
def test_routes_that_cannot_be_meant_are_refused_with_file_and_line(tmp_path, replace, by, message):
    assert replace in BASE
    text = BASE.replace(replace, by, 1)
    if "pure: true" in by:  # sets that always hold a joker
        joker_sets = "    roles: [natural, joker]\n    wilds: {min: 1}\n  - id: pair"
        text = text.replace("    roles: [natural, joker]\n  - id: pair", joker_sets)
    path = tmp_path / "declare.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SchemaError) as caught:
        load_ruleset(str(path), {"pairs": True} if "set], size" in replace else {})
    shown = str(caught.value)
    assert message in shown and f"{path}:" in shown
    line = int(shown.split(f"{path}:")[1].split(":")[0])
    assert text.splitlines()[line - 1] in by.splitlines()  # the line of the entry that cannot be meant


def test_a_disabled_route_may_name_a_disabled_kind():
    """The pairs route names the pair kind, which only its own option enables: no error by default."""
    assert load_ruleset(str(RULESET)).kinds
    assert [r.id for r in load_game(load_ruleset(str(RULESET))).rules.going_out] == ["declaration"]
    assert [r.id for r in load_game(load_ruleset(str(RULESET), {"pairs": True})).rules.going_out] == ["pairs"]
