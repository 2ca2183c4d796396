"""Word Rummy (ワードラミー牌): tiles, the dictionary, the turn rules, bonus words and scoring. Every
answer is re-checked by tests/word_oracle.py; small turns are compared with exhaustive search."""

from __future__ import annotations

import gzip
from collections import Counter
from pathlib import Path

import pytest
import word_oracle
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from profiles import examples

from solver.core.errors import MeldsError, Undecided
from solver.core.files import load_document
from solver.core.registry import load_game
from solver.core.ruleset import load_ruleset
from solver.core.state import state_from_data
from solver.core.yamlload import load_file
from solver.games.words.puzzles import is_word_puzzle, puzzle_facts
from solver.games.words.session import WordSession
from solver.games.words.tiles import Dictionary, TileSet, normalise
from solver.games.words.turn import Turn, solve_bonus, solve_turn
from solver.sat import budget as budgets

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = sorted(p for p in (ROOT / "puzzles" / "word-rummy").glob("*.yaml") if is_word_puzzle(load_file(p)))
SMALL_LIST = ROOT / "puzzles" / "word-rummy" / "small-words.txt"
GAME = load_ruleset("word-rummy").rules


def small_words() -> list[str]:
    return [
        line.split("#")[0].strip()
        for line in SMALL_LIST.read_text(encoding="utf-8").splitlines()
        if line.split("#")[0].strip()
    ]


@pytest.fixture(scope="module")
def jmdict() -> Dictionary:
    return Dictionary.for_game(GAME)


@pytest.fixture(scope="module")
def small() -> Dictionary:
    return Dictionary.for_game(GAME, [SMALL_LIST], default=False)


def tiles(game, text):
    return TileSet(game).spell(text)


# -- tiles --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("がっこう", "か゛つこう"),  # 濁点 is a tile of its own; っ is spelled with つ
        ("ぱん", "は゜ん"),  # so is 半濁点
        ("ガッコウ", "か゛つこう"),  # katakana folds to hiragana
        ("ｶﾞｯｺｳ", "か゛つこう"),  # half-width too
        ("か゛っこう", "か゛つこう"),  # the tile form
        ("か\u3099っこう", "か゛つこう"),  # a combining mark
        ("ちょっと", "ちよつと"),  # small ょ and っ
        ("ふぁん", "ふあん"),  # small ぁ: the FAQ's など (option small-kana: all)
        ("ゔぃ", "う゛い"),  # ゔ is う plus ゛
    ],
)
def test_spelling_in_tiles(text, expected):
    spelled = tiles(GAME, text)
    assert spelled.missing == () and spelled.key == expected
    assert len(spelled.tiles) == len(expected)  # a word's length counts tiles (牌1枚で1文字)


def test_letters_without_tiles_are_reported():
    assert tiles(GAME, "コーヒー").missing == ("ー", "ー")
    assert tiles(GAME, "ゐる").missing == ("ゐ",)
    four = load_ruleset("word-rummy", {"small-kana": "tsu-ya-yu-yo"}).rules
    assert tiles(four, "ふぁん").missing == ("ぁ",)
    assert tiles(four, "きゃっと").missing == ()
    assert "small kana allowed: っゃゅょ" in TileSet(four).why_missing("ぁ")


def test_tile_set_options():
    voiced = load_ruleset("word-rummy", {"voiced-tiles": True}).rules
    assert tiles(voiced, "がっこう").tiles == ("が", "つ", "こ", "う")
    assert "゛" not in voiced.tile_kinds
    assert tiles(voiced, "か゛").key == "が"  # typed in tile form, still the one voiced tile
    long = load_ruleset("word-rummy", {"long-vowel-tile": True}).rules
    assert tiles(long, "コーヒー").tiles == ("こ", "ー", "ひ", "ー")
    assert len(GAME.tile_kinds) == 48 and GAME.marks == "゛゜"


def test_tiles_reject_what_no_tile_spells():
    with pytest.raises(MeldsError, match="no tile spells ー"):
        TileSet(GAME).tiles("こーひー", "hand")
    with pytest.raises(MeldsError, match="no tile spells a"):
        TileSet(GAME).tiles("abc", "hand")


def test_normalise_keeps_a_stray_mark_as_its_tile():
    assert normalise("あ゛") == "あ\u3099"
    assert tiles(GAME, "あ゛").tiles == ("あ", "゛")


