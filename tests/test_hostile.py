"""Issue 21's corpus of hostile input, kept as regression tests: every case the issue names (and
the files of tests/data/hostile/) gives a clear error with the documented exit code and JSON
shape, nothing of a batch is lost, and time and memory stay bounded.

Most cases run in-process (fast; a fault of melds is a traceback there, MELDS_DEBUG); those that
are about memory, time or the process itself (a gzip bomb, /dev/zero, a closed stdin, a pipe
closed early) run as a separate process under a 2 GiB address-space limit (tests/hostile.py).
"""

from __future__ import annotations

import gzip
import json
import subprocess
from pathlib import Path

import pytest
from clirun import ROOT, melds_exe, run
from hostile import guarded, holds_contract

HOSTILE = Path(__file__).resolve().parent / "data" / "hostile"
PUZZLES = ROOT / "puzzles"


def data(name: str) -> str:
    return str(HOSTILE / name)


def error_of(result) -> dict:
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(lines) == 1 and set(lines[0]) == {"error"}, result.stdout[:500]
    return lines[0]["error"]


# -- files: one clear error each (exit 2, the error code, what the message names) ------------------

FILE_CASES = [
    # (arguments, error code, fragments of the message)
    (["solve", data("laughs-puzzle.yaml")], "too-large", ["laughs-puzzle.yaml:", "aliases"]),
    (["check", "-r", data("laughs-ruleset.yaml"), "木3"], "too-large", ["laughs-ruleset.yaml:", "aliases"]),
    (["moves", data("laughs-state.yaml")], "too-large", ["laughs-state.yaml:", "aliases"]),
    (["score", "-r", "fesca", "--round", data("laughs-puzzle.yaml")], "too-large", ["aliases"]),
    (["solve", data("deep.yaml")], "too-large", ["deep.yaml:1", "64 levels"]),
    (["solve", data("recursive-alias.yaml")], "malformed-yaml", ["recursive-alias.yaml:3", "*h"]),
    (
        ["check", "-r", data("extends-a.yaml"), "S9"],
        "schema-error",
        ["cycle", "extends-a.yaml → extends-b.yaml → extends-a.yaml"],
    ),
    (["check", "-r", data("extends-self.yaml"), "S9"], "schema-error", ["cycle", "extends-self.yaml"]),
    (["check", "-r", data("copies.yaml"), "S9"], "too-large", ["copies.yaml:6", "deck.copies", "at most 64"]),
    (["check", "-r", data("rank-range.yaml"), "S9"], "too-large", ["rank-range.yaml:6", "deck.ranks[0]"]),
    (["solve", data("non-utf8-puzzle.yaml")], "malformed-yaml", ["non-utf8-puzzle.yaml:3", "not UTF-8", "0xff"]),
    (["solve", data("nul-puzzle.yaml")], "malformed-yaml", ["nul-puzzle.yaml:3", "NUL"]),
    (
        ["check", "-r", "word-rummy", "ねこじた", "--dict", data("nul-words.txt"), "--no-default-dict"],
        "unreadable-file",
        ["nul-words.txt:2", "NUL"],
    ),
    (
        ["check", "-r", "word-rummy", "ねこじた", "--dict", data("latin1-words.txt"), "--no-default-dict"],
        "unreadable-file",
        ["latin1-words.txt:2", "not UTF-8"],
    ),
    (["moves", data("state-five-copies.yaml")], "impossible-state", ["S9 is there 5 times", "holds 1 copy", "「"]),
    (
        ["move", data("state-hidden-huge.yaml"), "draw", "stock"],
        "impossible-state",
        ["hands.B", "100,000,000,000", "52 cards"],
    ),
    (["moves", data("state-negative-stock.yaml")], "schema-error", ["stock", "at least 0"]),
    (["moves", data("state-unknown-turn.yaml")], "schema-error", ["'Z' is not one of the players"]),
    (["moves", data("state-not-a-state.yaml")], "schema-error", ["not a game state"]),
    (["moves", data("state-mahjong-15-tiles.yaml")], "impossible-state", ["hands.E", "15 tiles"]),
    (["moves", str(HOSTILE)], "usage-error", ["is a directory"]),
    (
        ["score", "-r", "fesca", "--round", data("round-three-taiji.yaml")],
        "impossible-state",
        ["太極 is there 3 times", "holds 1 copy", "round.hands"],
    ),
    (
        ["score", "-r", "fesca", "--round", data("round-winner-not-a-player.yaml")],
        "impossible-state",
        ["winner 'Z' is not one of the players"],
    ),
    (["solve", data("puzzle-huge-hand.yaml")], "schema-error", ["puzzle-huge-hand.yaml:4", "78"]),
    (["solve", data("puzzle-wrong-types.yaml")], "schema-error", ["hand[1]", "integer 5"]),
]


