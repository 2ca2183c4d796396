"""The rearranging turn is data: a ruleset with ``table: {rearrange: free}`` and ``initial_meld:``
and no Python of its own (tests/data/arrange/stones.yaml: three colours, ranks A and 2-7 with
values, a wild stone, a first meld of 12 from the hand) is solved, judged and refused through the
command line, every answer against the brute force of tests/arrange_brute.py; with a wild limit on
runs (stones-one-wild.yaml) the candidate model answers, against the same brute force.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from arrange_brute import Game
from clirun import ROOT, run
from profiles import examples

from solver.core.registry import load_game
from solver.core.ruleset import load_ruleset

HERE = ROOT / "tests" / "data" / "arrange"
STONES, ONE_WILD, DEUCES = (str(HERE / name) for name in ("stones.yaml", "stones-one-wild.yaml", "deuces.yaml"))
RANKS = ("A", "2", "3", "4", "5", "6", "7")
VALUES = (1, 2, 3, 4, 5, 6, 7)
GAMES = {
    STONES: Game(("x", "y", "z"), RANKS, VALUES, "W", (3, 3), (3, 7)),
    ONE_WILD: Game(("x", "y", "z"), RANKS, VALUES, "W", (3, 3), (3, 7), run_wilds=1),
    DEUCES: Game(("x", "y", "z"), RANKS, VALUES, "W", (3, 3), (3, 7), dual_rank="2"),
}
STONE_BOX = [f"{s}{r}" for s in "xyz" for r in RANKS] * 2
BOXES = {STONES: STONE_BOX + ["W", "W"], ONE_WILD: STONE_BOX + ["W", "W"], DEUCES: STONE_BOX}
MODELS = pytest.mark.parametrize("path", [STONES, ONE_WILD, DEUCES], ids=["slots", "candidates", "dual-cards"])


def random_meld(rng: random.Random, wilds: bool) -> list[str]:
    """A likely meld: a group or a run, sometimes with a wild."""
    if rng.random() < 0.5:
        rank = rng.choice(RANKS)
        meld = [f"{s}{rank}" for s in "xyz"]
    else:
        suit, length = rng.choice("xyz"), rng.randint(3, 5)
        start = rng.randint(0, len(RANKS) - length)
        meld = [f"{suit}{r}" for r in RANKS[start : start + length]]
    if wilds and rng.random() < 0.25:
        meld[rng.randrange(len(meld))] = "W"
    return meld


def deal(rng: random.Random, path: str, table_cards: int, hand_cards: int) -> tuple[list[str], list[list[str]]]:
    """A reachable position: legal melds dealt from one box for the table, then a hand (sometimes
    holding a meld of its own, mostly cards near the table's)."""
    game, box = GAMES[path], BOXES[path].copy()
    rng.shuffle(box)
    melds: list[list[str]] = []
    for _ in range(100):
        if sum(map(len, melds)) >= table_cards + hand_cards:
            break
        meld = random_meld(rng, "W" in box)
        if all(box.count(c) >= meld.count(c) for c in meld) and game.meld_value(meld) is not None:
            for c in meld:
                box.remove(c)
            melds.append(meld)
    own = melds.pop() if melds and rng.random() < 0.4 else []
    table: list[list[str]] = []
    for meld in melds:
        if sum(map(len, table)) < table_cards:
            table.append(meld)
        else:
            box += meld
    near = [c for c in box if c == "W" or any(c[0] == m[0] or c[1:] == m[1:] for t in table for m in t)]
    rest = max(0, hand_cards - len(own))
    hand = own[:hand_cards] + rng.sample(near if len(near) >= rest and rng.random() < 0.7 else box, rest)
    return hand, table


def batch(path: str, lines: list[dict]) -> list[dict]:
    out = run("solve", "-r", path, "--batch", "-", input="".join(json.dumps(line) + "\n" for line in lines))
    return [json.loads(line) for line in out.stdout.splitlines()]


def compare(path: str, seeds: range) -> None:
    """Best turns and going out, after the first meld and before it, against the brute force."""
    game = GAMES[path]
    positions, lines = [], []
    for seed in seeds:
        rng = random.Random(seed)
        melded = seed % 3 != 0
        hand, table = deal(rng, path, rng.randint(3, 9) if melded else rng.randint(0, 6), rng.randint(3, 7))
        request = {"hand": " ".join(hand), "table": [" ".join(m) for m in table], "has_melded": melded}
        positions.append((hand, table, melded))
        lines += [{**request, "best": True}, request]
    answers = batch(path, lines)
    for (hand, table, melded), best, out in zip(positions, answers[::2], answers[1::2], strict=True):
        placed, value = game.best_turn(hand, table, melded, 12)
        assert (len(best["placed"]), best["score"]["value_placed"]) == (placed, value), (hand, table, melded)
        assert game.arrangement_ok(hand, table, best["placed"], best["table"]), best
        if not melded:  # the first meld leaves the table as it was
            assert all(sorted(m) in [sorted(t) for t in best["table"]] for m in table)
        assert out["solvable"] == (placed == len(hand)), (hand, table, melded)
        if out["solvable"]:
            assert game.arrangement_ok(hand, table, out["placed"], out["table"]), out


@MODELS
def test_random_positions_equal_the_brute_force(path):
    compare(path, range(examples(20)))


@pytest.mark.slow
@MODELS
def test_random_positions_equal_the_brute_force_at_length(path):
    compare(path, range(1000, 1000 + examples(400)))


def test_the_ruleset_has_no_game_of_its_own_and_each_shape_its_model():
    stones, one_wild, deuces = (load_game(load_ruleset(p)) for p in (STONES, ONE_WILD, DEUCES))
    assert type(stones).name == type(one_wild).name == type(deuces).name == "rummy"
    assert stones.catalogue.shape is not None and one_wild.catalogue.shape is None is deuces.catalogue.shape


def test_a_card_standing_in_for_another_is_shown_as_what_it_stands_for():
    """A deuce may be wild or itself: laid as a wild it shows what it stands for."""
    answer = json.loads(run("solve", "-r", DEUCES, "--hand", "x5 z2 x6 x7", "--best", "--json").stdout)
    (meld,) = answer["melds"]
    assert answer["solvable"] and meld["points"] == 22  # z2 as x4: 4 + 5 + 6 + 7
    assert meld["cards"][0] == {"card": "z2", "as": "x4", "role": "wild", "wild": True}


def test_the_first_meld_counts_the_ranks_values_and_a_wild_what_it_stands_for():
    """xA x2 W is worth 1 + 2 + 3 = 6: short of 12; x5 y5 z5 W x6 x7 … the first meld's value is the
    values of the ranks the cards stand for (A counts 1)."""
    short = json.loads(run("solve", "-r", STONES, "--hand", "xA x2 W", "--best", "--json").stdout)
    assert short["placed"] == [] and short["initial_meld"] == {"needed": 12, "value": 0, "source": None}
    made = json.loads(run("solve", "-r", STONES, "--hand", "x5 x6 W yA", "--best", "--json").stdout)
    assert sorted(made["placed"]) == ["W", "x5", "x6"] and made["initial_meld"]["value"] == 18  # W as x7
    fifty = run("solve", "-r", STONES, "-o", "first-meld=19", "--hand", "x5 x6 W", "--best", "--json")
    assert fifty.exit_code == 1 and json.loads(fifty.stdout)["placed"] == []


def _state(tmp_path: Path, hand: str, melded: bool) -> str:
    path = tmp_path / "state.yaml"
    flags = "{A: {melded: true}, B: {melded: true}}" if melded else "{B: {melded: true}}"
    path.write_text(
        f"format: 1\nruleset: {STONES}\nplayers: [A, B]\nturn: A\nstep: play\n"
        f'hands: {{A: "{hand}", B: 5}}\ntable:\n  - {{owner: B, cards: x3 x4 x5 x6}}\n'
        f"stock: 10\nflags: {flags}\n",
        encoding="utf-8",
    )
    return str(path)


def _codes(state: str, action: str) -> list[str]:
    result = run("move", state, action, "--json")
    assert result.exit_code in (0, 1), result.output
    return [r["code"] for r in json.loads(result.stdout)["reasons"]]


def test_plays_are_judged_as_the_table_they_leave(tmp_path):
    state = _state(tmp_path, "x7 y3 z3 yA", melded=True)
    assert _codes(state, "play x4 x5 x6 x7 | x3 y3 z3") == []  # x3 moves into a new group
    assert _codes(state, "play x3 x4 x5 x6 x7") == []
    assert _codes(state, "play x4 x5 x6 x7") == ["table-stays"]
    assert _codes(state, "play x3 x4 x5 x6") == ["nothing-placed"]
    assert _codes(state, "play x3 x4 x5 x6 | x7 y3") == ["not-a-meld"]
    assert _codes(state, "play x3 x4 x5 x6 | y3 z3 W") == ["not-in-hand"]
    listed = json.loads(run("moves", state, "--json").stdout)["actions"]
    assert listed == ["draw", "play x4 x5 x6 x7 | x3 y3 z3"]  # drawing, and the best play
    after = json.loads(run("move", state, "play x4 x5 x6 x7 | x3 y3 z3", "--json").stdout)["state"]
    assert after["hands"]["A"] == "yA" and after["turn"] == "B"


def test_the_first_meld_is_judged_from_the_hand_alone(tmp_path):
    state = _state(tmp_path, "x5 y5 z5 x7 x3 y3 z3", melded=False)
    assert _codes(state, "play x3 x4 x5 x6 | x5 y5 z5") == []  # 15 from the hand
    assert _codes(state, "play x3 x4 x5 x6 | x3 y3 z3") == ["initial-meld"]  # 9 < 12
    assert _codes(state, "play x3 x4 x5 x6 x7 | x5 y5 z5") == ["initial-from-hand"]  # the table touched


def _variant(tmp_path: Path, body: str) -> str:
    path = tmp_path / "variant.yaml"
    path.write_text(f"format: 1\nid: variant\nname: Variant\nextends: {STONES}\n{body}", encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    "body,field,words",
    [
        ("initial_meld: {points: 30, counts: card_points}\n", "initial_meld", "counts the first meld by rank"),
        ("operations:\n  - {id: layoff, name: lay off, effect: add}\n", "table.rearrange", "operations"),
        ("turns:\n  - {kind: [normal], discard: required}\n", "turns[0].discard", "without a discard"),
        (
            "deck:\n  ranks: [{id: A}, '2..7']\n",
            "initial_meld.counts",
            "rank 'A'",
        ),
    ],
    ids=["first-meld-by-card-points", "operations", "discard", "rank-without-value"],
)
def test_what_the_turn_cannot_mean_is_refused_with_file_and_line(tmp_path, body, field, words):
    path = _variant(tmp_path, body)
    result = run("check", "-r", path, "x1", "x2", "x3", "--json")
    assert result.exit_code == 2, result.output
    error = json.loads(result.stdout)["error"]
    assert field in error["message"] and words in error["message"], error
