"""Budgets hold: --max-seconds and --max-memory end a query, Python work included, with exit 3
and, where a verified turn was found, that turn and its bound (issue 20, item 4). How soon after
the deadline a query ends is a figure of bench/budgets.py (the bench/run row budget-overrun), not
asserted here: a loaded machine's clock would fail a test of it."""

from __future__ import annotations

import contextlib
import json
import random
import time
from itertools import islice
from pathlib import Path

import oracle
import pytest
from clirun import subprocess_run

from solver.core.errors import Undecided
from solver.core.registry import load_game
from solver.core.ruleset import bundled_rulesets, load_ruleset
from solver.core.state import load_state
from solver.melding.turn.solver import Problem, TurnSolver
from solver.sat.budget import Budget
from solver.sat.solvers import MaxSat, SatSolver

RS = load_ruleset("fesca")
GAME = load_game(RS)


def big_hand(seed: int = 4, size: int = 45) -> str:
    rng = random.Random(seed)
    plain = [f for f in RS.deck.faces if f.cls == "五行"]
    return " ".join(GAME.notation.format(f) for f in rng.sample(plain, size))


def test_a_pure_python_loop_is_ended_by_the_guard():
    budget = Budget(0.2)
    with pytest.raises(Undecided), budget.guarding():
        while True:  # work that never checks the budget
            pass
    assert budget.spent == "time"


def test_the_guard_stays_quiet_when_the_work_ends_in_time():
    budget = Budget(5)
    with budget.guarding():
        total = sum(range(1000))
    assert total == 499500 and budget.spent is None


@pytest.mark.parametrize("deadline", [None, 60.0])
def test_the_memory_ceiling_is_watched_in_every_solver_call(deadline):
    """A ceiling already passed (one byte: any process is bigger) ends a SAT call and a MaxSat
    optimum as undecided for memory, with a deadline or without one."""
    budget = Budget(deadline, memory=1)
    with SatSolver([[1, 2], [-1, 2]]) as sat, pytest.raises(Undecided, match="memory"):
        sat.solve(budget=budget)
    assert budget.spent == "memory"
    budget = Budget(deadline, memory=1)
    with MaxSat([[1, 2]], [([-1], 1), ([-2], 1)]) as maxsat, pytest.raises(Undecided, match="memory"):
        maxsat.optimum(budget)
    assert budget.spent == "memory"


def test_solve_holds_max_seconds():
    seconds = 0.5
    out = subprocess_run(
        "solve", "-r", "fesca", "--hand", big_hand(), "--best", "--max-seconds", str(seconds), "--json"
    )
    assert out.returncode in (0, 1, 3), out.stderr
    if out.returncode == 3:
        assert _undecided_for(json.loads(out.stdout)) == "time"


def _undecided_for(data: dict) -> str:
    """The limit an undecided answer names: a turn's (``undecided.limit``), or the error of a
    query that ran out before it had a turn (loading a ruleset compiles SAT models: under a
    ceiling the process is past already, as a cold cache's, it stops there)."""
    if "error" in data:
        assert data["error"]["code"] == "undecided"
        return "memory" if "memory ceiling" in data["error"]["message"] else "time"
    assert data["solvable"] is None
    return data["undecided"]["limit"]


def test_the_hard_table_turn_reads_and_holds_its_budget():
    """bench/data/hard-table-turn.yaml, the README's case for budgets, reads as a puzzle (not exit
    2) and, cut short, ends in time: exit 3 naming the limit, or decided (exit 1: it cannot go
    out)."""
    seconds = 1.0
    hard = Path(__file__).resolve().parent.parent / "bench" / "data" / "hard-table-turn.yaml"
    out = subprocess_run("solve", "--best", str(hard), "--max-seconds", str(seconds), "--json")
    assert out.returncode in (1, 3), out.stderr  # it cannot go out; the best turn may be unproven
    if out.returncode == 3:
        assert _undecided_for(json.loads(out.stdout)) == "time"


def test_solve_holds_max_memory():
    out = subprocess_run("solve", "-r", "fesca", "--hand", big_hand(), "--best", "--max-memory", "20MiB", "--json")
    assert out.returncode == 3, out.stderr
    assert _undecided_for(json.loads(out.stdout)) == "memory"
    text = subprocess_run("solve", "-r", "fesca", "--hand", big_hand(), "--best", "--max-memory", "20MiB")
    assert text.returncode == 3 and "memory" in text.stdout + text.stderr


@pytest.mark.parametrize("size", ["0", "-5M", "nan", "12 parsecs", "infG"])
def test_a_memory_size_that_is_none_is_a_usage_error(size):
    out = subprocess_run("solve", "-r", "fesca", "--hand", "木3 木4 木5 水1", "--max-memory", size)
    assert out.returncode == 2 and "memory size" in out.stderr


