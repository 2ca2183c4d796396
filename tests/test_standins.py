"""Forms that stand in for others (solver.melding.table.standins), and the race of a large table turn's
whole model against the model of its stand-ins (TableTurn.answer, in a forked child:
solver.core.forked), issue 20: dropping a form another stands in for keeps the first level's
optimum, and the turn over the stand-ins replays."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from solver.core.registry import load_game
from solver.core.ruleset import load_ruleset
from solver.melding.table.forms import TableForms, table_forms
from solver.melding.table.operations import Table, TableMeld
from solver.melding.table.standins import undominated
from solver.melding.turn import tableturn
from solver.melding.turn.problem import Problem
from solver.melding.turn.tableturn import TableTurn
from solver.sat.budget import Budget

RS = load_ruleset("fesca")
GAME = load_game(RS)
OPS = GAME.rules.operations
DATA = Path(__file__).resolve().parent.parent / "bench" / "data"


def _problem(seed: int, number: int) -> Problem:
    data = DATA / ("table-turns.json" if seed < 100 else "table-turns-more.json")
    turn = next(t for t in json.loads(data.read_text())["turns"] if (t["seed"], t["turn"]) == (seed, number))
    faces = RS.deck.faces
    table = tuple(TableMeld(owner, tuple(faces[i] for i in cards), owner == "me") for owner, cards in turn["table"])
    return Problem(RS, tuple(faces[i] for i in turn["hand"]), table, "normal", None, True, "yang")


def _forms(problem: Problem) -> TableForms:
    """The forms of a turn's table, found once for the tests that share its problem (the search reads
    no part of a Problem but its table, hand and phase, and leaves what it returns unchanged)."""
    key = (problem.table, problem.hand, problem.phase)
    if key not in _FORMS_FOUND:
        ops = tuple(op for op in OPS if op.effect != "recall")
        _FORMS_FOUND[key] = table_forms(Table(GAME.checker), problem.table, problem.hand, problem.phase, ops, Budget())
    return _FORMS_FOUND[key]


_FORMS_FOUND: dict[tuple, TableForms] = {}


def _best(problem: Problem, found: TableForms):
    with TableTurn(problem, GAME.checker, Budget(), OPS, found) as turn:
        return turn.best()


def _optima(seed: int, number: int) -> None:
    """The best turn over every form and over the stand-ins: the same meld points (the first
    level), each decided, each replaying step by step through tests/replay.py."""
    from replay import replay

    problem = _problem(seed, number)
    found = _forms(problem)
    stand_ins = [undominated(per_meld) for per_meld in found.forms]
    assert sum(map(len, stand_ins)) < sum(map(len, found.forms))  # the turn tests something
    whole = _best(problem, found)
    fewer = _best(problem, TableForms(stand_ins, found.extra, None, []))
    assert whole.solvable is not None and fewer.solvable is not None
    assert fewer.score["meld_points"] == whole.score["meld_points"]
    assert replay(problem, whole) == [] and replay(problem, fewer) == []


@pytest.mark.parametrize(
    "seed, number", [(8, 4), pytest.param(14, 4, marks=pytest.mark.slow), pytest.param(10, 0, marks=pytest.mark.slow)]
)
def test_the_stand_ins_keep_the_best_turns_meld_points(seed, number):
    _optima(seed, number)


@pytest.mark.slow
@pytest.mark.parametrize(
    "seed, number",
    [(131, 2), (149, 0), (148, 3), (13, 3), (15, 2), (14, 1), (13, 0), (110, 4), (128, 3), (132, 1), (144, 3)],
)
def test_the_stand_ins_keep_the_best_turns_meld_points_on_large_turns(seed, number):
    """131:2 among them: a form that plays fewer cards in all but needs one for a while, in the
    place of one that plays more, cost its best turn a meld point (15 to 14) under a test of the
    cards played in all alone."""
    _optima(seed, number)


@pytest.mark.parametrize(
    "seed, number",
    [
        pytest.param(15, 2, marks=pytest.mark.slow),
        (14, 1),
        pytest.param(13, 4, marks=pytest.mark.slow),
        pytest.param(131, 2, marks=pytest.mark.slow),
    ],
)
def test_every_form_dropped_has_a_stand_in_kept_that_gains_as_much_and_plays_no_more(seed, number):
    """What the stand-in test reads before the order of the moves: a form kept in each dropped
    one's place, of the same meld, gaining at least as much, playing no more copies of any card
    and leaving the hand no poorer in the end."""
    from collections import Counter

    found = _forms(_problem(seed, number))
    for per_meld in found.forms:
        kept = undominated(per_meld)
        assert kept == [form for form in per_meld if form in kept]  # in their order
        for f in per_meld:
            if f not in kept:
                assert any(
                    d.gain >= f.gain and not Counter(d.played) - Counter(f.played) and _no_poorer(_net(d), _net(f))
                    for d in kept
                ), f


def _net(form):
    from collections import Counter

    net = Counter(form.taken)
    net.subtract(form.played)
    return net


def _no_poorer(a, b) -> bool:
    return all(a[card] >= b[card] for card in a.keys() | b.keys())


@pytest.mark.slow  # two whole searches of a 2,662-form turn; the default run races it once below
def test_a_large_turn_races_its_stand_ins_and_answers_as_the_whole_model_does(monkeypatch):
    """148:3 (2,662 forms): raced, answered as with the race off, and the turn replays."""
    from replay import replay

    problem = _problem(148, 3)
    found = _forms(problem)
    raced = []
    race = TableTurn._raced
    monkeypatch.setattr(TableTurn, "_raced", lambda self, question: raced.append(1) or race(self, question))
    with TableTurn(problem, GAME.checker, Budget(), OPS, found) as turn:
        answer = turn.answer("best")
    assert raced and answer.solvable is not None and replay(problem, answer) == []
    monkeypatch.setattr(tableturn, "STAND_INS_FROM", 10**9)
    with TableTurn(problem, GAME.checker, Budget(), OPS, found) as turn:
        alone = turn.answer("best")
    assert len(raced) == 1 and answer.score == alone.score


@pytest.mark.slow  # a 2,662-form turn's stand-ins searched in full; the race's mechanics stay in the default run
def test_the_stand_ins_answer_stands_when_it_settles_first_and_the_whole_search_is_killed(monkeypatch):
    """The whole model's child held back (it would sleep two minutes): the stand-ins' turn goes
    out with the most meld points, so it is the answer, decided, at once."""
    from replay import replay

    problem = _problem(148, 3)
    found = _forms(problem)
    monkeypatch.setattr(
        TableTurn, "_answer", lambda self, question: time.sleep(120)
    )  # the stand-ins' child calls best()
    start = time.perf_counter()
    with TableTurn(problem, GAME.checker, Budget(), OPS, found) as turn:
        answer = turn.answer("best")
    assert time.perf_counter() - start < 60
    assert answer.solvable is True and answer.score == {"meld_points": 9, "hand_points": 0}
    assert replay(problem, answer) == []


@pytest.mark.slow  # the whole model searched in this process: as long as the race it replaces
def test_when_both_children_fail_the_turn_is_searched_here(monkeypatch):
    def fails(*args):
        raise RuntimeError("a child that fails")

    problem = _problem(148, 3)
    found = _forms(problem)
    monkeypatch.setattr(tableturn, "_alone", fails)
    monkeypatch.setattr(tableturn, "_over_stand_ins", fails)
    with TableTurn(problem, GAME.checker, Budget(), OPS, found) as turn:
        answer = turn.answer("best")
    assert answer.solvable is True and answer.score == {"meld_points": 9, "hand_points": 0}


def test_a_turn_that_does_not_qualify_does_not_race(monkeypatch):
    """Before one's own first meld the stand-ins' condition fails (the order of new melds
    matters): no child. (A small turn, with the size the race needs set below it.)"""
    monkeypatch.setattr(tableturn, "STAND_INS_FROM", 0)
    problem = _problem(8, 4)
    with TableTurn(problem, GAME.checker, Budget(), OPS, _forms(problem)) as turn:
        assert turn._races("best")  # melded, it would race
    problem = Problem(RS, problem.hand, problem.table, "normal", None, False, "yang")
    with TableTurn(problem, GAME.checker, Budget(), OPS, _forms(problem)) as turn:
        assert not turn._races("best") and not turn._races("go-out")