# -- the dictionary -----------------------------------------------------------------------------------


def test_default_dictionary_is_jmdict_with_a_report(jmdict):
    (report,) = jmdict.reports
    assert report.name == "JMdict" and report.loaded > 150_000
    assert report.skipped["needing a letter no tile spells"] > 0  # katakana words with ー, ゐ, …
    entry = jmdict.lookup(tiles(GAME, "がっこう"))[0]
    assert entry.reading == "がっこう" and "学校" in entry.headwords and entry.common
    # the index is on tiles: がつこう spells the same tiles as がっこう
    assert jmdict.lookup(tiles(GAME, "がつこう"))[0].reading == "がっこう"


def test_user_lists_comments_gzip_and_skips(tmp_path):
    plain = tmp_path / "mine.txt"
    plain.write_text("# our table's words\nぬぬぬ\n\nコーヒー  # no ー tile\nabc\nぽぽぽ # comment\n", encoding="utf-8")
    packed = tmp_path / "more.txt.gz"
    with gzip.open(packed, "wt", encoding="utf-8") as fh:
        fh.write("むむむ\n")
    d = Dictionary.for_game(GAME, [plain, packed], default=False)
    mine, more = d.reports
    assert (mine.loaded, more.loaded) == (2, 1)
    assert mine.skipped == Counter({"needing a letter no tile spells": 1, "not kana": 1})
    assert mine.examples["not kana"] == ["line 5: abc"]
    assert d.lookup(tiles(GAME, "ぽぽぽ"))[0].source == "mine.txt"
    assert d.lookup(tiles(GAME, "むむむ"))


def test_exclude_bans_exact_readings(tmp_path, jmdict):
    banned = tmp_path / "ban.txt"
    banned.write_text("がっこう\n", encoding="utf-8")
    d = Dictionary.for_game(GAME, [], exclude=[banned])
    assert not [e for e in d.lookup(tiles(GAME, "がっこう")) if e.reading == "がっこう"]
    assert d.reports[-1].loaded == 1  # one entry removed, reported


def test_bad_word_lists_are_clear_errors(tmp_path):
    broken = tmp_path / "latin1.txt"
    broken.write_bytes("ねこ\n".encode() + b"\xff\xfe\n")
    with pytest.raises(MeldsError, match="not UTF-8"):
        Dictionary.for_game(GAME, [broken], default=False)
    with pytest.raises(MeldsError, match="no word list"):
        Dictionary.for_game(GAME, [tmp_path / "missing.txt"], default=False)


HELD = st.lists(
    st.sampled_from(list("あいうかきくこさしたつてとなにねのはまみらりるれん゛つ")), min_size=3, max_size=14
)


