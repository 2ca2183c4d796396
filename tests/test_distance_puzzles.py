"""The distance puzzles of puzzles/ (``question: distance`` or ``discards`` of a rummy hand) run
through melds: each answer matches the file's expectation, and each target hand melds shows is
re-checked by the game's plain go-out oracle (distance_oracle.py; Rummikub's rummikub_brute.py: both
import nothing from solver/).
The slow run re-derives every file's expectation with the oracle (distance_puzzles.py)."""

from __future__ import annotations

import json

import distance_puzzles
import pytest
import test_rummikub_distance
from clirun import run
from test_distance import recheck_target

SPECS = {f"{s.ruleset}/{s.stem}": s for s in distance_puzzles.SPECS if s.path.exists()}
# the puzzles melds takes half a second or more to answer (tables and wild hands of 11-15 cards):
# answered under -m slow, the default run keeping the quicker ones of each game
SLOW_TO_ANSWER = {
    "contract-rummy/d01-two-sets-discards",
    "contract-rummy/d02-two-runs-discards",
    "contract-rummy/d03-set-and-run-now",
    "contract-rummy/d05-set-and-two-runs",
    "fesca/d01-sousei-chain-out-now",
    "fesca/d02-sokoku-chain-out-now",
    "fesca/d04-sokoku-chain-one-short",
    "fesca/d05-reverse-chain-and-run",
    "fesca/d06-seven-in-a-cycle",
    "fesca/d11-three-away",
    "fesca/d13-discards-sw-or-rw",
    "fesca/d14-discards-void-pair",
    "indian-rummy/d03-no-pure-sequence",
    "indian-rummy/d04-aces-are-jokers",
    "indian-rummy/d05-kings-wild",
    "indian-rummy/d07-declare-now-discards",
    "okey/d04-no-thirteen-one-two",
    "okey/d05-two-away",
}


def _answered(names: list[str]) -> list:
    return [pytest.param(n, marks=pytest.mark.slow) if n in SLOW_TO_ANSWER else n for n in names]


def _answer(spec: distance_puzzles.Spec) -> dict:
    result = run("solve", str(spec.path), "--json")
    return json.loads(result.stdout)


def test_every_distance_puzzle_is_listed() -> None:
    files = {f"{p.parent.name}/{p.stem}" for p in distance_puzzles.ROOT.glob("puzzles/*/d[0-9][0-9]-*.yaml")}
    rummy = {name for name in files if not name.startswith("gensou-mahjong/")}  # mahjong's d files: waits
    assert rummy <= set(SPECS)
    assert set(SPECS) >= SLOW_TO_ANSWER
    assert len({s.ruleset for s in SPECS.values()}) >= 7


@pytest.mark.parametrize("name", _answered(sorted(SPECS)))
def test_distance_puzzle_answer_matches(name: str) -> None:
    spec = SPECS[name]
    answer = _answer(spec)
    assert answer["matches"], answer["mismatches"]
    if spec.question == "distance" and spec.ruleset == distance_puzzles.RK:  # no swaps: tiles drawn
        line = {"hand": spec.hand, "table": list(spec.table), "has_melded": spec.melded, "visible": spec.visible}
        test_rummikub_distance.recheck_target(line, answer)
    elif spec.question == "distance":
        recheck_target(spec.game(), spec.hand.split(), answer)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SPECS))
def test_distance_puzzle_expectation_is_the_oracles(name: str) -> None:
    import yaml

    spec = SPECS[name]
    assert yaml.safe_load(spec.path.read_text(encoding="utf-8"))["expect"] == distance_puzzles.expected(spec)
