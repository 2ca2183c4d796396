"""Safe YAML loading that remembers the line of every key and list item: the one loader of every
YAML file melds reads (rulesets, puzzles, states, rounds).

Only PyYAML's safe loader is used (the C one when present, for start-up speed): no tag can build a
Python object, nothing in a file is evaluated. Mappings come back as :class:`LDict` and sequences
as :class:`LList`; they behave as ``dict`` and ``list`` and also know on which line each of their
entries stands, so that schema errors can say "file:line: key".

A file is read with limits (:mod:`solver.core.limits`), checked on the parser's events before a
single node is built: its size, how deep it nests and how many nodes it holds with every alias
expanded — so ten nested aliases of ten (a "billion laughs") fail at once instead of burning
memory. Text is UTF-8 (a BOM is dropped; CRLF is fine); bytes that are not, and NUL characters,
are named with their line.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from solver.core import limits
from solver.core.errors import Location, MalformedYaml, TooLarge, Unreadable
from solver.core.inputs import open_input

if TYPE_CHECKING:
    from yaml.constructor import SafeConstructor
    from yaml.nodes import MappingNode, SequenceNode


class LDict(dict[Any, Any]):
    """A dict that knows its own line and the line of each key (1-based), and its file; after a
    merge (``extends``), the file each key came from (``files``)."""

    line: int | None = None
    lines: dict[Any, int]
    file: str | None = None
    # replaced per instance by merged(); empty: every key is from `file`
    files: dict[Any, str | None] = {}  # noqa: RUF012
    # on a ruleset's top level: the document each file of its extends chain cites, by file
    documents: dict[str, str] = {}  # noqa: RUF012


class LList(list[Any]):
    """A list that knows its own line and the line of each item (1-based), and its file."""

    line: int | None = None
    lines: list[int]
    file: str | None = None


@cache
def _yaml() -> tuple[ModuleType, type[Any], type[Any]]:
    """PyYAML and the loader built on it, imported on the first file read (a cold start from the
    compiled rulesets never pays for it): (yaml, the C or Python safe loader, the locating one).
    The loaders are typed loosely: which class is base is known only when yaml is imported."""
    import yaml

    base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    class LocatingLoader(base):  # type: ignore[misc, valid-type]
        """Safe loader whose mappings and sequences record line numbers."""

    LocatingLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
    LocatingLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)
    return yaml, base, LocatingLoader


def _construct_mapping(loader: SafeConstructor, node: MappingNode) -> LDict:
    yaml = _yaml()[0]
    own = sum(1 for key_node, _ in node.value if key_node.tag != "tag:yaml.org,2002:merge")
    loader.flatten_mapping(node)  # pairs a merge key (<<: *anchor) brings come first
    merged = len(node.value) - own
    out = LDict()
    out.line = node.start_mark.line + 1
    out.lines = {}
    from_merge: set[Any] = set()
    for index, (key_node, value_node) in enumerate(node.value):
        key = loader.construct_object(key_node, deep=True)
        try:
            hash(key)
        except TypeError:
            raise yaml.constructor.ConstructorError(
                "while constructing a mapping", node.start_mark, "found an unhashable key", key_node.start_mark
            ) from None
        if key in out and key not in from_merge:  # a key the mapping itself gives twice
            raise yaml.constructor.ConstructorError(
                "while constructing a mapping", node.start_mark, f"found duplicate key {key!r}", key_node.start_mark
            )
        if index < merged:
            if key in out:
                continue  # an earlier merge gave it already (the first merge wins, as YAML says)
            from_merge.add(key)
        else:
            from_merge.discard(key)  # the mapping's own value overrides a merged one
        out[key] = loader.construct_object(value_node, deep=True)
        out.lines[key] = key_node.start_mark.line + 1
    return out


def _construct_sequence(loader: SafeConstructor, node: SequenceNode) -> LList:
    out = LList(loader.construct_object(child, deep=True) for child in node.value)
    out.line = node.start_mark.line + 1
    out.lines = [child.start_mark.line + 1 for child in node.value]
    return out


def _mark_file(node: Any, filename: str) -> None:
    """Record on every mapping and list which file it came from (rulesets can extend others)."""
    if isinstance(node, (LDict, LList)):
        node.file = filename
        for child in node.values() if isinstance(node, LDict) else node:
            _mark_file(child, filename)


def measure(text: str, filename: str) -> None:
    """Refuse a document that nests deeper than :data:`limits.YAML_DEPTH` or holds more than
    :data:`limits.YAML_NODES` nodes once its aliases are expanded, from the parser's events (an
    alias counts as the nodes of its anchor: linear time, whatever the expansion)."""
    yaml, base, _ = _yaml()
    parser = base(text)
    sizes: dict[str, int] = {}
    stack: list[tuple[str | None, int, int | None]] = []  # (anchor, nodes so far when it opened, line)
    total = 0
    try:
        while True:
            event = parser.get_event()
            if isinstance(event, yaml.StreamEndEvent):
                return
            line = event.start_mark.line + 1 if event.start_mark else None
            if isinstance(event, yaml.AliasEvent):
                if event.anchor not in sizes:
                    raise MalformedYaml(
                        f"the alias *{event.anchor} refers to a node that holds it (or to no anchor)",
                        Location(filename, line),
                    )
                total += sizes[event.anchor]
            elif isinstance(event, yaml.ScalarEvent):
                total += 1
                if event.anchor:
                    sizes[event.anchor] = 1
            elif isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                total += 1
                stack.append((event.anchor, total, line))
                if len(stack) > limits.YAML_DEPTH:
                    raise TooLarge(f"{Location(filename, line)}: nested more than {limits.YAML_DEPTH} levels deep")
            elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                anchor, opened, _ = stack.pop()
                if anchor:
                    sizes[anchor] = total - opened + 1
            if total > limits.YAML_NODES:
                raise TooLarge(
                    f"{Location(filename, line)}: more than {limits.YAML_NODES:,} nodes with its "
                    f"aliases expanded (aliases nested in aliases?)"
                )
    finally:
        parser.dispose()


def load_text(text: str, filename: str) -> Any:
    """Parse YAML text; a syntax error becomes :class:`MalformedYaml` with file and line, a
    document past the limits :class:`TooLarge`."""
    if "\0" in text:
        line = text.count("\n", 0, text.index("\0")) + 1
        raise MalformedYaml("a NUL character: a YAML file is text", Location(filename, line))
    yaml, _, loader = _yaml()
    try:
        measure(text, filename)
        data = yaml.load(text, Loader=loader)  # noqa: S506 - a SafeLoader subclass
        _mark_file(data, filename)
        return data
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        at = mark.line + 1 if mark else None
        problem = exc.problem or exc.context or "cannot parse"
        raise MalformedYaml(f"malformed YAML: {problem}", Location(filename, at)) from None
    except yaml.YAMLError as exc:
        raise MalformedYaml(f"malformed YAML: {exc}", Location(filename)) from None
    except RecursionError:
        raise TooLarge(f"{filename}: nested too deeply") from None


def read_bytes(path: str | Path, limit: int, what: str = "file") -> bytes:
    """At most ``limit`` bytes of a file (a larger one, or an endless one like /dev/zero, is
    :class:`TooLarge`); a path that cannot be read (missing, a folder, a loop of links…) is
    :class:`Unreadable` with its reason (:mod:`solver.core.inputs`)."""
    path = Path(path)
    try:
        with open_input(path, what) as stream:
            data = stream.read(limit + 1)
    except OSError as exc:
        raise Unreadable(f"{path}: cannot read the {what} ({exc.strerror or exc})") from None
    if len(data) > limit:
        raise TooLarge(f"{path}: more than {limit // limits.MIB} MiB; no {what} melds reads is that large")
    return data


def decode(data: bytes, filename: str) -> str:
    """UTF-8 text (a BOM dropped); other bytes are named with their line and column."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        start = exc.start
        line = data.count(b"\n", 0, start) + 1
        column = start - (data.rfind(b"\n", 0, start) + 1) + 1
        raise MalformedYaml(
            f"not UTF-8 text: byte 0x{data[start]:02x} at column {column} (save the file as UTF-8)",
            Location(filename, line),
        ) from None