@settings(max_examples=examples(10), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(HELD, st.integers(2, 4))
def test_formable_walk_finds_exactly_the_words_the_tiles_spell(jmdict, held, least):
    formable_walk_is_exact(jmdict, held, least)


@pytest.mark.slow  # about a minute: each example walks the whole JMdict word list
@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(HELD, st.integers(2, 4))
def test_formable_walk_finds_exactly_the_words_the_tiles_spell_at_length(jmdict, held, least):
    formable_walk_is_exact(jmdict, held, least)


def formable_walk_is_exact(jmdict, held, least) -> None:
    available = Counter(held)
    found = jmdict.formable(available, least)
    expected = [k for k in jmdict.keys if len(k) >= least and not Counter(k) - available]
    assert found == expected


# -- the turn -----------------------------------------------------------------------------------------


def turn_result(d: Dictionary, turn: Turn) -> dict:
    session = WordSession(load_ruleset("word-rummy"))
    session._dictionary = d
    return session.turn_json(turn, solve_turn(d, turn, GAME))


def check(d: Dictionary, turn: Turn, keys: frozenset) -> dict:
    result = turn_result(d, turn)
    least = GAME.min_length["last_lap" if turn.last_lap else "table"]
    problems = word_oracle.check_turn(
        result, list(turn.hand), list(turn.table), list(turn.loose), turn.has_word, least, keys
    )
    assert problems == [], problems
    return result


def key(text: str) -> str:
    return TileSet(GAME).spell(text).key


@pytest.fixture(scope="module")
def small_keys() -> frozenset:
    return word_oracle.word_list_keys(small_words(), GAME)


def test_one_word_from_the_hand_per_turn(small, small_keys):
    turn = Turn(tuple(key("たぬききつね")), (key("さかな"),), has_word=True)
    result = check(small, turn, small_keys)
    assert result["placed"] == 3 and not result["goes_out"]
    # a loose relief tile lets the second word be an arrangement
    turn = Turn(tuple(key("たぬききつ")), (key("さかな"),), tuple("ね"), has_word=True)
    assert check(small, turn, small_keys)["goes_out"]


def test_no_arranging_before_the_first_word(small, small_keys):
    without = check(small, Turn(("や",), (key("さかな"),), has_word=False), small_keys)
    assert without["placed"] == 0
    assert without["reasons"][0]["code"] == "no-arranging-yet"
    assert without["reasons"][0]["source"]["quote"].startswith("3.の条件を満たしたプレイヤー")
    after = check(small, Turn(("や",), (key("さかな"),), has_word=True), small_keys)
    assert after["goes_out"] and after["arranged"] and [w["word"] for w in after["table"]] == ["さかなや"]


def test_table_words_stay_three_tiles_except_in_the_last_lap(small, small_keys):
    assert check(small, Turn(tuple("ねこ")), small_keys)["placed"] == 0
    assert check(small, Turn(tuple("ねこ"), last_lap=True), small_keys)["goes_out"]
    with pytest.raises(MeldsError, match="needs 3"):
        solve_turn(small, Turn(tuple("ねこ"), ("いぬ",)), GAME)


def test_table_word_outside_the_dictionary_may_stay(small, small_keys):
    turn = Turn(tuple(key("たぬき")), (key("ぬぬぬ"),), has_word=True)
    result = check(small, turn, small_keys)
    assert result["goes_out"]
    assert {"ぬぬぬ", "たぬき"} == {w["word"] for w in result["table"]}
    assert not next(w for w in result["table"] if w["word"] == "ぬぬぬ")["in_dictionary"]


WORDS = small_words()


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    hand=st.lists(st.sampled_from(sorted(set("".join(key(w) for w in WORDS)))), min_size=1, max_size=5),
    table=st.lists(st.sampled_from(WORDS), max_size=2),
    loose=st.lists(st.sampled_from(list("ねやみか")), max_size=1),
    has_word=st.booleans(),
    last_lap=st.booleans(),
)
def test_small_turns_agree_with_exhaustive_search(small, small_keys, hand, table, loose, has_word, last_lap):
    least = GAME.min_length["last_lap" if last_lap else "table"]
    table_keys = tuple(key(w) for w in table if len(key(w)) >= least)  # a table holds no short word
    turn = Turn(tuple(hand), table_keys, tuple(loose), has_word, last_lap)
    result = check(small, turn, small_keys)
    expected = word_oracle.brute_best(list(hand), list(table_keys), list(loose), has_word, least, small_keys)
    assert result["placed"] == expected


def test_answers_prefer_common_words_and_the_full_dictionary_goes_out(jmdict):
    keys = word_oracle.dictionary_keys(str(GAME.dictionary_file), id(GAME), GAME)
    turn = Turn(
        tuple(key("たいへんおもしろいかえる")),
        tuple(key(w) for w in ("がっこう", "さくら", "ねこじた", "みどり", "てがみ")),
        has_word=True,
    )
    result = check(jmdict, turn, keys)
    assert result["goes_out"] and result["placed"] == 12


# -- bonus words and scoring ------------------------------------------------------------------------


def brute_bonus(revealed: list[str], keys: frozenset) -> int:
    """The most tiles of ``revealed`` covered by disjoint words of 2+ tiles (exhaustive)."""
    pool = Counter(revealed)
    fits = sorted(k for k in keys if len(k) >= 2 and not Counter(k) - pool)
    best = 0

    def grow(start: int, left: Counter, used: int) -> None:
        nonlocal best
        best = max(best, used)
        for i in range(start, len(fits)):
            need = Counter(fits[i])
            if not need - left:
                grow(i, left - need, used + len(fits[i]))

    grow(0, pool, 0)
    return best


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(sorted(set("".join(key(w) for w in WORDS)))), min_size=1, max_size=8))
def test_bonus_words_are_the_most_tiles(small, small_keys, revealed):
    answer = solve_bonus(small, tuple(revealed), GAME)
    assert answer.placed == brute_bonus(revealed, small_keys)
    spelled = Counter("".join(w.key for w in answer.new_words))
    assert not spelled - Counter(revealed)
    assert all(w.key in small_keys and len(w.key) >= 2 for w in answer.new_words)
    assert Counter(answer.kept) + spelled == Counter(revealed)


