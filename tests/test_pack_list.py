"""The plain turn's listing of packings (solver/melding/turn/packlist.py, kept field by field) against
a brute force over the hand's melds: for hands of one deck, every set of disjoint melds the turn
rule allows is listed once, with the discard (the first of the dearest cards left) and the points
kept; for hands of two decks and wilds, every listed packing is such a set and its fields agree
with its melds. (There a packing may come twice: two melds that each start at a copy of one face
are taken in either order, a copy each.)"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from test_plain_turn import dealt, wild_requests

from solver.core.registry import load_game
from solver.core.ruleset import load_ruleset
from solver.melding.turn.plain import packed


def _expected(cards, worth: list[int], melded: int, rule: str) -> tuple[int, int, int]:
    """(cards kept, their points, the discard's bit) of a packing melding ``melded``, computed
    here: the discard is the first card of the most points among the cards left."""
    left = [(bit, w) for bit, w in zip(cards.bits, worth, strict=True) if not melded & bit]
    discard = 0
    if left and rule != "none":
        most = max(w for _, w in left)
        discard = next(bit for bit, w in left if w == most)
    kept = [w for bit, w in left if bit != discard]
    return len(kept), sum(kept), discard


def _hand(ruleset: str, options: dict, request: dict):
    game = load_game(load_ruleset(ruleset, options))
    problem = game.problem(request)
    rule = problem.turn_rule().discard
    return packed(problem, game.checker, rule, None), rule


def _checked(hand, rule: str) -> list[tuple]:
    """Each listed packing's fields, checked against its melds; the packings as (melds, fields)."""
    worth = [hand.points[f.index] for f in hand.cards.order]
    rows = []
    for way in hand.ways:
        faces = Counter(f.index for m in way.melds for f in m.faces)
        held = Counter(f.index for f, bit in zip(hand.cards.order, hand.cards.bits, strict=True) if way.melded & bit)
        assert faces == held, "the melds hold the cards melded, each card once"
        kept, points, discard = _expected(hand.cards, worth, way.melded, rule)
        assert (way.left, way.points, way.discard_bit) == (kept, points, discard)
        assert rule != "required" or way.left or way.discard is not None, "the rule keeps a card to discard"
        rows.append((tuple(sorted(id(m) for m in way.melds)), way.melded))
    return rows


@pytest.mark.parametrize("ruleset", ["gin-rummy", "basic-rummy"])
def test_listing_is_every_set_of_disjoint_melds(ruleset: str) -> None:
    rng = random.Random(46)
    for i in range(6):
        hand, rule = _hand(ruleset, {}, {"hand": " ".join(dealt(rng, 10 + i % 2))})
        rows = _checked(hand, rule)
        melds = hand.melds
        every = set()
        for size in range(len(melds) + 1):
            for chosen in combinations(melds, size):
                masks = [m.mask for m in chosen]
                if any(a & b for a, b in combinations(masks, 2)):
                    continue
                if rule == "required" and sum(masks) == hand.cards.mask:
                    continue
                every.add((tuple(sorted(id(m) for m in chosen)), sum(masks)))
        assert len(rows) == len(every) and set(rows) == every, "each set listed once"


@pytest.mark.parametrize("ruleset", ["indian-rummy", "okey", "phase-10"])
def test_listing_of_copies_and_wilds_is_consistent(ruleset: str) -> None:
    listed = 0
    for options, request in wild_requests(ruleset, 4, 46):
        hand, rule = _hand(ruleset, options, request)
        if hand.ways is not None:
            listed += len(_checked(hand, rule))
    assert listed > 0
