"""A table layout's windows (solver/melding/meld/layouts.py) and the checker's one-call reading of a
laid-out sequence, against the solver.

A table search judges hundreds of thousands of layouts. The checker rules out a way (left to
right, right to left) no window of a sequence kind reads without asking the solver, and settles
the usual layout in one call bounded by the fewest wilds the windows allow. Both must be sound:
a way said unreadable is unsatisfiable in the kind's model, the bound is never above a reading's
wilds, and every verdict is the one the checker's plain SAT path (no shortcuts) gives — legality,
kind, direction and the number of wilds. The layouts are those a real table turn asks about
(bench/data/table-turns.json), most of them no meld, plus random ones.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest

from solver.core.deck import Face
from solver.core.ruleset import load_ruleset
from solver.melding.meld.checker import MeldChecker, as_cards
from solver.melding.table.forms import table_forms
from solver.melding.table.operations import Table, TableMeld
from solver.sat.budget import Budget

RS = load_ruleset("fesca")
TURNS = Path(__file__).resolve().parent.parent / "bench" / "data" / "table-turns.json"


class _Recording(MeldChecker):
    """A checker that keeps every layout a table search asks it about."""

    asked: list

    def check(self, faces, phase=None, ordered=False, explain=True, params=None):
        if ordered:
            self.asked.append((tuple(faces), phase))
        return super().check(faces, phase=phase, ordered=ordered, explain=explain, params=params)

    def reads_in_family(self, faces, family, phase=None, ordered=True, surely=True):
        self.asked.append((tuple(faces), phase))
        return super().reads_in_family(faces, family, phase=phase, ordered=ordered, surely=surely)

    def faces_that_may_fill(self, layout, hole, family, phase=None):
        return None  # every card at every place asked: the layouts the windows rule out are kept here


@pytest.fixture(scope="module")
def searched_layouts() -> list[tuple]:
    """The table layouts the search of one 40-card turn's forms judged (a few thousand, most of
    them no meld), every one asked once."""
    from solver.core.registry import load_game

    turn = next(t for t in json.loads(TURNS.read_text(encoding="utf-8"))["turns"] if t["seed"] == 7)
    faces = RS.deck.faces
    table = tuple(TableMeld(owner, tuple(faces[i] for i in cards), owner == "me") for owner, cards in turn["table"])
    hand = tuple(faces[i] for i in turn["hand"])
    checker = _Recording(RS)
    checker.asked = []
    ops = tuple(op for op in load_game(RS).rules.operations if op.effect != "recall")
    table_forms(Table(checker), table, hand, "yang", ops, Budget())
    checker.close()
    layouts = list(dict.fromkeys(checker.asked))
    assert len(layouts) > 500  # a real search's worth
    return layouts


def _random_layouts(count: int, seed: int, rs=RS) -> list[tuple]:
    """Random layouts: some groups of one rank, some runs of one suit in a random direction, each
    with a card or two changed (a wild, say), the rest any cards. A way is told from the other
    only where a kind reads one way only."""
    rng = random.Random(seed)
    faces = rs.deck.faces
    phases = (None, *(p.id for p in rs.phases))
    ranked = [f for f in faces if f.suit is not None and f.rank is not None]
    out: list[tuple[tuple[Face, ...], str | None]] = []
    while len(out) < count:
        n = rng.randint(3, 6)
        shape = rng.random()
        if shape < 0.4:
            layout = [rng.choice(faces) for _ in range(n)]
        elif shape < 0.6:  # a group: one rank, a suit each, a card or two changed
            rank = rng.choice(ranked).rank
            same = [f for f in ranked if f.rank == rank]
            layout = rng.sample(same, min(n, len(same)))
            for _ in range(rng.randint(0, 2)):
                layout[rng.randrange(len(layout))] = rng.choice(faces)
        else:
            suit = rng.choice(ranked).suit
            run = sorted((f for f in ranked if f.suit == suit), key=lambda f: f.index)
            start = rng.randrange(len(run))
            layout = (run + run)[start : start + n][:: rng.choice((1, -1))]
            for _ in range(rng.randint(0, 2)):
                layout[rng.randrange(len(layout))] = rng.choice(faces)
        cards = tuple(layout)
        if all(cards.count(f) <= rs.deck.copies[f] for f in cards):
            out.append((cards, rng.choice(phases)))
    return out


@pytest.mark.parametrize("name", ["fesca", "basic-rummy", "rummikub"])
def test_a_way_no_window_reads_is_unsatisfiable_and_the_bound_holds(name, searched_layouts):
    rs = load_ruleset(name)
    checker = MeldChecker(rs)
    ruled_out = bounded = 0
    layouts = (searched_layouts[:1500] if name == "fesca" else []) + _random_layouts(600, 3, rs)
    for faces, _ in layouts:
        for kind in rs.kinds:
            if not kind.size_ok(len(faces)):
                continue
            ways = checker.layouts.least_wilds_each_way(kind, faces, None)
            if ways is None:
                continue
            assert checker.layouts.least_wilds(kind, faces, None) == min(
                (w for w in ways if w is not None), default=None
            )
            model = checker.model(kind, len(faces))
            indices = model.card_indices(as_cards(faces))
            if indices is None:
                continue
            base = model.presence(indices) + model.selectors(relaxed={"distinguish"})
            for least, reverse in zip(ways, (False, True), strict=True):
                layout = model.layout(indices, reverse=reverse)
                if least is None:
                    assert not model.solve(base + layout), (kind.id, faces, reverse)
                    ruled_out += 1
                elif least > 0 and model.solve(base + layout):
                    assert not model.solve(base + layout + model.at_most_wilds(least - 1)), (kind.id, faces)
                    bounded += 1
    checker.close()
    assert ruled_out > 100 and (bounded > 10 or name != "fesca")  # both looks exercised (Fesca's wilds)


def _summary(verdict) -> tuple:
    reading = verdict.reading
    return (
        verdict.legal,
        reading.kind.id if reading else None,
        reading.direction if reading else None,
        reading.wilds if reading else None,
        tuple(r.code for r in verdict.reasons),
        tuple(r.kind.id for r in verdict.readings),
        verdict.phase_required,
    )


def test_table_verdicts_are_the_plain_solvers(searched_layouts):
    """Fesca's layouts as a table search asks them (set, run and chain families)."""
    fast, plain = MeldChecker(RS), MeldChecker(RS)
    plain.shortcuts = False
    legal = 0
    readable = [(f, ph) for f, ph in searched_layouts if fast.check(f, phase=ph, ordered=True, explain=False).legal]
    fast.close()
    fast = MeldChecker(RS)  # asked afresh: the verdicts below are not remembered ones
    for faces, phase in readable[:400] + searched_layouts[:800] + _random_layouts(300, 5):
        a = fast.check(faces, phase=phase, ordered=True, explain=False)
        b = plain.check(faces, phase=phase, ordered=True, explain=False)
        assert _summary(a) == _summary(b), (faces, phase)
        legal += a.legal
        for family in ("set", "run", "chain"):
            reads = plain.reads_in_family(faces, family, phase)
            assert fast.reads_in_family(faces, family, phase) == reads
            if reads:  # the table search's "perhaps" never misses a reading
                assert fast.reads_in_family(faces, family, phase, surely=False)
    fast.close(), plain.close()
    assert legal > 40  # the search's readable layouts among them


