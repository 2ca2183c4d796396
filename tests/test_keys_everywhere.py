"""Each key of the ruleset format honoured by every command that should honour it (issue 46): the
cases a command used to answer silently wrong, one row each, with answers worked by hand from the
rule statements of tests/data/rulesets/*.md and rulesets/documents/indian-rummy.md.

`melds move` plays a turn action by action, so the rules of a turn's end are judged as it goes:
a ``going_out_only`` kind (Canasta's black threes), the ``going_out:`` routes' requirements, the
first meld's minimum (``initial_meld``), ``layoff.requires_own_meld``, a required discard
(``turns:``) and ``deal.draws: pile``. `melds solve` (go-out, ``--best``, ``--distance``) counts
the player's own melds on the table toward a route's requirements (a canasta already down).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clirun import ROOT, run

from solver.core.files import file_ruleset
from solver.core.registry import load_game
from solver.core.schema import validate
from solver.core.state import GameState, state_from_data

RULESETS = ROOT / "tests" / "data" / "rulesets"
CANASTA = str(RULESETS / "canasta.yaml")
KALOOKI = str(RULESETS / "kalooki.yaml")
CANASTA_DOWN = {"owner": "A", "cards": "S7 H7 D7 C7 S7 H7 D7"}  # a canasta of A's on the table


def state(ruleset: str, hand: str, **kw) -> GameState:
    data = {
        "format": 1,
        "ruleset": ruleset,
        "players": ["A", "B"],
        "turn": "A",
        "step": "play",
        "stock": 40,
        "discards": "H9",
        "hands": {"A": hand, "B": 11},
        **kw,
    }
    validate(data, "state.schema.json", "<test>")
    return state_from_data(data, Path("<test>"), file_ruleset(Path("<test>"), data))


def play(s: GameState, actions: list[str]) -> tuple[GameState, list[dict], int]:
    """The actions in turn until one is refused: the state reached, the refusal's reasons and how
    many actions were played."""
    moves = load_game(s.ruleset).moves()
    for n, action in enumerate(actions):
        judged = moves.judge(s, action)
        if not judged.legal:
            return s, judged.reasons, n
        assert judged.state is not None
        s = judged.state
    return s, [], len(actions)


# (case, ruleset, hand, state keys, actions, the code refusing the last action or None, its quote's words)
MOVE_CASES = [
    (
        "black threes with no way out",  # canasta.md 7, 9: no canasta, so no way out this turn
        CANASTA,
        "S3 C3 S3 S5 H5 D5 C9",
        {"flags": {"A": {"melded": True}}},
        ["meld S3 C3 S3"],
        "going-out-only",
        "only by a player who goes out",
    ),
    (
        "black threes, then a discard that keeps cards",
        CANASTA,
        "S3 C3 S3 S5 H5 D5 C9",
        {"flags": {"A": {"melded": True}}, "table": [CANASTA_DOWN]},
        ["meld S3 C3 S3", "discard C9"],
        "going-out-only",
        "only by a player who goes out",
    ),
    (
        "black threes going out",
        CANASTA,
        "S3 C3 S3 S5 H5 D5 C9",
        {"flags": {"A": {"melded": True}}, "table": [CANASTA_DOWN]},
        ["meld S3 C3 S3", "meld S5 H5 D5", "discard C9"],
        None,
        "",
    ),
    (
        "going out without a canasta",  # canasta.md 9
        CANASTA,
        "S5 H5 D5 C9",
        {"flags": {"A": {"melded": True}}},
        ["meld S5 H5 D5", "discard C9"],
        "going-out",
        "canasta",
    ),
    (
        "a declaration of one sequence",  # indian-rummy.md: two sequences, one of them pure
        "indian-rummy",
        "H2 H3 H4 D5 C5 S5 DK CK SK HQ DQ CQ SQ S7",
        {"indicator": "D9", "hands": {"A": "H2 H3 H4 D5 C5 S5 DK CK SK HQ DQ CQ SQ S7", "B": 13}},
        ["meld H2 H3 H4", "meld D5 C5 S5", "meld DK CK SK", "meld HQ DQ CQ SQ", "discard S7"],
        "going-out",
        "at least two sequences",
    ),
    (
        "a declaration of two sequences",
        "indian-rummy",
        "",
        {"indicator": "D9", "hands": {"A": "H2 H3 H4 S6 S7 S8 D5 C5 S5 DK CK SK JK S3", "B": 13}},
        ["meld H2 H3 H4", "meld S6 S7 S8", "meld S5 D5 C5 JK", "meld SK DK CK", "discard S3"],
        None,
        "",
    ),
    (
        "a lay-off before one's first meld",  # kalooki.md 7, 9
        KALOOKI,
        "S2 S3 S4 H5 D5 S5 C9",
        {"table": [{"owner": "B", "cards": "C6 C7 C8"}]},
        ["layoff 1 C9"],
        "layoff-after-own-meld",
        "may not lay off",
    ),
    (
        "a first meld of 24 points",  # kalooki.md 7, 8: 2+3+4 and 5+5+5
        KALOOKI,
        "S2 S3 S4 H5 D5 S5 C9 H8",
        {},
        ["meld S2 S3 S4", "meld S5 H5 D5", "discard C9"],
        "initial-meld",
        "at least 40 points",
    ),
    (
        "a lay-off in the first meld's turn",
        KALOOKI,
        "SK HK DK SQ HQ DQ C9 H8",
        {"table": [{"owner": "B", "cards": "C6 C7 C8"}]},
        ["meld SK HK DK", "meld SQ HQ DQ", "layoff 1 C9"],
        "initial-meld",
        "at least 40 points",
    ),
    (
        "a first meld of 60 points",
        KALOOKI,
        "SK HK DK SQ HQ DQ C9",
        {},
        ["meld SK HK DK", "meld SQ HQ DQ", "discard C9"],
        None,
        "",
    ),
    (
        "going out with no discard",  # kalooki.md 6, 10
        KALOOKI,
        "SK HK DK S5 H5 D5",
        {"flags": {"A": {"melded": True}}, "table": [{"owner": "A", "cards": "C6 C7 C8"}]},
        ["meld SK HK DK", "meld S5 H5 D5"],
        "discard-required",
        "ends the turn with a discard",
    ),
]


@pytest.mark.parametrize("case", MOVE_CASES, ids=[c[0] for c in MOVE_CASES])
def test_move_honours_the_rules_of_a_turns_end(case):
    _, ruleset, hand, keys, actions, code, quoted = case
    reached, reasons, played = play(state(ruleset, hand, **keys), actions)
    if code is None:
        assert reasons == [] and reached.step == "over", reasons
        return
    assert [r["code"] for r in reasons] == [code], reasons
    assert played == len(actions) - 1  # refused at the last action, not before
    assert quoted in reasons[0]["source"]["quote"]


def test_move_takes_the_whole_pile_when_the_ruleset_draws_it():
    """canasta.md 12: ``deal.draws: pile`` — the whole discard pile, not its top card."""
    s = state(CANASTA, "S5 H5", step="draw", discards="H9 SK DK")
    after, reasons, _ = play(s, ["draw discard"])
    assert reasons == [] and after.hands["A"] == "S5 H5 H9 SK DK" and after.discards == ()


# (hand, table, question, solvable, the answer's distance): canasta.md 8, 9 — a canasta of one's
# own already down counts, as it stands or as a lay-off makes it; another player's does not
SOLVE_CASES = [
    ("S5 H5 D5 C9", "me: S7 H7 D7 C7 S7 H7 D7", "go-out", True),
    ("S7 S5 H5 D5 C9", "me: S7 H7 D7 C7 H7 D7", "go-out", True),  # S7 laid off makes the canasta
    ("S7 S5 H5 D5 C9", "B: S7 H7 D7 C7 H7 D7", "go-out", False),
    ("S3 C3 S3 S5 H5 D5 C9", "me: S7 H7 D7 C7 S7 H7 D7", "best", True),  # the black threes go out too
]


def test_solve_counts_ones_own_melds_toward_a_route(tmp_path):
    lines = [{"hand": h, "table": [t], "turn": {"has_melded": True}, "question": q} for h, t, q, _ in SOLVE_CASES] + [
        {"hand": "S5 H5 D5 C9", "table": ["me: S7 H7 D7 C7 S7 H7 D7"], "turn": {"has_melded": True}, "distance": True}
    ]
    path = tmp_path / "lines.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    answers = [json.loads(a) for a in run("solve", "-r", CANASTA, "--batch", str(path)).stdout.splitlines()]
    for (hand, _, _, out), answer in zip(SOLVE_CASES, answers, strict=False):
        assert answer["solvable"] is out, hand
    assert {m["kind"] for m in answers[3]["melds"]} == {"meld", "black-threes"}
    assert answers[4]["distance"] == 0


TURN_RULES = """\
format: 1
id: turn-rules
name: Turn rules
document: {file: turn-rules.txt}
deck:
  suits: [{id: A}, {id: B}]
  ranks: ["1..6"]
  classes: [{id: plain, suits: [A, B], ranks: ["1..6"], spell: ["{suit}{rank}"]}]
