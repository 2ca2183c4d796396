"""``--distance`` of the contract games (Contract Rummy's seven rounds, Phase 10's ten phases: the
nearest-target search of solver/melding/turn/nearcontract.py) against the brute force of
tests/distance_oracle.py, in-process: each target shown re-checked by the game's plain oracle, no
fewer swaps making the hand go out, and the distance equal to the brute force's when within its
depth. Each discard table is the swap model's (the search switched off)."""

from __future__ import annotations

import random
from collections import Counter
from unittest import mock

import distance_oracle as oracle
import pytest
from test_distance import check_against_oracle

from solver.core.registry import load_game
from solver.core.ruleset import load_ruleset, with_options

NUMBERS = [c + str(n) for c in "rb" for n in range(1, 13)]
CARDS = [s + r for s in "SH" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")]
# a ruleset, its option, a pool to deal from (two colours or suits: hands near their contract)
POOLS = {
    "phase-10": ("phase", NUMBERS * 2 + ["W", "W", "S"]),
    "contract-rummy": ("round", CARDS * 2 + ["JK", "JK"]),
}


def _hands(ruleset: str, stage: int, count: int, seed: int) -> list[str]:
    option, pool = POOLS[ruleset]
    size = 10 if ruleset == "phase-10" else (11 if stage <= 4 else 13)
    rng = random.Random(seed * 100 + stage)
    return [" ".join(rng.sample(pool, size)) for _ in range(count)]


def check(ruleset: str, stage: int, hands: list[str], depth: int = 1) -> Counter[int | None]:
    """Each hand's distance bounded both ways (the module's docstring); the distances seen."""
    option = POOLS[ruleset][0]
    game = load_game(with_options(load_ruleset(ruleset), {option: stage}))
    g = oracle.game(ruleset, phase=stage)
    seen: Counter[int | None] = Counter()
    for text in hands:
        answer = game.solve({"hand": text, "distance": True}).data
        seen[answer["distance"]] += 1
        assert not answer.get("undecided"), text
        check_against_oracle(g, text.split(), answer, depth, text)
    return seen


# the default run: one or two cheap hands of the stages the other tests leave out
@pytest.mark.parametrize(("ruleset", "stage"), [("phase-10", 3), ("phase-10", 8)])
def test_contract_distance_against_brute_force(ruleset: str, stage: int) -> None:
    assert sum(check(ruleset, stage, _hands(ruleset, stage, 1, 47)).values()) == 1


def test_round_seven_goes_out_with_every_card() -> None:
    # S3-S6, S7 S8 H2(S9), H7-H10 and HA let go (every other card in the three runs)
    assert check("contract-rummy", 7, ["S3 S4 S5 S6 H7 H8 H9 H10 S7 S8 S9 H2 HA"]) == {0: 1}


@pytest.mark.slow
def test_round_seven_lets_go_what_no_run_takes() -> None:
    # DK, CK and HA: one let go as the discard, two swapped for a second S5 and S6
    assert check("contract-rummy", 7, ["S3 S4 S5 S6 H7 H8 H9 H10 S7 S8 DK CK HA"]) == {2: 1}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("ruleset", "stage"), [("phase-10", p) for p in range(1, 11)] + [("contract-rummy", r) for r in range(1, 8)]
)
def test_contract_distance_against_brute_force_many(ruleset: str, stage: int) -> None:
    seen = check(ruleset, stage, _hands(ruleset, stage, 20, 4747))
    assert sum(seen.values()) == 20


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "stage"), [("phase-10", 2), ("phase-10", 8), ("contract-rummy", 2)])
def test_contract_discards_are_the_swap_models(ruleset: str, stage: int) -> None:
    game = load_game(with_options(load_ruleset(ruleset), {POOLS[ruleset][0]: stage}))
    for text in _hands(ruleset, stage, 2, 7):
        fast = game.solve({"hand": text, "discards": True}).data
        with mock.patch("solver.melding.turn.distance.fits", return_value=False):
            slow = game.solve({"hand": text, "discards": True}).data
        assert (fast["distance"], fast["discards"]) == (slow["distance"], slow["discards"]), text
