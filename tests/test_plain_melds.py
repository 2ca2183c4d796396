"""A plain turn's melds told from the candidate walk (solver/melding/turn/plainmelds.py: the kind with
the fewest wilds, no checker call per card set) against the same candidates each judged by the
checker: the same melds in the same order — cards, kind, wilds, points — and the reading asked
of a told meld is the checker's own. Hands of two decks with printed jokers and a chosen card's
wilds (Indian Rummy, Okey) and Phase 10's wilds and phases, dealt or built from melds; and the
readings kept across chosen cards (by what the cards read of them) under every cut joker in turn,
each shown meld re-checked by tests/rummies_oracle.py."""

from __future__ import annotations

import pytest
from test_plain_turn import wild_meld_problem, wild_requests

from solver.core.registry import load_game
from solver.core.ruleset import load_ruleset
from solver.melding.meld.candidates import candidates
from solver.melding.meld.layouts import params_key
from solver.melding.turn.plainmelds import counted_hand, counted_melds, counted_ruleset, judged


def compare(ruleset: str, count: int, seed: int) -> int:
    """The told melds against the judged ones on ``count`` hands; the melds compared."""
    return compare_requests(ruleset, wild_requests(ruleset, count, seed))


def compare_requests(ruleset: str, requests: list[tuple[dict, dict]]) -> int:
    """The told melds against the judged ones on the (options, request) given; the melds compared."""
    compared = 0
    for options, request in requests:
        game = load_game(load_ruleset(ruleset, options))
        problem, checker = game.problem(request), game.checker
        assert counted_ruleset(checker), ruleset
        params, order = problem.params, sorted(problem.hand, key=lambda f: f.index)
        key = params_key(params)
        assert counted_hand(checker, order, params, key), request
        found = (
            candidates(problem.ruleset, order, problem.ruleset.kinds, params=params, gate=checker.gate, fewest=True)
            or []
        )
        bits = [1 << place for place in range(len(order))]
        told = counted_melds(checker, found, order, bits, params, key)
        want = []
        for cand in found:
            mask = sum(bits[i] for i in cand.cards)
            want += [m.on(mask) for m in judged(checker, tuple(order[i] for i in cand.cards), params, key)]
        assert [(m.mask, m.faces, m.kind, m.wilds, m.points) for m in told] == [
            (m.mask, m.faces, m.kind, m.wilds, m.points) for m in want
        ], request
        assert [m.reading for m in told] == [m.reading for m in want], request
        compared += len(told)
    return compared


@pytest.mark.parametrize("ruleset", ["indian-rummy", "okey", "phase-10"])
def test_told_melds_are_the_judged_ones(ruleset: str) -> None:
    assert compare(ruleset, 3, 46) > 0


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ["indian-rummy", "okey", "phase-10"])
def test_told_melds_are_the_judged_ones_many(ruleset: str) -> None:
    assert compare(ruleset, 300, 4747) > 0


CUT_JOKERS = [s + r for r in ["A", *map(str, range(2, 11)), "J", "Q", "K"] for s in "SHDC"] + ["JK"]
HANDS = ["H5 H6 H7 H8 S9 D9 C9 JK CK CK SA S2 D4 H9", "SQ SK SA H3 D3 C3 H4 H5 JK JK D10 DJ C7 C7"]


def test_readings_kept_across_cut_jokers_are_each_ones_own() -> None:
    """A shown meld's reading is kept by what its cards read of the cut joker, so one is asked
    again under another cut joker: asked under every cut joker in turn, each hand's told melds
    read as the checker reads them under that one, and each meld a turn shows is a legal reading
    by the independent oracle."""
    requests = [({}, {"hand": hand, "indicator": cut}) for hand in HANDS for cut in CUT_JOKERS]
    assert compare_requests("indian-rummy", requests) > 0
    game = load_game(load_ruleset("indian-rummy"))
    for options, request in requests:
        for meld in game.solve(request).data["melds"]:
            assert wild_meld_problem("indian-rummy", meld, options, request) is None, (request, meld)


@pytest.mark.parametrize("ruleset", ["indian-rummy", "phase-10"])
def test_a_walk_past_its_limit_gives_up(ruleset: str) -> None:
    """The whole deck's melds are found only when few: a walk that finds more than its limit of
    new card sets stops (None), whatever kind found them first."""
    rs = load_ruleset(ruleset)
    faces = list(rs.deck.faces)
    assert candidates(rs, faces, rs.kinds, limit=50) is None
    few = candidates(rs, faces[:3], rs.kinds, limit=50)
    assert few is not None and len(few) <= 50
