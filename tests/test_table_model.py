"""The table turn as one model agrees with an exhaustive search of every order of single-card
operations (tests/table_search_oracle.py, the search melds used before): the same best value,
and going out exactly when the search can, on random small tables."""

from __future__ import annotations

import random
from collections import Counter
from contextlib import nullcontext
from dataclasses import replace

import pytest
from gameapi import solve
from hypothesis import given, settings
from profiles import examples
from replay import replay
from table_search_oracle import TableTurnSolver
from test_table_turns import RS, SETTINGS, _value, table_problems
from test_turn_shares import laid_out  # every sequence kind laid out in slots, as large tables have them

from solver.core.errors import MeldsError
from solver.melding.meld.checker import MeldChecker
from solver.sat.budget import Budget

CHECKER = MeldChecker(RS)


def _operations():
    from solver.core.registry import load_game

    return load_game(RS).rules.operations


def search(problem):
    """The exhaustive search's best value and whether it goes out (None: no turn at all)."""
    node = TableTurnSolver(problem, CHECKER, Budget(), lambda solver: None, _operations()).solve()
    return node


def agrees(problem) -> None:
    try:
        node = search(problem)
    except MeldsError:
        with pytest.raises(MeldsError):
            solve(problem, "best")
        return
    if node.any is None:
        with pytest.raises(MeldsError):
            solve(problem, "best")
        return
    best = solve(problem, "best")
    assert replay(problem, best) == []
    assert _value(best) == node.any.value
    out = solve(problem, "go-out")
    assert bool(out.solvable) == (node.out is not None)
    if out.solvable:
        assert replay(problem, out) == []


@settings(max_examples=examples(8), **SETTINGS)  # the many more: _at_length, below (slow)
@given(table_problems())
def test_one_model_equals_the_exhaustive_search(problem):
    agrees(problem)


@pytest.mark.slow  # the same on many more tables
@settings(max_examples=examples(400), **SETTINGS)
@given(table_problems())
def test_one_model_equals_the_exhaustive_search_at_length(problem):
    agrees(problem)


@settings(max_examples=examples(25), **SETTINGS)
@given(table_problems())
def test_new_melds_laid_out_in_slots_equal_the_exhaustive_search(problem):
    with laid_out():
        agrees(problem)


@pytest.mark.slow
@settings(max_examples=examples(300), **SETTINGS)
@given(table_problems())
def test_new_melds_laid_out_in_slots_equal_the_exhaustive_search_at_length(problem):
    with laid_out():
        agrees(problem)


def _ring_problems(seed: int, count: int, first: int = 0):
    """Tables of four to six melds and a hand of five to seven cards after one's own meld: where
    the chosen table forms trade cards around and an order of them can fail. The COUNT tables of
    SEED from the FIRST on (a default test takes the first few, its slow twin the rest)."""
    from test_table_turns import _melds

    from bench.table_turns import deal_table
    from solver.melding.turn.problem import Problem

    rng = random.Random(seed)
    for made in range(count):
        melds = rng.randint(4, 6)
        table, hand = deal_table(RS, _melds(), rng, rng.randint(5, 7), full=lambda t, melds=melds: len(t) >= melds)
        phase = rng.choice(["yang", "yin"])
        if made >= first:
            yield Problem(RS, hand, table, "normal", None, True, phase)


def _same_best_turn(name: str, plain, mattered, seed: int, count: int, first: int = 0) -> int:
    """The best turn with ``TableTurn.<name>`` as it is equals the one found with ``plain`` in
    its place, on ring tables; returns how many of the real method's answers ``mattered``."""
    from solver.melding.turn import tableturn

    real = getattr(tableturn.TableTurn, name)
    hits = 0

    def counted(self, *args):
        nonlocal hits
        found = real(self, *args)
        hits += mattered(found, *args)
        return found

    for problem in _ring_problems(seed, count, first):
        answers = []
        for method in (counted, plain):
            setattr(tableturn.TableTurn, name, method)
            try:
                answers.append(solve(problem, "best"))
            finally:
                setattr(tableturn.TableTurn, name, real)
        best, other = answers
        assert replay(problem, best) == []
        assert _value(best) == _value(other), problem
    return hits


