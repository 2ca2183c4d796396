"""Reading a ruleset file into frozen rule elements, with file and line for every error.

A ruleset file is validated against ``rulesets/ruleset.schema.json`` first; :class:`RuleReader`
then makes the checks a schema cannot (an unknown suit, a role that says ``own`` for a card with
no suit, an ``if:`` on an option that does not exist, ...) and builds the elements. The sections
every game shares are read by :mod:`solver.core.sections`; a game's own sections are read by
its package (``Game.read_rules``), with the same reader and its helpers, so that every error of
every section names the file, the line and the key.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NoReturn

from solver.core import limits
from solver.core.deck import Deck, Rank
from solver.core.errors import BadOption, Location, SchemaError, TooLarge
from solver.core.rules import ChosenCard, MeldKind, Option, Phase, Role
from solver.core.source import Source
from solver.core.yamlload import LDict, line_of

# Top-level keys no section reader reads: the ruleset's identity, and the audit's own reading
# (solver.core.ruleset.ruleset_data, read by melds audit).
NOT_SECTIONS = frozenset({"format", "extends", "id", "game", "name", "name_en", "audit"})


class Sections(LDict):
    """A ruleset's top level that remembers which sections were asked for (``d[key]``,
    ``d.get(key)``, ``key in d``): a section no reader asked for is one the game ignores."""

    asked: set[Any]

    def __getitem__(self, key: Any) -> Any:
        self.asked.add(key)
        return super().__getitem__(key)

    def get(self, key: Any, default: Any = None) -> Any:
        self.asked.add(key)
        return super().get(key, default)

    def __contains__(self, key: object) -> bool:
        self.asked.add(key)
        return super().__contains__(key)


def sections_of(data: Any) -> Any:
    """The top level of a ruleset's data as :class:`Sections` (its lines and files kept)."""
    if not isinstance(data, dict):
        return data
    out = Sections(data)
    out.asked = set()
    out.line = getattr(data, "line", None)
    out.lines = dict(getattr(data, "lines", {}))
    out.file = getattr(data, "file", None)
    out.files = dict(getattr(data, "files", {}))
    return out


