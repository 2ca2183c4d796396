"""A small JSON Schema interpreter with line-numbered errors.

The ruleset format is specified by ``rulesets/ruleset.schema.json`` (draft 2020-12, usable by any
editor). This module validates loaded YAML against that same file, so there is one specification,
and reports the first problem as ``file:line: path: message``. It understands the subset of JSON
Schema the project's schemas use: ``type``, ``enum``, ``const``, ``properties``, ``required``,
``additionalProperties``, ``patternProperties``, ``items``, ``minItems``, ``maxItems``,
``minimum``, ``maximum``, ``minLength``, ``pattern``, ``oneOf``, ``anyOf`` and local ``$ref``.
The test-suite checks it against the ``jsonschema`` package on valid and invalid files.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from solver.core.errors import Location, SchemaError
from solver.core.yamlload import line_of

_TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


@dataclass(frozen=True)
class Problem:
    path: tuple
    line: int | None
    message: str
    depth: int  # how far into the value the problem was found: deeper is more specific


def _fmt_path(path: tuple) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


class Validator:
    def __init__(self, schema: dict):
        self.root = schema

    def _resolve(self, ref: str) -> dict:
        if not ref.startswith("#/"):
            raise ValueError(f"only local $ref is supported: {ref}")
        node: Any = self.root
        for part in ref[2:].split("/"):
            node = node[part]
        return node

    def problems(self, value: Any, schema: dict, path: tuple, line: int | None) -> list[Problem]:
        if "$ref" in schema:
            return self.problems(value, self._resolve(schema["$ref"]), path, line)
        depth = len(path)
        out: list[Problem] = []

        def bad(message: str) -> list[Problem]:
            return [Problem(path, line, message, depth)]

        if "type" in schema:
            types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
            if not any(_TYPES[t](value) for t in types):
                return bad(f"expected {' or '.join(types)}, got {_describe(value)}")
        if "const" in schema and value != schema["const"]:
            return bad(f"must be {schema['const']!r}")
        if "enum" in schema and value not in schema["enum"]:
            allowed = ", ".join(repr(v) for v in schema["enum"])
            return bad(f"{value!r} is not one of {allowed}")
        if isinstance(value, str):
            if len(value) < schema.get("minLength", 0):
                return bad("must not be empty" if schema["minLength"] == 1 else "too short")
            if "pattern" in schema and not re.search(schema["pattern"], value):
                return bad(schema.get("patternMessage", f"{value!r} does not match {schema['pattern']}"))
        if _TYPES["number"](value):
            if "minimum" in schema and value < schema["minimum"]:
                return bad(f"must be at least {schema['minimum']}")
            if "maximum" in schema and value > schema["maximum"]:
                return bad(f"must be at most {schema['maximum']}")
        if isinstance(value, list):
            if len(value) < schema.get("minItems", 0):
                return bad(f"needs at least {schema['minItems']} item(s)")
            if "maxItems" in schema and len(value) > schema["maxItems"]:
                return bad(f"allows at most {schema['maxItems']} item(s)")
            if "items" in schema:
                for i, item in enumerate(value):
                    out += self.problems(item, schema["items"], path + (i,), line_of(value, i))
        if isinstance(value, dict):
            for key in schema.get("required", []):
                if key not in value:
                    out.append(Problem(path, line, f"missing required key '{key}'", depth))
            props = schema.get("properties", {})
            patterns = schema.get("patternProperties", {})
            extra = schema.get("additionalProperties", True)
            for key, item in value.items():
                key_line = line_of(value, key)
                if not isinstance(key, str):
                    out.append(Problem(path, key_line, f"key {key!r} must be a string", depth + 1))
                    continue
                if key in props:
                    out += self.problems(item, props[key], path + (key,), key_line)
                    continue
                matched = [s for p, s in patterns.items() if re.search(p, key)]
                for sub in matched:
                    out += self.problems(item, sub, path + (key,), key_line)
                if matched:
                    continue
                if extra is False:
                    known = ", ".join(sorted(props)) or "none"
                    out.append(Problem(path + (key,), key_line,
                                       f"unknown key '{key}' (allowed here: {known})", depth + 1))
                elif isinstance(extra, dict):
                    out += self.problems(item, extra, path + (key,), key_line)
        for combinator in ("anyOf", "oneOf"):
            if combinator not in schema:
                continue
            branches = [self.problems(value, sub, path, line) for sub in schema[combinator]]
            passing = [b for b in branches if not b]
            if combinator == "oneOf" and len(passing) > 1:
                out += bad("matches more than one allowed form")
            elif not passing:
                # Report the branch that got furthest into the value: its message is the most
                # specific. A branch rejected at the top (wrong type) says little.
                best = max(branches, key=lambda b: max(p.depth for p in b))
                if max(p.depth for p in best) > depth:
                    out += best
                else:
                    hint = schema.get("formMessage") or "does not match any allowed form"
                    out += bad(hint)
        return out


def _describe(value: Any) -> str:
    if value is None:
        return "nothing (null)"
    for name, test in _TYPES.items():
        if name != "number" and test(value):
            return f"{name} {value!r}" if name in ("string", "integer", "boolean") else name
    return type(value).__name__


SCHEMA_DIR = Path(__file__).resolve().parent.parent.parent / "rulesets"


@lru_cache(maxsize=None)
def load_schema(name: str) -> dict:
    """A schema shipped with the project, by file name (e.g. ``ruleset.schema.json``)."""
    from importlib import resources

    try:
        text = resources.files("rulesets").joinpath(name).read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        text = (SCHEMA_DIR / name).read_text(encoding="utf-8")
    return json.loads(text)


def validate(value: Any, schema_name: str, filename: str) -> None:
    """Raise :class:`SchemaError` for the first (most specific) problem, else return."""
    schema = load_schema(schema_name)
    problems = Validator(schema).problems(value, schema, (), getattr(value, "line", 1))
    if problems:
        first = min(problems, key=lambda p: (p.line or 0, -p.depth))
        raise SchemaError(first.message, Location(filename, first.line, _fmt_path(first.path)))