def _deadlock_agrees(seed: int, count: int) -> int:
    """The general nogood of a failed order against forbidding only whole choices of forms
    (TableTurn._deadlock returning every meld's form); returns how many nogoods were smaller."""
    return _same_best_turn(
        "_deadlock",
        lambda self, every: [lit for _, lit in every],
        lambda core, every: len(core) < len(every),
        seed,
        count,
    )


def test_a_general_nogood_of_a_failed_order_keeps_the_optimum():
    _deadlock_agrees(3, 4)


@pytest.mark.slow
def test_a_general_nogood_of_a_failed_order_keeps_the_optimum_at_length():
    assert _deadlock_agrees(17, 60) > 0, "no order failed: the test did not reach the nogood"


def _borrowing_agrees(seed: int, count: int, first: int = 0) -> int:
    """The clauses of cards a form borrows (TableTurn._borrow_clauses, added at the first failed
    order) against none; returns how many turns added them."""
    return _same_best_turn("_borrow_clauses", lambda self: [], lambda clauses: 1, seed, count, first)


def test_the_cards_a_form_borrows_keep_the_optimum():
    # the one of seed 7's first twelve tables whose order fails (the twelfth); the others: slow
    assert _borrowing_agrees(7, 12, first=11) > 0, "no order failed: the test did not reach the clauses"


def _written_out(turn) -> list[list[int]]:
    """The clauses of cards forms borrow, each listing every other meld's form that passes the
    card (as they were first written)."""
    hand = Counter(turn.problem.hand)
    clauses = []
    for t, per_meld in enumerate(turn.form_lits):
        for form, lit in per_meld:
            for face in form.borrows(hand):
                clauses.append(
                    [-lit]
                    + [
                        other
                        for u, theirs in enumerate(turn.form_lits)
                        if u != t
                        for their, other in theirs
                        if face in their.passes
                    ]
                )
    return clauses


def test_a_borrowed_card_through_one_literal_means_the_clauses_written_out():
    """The clauses of cards a form borrows, a card many forms borrow going through one literal
    ("a meld other than this one passes it"), allow exactly the choices of forms the clauses
    written out allow: each written-out clause follows from them, and every choice the written-out
    clauses allow (models of them on random assumptions) extends to a model of them."""
    from pysat.solvers import Minisat22

    from solver.melding.turn.tableturn import TableTurn

    rng = random.Random(5)
    through = 0
    for problem in _ring_problems(7, 6):
        turn = TableTurn(problem, CHECKER, Budget(), _operations())
        turn._build()
        compact, plain = turn._borrow_clauses(), _written_out(turn)
        form_lits = [lit for per_meld in turn.form_lits for _, lit in per_meld]
        top = max(form_lits)
        through += len({abs(lit) for clause in compact for lit in clause if abs(lit) > top})
        assert sum(map(len, compact)) <= sum(map(len, plain))
        one_per_meld = [[lit for _, lit in per_meld] for per_meld in turn.form_lits]
        with Minisat22(bootstrap_with=compact + one_per_meld) as solver:
            for clause in plain:
                assert not solver.solve(assumptions=[-lit for lit in clause]), clause
        with (
            Minisat22(bootstrap_with=plain + one_per_meld) as plain_solver,
            Minisat22(bootstrap_with=compact) as solver,
        ):
            for _ in range(20):
                if not plain_solver.solve(assumptions=[rng.choice([lit, -lit]) for lit in rng.sample(form_lits, 5)]):
                    continue
                chosen = set(plain_solver.get_model())
                assert solver.solve(assumptions=[lit if lit in chosen else -lit for lit in form_lits])
    assert through > 0, "no card went through a literal: the test did not reach the compact clauses"


def _cards_apart_follow(problems) -> int:
    """Each clause of cards no turn can take from the table at once (TableTurn._apart_clauses)
    follows from the turn's clauses without it: both cards taken at once is unsatisfiable. Returns
    how many clauses were checked."""
    from pysat.solvers import Minisat22

    from solver.melding.turn.tableturn import TableTurn

    checked = 0
    for problem in problems:
        turn = TableTurn(problem, CHECKER, Budget(), _operations())
        apart = turn._apart_clauses
        turn._apart_clauses = lambda: []  # type: ignore[method-assign]  # the model without them
        turn._build()
        with Minisat22(bootstrap_with=turn.clauses) as solver:
            for clause in apart():
                assert not solver.solve(assumptions=[-lit for lit in clause]), clause
                checked += 1
    return checked


