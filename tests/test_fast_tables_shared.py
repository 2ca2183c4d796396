"""Rulesets built from the same hand shapes (one game's variants: a record's options) share one
copy of the fast tables in a process (solver.games.mahjong.shapes.FastTables.kept): a replay of
records of several variants reads them once, and a forked worker inherits them."""

from __future__ import annotations

from solver.core.ruleset import load_ruleset
from solver.games.mahjong.hands import Mahjong


def test_variants_of_one_game_share_the_fast_tables() -> None:
    plain = Mahjong(load_ruleset("tenhou"))
    variant = Mahjong(load_ruleset("tenhou", {"game-length": "east"}))
    assert plain.rs is not variant.rs
    assert plain._fast is variant._fast
    hand = "123456789m1122p"
    assert plain.waits(plain.parse_hand(hand)) == variant.waits(variant.parse_hand(hand))


def test_other_shapes_have_tables_of_their_own() -> None:
    four = Mahjong(load_ruleset("tenhou"))
    three = Mahjong(load_ruleset("tenhou-3p"))
    assert four._fast is not three._fast
