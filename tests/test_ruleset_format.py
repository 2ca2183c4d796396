"""Loading rulesets: validation with file and line, the JSON Schema, and honest sources."""

from __future__ import annotations

import copy
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml

from solver.core.errors import BadOption, MalformedYaml, SchemaError, UnknownRuleset
from solver.core.ruleset import bundled_rulesets, load_ruleset, resolve_path
from solver.core.schema import load_schema, validate
from solver.core.source import DOCUMENTS_DIR, document_text, normalise_quote

ROOT = Path(__file__).resolve().parent.parent
MINIMAL = """\
format: 1
id: tiny
name: Tiny
document: {file: tiny.txt}
deck:
  suits: [{id: A}, {id: B}]
  ranks: ["1..5"]
  classes:
    - {id: plain, suits: [A, B], ranks: ["1..5"], spell: ["{suit}{rank}"]}
roles:
  - {id: natural, classes: [plain], suit: own, rank: own}
melds:
  - {id: run, name: Run, shape: sequence, size: {min: 3, max: 5}, order: {ranks: ["1..5"]}, roles: [natural]}
"""


def write(tmp_path, text, name="game.yaml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_bundled_rulesets_load(fesca, rummy):
    assert {p.stem for p in bundled_rulesets()} >= {"fesca", "basic-rummy"}
    assert fesca.deck.size == 78 and rummy.deck.size == 52


def test_a_user_ruleset_by_path(tmp_path):
    rs = load_ruleset(write(tmp_path, MINIMAL))
    assert rs.id == "tiny" and rs.deck.size == 10


def test_unknown_ruleset_id_lists_the_bundled_ones():
    with pytest.raises(UnknownRuleset, match="fesca"):
        resolve_path("no-such-game")


def test_malformed_yaml_names_file_and_line(tmp_path):
    path = write(tmp_path, MINIMAL.replace("name: Tiny", "name: [Tiny"))
    with pytest.raises(MalformedYaml) as info:
        load_ruleset(path)
    assert info.value.location.file == path and info.value.location.line is not None
    assert str(info.value).startswith(f"{path}:")


def test_duplicate_keys_are_rejected(tmp_path):
    with pytest.raises(MalformedYaml, match="duplicate key 'name'"):
        load_ruleset(write(tmp_path, MINIMAL + "name: Again\n"))


def test_python_tags_are_never_evaluated(tmp_path):
    evil = MINIMAL.replace("name: Tiny", "name: !!python/object/apply:os.system ['echo hacked']")
    with pytest.raises(MalformedYaml):
        load_ruleset(write(tmp_path, evil))


@pytest.mark.parametrize(
    "change,line,path,message",
    [
        (("id: tiny", "id: Tiny Game"), 2, "id", "lower-case"),
        (
            ("    - {id: plain, suits: [A, B],", "    - {id: plain, colour: red, suits: [A, B],"),
            9,
            "deck.classes[0].colour",
            "unknown key 'colour'",
        ),
        (("size: {min: 3, max: 5}", "size: {min: 3}"), 13, "melds[0].size", "missing required key 'max'"),
        (("shape: sequence", "shape: spiral"), 13, "melds[0].shape", "'spiral' is not one of"),
        (("format: 1", "format: 2"), 1, "format", "must be 1"),
    ],
)
def test_schema_errors_name_file_line_and_key(tmp_path, change, line, path, message):
    text = MINIMAL.replace(*change)
    assert text != MINIMAL
    with pytest.raises(SchemaError) as info:
        load_ruleset(write(tmp_path, text))
    err = info.value
    assert err.location.line == line and err.location.path == path and message in err.message


@pytest.mark.parametrize(
    "change,message,line",
    [
        (("suits: [A, B], ranks", "suits: [A, C], ranks"), "unknown suit 'C'", 9),
        (('ranks: ["1..5"], spell', 'ranks: ["1..6"], spell'), "unknown rank '6'", 9),
        (("roles: [natural]}", "roles: [wild]}"), "unknown role 'wild'", 13),
        (('order: {ranks: ["1..5"]}', 'order: {ranks: ["1..5"]}, phase: day'), "unknown phase 'day'", 13),
        (('spell: ["{suit}{rank}"]', 'spell: ["{rank}"]'), "names two cards", 8),
    ],
)
def test_semantic_errors_name_the_line(tmp_path, change, message, line):
    text = MINIMAL.replace(*change)
    assert text != MINIMAL
    with pytest.raises(SchemaError) as info:
        load_ruleset(write(tmp_path, text))
    assert message in str(info.value) and info.value.location.line == line


@pytest.mark.parametrize(
    "section",
    [
        "phase_change: {on_discard_classes: [plain], odd: yang, even: yin}",  # Fesca's
        "seeing_tiplu: [{kinds: [run], count: 3}]",  # Marriage's
        "hand_shapes: [{id: standard, parts: [{kinds: [run], count: 4}]}]",  # a mahjong game's
        "restrictions: {before_own_meld: {source: {quote: none before a meld}}}",  # Fesca's
    ],
)
def test_a_section_the_game_does_not_read_is_refused_with_its_line(tmp_path, section):
    """A section of another game is not silently ignored: the rummy game reads no field phase,
    no tiplu, no hand shapes."""
    path = write(tmp_path, MINIMAL + section + "\n")
    key = section.split(":")[0]
    with pytest.raises(SchemaError, match=rf"game rummy has no section '{key}'") as info:
        load_ruleset(path)
    assert str(info.value).startswith(f"{path}:{MINIMAL.count(chr(10)) + 1}: {key}:")


def test_a_deal_for_no_player_count_of_the_game_is_refused_with_its_line(tmp_path):
    deal = "deal:\n  hand_size:\n    - {players: [2], cards: 3}\n    - {players: [7], cards: 3}\n"
    text = MINIMAL + "players: {min: 2, max: 3}\n" + deal
    path = write(tmp_path, text)
    with pytest.raises(SchemaError, match=r"a deal for 7 players, but the game is played by 2 to 3") as info:
        load_ruleset(path)
    assert str(info.value).startswith(f"{path}:{text.count(chr(10))}: deal.hand_size[1].players:")
    assert load_ruleset(write(tmp_path, text.replace("[7]", '["3..7"]'), "fits.yaml")).deal is not None


def test_unknown_option_and_bad_option_value():
    with pytest.raises(BadOption, match="no option 'colour'"):
        load_ruleset("fesca", {"colour": "red"})
    with pytest.raises(BadOption, match="expects a boolean"):
        load_ruleset("fesca", {"sojun": "maybe"})
    with pytest.raises(BadOption, match="at most 4"):
        load_ruleset("fesca", {"taikyoku-copies": 9})
    assert load_ruleset("fesca", {"sojun": "false"}).option_values["sojun"] is False


def test_options_switch_meld_kinds_and_copies():
    no_chains = load_ruleset("fesca", {"sojun": False})
    assert "sousei-chain" not in [k.id for k in no_chains.kinds]
    assert load_ruleset("fesca", {"taikyoku-copies": 2}).deck.size == 79


# -- sources are honest ------------------------------------------------------------------------


def _sources(node, where=""):
    if isinstance(node, dict):
        if "quote" in node and isinstance(node["quote"], str):
            yield where, node.get("doc"), node["quote"]
        for key, value in node.items():
            yield from _sources(value, f"{where}.{key}")
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from _sources(item, f"{where}[{i}]")


def _verbatim(quote: str) -> re.Pattern:
    """The quote as it stands in the document: character for character (no Unicode folding), white
    space in the quote matching any white space there (documents break and space lines freely)."""
    return re.compile(r"\s*".join(re.escape(part) for part in quote.split()))


RULE_DOCUMENTS = {p.name for p in DOCUMENTS_DIR.iterdir() if p.suffix in (".txt", ".md") and p.name != "README.md"}


@pytest.mark.parametrize("path", bundled_rulesets(), ids=lambda p: p.stem)
def test_every_quote_is_in_its_document(path):
    """Every quote occurs verbatim in the rule document it names (only white space may differ), the
    document is a rule document (not the seeds' README), and a source holds nothing but its quote,
    document and note (a comma in an unquoted YAML flow mapping would cut a quote short)."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    default_doc = load_ruleset(str(path)).document  # an extending ruleset inherits it
    texts = {}
    count = 0
    for where, doc, quote in _sources(data):
        doc = doc or default_doc
        assert doc in RULE_DOCUMENTS, f"{path.name}{where}: {doc} is not a rule document"
        if doc not in texts:
            texts[doc] = document_text(doc, path)
        assert _verbatim(quote).search(texts[doc]), f"{path.name}{where}: not verbatim in {doc}: {quote}"
        assert normalise_quote(quote) in normalise_quote(texts[doc])
        count += 1
    assert count >= (3 if "extends" in data else 10)  # an extending ruleset inherits the rest


@pytest.mark.parametrize("path", bundled_rulesets(), ids=lambda p: p.stem)
def test_every_source_is_a_quote_a_document_and_a_note(path):
    def walk(node, where=""):
        if isinstance(node, dict):
            if isinstance(node.get("quote"), str):
                allowed = {"quote", "doc", "note", "assumption"} | (
                    {"reason", "entry"} if where.startswith(".audit") else set()
                )
                assert set(node) <= allowed, f"{path.name}{where}: {sorted(node)}"
                assert len(node["quote"].strip()) >= 2, f"{path.name}{where}: a quote of one character"
            for key, value in node.items():
                walk(value, f"{where}.{key}")
        elif isinstance(node, list):
            for i, item in enumerate(node):
                walk(item, f"{where}[{i}]")

    walk(yaml.safe_load(path.read_text(encoding="utf-8")))


def test_the_bundled_documents_are_the_documents_received():
    """rulesets/documents holds the five rule documents exactly as received (the seeds: the folder
    MELDS_SEED_DOCUMENTS names, else shared/seeds beside the checkout, where the project keeps them)."""
    seeds = Path(os.environ.get("MELDS_SEED_DOCUMENTS") or ROOT.parent / "shared" / "seeds")
    if not seeds.is_dir():
        pytest.skip("the received documents are not on this machine")
    for received in seeds.glob("*.txt"):
        assert (DOCUMENTS_DIR / received.name).read_bytes() == received.read_bytes(), received.name


def test_the_verbatim_match_allows_white_space_only():
    text = "順 (ラン) : 3 枚以上の同スートの連番札\n\n・ 木の 3 連順"
    assert _verbatim("順 (ラン) : 3 枚以上").search(text)
    assert _verbatim("連番札 ・ 木の 3 連順").search(text)  # across a line break
    assert not _verbatim("3枚以上の同スートの連番札 ").search(text.replace("3 枚", "３枚"))  # no folding
    assert not _verbatim("連番札です").search(text)


@pytest.mark.parametrize("path", bundled_rulesets(), ids=lambda p: p.stem)
def test_every_meld_kind_and_assumption_cites_something(path):
    rs = load_ruleset(str(path))
    for kind in rs.all_kinds:
        assert kind.source is not None and (kind.source.quote or kind.source.assumption), kind.id
    for a in rs.assumptions:
        assert a.text and a.reason


# -- the JSON Schema ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name,variable",
    [("ruleset.schema.json", "schema"), ("puzzle.schema.json", "puzzle_schema"), ("state.schema.json", "state_schema")],
)
def test_committed_schemas_are_generated_by_the_tool(name, variable):
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            "import runpy,json; g=runpy.run_path('tools/gen_schema.py');"
            f"print(json.dumps(g['{variable}'], ensure_ascii=False, indent=2))",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert json.loads(out) == json.loads((ROOT / "rulesets" / name).read_text(encoding="utf-8"))


def test_schema_is_valid_json_schema_and_accepts_the_bundled_rulesets():
    schema = load_schema("ruleset.schema.json")
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)  # one validator: jsonschema.validate rebuilds it per call
    for path in bundled_rulesets():
        validator.validate(yaml.safe_load(path.read_text(encoding="utf-8")))


def _mutations(data):
    """Single-point breakages of a valid ruleset, to compare the two validators on."""
    yield "drop id", lambda d: d.pop("id")
    yield "id type", lambda d: d.__setitem__("id", 5)
    yield "extra top key", lambda d: d.__setitem__("colour", "red")
    yield "bad shape", lambda d: d["melds"][0].__setitem__("shape", "blob")
    yield "size min type", lambda d: d["melds"][0]["size"].__setitem__("min", "three")
    yield "role suit form", lambda d: d["roles"][0].__setitem__("suit", 7)
    yield "empty spell", lambda d: d["deck"]["classes"][0].__setitem__("spell", [])
    yield (
        "option no default",
        lambda d: d.setdefault("options", {}).__setitem__("x", {"type": "boolean", "description": "x"}),
    )
    yield "quote missing", lambda d: d["melds"][0].__setitem__("source", {"doc": "x"})
    yield "rank range form", lambda d: d["deck"]["ranks"].append("1-5")
    yield "kind role object", lambda d: d["melds"][0]["roles"].append({"classes": ["x"]})
    yield "fine", lambda d: None


@pytest.mark.parametrize("path", bundled_rulesets(), ids=lambda p: p.stem)
def test_our_reports_flag_exactly_the_files_jsonschema_flags(path):
    schema = load_schema("ruleset.schema.json")
    original = yaml.safe_load(path.read_text(encoding="utf-8"))
    for name, mutate in _mutations(original):
        data = copy.deepcopy(original)
        try:
            mutate(data)
        except (KeyError, IndexError):
            continue  # this file lacks the section (an extending ruleset)
        try:
            validate(data, "ruleset.schema.json", "<mutated>", bundled=False)
            ours = False
        except SchemaError:
            ours = True
        theirs = not jsonschema.Draft202012Validator(schema).is_valid(data)
        assert ours == theirs, name


def test_bundled_puzzles_and_states_fit_their_schemas():
    """The shipped files are trusted at run time (not validated), so the tests hold them to it."""
    puzzle, state = load_schema("puzzle.schema.json"), load_schema("state.schema.json")
    for schema in (puzzle, state):
        jsonschema.Draft202012Validator.check_schema(schema)
    for path in sorted((ROOT / "puzzles").rglob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        errors = list(
            jsonschema.Draft202012Validator(state if "turn" in data and "players" in data else puzzle).iter_errors(data)
        )
        assert not errors, f"{path}: {errors[0].message}"


def test_bundled_files_never_import_jsonschema():
    code = (
        "import sys; from solver.core.ruleset import load_ruleset; from solver.core.files import "
        "load_document; load_ruleset('fesca'); load_document('puzzles/fesca/f01-run-and-set.yaml'); "
        "print('jsonschema' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_wrong_type_deep_in_a_list_names_its_line(tmp_path):
    text = MINIMAL.replace('ranks: ["1..5"]\n  classes', 'ranks: ["1..5", [6]]\n  classes')
    with pytest.raises(SchemaError) as info:
        load_ruleset(write(tmp_path, text))
    assert info.value.location.line == 7 and info.value.location.path == "deck.ranks[1]"


def test_a_form_that_fits_no_branch_says_which_forms_there_are(tmp_path):
    with pytest.raises(SchemaError, match="a ruleset cites its rule document"):
        load_ruleset(write(tmp_path, MINIMAL.replace("document: {file: tiny.txt}\n", "")))


def test_bundled_documents_are_the_shared_seeds_unchanged():
    seeds = ROOT.parent / "shared" / "seeds"
    if not seeds.is_dir():
        pytest.skip("no shared/seeds beside this checkout (a clean CI clone)")
    for seed in seeds.iterdir():
        assert (DOCUMENTS_DIR / seed.name).read_bytes() == seed.read_bytes(), seed.name