class RuleReader:
    """One ruleset file's data, read under one set of option values.

    After :func:`solver.core.sections.read_common` it also knows the options, their ``values``,
    the ``deck``, the ``phases``, the meld ``kinds`` (all of them) and the ``roles``; a game's
    ``read_rules`` can rely on them.
    """

    def __init__(self, path: str, data: Any):
        self.path = path
        self.data = sections_of(data)
        if "document" not in self.data:
            raise SchemaError(
                "missing required key 'document' (the rule document the ruleset cites)",
                Location(path, getattr(data, "line", 1)),
            )
        self.doc: str = self.data["document"]["file"]
        self.documents: dict[str, str] = getattr(data, "documents", {})
        self.options: dict[str, Option] = {}
        self.values: dict[str, Any] = {}
        self.deck = Deck((), (), (), (), {}, "")
        self.kinds: tuple[MeldKind, ...] = ()
        self.roles: dict[str, Role] = {}
        self.phases: tuple[Phase, ...] = ()
        self.chosen: dict[str, ChosenCard] = {}  # parameter name -> its chosen card (solver.core.chosen)
        self.relations: dict[str, str] = {}  # relation id -> the chosen card it relates to
        self.disabled_roles: set[str] = set()  # roles the options leave out (enabled_if)

    # -- errors -----------------------------------------------------------------------------

    def fail(self, container: Any, key: Any, message: str, path: str = "") -> NoReturn:
        """Raise a schema error at ``container[key]`` (its own file when it came by ``extends``)."""
        raise SchemaError(message, Location(self._file_of(container, key), line_of(container, key), path))

    def _file_of(self, container: Any, key: Any) -> str:
        """The file ``container[key]`` was read from: a merged mapping knows it per key (``extends``)."""
        files = getattr(container, "files", None) or {}
        named: str | None = files.get(key) if isinstance(files, dict) else None
        return named or getattr(container, "file", None) or self.path

    def bound(self, container: Any, key: Any, value: int, maximum: int, what: str, path: str = "") -> None:
        """Refuse a number past melds' limits (solver.core.limits) before anything is built of it."""
        if isinstance(value, int) and value > maximum:
            where = self._file_of(container, key)
            raise TooLarge(
                f"{Location(where, line_of(container, key), path)}: {value:,} {what}; melds allows at most {maximum:,}"
            )
        if isinstance(value, int) and value < 0:
            self.fail(container, key, f"{value} {what}: a count cannot be negative", path)

    def require(self, key: str, why: str) -> Any:
        """A top-level section the game needs."""
        if key not in self.data:
            raise SchemaError(f"missing required key '{key}' ({why})", Location(self.path, 1))
        return self.data[key]

    def refuse_unread(self, game: str) -> None:
        """Refuse a top-level section that no reader of the ruleset's game asked for: a section
        another game reads (a field phase's ``phase_change`` where no game reads one) would
        otherwise be ignored in silence."""
        asked = getattr(self.data, "asked", None)
        if asked is None:
            return
        for key in self.data:
            if key not in asked and key not in NOT_SECTIONS:
                self.fail(
                    self.data,
                    key,
                    f"game {game} has no section '{key}' (a section of another game?): nothing would read it",
                    str(key),
                )

    # -- values -----------------------------------------------------------------------------

    def document_of(self, node: Any) -> str:
        """The document an element cites when it names none: that of the file giving it (an entry
        of a base ruleset quotes the base's document, not the document of a ruleset extending it)."""
        file: str = getattr(node, "file", None) or ""
        return self.documents.get(file, self.doc)

    def source(self, element: Mapping[str, Any] | None) -> Source | None:
        """The source an element cites (``source:`` and/or ``assumption:``), or None."""
        if not isinstance(element, Mapping):
            return None
        src = element.get("source")
        assumption = element.get("assumption")
        if src is None and assumption is None:
            return None
        src = src or {}
        return Source(
            doc=src.get("doc") or self.document_of(src or element),
            quote=src.get("quote"),
            note=src.get("note"),
            assumption=assumption,
            line=getattr(element, "line", None),
        )

    def sources(self, section: Mapping[str, Any] | None) -> dict[str, Source | None]:
        """The source of each entry of a mapping of named rules."""
        return {k: self.source(v) for k, v in (section or {}).items()}

    def file_path(self, container: Mapping[str, Any], key: str) -> Path:
        """A file a ruleset names, relative to the file that named it (a base ruleset's files stay
        the base's when a child extends it)."""
        named_in = getattr(container, "files", {}).get(key) or getattr(container, "file", None) or self.path
        return Path(named_in).parent / str(container[key])

    def expand_ranks(self, items: list[Any], path: str, known: Mapping[str, Rank] | None = None) -> tuple[str, ...]:
        """Rank ids, with ranges ``1..13`` expanded, each checked against the deck's ranks."""
        known = {r.id: r for r in self.deck.ranks} if known is None else known
        out: list[str] = []
        for i, item in enumerate(items):
            text = str(item)
            match = re.fullmatch(r"(-?\d+)\.\.(-?\d+)", text)
            if match:
                lo, hi = int(match[1]), int(match[2])
                if lo > hi:
                    self.fail(items, i, f"empty rank range {text!r}", f"{path}[{i}]")
                if hi - lo >= limits.DECK_FACES:
                    self.fail(
                        items,
                        i,
                        f"the range {text!r} names {hi - lo + 1:,} ranks; the deck has {len(known)}",
                        f"{path}[{i}]",
                    )
                ids = [str(v) for v in range(lo, hi + 1)]
            else:
                ids = [text]
            for rid in ids:
                if rid not in known:
                    self.fail(items, i, f"unknown rank {rid!r} (the deck's ranks: {', '.join(known)})", f"{path}[{i}]")
                out.append(rid)
        return tuple(out)

    def expand_ints(self, items: list[Any], path: str) -> frozenset[int]:
        out: set[int] = set()
        for i, item in enumerate(items):
            match = re.fullmatch(r"(\d+)\.\.(\d+)", str(item))
            if match:
                self.bound(
                    items, i, int(match[2]) - int(match[1]) + 1, limits.DECK_CARDS, "numbers in a range", f"{path}[{i}]"
                )
                out.update(range(int(match[1]), int(match[2]) + 1))
            elif isinstance(item, int):
                out.add(item)
            else:
                self.fail(items, i, f"expected a number or a range 'a..b', got {item!r}", f"{path}[{i}]")
        return frozenset(out)

    def check_ids(self, items: list[Any], known: Any, what: str, path: str) -> tuple[str, ...]:
        for i, item in enumerate(items):
            if item not in known:
                self.fail(items, i, f"unknown {what} {item!r} (known: {', '.join(known)})", f"{path}[{i}]")
        return tuple(items)

    @property
    def kind_ids(self) -> list[str]:
        return [k.id for k in self.kinds]

    @property
    def class_ids(self) -> list[str]:
        return [c.id for c in self.deck.classes]

    # -- options ----------------------------------------------------------------------------

    def condition(self, element: Mapping[str, Any], path: str, key: str = "if") -> dict[str, Any]:
        """An element's ``if:`` (option id -> value), checked against the declared options."""
        cond = dict(element.get(key, {}))
        for oid, value in cond.items():
            if oid not in self.options:
                self.fail(element[key], oid, f"unknown option {oid!r}", f"{path}.{key}")
            problem = condition_problem(self.options[oid], value)
            if problem:
                self.fail(element[key], oid, problem, f"{path}.{key}.{oid}")
        return cond

    def holds(self, condition: Mapping[str, Any]) -> bool:
        return condition_holds(self.values, condition)

    def enabled(self, element: Mapping[str, Any], path: str, key: str = "if") -> bool:
        """Does the element's condition hold under the option values?"""
        return self.holds(self.condition(element, path, key))

    def option_value(self, raw: Any, default: int) -> int:
        """A number: written as is, an option's value, or an option's value mapped."""
        if raw is None:
            return default
        if isinstance(raw, Mapping):
            if raw["option"] not in self.values:
                self.fail(raw, "option", f"unknown option {raw['option']!r}")
            value = self.values[raw["option"]]
            if "map" in raw:
                key = str(value).lower() if isinstance(value, bool) else str(value)
                if key not in raw["map"]:
                    self.fail(raw, "map", f"no entry for {raw['option']} = {key}")
                return int(raw["map"][key])
            return int(value)
        return int(raw)

    def read_options(self, raw: Mapping[str, Any], given: Mapping[str, Any], ruleset_id: str) -> None:
        """The declared options and their values: the defaults with ``given`` laid over."""
        for oid, o in raw.items():
            choices = tuple(o["choices"]) if "choices" in o else None
            option = Option(
                oid,
                o["type"],
                o["default"],
                choices,
                o.get("minimum"),
                o.get("maximum"),
                o["description"],
                self.source(o),
            )
            problem = option_problem(option, option.default)
            if problem:
                self.fail(o, "default", f"default {problem}", f"options.{oid}.default")
            self.options[oid] = option
        self.values = {oid: o.default for oid, o in self.options.items()}
        for oid, value in given.items():
            if oid not in self.options:
                known = ", ".join(self.options) or "none"
                raise BadOption(f"ruleset {ruleset_id} has no option {oid!r} (options: {known})")
            value = coerce_option(self.options[oid], value)
            problem = option_problem(self.options[oid], value)
            if problem:
                raise BadOption(f"option {oid}: {problem}")
            self.values[oid] = value


