"""melds against the peer solver rummikub-solver on random reachable positions with jokers: melds
never places fewer rack tiles (the peer leaves out some joker sets on purpose, so melds may place
more), and every arrangement melds gives is re-checked by the brute force's plain checker."""

from __future__ import annotations

import random
from functools import lru_cache

import pytest
import rummikub_brute as brute
from profiles import examples
from test_rummikub_brute import deal, melds_turn


@lru_cache(maxsize=1)
def _peer():
    """The peer, loaded by the first test that asks (its MILP stack takes seconds to import, which
    a worker that runs none of these tests should not pay while collecting)."""
    pytest.importorskip("rummikub_solver")
    pytest.importorskip("cvxpy")
    from rummikub_peer import Peer

    return Peer()


def compare(seed: int) -> tuple[int, int]:
    peer = _peer()
    rng = random.Random(seed)
    hand, table = deal(rng, rng.randint(6, 40), rng.randint(4, 14))
    theirs = peer.best(hand, table)
    ours = melds_turn(hand, table, True)
    assert len(ours["placed"]) >= len(theirs), (hand, table, ours["placed"], theirs)
    assert brute.arrangement_ok(hand, table, ours["placed"], [" ".join(s) for s in ours["table"]])
    return len(ours["placed"]), len(theirs)


@pytest.mark.parametrize("seed", range(examples(10)))
def test_melds_places_at_least_what_the_peer_places(seed):
    compare(seed)


@pytest.mark.slow  # 250 positions: a few minutes
@pytest.mark.parametrize("seed", range(5000, 5000 + examples(250)))
def test_melds_places_at_least_what_the_peer_places_at_length(seed):
    compare(seed)


def test_melds_finds_the_joker_sets_the_peer_leaves_out():
    """The peer leaves out some sets with jokers on purpose (its model): with k1 k2 k3 J it places
    three tiles; the run k1 k2 k3 J (the joker as k4) places all four."""
    hand = ["k1", "k2", "k3", "J"]
    ours = melds_turn(hand, [], True)
    assert len(_peer().best(hand, [])) == 3 and sorted(ours["placed"]) == sorted(hand) and ours["solvable"]
