"""Shanten and 何切る discard tables (melds solve --shanten / --discards) against the plain oracle of
tests/shanten_oracle.py, and through the command line. The peers (the ``mahjong`` package and
riichienv) are in tests/test_shanten_peers.py."""

from __future__ import annotations

import json
import random

import pytest
import shanten_oracle as oracle
from clirun import run

from solver.core.registry import load_game
from solver.core.ruleset import load_ruleset

RULESETS = {"gensou-mahjong": False, "gensou-mahjong-3p": True}  # ruleset -> three players


def game(ruleset: str):
    return load_game(load_ruleset(ruleset))


def shanten_of(ruleset: str, hand: str) -> dict:
    return game(ruleset).solve({"hand": hand, "shanten": True}).data


def table_of(ruleset: str, hand: str, visible: str = "", dora: str = "") -> dict:
    return game(ruleset).solve({"hand": hand, "discards": True, "visible": visible, "dora_indicators": dora}).data


def deals(seed: int, count: int, three_player: bool, sizes=(13, 14)) -> list[oracle.Deal]:
    rng = random.Random(seed)
    out = []
    for k in range(count):
        size = sizes[k % len(sizes)]
        out.append(
            oracle.full_wall_deal(rng, size, three_player)
            if k % 4 == 0
            else oracle.random_deal(rng, size, three_player)
        )
    return out


def check_shanten(ruleset: str, deal: oracle.Deal) -> None:
    data = shanten_of(ruleset, deal.text)
    want = oracle.by_shape(deal.counts, deal.declared, deal.three_player)
    assert data["by_shape"] == want, deal.text
    assert data["shanten"] == min(n for n in want.values() if n is not None), deal.text
    assert data["shapes"] == [shape for shape, n in want.items() if n == data["shanten"]]


def seen_tiles(rng: random.Random, deal: oracle.Deal, most: int) -> tuple[str, str, list[int]]:
    """Random tiles seen outside the hand (the first one as the dora indicator): their texts and
    the copies left of each tile."""
    held = deal.all_counts()
    exists = [t for t in range(34) if not (deal.three_player and t in oracle.THREE_PLAYER_ABSENT)]
    wall = [t for t in exists for _ in range(4 - held[t])]
    seen = rng.sample(wall, rng.randint(0, most))
    left = [4 - held[t] - seen.count(t) for t in range(34)]
    visible = " ".join(oracle.tile_name(t) for t in seen[1:])
    return visible, oracle.tile_name(seen[0]) if seen else "", left


def check_table(ruleset: str, deal: oracle.Deal, rng: random.Random) -> None:
    visible, dora, left = seen_tiles(rng, deal, 24)
    data = table_of(ruleset, deal.text, visible, dora)
    assert data["discards"] == oracle.discard_table(deal.counts, deal.declared, left, deal.three_player), deal.text
    assert data["shanten"] == oracle.shanten(deal.counts, deal.declared, deal.three_player)


# -- against the plain oracle -------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_shanten_by_shape_matches_the_oracle(ruleset):
    for deal in deals(1, 500, RULESETS[ruleset]):
        check_shanten(ruleset, deal)


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_discard_tables_match_brute_force(ruleset):
    rng = random.Random(2)
    for deal in deals(3, 15, RULESETS[ruleset], sizes=(14,)):
        check_table(ruleset, deal, rng)


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_shanten_by_shape_matches_the_oracle_many(ruleset):
    for deal in deals(11, 20000, RULESETS[ruleset]):
        check_shanten(ruleset, deal)


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_discard_tables_match_brute_force_many(ruleset):
    rng = random.Random(12)
    for deal in deals(13, 1000, RULESETS[ruleset], sizes=(14,)):
        check_table(ruleset, deal, rng)