@pytest.mark.parametrize("name", ["basic-rummy", "rummikub"])
def test_layouts_read_one_way_only_are_the_plain_solvers(name):
    """Rulesets whose runs read in one direction only: a layout reversed is judged the other way."""
    rs = load_ruleset(name)
    fast, plain = MeldChecker(rs), MeldChecker(rs)
    plain.shortcuts = False
    legal = 0
    for faces, phase in _random_layouts(500, 7, rs):
        a = fast.check(faces, phase=phase, ordered=True, explain=False)
        b = plain.check(faces, phase=phase, ordered=True, explain=False)
        assert _summary(a) == _summary(b), (faces, phase)
        legal += a.legal
    fast.close(), plain.close()
    assert legal > 20


@pytest.mark.parametrize("count", [6, *(pytest.param(n, marks=pytest.mark.slow) for n in (12, 40))])
def test_the_places_a_window_rules_out_read_in_no_family(searched_layouts, count):
    """The table search puts a card at a place only where :meth:`MeldChecker.faces_that_may_fill`
    says a window (a group's rank and suits) may read it: every card it leaves out reads in no
    family there (the plain solver's word), and no kind at all where the result may change kind.
    On a real search's layouts and on random ones (groups among them)."""
    fast, plain = MeldChecker(RS), MeldChecker(RS)
    plain.shortcuts = False
    rng = random.Random(11)
    faces = RS.deck.faces
    left_out = 0
    for layout, phase in rng.sample(searched_layouts, count) + _random_layouts(count, 17):
        hole = rng.randrange(len(layout))
        places = [
            (layout[:hole] + (None,) + layout[hole + 1 :], hole),  # a card changed
            (layout + (None,), len(layout)),
            ((None,) + layout, 0),
        ]  # or one more at an end
        for (with_hole, at), family in itertools.product(places, ("set", "run", "chain", None)):
            fill = fast.faces_that_may_fill(with_hole, at, family, phase)
            if fill is None:
                continue
            for face in faces:
                if not fill >> face.index & 1:
                    result = with_hole[:at] + (face,) + with_hole[at + 1 :]
                    if any(result.count(f) > RS.deck.copies[f] for f in result):
                        continue
                    assert not plain.reads_in_family(result, family, phase), (result, family, phase)
                    left_out += 1
    fast.close(), plain.close()
    assert left_out > 25 * count  # the search does leave cards out, and each was checked


