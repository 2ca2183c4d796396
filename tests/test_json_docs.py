"""docs/json-output.md is a contract: the keys of each documented JSON example are in the real
output of a command of that kind (new keys may be added; none documented may go missing)."""

from __future__ import annotations

import json
import re

import pytest
from clirun import ROOT, run

DOC = (ROOT / "docs" / "json-output.md").read_text(encoding="utf-8")

# section heading (as it starts) -> a command whose --json output the section's first example shows
EXAMPLES = {
    "## Errors": ("check", "-r", "fesca", "木13"),
    "## `melds check`": ("check", "-r", "fesca", "木5", "陰陽5", "火5"),
    "## `melds rulesets`": ("rulesets",),
    "## `melds solve`": ("solve", "-r", "basic-rummy", "--hand", "S9 S10 SJ H4 D4 C4 C7"),
    "### `melds solve --distance`": ("solve", "-r", "basic-rummy", "--hand", "S9 S10 SJ H4 D4 C2 C7 C8", "--distance"),
    "### `melds solve -r RULESET --discards`": (
        "solve",
        "-r",
        "basic-rummy",
        "--hand",
        "S9 S10 SJ H4 D4 C2 C7 C8",
        "--discards",
        "--visible",
        "C9",
    ),
    "### `melds solve -r word-rummy --discards": (
        "solve",
        "-r",
        "word-rummy",
        "--discards",
        "--hand",
        "たぬきつ",
        "--loose",
        "ね",
        "--table",
        "さかな",
        "--has-melded",
        "-o",
        "tile-copies=3",
        "--dict",
        str(ROOT / "puzzles/word-rummy/small-words.txt"),
        "--no-default-dict",
    ),
    "## `melds score`": ("score", "-r", "fesca", "土3", "土4", "土5", "土7", "太極"),
    "## `melds score --settle`": (
        "score",
        "-r",
        "marriage",
        "--settle",
        str(ROOT / "puzzles/marriage/s01-settlement-by-hand.yaml"),
    ),
    "### `melds check` (is this 14-tile hand a win?)": ("check", "-r", "gensou-mahjong", "123m789p22z [111z] (0555p)"),
    "### `melds solve --waits`": ("solve", "-r", "gensou-mahjong", "--waits", "1113456788999p"),
    "### `melds solve --riichi-kan": (
        "solve",
        "-r",
        "gensou-mahjong",
        "--riichi-kan",
        "--draw",
        "6s",
        "555666777999s1p",
    ),
    "### `melds solve --shanten`": ("solve", "-r", "gensou-mahjong", "--shanten", "1239m1p345s11223z"),
    "### `melds solve --discards`": (
        "solve",
        "-r",
        "gensou-mahjong",
        "--discards",
        "123456m2378p4568s",
        "--visible",
        "1p4p",
        "--dora-indicators",
        "9p",
    ),
    "### `melds score` (a winning mahjong hand)": (
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
    ),
    "### `melds check -r word-rummy": ("check", "-r", "word-rummy", "がっこう"),
    "### `melds solve -r word-rummy": (
        "solve",
        "-r",
        "word-rummy",
        "--hand",
        "たぬきつ",
        "--table",
        "さかな",
        "--has-melded",
    ),
    "### `melds score -r word-rummy": ("score", "-r", "word-rummy", "ねこいぬかき", "--bonus-words", "ねこ,いぬ"),
    "## Rummikub": (
        "solve",
        "-r",
        "rummikub",
        "--hand",
        "r10 r11 J k2",
        "--table",
        "all: r7 r8 r9",
        "--table",
        "all: k5 b5 o5",
        "--has-melded",
        "--best",
    ),
    "### `melds solve -r rummikub --distance`": (
        "solve",
        "-r",
        "rummikub",
        "--hand",
        "r10 r11 k2",
        "--table",
        "all: r7 r8 r9",
        "--table",
        "all: k5 b5 o5",
        "--has-melded",
        "--distance",
    ),
    "## `melds audit`": ("audit", "basic-rummy"),
    "## `melds audit --coverage`": ("audit", "basic-rummy", "--coverage"),
    "## `melds replay`": ("replay", str(ROOT / "tests/data/tenhou/2019082700gm-00a9-0000-63d1f136.mjlog.gz")),
}


def section_example(heading: str) -> str:
    start = DOC.index("\n" + heading)
    block = re.search(r"```json\n(.*?)```", DOC[start:], flags=re.S)
    assert block, f"no JSON example under {heading}"
    return block.group(1)


def top_level_keys(text: str) -> set[str]:
    """The keys of the outermost object of an example (examples elide with …, so not parsed as JSON)."""
    keys, depth, i = set(), 0, 0
    while i < len(text):
        ch = text[i]
        if ch == '"':
            end = text.index('"', i + 1)
            while text[end - 1] == "\\":
                end = text.index('"', end + 1)
            if depth == 1 and text[end + 1 :].lstrip().startswith(":"):
                keys.add(text[i + 1 : end])
            i = end + 1
            continue
        depth += ch in "{[" and 1 or ch in "}]" and -1 or 0
        i += 1
    return keys


@pytest.mark.parametrize("heading", list(EXAMPLES))
def test_documented_keys_are_in_the_real_output(heading):
    documented = top_level_keys(section_example(heading))
    assert documented, heading
    result = run(*EXAMPLES[heading], "--json")
    data = json.loads(result.stdout)  # an error also goes to standard error
    assert documented <= set(data), (heading, sorted(documented - set(data)))


def test_the_key_reader_reads_the_outer_object_only():
    assert top_level_keys('{"a": 1, "b": {"c": [{"d": "x"}]}, "e": "…"}') == {"a", "b", "e"}
