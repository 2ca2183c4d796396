"""The shape of the code holds: layers and walls (import-linter), no import cycles, small modules,
functions and lines, no game named outside its own package, every bundled ruleset naming its game."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import grimp
import networkx as nx
import pytest
import yaml
from importlinter.cli import lint_imports

from solver.core import registry
from solver.core.ruleset import bundled_rulesets

ROOT = Path(__file__).resolve().parent.parent
SOLVER = ROOT / "solver"
GAMES = SOLVER / "games"
CLI_MODULES = [ROOT / "cli.py", *sorted((SOLVER / "commands").glob("*.py"))]
# the project's code (the tool and the scripts beside it: benchmarks, the schema's generator)
MODULES = [ROOT / "cli.py", *sorted(SOLVER.rglob("*.py"))]  # the tool
# all the project's code, held to the size limits: the tool, the scripts beside it (benchmarks, the
# schema's generator) and the tests
EVERY_FILE = [*MODULES, *sorted((ROOT / "bench").glob("*.py")), *sorted((ROOT / "tools").glob("*.py"))]
EVERY_FILE += sorted((ROOT / "tests").glob("*.py"))


def test_import_linter_contracts_are_kept():
    """The contracts in pyproject.toml: layers inside solver/, games independent of each other,
    nothing but a game's package imports it, python-sat only through solver.sat, no cycles."""
    assert lint_imports(config_filename=str(ROOT / "pyproject.toml")) == 0


def test_no_import_cycles_imports_inside_functions_included():
    graph = grimp.build_graph("solver", cache_dir=None)
    edges = nx.DiGraph()
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            edges.add_edge(module, imported)
    cycles = [sorted(c) for c in nx.strongly_connected_components(edges) if len(c) > 1]
    assert cycles == []
    cli = ast.parse((ROOT / "cli.py").read_text(encoding="utf-8"))
    imported = {n.module for n in ast.walk(cli) if isinstance(n, ast.ImportFrom)}
    assert imported <= {"__future__", "solver.commands", "solver.commands.group"}


@pytest.mark.parametrize("path", EVERY_FILE, ids=lambda p: str(p.relative_to(ROOT)))
def test_module_sizes(path):
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= (300 if path in CLI_MODULES else 600), f"{path.relative_to(ROOT)} has {lines} lines"


MAX_FUNCTION_LINES = 80  # a function from its def line to its last, its docstring included
MAX_LINE = 120  # characters (pyproject.toml's ruff line-length, here for every line, comments too)


@pytest.mark.parametrize("path", EVERY_FILE, ids=lambda p: str(p.relative_to(ROOT)))
def test_function_sizes(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    long = [
        f"{node.name} ({node.end_lineno - node.lineno + 1} lines, line {node.lineno})"
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES
    ]
    assert not long, f"{path.relative_to(ROOT)}: functions over {MAX_FUNCTION_LINES} lines: {', '.join(long)}"


@pytest.mark.parametrize("path", EVERY_FILE, ids=lambda p: str(p.relative_to(ROOT)))
def test_line_lengths(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    long = [n for n, line in enumerate(lines, 1) if len(line) > MAX_LINE]
    assert not long, f"{path.relative_to(ROOT)}: lines over {MAX_LINE} characters: {long}"


def _game_vocabulary() -> tuple[set[str], set[str], re.Pattern]:
    """(exact literals that name a game or a game-only section, game-only attributes, words that
    name a particular game anywhere in a string)."""
    names = set(registry.known_games())
    ids = {p.stem for p in bundled_rulesets()}
    core_sections = {
        "format",
        "id",
        "game",
        "name",
        "name_en",
        "document",
        "extends",
        "players",
        "options",
        "assumptions",
        "deck",
        "cycles",
        "phases",
        "roles",
        "melds",
        "ambiguity",
        "deal",
        "card_points",
        "turns",
        "layoff",
        "objective",
        "round_scoring",
        "parameters",
        "moves",
        "claims",
        "operations",
        "going_out",
        "figures",
        "table",
        "initial_meld",  # the last five: shared melding mechanisms
        "audit",
    }  # melds audit's own reading of the document (solver/audit)
    sections = set()
    for path in bundled_rulesets():
        sections |= set(yaml.safe_load(path.read_text(encoding="utf-8"))) - core_sections
    attributes = sections | {"if_maal", "maal_kind", "tiplu", "start_phase", "phase_after_discard"}
    particular = {n for n in names if n not in ("rummy", "words")} | ids | {"riichi", "tiplu", "maal"}
    pattern = re.compile(
        r"(?<![\w-])("
        + "|".join(sorted(map(re.escape, particular), key=len, reverse=True))
        + r")(?![\w-])|フェスカ|マリッジ|麻雀",
        re.IGNORECASE,
    )
    return names | ids | sections, attributes, pattern


def test_no_game_is_named_outside_its_own_package():
    """No probe for a game outside solver/games/: no string that is a game's name, a bundled
    ruleset's id or a game's own section; no game-only attribute; no text naming a game."""
    literals, attributes, naming = _game_vocabulary()
    found = []
    for path in MODULES:
        if GAMES in path.parents:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = path.relative_to(ROOT)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if node.value in literals:
                    found.append(f"{where}:{node.lineno}: the string {node.value!r}")
                elif naming.search(node.value):
                    found.append(f"{where}:{node.lineno}: {naming.search(node.value)[0]!r} in {node.value[:60]!r}")
            elif isinstance(node, ast.Attribute) and node.attr in attributes:
                found.append(f"{where}:{node.lineno}: the attribute .{node.attr}")
    assert found == []


def test_every_bundled_ruleset_names_its_game():
    raw = {p.stem: yaml.safe_load(p.read_text(encoding="utf-8")) for p in bundled_rulesets()}
    for ruleset_id, data in raw.items():
        game = data.get("game") or raw.get(data.get("extends"), {}).get("game")
        assert game in registry.known_games(), f"{ruleset_id}: game {game!r}"