@pytest.mark.parametrize("name", ["fesca", "basic-rummy", "rummikub"])
def test_a_layout_reads_as_its_mirror(name):
    """The table search takes a sequence and its mirror for one meld (a meld is read left to right
    or right to left, and every operation is the same at either end): both get one verdict."""
    rs = load_ruleset(name)
    checker = MeldChecker(rs)
    legal = 0
    for faces, phase in _random_layouts(500, 13, rs):
        a = checker.check(faces, phase=phase, ordered=True, explain=False)
        b = checker.check(faces[::-1], phase=phase, ordered=True, explain=False)
        assert (a.legal, a.kind, a.reading and a.reading.wilds) == (b.legal, b.kind, b.reading and b.reading.wilds), (
            faces
        )
        legal += a.legal
    checker.close()
    assert legal > 20


@pytest.mark.parametrize("name", ["fesca", "basic-rummy", "rummikub"])
def test_a_group_no_rank_reads_is_unsatisfiable_and_its_bound_holds(name):
    """:meth:`LayoutLines.group_may_read` and :meth:`~LayoutLines.group_least_wilds` against the
    solver: a group no rank reads has no reading, and none has fewer wilds than the bound."""
    rs = load_ruleset(name)
    checker = MeldChecker(rs)
    ruled_out = bounded = 0
    for faces, _ in _random_layouts(800, 19, rs):
        for kind in rs.kinds:
            may = checker.layouts.group_may_read(kind, faces, None)
            if may is None or not kind.size_ok(len(faces)):
                continue
            model = checker.model(kind, len(faces))
            indices = model.card_indices(as_cards(faces))
            if indices is None:
                continue
            base = model.presence(indices) + model.selectors(relaxed={"distinguish"})
            if not may:
                assert not model.solve(base), (kind.id, faces)
                ruled_out += 1
                continue
            ranks = checker.layouts.group_ranks(kind, faces, None)
            least = checker.layouts.group_least_wilds(kind, faces, ranks, None)
            if least > 0 and model.solve(base):
                assert not model.solve(base + model.at_most_wilds(least - 1)), (kind.id, faces)
                bounded += 1
    checker.close()
    assert ruled_out > 100 and (bounded > 10 or name != "fesca")


def test_a_group_read_in_one_order_is_read_alike_in_every_order():
    """A kind that is no sequence reads a multiset whatever its order, so the checker asks its model
    once per multiset: every order of a group (wilds among its cards) gets the verdict a checker
    that has not seen the multiset gives that order — legality, kind, wilds —, and a reading that
    names the order's own cards (each copy by face and copy). (The plain SAT path's word on the
    layouts a table search asks: test_table_verdicts_are_the_plain_solvers.)"""
    by_name = {(f.cls, f.suit, f.rank): f for f in RS.deck.faces}
    fives = [by_name["五行", suit, "5"] for suit in ("火", "土")]
    wilds = [by_name["空無", suit, None] for suit in ("木", "水")]
    layouts = [fives + [by_name["陰陽", "陰陽", "5"]], fives + wilds[:1], fives[:1] + wilds]
    fast, fresh = MeldChecker(RS), MeldChecker(RS)
    legal = 0
    for cards in layouts:
        before = None
        for order in itertools.permutations(cards):
            a = fast.check(order, phase="yang", ordered=True, explain=False)
            fresh._order_free.clear()  # noqa: SLF001 (a checker that has not seen the multiset)
            b = fresh.check(order, phase="yang", ordered=True, explain=False)
            assert _summary(a) == _summary(b), order
            legal += a.legal
            if a.legal:
                assert {(p.face, p.copy) for p in a.reading.placements} == set(as_cards(order))
            calls = fast.sat_calls
            if before is not None and a.reading is not None and a.reading.kind.shape != "sequence":
                assert calls == before, order  # the group's reading, asked once for the multiset
            before = calls
    fast.close(), fresh.close()
    assert legal >= 12  # two of the groups in all their orders at least


@pytest.mark.slow  # (by default: test_table_verdicts_are_the_plain_solvers, on a search's layouts, mirrors among them)
def test_a_layout_and_its_mirror_image_are_judged_alike():
    """A sequence kind reads a layout of distinct cards left to right or right to left, so a layout
    no way reads (or only a vetoed reading does) is shared with its mirror image: each of a layout
    and its mirror gets the verdict a checker that has seen neither gives it. Random layouts
    (runs, groups, any cards)."""
    fast, fresh = MeldChecker(RS), MeldChecker(RS)
    pairs = shared = 0
    for layout, phase in _random_layouts(100, 23):
        if len(set(layout)) < len(layout):
            continue
        pairs += 1
        for faces in (layout, layout[::-1]):
            calls = fast.sat_calls
            a = fast.check(faces, phase=phase, ordered=True, explain=False)
            shared += faces is not layout and fast.sat_calls == calls
            fresh._unread_ways.clear(), fresh._order_free.clear()  # noqa: SLF001 (has seen neither)
            assert _summary(a) == _summary(fresh.check(faces, phase=phase, ordered=True, explain=False)), faces
    fast.close(), fresh.close()
    assert pairs > 70 and shared > 30, (pairs, shared)