def test_every_automaton_step_is_the_programme_run_plainly():
    """The automata (built once, kept in the cache) answer as the programme does, and a suit beyond
    them (more than four of a tile, as no hand holds) is run plainly."""
    tables = game("gensou-mahjong").shanten_tables
    rng = random.Random(4)
    for shape in tables.shapes:
        for programme, automaton in zip(shape.programmes, shape.automata, strict=True):
            width = len(programme.steps)
            for _ in range(300):
                counts = [0] * width
                for rank in rng.sample([r for r in range(width) for _ in range(4)], rng.randint(0, 14)):
                    counts[rank] += 1
                key = sum(n << 4 * r for r, n in enumerate(counts))
                assert automaton.ends[automaton.last_state(key)] == programme.table(counts)
            assert automaton.last_state(5) == -1


# -- hands worked by hand ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "shanten", "by_shape"),
    [
        ("123m456p789s11122z", -1, {"standard": -1, "chiitoitsu": 4, "kokushi": 8}),  # a winning hand
        ("1113456788999p", 0, {"standard": 0, "chiitoitsu": 3, "kokushi": 10}),  # nine gates
        ("19m19p19s1234567z", 0, {"standard": 8, "chiitoitsu": 6, "kokushi": 0}),  # thirteen-sided orphans
        ("1122m3344p5566s7z", 0, {"standard": 3, "chiitoitsu": 0, "kokushi": 10}),  # seven pairs, single wait
        # four of a tile are one pair to 七対子, never two (the ruleset's 四枚使いの七対子は認められない)
        ("1111m2233p4455s66z", 1, {"standard": 2, "chiitoitsu": 1, "kokushi": 10}),
        ("1357m2468p13579s", 4, {"standard": 4, "chiitoitsu": 6, "kokushi": 10}),
        ("123m 456p 7z [789s] (1111z)", 0, {"standard": 0, "chiitoitsu": None, "kokushi": None}),
    ],
)
def test_hands_worked_by_hand(hand, shanten, by_shape):
    data = shanten_of("gensou-mahjong", hand)
    assert (data["shanten"], data["by_shape"]) == (shanten, by_shape)


def test_a_wait_on_a_tile_held_four_times_is_no_tenpai_to_shanten():
    """形式聴牌: the ruleset counts 1111m + three melds as tenpai on a fifth 1m (--waits says so),
    but no 1m is left to draw: the standard shanten is 1, as the oracle and the peers say."""
    hand = "1111m234p567p789s"
    assert run("solve", "-r", "gensou-mahjong", "--waits", hand, "--json").exit_code == 0
    data = shanten_of("gensou-mahjong", hand)
    assert data["shanten"] == 1 == oracle.shanten(oracle.read_hand(hand)[0])


def test_the_document_example_discard_table():
    data = table_of("gensou-mahjong", "1113456788999p5s")
    best = data["discards"][0]
    assert best == {
        "discard": "5s",
        "shanten": 0,
        "ukeire": [{"tile": t, "left": n} for t, n in (("2p", 4), ("5p", 3), ("7p", 3), ("8p", 2))],
        "ukeire_total": 12,
    }
    assert data["shanten"] == 0 and all(row["shanten"] >= 0 for row in data["discards"])


def test_seen_tiles_lower_the_copies_left_and_reorder_the_table():
    hand = "123456m2378p4568s"
    plain = table_of("gensou-mahjong", hand)["discards"]
    assert plain[0]["discard"] == "8s" and plain[0]["ukeire_total"] == 28
    seen = table_of("gensou-mahjong", hand, visible="1p1p1p4p4p", dora="9p")["discards"]
    by_tile = {row["discard"]: row for row in seen}
    assert by_tile["8s"]["ukeire_total"] == 28 - 3 - 2 - 1
    assert {"tile": "1p", "left": 1} in by_tile["8s"]["ukeire"]
    order = [(row["shanten"], -row["ukeire_total"]) for row in seen]
    assert order == sorted(order)