@pytest.mark.parametrize(
    "args,code,fragments", FILE_CASES, ids=[" ".join(c[0][:2]) + " " + Path(c[0][-1]).name for c in FILE_CASES]
)
def test_a_hostile_file_is_one_clear_error(args, code, fragments):
    result = run(*args, "--json")
    assert result.exit_code == 2, result.output[:500]
    error = error_of(result)
    assert error["code"] == code, error
    for fragment in fragments:
        assert fragment in error["message"], (fragment, error["message"])


def test_bom_and_crlf_are_read_and_the_first_word_is_kept():
    assert json.loads(run("solve", data("bom-crlf-puzzle.yaml"), "--json").stdout)["matches"] is True
    result = run(
        "check",
        "-r",
        "word-rummy",
        "ねこじた",
        "さかな",
        "--dict",
        data("bom-words.txt"),
        "--no-default-dict",
        "--json",
    )
    assert result.exit_code == 0, result.stdout[:500]
    assert json.loads(result.stdout)["dictionary"]["sources"][0]["loaded"] == 2


# -- impossible facts of a win (exit 2, the rule and its quote) --------------------------------------

HAND = ["score", "-r", "gensou-mahjong", "234m567p345678s22p", "--win", "8s", "--json"]


@pytest.mark.parametrize(
    "flags,rule",
    [
        (["--haitei"], "win-haitei"),
        (["--tsumo", "--houtei"], "win-houtei"),
        (["--tsumo", "--chankan"], "win-chankan"),
        (["--rinshan", "--tsumo"], "win-rinshan"),
        (["--ippatsu"], "win-ippatsu"),
        (["--tsumo", "--tenhou", "--seat", "S"], "win-tenhou"),
        (["--tsumo", "--chiihou"], "win-chiihou"),
        (["--renhou"], "win-renhou"),
        (["--ura-indicators", "1m", "--dora-indicators", "1m"], "win-ura"),
        (["--dora-indicators", "8s8s8s8s"], "deck-copies"),
    ],
)
def test_impossible_win_facts_are_refused_with_their_rule(flags, rule):
    result = run(*HAND, *flags)
    assert result.exit_code == 2, result.stdout[:500]
    error = error_of(result)
    assert error["code"] == "impossible-state" and error["rule"] == rule, error


def test_possible_win_facts_still_score():
    assert run(*HAND, "--tsumo", "--haitei").exit_code == 0
    assert run(*HAND, "--houtei").exit_code == 0
    assert run(*HAND, "--riichi", "--ippatsu").exit_code == 0
    assert run(*HAND, "--tsumo", "--tenhou").exit_code == 0


KAN_STATE = {
    "format": 1,
    "ruleset": "gensou-mahjong",
    "players": ["E", "S", "W", "N"],
    "turn": "E",
    "step": "draw",
    "hands": {"E": "234m567p789s1z [0555s]", "S": 13, "W": "234m678p22z34s789s", "N": 13},
    "stock": 50,
}


@pytest.mark.parametrize(
    "facts,rule",
    [
        ({"kan": {"tile": "5s", "kind": "ankan", "by": "E"}}, "kan"),  # E's kan of 5s is an open one
        ({"kan": {"tile": "9m", "kind": "kakan", "by": "E"}}, "kan"),
        ({"kan": {"tile": "5s", "kind": "chankan", "by": "E"}}, "schema"),  # the state schema's own words
        ({"kan": "5s"}, "schema"),
        ({"kan": {"tile": "5s5s", "kind": "kakan", "by": "E"}}, "tile"),
        ({"robbable": "xx"}, "tile"),
        ({"rinshan": "X"}, "seat"),
        ({"win_facts": {"W": {"ippatsu": "yes"}}}, "schema"),
        ({"win_facts": {"W": {"menzen": True}}}, "schema"),
        ({"win_facts": {"Q": {"ippatsu": True}}}, "win-facts"),
        ({"win_facts": {"W": {"dora_indicators": "9q"}}}, "tile"),
    ],
)
def test_impossible_table_facts_of_a_mahjong_state_are_refused(tmp_path, facts, rule):
    """The facts the turn rules read (the kan on offer, the replacement seat, the win's facts) are
    checked like the tiles: an impossible one is exit 2 naming its rule, not a traceback."""
    path = tmp_path / "state.yaml"
    path.write_text(json.dumps({**KAN_STATE, "facts": facts}), encoding="utf-8")
    result = run("move", str(path), "W: ron", "--json")
    assert result.exit_code == 2, result.stdout[:500]
    error = error_of(result)
    if rule == "schema":
        assert error["code"] == "schema-error" and f"facts.{next(iter(facts))}" in error["message"], error
    else:
        assert error["code"] == "impossible-state" and error["rule"] == rule, error


