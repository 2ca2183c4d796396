"""The turn's objective paid to the cards (solver/melding/turn/shares.py) against the candidate model's
own objective (one soft clause a candidate meld, ``TurnModel.shares = False``), on random hands
too large for brute force: the same best value and the same answer to "can it go out?", every
meld of both answers legal by the plain checker (tests/oracle.py). A few hands by default, many
and larger under ``-m slow``.

The shares themselves are checked exactly: for every set of melds two of which share no card,
what the cards are paid is the melds' points. And the same for the sequence kinds laid out in
slots (solver/melding/meld/lines.py, used by the solver only when their candidates are thousands):
forced on small hands, against the candidate model and against brute force
(tests/test_solve_properties.py's property, every hand laid out).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from contextlib import contextmanager
from pathlib import Path

import oracle
import pytest
import test_solve_properties as properties
from hypothesis import given, settings
from profiles import examples

from solver.core.deck import Face
from solver.core.registry import load_game
from solver.core.ruleset import load_ruleset
from solver.melding.table.operations import TableMeld
from solver.melding.turn.model import TurnModel
from solver.melding.turn.shares import caps, one_of_pays, share_out
from solver.melding.turn.solver import Problem, TurnSolver

RULESETS = {"fesca": load_ruleset("fesca"), "basic-rummy": load_ruleset("basic-rummy")}
# hands past basic-rummy's deal (eleven cards at most): the variant whose turns take the discard pile whole
RULESETS["basic-rummy-pile"] = load_ruleset(str(Path(__file__).parent / "data" / "rulesets" / "basic-rummy-pile.yaml"))
WILD_CLASSES = {"陰陽", "空無", "太極"}
ORACLE_CACHE: dict = {name: {} for name in RULESETS}


class PerCandidate(TurnSolver):
    shares = False


class LaidOut(TurnSolver):
    """Every sequence kind the slots can hold laid out in slots, however few its candidates."""

    slot_limit = 0

    def __init__(self, problem, checker):
        super().__init__(problem, checker, compact=True)


def fesca_hand(rng: random.Random, size: int, wilds: int) -> tuple:
    faces = RULESETS["fesca"].deck.faces
    plain = [f for f in faces if f.cls not in WILD_CLASSES]
    wild = [f for f in faces if f.cls in WILD_CLASSES]
    return tuple(rng.sample(plain, size - wilds) + rng.sample(wild, wilds))


def rummy_problem(rng: random.Random, size: int, ruleset: str = "basic-rummy") -> Problem:
    """A Basic Rummy hand with a run of three on the table (the player's or another's)."""
    rs = RULESETS[ruleset]
    faces = rs.deck.faces
    suit, start = rng.choice(["S", "H", "D", "C"]), rng.randint(0, 8)
    ranks = [r.id for r in rs.deck.ranks][start : start + 3]
    meld = tuple(next(f for f in faces if f.suit == suit and f.rank == r) for r in ranks)
    hand = tuple(rng.sample([f for f in faces if f not in meld], size))
    owner = rng.choice(["me", "B"])
    return Problem(rs, hand, (TableMeld(owner, meld, owner == "me"),), "normal", None, rng.random() < 0.5)


def value(rs, answer) -> tuple:
    return tuple(answer.score[g.measure] if g.sense == "maximize" else -answer.score[g.measure] for g in rs.objective)


def legal(name: str, problem: Problem, answer) -> None:
    rs = RULESETS[name]
    used: Counter[Face] = Counter()
    for play in answer.plays:
        used.update(play.faces)
        whole = list(play.faces) if play.table is None else list(problem.table[play.table].faces) + list(play.faces)
        assert oracle.meld_value(rs, whole, problem.phase, ORACLE_CACHE[name]) is not None
    used.update(answer.kept)
    if answer.discard is not None:
        used[answer.discard] += 1
    assert used == Counter(problem.hand)


def compare(name: str, problem: Problem, rival=PerCandidate) -> None:
    checker = load_game(problem.ruleset).checker
    for question in ("best", "go-out"):
        answers = []
        for solver_class in (TurnSolver, rival):
            with solver_class(problem, checker) as solver:
                answer = solver.best() if question == "best" else solver.go_out()
            assert answer.solvable is not None
            legal(name, problem, answer)
            answers.append(answer)
        shared, per_candidate = answers
        assert shared.solvable == per_candidate.solvable
        assert value(problem.ruleset, shared) == value(problem.ruleset, per_candidate)


def fesca_problems(count: int, sizes: tuple[int, int], seed: int) -> list[Problem]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        size = rng.randint(*sizes)
        hand = fesca_hand(rng, size, rng.randint(0, min(10, size // 3)))
        out.append(Problem(RULESETS["fesca"], hand, phase=rng.choice([None, None, "yang", "yin"])))
    return out


@pytest.mark.parametrize("problem", fesca_problems(6, (12, 20), 1), ids=lambda p: f"{len(p.hand)}")
def test_fesca_shares_agree_with_the_candidate_objective(problem):
    compare("fesca", problem)


@pytest.mark.parametrize("seed", range(4))
def test_rummy_shares_agree_with_the_candidate_objective(seed):
    compare("basic-rummy", rummy_problem(random.Random(seed), 10))


@pytest.mark.slow  # a few minutes: hands of the benchmark's sizes, wilds up to ten
@pytest.mark.parametrize("problem", fesca_problems(30, (25, 45), 2), ids=lambda p: f"{len(p.hand)}")
def test_fesca_shares_agree_with_the_candidate_objective_at_size(problem):
    compare("fesca", problem)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(20))
def test_rummy_shares_agree_with_the_candidate_objective_at_size(seed):
    compare("basic-rummy-pile", rummy_problem(random.Random(100 + seed), 20, "basic-rummy-pile"))


@pytest.mark.parametrize("seed", range(30))
def test_cards_are_paid_the_points_of_the_melds_made(seed):
    rng = random.Random(seed)
    cards = list(range(rng.randint(3, 9)))
    melds = [
        (lit, rng.choice([0, 1, 2, 3, 4, 9, 32, 64]), rng.sample(cards, rng.randint(0, min(5, len(cards)))))
        for lit in range(1, rng.randint(2, 9))
    ]
    cap = caps(melds)
    for _, points, held in melds:
        assert not held or sum(cap[c] for c in held) >= points
    soft = share_out(melds)
    for size in range(len(melds) + 1):
        for made in itertools.combinations(melds, size):
            if any(set(a[2]) & set(b[2]) for a, b in itertools.combinations(made, 2)):
                continue
            true = {lit for lit, _, _ in made}
            paid = sum(w for clause, w in soft if true & set(clause))
            assert paid == sum(points for _, points, _ in made)


@pytest.mark.parametrize("seed", range(30))
def test_one_option_of_each_choice_is_paid_its_worth(seed):
    """Choices of which exactly one option is chosen (a table meld's forms, gaining or losing
    meld points): what the soft clauses satisfy, plus the offset, is the chosen options' worth,
    every combination tried; a choice has one soft clause a distinct value above its least."""
    rng = random.Random(seed)
    lits = itertools.count(1)
    choices = [
        [(next(lits), rng.choice([-3, -2, -1, 0, 0, 1, 2, 5])) for _ in range(rng.randint(1, 5))]
        for _ in range(rng.randint(1, 4))
    ]
    soft, offset = one_of_pays(choices)
    assert all(w > 0 for _, w in soft)
    assert len(soft) == sum(len({worth for _, worth in options}) - 1 for options in choices)  # one a distinct value
    for chosen in itertools.product(*choices):
        picked = {lit for lit, _ in chosen}
        true = picked | {-lit for options in choices for lit, _ in options if lit not in picked}
        paid = sum(w for clause, w in soft if true & set(clause))
        assert paid + offset == sum(worth for _, worth in chosen)


@pytest.mark.parametrize("problem", fesca_problems(12, (6, 16), 3), ids=lambda p: f"{len(p.hand)}")
def test_fesca_slots_agree_with_the_candidate_model(problem):
    compare("fesca", problem, LaidOut)


@pytest.mark.slow
@pytest.mark.parametrize("problem", fesca_problems(40, (20, 45), 4), ids=lambda p: f"{len(p.hand)}")
def test_fesca_slots_agree_with_the_candidate_model_at_size(problem):
    compare("fesca", problem, LaidOut)


@contextmanager
def laid_out():
    """Every solve of the block lays its sequence kinds out in slots, however few their candidates."""
    limit = TurnModel.slot_limit
    TurnModel.slot_limit = 0
    try:
        yield
    finally:
        TurnModel.slot_limit = limit


@settings(max_examples=examples(40), **properties.SETTINGS)  # the many more: _at_length, below (slow)
@given(properties.hands("fesca", 6))
def test_fesca_laid_out_turns_equal_brute_force(problem):
    with laid_out():
        properties.compare("fesca", problem)


@pytest.mark.slow
@settings(max_examples=examples(1500), **properties.SETTINGS)
@given(properties.hands("fesca", 7))
def test_fesca_laid_out_turns_equal_brute_force_at_length(problem):
    with laid_out():
        properties.compare("fesca", problem)