def test_score_counts_minus_one_and_minus_two():
    session = WordSession(load_ruleset("word-rummy"), (SMALL_LIST,), False)
    result, code = session.score({"hand": "ねこいぬか", "bonus_words": ["ねこ", "いぬ"]})
    assert code == 0 and result["points"] == -1 * 1 + -2 * 4
    assert result["source"]["bonus_tile"]["quote"] == "ワード(言葉)が作られた牌は1枚につき-2点となります。"
    result, code = session.score({"hand": "ねこいぬか", "bonus_words": "ねこ,ねこ"})
    assert code == 1 and result["points"] is None
    assert result["reasons"][0]["code"] == "tiles-not-revealed"
    result, code = session.score({"hand": "ねこいぬか", "bonus_words": ["たぬき"]})
    assert code == 1 and result["reasons"][0]["code"] == "tiles-not-revealed"
    result, _ = session.score({"hand": "ねこいぬか"})
    assert result["points"] == -5


def test_tile_copies_option_limits_a_position():
    session = WordSession(load_ruleset("word-rummy", {"tile-copies": 1}), (SMALL_LIST,), False)
    with pytest.raises(MeldsError, match="more tiles than the set holds"):
        session.solve({"hand": "ねね", "table": ["きつね"], "has_word": True})


# -- the puzzles ------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", PUZZLES, ids=lambda p: p.stem)
def test_word_puzzle_answers_match_and_stand(path):
    data = load_file(path)
    assert data.get("expect") and data.get("notes"), "every bundled puzzle states its answer and how"
    document = load_document(path)
    row = load_game(document.ruleset).answer(document, {}).data
    assert row["matches"], row["mismatches"]
    if data["question"] != "word-turn":
        return
    ruleset = load_ruleset("word-rummy", data.get("options"))
    game = ruleset.rules
    spec = data.get("dictionary", {})
    keys = (
        word_oracle.word_list_keys(small_words(), game)
        if spec.get("files")
        else word_oracle.dictionary_keys(str(game.dictionary_file), id(game), game)
    )
    facts = puzzle_facts(data)
    ts = TileSet(game)
    hand, table, loose = (
        list(ts.tiles(facts["hand"])),
        [ts.spell(w).key for w in facts["table"]],
        list(ts.tiles(facts["loose"])),
    )
    least = game.min_length["last_lap" if facts["last_lap"] else "table"]
    assert word_oracle.check_turn(row, hand, table, loose, facts["has_word"], least, keys) == []
    if spec.get("files"):  # small lists: the expectation is also the exhaustive optimum
        assert row["placed"] == word_oracle.brute_best(hand, table, loose, facts["has_word"], least, keys)


def test_every_spelling_in_the_notation_doc_spells_as_it_says():
    import re

    text = (ROOT / "docs" / "notation.md").read_text(encoding="utf-8").split("## Word Rummy")[1]
    rows = re.findall(r"^\| `([^`]+)` \| ([^|]+) \|", text, flags=re.M)
    assert len(rows) == 8
    for written, shown in rows:
        assert " ".join(tiles(GAME, written).tiles) == shown.strip()
    assert tiles(GAME, "が っ こ う").key == "か゛つこう"
    assert tiles(load_ruleset("word-rummy", {"long-vowel-tile": True}).rules, "コーヒー").tiles == (
        "こ",
        "ー",
        "ひ",
        "ー",
    )


def test_an_undecided_bonus_search_in_a_settlement_is_undecided_not_bad_input(monkeypatch):
    """A hand settled (melds replay) whose bonus search runs out of budget is undecided, exit 3;
    the search is run under a memory ceiling already passed (one byte)."""
    ruleset = load_ruleset("word-rummy")
    start = {"players": ["A", "B"], "turn": "B", "step": "play", "hands": {"A": "", "B": "ねこいぬかさ"}, "stock": 3}
    state = state_from_data(start, Path("hand.yaml"), ruleset)
    monkeypatch.setattr(budgets, "_default_memory", 1)
    with pytest.raises(Undecided, match="bonus words") as raised:
        load_game(ruleset).settle_hand(state, state)
    assert raised.value.exit_code == 3
