"""A turn of a rummy game, solved: the plain partition, the ways to go out, the table turn.

:func:`solve_turn` picks the model a problem needs: with melds on the table and single-card
operations to play on them, one model of what the turn makes of each table meld and of the hand
(:mod:`solver.melding.turn.tableturn`);
with several ways to go out (routes), one partition model per route; else one partition model
(:class:`~solver.melding.turn.solver.TurnSolver`). Every answer is stamped with its time and SAT calls.
"""

from __future__ import annotations

from collections.abc import Sequence

from solver.core.errors import Undecided
from solver.core.gcpause import no_full_collections
from solver.melding.meld.checker import MeldChecker
from solver.melding.table.forms import search_bounds
from solver.melding.table.operations import Operation
from solver.melding.turn.routes import GoOutRoute
from solver.melding.turn.solver import Answer, Problem, TurnSolver, validate_problem
from solver.melding.turn.tableturn import TableTurn
from solver.sat.budget import Budget


def solve_turn(
    problem: Problem,
    checker: MeldChecker,
    question: str = "go-out",
    count: bool = False,
    limit: int = 1000,
    budget: Budget | None = None,
    routes: Sequence[GoOutRoute] = (),
    operations: Sequence[Operation] = (),
) -> Answer:
    """Answer ``go-out`` or ``best`` for a problem; ``count`` adds the number of distinct ways to go
    out (up to ``limit``). The turn is solved without the garbage collector's full collections
    (:mod:`solver.core.gcpause`)."""
    with no_full_collections():
        return _solve_turn(problem, checker, question, count, limit, budget or Budget(), routes, operations)


def _solve_turn(
    problem: Problem,
    checker: MeldChecker,
    question: str,
    count: bool,
    limit: int,
    budget: Budget,
    routes: Sequence[GoOutRoute],
    operations: Sequence[Operation],
) -> Answer:
    if problem.table and operations:
        return table_turn(problem, checker, question, count, budget, operations)
    if routes:
        return by_routes(problem, checker, question, count, limit, budget, routes)
    with TurnSolver(problem, checker, budget, compact=not count) as solver:
        answer = solver.best() if question == "best" else solver.go_out()
        if count and answer.solvable is not None:
            n, capped, stopped = solver.count_solutions(limit)
            if stopped:
                return _count_stopped(solver, question, n)
            answer.solutions, answer.solutions_capped = n, capped and n >= limit
        return solver._stamp(answer)


def table_turn(
    problem: Problem, checker: MeldChecker, question: str, count: bool, budget: Budget, operations: Sequence[Operation]
) -> Answer:
    """A turn with single-card table operations: one model of the table's forms and the hand
    (:class:`~solver.melding.turn.tableturn.TableTurn`); the ways to go out are not counted."""
    validate_problem(problem, checker)
    forms, cut = None, None
    try:
        with TableTurn(problem, checker, budget, operations) as solver:
            forms, cut = sum(map(len, solver.forms)), solver.forms_cut
            answer = solver.answer(question)
    except Undecided as stopped:
        answer = Answer(solvable=None, question=question, limit=budget.spent or stopped.limit or "time")
        answer.seconds = budget.elapsed
    answer.counted = not count
    answer.search = search_bounds(forms, cut, budget.deadline is not None)
    return answer


def by_routes(
    problem: Problem,
    checker: MeldChecker,
    question: str,
    count: bool,
    limit: int,
    budget: Budget,
    routes: Sequence[GoOutRoute],
) -> Answer:
    """A game with several ways to go out: the first route that goes out answers; if none does,
    the first route's best turn and why, with the requirements each route failed."""
    first_answer = None
    failed: list = []  # each route's requirements a way out failed
    total, capped = 0, False
    chosen = None
    for route in routes:
        with TurnSolver(problem, checker, budget, route=route) as solver:
            answer = solver.best() if question == "best" else solver.go_out()
            if answer.solvable is None:
                return answer
            answer.route = route.id
            if count:
                n, more, stopped = solver.count_solutions(limit)
                if stopped:
                    return _count_stopped(solver, question, total + n)
                total += n
                capped |= more and n >= limit
            failed += (answer.why or {}).get("requirements", [])
            if first_answer is None:
                first_answer = answer
            if answer.solvable and chosen is None:
                chosen = answer
    answer = chosen or first_answer
    if answer is None:
        raise ValueError("a turn is asked along at least one route")
    if chosen is None:
        answer.why = _requirements_failed(answer.why, failed)
    if count:
        answer.solutions, answer.solutions_capped = total, capped
    return answer


def _requirements_failed(why: dict | None, failed: list) -> dict | None:
    """The first route's why, naming the requirements that every route failed."""
    if not failed:
        return why
    return {**(why or {"no_meld": [], "core": []}), "requirements": failed}


def _count_stopped(solver: TurnSolver, question: str, found: int) -> Answer:
    """Out of budget while counting the ways out: undecided, with the ways found so far (at least
    that many)."""
    answer = solver._undecided(question)
    answer.solutions_at_least = found
    return answer