def coerce_option(option: Option, value: Any) -> Any:
    """Option values from the command line arrive as text."""
    if not isinstance(value, str):
        return value
    if option.type == "boolean":
        lowered = value.lower()
        if lowered in ("true", "yes", "on", "1"):
            return True
        if lowered in ("false", "no", "off", "0"):
            return False
        return value
    if option.type == "integer" and re.fullmatch(r"-?\d+", value):
        return int(value)
    return value


def condition_holds(values: Mapping[str, Any], condition: Mapping[str, Any]) -> bool:
    """Does every option of a condition have its value, or one of its values (a list)?"""
    return all(
        values.get(o) in v if isinstance(v, list) and not isinstance(values.get(o), list) else values.get(o) == v
        for o, v in condition.items()
    )


def condition_problem(option: Option, value: Any) -> str | None:
    """What is wrong with a condition's value for an option (a value, or a list of values)."""
    if isinstance(value, list):
        if not value:
            return "give at least one value"
        return next((p for p in (option_problem(option, v) for v in value) if p), None)
    return option_problem(option, value)


def option_problem(option: Option, value: Any) -> str | None:
    """What is wrong with a value for an option, or None."""
    expected: type[Any] = {"boolean": bool, "integer": int, "string": str}[option.type]
    if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
        article = "an" if option.type[:1] in "aeiou" else "a"
        return f"expects {article} {option.type}, got {value!r}"
    if option.choices and value not in option.choices:
        return f"{value!r} is not one of {', '.join(map(str, option.choices))}"
    if option.minimum is not None and value < option.minimum:
        return f"must be at least {option.minimum}"
    if option.maximum is not None and value > option.maximum:
        return f"must be at most {option.maximum}"
    return None
