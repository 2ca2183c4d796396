"""melds solve --distance and --discards against the brute force of tests/distance_oracle.py.

Each hand's distance is bounded both ways: the target the engine shows is re-checked (its swaps
taken from the hand and the copies left, the new hand going out by the game's plain oracle), and
no swap of fewer cards makes the hand go out (the brute force, to its depth). A discard table is
compared row by row with the oracle's (the distance left, the draws that lower it).
"""

from __future__ import annotations

import json
import random
from collections import Counter

import distance_oracle as oracle
import pytest
from clirun import ROOT, run

# a ruleset, the batch line's keys that choose its chosen card or phase, a pool to deal hands from
# (a narrow pool makes hands near going out) and the hand size
DEALS = {
    "basic-rummy": (
        lambda rng: {},
        [s + r for s in "SH" for r in ("2", "3", "4", "5", "6", "7", "8")],
        8,
    ),
    "indian-rummy": (
        lambda rng: {"indicator": rng.choice(["D9", "S4", "HK"])},
        [s + r for s in "SHD" for r in ("3", "4", "5", "6", "7", "8")] * 2 + ["JK"],
        14,
    ),
    "okey": (
        lambda rng: {"indicator": rng.choice(["k8", "y3", "b12"])},
        [c + str(n) for c in "ry" for n in range(1, 9)] * 2 + ["FJ"],
        15,
    ),
    "contract-rummy": (
        lambda rng: {"options": {"round": rng.choice([1, 2, 3])}},
        [s + r for s in "SH" for r in ("2", "3", "4", "5", "6", "7", "8")] * 2 + ["JK"],
        11,
    ),
    "phase-10": (
        lambda rng: {"options": {"phase": rng.choice([1, 2, 4])}},
        [c + str(n) for c in "rb" for n in range(3, 9)] * 2 + ["W", "S"],
        11,
    ),
    "conquian": (  # its one way out melds every card, discarding none (going_out: discard: none)
        lambda rng: {},
        [s + r for s in "SHD" for r in ("A", "2", "3", "4", "5", "6", "7", "J")],
        7,
    ),
}
RULESETS = {"conquian": str(ROOT / "tests" / "data" / "rulesets" / "conquian.yaml")}  # by path, not bundled


def _oracle_game(ruleset: str, line: dict) -> oracle.Game:
    options = line.get("options") or {}
    phase = options.get("phase", options.get("round"))
    return oracle.game(ruleset, line.get("indicator") or line.get("tiplu"), phase)


def _lines(ruleset: str, hands: int, seed: int) -> list[dict]:
    chosen, pool, size = DEALS[ruleset]
    rng = random.Random(seed)
    return [{"hand": " ".join(rng.sample(pool, size)), "distance": True, **chosen(rng)} for _ in range(hands)]


def _answers(ruleset: str, lines: list[dict]) -> list[dict]:
    result = run(
        "solve",
        "-r",
        RULESETS.get(ruleset, ruleset),
        "--batch",
        "-",
        input="\n".join(json.dumps(line) for line in lines),
    )
    out = [json.loads(text) for text in result.stdout.splitlines() if text.startswith("{")]
    assert len(out) == len(lines) and all("error" not in a for a in out), result.output
    return out


def recheck_target(g: oracle.Game, hand: list[str], answer: dict) -> None:
    """The target shown: swaps of the hand's cards for cards left, as many as the distance, and a
    new hand that goes out (the game's plain oracle); its melds and discard are that hand."""
    target = answer["target"]
    left = oracle.left_of(g, hand)
    assert len(target["aside"]) == len(target["drawn"]) == answer["distance"]
    assert not Counter(target["aside"]) - Counter(hand)
    assert not Counter(target["drawn"]) - left
    new = oracle.swapped(hand, tuple(target["aside"]), tuple(target["drawn"]))
    assert sorted(target["hand"].split()) == new
    assert g.goes_out(new), (hand, target)
    placed = Counter(c["card"] for meld in target["melds"] for c in meld["cards"])
    placed.update([target["discard"]] if target["discard"] else [])
    assert not placed - Counter(new)  # every meld and the discard are cards of the new hand