def test_cards_apart_follow_from_the_model_without_them():
    # the two of seed 11's first ten tables with cards apart (the sixth and the seventh)
    assert _cards_apart_follow(_ring_problems(11, 7, first=5)) > 0, "no cards apart: the test did not reach the clauses"


@pytest.mark.slow
def test_cards_apart_follow_from_the_model_without_them_on_every_table():
    assert _cards_apart_follow(_ring_problems(11, 10)) > 0


@pytest.mark.slow
def test_the_cards_a_form_borrows_keep_the_optimum_at_length():
    _borrowing_agrees(7, 11)  # the default test's seed, its tables before the twelfth
    assert _borrowing_agrees(19, 60) > 0, "no order failed: the test did not reach the clauses"


def test_a_form_borrows_what_it_plays_before_it_has_it():
    """A wild played by 抜き札 and taken back by 差し札 is in neither its played nor its taken
    cards, yet its path needs one in hand at that step."""
    from solver.melding.table.forms import Form
    from solver.melding.table.operations import Move, Operation

    natural, other, wild = RS.deck.faces[0], RS.deck.faces[1], RS.deck.faces[-1]
    op = Operation("op", "op", "replace-natural", "allowed", "never", None, None, None, None, None)
    path = (Move(op, 0, (wild,), (natural,), None, None), Move(op, 0, (other,), (wild,), None, None))
    form = Form(0, None, None, path, (other,), (natural,), 0, frozenset())
    assert form.borrows(Counter([other])) == {wild}
    assert form.borrows(Counter([other, wild])) == set()
    assert form.borrows(Counter()) == {wild, other}  # the natural taken first is no help: it is another card
    assert form.passes == {natural, wild}


def test_a_card_taken_back_from_a_meld_may_be_played_on_it_again():
    """木11 laid on the chain by 付け抜き札 (taking 空無木), taken back by 抜き札 with that 空無木,
    then buried on it (埋め潰し): the hand keeps nothing but the discard. The forms of a meld once
    played only the hand's cards, so this turn (found by the slow differential) was missed."""
    from solver.core.notation import Notation
    from solver.melding.table.operations import TableMeld
    from solver.melding.turn.problem import Problem

    notation = Notation.for_deck(RS.deck)
    problem = Problem(
        RS,
        tuple(notation.parse_many("木11 木1")),
        (TableMeld("me", tuple(notation.parse_many("空無水 空無金 陰陽1 火2 空無木")), True),),
        "normal",
        None,
        True,
        "yang",
    )
    agrees(problem)
    assert solve(problem, "best").score["hand_points"] == 0


def _slots_agree(seed: int, count: int, first: int = 0) -> int:
    """On larger tables (four to six melds, five to seven cards, the ring problems above) the turn
    with every sequence kind laid out in slots is as good as the one with every candidate named,
    and replays; returns how many of the best turns made a meld in slots."""
    from solver.melding.turn import slots

    made = 0
    for problem in _ring_problems(seed, count, first):
        named = solve(problem, "best")
        named_out = solve(problem, "go-out")
        stretches: list[int] = []
        melds = slots.LaidOut.melds

        def counted(self, true, melds=melds, stretches=stretches):
            found = melds(self, true)
            stretches.append(len(found))
            return found

        slots.LaidOut.melds = counted  # type: ignore[method-assign]  # counted, then put back
        try:
            with laid_out():
                slotted = solve(problem, "best")
                out = solve(problem, "go-out")
        finally:
            slots.LaidOut.melds = melds  # type: ignore[method-assign]
        assert replay(problem, slotted) == []
        assert _value(slotted) == _value(named), problem
        assert bool(out.solvable) == bool(named_out.solvable), problem
        made += bool(stretches and stretches[-1])
    return made


def test_new_melds_laid_out_in_slots_equal_the_named_candidates_on_larger_tables():
    # the third of seed 5's tables, whose best turn lays a meld out in slots; the first two: slow
    assert _slots_agree(5, 3, first=2) > 0, "no meld was laid out in slots: the test did not reach them"


