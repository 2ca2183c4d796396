"""The garbage collector's pauses: on for the block, restored after it whatever happens."""

from __future__ import annotations

import gc

import pytest

from solver.core.errors import Undecided
from solver.core.gcpause import NEVER, no_collections, no_full_collections


def test_no_full_collection_in_the_block_and_the_thresholds_restored_after():
    before = gc.get_threshold()
    with no_full_collections():
        assert gc.get_threshold() == before[:2] + (NEVER,) and gc.isenabled()  # young ones go on
        with no_full_collections():
            assert gc.get_threshold()[2] == NEVER
        assert gc.get_threshold()[2] == NEVER  # the inner block leaves the outer one as it was
    assert gc.get_threshold() == before


def test_the_young_collections_free_cyclic_garbage_in_the_block():
    class Node:
        pass

    with no_full_collections():
        gc.collect(0)
        for _ in range(10_000):  # a cycle each, freed only by the collector
            a, b = Node(), Node()
            a.other, b.other = b, a
        assert sum(isinstance(o, Node) for o in gc.get_objects()) < 2_000


def test_no_collections_in_the_block():
    assert gc.isenabled()
    with no_collections():
        assert not gc.isenabled()
        with no_collections():
            pass
        assert not gc.isenabled()
    assert gc.isenabled()


def test_the_collector_is_restored_when_the_budget_runs_out_in_the_block():
    before = gc.get_threshold()
    with pytest.raises(Undecided), no_full_collections(), no_collections():
        raise Undecided("time")
    assert gc.isenabled() and gc.get_threshold() == before


def test_a_collector_turned_off_by_the_caller_stays_off():
    gc.disable()
    try:
        with no_collections():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_table_turn_is_solved_without_full_collections(monkeypatch):
    from solver.core.registry import load_game
    from solver.core.ruleset import load_ruleset
    from solver.melding.table.operations import TableMeld
    from solver.melding.turn import tableturn
    from solver.melding.turn.problem import Problem

    seen = _full_threshold_when_called(monkeypatch, tableturn, "table_forms")
    rs = load_ruleset("fesca")
    faces = {f"{f.suit}{f.rank}": f for f in rs.deck.faces if f.rank}
    table = (TableMeld("B", (faces["金4"], faces["金5"], faces["金6"])),)
    answer = load_game(rs).answer_problem(
        Problem(rs, (faces["金7"], faces["水9"]), table, "normal", None, True, "yang"), "best"
    )
    assert seen == [NEVER] and gc.get_threshold()[2] != NEVER
    assert answer.solvable  # 金7 laid off on 金4 金5 金6, 水9 discarded


def test_the_command_lines_start_pause_ends_when_the_command_begins(monkeypatch):
    from solver.core import gcpause

    monkeypatch.setattr(gcpause, "_OWN_PROCESS", False)
    monkeypatch.setattr(gcpause, "_START_PAUSED", False)
    frozen = gc.get_freeze_count()
    gc.disable()  # as cli.run does before its imports
    try:
        gcpause.own_process()
        made_at_start = [[i] for i in range(1_000)]  # tracked objects the start leaves behind
        gcpause.start_done()
        assert gc.isenabled()
        assert gc.get_freeze_count() >= frozen + len(made_at_start)  # out of the collector's walks
        gc.disable()
        gcpause.start_done()  # once only: a later pause is someone else's
        assert not gc.isenabled()
    finally:
        gc.unfreeze()
        gc.enable()


def test_an_in_process_caller_keeps_its_collector_as_it_set_it(monkeypatch):
    from solver.core import gcpause

    monkeypatch.setattr(gcpause, "_OWN_PROCESS", False)
    monkeypatch.setattr(gcpause, "_START_PAUSED", False)
    gc.disable()
    try:
        gcpause.start_done()  # a test calling the command's function: not melds' own process
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_distance_is_searched_without_full_collections(monkeypatch):
    from solver.core.registry import load_game
    from solver.core.ruleset import load_ruleset
    from solver.melding.turn.distance import DistanceSearch

    seen = _full_threshold_when_called(monkeypatch, DistanceSearch, "distance")
    result = load_game(load_ruleset("basic-rummy")).solve({"hand": "H2 H3 H4 S9 D9 C9 SK", "distance": True})
    assert seen == [NEVER] and gc.get_threshold()[2] != NEVER
    assert result.data["distance"] == 0  # H2 H3 H4 and the three nines go out now, SK discarded


def _full_threshold_when_called(monkeypatch, owner, name: str) -> list[int]:
    """The full collection's threshold at each call of ``owner.name`` (NEVER: none in that call),
    the function itself still run."""
    seen: list[int] = []
    real = getattr(owner, name)

    def spy(*args, **kwargs):
        seen.append(gc.get_threshold()[2])
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, spy)
    return seen
