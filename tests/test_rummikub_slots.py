"""The compact slot model against the candidate-set model and the MeldChecker, under every option
of the Rummikub ruleset (run-wrap, more jokers, more copies, a higher initial meld, no jokers):

* the direct set reader (arrange.laid.read_laid) says legal exactly when ``melds check`` does, with the same
  best value;
* an undecided turn (the budget out) keeps the best arrangement found and the bounds it proves;
* on random reachable positions both turn models agree on the best turn (tiles placed, value
  placed) and on going out, for players who have melded and for the initial meld; every
  arrangement the slot model gives is re-checked set by set with the MeldChecker, tile by tile
  against the table and the rack.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter

import pytest
from clirun import ROOT, run
from profiles import examples

from solver.core.errors import Undecided
from solver.core.registry import load_game
from solver.core.ruleset import load_ruleset
from solver.melding.arrange import slotturns as tables
from solver.melding.arrange.laid import MeldCatalogue as SetCatalogue
from solver.melding.arrange.solve import solve_turn
from solver.sat.solvers import SatSolver

VARIANTS = [
    {},
    {"wrap": True},
    {"jokers": 4},
    {"tile-copies": 3},
    {"jokers": 3, "wrap": True},
    {"initial-meld": 50},
    {"jokers": 0},
    {"tile-copies": 1, "jokers": 1},
]
IDS = ["standard", "wrap", "jokers-4", "copies-3", "jokers-3-wrap", "initial-50", "no-jokers", "copies-1"]


def game_of(options: dict):
    return load_game(load_ruleset("rummikub", options))


def tiles_of(game) -> tuple[list, object]:
    copies = game.ruleset.deck.copies
    box = [f for f, n in copies.items() for _ in range(n)]
    joker = next((f for f in copies if f.rank is None), None)
    return box, joker


def random_set(rng: random.Random, game, joker) -> list:
    """A likely set: a group or a run (round the corner too), sometimes with jokers."""
    faces = {(f.suit, f.rank): f for f in game.ruleset.deck.copies if f.rank is not None}
    colours = sorted({s for s, _ in faces})
    ranks = [str(n) for n in range(1, 14)]
    if rng.random() < 0.5:
        rank = rng.choice(ranks)
        tiles = [faces[(c, rank)] for c in rng.sample(colours, rng.choice([3, 4]))]
    else:
        colour, length, start = rng.choice(colours), rng.randint(3, 6), rng.randrange(13)
        tiles = [faces[(colour, ranks[(start + i) % 13])] for i in range(length)]
    if joker is not None:
        for _ in range(rng.choice([0, 0, 1, 2])):
            tiles[rng.randrange(len(tiles))] = joker
    return tiles


def position(rng: random.Random, game, table_tiles: int, rack_tiles: int):
    box, joker = tiles_of(game)
    left = Counter(box)
    table: list[list] = []
    for _ in range(200):
        if sum(len(s) for s in table) >= table_tiles:
            break
        tiles = random_set(rng, game, joker)
        need = Counter(tiles)
        if all(left[f] >= n for f, n in need.items()) and game.checker.check(tiles, explain=False).legal:
            left -= need
            table.append(tiles)
    rest = list(left.elements())
    on_table = {f.suit for s in table for f in s} | {f.rank for s in table for f in s}
    near = [f for f in rest if f.rank is None or f.suit in on_table or f.rank in on_table]
    pool = near if len(near) >= rack_tiles and rng.random() < 0.7 else rest
    return rng.sample(pool, min(rack_tiles, len(pool))), table


def verify(game, hand, table, answer, melded: bool) -> None:
    """Every set legal by the MeldChecker; the table after = the table before + the tiles placed,
    which came from the rack; before the initial meld the old sets stand as they were."""
    after = [list(s.faces) for s in answer.table]
    assert all(game.checker.check(s, explain=False).legal for s in after), after
    before = Counter(f for s in table for f in s)
    placed = Counter(answer.placed)
    assert Counter(f for s in after for f in s) == before + placed
    assert not placed - Counter(hand)
    if not melded:
        old = Counter(tuple(sorted(f.index for f in s)) for s in table)
        assert not old - Counter(tuple(sorted(f.index for f in s)) for s in after)
        new_value = sum(s.value for s in answer.new_melds)
        assert not answer.placed or new_value >= game.ruleset.initial_meld.points


def compare(options: dict, seed: int, table_tiles: int, rack_tiles: int) -> None:
    game = game_of(options)
    rng = random.Random(seed)
    hand, table = position(rng, game, table_tiles, rack_tiles)
    melded = seed % 3 != 0
    args = (game.catalogue, hand, table if melded else table[:2], melded, game.ruleset.initial_meld.points)
    table = args[2]
    ours = solve_turn(*args, "best")
    theirs = solve_turn(*args, "best", by_candidates=True)
    key = (len(ours.placed), ours.value_placed, ours.found)
    assert key == (len(theirs.placed), theirs.value_placed, theirs.found), (options, hand, table, melded)
    verify(game, hand, table, ours, melded)
    out = solve_turn(*args, "go-out")
    assert out.found == ours.found, (options, hand, table, melded)
    if out.found:
        verify(game, hand, table, out, melded)


@pytest.mark.parametrize("options", VARIANTS, ids=IDS)
@pytest.mark.parametrize("seed", range(examples(2)))
def test_the_slot_model_agrees_with_the_candidate_model(options, seed):
    compare(options, seed, 9, 5)


@pytest.mark.slow
@pytest.mark.parametrize("options", VARIANTS, ids=IDS)
@pytest.mark.parametrize("seed", range(100, 100 + examples(60)))
def test_the_slot_model_agrees_with_the_candidate_model_at_length(options, seed):
    compare(options, seed, random.Random(seed).randint(3, 18), random.Random(-seed).randint(2, 8))


@pytest.mark.parametrize("options", VARIANTS, ids=IDS)
def test_the_set_reader_agrees_with_melds_check(options):
    """Sets read directly (the slot model's rulesets) against the MeldChecker: legal the same,
    laid out for the same value."""
    game = game_of(options)
    assert game.catalogue.shape is not None
    by_checker = SetCatalogue(game.ruleset, game.checker)
    by_checker.shape = None
    rng = random.Random(7)
    box, joker = tiles_of(game)
    legal = 0
    for _ in range(examples(250)):
        tiles = random_set(rng, game, joker) if rng.random() < 0.6 else rng.sample(box, rng.randint(1, 6))
        if rng.random() < 0.3:  # break it a little
            tiles[rng.randrange(len(tiles))] = rng.choice(box)
        if any(n > game.ruleset.deck.copies[f] for f, n in Counter(tiles).items()):
            continue
        ours, theirs = game.catalogue.lookup(tiles), by_checker.lookup(tiles)
        assert (ours is None) == (theirs is None), (options, tiles)
        if ours is not None:
            legal += 1
            assert ours.value == theirs.value, (options, tiles)
    assert legal > examples(250) // 10


HAND, TABLE = "r10 r11 J k2 b3", ["all: r7 r8 r9", "all: k5 b5 o5"]


def test_an_undecided_turn_says_what_it_knows():
    """Out of time before any answer: exit 3, undecided, and the bounds known (none placed yet,
    at most the whole rack)."""
    args = ["solve", "-r", "rummikub", "--hand", HAND, "--has-melded", "--best", "--max-seconds", "0.000001"]
    for s in TABLE:
        args += ["--table", s]
    result = run(*args, "--json")
    data = json.loads(result.stdout)
    assert result.exit_code == 3 and data["undecided"] and data["solvable"] is None
    assert data["bounds"] == {"tiles_placed": {"at_least": 0, "at_most": 5}, "value_placed": None}
    assert "at most 5" in run(*args).stdout


class StopsWhileBuilt(SatSolver):
    def __init__(self, *args, **kwargs):
        raise Undecided  # as the budget's guard raises in Python work at the deadline


@pytest.mark.parametrize("by_candidates", [False, True])
def test_a_deadline_met_while_the_model_is_built_is_an_undecided_answer(monkeypatch, by_candidates):
    """The guard's deadline can fall in any Python work, the making of the live solver included
    (a loaded machine, a tiny --max-seconds): the answer is still the turn's undecided answer with
    what it knows, not an error without the answer's keys."""
    monkeypatch.setattr(tables, "SatSolver", StopsWhileBuilt)
    monkeypatch.setattr("solver.melding.arrange.solve.solve_by_candidates", _stops_at_once)
    game = game_of({})
    catalogue = SetCatalogue(game.ruleset, game.checker)  # its own live solver, never kept by the game
    hand = game.notation.parse_many(HAND)
    table = [game.notation.parse_many(s.split(":")[1]) for s in TABLE]
    for question in ("best", "go-out"):
        answer = solve_turn(catalogue, hand, table, True, 30, question, by_candidates=by_candidates)
        assert answer.found is None and answer.placed == [] and answer.kept == hand
        assert [list(m.faces) for m in answer.table] == table  # the table as it was
        assert answer.bounds == (None if question == "go-out" else tables.Bounds((0, len(hand)), None))


def _stops_at_once(*args, **kwargs):
    raise Undecided


class StopsAtThirdCall(SatSolver):
    def solve(self, assumptions=(), budget=None):
        if self.calls >= 2:
            self.calls += 1
            raise Undecided
        return super().solve(assumptions, budget)


def test_a_turn_cut_short_keeps_the_best_arrangement_found(monkeypatch):
    """The time runs out after a first arrangement (the whole rack refuted, then one model): the
    answer is that arrangement, legal, with the bounds it proves."""
    monkeypatch.setattr(tables, "SatSolver", StopsAtThirdCall)
    game = game_of({})
    catalogue = SetCatalogue(game.ruleset, game.checker)  # its own live solver
    hand = game.notation.parse_many(HAND)
    table = [game.notation.parse_many(s.split(":")[1]) for s in TABLE]
    answer = solve_turn(catalogue, hand, table, True, 30, "best")
    assert answer.found is None and answer.bounds.value is None
    assert answer.bounds.cards == (len(answer.placed), 4)  # all five refuted by the first call
    verify(game, hand, table, answer, True)
    # the game's own catalogue (shared by every load of the ruleset) must not make its live solver
    # while the stand-in is patched in: it would keep it, and later tests would get cut short too
    monkeypatch.undo()
    assert len(solve_turn(game.catalogue, hand, table, True, 30, "best").placed) == 3  # k2 and b3 stay


def test_a_solver_made_afresh_answers_the_same(monkeypatch):
    """Past turns' variables pile up in a live solver; past a limit it is made afresh."""
    game = game_of({})
    hand = game.notation.parse_many(HAND)
    table = [game.notation.parse_many(s.split(":")[1]) for s in TABLE]
    kept = solve_turn(game.catalogue, hand, table, True, 30, "best")
    monkeypatch.setattr(tables, "RETIRE", 0)
    catalogue = SetCatalogue(game.ruleset, game.checker)
    answers = [solve_turn(catalogue, hand, table, True, 30, "best") for _ in range(3)]
    assert {(len(a.placed), a.value_placed) for a in answers} == {(len(kept.placed), kept.value_placed)}


def test_the_bench_runs():
    """bench/rummikub (its figures are for the closing notes): one small size, through --batch too."""
    pytest.importorskip("rummikub_solver")
    out = subprocess.run(
        [sys.executable, "-m", "bench.rummikub", "--per-size", "1", "--sizes", "10", "--batch"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    head, row = out.stdout.splitlines()[-2:]
    assert head.split()[:3] == ["tiles", "melds", "s"] and row.split()[0] == "10" and row.split()[-1] == "0"