def load_file(path: str | Path) -> Any:
    """Read and parse a YAML file within the limits; unreadable, non-UTF-8 or oversized files
    are reported, not raised raw."""
    path = Path(path)
    text = decode(read_bytes(path, limits.YAML_BYTES, "YAML file"), str(path))
    return load_text(text, str(path))


def line_of(container: Any, key: Any) -> int | None:
    """The line of ``container[key]`` if the loader recorded it."""
    if isinstance(container, LDict):
        return container.lines.get(key, container.line)
    if isinstance(container, LList) and isinstance(key, int) and 0 <= key < len(container.lines):
        return container.lines[key]
    return getattr(container, "line", None)


def merged(base: Any, override: Any) -> Any:
    """``override`` laid over ``base``: mappings merge key by key, anything else is replaced."""
    if isinstance(base, dict) and isinstance(override, dict):
        out = LDict(base)
        out.line = getattr(override, "line", None)
        out.lines = {**getattr(base, "lines", {}), **getattr(override, "lines", {})}
        out.file = getattr(override, "file", None)
        out.files = {key: getattr(base, "files", {}).get(key, getattr(base, "file", None)) for key in base}
        for key, value in override.items():
            out[key] = merged(base[key], value) if key in base else value
            out.files[key] = getattr(override, "files", {}).get(key, out.file)
        return out
    return override
