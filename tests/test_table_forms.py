"""What a turn can make of each table meld (solver.melding.tableforms): the search of the forms,
cut short by its share of the turn's time, keeps every meld's latest finished walk, and every
form it keeps is a real one (issue 20: a table turn over budget answers with the best turn found)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from solver.core.registry import load_game
from solver.core.ruleset import load_ruleset
from solver.melding import tableforms
from solver.melding.table import Table, TableMeld
from solver.sat.budget import Budget

RS = load_ruleset("fesca")
GAME = load_game(RS)
OPS = tuple(op for op in GAME.rules.operations if op.effect != "recall")
TURNS = Path(__file__).resolve().parent.parent / "bench" / "data" / "table-turns.json"


def _turn(seed: int, number: int) -> tuple[tuple[TableMeld, ...], tuple]:
    """A fixed table turn of the bench (seed 3, turn 0: nine melds, whose forms grow over seven
    rounds as the cards taken from the table join what may be played)."""
    turn = next(t for t in json.loads(TURNS.read_text())["turns"] if (t["seed"], t["turn"]) == (seed, number))
    faces = RS.deck.faces
    table = tuple(TableMeld(owner, tuple(faces[i] for i in cards), owner == "me") for owner, cards in turn["table"])
    return table, tuple(faces[i] for i in turn["hand"])


def _shape(per_meld) -> set:
    return {(f.table, f.meld, f.played, f.taken, f.gain) for f in per_meld}


def _walks(table, hand, stop_at_call: int | None = None):
    """table_forms, with every walk of a meld recorded (round, meld, its forms); the walk number
    ``stop_at_call`` runs out of the share (as the clock would stop it there)."""
    walks: list[tuple[int, list]] = []
    walk = tableforms.forms_of

    def recorded(judge, t, *args, **kwargs):
        if stop_at_call is not None and len(walks) == stop_at_call:
            raise tableforms._Cut("time")
        forms = walk(judge, t, *args, **kwargs)
        walks.append((t, forms))
        return forms

    tableforms.forms_of = recorded
    try:
        return tableforms.table_forms(Table(GAME.checker), table, hand, "yang", OPS, Budget()), walks
    finally:
        tableforms.forms_of = walk


def _replays(form: tableforms.Form, meld: TableMeld, judge: Table) -> bool:
    """The form's path, one legal operation after another from the meld as it stood, ends in its
    layout, and what it plays and takes in all is the difference of the two."""
    current = meld
    for move in form.path:
        legal = judge.legal_with(current, "yang", OPS)(move.played[0])
        if not any(op == move.op and result == move.result for op, _, _, result, _ in legal):
            return False
        current = move.result
    before, after = Counter(meld.all_cards), Counter(current.all_cards)
    return (current == form.meld and sorted((after - before).elements()) == list(form.played)
            and sorted((before - after).elements()) == list(form.taken))


@pytest.mark.parametrize("stop", [4, 12, 30, 50])
def test_a_search_cut_short_keeps_each_melds_latest_finished_walk(stop):
    table, hand = _turn(3, 0)
    (complete_forms, _, cut), walks = _walks(table, hand)
    assert cut is None and len(walks) > stop
    (forms, extra, cut), _ = _walks(table, hand, stop_at_call=stop)
    assert cut == "time"
    round_, at = divmod(stop, len(table))
    for t, per_meld in enumerate(forms):
        if t < at:  # walked in the round cut short
            expected = walks[round_ * len(table) + t][1]
        elif round_ > 0:  # the round before
            expected = walks[(round_ - 1) * len(table) + t][1]
        else:  # no round finished: the meld as it is
            expected = [tableforms._unchanged(Table(GAME.checker), t, table[t])]
        assert _shape(per_meld) == _shape(expected), t
    judge = Table(GAME.checker)
    assert all(_replays(form, table[form.table], judge) for per_meld in forms for form in per_meld)
    # the forms kept are among the finished search's (a later round plays more cards: more forms)
    for kept, every in zip(forms, complete_forms):
        assert {(f.played, f.taken) for f in kept} <= {(f.played, f.taken) for f in every}
