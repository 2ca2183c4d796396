"""Word Rummy through the command line: check, solve a turn, bonus words, score; batches; word
lists; errors. Through click's runner and a real subprocess."""

from __future__ import annotations

import json

from clirun import ROOT, run, subprocess_run

SMALL = str(ROOT / "puzzles" / "word-rummy" / "small-words.txt")


def as_json(result) -> dict:
    return json.loads(result.output)


# -- melds check ----------------------------------------------------------------------------------


def test_check_one_word_json_shape():
    result = run("check", "-r", "word-rummy", "がっこう", "--json")
    assert result.exit_code == 0
    data = as_json(result)
    assert data["legal"] is True and data["word"] == "がっこう"
    assert data["tiles"] == ["か", "゛", "つ", "こ", "う"]
    assert data["entry"] == "がっこう【学校・學校】" and data["reasons"] == []
    assert data["dictionary"]["sources"][0]["name"] == "JMdict"


def test_check_several_words_text_and_exit_code():
    result = run("check", "-r", "word-rummy", "ネコジタ", "ねこ", "こーひー", "ぬぬぬ")
    assert result.exit_code == 1
    out = result.output
    assert "✓ ねこじた  5 tiles: ね こ し ゛ た" in out
    assert "✗ ねこ  2 tiles" in out and "a word needs 3" in out
    assert "ー has no tile (option long-vowel-tile adds one)" in out
    assert "ぬぬぬ is not in the dictionary (JMdict)" in out and "--dict FILE" in out
    data = as_json(run("check", "-r", "word-rummy", "ねこ", "がっこう", "--json"))
    assert data["legal"] is False and [w["legal"] for w in data["words"]] == [False, True]
    assert data["words"][0]["reasons"][0]["code"] == "too-short"


def test_check_last_lap_and_options():
    assert run("check", "-r", "word-rummy", "--last-lap", "ねこ").exit_code == 0
    assert run("check", "-r", "word-rummy", "-o", "long-vowel-tile=true", "コーヒー").exit_code == 0
    voiced = as_json(run("check", "-r", "word-rummy", "-o", "voiced-tiles=true", "がっこう", "--json"))
    assert voiced["tiles"] == ["が", "つ", "こ", "う"]


def test_user_word_lists(tmp_path):
    mine = tmp_path / "mine.txt"
    mine.write_text("ぬぬぬ\nabc\n", encoding="utf-8")
    result = run("check", "-r", "word-rummy", "--dict", str(mine), "ぬぬぬ", "--json")
    assert result.exit_code == 0
    data = as_json(result)
    assert data["entries"][0]["source"] == "mine.txt"
    assert data["dictionary"]["sources"][1] == {
        "name": "mine.txt",
        "loaded": 1,
        "skipped": {"not kana": 1},
        "examples": {"not kana": ["line 2: abc"]},
    }
    only = run("check", "-r", "word-rummy", "--dict", str(mine), "--no-default-dict", "がっこう")
    assert only.exit_code == 1 and "not in the dictionary (mine.txt)" in only.output
    ban = tmp_path / "ban.txt"
    ban.write_text("ぬぬぬ\n", encoding="utf-8")
    banned = run("check", "-r", "word-rummy", "--dict", str(mine), "--exclude", str(ban), "ぬぬぬ")
    assert banned.exit_code == 1 and "on an --exclude list" in banned.output


def test_bad_input_exits_2():
    assert run("check", "-r", "word-rummy", "--dict", "/no/such/list.txt", "ねこ").exit_code == 2
    assert run("check", "-r", "word-rummy", "--no-default-dict", "ねこ").exit_code == 2
    assert run("check", "-r", "word-rummy").exit_code == 2
    assert run("solve", "-r", "word-rummy", "--hand", "こーひー").exit_code == 2
    assert run("solve", "-r", "word-rummy", "--hand", "ねこ", "--table", "いぬ").exit_code == 2