roles: [{id: natural, classes: [plain], suit: own, rank: own}]
melds:
  - {id: run, name: Run, shape: sequence, size: {min: 3, max: 6}, order: {ranks: ["1..6"]}, roles: [natural]}
turns:
  - {kind: [normal, claimed], discard: required, max_new_melds: 1, source: {quote: one meld a turn}}
  - {kind: claimed, claimed_not_discarded: true, claimed_in_new_meld: true, source: {quote: the card taken is melded}}
moves:
  actions:
    draw-stock: {source: {quote: draw}}
    draw-discard: {source: {quote: draw}}
    meld: {source: {quote: meld}}
    discard: {source: {quote: discard}}
"""

# (hand, the card taken from the pile or None, actions, the code refusing the last action)
TURN_CASES = [
    ("A1 A2 A3 B4 B5 B6 A6", None, ["meld A1 A2 A3", "meld B4 B5 B6"], "max-new-melds"),
    ("A1 A2 A3 B4 B5 B6 A6", None, ["meld A1 A2 A3", "discard A6"], None),
    ("A1 A2 A3 B4 B5 B6", "A3", ["discard A3"], "taken-not-discarded"),
    ("A1 A2 A3 B4 B5 B6", "A3", ["meld B4 B5 B6", "discard A1"], "claimed-in-new-meld"),
    ("A1 A2 A3 B4 B5 B6", "A3", ["meld A1 A2 A3", "discard B4"], None),
]


@pytest.mark.parametrize("hand, taken, actions, code", TURN_CASES)
def test_move_honours_the_turn_rules_without_their_checks(tmp_path, hand, taken, actions, code):
    """``turns:`` (max_new_melds, claimed_not_discarded, claimed_in_new_meld) hold in `melds move`
    though the ruleset's ``moves:`` lists none of the checks that say the same."""
    ruleset = tmp_path / "turn-rules.yaml"
    ruleset.write_text(TURN_RULES, encoding="utf-8")
    (tmp_path / "turn-rules.txt").write_text("one meld a turn. the card taken is melded. draw. meld. discard.")
    s = state(str(ruleset), hand, **({"taken": taken} if taken else {}))
    _, reasons, played = play(s, actions)
    assert [r["code"] for r in reasons] == ([code] if code else []), reasons
    assert played == len(actions) - (1 if code else 0)


DAY_NIGHT = (
    TURN_RULES.replace("id: turn-rules", "id: day-night").replace(
        "roles: [natural]}\n", "roles: [natural], phase: night}\n", 1
    )
    + "phases:\n  - {id: day, name: day}\n  - {id: night, name: night}\n"
)


@pytest.mark.parametrize("phase, code", [("night", None), ("day", "not-a-meld")])
def test_move_melds_a_phase_bound_kind_only_in_its_phase(tmp_path, phase, code):
    """A kind bound to a phase (``phase:`` under ``phases:``) is melded in `melds move` only in the
    state's phase (``facts: {phase}``), as `melds check --phase` judges it."""
    ruleset = tmp_path / "day-night.yaml"
    ruleset.write_text(DAY_NIGHT, encoding="utf-8")
    (tmp_path / "turn-rules.txt").write_text("one meld a turn. the card taken is melded. draw. meld. discard.")
    s = state(str(ruleset), "A1 A2 A3 B6", facts={"phase": phase})
    _, reasons, _ = play(s, ["meld A1 A2 A3"])
    assert [r["code"] for r in reasons] == ([code] if code else []), reasons
    assert all("only in night, not in day" in r["message"] for r in reasons)
