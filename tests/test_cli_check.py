"""`melds check` and `melds rulesets` end to end: click's runner and a real subprocess."""

from __future__ import annotations

import json

import pytest
from clirun import ROOT, run, runner, subprocess_run

from cli import main

# -- legal / illegal, text ----------------------------------------------------------------------


def test_legal_meld_text(fesca_checker):
    result = run("check", "-r", "fesca", "木3", "木4", "太極")
    assert result.exit_code == 0
    assert result.output.startswith("legal: 順 (run) of 3 cards")
    assert "太極  as 木5 (GW) — could also be 木2" in result.output
    assert "\x1b[" not in result.output  # no colour when not a terminal


def test_illegal_meld_text_quotes_the_document():
    result = run("check", "-r", "fesca", "木5", "火5", "空無木")
    assert result.exit_code == 1
    assert "duplicate-identity" in result.output and "本物と被る" in result.output
    assert "000_bb200cc6bb22cd11.txt" in result.output


def test_colour_on_a_terminal():
    result = runner().invoke(main, ["check", "-r", "fesca", "木3", "木4", "木5"], color=True)
    assert "\x1b[" in result.output


def test_ascii_aliases_and_one_argument_with_spaces():
    result = run("check", "-r", "fesca", "wood3 wood4", "taiji")
    assert result.exit_code == 0


def test_basic_rummy_check():
    assert run("check", "-r", "basic-rummy", "S9", "S10", "SJ", "SQ").exit_code == 0
    assert run("check", "-r", "basic-rummy", "HQ", "HK", "HA").exit_code == 1


# -- JSON -------------------------------------------------------------------------------------


def test_json_shape_legal():
    result = run("check", "-r", "fesca", "木5", "火5", "陰陽5", "--json")
    data = json.loads(result.output)
    assert result.exit_code == 0
    assert {"legal", "kind", "cards", "reasons"} <= set(data)
    assert data["legal"] is True and data["kind"] == "set" and data["reasons"] == []
    assert [c["card"] for c in data["cards"]] == ["木5", "火5", "陰陽5"]
    sw = data["cards"][2]
    assert sw["role"] == "SW" and sw["wild"] is True and sw["as"] in {"土5", "金5", "水5"}
    assert set(sw["could_be"]) | {sw["as"]} == {"土5", "金5", "水5"}


def test_json_shape_illegal_has_reason_codes_and_sources():
    data = json.loads(run("check", "-r", "fesca", "陰陽6", "空無木", "太極", "--json").output)
    assert data["legal"] is False and data["kind"] is None
    assert data["reasons"][0]["code"] == "ambiguous"
    assert data["reasons"][0]["source"]["doc"] == "000_bb200cc6bb22cd11.txt"
    assert "定まらない" in data["reasons"][0]["source"]["quote"]
    assert {r["family"] for r in data["readings"]} >= {"set", "run"}
    assert all(isinstance(c["as"], str) for c in data["cards"])


@pytest.mark.parametrize(
    "cards,code",
    [
        (["木3", "木4"], "too-short"),
        (["木5", "火5", "空無木"], "duplicate-identity"),
        (["陰陽6", "空無木", "太極"], "ambiguous"),
        (["木11", "木12", "木1"], "not-a-meld"),
        ([" ".join(f"木{r}" for r in range(1, 13)), "空無木", "太極"], "too-long"),
    ],
)
def test_reason_codes(cards, code):
    data = json.loads(run("check", "-r", "fesca", "--json", *cards).output)
    assert code in [r["code"] for r in data["reasons"]]


def test_phase_reason_code():
    result = run("check", "-r", "fesca", "--phase", "yin", "--json", "木1", "火2", "土3")
    data = json.loads(result.output)
    assert result.exit_code == 1 and data["reasons"][0]["code"] == "phase"
    assert run("check", "-r", "fesca", "--phase", "yang", "木1", "火2", "土3").exit_code == 0


def test_ordered_flag():
    data = json.loads(run("check", "-r", "fesca", "--ordered", "--json", "太極", "木3", "木4").output)
    assert data["cards"][0]["as"] == "木2"


def test_options_flag():
    assert run("check", "-r", "fesca", "陰陽3", "陰陽4", "空無木").exit_code == 1
    assert run("check", "-r", "fesca", "-o", "sojun=false", "陰陽3", "陰陽4", "空無木").exit_code == 0


# -- batch ------------------------------------------------------------------------------------


