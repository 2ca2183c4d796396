"""Word Rummy's ``solve --discards``: each discard's table of kana that, drawn, let the hand go out,
against a brute force (tests/word_oracle.py: every kana drawn, every multiset of words of a small
word list tried), and through the command line (JSON, text, batch, copies left)."""

from __future__ import annotations

import json
from collections import Counter

import word_oracle
from clirun import ROOT, run
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples

from solver.core.ruleset import load_ruleset
from solver.games.words.session import WordSession

SMALL = ROOT / "puzzles" / "word-rummy" / "small-words.txt"
GAME = load_ruleset("word-rummy").rules
WORDS = [w for line in SMALL.read_text(encoding="utf-8").splitlines() if (w := line.split("#")[0].strip())]
KEYS = word_oracle.word_list_keys(WORDS, GAME)
LETTERS = sorted(set("".join(KEYS)))


def brute_draws(hand: list[str], table: list[str], loose: list[str], has_word: bool, last_lap: bool) -> dict:
    """Each distinct hand tile and the set of kana whose draw after letting it go empties the hand."""
    least = 2 if last_lap else 3
    out = {}
    for discard in set(hand):
        rest = list(hand)
        rest.remove(discard)
        out[discard] = {
            kana
            for kana in GAME.tile_kinds
            if word_oracle.brute_best([*rest, kana], table, loose, has_word, least, KEYS) == len(hand)
        }
    return out


@settings(max_examples=examples(12), deadline=None)
@given(
    hand=st.lists(st.sampled_from(LETTERS), min_size=1, max_size=4),
    table=st.lists(st.sampled_from([w for w in WORDS if len(w) >= 3]), max_size=1),
    loose=st.lists(st.sampled_from(list("ねやか")), max_size=1),
    has_word=st.booleans(),
    last_lap=st.booleans(),
)
def test_discard_tables_agree_with_brute_force(hand, table, loose, has_word, last_lap):
    session = WordSession(load_ruleset("word-rummy"), (SMALL,), False)
    facts = {"hand": "".join(hand), "table": table, "loose": "".join(loose), "has_word": has_word}
    result, code = session.discards({**facts, "last_lap": last_lap})
    table_keys = ["".join(word_oracle.tiles_of(w, GAME) or ()) for w in table]
    expected = brute_draws(hand, table_keys, loose, has_word, last_lap)
    got = {row["discard"]: {d["card"] for d in row["draws"]} for row in result["discards"]}
    assert got == expected
    assert code == (0 if any(expected.values()) else 1)
    assert result["goes_out_now"] == (
        word_oracle.brute_best(hand, table_keys, loose, has_word, 2 if last_lap else 3, KEYS) == len(hand)
    )
    kinds = [row["kinds"] for row in result["discards"]]
    assert kinds == sorted(kinds, reverse=True)  # copies unknown: the most kana first


def test_copies_left_count_the_hand_the_table_and_the_visible_tiles():
    session = WordSession(load_ruleset("word-rummy", {"tile-copies": 2}), (SMALL,), False)
    result, code = session.discards({"hand": "たぬね", "table": ["きつね"], "has_word": True, "visible": "き"})
    assert result["copies"] == 2
    seen = Counter("たぬね") + Counter("きつね") + Counter("き")
    rows = {row["discard"]: row for row in result["discards"]}
    # たぬき from the hand once ね goes and き comes: but the table's きつね and the visible き leave no き
    expected = brute_draws(list("たぬね"), ["きつね"], [], True, False)
    for discard, row in rows.items():
        assert {d["card"] for d in row["draws"]} == {k for k in expected[discard] if 2 - seen[k] > 0}
        assert all(d["left"] == 2 - seen[d["card"]] for d in row["draws"])
        assert row["draws_total"] == sum(d["left"] for d in row["draws"])
    assert code == (0 if any(row["draws"] for row in rows.values()) else 1)
    assert rows["ね"]["draws"] == []  # き would spell たぬき, but no き is left
    totals = [row["draws_total"] for row in result["discards"]]
    assert totals == sorted(totals, reverse=True)


def test_discards_through_the_command_line_and_a_batch(tmp_path):
    args = ["solve", "-r", "word-rummy", "--dict", str(SMALL), "--no-default-dict", "--discards"]
    result = run(*args, "--hand", "たぬね", "--json")
    data = json.loads(result.output)
    assert result.exit_code == 0 and data["question"] == "discards" and data["hand"] == ["た", "ぬ", "ね"]
    row = next(r for r in data["discards"] if r["discard"] == "ね")
    assert {"card": "き", "left": None} in row["draws"] and row["draws_total"] is None
    text = run(*args, "--hand", "たぬね").output
    assert "ね" in text and "き" in text and "copies left unknown" in text
    lines = tmp_path / "lines.jsonl"
    lines.write_text(
        json.dumps({"hand": "たぬね"}) + "\n" + json.dumps({"hand": "をを", "visible": "を"}) + "\n", encoding="utf-8"
    )
    out = [json.loads(line) for line in run(*args, "--batch", str(lines)).stdout.splitlines()]
    assert [o["hand"] for o in out] == [["た", "ぬ", "ね"], ["を", "を"]]
    assert out[1]["visible"] == ["を"] and out[1]["discards"][0]["draws"] == []
    assert run(*args[:-1], "--hand", "たぬね", "--visible", "き").exit_code == 2  # --visible needs --discards


def test_a_budget_cut_short_is_undecided_in_text_and_json():
    args = ["solve", "-r", "word-rummy", "--dict", str(SMALL), "--no-default-dict", "--discards", "--hand", "たぬね"]
    for extra in ([], ["--json"]):
        result = run(*args, "--table", "さかな", "--has-melded", "--max-seconds", "0.001", *extra)
        assert result.exit_code == 3 and "undecided" in result.stdout
