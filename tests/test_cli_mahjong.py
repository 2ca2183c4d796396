"""幻想麻雀 through the command line: check (winning?), solve --waits, solve --riichi-kan, batches."""

from __future__ import annotations

import json

from clirun import ROOT, run, subprocess_run


def as_json(result) -> dict:
    return json.loads(result.output)


# -- melds check ----------------------------------------------------------------------------------


def test_check_lists_every_decomposition_in_text():
    result = run("check", "-r", "gensou-mahjong", "223344m556677p11z")
    assert result.exit_code == 0
    assert "winning: 2 decompositions" in result.output
    assert "七対子: 22m 33m 44m 55p 66p 77p 東東" in result.output
    assert "一般形: 234m 234m 567p 567p 東東" in result.output


def test_check_json_shape():
    data = as_json(run("check", "-r", "gensou-mahjong", "123m 789p 22z [東東東] (0555p)", "--json"))
    assert data["winning"] is True and data["legal"] is True and data["tiles"] == 14
    assert [m["declared"] for m in data["melds"]] == ["pon", "ankan"]
    (only,) = data["decompositions"]
    assert only["shape"] == "standard"
    declared = [p for p in only["parts"] if p["declared"]]
    assert [(p["tiles"], p["open"]) for p in declared] == [("111z", True), ("0555p", False)]
    assert {p["tiles"] for p in only["parts"]} >= {"123m", "789p", "22z"}


def test_check_not_winning_names_the_tenpai_discards():
    result = run("check", "-r", "gensou-mahjong", "1113456788999p5s", "--json")
    assert result.exit_code == 1
    data = as_json(result)
    assert data["winning"] is False and data["decompositions"] == []
    assert {"discard": "5s", "waits": ["2p", "5p", "7p", "8p"]} in data["tenpai_discards"]


def test_check_wrong_size_is_bad_input():
    result = run("check", "-r", "gensou-mahjong", "1113456788999p")
    assert result.exit_code == 2
    assert "14 tiles" in result.stderr and "melds solve --waits" in result.stderr


def test_three_player_check_rejects_the_removed_tiles_and_chi():
    removed = run("check", "-r", "gensou-mahjong-3p", "123m456p789s11122z")
    assert removed.exit_code == 2 and "unknown tile '2m'" in removed.stderr
    chi = run("check", "-r", "gensou-mahjong-3p", "[123p] 111m 999m 456s 11z")
    assert chi.exit_code == 2 and "チーは不可。" in chi.stderr
    ok = run("check", "-r", "gensou-mahjong-3p", "111m 999m 123p 北北北 11z", "--json")
    assert ok.exit_code == 0 and as_json(ok)["winning"] is True


# -- melds solve --waits --------------------------------------------------------------------------


def test_waits_json_contract():
    result = run("solve", "-r", "gensou-mahjong", "--waits", "1113456788999p", "--json")
    assert result.exit_code == 0
    data = as_json(result)
    assert data["tenpai"] is True and data["waits"] == ["2p", "5p", "7p", "8p"]
    assert sorted({d["wait"] for d in data["decompositions"]}) == data["waits"]
    seven = [d for d in data["decompositions"] if d["wait"] == "7p"]
    assert [p["tiles"] for p in seven[0]["parts"]] == ["111p", "345p", "678p", "789p", "99p"]


def test_waits_formal_tenpai_and_not_tenpai():
    formal = as_json(run("solve", "-r", "gensou-mahjong", "--waits", "--hand", "4444m 123p 456p 789p", "--json"))
    assert formal["tenpai"] is True and formal["waits"] == ["4m"] and formal["formal"] == ["4m"]
    noten = run("solve", "-r", "gensou-mahjong", "--waits", "1357m2468p13579s")
    assert noten.exit_code == 1 and "not tenpai" in noten.output


def test_waits_text_shows_unicode_tiles():
    result = run("solve", "-r", "gensou-mahjong", "--waits", "19m19p19s1234567z")
    assert result.exit_code == 0
    assert result.output.startswith("19m 19p 19s 東南西北白發中 🀇🀏🀙🀡🀐🀘🀀🀁🀂🀃🀆🀅🀄")
    assert "waits on 1m🀇 9m🀏" in result.output


# -- melds solve --riichi-kan ---------------------------------------------------------------------


def test_riichi_kan_document_allows_what_the_general_rule_forbids():
    data = as_json(run("solve", "-r", "gensou-mahjong", "--riichi-kan", "--draw", "6s", "555666777999s1p", "--json"))
    (kan,) = data["kans"]
    assert kan["tile"] == "6s" and kan["waits_after"] == ["1p"]
    assert kan["document"]["allowed"] is True and kan["general"]["allowed"] is False


def test_riichi_kan_refused_exits_one():
    result = run("solve", "-r", "gensou-mahjong", "--riichi-kan", "--draw", "9p", "1113456788999p")
    assert result.exit_code == 1 and "the waits change" in result.output


def test_riichi_kan_needs_a_draw():
    result = run("solve", "-r", "gensou-mahjong", "--riichi-kan", "1113456788999p")
    assert result.exit_code == 2 and "--draw" in result.stderr


# -- batches and a real subprocess ----------------------------------------------------------------