def test_win_facts_are_checked_where_no_schema_reads_the_state():
    """A state made in code (a ruleset's claim, a replay) meets the validator without the schema."""
    from solver.core.registry import load_game
    from solver.core.ruleset import load_ruleset
    from solver.core.state import state_from_data

    rs = load_ruleset("gensou-mahjong")
    state = state_from_data(
        {**KAN_STATE, "facts": {"win_facts": {"W": {"ippatsu": "yes", "menzen": True}}}}, Path("state.yaml"), rs
    )
    problems = load_game(rs).state_problems(state)
    assert [p.rule for p in problems] == ["win-facts", "win-facts"]


def test_a_drawn_tile_must_be_in_the_hand(tmp_path):
    path = tmp_path / "state.yaml"
    path.write_text(
        json.dumps(
            {
                **KAN_STATE,
                "step": "discard",
                "hands": {**KAN_STATE["hands"], "E": "234m567p789s1z9m [555s]", "W": 13},
                "facts": {"drawn": "1p"},
            }
        ),
        encoding="utf-8",
    )
    result = run("move", str(path), "discard 9m", "--json")
    assert result.exit_code == 2 and error_of(result)["rule"] == "drawn"


# -- batches: one line out per line in, in order, whatever a line holds ------------------------------


def test_every_line_of_a_hostile_batch_gets_its_own_answer():
    path = HOSTILE / "batch-check-fesca.jsonl"
    lines = path.read_bytes().split(b"\n")[:-1]
    result = run("check", "-r", "fesca", "--batch", str(path))
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert [o["line"] for o in out] == list(range(1, len(lines) + 1))
    assert out[0]["legal"] is True and out[-1]["legal"] is True
    codes = [o["error"]["code"] if "error" in o else None for o in out]
    assert codes[1:9] == [
        "bad-request",
        "bad-json",
        "bad-json",
        "bad-json",
        "bad-request",
        "bad-request",
        "bad-json",
        "bad-json",
    ]
    assert out[9] == {"line": 10, "skipped": "empty line"}
    assert codes[10:12] == ["bad-request", "bad-json"]
    assert result.exit_code == 2


def test_a_batch_lines_error_says_where_in_the_line_and_what_was_given():
    lines = b"\n".join([b'{"hand": {"cards": 1}}', b'{"hand": "\xe6\x9c\xa83"', b'{"hand": nope}', b'{"x": 1}']) + b"\n"
    out = [json.loads(line) for line in run("solve", "-r", "fesca", "--batch", "-", input=lines).stdout.splitlines()]
    messages = [o["error"]["message"] for o in out]
    assert out[0]["error"]["code"] == "bad-request"  # a hand of the wrong type: named, as any key's
    assert messages[0] == '"hand": expected a string or a list of strings, got an object of 1 item'
    assert messages[1] == "not JSON: Expecting ',' delimiter at the end of the line"  # not json's "line 2 column 1"
    assert messages[2] == "not JSON: Expecting value at column 10"
    assert messages[3] == 'each line needs "hand" (or "puzzle")'
    alone = run("solve", "--batch", "-", input=b'{"hand": "\xe6\x9c\xa83"}\n')
    assert json.loads(alone.stdout)["error"]["message"] == 'each line needs a ruleset ("ruleset" or -r)'


def test_a_word_batch_names_a_word_of_the_wrong_type():
    out = [
        json.loads(line)
        for line in run(
            "check", "-r", "word-rummy", "--batch", "-", input=b'{"words": ["abc", 1]}\n{"word": 7}\n'
        ).stdout.splitlines()
    ]
    assert [o["error"]["code"] for o in out] == ["bad-request", "bad-request"]
    assert out[0]["error"]["message"] == '"words[1]": expected a string (a card, tile or word), got integer 1'
    assert out[1]["error"]["message"] == '"word": expected a string or a list of strings, got integer 7'


