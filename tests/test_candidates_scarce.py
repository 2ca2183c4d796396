"""The candidate walk under an allowance of scarce positions (a distance's drawn cards: at most so many
of them in a meld) against the walk without one, filtered afterwards: a card set is a candidate
under the allowance exactly when its copies, taken in pool order, hold no more scarce positions than
allowed, and then it is the same candidate (cards, bound, kinds, fewest wilds). Fesca's wilds in
runs, sets and chains, one copy of each card and then three copies of the 太極 (copies in pool order)."""

from __future__ import annotations

import random

import pytest

from solver.core.ruleset import load_ruleset
from solver.melding.meld.candidates import Scarce, candidates


@pytest.mark.slow  # the walks without an allowance: seconds on the shared machine
@pytest.mark.parametrize("copies", [1, 3])
def test_allowance_is_a_filter(copies: int) -> None:
    rs = load_ruleset("fesca", {"taikyoku-copies": copies})
    deck = [f for f in rs.deck.faces for _ in range(rs.deck.copies[f])]
    several = [f for f in deck if rs.deck.copies[f] > 1]
    rng = random.Random(4747)
    compared = 0
    for _ in range(2):
        plain = [f for f in deck if rs.deck.copies[f] == 1]
        pool = sorted(rng.sample(plain, 10 - len(several)) + several, key=lambda f: f.index)
        scarce = frozenset(i for i in range(len(pool)) if rng.random() < 0.6)
        every = candidates(rs, pool, fewest=True)
        for most in (0, 1, 2):
            allowed = [c for c in every if sum(i in scarce for i in c.cards) <= most]
            found = candidates(rs, pool, fewest=True, scarce=Scarce(scarce, most))
            assert [(c.key, c.cards, c.bound, c.kinds, c.fewest) for c in found] == [
                (c.key, c.cards, c.bound, c.kinds, c.fewest) for c in allowed
            ]
            compared += len(allowed)
    assert compared > 10  # the allowance let some melds through: the comparison was not empty