def check_distances(ruleset: str, hands: int, seed: int, depth: int) -> Counter[int | None]:
    """The engine's distance of each dealt hand, bounded both ways; the distances seen."""
    lines = _lines(ruleset, hands, seed)
    seen: Counter[int | None] = Counter()
    for line, answer in zip(lines, _answers(ruleset, lines), strict=True):
        seen[answer["distance"]] += 1
        check_against_oracle(_oracle_game(ruleset, line), line["hand"].split(), answer, depth, line)
    return seen


def check_against_oracle(g: oracle.Game, hand: list[str], answer: dict, depth: int, context: object) -> None:
    """One distance bounded both ways: its target re-checked (from above), and the brute force to
    ``depth`` swaps finding no way out with fewer, and this one when it lies within ``depth``."""
    left = oracle.left_of(g, hand)
    found = answer["distance"]
    if found is None:
        assert oracle.distance(g, hand, left, depth) is None, context
        return
    recheck_target(g, hand, answer)
    assert oracle.distance(g, hand, left, min(found - 1, depth)) is None, context
    if found <= depth:
        assert oracle.distance(g, hand, left, depth) == found, context


# the default run: the games whose brute force is quick (the others' oracles take seconds a hand)
@pytest.mark.parametrize(
    ("ruleset", "hands"), [("basic-rummy", 4), ("phase-10", 2), ("contract-rummy", 2), ("conquian", 6)]
)
def test_distance_against_brute_force(ruleset: str, hands: int) -> None:
    seen = check_distances(ruleset, hands=hands, seed=47, depth=2 if ruleset == "conquian" else 1)
    assert sum(seen.values()) == hands


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", sorted(DEALS))
def test_distance_against_brute_force_many(ruleset: str) -> None:
    hands = 40 if ruleset in ("basic-rummy", "phase-10") else 12
    seen = check_distances(ruleset, hands=hands, seed=4747, depth=2 if ruleset == "basic-rummy" else 1)
    assert len(seen) >= 2, seen  # the deals reach more than one distance


def check_discards(hands: list[str], visible: str, depth: int, ruleset: str = "basic-rummy") -> None:
    lines = [{"hand": hand, "discards": True, "visible": visible} for hand in hands]
    g = oracle.game(ruleset)
    for text, answer in zip(hands, _answers(ruleset, lines), strict=True):
        hand = text.split()
        left = oracle.left_of(g, hand + visible.split())
        assert [r["discard"] for r in answer["discards"]] and len(answer["discards"]) == len(set(hand))
        for row in answer["discards"]:
            expected = oracle.discard_row(g, hand, left, row["discard"], depth)
            if expected is None:
                assert row["distance"] is None or row["distance"] > depth, (hand, row)
                continue
            assert row["distance"] == expected[0], (hand, row)
            assert {d["card"] for d in row["draws"]} == set(expected[1]), (hand, row)
            assert all(d["left"] == left[d["card"]] for d in row["draws"])
            assert row["draws_total"] == sum(left[c] for c in expected[1])
        keys = [(r["distance"] if r["distance"] is not None else 99, -r["draws_total"]) for r in answer["discards"]]
        assert keys == sorted(keys)  # best first


def test_discards_against_brute_force() -> None:
    check_discards(["S4 S5 S6 H7 D7 C9 CJ"], "C10 S7", depth=2)


def test_discards_of_a_way_out_without_a_discard_against_brute_force() -> None:
    """Conquian's way out melds every card: a row is the swaps once that card is let go, not a
    final discard (the hands of seven go out as sets and sequences of seven cards)."""
    check_discards(["SA S2 S3 H4 D4 C4 SJ", "S5 S6 S7 H7 D7 SQ HK"], "CQ", depth=2, ruleset="conquian")


@pytest.mark.slow
def test_discards_against_brute_force_many() -> None:
    rng = random.Random(4)
    pool = [s + r for s in "SHD" for r in ("3", "4", "5", "6", "7", "8")]
    hands = ["S9 S10 SJ H4 D4 C2 C7 C8"] + [" ".join(rng.sample(pool, 7)) for _ in range(12)]
    check_discards(hands, "D9", depth=2)