def test_a_mahjong_batch_refuses_wrong_types_and_impossible_facts_line_by_line():
    result = run("score", "-r", "gensou-mahjong", "--batch", data("batch-score-mahjong.jsonl"))
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(out) == 11 and [o["line"] for o in out] == list(range(1, 12))
    codes = [o["error"]["code"] if "error" in o else "ok" for o in out]
    assert codes == [
        "ok",
        "bad-request",
        "impossible-state",
        "impossible-state",
        "impossible-state",
        "impossible-state",
        "impossible-state",
        "bad-request",
        "bad-request",
        "bad-input",
        "ok",
    ]
    assert result.exit_code == 2


def test_a_solve_batch_line_of_the_wrong_types():
    text = "\n".join(
        json.dumps(x, ensure_ascii=False)
        for x in [
            {"hand": "S9 S10 SJ H4 D4 C4 C7"},
            {"hand": "S9", "limit": "many"},
            {"hand": "S9", "max_seconds": -1},
            {"hand": "S9", "options": {"x": [1]}},
            {"puzzle": 5},
            {"hand": "S9 S10 SJ H4 D4 C4 C7", "best": "yes"},
        ]
    )
    out = [
        json.loads(line)
        for line in run("solve", "-r", "basic-rummy", "--batch", "-", input=text + "\n").stdout.splitlines()
    ]
    assert [o["line"] for o in out] == [1, 2, 3, 4, 5, 6]
    assert out[0]["solvable"] is True
    assert all(o["error"]["code"] == "bad-request" for o in out[1:]), out[1:]


LONG_LINE = json.dumps({"cards": "木3 " * 600_000}).encode()  # 4.8 MB: past the 4 MiB a line may hold


def test_a_batch_line_too_long_is_that_lines_error():
    result = run("check", "-r", "fesca", "--batch", "-", input=LONG_LINE + b"\n" + b'{"cards": "\xe6\x9c\xa83"}\n')
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert [o["line"] for o in out] == [1, 2] and out[0]["error"]["code"] == "bad-json" and "legal" in out[1]


def test_a_closed_stdin_is_an_error():
    closed = guarded("check", "-r", "fesca", "--batch", "-", "--json", close_stdin=True)
    holds_contract(closed, as_json=True)
    assert closed.code == 2 and closed.json()["error"]["code"] == "unreadable-file"


@pytest.mark.slow
def test_big_and_endless_input_under_limits(tmp_path):
    """The cases about memory as separate processes under a 2 GiB address-space limit: peak
    memory and time measured (the in-process tests check the answers)."""
    big = guarded("check", "-r", "fesca", "--batch", "-", input=LONG_LINE * 4 + b"\n" + b'{"cards": "x"}\n')
    holds_contract(big, as_json=True, budget=20)
    assert [o["line"] for o in big.json_lines()] == [1, 2]
    bomb = tmp_path / "words.txt.gz"
    bomb.write_bytes(gzip.compress(b"\xe3\x81\xad" * (6 << 20), 1))
    for target in (str(bomb), "/dev/zero"):
        result = guarded("check", "-r", "word-rummy", "ねこ", "--dict", target, "--no-default-dict", "--json")
        holds_contract(result, as_json=True, budget=20)
        assert result.code == 2
    for args in (
        ["solve", "/dev/zero"],
        ["check", "-r", "fesca", "--batch", "/dev/zero"],
        ["solve", str(HOSTILE / "laughs-puzzle.yaml")],
        ["check", "-r", str(HOSTILE / "copies.yaml"), "S9"],
    ):
        result = guarded(*args, "--json")
        holds_contract(result, as_json=True, budget=20)
        assert result.code == 2


@pytest.mark.slow
def test_jobs_keep_the_order_and_every_line(tmp_path):
    lines = [
        json.dumps({"cards": c}, ensure_ascii=False)
        for c in ["木3 木4 太極", "木3 5", "木5 火5 空無木", "not json", "木1 木2 木3"] * 5
    ]
    path = tmp_path / "b.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    one = guarded("check", "-r", "fesca", "--batch", str(path))
    two = guarded("check", "-r", "fesca", "--batch", str(path), "--jobs", "2")
    holds_contract(two, as_json=True)

    def verdicts(run) -> list:  # a wild's identity among equals may differ with a solver's history
        return [(o["line"], o.get("legal"), o.get("kind"), o.get("error", {}).get("code")) for o in run.json_lines()]

    assert verdicts(two) == verdicts(one) and len(verdicts(two)) == 25
    assert two.code == one.code == 2


