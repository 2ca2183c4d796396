"""Rulings of the Fesca document (000_bb200cc6bb22cd11.txt), each through the command line for
every command it touches. Each test names the sentence it pins."""

from __future__ import annotations

import json

import pytest
from clirun import run

DOC = "000_bb200cc6bb22cd11.txt"
WOOD = [f"木{r}" for r in range(1, 13)]


def _json(*args):
    result = run(*args, "--json")
    return result.exit_code, json.loads(result.output)


# -- 順: ZAT is 0 and 13 at once; it joins 12 and 1; the longest run is the 13-card run with ZAT --


ZAT_RUNS = [
    WOOD + ["空無木"],                              # ZAT as 13, after 12
    ["空無木"] + WOOD,                              # ZAT as 0, before 1
    ["木12", "空無木"] + WOOD[:11],                 # 12 → ZAT → 1 … 11: round through ZAT
    WOOD[4:] + ["空無木"] + WOOD[:4],               # 5 … 12 ZAT 1 … 4
    ["木11", "木12", "空無木", "木1", "木2"],       # the document's joining example
    ["木12", "空無木", "木1"],
]


@pytest.mark.parametrize("layout", ZAT_RUNS, ids=lambda cards: " ".join(cards))
def test_zat_runs_in_table_order_check_and_score(layout):
    """「ZAT: … 空無札がランク0とランク13の両扱いとする機能」「ZATを介して12と1を繋ぐ」
    「最長はZATを含む13連順」: a ZAT card at either end, or a run going round through ZAT, is a
    run whichever way it is laid out; its ZAT counts in the run's length (空無土はRWではなくZAT扱いなので、連枚数に含めて)."""
    code, data = _json("check", "-r", "fesca", "--ordered", *layout)
    assert code == 0 and data["legal"] and data["kind"] == "run", data
    code, data = _json("score", "-r", "fesca", "--ordered", *layout)
    points = {3: 1, 5: 4, 13: 1024}[len(layout)]
    assert code == 0 and data["points"] == points, data
    code, data = _json("check", "-r", "fesca", *reversed(layout))  # a multiset too
    assert code == 0 and data["kind"] == "run"


def test_the_13_card_run_is_shown_from_zat():
    code, data = _json("check", "-r", "fesca", *WOOD[6:], "空無木", *WOOD[:6])
    assert code == 0 and [p["card"] for p in data["cards"]] == ["空無木"] + WOOD


@pytest.mark.parametrize("layout", [["木12", "木1", "木2"], WOOD[4:11] + ["空無木", "木12"] + WOOD[:4]],
                         ids=["12-1 without ZAT", "ZAT out of place"])
def test_12_and_1_do_not_join_without_zat(layout):
    """「12と1は繋がらないので順として認められない」"""
    code, data = _json("check", "-r", "fesca", "--ordered", *layout)
    assert code == 1 and not data["legal"]


def test_solve_goes_out_with_the_13_card_run():
    """「最長はZATを含む13連順」: the solver finds the 13-card run (1024 points, 順 13 → 1024)."""
    code, data = _json("solve", "-r", "fesca", "--hand", " ".join(WOOD + ["空無木", "水3"]), "--best")
    assert code == 0 and data["solvable"] and data["discard"] == "水3"
    assert data["score"]["meld_points"] == 1024