@pytest.mark.slow
def test_new_melds_laid_out_in_slots_equal_the_named_candidates_on_larger_tables_at_length():
    _slots_agree(5, 2)  # the default test's seed, its tables before the third
    assert _slots_agree(23, 80) > 0


def test_a_meld_with_too_many_layouts_is_undecided_with_the_best_turn_found_and_says_which_limit(monkeypatch):
    """The bound on the layouts one table meld may reach in a turn (tableforms.MAX_LAYOUTS) stops the
    search of the forms as its share of the time does: the turn is still answered, over the
    forms found, undecided, with a turn that replays, and the answer names that limit, not the time."""
    from solver.melding.table import forms as tableforms

    problem = next(_ring_problems(3, 1))
    monkeypatch.setattr(tableforms, "MAX_LAYOUTS", 1)
    answer = solve(problem, "best")
    assert answer.solvable is None and answer.partial and answer.limit == "layouts"
    assert answer.bound is None  # over some forms only: nothing proved
    assert replay(problem, answer) == []
    monkeypatch.undo()
    assert tableforms.MAX_LAYOUTS > 4000
    assert _value(solve(problem, "best")) >= _value(answer)


def test_under_a_deadline_the_layouts_guard_does_not_end_the_search(monkeypatch):
    """With --max-seconds, the share of the time bounds the search of the forms: the layouts guard
    (which would stop it with time left) is for queries without a deadline."""
    from solver.melding.table import forms as tableforms

    problem = next(_ring_problems(3, 1))
    whole = solve(problem, "best", max_seconds=60)
    monkeypatch.setattr(tableforms, "MAX_LAYOUTS", 1)
    answer = solve(problem, "best", max_seconds=60)
    assert answer.limit != "layouts" and answer.solvable is not None
    assert _value(answer) == _value(whole) and replay(problem, answer) == []


def test_a_table_turn_cut_short_keeps_its_turn_and_names_the_limit():
    """Out of budget, a table turn's answer is the best turn verified so far, undecided, with the
    limit that ran out (its decoding once left the limit unset)."""
    from solver.melding.turn.tableturn import TableTurn

    problem = next(_ring_problems(3, 1))
    with TableTurn(problem, CHECKER, Budget(), _operations()) as solver:
        best = solver.best()
        cut = solver._undecided("best")
    assert cut.solvable is None and cut.partial and cut.limit == "time"
    assert cut.score == best.score


def _table_turn_of(problem):
    from solver.melding.turn.tableturn import TableTurn

    try:
        return TableTurn(problem, CHECKER, Budget(), _operations())
    except MeldsError:  # a table meld not legal in its layout: no turn to weigh
        return None


@settings(max_examples=examples(40), **SETTINGS)
@given(table_problems())
def test_the_forms_soft_clauses_weigh_exactly_the_gain_of_the_form_chosen(problem):
    """Per table meld, what the soft clauses of its forms' gains satisfy when one form is chosen
    (and so every other not), with that meld's share of the offset, is that form's gain."""
    solver = _table_turn_of(problem)
    if solver is None:
        return
    with solver:
        solver._build()
        _gains_weighed_exactly(solver)


def _gains_weighed_exactly(solver) -> None:
    soft, offset = solver._form_gains()
    assert offset == sum(min(form.gain for form, _ in per_meld) for per_meld in solver.form_lits if per_meld)
    for per_meld in solver.form_lits:
        lits = {lit for _, lit in per_meld}
        own = [(clause, w) for clause, w in soft if {abs(c) for c in clause} <= lits]
        share = min((form.gain for form, _ in per_meld), default=0)
        for form, lit in per_meld:
            true = {lit} | {-other for other in lits if other != lit}
            assert sum(w for clause, w in own if true & set(clause)) + share == form.gain


@pytest.mark.parametrize("slots", [False, True], ids=["candidates", "slots"])
def test_a_finished_table_turn_bounds_its_points_at_what_it_found(slots):
    """Once the optimiser has finished, the bound it proves on the meld points is the best turn's
    own: the soft clauses weigh the points exactly, less a known offset, forms' gains and losses
    included (without the offset, the bound once counted every loss a form not chosen avoided:
    1,525 points for a turn of 3). The soft clauses are checked form by form on these turns too,
    where forms do gain and lose points (the random tables above may have none that do)."""
    with laid_out() if slots else nullcontext():
        checked = _bounds_at_what_it_found()
    assert checked  # some of these turns weighed forms that gain or lose points


