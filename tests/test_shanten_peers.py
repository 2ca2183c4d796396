"""Shanten against the peers: the ``mahjong`` package (``Shanten.calculate_shanten``) and riichienv
(``calculate_shanten``, Rust), on the same hands — closed and with declared melds, dealt from the
whole wall, from one to four suits, and near complete; four and three players. Discard tables
against a brute force over riichienv's shanten (every discard, every draw). Every figure equal.

Both peers are test-only (the ``test`` extra); this file is skipped without them, the plain
oracle's tests (tests/test_shanten.py) are not."""

from __future__ import annotations

import random

import pytest
import shanten_oracle as oracle

from solver.core.registry import load_game
from solver.core.ruleset import load_ruleset

riichienv = pytest.importorskip("riichienv")
package = pytest.importorskip("mahjong.shanten")

RULESETS = {"gensou-mahjong": False, "gensou-mahjong-3p": True}  # ruleset -> three players


def tiles136(counts) -> list[int]:
    """Counts as riichienv reads them: 136-tile indices (four a tile type)."""
    return [4 * t + k for t, n in enumerate(counts) for k in range(n)]


def riichienv_shanten(counts, three_player: bool) -> int:
    calculate = riichienv.calculate_shanten_3p if three_player else riichienv.calculate_shanten
    return calculate(tiles136(counts))


def package_shanten(counts, three_player: bool) -> int:
    return package.Shanten.calculate_shanten(list(counts), is_three_player=three_player)


def deals(seed: int, count: int, three_player: bool, size: int | None = None) -> list[oracle.Deal]:
    """A quarter dealt from the whole wall (closed), the rest the oracle's mix (declared melds,
    few suits, near complete); 13 and 14 tiles."""
    rng = random.Random(seed)
    out = []
    for k in range(count):
        tiles = size or (13, 14)[k % 2]
        out.append(
            oracle.full_wall_deal(rng, tiles, three_player)
            if k % 4 == 0
            else oracle.random_deal(rng, tiles, three_player)
        )
    return out


def compare(ruleset: str, hands: list[oracle.Deal]) -> None:
    game = load_game(load_ruleset(ruleset))
    for deal in hands:
        ours = game.solve({"hand": deal.text, "shanten": True}).data["shanten"]
        theirs = (package_shanten(deal.counts, deal.three_player), riichienv_shanten(deal.counts, deal.three_player))
        assert (ours, ours) == theirs, deal.text


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_shanten_equals_both_peers(ruleset):
    compare(ruleset, deals(21, 1500, RULESETS[ruleset]))


@pytest.mark.slow
def test_shanten_equals_both_peers_on_110000_hands():
    """Four players: 25,000 from the whole wall, 65,000 of the mix (a third of them with declared
    melds); three players: 20,000 of both kinds."""
    rng = random.Random(22)
    four = [oracle.full_wall_deal(rng, (13, 14)[k % 2]) for k in range(25000)]
    four += deals(23, 65000, False)
    compare("gensou-mahjong", four)
    compare("gensou-mahjong-3p", deals(24, 20000, True))


def brute_force(deal: oracle.Deal) -> list[dict]:
    left = [4 - n for n in deal.all_counts()]
    return oracle.discard_table(
        deal.counts, deal.declared, left, deal.three_player, lambda c: riichienv_shanten(c, deal.three_player)
    )


def compare_tables(ruleset: str, hands: list[oracle.Deal]) -> None:
    game = load_game(load_ruleset(ruleset))
    for deal in hands:
        assert game.solve({"hand": deal.text, "discards": True}).data["discards"] == brute_force(deal), deal.text


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_discard_tables_equal_a_brute_force_over_riichienv(ruleset):
    compare_tables(ruleset, deals(25, 150, RULESETS[ruleset], size=14))


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "count"), [("gensou-mahjong", 4000), ("gensou-mahjong-3p", 1500)])
def test_discard_tables_equal_a_brute_force_over_riichienv_many(ruleset, count):
    compare_tables(ruleset, deals(26, count, RULESETS[ruleset], size=14))
