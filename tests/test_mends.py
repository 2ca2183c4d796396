"""What the restructuring mended: going rummy under the plus-ten variant, rank labels in order,
the Marriage dublee route ending the game, the docs' promises."""

from __future__ import annotations

import json
from pathlib import Path

from clirun import ROOT, run

from solver.core.registry import load_game
from solver.core.ruleset import load_ruleset
from solver.core.state import state_from_data


def test_going_rummy_plus_ten_adds_ten_instead_of_doubling():
    """Document 003 note 7: 得点を2倍するのでなく、10点余分に得点する."""
    plus_ten = run(
        "score", "-r", "basic-rummy", "-o", "going-rummy=plus-ten", "--penalty", "--double", "HK", "SQ", "C3", "--json"
    )
    data = json.loads(plus_ten.output)
    assert (data["points"], data["one_go_bonus"], data["doubled"]) == (33, {"add": 10}, False)
    doubled = json.loads(run("score", "-r", "basic-rummy", "--penalty", "--double", "HK", "SQ", "C3", "--json").output)
    assert (doubled["points"], doubled["one_go_bonus"], doubled["doubled"]) == (46, {"double": True}, True)
    plain = json.loads(run("score", "-r", "basic-rummy", "--penalty", "HK", "SQ", "C3", "--json").output)
    assert plain["points"] == 23 and plain["one_go_bonus"] is None
    # with one meld a turn nobody can go rummy: no bonus is in force, and the text says so
    text = run("score", "-r", "basic-rummy", "-o", "one-meld-per-turn=true", "--penalty", "--double", "HK", "SQ", "C3")
    assert text.output.splitlines()[0] == "hand points: 23 (no bonus for going out in one go under these options)"


def test_rank_labels_sort_as_numbers():
    data = json.loads(run("score", "-r", "basic-rummy", "--penalty", "S9", "S10", "C2", "--json").output)
    assert data["breakdown"][0]["group"] == "2, 3, 4, 5, 6, 7, 8, 9, 10"


def test_a_dublee_player_goes_out_with_the_eighth_dublee_shown():
    """The dublee route counts melds: with the route's dublees shown, the discard ends the game
    though cards remain in hand."""
    rs = load_ruleset("marriage")
    moves = load_game(rs).moves()
    data = {
        "format": 1,
        "ruleset": "marriage",
        "players": ["A", "B"],
        "turn": "A",
        "step": "play",
        "tiplu": "S10",
        "stock": 20,
        "discards": "",
        "hands": {"A": "H2 C7", "B": 21},
        "table": [
            {"owner": "A", "cards": c} for c in ("S3 S3", "S4 S4", "H5 H5", "H6 H6", "D7 D7", "D8 D8", "C9 C9", "CJ CJ")
        ],
        "flags": {"A": {"seen": True, "dublee": True, "melded": True}},
    }
    state = state_from_data(data, Path("inline.yaml"), rs)
    judgement = moves.judge(state, "discard C7")
    assert judgement.legal and judgement.state.step == "over"


def test_the_docs_promise_nothing_still_coming():
    for doc in (ROOT / "docs").glob("*.md"):
        assert "(coming)" not in doc.read_text(encoding="utf-8"), doc.name


def test_a_hand_that_does_not_win_is_told_in_text_and_json():
    """The text of a non-win is built after the exception is gone: it keeps the reason."""
    args = ("score", "-r", "gensou-mahjong", "123m", "456m", "789m", "12p", "55p", "--win", "9p")
    text = run(*args)
    assert text.exit_code == 1
    assert text.output.strip() == "no win: 123456789m12559p is not a winning hand"
    data = json.loads(run(*args, "--json").output)
    assert (data["winning"], data["reason"]) == (False, "123456789m12559p is not a winning hand")
