"""A turn of a rummy game, solved: the plain partition, the ways to go out, the table turn.

:func:`solve_turn` picks the model a problem needs: with melds on the table and single-card
operations to play on them, one model of what the turn makes of each table meld and of the hand
(:mod:`solver.melding.turn.tableturn`);
with several ways to go out (routes), one partition model per route; else one partition model
(:class:`~solver.melding.turn.solver.TurnSolver`). Every answer is stamped with its time and SAT calls.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from solver.core.errors import Undecided
from solver.core.gcpause import no_full_collections
from solver.melding.meld.checker import MeldChecker
from solver.melding.meld.points import hand_points
from solver.melding.table.forms import search_bounds
from solver.melding.table.operations import Operation
from solver.melding.turn.firstmeld import first_meld_due
from solver.melding.turn.plain import fits
from solver.melding.turn.plainturn import PlainTurn
from solver.melding.turn.routecount import meets_route, shown_counts
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
    every_route: bool = False,
) -> Answer:
    """Answer ``go-out`` or ``best`` for a problem; ``count`` adds the number of distinct ways to go
    out (up to ``limit``); ``every_route``: ask every route whether it goes out, not only until
    one does. The turn is solved without the garbage collector's full collections
    (:mod:`solver.core.gcpause`), and under the budget's guard (:meth:`Budget.guarding`) unless
    it is a small plain hand's, whose few packings the budget is checked between."""
    budget = budget or Budget()
    refuted = False  # the plain turn has shown that no way out exists: the model shows the best turn instead
    plain = all(r.discards for r in routes)  # the plain turn knows no way out that discards nothing
    out_only = problem.ruleset.going_out_only_kinds  # it shows a way out only: its best turn may meld such kinds
    if plain and not (out_only and question != "go-out") and not count and not (problem.table and operations):
        try:  # a small plain hand's packings: few, looked at by Python that a one-shot timer can end
            with no_full_collections(), budget.alarm():
                turns = plain_turns(problem, checker, budget, routes) if plain_fits(problem, checker) else None
                if turns:
                    answer = _solve_turn(
                        problem, checker, question, False, limit, budget, routes, (), every_route, turns
                    )
                    if answer.solvable or not out_only:
                        return answer
                    refuted = answer.solvable is False  # every packing tried: the model need not ask again
        except Undecided as stopped:
            return _undecided(question, budget, stopped)
    try:  # the guard raises in whatever Python work is running at the deadline, not only in a solver call
        with no_full_collections(), budget.guarding():
            answer = _solve_turn(
                problem, checker, question, count, limit, budget, routes, operations, every_route, refuted=refuted
            )
            return first_meld_why(answer, problem, checker, budget, routes)
    except Undecided as stopped:
        return _undecided(question, budget, stopped)


def _undecided(question: str, budget: Budget, stopped: Undecided) -> Answer:
    """The answer of a turn whose budget ran out: undecided, with the limit reached."""
    answer = Answer(solvable=None, question=question, limit=budget.spent or stopped.limit or "time")
    answer.seconds = budget.elapsed
    return answer


def first_meld_why(
    answer: Answer, problem: Problem, checker: MeldChecker, budget: Budget, routes: Sequence[GoOutRoute] = ()
) -> Answer:
    """A hand that cannot go out only because of the first meld's minimum says so in ``why``: it
    would go out, along the same routes, once melded."""
    rule = first_meld_due(problem)
    if rule is None or answer.solvable is not False or answer.question != "go-out":
        return answer
    melded = replace(problem, has_melded=True)
    if routes:
        goes_out = by_routes(melded, checker, "go-out", False, 1, budget, routes).solvable
    else:
        with turn_solver(melded, checker, budget) as solver:
            goes_out = solver.go_out(why_cards=False).solvable
    if goes_out:
        answer.why = {**(answer.why or {}), "first_meld": [rule]}
    return answer


def plain_fits(problem: Problem, checker: MeldChecker) -> bool:
    """The plain turn (:func:`~solver.melding.turn.plain.fits`) may answer: it knows no first meld's
    minimum. (Nor kinds only a way out may make, ``going_out_only``: with them its way out stands,
    but a turn that does not go out is the model's.)"""
    return first_meld_due(problem) is None and fits(problem, checker)


def plain_turns(
    problem: Problem, checker: MeldChecker, budget: Budget, routes: Sequence[GoOutRoute]
) -> list[PlainTurn] | None:
    """The plain turn (:func:`~solver.melding.turn.plain.fits`) of each route (one turn without
    routes), when each has few packings (:mod:`~solver.melding.turn.plain`); else None."""
    rule = problem.turn_rule()
    asked: Sequence[GoOutRoute | None] = routes or [None]
    turns = [PlainTurn(problem, checker, budget, route, rule) for route in asked]
    for turn in turns:
        if not turn.packed.plain:
            return None
    return turns