def test_audit_holds_max_seconds():
    out = subprocess_run("audit", "--all", "--max-seconds", "1", "--json")
    assert out.returncode == 3
    assert json.loads(out.stdout)["error"]["code"] == "undecided"


def test_an_audit_cut_short_reports_the_rulesets_it_finished():
    """--all out of budget after some rulesets: exit 3, the error saying where it stopped, and the
    report of those audited (each as a whole audit of it would give it)."""
    out = subprocess_run("audit", "--all", "--max-seconds", "3", "--json")
    assert out.returncode == 3, out.stderr
    data = json.loads(out.stdout)
    assert data["error"]["code"] == "undecided"
    done = [r["ruleset"] for r in data.get("rulesets", [])]
    assert f"({len(done)} of " in data["error"]["message"]
    if done:  # a slow machine may finish none in 3 s: then the error alone, as before
        alone = json.loads(subprocess_run("audit", done[0], "--json").stdout)
        assert alone["rulesets"][0] == data["rulesets"][0]
        assert [f for f in data["findings"] if f["ruleset"] == done[0]] == alone["findings"]


def test_an_optimum_cut_short_keeps_its_turn_and_bound():
    """What an undecided answer shows is the optimiser's last verified model with the bound its
    cores prove; at the optimum the two meet."""
    hand = tuple(GAME.notation.parse_many("木3 木4 木5 火4 火5 火6 土5 金6 水7 水8 火7 太極 陰陽3"))
    with TurnSolver(Problem(RS, hand, phase="yang"), GAME.checker) as solver:
        best = solver.best()
        cut = solver._undecided("best")
    assert cut.solvable is None and cut.partial
    assert cut.score == best.score
    assert cut.bound == {
        "measure": "meld_points",
        "sense": "maximize",
        "found": best.score["meld_points"],
        "best_possible": best.score["meld_points"],
    }


def test_the_guards_raise_outside_a_solver_call_is_an_undecided_answer(monkeypatch):
    """The guard raises in whatever Python work runs at the deadline (building a model, reading a
    form), not only in a solver call: the turn's answer is then undecided, not an exception."""
    import solver.melding.turn.solve as solve_module

    def spent(*args, **kwargs):
        raise Undecided("time")

    monkeypatch.setattr(solve_module, "_solve_turn", spent)
    hand = tuple(GAME.notation.parse_many("木3 木4 木5 火4 火5 火6 土5"))
    answer = GAME.answer_problem(Problem(RS, hand, phase="yang"), "best", max_seconds=5)
    assert answer.solvable is None and answer.limit == "time"


class _SpentAfter(Budget):
    """A budget that runs out at its ``checks``-th check (each SAT call checks it first): a cut that
    comes at the same place on any machine."""

    def __init__(self, checks: int):
        super().__init__(3600)
        self.checks = checks

    def check(self) -> None:
        self.checks -= 1
        if self.checks < 0:
            self.spent = "time"
            raise self.undecided()


def test_a_count_cut_short_says_how_many_ways_it_found():
    """Out of budget while counting the ways out (here at the third check): undecided, the ways found so
    far (at least that many), in the JSON and the text; and that many ways there are (a count
    without a budget, stopped at that number, reaches it)."""
    from solver.melding.present import answer_json, answer_text
    from solver.melding.turn.solve import _count_stopped

    hand = "金1 金2 金3 金4 金5 金6 木1 木2 木3 木4 木5 木6 水1 水2 水3 水4 水5 水6 陰陽1 空無金 太極"
    problem = Problem(RS, tuple(GAME.notation.parse_many(hand)))
    with TurnSolver(problem, GAME.checker, Budget(), compact=False) as solver:
        assert solver.go_out().solvable
        solver.budget = _SpentAfter(3)
        found, _, stopped = solver.count_solutions(1_000_000)
        assert stopped and found >= 1
        answer = _count_stopped(solver, "go-out", found)
    data = answer_json(answer, problem, GAME.checker)
    assert data["solutions"] is None and data["solutions_at_least"] == found and data["undecided"]["limit"] == "time"
    assert f"ways to go out: at least {found}" in answer_text(answer, problem, GAME.checker)
    with TurnSolver(problem, GAME.checker, Budget(), compact=False) as solver:
        assert solver.go_out().solvable
        assert solver.count_solutions(found) == (found, True, False)


MANY_WILDS = Path(__file__).resolve().parent / "data" / "hostile" / "state-many-wilds.yaml"


