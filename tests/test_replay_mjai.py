"""melds replay on stored mjai logs (tests/data/mjai, sources in its README): the spellings of a
draw's reason the engines write, and a hand that once did not settle."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from clirun import run

from solver.core.logs import replay_text

DATA = Path(__file__).parent / "data" / "mjai"
FOUR_WINDS = DATA / "selfplay-4p-default-502583.mjson.gz"


def _events() -> list[dict]:
    return [json.loads(line) for line in gzip.decompress(FOUR_WINDS.read_bytes()).decode("utf-8").splitlines()]


def test_riichienvs_four_winds_draw_agrees_and_keeps_the_deal():
    """南3局 1本場: every seat discards 東 on the first go-around (riichienv's reason `sufuurenta`)."""
    result = run("replay", "--json", str(FOUR_WINDS))
    assert result.exit_code == 0, result.stdout
    hands = json.loads(result.stdout)["hands"]
    assert all(h["status"] == "agree" for h in hands)
    drawn = hands[13]
    assert drawn["round"] == "南3局 1本場" and "四風連打" in drawn["result"]["text"]
    assert hands[14]["round"] == "南3局 2本場"  # the dealer keeps the deal, a honba more


@pytest.mark.parametrize("reason", ["sufuurenta", "suufon_renda", "SuuFonRenda", "sufonrenda"])
def test_each_spelling_of_four_winds_is_read_as_four_winds(reason):
    events = _events()
    (k,) = [k for k, e in enumerate(events) if e["type"] == "ryukyoku" and e["reason"] == "sufuurenta"]
    events[k]["reason"] = reason
    (report,) = replay_text("x.mjson", "".join(json.dumps(e) + "\n" for e in events))
    assert report.status == "agree"
    assert "四風連打" in report.hands[13].result["text"]


def test_a_reason_melds_does_not_know_is_reported_not_passed():
    events = _events()
    k = next(k for k, e in enumerate(events) if e["type"] == "ryukyoku" and e["reason"] == "sufuurenta")
    events[k]["reason"] = "four_winds_perhaps"
    (report,) = replay_text("x.mjson", "".join(json.dumps(e) + "\n" for e in events))
    hand = report.hands[13]
    assert hand.status == "illegal" and hand.illegal["reasons"][0]["code"] == "wrong-end"
    assert "four_winds_perhaps" in hand.illegal["reasons"][0]["message"]