# -- compressed and endless files: capped by what they produce ---------------------------------------


def test_a_gzip_bomb_and_a_huge_file_stop_at_the_cap_and_a_device_is_refused(tmp_path):
    bomb = tmp_path / "words.txt.gz"
    bomb.write_bytes(gzip.compress(b"\xe3\x81\xad" * (6 << 20), 1))  # 18 MiB of ね in 80 kB
    huge = tmp_path / "huge.yaml"
    huge.write_bytes(b"# " + b"x" * (9 << 20) + b"\n")
    for args, code in (
        (["check", "-r", "word-rummy", "ねこ", "--dict", str(bomb), "--no-default-dict"], "too-large"),
        (["solve", str(huge)], "too-large"),
        (["check", "-r", str(huge), "S9"], "too-large"),
    ):
        result = run(*args, "--json")
        assert result.exit_code == 2 and error_of(result)["code"] == code, result.stdout
    for args in (
        ["check", "-r", "word-rummy", "ねこ", "--dict", "/dev/zero", "--no-default-dict"],
        ["solve", "/dev/zero"],
        ["check", "-r", "fesca", "--batch", "/dev/urandom"],
        ["moves", "/dev/zero"],
        ["check", "-r", "/dev/zero", "S9"],
        ["replay", "/dev/urandom"],
    ):
        result = run(*args, "--json")
        assert result.exit_code == 2 and "/dev/" in error_of(result)["message"]
        assert "a device" in error_of(result)["message"], result.stdout


# -- the command line: usage errors as JSON, numbers that are not budgets, pipes, shadowing -----------


@pytest.mark.parametrize(
    "args",
    [
        ["check", "-r", "fesca", "--bogus", "木3"],
        ["check", "木3"],
        ["score", "-r", "gensou-mahjong", "234m567p345678s22p", "--win", "8s", "--seat", "X"],
        ["check", "-r", "fesca", "--batch", "/no/such/file.jsonl"],
        ["moves", "/no/such/state.yaml"],
        ["solve", "-r", "fesca", "--hand", "木3", "--max-seconds", "inf"],
        ["solve", "-r", "fesca", "--hand", "木3", "--max-seconds", "1e400"],
        ["solve", "-r", "fesca", "--hand", "木3", "--max-seconds", "nan"],
        ["solve", "-r", "fesca", "--hand", "木3", "--max-seconds", "-1"],
        ["solve", "-r", "fesca", "--hand", "木3", "--limit", "0"],
        ["score", "-r", "gensou-mahjong", "234m567p345678s22p", "--win", "8s", "--honba", "-3"],
    ],
)
def test_usage_errors_are_one_json_object_and_exit_2(args):
    result = run(*args, "--json")
    assert result.exit_code == 2
    assert error_of(result)["code"] in ("usage-error", "unreadable-file", "bad-input")


