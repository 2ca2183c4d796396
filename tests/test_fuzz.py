"""Hypothesis fuzzing of every entry point (issue 21): card words, hands, batch lines, YAML
rulesets, puzzles, states, round files, word lists and numeric flags, each drawn from what a user
might type and what malice might send. Whatever comes in: no traceback, an exit code in
{0, 1, 2, 3}, JSON that parses under --json, one batch line out per line in.

The default run fuzzes in-process (a fault of melds is a traceback there: MELDS_DEBUG) with a few
examples each; ``pytest -m slow`` runs every entry point as a separate process under a 2 GiB
address-space limit, checking peak memory (≤ 1 GiB) and time (the budget + 1 s) too, with many
more examples (MELDS_HYPOTHESIS_PROFILE=thorough for a night's run).
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from clirun import ROOT, run
from hostile import EXIT_CODES, guarded, holds_contract
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples

PUZZLES = ROOT / "puzzles"
RULESETS = ["fesca", "basic-rummy", "marriage", "gensou-mahjong", "word-rummy", "rummikub"]
SPELLINGS = [
    "木3",
    "火12",
    "陰陽10",
    "空無土",
    "太極",
    "wood3",
    "S9",
    "10H",
    "♠9",
    "HK",
    "DA",
    "JOKER",
    "123m",
    "0p",
    "東",
    "haku",
    "k1",
    "r13",
    "J",
    "ねこ",
    "がっこう",
    "?",
    "木",
    "13",
    "-1",
    "1e400",
    "nan",
    "inf",
]
BUDGET = 2.0  # --max-seconds of the fuzzed solves
PLAIN_BUDGET = 15.0  # a command without a budget (a check, a file refused)

words = st.one_of(st.sampled_from(SPELLINGS), st.text(min_size=1, max_size=12)).filter(
    lambda w: "\x00" not in w and not w.startswith("-")
)
numbers = st.one_of(
    st.integers(-(10**30), 10**30).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.sampled_from(["inf", "-inf", "nan", "1e400", "0", "-0", "1_0", "0x10", "", " 3 ", "½"]),
    st.text(max_size=8).filter(lambda t: "\x00" not in t),
)
json_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(10**20), 10**20),
        st.floats(),
        st.text(max_size=20),
        st.sampled_from(SPELLINGS),
    ),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)),
    max_leaves=12,
)
REQUEST_KEYS = [
    "cards",
    "hand",
    "ordered",
    "phase",
    "table",
    "turn",
    "options",
    "ruleset",
    "puzzle",
    "question",
    "best",
    "all",
    "limit",
    "max_seconds",
    "win",
    "tsumo",
    "riichi",
    "seat",
    "round",
    "from",
    "honba",
    "riichi_sticks",
    "players",
    "nuki",
    "dora_indicators",
    "haitei",
    "houtei",
    "ippatsu",
    "tenhou",
    "penalty",
    "tiplu",
    "words",
    "word",
    "has_melded",
    "claimed",
    "bonus_words",
]
requests = st.dictionaries(st.sampled_from(REQUEST_KEYS), json_values, max_size=5)
batch_lines = st.one_of(
    requests.map(lambda r: json.dumps(r, ensure_ascii=False).encode()),
    st.binary(max_size=60).map(lambda b: b.replace(b"\n", b" ")),
    st.sampled_from(
        [b"", b"[" * 5000, b"{}", b"null", b'{"cards": NaN}', b'\xef\xbb\xbf{"cards": "S9"}', b'{"cards": "S9"}\r']
    ),
)

YAML_JUNK = [
    "",
    "-1",
    "1e400",
    ".nan",
    ".inf",
    "*nowhere",
    "&a [*a]",
    "[[[[",
    "{",
    "null",
    "~",
    "'木3'",
    "10000000000000",
    "!!python/object/apply:os.system ['true']",
    "!!binary AAAA",
    "|",
    ">-",
    "- - - -",
    "{a: 1, a: 2}",
    '"\\uffff"',
    "[1, 2, 3]",
    "yes",
    "0x1F",
    "2001-01-01",
    "<<: *x",
    "? [a]",
]


@st.composite
def mutated(draw, text: str) -> str:
    """A YAML file with a few of its lines changed, deleted, doubled or pushed aside."""
    lines = text.splitlines()
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(lines) - 1))
        op = draw(st.sampled_from(["value", "delete", "double", "indent", "insert"]))
        junk = draw(st.one_of(st.sampled_from(YAML_JUNK), st.text(max_size=15).filter(lambda t: "\x00" not in t)))
        if op == "value" and ":" in lines[i]:
            lines[i] = lines[i].split(":", 1)[0] + ": " + junk
        elif op == "delete" and len(lines) > 1:
            del lines[i]
        elif op == "double":
            lines.insert(i, lines[i])
        elif op == "indent":
            lines[i] = "   " + lines[i]
        else:
            lines.insert(i, junk)
    return "\n".join(lines) + "\n"


def base(path: str) -> str:
    return (ROOT / path).read_text(encoding="utf-8")


RULESET_BASE = """format: 1
extends: basic-rummy
id: fuzzed
name: fuzzed
deck:
  copies: 2
options:
  wild:
    type: boolean
    default: false
    description: a fuzzed option
