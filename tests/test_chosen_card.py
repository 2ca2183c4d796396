"""A chosen card as data (parameters:, relations, if_chosen, stands_for, counts_as), roles and
entries by option, and the shapes of runs of any colours, repeated-colour groups and flushes: what
they mean for the bundled games, how they are given (--indicator, "indicator"), and what is refused."""

from __future__ import annotations

import json
import textwrap

import pytest
from clirun import run

from solver.core.errors import SchemaError
from solver.core.ruleset import load_ruleset


def check(*args: str) -> dict:
    result = run("check", *args, "--json")
    return json.loads(result.stdout)


def error(*args: str) -> tuple[int, str]:
    result = run(*args)
    return result.exit_code, result.output


# -- relations to the chosen card -------------------------------------------------------------


@pytest.mark.parametrize(
    "indicator,card,wild",
    [
        ("k8", "k9", True),  # the okey: the indicator's colour, one higher
        ("k8", "r9", False),
        ("k8", "k8", False),  # the indicator's own face is no okey
        ("y13", "y1", True),  # 13 → 1
        ("y13", "y2", False),
    ],
)
def test_okey_is_the_next_number_of_the_indicators_colour(indicator, card, wild):
    data = check("-r", "okey", "--indicator", indicator, card, "r5", "r6")
    roles = {c["card"]: c["role"] for c in data["cards"]}
    assert data["legal"] == wild
    if wild:
        assert roles[card] == "okey"


def test_a_false_joker_counts_as_the_okey_tile():
    data = check("-r", "okey", "--indicator", "b8", "FJ", "r9", "y9")
    assert data["legal"] and data["kind"] == "set"
    fj = next(c for c in data["cards"] if c["card"] == "FJ")
    assert fj["as"] == "b9" and not fj["wild"]
    assert not check("-r", "okey", "--indicator", "b8", "FJ", "r5", "r6")["legal"]  # it is no joker


def test_cut_joker_makes_its_rank_wild_and_a_cut_printed_joker_the_aces():
    impure = check("-r", "indian-rummy", "--indicator", "D9", "H8", "C9", "H10")
    assert impure["kind"] == "sequence" and impure["cards"][1]["wild"]
    pure = check("-r", "indian-rummy", "--indicator", "D9", "H8", "H9", "H10")  # H9 stands as itself
    assert pure["kind"] == "sequence" and not any(c["wild"] for c in pure["cards"])
    assert check("-r", "indian-rummy", "--indicator", "JK", "H8", "SA", "H10")["legal"]
    assert not check("-r", "indian-rummy", "--indicator", "D9", "H8", "SA", "H10")["legal"]


def test_marriage_takes_its_tiplu_by_either_name():
    by_name = check("-r", "marriage", "--tiplu", "H9", "S5", "S6", "H9")
    generic = check("-r", "marriage", "--indicator", "H9", "S5", "S6", "H9")
    assert by_name == generic and by_name["kind"] == "dirty-sequence"
    assert not check("-r", "marriage", "S5", "S6", "H9")["legal"]  # not seen: no wilds


def test_the_chosen_card_in_a_batch_line(tmp_path):
    lines = tmp_path / "lines.jsonl"
    lines.write_text(
        '{"cards": "k9 r5 r6", "indicator": "k8"}\n{"cards": "k9 r5 r6", "indicator": "r4"}\n'
        '{"cards": "k9 r5 r6"}\n{"cards": "k9 r5 r6", "indicator": "FJ"}\n',
        encoding="utf-8",
    )
    out = [json.loads(line) for line in run("check", "-r", "okey", "--batch", str(lines)).stdout.splitlines()]
    assert [o.get("legal") for o in out[:2]] == [True, False]
    assert "--indicator" in out[2]["error"]["message"] and '"indicator"' in out[2]["error"]["message"]
    assert "cannot be the indicator" in out[3]["error"]["message"]


# -- refusals -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args,said",
    [
        (("check", "-r", "okey", "r5", "r6", "r7"), "okey needs the indicator: give --indicator CARD"),
        (("check", "-r", "okey", "--indicator", "FJ", "r5", "r6", "r7"), "FJ cannot be the indicator"),
        (("check", "-r", "okey", "--indicator", "z9", "r5", "r6", "r7"), "unknown card 'z9'"),
        (("check", "-r", "basic-rummy", "--indicator", "H9", "S5", "S6", "S7"), "has no chosen card"),
        (("solve", "-r", "indian-rummy", "--hand", "H2 H3 H4"), "indian-rummy needs the cut joker"),
        (("score", "-r", "okey", "r5", "r6", "r7"), "--indicator"),
    ],
)
def test_a_chosen_card_that_cannot_be_meant_is_refused(args, said):
    code, output = error(*args)
    assert code == 2 and said in output


def _ruleset(tmp_path, body: str) -> str:
    path = tmp_path / "game.yaml"
    head = """\
        format: 1
        id: game
        name: Game
        document: {file: game.txt}
        options:
          jokers: {type: boolean, default: true, description: Jokers play.}
        deck:
          suits: [{id: A, color: red}, {id: B, color: red}, {id: C, color: black}]
          ranks: ["1..5"]
          classes:
            - {id: plain, suits: [A, B, C], ranks: ["1..5"], spell: ["{suit}{rank}"]}
            - {id: joker, spell: [J]}
        """
    path.write_text(textwrap.dedent(head) + textwrap.dedent(body), encoding="utf-8")
    return str(path)