def test_a_pipe_closed_early_ends_quietly():
    process = subprocess.Popen(
        melds_exe() + ["rulesets", "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT
    )
    process.stdout.read(1)
    process.stdout.close()
    err = process.stderr.read().decode()
    process.wait(timeout=60)
    assert "Traceback" not in err and "Exception ignored" not in err and "BrokenPipe" not in err, err


def test_the_command_leaves_at_once_with_all_its_output_and_its_code(tmp_path):
    """The installed command ends without freeing its objects one by one (cli.run): every line
    of a long batch still reaches a file and a pipe, and each exit code is the one main() gave."""
    lines = [json.dumps({"cards": f"金{r} 金{r + 1} 金{r + 2}"}, ensure_ascii=False) for r in range(1, 10)]
    lines.append(json.dumps({"cards": "金1 金2 金9"}, ensure_ascii=False))
    batch = tmp_path / "batch.jsonl"
    batch.write_text("\n".join(lines * 300) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    with out.open("w") as sink:
        code = subprocess.run(
            melds_exe() + ["check", "-r", "fesca", "--batch", str(batch)],
            stdout=sink,
            stderr=subprocess.DEVNULL,
            timeout=120,
        ).returncode
    answers = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [a["line"] for a in answers] == list(range(1, 3001))
    assert code == 1  # 金1 金2 金9 is no meld: the worst line's code
    piped = subprocess.run(
        melds_exe() + ["check", "-r", "fesca", "--batch", str(batch)], capture_output=True, timeout=120
    )
    assert piped.stdout.count(b"\n") == 3000 and piped.returncode == code
    for args, expected in (
        (["check", "-r", "fesca", "金1", "金2", "金3"], 0),
        (["check", "-r", "fesca", "金1", "金2", "金9"], 1),
        (["check", "-r", "nonesuch", "金1"], 2),
        (["--bogus"], 2),
    ):
        assert subprocess.run(melds_exe() + args, capture_output=True, timeout=60).returncode == expected, args


def test_a_ruleset_id_is_not_shadowed_by_the_working_folder(tmp_path, monkeypatch):
    (tmp_path / "fesca").mkdir()
    (tmp_path / "basic-rummy").write_text("id: nope\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    for ref, cards in (("fesca", ["木3", "木4", "太極"]), ("basic-rummy", ["S9", "S10", "SJ"])):
        assert run("check", "-r", ref, *cards, "--json").exit_code == 0
    path = run("check", "-r", "./basic-rummy", "S9", "--json")
    assert path.exit_code == 2 and error_of(path)["code"] == "schema-error"


def test_a_folder_solve_reports_bad_files_and_goes_on(tmp_path):
    for name in ("laughs-puzzle.yaml", "non-utf8-puzzle.yaml", "puzzle-wrong-types.yaml", "bom-crlf-puzzle.yaml"):
        (tmp_path / name).write_bytes((HOSTILE / name).read_bytes())
    (tmp_path / "good.yaml").write_bytes((PUZZLES / "fesca" / "f01-run-and-set.yaml").read_bytes())
    result = run("solve", str(tmp_path), "--json")
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(rows) == 5 and result.exit_code == 2
    assert sum(1 for r in rows if "error" in r) == 3
    assert all(r["matches"] for r in rows if "error" not in r)
    text = run("solve", str(tmp_path)).stdout
    assert "3 bad files" in text and "5 puzzles" in text
    pooled = guarded("solve", str(tmp_path), "--json", "--jobs", "2")
    holds_contract(pooled, as_json=True)

    def summary(lines: list) -> list:  # seconds differ from run to run
        return [(r["puzzle"], r.get("matches"), r.get("error", {}).get("code")) for r in lines]

    assert summary(pooled.json_lines()) == summary(rows) and pooled.code == 2


def test_a_fault_of_melds_is_a_message_not_a_traceback(monkeypatch):
    from solver.melding import game

    monkeypatch.delenv("MELDS_DEBUG", raising=False)
    monkeypatch.setattr(game.MeldGame, "check", lambda self, request: 1 / 0)
    result = run("check", "-r", "fesca", "木3", "--json")
    assert result.exit_code == 2 and error_of(result)["code"] == "internal-error"
    batch = run("check", "-r", "fesca", "--batch", "-", input='{"cards": "木3"}\n{"cards": "木4"}\n')
    assert [json.loads(line)["error"]["code"] for line in batch.stdout.splitlines()] == ["internal-error"] * 2


MANY_WILDS_TABLE = """format: 1
ruleset: fesca
title: a meld of five wilds against twelve 陰陽
hand: 陰陽1 陰陽2 陰陽3 陰陽4 陰陽5 陰陽6 陰陽7 陰陽8 陰陽9 陰陽10 陰陽11 陰陽12 空無木
turn:
  has_melded: true
  phase: yang
table:
- owner: B
  cards: 空無火 空無土 太極 空無金 空無水
- owner: me
  cards: 木3 木4 木5
"""


@pytest.mark.slow  # about 25 s: the search of the forms walks to its guard
def test_a_table_meld_of_wilds_with_no_deadline_stops_at_the_layouts_guard_with_the_best_turn_found(tmp_path):
    """With no --max-seconds, what bounds the search of a table meld's layouts is its guard
    (tableforms.MAX_LAYOUTS): the answer is undecided, names that limit, and still gives the best
    turn over the forms found (it once gave no turn at all, at 4,000 layouts)."""
    state = tmp_path / "wilds.yaml"
    state.write_text(MANY_WILDS_TABLE, encoding="utf-8")
    run = guarded("solve", str(state), "--best", "--json", timeout=120)
    holds_contract(run, as_json=True)
    answer = run.json()
    assert run.code == 3 and answer["undecided"] == {"limit": "layouts"} and answer["partial"]
    assert answer["score"]["meld_points"] >= 1024 and answer["melds"]  # the twelve 陰陽 as one run at least
    assert run.peak < 1 << 30