def _legal_up_to(state, last: str | None) -> list[str]:
    """The legal actions a listing holds when it stops just after ``last``: the candidates in
    their order up to it, each judged (None: none listed)."""
    mv = load_game(state.ruleset).moves()
    out: list[str] = []
    for action in mv.candidates(state) if last is not None else ():
        if mv.judge(state, action).legal:
            out.append(action)
        if action == last:
            break
    return out


def test_moves_holds_max_seconds_and_lists_what_it_judged():
    """Every wild in one hand: tens of thousands of melds to judge. Out of budget, melds moves
    ends in time, exit 3, with the actions judged legal before it ran out — in their order, none
    skipped."""
    seconds = 1.0
    out = subprocess_run("moves", str(MANY_WILDS), "--max-seconds", str(seconds), "--json")
    assert out.returncode == 3, out.stderr
    data = json.loads(out.stdout)
    assert data["partial"] is True and data["undecided"]["limit"] == "time"
    state = load_state(MANY_WILDS)
    listed = data["actions"]
    assert listed == _legal_up_to(state, listed[-1] if listed else None)
    text = subprocess_run("moves", str(MANY_WILDS), "--max-seconds", str(seconds))
    assert text.returncode == 3 and "legal actions so far" in text.stdout and "undecided" in text.stderr


def test_moves_holds_max_memory():
    out = subprocess_run("moves", str(MANY_WILDS), "--max-memory", "20MiB", "--json")
    assert out.returncode == 3, out.stderr
    data = json.loads(out.stdout)
    assert data["partial"] is True and data["undecided"]["limit"] == "memory"


def test_a_listing_cut_short_holds_exactly_the_legal_actions_judged():
    """The listing stopped after 120 candidates (the budget's check, made to run out there): the
    legal ones among them, melds included, each a legal meld for the independent checker."""
    state = load_state(MANY_WILDS)
    mv = load_game(state.ruleset).moves()
    asked = 0

    def check() -> None:
        nonlocal asked
        asked += 1
        if asked > 120:
            raise Undecided("stopped")

    listing = mv.listing(state, check)
    assert not listing.complete and str(listing.undecided) == "stopped"
    first = list(islice(mv.candidates(state), 120))
    assert listing.actions == [a for a in first if mv.judge(state, a).legal]
    melds = [a.split()[1:] for a in listing.actions if a.startswith("meld ")]
    assert melds, "the first 120 candidates hold melds of the hand"
    for cards in melds:
        if len(cards) <= 6:  # the brute force tries every wild assignment: small melds only
            assert oracle.verdict(RS, GAME.notation.parse_many(cards), "yang", ordered=True).legal, cards


def test_a_word_puzzle_keeps_its_budget_and_undecided_is_no_mismatch():
    """--max-seconds reaches a word puzzle (it ran to the end, 5 s, before), counted from the
    request: loading the dictionary is part of it. Cut short, the answer is undecided (exit 3),
    not compared with what the puzzle expects."""
    puzzle = Path(__file__).resolve().parent / "data" / "word-turn-forty-tiles.yaml"
    seconds = 1.0
    out = subprocess_run("solve", str(puzzle), "--max-seconds", str(seconds), "--json")
    data = json.loads(out.stdout)
    if out.returncode == 3:
        assert data["undecided"] is True and "matches" not in data and "mismatches" not in data
    else:  # a fast machine may finish: then it is compared
        assert out.returncode == 0 and data["matches"] is True, out.stdout


def test_an_audit_stops_at_the_next_ruleset_when_the_guard_was_lost(monkeypatch):
    """The guard raises once a query; work that swallows it (as the cache's read once did, as a
    claim's solve does to answer undecided) must not let an audit run on to its end: the budget is
    checked again before each ruleset — and after it: a ruleset whose audit ran past the budget is
    not reported as audited (a claim answered undecided there could read as a contradiction)."""
    from clirun import run

    from solver.commands import audit as audit_command

    audit = audit_command.audit_ruleset
    calls = []
    clock = time.perf_counter

    def slow_and_deaf(ruleset, check):
        calls.append(ruleset.id)
        if len(calls) == 2:
            # the clock moved past the budget (as if this audit had run long): the guard fires
            # within its poll, here, and is swallowed
            monkeypatch.setattr(time, "perf_counter", lambda: clock() + 1000)
            with contextlib.suppress(Undecided):
                time.sleep(2.0)
        return audit(ruleset, check)

    monkeypatch.setattr(audit_command, "audit_ruleset", slow_and_deaf)
    out = run("audit", "--all", "--max-seconds", "600", "--json")
    assert out.exit_code == 3 and len(calls) == 2
    data = json.loads(out.stdout)
    audited = f"1 of {len(bundled_rulesets())} rulesets audited"
    assert data["error"]["code"] == "undecided" and audited in data["error"]["message"]
    assert [r["ruleset"] for r in data["rulesets"]] == calls[:1]