"""
PUZZLE_BASE = base("puzzles/fesca/f01-run-and-set.yaml")
STATE_BASE = base("puzzles/basic-rummy/moves/m05-layoff.yaml")
ROUND_BASE = base("puzzles/fesca/r04-one-go-doubles.yaml")


def exercise(
    args: list[str],
    *,
    input: bytes | None = None,
    process: bool = False,
    budget: float = PLAIN_BUDGET,
    lines_in: int | None = None,
) -> None:
    """Run melds and hold it to the contract (see the module docstring)."""
    as_json = "--json" in args or "--batch" in args
    if process:
        result = guarded(*args, input=input, timeout=budget + 30)
        holds_contract(result, as_json=as_json, budget=budget)
        stdout, code = result.stdout, result.code
    else:
        outcome = run(*args, input=input)
        stdout, code = outcome.stdout, outcome.exit_code
        assert code in EXIT_CODES, (args, code)
        assert "internal-error" not in stdout, stdout[:1000]
    if as_json:
        lines = [json.loads(line) for line in stdout.splitlines()]
        assert lines and all(isinstance(line, dict) for line in lines), stdout[:500]
        if lines_in is not None:
            assert [line["line"] for line in lines] == list(range(1, lines_in + 1)), stdout[:1000]


def with_file(text: str | bytes, suffix: str, make_args) -> tuple[list[str], tempfile.TemporaryDirectory]:
    folder = tempfile.TemporaryDirectory()
    path = Path(folder.name) / f"fuzzed{suffix}"
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return make_args(str(path)), folder


MODES = [pytest.param(False, id="in-process"), pytest.param(True, id="process", marks=pytest.mark.slow)]


def fuzz(count: int, slow_count: int):
    """The property's settings: a few examples in-process, many more as processes (slow)."""

    def decorate(test):
        def wrapper(process):
            settings(max_examples=examples(slow_count if process else count))(given_test)(process)

        given_test = test
        wrapper.__name__, wrapper.__doc__ = test.__name__, test.__doc__
        return pytest.mark.parametrize("process", MODES)(wrapper)

    return decorate


@fuzz(8, 60)
@given(st.sampled_from(RULESETS), st.lists(words, min_size=1, max_size=8))
def test_card_words(process, ruleset, cards):
    extra = ["--no-default-dict"] if ruleset == "word-rummy" else []
    exercise(["check", "-r", ruleset, *cards, *extra, "--json"], process=process)


@fuzz(5, 40)
@given(st.sampled_from(RULESETS), st.lists(words, min_size=1, max_size=20))
def test_hands(process, ruleset, cards):
    extra = ["--no-default-dict"] if ruleset == "word-rummy" else []
    exercise(
        ["solve", "-r", ruleset, "--hand", " ".join(cards), "--max-seconds", str(BUDGET), *extra, "--json"],
        process=process,
        budget=BUDGET,
    )


@fuzz(6, 40)
@given(
    st.sampled_from(
        [
            ("check", "fesca"),
            ("score", "gensou-mahjong"),
            ("solve", "basic-rummy"),
            ("check", "word-rummy"),
            ("score", "basic-rummy"),
        ]
    ),
    st.lists(batch_lines, min_size=1, max_size=6),
)
def test_batch_lines(process, command, lines):
    name, ruleset = command
    extra = ["--no-default-dict"] if ruleset == "word-rummy" else []
    budget = ["--max-seconds", str(BUDGET)] if name == "solve" else []
    exercise(
        [name, "-r", ruleset, *extra, *budget, "--batch", "-"],
        input=b"\n".join(lines) + b"\n",
        process=process,
        budget=PLAIN_BUDGET + BUDGET * len(lines),
        lines_in=len(lines),
    )


@fuzz(6, 40)
@given(mutated(RULESET_BASE))
def test_yaml_rulesets(process, text):
    args, folder = with_file(text, ".yaml", lambda p: ["check", "-r", p, "S9", "S10", "SJ", "--json"])
    with folder:
        exercise(args, process=process)


@fuzz(6, 40)
@given(mutated(PUZZLE_BASE))
def test_puzzles(process, text):
    args, folder = with_file(text, ".yaml", lambda p: ["solve", p, "--max-seconds", str(BUDGET), "--json"])
    with folder:
        exercise(args, process=process, budget=BUDGET)


@fuzz(6, 40)
@given(mutated(STATE_BASE))
def test_states(process, text):
    args, folder = with_file(text, ".yaml", lambda p: ["moves", p, "--json"])
    with folder:
        exercise(args, process=process)


@fuzz(5, 40)
@given(mutated(ROUND_BASE))
def test_round_files(process, text):
    args, folder = with_file(text, ".yaml", lambda p: ["score", "-r", "fesca", "--round", p, "--json"])
    with folder:
        exercise(args, process=process)


@fuzz(5, 40)
@given(
    st.one_of(
        st.binary(max_size=200),
        st.lists(words, max_size=10).map(lambda w: "\n".join(w).encode()),
        st.lists(words, max_size=10).map(lambda w: ("\ufeff" + "\r\n".join(w)).encode()),
    )
)
def test_word_lists(process, data):
    args, folder = with_file(
        data, ".txt", lambda p: ["check", "-r", "word-rummy", "ねこじた", "--dict", p, "--no-default-dict", "--json"]
    )
    with folder:
        exercise(args, process=process)


@fuzz(10, 60)
@given(
    st.sampled_from(
        [
            ["solve", "-r", "basic-rummy", "--hand", "S9 S10 SJ H4 D4 C4 C7", "--max-seconds"],
            ["solve", "-r", "basic-rummy", "--hand", "S9 S10 SJ H4 D4 C4 C7", "--all", "--limit"],
            ["score", "-r", "gensou-mahjong", "234m567p345678s22p", "--win", "8s", "--honba"],
            ["score", "-r", "gensou-mahjong", "234m567p345678s22p", "--win", "8s", "--players"],
            ["check", "-r", "fesca", "木3", "木4", "太極", "--jobs"],
        ]
    ),
    numbers,
)
def test_numeric_flags(process, args, value):
    exercise([*args, value, "--json"], process=process, budget=PLAIN_BUDGET)