def test_red_fives_count_as_fives():
    red = table_of("gensou-mahjong", "1230m456p789s1122z")
    plain = table_of("gensou-mahjong", "1235m456p789s1122z")
    assert red["discards"] == plain["discards"]
    assert (
        table_of("gensou-mahjong", "123m456p789s111z22z", visible="0m")["discards"]
        == table_of("gensou-mahjong", "123m456p789s111z22z", visible="5m")["discards"]
    )


def test_three_players_never_draw_the_missing_manzu():
    data = table_of("gensou-mahjong-3p", "19m 1234p 5678s 1122z")
    drawn = {u["tile"] for row in data["discards"] for u in row["ukeire"]}
    assert drawn and not drawn & {f"{n}m" for n in range(2, 9)}


# -- the command line ---------------------------------------------------------------------------------------


def test_shanten_text_names_each_shape():
    result = run("solve", "-r", "gensou-mahjong", "--shanten", "1239m1p345s11223z")
    assert result.exit_code == 1
    assert "2向聴 (shanten 2): 一般形 2, 七対子 4, 国士無双 6" in result.output
    closed = run("solve", "-r", "gensou-mahjong", "--shanten", "123m 456p 7z [789s] (1111z)")
    assert closed.exit_code == 0
    assert "tenpai (聴牌, shanten 0)" in closed.output and "七対子 — (not with melds declared)" in closed.output


def test_discards_text_lists_the_rows_best_first():
    result = run("solve", "-r", "gensou-mahjong", "--discards", "1113456788999p5s")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert "each discard, best first" in lines[1]
    assert "5s" in lines[2] and "→ tenpai, 12 tiles to draw: 2p" in lines[2]


def test_shanten_and_discards_through_a_batch(tmp_path):
    lines = [
        {"hand": "1113456788999p", "question": "shanten"},
        {"hand": "1113456788999p5s", "discards": True, "visible": "2p"},
        {"hand": "1113456788999p5s", "question": "discards", "dora_indicators": "8p"},
        {"hand": "1113456788999p", "shanten": True, "discards": True},
        {"hand": "111345678899p", "shanten": True},
    ]
    batch = tmp_path / "lines.jsonl"
    batch.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    result = run("solve", "-r", "gensou-mahjong", "--batch", str(batch))
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert [o["line"] for o in out] == [1, 2, 3, 4, 5]
    assert out[0]["shanten"] == 0 and out[0]["by_shape"]["standard"] == 0
    assert out[1]["discards"][0]["ukeire_total"] == 11 and out[1]["visible"] == "2p"
    assert out[2]["discards"][0]["ukeire_total"] == 11 and out[2]["dora_indicators"] == "8p"
    assert out[3]["error"]["code"] == "bad-input" and "ask one question" in out[3]["error"]["message"]
    assert out[4]["error"]["code"] == "bad-input" and "12" in out[4]["error"]["message"]
    assert result.exit_code == 2
    flagged = tmp_path / "hands.jsonl"
    flagged.write_text('{"hand": "123m456p789s1122z"}\n{"hand": "1357m2468p13579s"}\n', encoding="utf-8")
    both = run("solve", "-r", "gensou-mahjong", "--shanten", "--batch", str(flagged))
    assert [json.loads(line)["shanten"] for line in both.stdout.splitlines()] == [0, 4]
    assert both.exit_code == 1  # the worst line: not tenpai


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--shanten", "123m456p"), "13 or 14 tiles"),
        (("--discards", "1113456788999p"), "14 tiles"),
        (("--discards", "1113456788999p5s", "--visible", "1p1p"), "1p: 3 in the hand and 2 seen"),
        (("--waits", "1113456788999p", "--visible", "1p"), "go with --discards"),
        (("--shanten", "--waits", "1113456788999p"), "ask one question"),
    ],
)
def test_bad_input_is_one_clear_error(args, message):
    result = run("solve", "-r", "gensou-mahjong", *args, "--json")
    assert result.exit_code == 2
    assert message in json.loads(result.stdout)["error"]["message"]