def test_an_audit_checks_its_budget_before_every_claim():
    from solver.audit.run import audit_ruleset

    rs = load_ruleset("gensou-mahjong")
    checked = []
    audit_ruleset(rs, lambda: checked.append(1))
    assert rs.claims and len(checked) >= len(rs.claims)
    with pytest.raises(Undecided):  # a budget spent mid-way ends the audit at the next claim
        audit_ruleset(rs, Budget(1e-9).check)


def test_an_interrupt_between_two_oracle_calls_is_undecided_not_a_proof_of_none(monkeypatch):
    """The watchdog's interrupt can land as an oracle call ends on its own (a core found): RC2
    then processes that core and stops with None — the answer it also gives for hard clauses
    with no model. That was read as a proof that no turn exists: "impossible state" (exit 2),
    once in thirty 60-card Fesca hands at --max-seconds 1. It must be undecided."""
    from solver.sat import solvers

    calls = solvers._LiveRC2._call_oracle

    def interrupted_as_it_ends(self, assumptions=[], expect_interrupt=False):  # noqa: B006 - RC2's signature
        result = calls(self, assumptions, expect_interrupt)
        if result is False:  # a core: the watchdog interrupts just after the call has ended
            self.interrupt()
        return result

    monkeypatch.setattr(solvers._LiveRC2, "_call_oracle", interrupted_as_it_ends)
    # five options, each wanted; not all of 1, 2, 3 and not all of 3, 4, 5: cores before a model
    hard, soft = [[-1, -2, -3], [-3, -4, -5]], [([v], 1) for v in range(1, 6)]
    with solvers.MaxSat(hard, soft, top=5) as maxsat, pytest.raises(Undecided):
        maxsat.optimum(Budget(100))
    monkeypatch.setattr(solvers._LiveRC2, "_call_oracle", calls)
    with solvers.MaxSat(hard, soft, top=5) as plain:  # no interrupt: the optimum (all but 3)
        model = plain.optimum(Budget(100))
        assert model is not None and {lit for lit in model if 0 < lit <= 5} == {1, 2, 4, 5}


def test_an_undecided_turn_says_what_its_bound_is_or_that_none_was_proved():
    """The text form of a turn cut short ends with its bound; a turn with no proved bound (a table
    turn whose search of forms ran out of its share of the time: bound null in JSON) says so, with
    what was found, rather than nothing."""
    from dataclasses import replace

    from solver.melding.present import answer_text

    hand = tuple(GAME.notation.parse_many("木3 木4 木5 火4 火5 火6 土5 金6 水7 水8 火7 太極 陰陽3"))
    problem = Problem(RS, hand, phase="yang")
    with TurnSolver(problem, GAME.checker) as solver:
        best = solver.best()
        cut = solver._undecided("best")  # what a cut at the optimum would show
    found = best.score["meld_points"]
    assert cut.partial and cut.score == best.score
    text = answer_text(cut, problem, GAME.checker).splitlines()
    assert text[-1] == f"bound: at least {found} meld points (found), at most {found}"
    text = answer_text(replace(cut, bound=None), problem, GAME.checker).splitlines()
    assert text[-1] == f"bound: at least {found} meld points (found); no upper bound proved within the budget"


def test_the_guard_raises_nothing_where_python_would_drop_it():
    """A finaliser, a weak reference's callback or a collector's callback runs between any two bytecodes; an Undecided
    raised in it would be printed and dropped, so the guard's handler leaves those frames to the
    watcher's next signal."""
    import gc
    import sys
    import weakref
    from types import SimpleNamespace

    from solver.sat.budget import unraisable_at

    finalisers = []

    def release() -> None:  # what a finaliser calls (python-sat's __del__ calls delete)
        finalisers.append(sys._getframe())

    class Finalised:
        def __del__(self) -> None:
            finalisers.append(sys._getframe())
            release()

    Finalised()
    gc.collect()
    assert unraisable_at(finalisers[0])
    assert unraisable_at(finalisers[1])  # called from the finaliser: dropped there too
    removal = weakref.WeakKeyDictionary()._remove  # what the collector runs when a key dies
    assert unraisable_at(SimpleNamespace(f_code=removal.__code__))
    assert not unraisable_at(sys._getframe())
    assert not unraisable_at(None)
    timed = []

    def timing(phase: str, info: dict) -> None:  # a collector's callback, as Hypothesis registers one
        timed.append(sys._getframe())

    gc.callbacks.append(timing)
    try:
        gc.collect()
        assert timed and unraisable_at(timed[0])
    finally:
        gc.callbacks.remove(timing)
    assert not unraisable_at(timed[0])  # no longer the collector's