GOOD = """\
    parameters:
      chosen:
        classes: [plain]
        relations:
          - {id: next, suit: same, offset: 1}
          - {id: sister, suit: same-colour, offset: 0}
    roles:
      - {id: natural, classes: [plain], suit: own, rank: own}
      - {id: wild, classes: [plain], wild: true, suit: [A, B, C], rank: ["1..5"], if_chosen: [next]}
      - {id: joker, classes: [joker], wild: true, suit: [A, B, C], rank: ["1..5"], enabled_if: {jokers: true}}
      - {id: stand-in, classes: [joker], stands_for: sister}
    melds:
      - {id: run, name: Run, shape: sequence, size: {min: 3, max: 5}, order: {ranks: ["1..5"]},
         roles: [natural, wild, joker]}
      - {id: pair, name: Pair, shape: identical, distinct: false, size: {min: 2, max: 2}, roles: [natural, stand-in]}
    """


def test_a_file_ruleset_with_relations_roles_by_option_and_stand_ins(tmp_path):
    path = _ruleset(tmp_path, GOOD)

    def legal(*args: str) -> dict:
        return json.loads(run("check", "-r", path, *args, "--json").stdout)

    wild = legal("--indicator", "A2", "C1", "C2", "A3")
    assert wild["legal"] and wild["cards"][2]["as"] == "C3"  # A3, next to the chosen A2, is wild
    assert not legal("C1", "C2", "A3")["legal"]  # no chosen card (not required): no wild
    assert legal("C1", "C2", "J")["legal"]
    assert not legal("-o", "jokers=false", "C1", "C2", "J")["legal"]  # the joker's role is left out
    pair = legal("--indicator", "A2", "B2", "J")
    assert pair["legal"] and pair["cards"][1]["as"] == "B2"  # the stand-in is the chosen card's sister, B2
    assert not legal("--indicator", "A2", "C2", "J")["legal"]


@pytest.mark.parametrize(
    "body,said",
    [
        (GOOD.replace("if_chosen: [next]", "if_chosen: [nest]"), "unknown relation to a chosen card 'nest'"),
        (GOOD.replace("stands_for: sister}", "stands_for: sister, suit: own, rank: own}"), "takes its suit and rank"),
        (GOOD.replace("suit: same, offset: 1}", "suit: same, offset: 1, rank: any}"), "an offset or 'rank: any'"),
        (GOOD.replace("suit: same-colour,", "suit: kin,"), "is not one of"),
        (GOOD.replace("classes: [plain]\n        relations", "classes: [joker]\n        relations"), "no rank"),
    ],
)
def test_relations_that_cannot_be_meant_are_refused_with_their_line(tmp_path, body, said):
    with pytest.raises(SchemaError) as raised:
        load_ruleset(_ruleset(tmp_path, body))
    assert said in str(raised.value) and "game.yaml:" in str(raised.value)


# -- the shapes ---------------------------------------------------------------------------------


def test_runs_of_any_colours_sets_of_repeated_colours_and_flushes():
    run4 = check("-r", "phase-10", "-o", "phase=2", "r7", "W", "g9", "b10")
    assert run4["kind"] == "run" and run4["cards"][1]["as"] == "8"  # the wild's colour is open: not shown
    assert check("-r", "phase-10", "-o", "phase=2", "r7", "r7", "b7")["kind"] == "set"
    assert not check("-r", "phase-10", "-o", "phase=2", "r11", "b12", "g1", "y2")["legal"]
    flush = check("-r", "phase-10", "-o", "phase=8", "r7", "W", "r9", "r10", "r1", "r1", "r12")
    assert flush["kind"] == "colour" and next(c for c in flush["cards"] if c["card"] == "W")["as"] == "r"
    assert not check("-r", "phase-10", "-o", "phase=8", "r7", "b7", "r9", "r10", "r1", "r1", "r12")["legal"]


def test_conditions_list_the_values_any_of_which_will_do():
    kinds = {p: {k.id for k in load_ruleset("phase-10", {"phase": p}).kinds} for p in (1, 2, 8)}
    assert kinds == {1: {"set"}, 2: {"set", "run"}, 8: {"colour"}}


@pytest.mark.parametrize(
    "hand",
    ["r1 b2 g3 y4 W W W W S g9 y12", "r5 b5 g5 y5 W W W W S g1 y12", "r1 b2 g3 y4 W W W r9 S g8 y12"],
)
def test_under_ambiguity_any_a_meld_counts_as_the_kind_the_route_needs(hand):
    """Phase 3: four wild cards (or three and a card) are a set of four or a run of four — the
    player says which; the route counts the meld as the kind it needs, and the answer shows it so."""
    data = json.loads(run("solve", "-r", "phase-10", "-o", "phase=3", "--hand", hand, "--json").stdout)
    assert data["solvable"]
    assert sorted((m["kind"], len(m["cards"])) for m in data["melds"]) == [("run", 4), ("set", 4)]
