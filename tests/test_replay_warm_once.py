"""What a replay would otherwise read again in each of its workers: rulesets built from the same hand
shapes (one game's variants: a record's options) share one copy of the fast tables in a process
(solver.games.mahjong.shapes.FastTables.kept), read once and inherited by a forked worker; the
bundled rulesets' player counts, which a record of another player count asks for, are kept in
melds' cache instead of parsing every bundled ruleset in each process."""

from __future__ import annotations

from pathlib import Path

import pytest

from solver.core.ruleset import load_ruleset
from solver.games.mahjong import game as mahjong_game
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


def test_player_counts_are_read_once_a_machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MELDS_CACHE_DIR", str(tmp_path))
    spans = mahjong_game._player_spans()
    assert list(tmp_path.glob("player-spans-*.pickle")), "the spans were not kept"
    three = [path for extends, least, most, path in spans if extends == "tenhou" and least <= 3 <= most]
    assert [Path(path).name for path in three] == ["tenhou-3p.yaml"]

    def parse(path: str) -> None:
        raise AssertionError(f"{path} parsed again")

    monkeypatch.setattr(mahjong_game, "load_file", parse)
    assert mahjong_game._player_spans() == spans  # read back, nothing parsed