def _bounds_at_what_it_found() -> int:
    checked = 0
    for problem in _ring_problems(11, 8):
        problem = replace(
            problem,
            table=tuple(
                replace(meld, owner="me", mine=True) if i % 2 else meld for i, meld in enumerate(problem.table)
            ),
        )
        solver = _table_turn_of(problem)
        if solver is None:
            continue
        with solver:
            best = solver.best()
            _gains_weighed_exactly(solver)
            opt = solver._optimisers.get("any")
            if opt is None or best.solvable is None:
                continue
            assert replay(problem, best) == []
            bound = solver._bound(opt, best)
            assert bound["best_possible"] == bound["found"] == best.score["meld_points"]
            checked += any(form.gain for per_meld in solver.forms for form in per_meld)
    return checked


def test_forms_past_their_share_of_the_time_still_answer_with_a_real_turn(monkeypatch):
    """When the search of the table's forms takes its share of the time, the turn is solved over
    the forms found so far (here none: every meld unchanged): a real turn, replayed step by step,
    undecided (exit 3) and with no bound claimed."""
    from solver.melding.turn import tableturn

    monkeypatch.setattr(tableturn, "FORMS_SHARE", 0.0)
    problem = next(_ring_problems(3, 1))
    answer = solve(problem, "best", max_seconds=30)
    assert answer.solvable is None and answer.partial and answer.bound is None and answer.limit == "time"
    assert replay(problem, answer) == []
    assert answer.plays and not any(s.action != "meld" for s in answer.steps)  # the hand's melds only
    monkeypatch.setattr(tableturn, "FORMS_SHARE", 1.0)
    full = solve(problem, "best", max_seconds=30)
    assert full.solvable is not None and _value(full) >= _value(answer)


def test_a_way_out_over_unfinished_forms_still_answers_yes(monkeypatch):
    """Going out, a way out found over the forms of an unfinished search is a proof: yes."""
    from solver.melding.turn import tableturn
    from solver.melding.turn.problem import Problem

    monkeypatch.setattr(tableturn, "FORMS_SHARE", 0.0)
    table = next(_ring_problems(3, 1)).table
    used = {f for meld in table for f in meld.all_cards}
    free = [f for f in RS.deck.faces if f not in used and f.cls == "五行"]
    run = next(
        [a, b, c]
        for a in free
        for b in free
        for c in free
        if a.suit == b.suit == c.suit and [int(x.rank) for x in (a, b, c)] == [int(a.rank) + i for i in range(3)]
    )
    hand = tuple(run) + (next(f for f in free if f not in run),)  # a run, and a card to discard
    problem = Problem(RS, hand, table, "normal", None, True, "yang")
    answer = solve(problem, "go-out", max_seconds=30)
    assert answer.solvable is True and not answer.kept and replay(problem, answer) == []


def test_a_form_keeps_the_path_that_borrows_nothing_from_other_melds():
    """火2 can take 土2's place in 土2 金2 水2 only through a wild: 抜き札 with it (taking 土2),
    then 差し札 of 火2 (taking the wild back). The hand's own 空無土 does; a 陰陽2 of another meld
    would too, and the walk, meeting it first, kept that path, which needs the other meld to give
    its 陰陽2 first: on the ring table of seed 91 the best turn (a meld of 土1 土2 空無土, as the
    exhaustive search finds) was refused as a deadlock."""
    from solver.melding.table import forms as tableforms
    from solver.melding.table.operations import Table, TableMeld

    parse = CHECKER.notation.parse
    cards = lambda text: tuple(parse(name) for name in text.split())  # noqa: E731
    hand = cards("火2 空無土")
    forms = tableforms.forms_of(
        Table(CHECKER),
        0,
        TableMeld("B", cards("土2 金2 水2")),
        cards("陰陽2"),
        "yang",
        tuple(op for op in _operations() if op.effect != "recall"),
        Budget(),
        False,
        hand,
    ).forms
    form = next(f for f in forms if f.played == cards("火2") and f.taken == cards("土2"))
    assert form.borrows(Counter(hand)) == set(), [(m.op.id, m.played, m.taken) for m in form.path]
    agrees(next(_ring_problems(91, 1)))