def test_batch_jsonl_in_and_out(tmp_path):
    lines = [
        {"cards": "木3 木4 木5"},
        {"cards": ["木5", "火5", "空無木"]},
        {"cards": "木1 火2 土3", "phase": "yin"},
        {"cards": "木3 太極 木5", "ordered": True},
    ]
    path = tmp_path / "log.jsonl"
    path.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in lines) + "\n", encoding="utf-8")
    result = run("check", "-r", "fesca", "--batch", str(path))
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert [o["line"] for o in out] == [1, 2, 3, 4]
    assert [o["legal"] for o in out] == [True, False, False, True]
    assert out[3]["cards"][1]["as"] == "木4"
    assert result.exit_code == 1  # some meld is illegal


def test_batch_bad_lines_give_errors_and_exit_2():
    text = '{"cards": "木3 木4 木5"}\nnot json\n{"cards": "X9"}\n[1]\n'
    result = run("check", "-r", "fesca", "--batch", "-", input=text)
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert out[0]["legal"] is True
    assert out[1]["error"]["code"] == "bad-json"
    assert out[2]["error"]["code"] == "unknown-card"
    assert out[3]["error"]["code"] == "bad-json"
    assert result.exit_code == 2


# -- bad input: clear message, exit 2, no traceback ---------------------------------------------


@pytest.mark.parametrize(
    "args,fragment",
    [
        (["check", "-r", "fesca", "木13"], "unknown card '木13'"),
        (["check", "-r", "fesca", "太極", "太極", "木3"], "given 2 times"),
        (["check", "-r", "nope", "木3"], "unknown ruleset 'nope'"),
        (["check", "-r", "fesca"], "no cards given"),
        (["check", "-r", "fesca", "-o", "sojun", "木3"], "KEY=VALUE"),
        (["check", "-r", "fesca", "-o", "nope=1", "木3"], "no option 'nope'"),
    ],
)
def test_bad_input_exit_2(args, fragment):
    result = runner().invoke(main, args)
    assert result.exit_code == 2
    assert fragment in result.stderr
    assert "Traceback" not in result.output + result.stderr


def test_bad_input_json_error_object():
    result = runner().invoke(main, ["check", "-r", "fesca", "--json", "木13"])
    assert result.exit_code == 2
    assert json.loads(result.stdout)["error"]["code"] == "unknown-card"


def test_rulesets_list():
    result = run("rulesets")
    assert result.exit_code == 0 and "fesca" in result.output and "basic-rummy" in result.output
    data = json.loads(run("rulesets", "--json").output)
    ids = {r["id"] for r in data["rulesets"]}
    assert {"fesca", "basic-rummy"} <= ids


# -- through a real subprocess ----------------------------------------------------------------


def test_subprocess_legal_and_illegal():
    ok = subprocess_run("check", "-r", "fesca", "木3", "木4", "太極", "--json")
    assert ok.returncode == 0 and json.loads(ok.stdout)["kind"] == "run"
    bad = subprocess_run("check", "-r", "basic-rummy", "HQ", "HK", "HA")
    assert bad.returncode == 1 and "not-a-meld" in bad.stdout


def test_subprocess_unknown_card():
    proc = subprocess_run("check", "-r", "fesca", "木99")
    assert proc.returncode == 2
    assert "unknown card" in proc.stderr and "Traceback" not in proc.stderr


def test_subprocess_malformed_yaml(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text("format: 1\nid: x\nname: [unclosed\n", encoding="utf-8")
    proc = subprocess_run("check", "-r", str(path), "S9")
    assert proc.returncode == 2
    assert f"{path}:" in proc.stderr and "malformed YAML" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_subprocess_schema_error(tmp_path):
    text = (ROOT / "rulesets" / "basic-rummy.yaml").read_text(encoding="utf-8")
    text = text.replace("    shape: group\n", "    shape: heap\n")
    path = tmp_path / "rummy.yaml"
    path.write_text(text, encoding="utf-8")
    proc = subprocess_run("check", "-r", str(path), "S9", "S10", "SJ")
    assert proc.returncode == 2
    line = text.splitlines().index("    shape: heap") + 1
    assert f"{path}:{line}: melds[1].shape: 'heap' is not one of" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_subprocess_batch_stdin():
    proc = subprocess_run(
        "check", "-r", "fesca", "--batch", "-", input='{"cards": "空無木 空無火"}\n{"cards": "陰陽3 陰陽4"}\n'
    )
    assert proc.returncode == 0
    assert [json.loads(x)["kind"] for x in proc.stdout.splitlines()] == ["zat-set", "yinyang-run"]
