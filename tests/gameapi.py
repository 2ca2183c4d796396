"""Reaching a game through the Game protocol from the tests, as the command line does."""

from __future__ import annotations

from solver.core.registry import load_game
from solver.core.ruleset import Ruleset
from solver.melding.meld.checker import MeldChecker
from solver.melding.turn.solver import Answer, Problem


def solve(problem: Problem, question: str = "go-out", **budget) -> Answer:
    """A turn's answer from its ruleset's game (``count``, ``limit``, ``max_seconds``)."""
    return load_game(problem.ruleset).answer_problem(problem, question, **budget)


def checker(ruleset: Ruleset) -> MeldChecker:
    """The game's own meld checker (with the roles the game gates by the query's parameters)."""
    return load_game(ruleset).checker
