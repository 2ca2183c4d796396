"""melds replay against an independent engine: riichienv plays whole games by itself from fixed
seeds (tests/selfplay.py), four players and three (``3p-red-half``, read through tenhou-3p), writes
them as mjai logs, and melds replays them — every action must be legal (北抜き too), every hand
settled as the engine settled it, every game ended where the engine ended it; a copy with one
payment moved by 100 points must be reported as a mismatch at that hand.

Seeds the engine gets wrong by Tenhou's rules are listed in EXCLUDED with the rule and the hand
(docs/replay-format.md); none is excluded today."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

pytest.importorskip("riichienv")

from clirun import run  # noqa: E402
from selfplay import BRAWLER, DEFAULT, EAGER, play, write_games, write_log  # noqa: E402

from solver.core.logs import replay_file, replay_text  # noqa: E402
from solver.games.mahjong.mjai import read_mjai, tile  # noqa: E402
from solver.games.mahjong.tenhou import RecordError  # noqa: E402

EXCLUDED: dict[tuple[str, str, int], str] = {}  # (mode, policy, seed) -> the rule the engine breaks there


def _games(folder: Path, seeds: range, mode: str, policy) -> list[Path]:
    kept = [s for s in seeds if (mode, policy.name, s) not in EXCLUDED]
    return write_games(folder, kept, mode, policy)


def _assert_agrees(paths: list[Path]) -> int:
    hands = 0
    for path in paths:
        (report,) = replay_file(str(path))
        assert report.error is None, (path.name, report.error)
        for hand in report.hands:
            assert hand.status == "agree", (path.name, hand.round, hand.illegal, hand.mismatches)
            assert hand.deltas == hand.expected
        assert report.problems == [], (path.name, report.problems)
        hands += len(report.hands)
    return hands


def _both_policies(folder: Path, mode: str, default_games: int, eager_games: int) -> list[Path]:
    """Games of the default policy from seed 0, then of the eager one from seed 100."""
    return _games(folder, range(default_games), mode, DEFAULT) + _games(
        folder, range(100, 100 + eager_games), mode, EAGER
    )


@pytest.fixture(scope="module")
def four_player(tmp_path_factory) -> list[Path]:
    return _both_policies(tmp_path_factory.mktemp("selfplay4"), "4p-red-half", 6, 3)


def test_every_hand_of_the_engines_games_agrees(four_player):
    assert _assert_agrees(four_player) > 50


@pytest.mark.slow
def test_every_hand_of_the_engines_next_games_agrees(tmp_path):
    """The four-player games after the default run's: seeds 6-11 of the default policy, 103-105
    of the eager one."""
    paths = _games(tmp_path, range(6, 12), "4p-red-half", DEFAULT) + _games(
        tmp_path, range(103, 106), "4p-red-half", EAGER
    )
    assert _assert_agrees(paths) > 50


@pytest.fixture(scope="module")
def three_player(tmp_path_factory) -> list[Path]:
    return _both_policies(tmp_path_factory.mktemp("selfplay3"), "3p-red-half", 4, 2)


def test_every_hand_of_the_engines_three_player_games_agrees(three_player):
    """Through tenhou-3p: 北抜き judged and counted as dora, ツモ損, 200 a honba, 2,000 of noten penalty."""
    assert _assert_agrees(three_player) > 40
    events = [json.loads(line) for path in three_player for line in path.read_text(encoding="utf-8").splitlines()]
    assert any(e["type"] == "kita" for e in events)


@pytest.mark.parametrize("games", ["four_player", "three_player"])
def test_a_payment_moved_by_100_points_is_a_mismatch_at_its_hand(games, request, tmp_path):
    _moved_payment_is_caught(request.getfixturevalue(games)[0], tmp_path)


def _moved_payment_is_caught(path: Path, tmp_path: Path) -> None:
    events = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    wins = [k for k, e in enumerate(events) if e["type"] == "hora"]
    moved = events[wins[-1]]
    payer = next(s for s, d in enumerate(moved["deltas"]) if d < 0)
    moved["deltas"][payer] -= 100  # the payer pays 100 more, the winner gets 100 more
    moved["deltas"][moved["actor"]] += 100
    hand_number = sum(1 for e in events[: wins[-1]] if e["type"] == "start_kyoku")
    (report,) = replay_file(str(write_log(tmp_path / "moved.mjson.gz", events)))
    hand = report.hands[hand_number - 1]
    assert hand.status == "mismatch" and hand.deltas is not None
    assert hand.expected == [a + b for a, b in zip(hand.deltas, _moved(moved, payer), strict=True)]
    assert [h.number for h in report.hands if h.status != "agree"] == [hand_number]


def _moved(event: dict, payer: int) -> list[int]:
    out = [0] * len(event["deltas"])
    out[payer], out[event["actor"]] = -100, 100
    return out


def _endings(events: list[dict], kind: str) -> list[int]:
    """Where the log's hands end in a ``kind`` of ending: a ron, a tsumo or a draw (paid or not)."""
    return [k for k, e in enumerate(events) if e["type"] in ("hora", "ryukyoku") and _ending(e) == kind]


