"""A turn of a rummy game, solved: the plain partition, the ways to go out, the table turn.

:func:`solve_turn` picks the model a problem needs: with melds on the table and single-card
operations to play on them, the search over operations (:mod:`solver.melding.tablesearch`);
with several ways to go out (routes), one partition model per route; else one partition model
(:class:`~solver.melding.turn.TurnSolver`). Every answer is stamped with its time and SAT calls.
"""

from __future__ import annotations

from typing import Sequence

from solver.core.errors import MeldsError, Undecided
from solver.melding.checker import MeldChecker
from solver.melding.routes import GoOutRoute
from solver.melding.table import Operation, Table
from solver.melding.tablesearch import Step, TableTurnSolver
from solver.melding.turn import Answer, Play, Problem, TurnSolver, validate_problem
from solver.sat.budget import Budget
from solver.sat.solvers import MaxSat


def solve_turn(problem: Problem, checker: MeldChecker, question: str = "go-out", count: bool = False,
               limit: int = 1000, budget: Budget | None = None, routes: Sequence[GoOutRoute] = (),
               operations: Sequence[Operation] = ()) -> Answer:
    """Answer ``go-out`` or ``best`` for a problem; ``count`` adds the number of distinct ways to go
    out (up to ``limit``)."""
    budget = budget or Budget()
    if problem.table and operations:
        return table_turn(problem, checker, question, count, budget, operations)
    if routes:
        return by_routes(problem, checker, question, count, limit, budget, routes)
    with TurnSolver(problem, checker, budget) as solver:
        answer = solver.best() if question == "best" else solver.go_out()
        if count and answer.solvable is not None:
            n, capped = solver.count_solutions(limit)
            if n < 0:
                return solver._undecided(question)
            answer.solutions, answer.solutions_capped = n, capped and n >= limit
        return solver._stamp(answer)


def table_turn(problem: Problem, checker: MeldChecker, question: str, count: bool, budget: Budget,
               operations: Sequence[Operation]) -> Answer:
    """A turn with single-card table operations."""
    calls = [0, checker.sat_calls, MaxSat.calls]

    def count_calls(turn_solver) -> None:
        calls[0] += turn_solver.sat_calls
        turn_solver.sat_calls = 0

    try:
        validate_problem(problem, checker)
        search = TableTurnSolver(problem, checker, budget, count_calls, operations)
        node = search.solve()
        best = node.out if question == "go-out" and node.out is not None else node.any
        if best is None:
            raise MeldsError("impossible state: no turn is possible under the rules")
        answer = _table_answer(problem, best, question, node.out is not None)
        if question == "go-out" and node.out is None:
            answer.why = _table_why(problem, checker, search)
    except Undecided:
        answer = Answer(solvable=None, question=question)
    answer.counted = not count
    answer.seconds = budget.elapsed
    answer.sat_calls = calls[0] + checker.sat_calls - calls[1] + MaxSat.calls - calls[2]
    return answer


def _table_answer(problem: Problem, best, question: str, can_go_out: bool) -> Answer:
    finish = best.finish
    steps = list(best.steps)
    plays = [Play(s.played, s.reading, s.points, None) for s in steps if s.action == "meld"]
    plays += [Play(s.played, s.reading, s.points, s.table) for s in steps if s.action == "layoff"]
    discard, kept = None, []
    if finish is not None:
        for p in finish.melds:
            steps.append(Step("meld", None, None, p.faces, (), p.reading, None, p.points))
            plays.append(p)
        discard, kept = finish.discard, list(finish.kept)
    answer = Answer(solvable=not kept, question=question, plays=plays, discard=discard, kept=kept,
                    steps=steps)
    answer.score = {g.measure: (best.meld_points if g.measure == "meld_points" else best.hand_points)
                    for g in problem.ruleset.objective}
    if question == "go-out":
        answer.solvable = can_go_out
    answer.phase_after = problem.phase
    return answer


def _table_why(problem: Problem, checker: MeldChecker, search: TableTurnSolver) -> dict:
    """Cards that fit no new meld of the hand and no operation on the table."""
    hand = tuple(sorted(problem.hand))
    new_melds = search.new_melds(hand)
    fits = {f for faces, _, _ in new_melds for f in faces}
    table = Table(checker)
    own_possible = problem.has_melded or bool(new_melds)  # else forbidden operations stay so
    fits |= {f for move in table.moves(tuple(problem.table), hand, problem.phase, search.ops)
             if own_possible or move.op.before_own_meld != "forbidden" for f in move.played}
    return {"no_meld": sorted(set(hand) - fits), "core": []}


def by_routes(problem: Problem, checker: MeldChecker, question: str, count: bool, limit: int,
              budget: Budget, routes: Sequence[GoOutRoute]) -> Answer:
    """A game with several ways to go out: the first route that goes out answers; if none does,
    the first route's best turn and why."""
    first_answer = None
    total, capped = 0, False
    chosen = None
    for route in routes:
        with TurnSolver(problem, checker, budget, route=route) as solver:
            answer = solver.best() if question == "best" else solver.go_out()
            if answer.solvable is None:
                return answer
            answer.route = route.id
            if count:
                n, more = solver.count_solutions(limit)
                if n < 0:
                    return solver._undecided(question)
                total += n
                capped |= more and n >= limit
            if first_answer is None:
                first_answer = answer
            if answer.solvable and chosen is None:
                chosen = answer
    answer = chosen or first_answer
    if count:
        answer.solutions, answer.solutions_capped = total, capped
    return answer
