"""docs/ruleset-format.md teaches what melds reads: every YAML example in it is read by the real
reader, every ``$ melds ...`` line of it prints what the page shows, and every key of the ruleset
schema has an example there.

The page's own convention (its section "The examples of this page") says how a block is tried:

* ````yaml file=NAME```` — a whole ruleset file, kept as NAME for the blocks and commands after it;
  ````yaml file=NAME refused```` — one the reader refuses (the commands after it show the error);
* ````yaml over=BASE```` — a fragment: its sections laid over BASE (a file kept earlier, or a bundled
  ruleset's id) as a ruleset that ``extends: BASE`` would have them;
* ````yaml walk=NAME```` — a step of the walk-through: its sections added to the file NAME (a
  section it already has replaced), and the file read as it then is;
* ````console```` — ``$ melds ...`` lines, run in the folder of the files kept so far, each
  followed by its output.
"""

from __future__ import annotations

import json
import random
import re
import shlex
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml
from clirun import runner

from cli import main
from solver.core.errors import MeldsError
from solver.core.ruleset import load_ruleset

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "ruleset-format.md"
SCHEMA = json.loads((ROOT / "rulesets" / "ruleset.schema.json").read_text(encoding="utf-8"))
FENCE = re.compile(r"^( *)```(\w*)([^\n]*)\n(.*?)^ *```[ \t]*$", re.S | re.M)
EXAMPLE_ID = "id: doc-example\nname: an example of docs/ruleset-format.md\n"
# Keys every rule element may carry, documented once ("Any rule element may carry ..."), the
# {option: id, map: {...}} form of a number, and the document of a quote.
GENERIC_KEYS = {"source", "assumption", "description", "option", "map", "doc"}


@dataclass(frozen=True)
class Block:
    """One fenced block of the page: where it starts, its language, its marks, its text."""

    line: int
    lang: str
    marks: dict[str, str]
    text: str

    @property
    def label(self) -> str:
        marks = " ".join(f"{k}={v}" if v else k for k, v in self.marks.items())
        return f"line {self.line}: {self.lang} {marks}".rstrip()


def page_blocks(text: str) -> list[Block]:
    out = []
    for match in FENCE.finditer(text):
        marks = {}
        for word in match.group(3).split():
            key, _, value = word.partition("=")
            marks[key] = value
        body = textwrap.dedent(match.group(4))
        out.append(Block(text.count("\n", 0, match.start()) + 1, match.group(2), marks, body))
    return out


BLOCKS = page_blocks(DOC.read_text(encoding="utf-8"))
YAML_BLOCKS = [b for b in BLOCKS if b.lang == "yaml"]
CONSOLE_BLOCKS = [b for b in BLOCKS if b.lang == "console"]


# -- the files the page builds, block by block ------------------------------------------------


def sections(text: str) -> list[tuple[str, str]]:
    """A YAML text cut into its top-level sections (key, text), comments kept with the key after them."""
    out: list[tuple[str, str]] = []
    pending: list[str] = []
    for line in text.splitlines(keepends=True):
        key = re.match(r"([A-Za-z_][\w-]*)\s*:", line)
        if key and not line[:1].isspace():
            out.append((key.group(1), "".join(pending) + line))
            pending = []
        elif out and (line[:1].isspace() or not line.strip()) and not pending:
            out[-1] = (out[-1][0], out[-1][1] + line)
        else:
            pending.append(line)
    if pending and out:
        out[-1] = (out[-1][0], out[-1][1] + "".join(pending))
    return out


def with_sections(old: str, new: str) -> str:
    """``old`` with the sections of ``new`` added, or in place of its sections of the same name."""
    merged = dict(sections(old))
    merged.update(sections(new))
    return "".join(text if text.endswith("\n") else text + "\n" for text in merged.values())


@dataclass
class Page:
    """The page's blocks tried in order in one folder: the file each YAML block reads, and a
    snapshot folder of every file kept so far for each console block."""

    root: Path
    files: dict[str, str] = field(default_factory=dict)
    read: dict[int, Path] = field(default_factory=dict)
    folders: dict[int, Path] = field(default_factory=dict)

    def build(self) -> None:
        for block in BLOCKS:
            if block.lang == "yaml":
                self.read[block.line] = self._yaml(block)
            elif block.lang == "console":
                folder = self.root / f"at-{block.line}"
                folder.mkdir()
                for name, text in self.files.items():
                    (folder / name).write_text(text, encoding="utf-8")
                self.folders[block.line] = folder

    def _yaml(self, block: Block) -> Path:
        if "over" in block.marks:
            base = block.marks["over"]
            name = block.marks.get("file") or f"example-{block.line}.yaml"
            ref = f"./{base}" if base in self.files else base
            own = {key for key, _ in sections(block.text)}
            header = "" if {"id", "name"} & own else EXAMPLE_ID
            text = f"format: 1\nextends: {ref}\n{header}{block.text}"
        elif "walk" in block.marks:
            name = block.marks["walk"]
            text = with_sections(self.files.get(name, ""), block.text)
        elif "file" in block.marks:
            name, text = block.marks["file"], block.text
        else:
            raise AssertionError(f"{block.label}: a YAML block needs file=, over= or walk= (see the page's convention)")
        self.files[name] = text
        folder = self.root / f"at-{block.line}"
        folder.mkdir()
        for other, content in self.files.items():
            (folder / other).write_text(content, encoding="utf-8")
        return folder / name


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Page:
    built = Page(tmp_path_factory.mktemp("ruleset-format"))
    built.build()
    return built