def test_check_batch():
    lines = '{"words": ["がっこう"]}\n{"word": "ねこ", "last_lap": true}\n{"word": "ねこ"}\n{"words": 3}\n'
    result = run("check", "-r", "word-rummy", "--batch", "-", input=lines)
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r.get("legal") for r in rows] == [True, True, False, None]
    assert rows[3]["error"]["code"] and result.exit_code == 2


# -- melds solve ----------------------------------------------------------------------------------


def test_solve_turn_text_and_json():
    args = ["solve", "-r", "word-rummy", "--dict", SMALL, "--no-default-dict"]
    result = run(*args, "--hand", "たぬききつ", "--table", "B: さかな", "--loose", "ね", "--has-melded")
    assert result.exit_code == 0
    assert "Goes out: all 5 tiles put down." in result.output
    assert "← new, from the hand" in result.output
    data = as_json(run(*args, "--hand", "たぬききつね", "--table", "さかな", "--has-melded", "--json"))
    assert data["goes_out"] is False and data["placed"] == 3
    assert {
        "question",
        "goes_out",
        "placed",
        "new_word",
        "table",
        "table_before",
        "kept",
        "arranged",
        "reasons",
        "dictionary",
    } <= set(data)
    assert sorted(data["kept"]) == sorted("きつね") or sorted(data["kept"]) == sorted("たぬき")


def test_solve_bonus_and_batch():
    args = ["solve", "-r", "word-rummy", "--dict", SMALL, "--no-default-dict"]
    data = as_json(run(*args, "--bonus", "--hand", "ねこいぬか", "--json"))
    assert data["tiles_in_words"] == 4 and data["points"] == -9
    lines = (
        '{"hand": "や", "table": ["さかな"], "has_word": true}\n'
        '{"hand": "や", "table": ["さかな"]}\n'
        '{"hand": "ねこいぬか", "bonus": true}\n'
    )
    result = run(*args, "--batch", "-", input=lines)
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r.get("goes_out") for r in rows[:2]] == [True, False]
    assert rows[2]["points"] == -9
    assert result.exit_code == 1  # one turn could not go out


def test_solve_word_puzzles_folder():
    result = run("solve", str(ROOT / "puzzles" / "word-rummy"))
    assert result.exit_code == 0
    assert "match their expected answers, 0 differ, 0 bad files" in result.output


# -- melds score ----------------------------------------------------------------------------------


def test_score_text_json_and_batch():
    result = run("score", "-r", "word-rummy", "ねこいぬかさ", "--bonus-words", "ねこ,いぬ")
    assert result.exit_code == 0
    assert "-10 points: 2 tiles left × -1 = -2, 4 tiles in bonus words × -2 = -8" in result.output
    data = as_json(run("score", "-r", "word-rummy", "ねこいぬかさ", "--json"))
    assert data["points"] == -6 and data["tiles_left"] == 6
    bad = run("score", "-r", "word-rummy", "ねこ", "--bonus-words", "いぬ")
    assert bad.exit_code == 1 and "not among the revealed tiles" in bad.output
    rows = run(
        "score", "-r", "word-rummy", "--batch", "-", input='{"hand": "ねこいぬ", "bonus_words": ["ねこ", "いぬ"]}\n'
    ).stdout.splitlines()
    assert json.loads(rows[0])["points"] == -8


def test_bonus_words_flag_is_for_word_games():
    result = run("score", "-r", "basic-rummy", "S9", "--bonus-words", "ねこ")
    assert result.exit_code == 2 and "--bonus-words is for word games" in result.output


# -- a real process -------------------------------------------------------------------------------


def test_subprocess_check_and_solve():
    proc = subprocess_run("check", "-r", "word-rummy", "が っ こ う", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["entry"].startswith("がっこう")
    proc = subprocess_run("solve", "-r", "word-rummy", "--hand", "たぬき", "--dict", SMALL, "--no-default-dict")
    assert proc.returncode == 0 and "Goes out" in proc.stdout
    proc = subprocess_run("check", "-r", "word-rummy", "--dict", "/no/such.txt", "ねこ")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and "no word list" in proc.stderr