def _solve_turn(
    problem: Problem,
    checker: MeldChecker,
    question: str,
    count: bool,
    limit: int,
    budget: Budget,
    routes: Sequence[GoOutRoute],
    operations: Sequence[Operation],
    every_route: bool = False,
    plain: Sequence[PlainTurn] = (),
    refuted: bool = False,
) -> Answer:
    """``plain``: the turn is a small plain hand's with few packings, its plain turn for each route
    (:func:`plain_turns`); ``refuted``: no way out exists (the plain turn tried every packing)."""
    if problem.table and operations:
        return table_turn(problem, checker, question, count, budget, operations)
    if routes:
        return by_routes(problem, checker, question, count, limit, budget, routes, every_route, plain, refuted)
    asked = (
        plain[0] if plain else turn_solver(problem, checker, budget, compact=not count, count=count, refuted=refuted)
    )
    with asked as solver:
        answer = solver.best() if question == "best" else solver.go_out()
        if count and answer.solvable is not None:
            assert isinstance(solver, TurnSolver)  # ways are counted on the model (turn_solver)
            n, capped, stopped = solver.count_solutions(limit)
            if stopped:
                return _count_stopped(solver, question, n)
            answer.solutions, answer.solutions_capped = n, capped and n >= limit
        return solver._stamp(answer)


def turn_solver(
    problem: Problem,
    checker: MeldChecker,
    budget: Budget,
    route: GoOutRoute | None = None,
    compact: bool = False,
    count: bool = False,
    refuted: bool = False,
) -> TurnSolver | PlainTurn:
    """The solver of a turn without table operations: a small plain hand's packings, looked at
    one by one (:mod:`~solver.melding.turn.plain`), or the turn model; the ways to go out are
    counted on the model. ``refuted``: no way out exists, as the model is told."""
    plain = (route is None or route.discards) and not problem.ruleset.going_out_only_kinds
    if not count and plain and plain_fits(problem, checker):
        turn = PlainTurn(problem, checker, budget, route)
        if turn.packed.plain:
            return turn
    solver = TurnSolver(problem, checker, budget, route=route, compact=compact)
    solver.goal_refuted = refuted
    return solver


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
        answer = _undecided(question, budget, stopped)
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
    every_route: bool = False,
    plain: Sequence[PlainTurn] = (),
    refuted: bool = False,
) -> Answer:
    """A game with several ways to go out: the first route that goes out answers; if none does,
    the first route's best turn and why, with the requirements each route failed. Each route asked
    is recorded (``routes_open``); with ``every_route`` all are asked. ``plain``: each route's plain
    turn (:func:`plain_turns`); ``refuted``: no route goes out (the plain turns tried every packing)."""
    first_answer = None
    failed: list = []  # each route's requirements a way out failed
    total, capped = 0, False
    chosen = None
    opened: dict[str, bool | None] = {}
    for i, route in enumerate(routes):
        if chosen is not None and not every_route and not count:
            break
        asked = plain[i] if plain else turn_solver(problem, checker, budget, route=route, count=count, refuted=refuted)
        with asked as solver:
            # a later route's turn is shown only when it goes out: one that does not tells only
            # the requirements it failed, so its best turn is not built
            later = first_answer is not None and not count and question != "best"
            if later and isinstance(solver, PlainTurn) and not solver.goes_out():
                opened[route.id] = False
                failed += solver.requirements_failed()
                continue
            answer = solver.best() if question == "best" else solver.go_out(why_cards=first_answer is None)
            if answer.solvable is None:
                opened[route.id] = None
                answer.routes_open = opened
                return answer
            answer.route = route.id
            if question == "best":
                answer = _best_along(solver, answer, problem, checker, route)
            opened[route.id] = solver.goes_out() if question == "best" and every_route else answer.solvable
            if count:
                assert isinstance(solver, TurnSolver)  # ways are counted on the model (turn_solver)
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
    answer.routes_open = opened
    if chosen is None:
        answer.why = _requirements_failed(answer.why, failed)
    if count:
        answer.solutions, answer.solutions_capped = total, capped
    return answer


def _best_along(
    solver: TurnSolver | PlainTurn, best: Answer, problem: Problem, checker: MeldChecker, route: GoOutRoute
) -> Answer:
    """The best turn judged by the route it was asked along: one that places every card but fails
    the route's requirements gives way to a way out as good (:func:`_best_going_out`); one that keeps
    cards goes out when the route lets it keep them (a knock within its limit)."""
    meets = _shown_turn_meets(best, problem, checker, route)
    if best.solvable and not meets:
        return _best_going_out(solver, best)
    if best.solvable is False and best.kept and meets:
        best.solvable = True
    return best


def _best_going_out(solver: TurnSolver | PlainTurn, best: Answer) -> Answer:
    """The best turn shown places every card but fails the route's requirements: a way out as good
    by the objective stands in for it, else it is shown as a turn that does not go out."""
    out = solver.go_out(why_cards=False)
    if out.solvable and out.score == best.score:
        out.question, out.route = "best", best.route
        return out
    best.solvable = False
    return best


def _shown_turn_meets(answer: Answer, problem: Problem, checker: MeldChecker, route: GoOutRoute) -> bool:
    """Does the best turn shown go out by the route (a turn that places every card may still fail
    its requirements)? Lay-offs count toward no requirement; the melds already shown do."""
    made = [play.reading for play in answer.plays if play.table is None]
    shown = shown_counts(problem.shown, checker, problem.params)
    kept = hand_points(problem.ruleset, answer.kept, problem.params) if answer.kept else 0
    return meets_route(route, made, shown, kept, bool(answer.kept))


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