@pytest.mark.parametrize("block", YAML_BLOCKS, ids=lambda b: f"line-{b.line}")
def test_every_yaml_example_is_read(page: Page, block: Block) -> None:
    path = page.read[block.line]
    if "refused" in block.marks:
        with pytest.raises(MeldsError):
            load_ruleset(str(path))
        return
    ruleset = load_ruleset(str(path))
    if "over" not in block.marks:
        assert ruleset.id == yaml.safe_load(path.read_text(encoding="utf-8"))["id"]


def console_runs(block: Block) -> Iterator[tuple[str, str]]:
    """The (command, output shown) pairs of a console block."""
    for chunk in re.split(r"\n(?=\$ )", block.text.strip()):
        command, _, output = chunk.partition("\n")
        assert command.startswith("$ melds "), f"{block.label}: a console line starts with '$ melds '"
        yield command[2:], output.rstrip()


CONSOLE_RUNS = [(b, cmd, out) for b in CONSOLE_BLOCKS for cmd, out in console_runs(b)]


@pytest.mark.parametrize(
    "block,command,shown", CONSOLE_RUNS, ids=[f"line-{b.line}-{i}" for i, (b, _, _) in enumerate(CONSOLE_RUNS)]
)
def test_every_command_shows_its_output(
    page: Page, block: Block, command: str, shown: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(page.folders[block.line])
    args = shlex.split(command)
    result = runner().invoke(main, args[1:])
    assert result.output.rstrip() == shown, f"{block.label}: $ {command}"
    if shown.startswith("melds: error:"):
        assert result.exit_code == 2


def test_the_page_has_examples_of_each_kind() -> None:
    marks = {key for b in YAML_BLOCKS for key in b.marks}
    assert {"file", "over", "walk", "refused"} <= marks
    assert len(CONSOLE_RUNS) >= 10
    assert not [b.label for b in BLOCKS if b.lang not in ("yaml", "console", "text", "json")]


# -- every key of the schema has an example ----------------------------------------------------


def _resolve(node: Any) -> Any:
    while isinstance(node, dict) and "$ref" in node:
        node = SCHEMA["$defs"][node["$ref"].split("/")[-1]]
    return node


def _branches(node: Any) -> list[dict[str, Any]]:
    node = _resolve(node)
    if not isinstance(node, dict):
        return []
    out = [node]
    for key in ("anyOf", "oneOf"):
        for branch in node.get(key, []):
            out += _branches(branch)
    return out


def _is_source(node: Any) -> bool:
    return isinstance(node, dict) and node.get("$ref") == "#/$defs/source"


def _specific(key: str, node: Any) -> bool:
    """A key of its own (not one every element may carry, nor a source cited for a choice)."""
    return key not in GENERIC_KEYS and not key.endswith("_source") and not _is_source(node)


def schema_paths(node: Any = SCHEMA, path: str = "", seen: set[str] | None = None) -> set[str]:
    """Every key the ruleset schema accepts, as a path (``melds[].roles[].if_chosen``; ``*``: any
    key of a mapping); the claims of an audit witness are claims, listed once."""
    seen = set() if seen is None else seen
    if path == "audit.defects[].witness[]":
        return seen
    for branch in _branches(node):
        for key, sub in branch.get("properties", {}).items():
            here = f"{path}.{key}" if path else key
            if _specific(key, sub) and here not in seen:
                seen.add(here)
                schema_paths(sub, here, seen)
        extra = branch.get("additionalProperties")
        if isinstance(extra, dict):
            schema_paths(extra, f"{path}.*", seen)
        if isinstance(branch.get("items"), dict):
            schema_paths(branch["items"], f"{path}[]", seen)
    return seen


def used_paths(data: Any, node: Any = SCHEMA, path: str = "", found: set[str] | None = None) -> set[str]:
    """The schema's keys a YAML example uses."""
    found = set() if found is None else found
    branches = _branches(node)
    if isinstance(data, dict):
        for key, value in data.items():
            props = next((b["properties"] for b in branches if key in b.get("properties", {})), None)
            if props is not None:
                here = f"{path}.{key}" if path else key
                found.add(here)
                used_paths(value, props[key], here, found)
                continue
            extra = next(
                (b["additionalProperties"] for b in branches if isinstance(b.get("additionalProperties"), dict)), None
            )
            if extra is not None:
                used_paths(value, extra, f"{path}.*", found)
    elif isinstance(data, list):
        items = next((b["items"] for b in branches if isinstance(b.get("items"), dict)), None)
        if items is not None:
            for item in data:
                used_paths(item, items, f"{path}[]", found)
    return found


def test_every_key_of_the_schema_has_an_example() -> None:
    used: set[str] = set()
    for block in YAML_BLOCKS:
        used_paths(yaml.safe_load(block.text) or {}, found=used)
    missing = sorted(schema_paths() - used)
    assert not missing, "keys of rulesets/ruleset.schema.json with no example in docs/ruleset-format.md:\n" + "\n".join(
        missing
    )


def test_every_key_has_a_meaning_in_words() -> None:
    """Each key is named in the page's words (a table, a list, a sentence: between backticks) or
    on a commented line of an example, not only used."""
    prose = FENCE.sub("", DOC.read_text(encoding="utf-8"))
    named = {word for span in re.findall(r"`([^`]+)`", prose) for word in re.findall(r"[\w-]+", span)}
    commented = "\n".join(line for b in YAML_BLOCKS for line in b.text.splitlines() if "#" in line)
    unexplained = sorted(
        path
        for path in schema_paths()
        if (leaf := re.split(r"[.\[\]*]+", path.rstrip("[]*."))[-1]) not in named
        and not re.search(rf"\b{re.escape(leaf)}\s*:", commented)
    )
    assert not unexplained, "keys the page never explains:\n" + "\n".join(unexplained)


def test_the_page_links_to_its_own_sections() -> None:
    """Every ``(#anchor)`` of the page names one of its headings (GitHub's slugs)."""
    text = FENCE.sub("", DOC.read_text(encoding="utf-8"))
    slugs = {
        re.sub(r"\s", "-", re.sub(r"[^\w\s-]", "", heading.strip().lower()))
        for heading in re.findall(r"^#+ (.+)$", text, flags=re.M)
    }
    broken = sorted(set(re.findall(r"\]\(#([^)]+)\)", text)) - slugs)
    assert not broken, f"links to no heading: {broken}"


def _dealt_hands(count: int, seed: int) -> list[dict[str, str]]:
    """Indian Rummy requests of fourteen cards: half built of sequences and sets (with jokers), half
    drawn at random from the two decks, each with a cut joker."""
    rng = random.Random(seed)
    ranks = ["A", *map(str, range(2, 11)), "J", "Q", "K"]
    deck = [f"{s}{r}" for s in "SHDC" for r in ranks] * 2 + ["JK", "JK"]
    out = []
    for n in range(count):
        pool = list(deck)
        rng.shuffle(pool)
        hand: list[str] = []
        while n % 2 == 0 and len(hand) < 10:
            suit, start, size = rng.choice("SHDC"), rng.randrange(len(ranks) - 3), rng.choice((3, 4))
            meld = [f"{suit}{r}" for r in ranks[start : start + size]]
            if rng.random() < 0.3:
                meld[rng.randrange(size)] = "JK"
            if all(pool.count(c) >= meld.count(c) for c in meld):
                for card in meld:
                    pool.remove(card)
                hand += meld
        hand += pool[: 14 - len(hand)]
        out.append({"hand": " ".join(hand[:14]), "indicator": rng.choice(deck)})
    return out


def test_the_walk_through_plays_as_the_bundled_ruleset(page: Page, tmp_path: Path) -> None:
    """The walk-through's last file answers as rulesets/indian-rummy.yaml does: whether each hand
    goes out, and the hand points of its best turn."""
    last = max(b.line for b in YAML_BLOCKS if b.marks.get("walk") == "my-rummy.yaml")
    batch = tmp_path / "hands.jsonl"
    hands = _dealt_hands(16, seed=46)
    batch.write_text("".join(json.dumps(h) + "\n" for h in hands), encoding="utf-8")
    answers = []
    for ruleset in (str(page.read[last]), "indian-rummy"):
        result = runner().invoke(main, ["solve", "-r", ruleset, "--batch", str(batch)])
        answers.append([(a["solvable"], a["score"]) for a in map(json.loads, result.stdout.splitlines())])
    assert answers[0] == answers[1]
    assert {solvable for solvable, _ in answers[0]} == {True, False}