def test_solve_batch_mixes_waits_and_riichi_kan():
    lines = [
        '{"hand": "1113456788999p"}',
        '{"hand": "555666777999s1p", "draw": "7s", "question": "riichi-kan"}',
        '{"hand": "123x"}',
    ]
    result = run("solve", "-r", "gensou-mahjong", "--batch", "-", input="\n".join(lines) + "\n")
    out = [json.loads(x) for x in result.stdout.splitlines()]
    assert out[0]["waits"] == ["2p", "5p", "7p", "8p"]
    assert out[1]["kans"][0]["document"]["allowed"] is True
    assert out[2]["error"]["code"] == "unknown-card" and "suit letters" in out[2]["error"]["message"]
    assert result.exit_code == 2


def test_subprocess_check_and_waits():
    won = subprocess_run("check", "-r", "gensou-mahjong", "19m19p19s1234567z9s", "--json")
    assert won.returncode == 0 and json.loads(won.stdout)["decompositions"][0]["shape"] == "kokushi"
    waits = subprocess_run(
        "solve", "-r", "gensou-mahjong-3p", "--waits", "--json", "11m", "999m", "123p", "456s", "北北"
    )
    assert waits.returncode == 0 and json.loads(waits.stdout)["waits"] == ["1m", "4z"]
    bad = subprocess_run("check", "-r", "gensou-mahjong", "11111z")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and "東 is given 5 times" in bad.stderr


# -- melds score ----------------------------------------------------------------------------------


def test_score_json_contract():
    result = run(
        "score",
        "-r",
        "gensou-mahjong",
        "234m567p345678s22p",
        "--win",
        "8s",
        "--tsumo",
        "--riichi",
        "--seat",
        "S",
        "--json",
    )
    assert result.exit_code == 0
    data = as_json(result)
    assert (data["han"], data["fu"]) == (4, 20)
    assert [y["name"] for y in data["yaku"]] == ["立直", "門前清模和", "平和", "断ヤオ九"]
    assert all(set(y) >= {"name", "han"} for y in data["yaku"])
    assert data["points"]["total"] == 5200 and data["points"]["payments"] == {"E": 2600, "W": 1300, "N": 1300}


def test_score_thirteen_tiles_plus_win_and_text():
    result = run(
        "score",
        "-r",
        "gensou-mahjong",
        "234m567p34567s22p",
        "--win",
        "8s",
        "--tsumo",
        "--riichi",
        "--seat",
        "S",
        "--honba",
        "1",
        "--riichi-sticks",
        "2",
        "--dora-indicators",
        "1m",
    )
    assert result.exit_code == 0
    assert "5 han 20 fu 満貫: 8,000 points" in result.output
    assert "honba: E 100, W 100, N 100" in result.output and "riichi sticks: 2,000" in result.output


def test_score_players_three_and_aotenjou_flags():
    three = as_json(
        run(
            "score",
            "-r",
            "gensou-mahjong",
            "--players",
            "3",
            "234p567p345678s22p",
            "--win",
            "8s",
            "--tsumo",
            "--riichi",
            "--seat",
            "E",
            "--dora-indicators",
            "6p",
            "--json",
        )
    )
    assert three["ruleset"] == "gensou-mahjong-3p" and three["points"]["payments"] == {"S": 6000, "W": 6000}
    ao = as_json(
        run(
            "score",
            "-r",
            "gensou-mahjong",
            "--aotenjou",
            "111m333p555s777s99p",
            "--win",
            "3p",
            "--tsumo",
            "--seat",
            "S",
            "--json",
        )
    )
    assert ao["aotenjou"] and ao["han"] == 16 and ao["points"]["total"] == 52428800


def test_score_no_yaku_exits_one_and_bad_input_two():
    no = run("score", "-r", "gensou-mahjong", "123m567p345s99s[789p]", "--win", "1m")
    assert no.exit_code == 1 and "no yaku" in no.output
    missing = run("score", "-r", "gensou-mahjong", "234m567p345678s22p")
    assert missing.exit_code == 2 and "--win" in missing.stderr
    north = run("score", "-r", "gensou-mahjong-3p", "234p567p345678s22p", "--win", "8s", "--seat", "N")
    assert north.exit_code == 2 and "3 players sit E, S, W" in north.stderr
    fesca = run("score", "-r", "fesca", "--win", "木3", "木3", "木4", "木5")
    assert fesca.exit_code == 2 and "mahjong" in fesca.stderr


def test_score_exhaustive_draw():
    data = as_json(run("score", "-r", "gensou-mahjong-3p", "--exhaustive-draw", "--nagashi", "S,W", "--json"))
    assert data["payments"] == {"E": -10000, "S": 5000, "W": 5000}
    text = run("score", "-r", "gensou-mahjong", "--exhaustive-draw", "--tenpai", "E")
    assert "E: +3,000" in text.output and "N: -1,000" in text.output


def test_score_batch_through_a_subprocess():
    lines = [
        '{"hand": "234m567p345678s22p", "win": "8s", "tsumo": true, "riichi": true, "seat": "S"}',
        '{"hand": "234m567p345s66s[678p]", "win": "2m", "seat": "S", "honba": 5}',
    ]
    proc = subprocess_run("score", "-r", "gensou-mahjong", "--batch", "-", input="\n".join(lines) + "\n")
    out = [json.loads(x) for x in proc.stdout.splitlines()]
    assert out[0]["points"]["total"] == 5200
    assert out[1]["points"] is None and "役が不足しています" in out[1]["reason"]
    assert proc.returncode == 1


def test_solve_mahjong_puzzle_folder():
    result = run("solve", str(ROOT / "puzzles" / "gensou-mahjong"))
    assert result.exit_code == 0 and "match their expected answers, 0 differ" in result.output