def _ending(event: dict) -> str:
    if event["type"] == "ryukyoku":
        return "draw"
    return "tsumo" if event["actor"] == event["target"] else "ron"


@pytest.mark.parametrize("games", ["four_player", "three_player"])
def test_every_kind_of_moved_payment_is_a_mismatch_naming_its_hand_and_exit_1(games, request, tmp_path):
    """A copy of a game for each hand's ending — the first ron, the last tsumo, a draw in the
    middle (of the first game that has one) — with 100 points moved between two of its seats:
    ``melds replay --json`` over the copies exits 1 and names, in each copy, that hand and no other."""
    copies, moved_hands = [], []
    logs = [
        [json.loads(line) for line in p.read_text(encoding="utf-8").splitlines()]
        for p in request.getfixturevalue(games)
    ]
    for kind, pick in (("ron", 0), ("tsumo", -1), ("draw", None)):
        events, ends = next((events, ends) for events in logs if (ends := _endings(events, kind)))
        k = ends[len(ends) // 2 if pick is None else pick]
        copy = [dict(e) for e in events]
        deltas = list(copy[k]["deltas"])
        giver, taker = len(copies) % len(deltas), (len(copies) + 1) % len(deltas)
        deltas[giver], deltas[taker] = deltas[giver] - 100, deltas[taker] + 100
        copy[k]["deltas"] = deltas
        copies.append(write_log(tmp_path / f"moved-{len(copies)}-{kind}.mjson", copy))
        moved_hands.append((str(copies[-1]), sum(1 for e in events[:k] if e["type"] == "start_kyoku")))
    result = run("replay", "--json", *map(str, copies))
    assert result.exit_code == 1, result.output
    hands = json.loads(result.stdout)["hands"]
    named = [(h["file"], h["number"]) for h in hands if h["status"] != "agree"]
    assert named == moved_hands
    assert all(h["status"] == "mismatch" and h["round"] for h in hands if h["status"] != "agree")
    first = next(h for h in hands if h["status"] != "agree")
    text = run("replay", first["file"])
    assert text.exit_code == 1
    assert any(first["round"] in line and "mismatch" in line for line in text.stdout.splitlines())


def test_an_illegal_discard_in_an_engines_game_is_reported_at_its_turn(four_player, tmp_path):
    events = [json.loads(line) for line in four_player[1].read_text(encoding="utf-8").splitlines()]
    k = next(k for k, e in enumerate(events) if e["type"] == "dahai" and not e.get("tsumogiri") and k > 30)
    held = {t for e in events[:k] if e["type"] == "start_kyoku" for t in e["tehais"][events[k]["actor"]]}
    events[k]["pai"] = next(t for t in ("C", "F", "P", "N", "W", "S", "E", "9s", "1s") if t not in held)
    (report,) = replay_text("broken.mjson", "".join(json.dumps(e) + "\n" for e in events))
    bad = next(h for h in report.hands if h.status != "agree")
    assert bad.status == "illegal"
    assert any(r["code"] == "not-in-hand" for r in bad.illegal["reasons"])


def test_mjai_tiles_and_what_cannot_be_read():
    assert [tile(t, "x") for t in ("5mr", "5p", "9s", "E", "N", "P", "F", "C")] == [
        "0m",
        "5p",
        "9s",
        "1z",
        "4z",
        "5z",
        "6z",
        "7z",
    ]
    with pytest.raises(RecordError, match="hidden tile"):
        tile("?", "x")
    with pytest.raises(RecordError, match="not an mjai tile"):
        tile("0m", "x")
    with pytest.raises(RecordError, match="cut short"):
        read_mjai('{"type":"start_game"}\n' + json.dumps(_start()) + "\n", "x.mjson")


def _start() -> dict:
    return {
        "type": "start_kyoku",
        "bakaze": "E",
        "kyoku": 1,
        "honba": 0,
        "kyotaku": 0,
        "oya": 0,
        "dora_marker": "1m",
        "scores": [25000] * 4,
        "tehais": [["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "4p"]] * 4,
    }


def test_a_double_ron_is_summed_and_each_win_checked():
    game = play(113, "4p-red-half", EAGER)  # this seed's game has a double ron
    assert any(a["type"] == b["type"] == "hora" for a, b in zip(game, game[1:], strict=False))
    text = "".join(json.dumps(e) + "\n" for e in game)
    (record,) = read_mjai(text, "double.mjson")
    hand = next(h for h in record.hands if len(h.wins) == 2)
    assert hand.deltas == [a + b for a, b in zip(hand.wins[0].deltas, hand.wins[1].deltas, strict=True)]
    (report,) = replay_text("double.mjson", text)
    assert all(h.status == "agree" for h in report.hands)
    assert len(report.hands[hand.number - 1].result["wins"]) == 2


def test_an_mjai_log_is_told_by_its_content_gzipped_or_not(four_player, tmp_path):
    plain = tmp_path / "game.txt"
    plain.write_bytes(gzip.decompress(gzip.compress(four_player[2].read_bytes())))
    zipped = tmp_path / "game.log.gz"
    zipped.write_bytes(gzip.compress(four_player[2].read_bytes()))
    for path in (plain, zipped):
        (report,) = replay_file(str(path))
        assert report.format == "mjai" and report.status == "agree"


@pytest.mark.slow
@pytest.mark.parametrize("policy", [DEFAULT, EAGER], ids=lambda p: p.name)
def test_a_thousand_games_of_each_policy_agree(policy, tmp_path):
    """2,000 games in all (about 25,000 hands)."""
    first = 10_000 if policy is DEFAULT else 20_000
    assert _assert_agrees(_games(tmp_path, range(first, first + 1000), "4p-red-half", policy)) > 10_000


@pytest.mark.slow
@pytest.mark.parametrize("policy", [DEFAULT, EAGER], ids=lambda p: p.name)
def test_a_thousand_three_player_games_of_each_policy_agree(policy, tmp_path):
    """2,000 three-player games in all (about 19,000 hands)."""
    first = 30_000 if policy is DEFAULT else 40_000
    assert _assert_agrees(_games(tmp_path, range(first, first + 1000), "3p-red-half", policy)) > 8_000


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["4p-red-half", "3p-red-half"])
def test_games_of_a_policy_that_calls_everything_and_never_rons_agree(mode, tmp_path):
    """The brawler policy: nearly every call, every riichi, kan and 北, wins by tsumo only (every
    ron let go by: furiten everywhere), a random discard now and then — 30 games of each size."""
    first = 50_000 if mode.startswith("4") else 51_000
    paths = _games(tmp_path, range(first, first + 30), mode, BRAWLER)
    assert _assert_agrees(paths) > 250
    events = [json.loads(line) for path in paths for line in path.read_text(encoding="utf-8").splitlines()]
    assert not any(e["type"] == "hora" and e["actor"] != e["target"] for e in events)  # no ron at all
    assert sum(e["type"] in ("pon", "chi", "daiminkan") for e in events) > 30 * 10


def test_a_three_player_log_is_read_as_three_players_and_its_north_set_aside(three_player):
    (record,) = read_mjai(three_player[0].read_text(encoding="utf-8"), "x.mjson")
    assert record.players == 3 and all(len(h.deal) == 3 and len(h.scores) == 3 for h in record.hands)
    assert any(m.verb == "nuki" and m.tile == "4z" for h in record.hands for m in h.moves)
    (report,) = replay_file(str(three_player[0]))
    assert report.ruleset == "tenhou-3p" and report.status == "agree"
