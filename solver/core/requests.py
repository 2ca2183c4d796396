"""A request's keys checked for type and range before a game reads them.

A request (docs/architecture.md) comes from the command line, whose parser already typed each
value, or from a ``--batch`` line, which can hold anything JSON can: ``"ordered": "sometimes"``,
``"honba": -3``, ``"cards": ["木3", 5]``, ``"max_seconds": 1e400``. :func:`checked_request`
refuses such a line with the key, what it holds and what was expected (:class:`BadRequest`,
exit 2), using the game's own :class:`~solver.core.game.OptionSpec` for the keys its options
add and the table below for the keys every request shares; keys it does not know pass through
untouched (a game may read more).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from solver.core import limits
from solver.core.errors import BadRequest, TooLarge

Check = Callable[[str, Any], Any]  # (key, value) -> the value (normalised), or raise BadRequest


def describe(value: Any) -> str:
    """A value as a message shows it: its JSON type, and itself when short."""
    kind = {
        bool: "boolean",
        int: "integer",
        float: "number",
        str: "string",
        list: "array",
        dict: "object",
        type(None): "null",
    }.get(type(value), type(value).__name__)
    if isinstance(value, (dict, list)):
        return f"an {kind} of {len(value)} item{'s' * (len(value) != 1)}"
    shown = repr(value)
    return f"{kind} {shown if len(shown) <= 40 else shown[:37] + '…'}"


def _fail(key: str, value: Any, expected: str) -> BadRequest:
    return BadRequest(f'"{key}": expected {expected}, got {describe(value)}')


def boolean(key: str, value: Any) -> bool | None:
    if value is None or isinstance(value, bool):
        return value
    raise _fail(key, value, "true or false")


def text(key: str, value: Any) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise _fail(key, value, "a string")


def words(key: str, value: Any) -> Any:
    """Cards, tiles or words: one string, or a list of strings."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            if not isinstance(item, str):
                raise _fail(f"{key}[{i}]", item, "a string (a card, tile or word)")
        return value
    raise _fail(key, value, "a string or a list of strings")


def strings(key: str, value: Any) -> Any:
    """A list of strings (a single string is taken as a list of one)."""
    if value is None:
        return value
    if isinstance(value, str):
        return [value]
    return words(key, value)


def mapping(key: str, value: Any) -> Any:
    if value is None or isinstance(value, Mapping):
        for k, v in (value or {}).items():
            if not isinstance(v, (str, int, float, bool)) or (isinstance(v, float) and not math.isfinite(v)):
                raise _fail(f"{key}.{k}", v, "a string, number or boolean")
        return value
    raise _fail(key, value, "an object")


def integer(minimum: float | None = None, maximum: float = limits.MAX_COUNT) -> Check:
    def check(key: str, value: Any) -> int | None:
        if value is None:
            return value
        if not isinstance(value, int) or isinstance(value, bool):
            raise _fail(key, value, "an integer")
        if minimum is not None and value < minimum:
            raise _fail(key, value, f"an integer of at least {minimum:g}")
        if value > maximum:
            raise _fail(key, value, f"an integer of at most {maximum:g}")
        return value

    return check


def number(minimum: float | None = None, maximum: float = limits.MAX_SECONDS, open_min: bool = False) -> Check:
    """A finite number in range (inf, nan and 1e400 are not numbers a query can use)."""

    def check(key: str, value: Any) -> float | None:
        if value is None:
            return value
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise _fail(key, value, "a number")
        if not math.isfinite(value):
            raise _fail(key, value, f"a finite number (at most {maximum:g})")
        if minimum is not None and (value <= minimum if open_min else value < minimum):
            raise _fail(key, value, f"a number {'above' if open_min else 'of at least'} {minimum:g}")
        if value > maximum:
            raise _fail(key, value, f"a number of at most {maximum:g}")
        return value

    return check


def choice(options: Iterable[str]) -> Check:
    allowed = tuple(options)

    def check(key: str, value: Any) -> Any:
        if value is None or value in allowed:
            return value
        raise _fail(key, value, "one of " + ", ".join(allowed))

    return check


SECONDS = number(0, limits.MAX_SECONDS, open_min=True)

TURN_KEYS: dict[str, Check] = {  # a turn's facts, as puzzle files give them (rulesets/puzzle.schema.json)
    "kind": choice(("normal", "claimed")),
    "claimed": text,
    "has_melded": boolean,
    "phase": text,
}


def turn(key: str, value: Any) -> Any:
    """The facts of a turn: an object of known keys, each of its type."""
    if value is None:
        return value
    if not isinstance(value, Mapping):
        raise _fail(key, value, "an object")
    for name, item in value.items():
        check = TURN_KEYS.get(name) if isinstance(name, str) else None
        if check is None:
            raise BadRequest(f'"{key}": no fact {describe(name)} of a turn (its facts: {", ".join(TURN_KEYS)})')
        check(f"{key}.{name}", item)
    return value


def path(key: str, value: Any) -> str | None:
    """A file's path: a string that is not empty."""
    if value is None or (isinstance(value, str) and value.strip() and "\0" not in value):
        return value
    raise _fail(key, value, "the path of a file")


SHARED: dict[str, Check] = {  # the keys every game's requests may carry (docs/json-output.md)
    "cards": words,
    "hand": words,
    "table": words,
    "shown": words,
    "turn": turn,
    "options": mapping,
    "ruleset": text,
    "puzzle": path,
    "question": text,
    "phase": text,
    "claimed": text,
    "loose": words,
    "ordered": boolean,
    "all": boolean,
    "best": boolean,
    "stats": boolean,
    "has_melded": boolean,
    "has_word": boolean,
    "last_lap": boolean,
    "penalty": boolean,
    "double": boolean,
    "limit": integer(1),
    "max_seconds": SECONDS,
}


def spec_check(spec: Any) -> Check:
    """The check of one game option (an :class:`~solver.core.game.OptionSpec`)."""
    if spec.flag:
        return boolean
    if spec.choices:
        one = choice(spec.choices)
    elif spec.type == "int":
        one = integer(spec.minimum)
    elif spec.type == "float":
        one = number(spec.minimum)
    elif spec.type in ("path", "file"):
        one = path
    else:
        one = words  # text: a string, or (cards, tiles, words) a list of them
    if not spec.multiple:
        return one

    def many(key: str, value: Any) -> Any:
        items = strings(key, value) if spec.type in ("text", "path", "file") else value
        if items is None:
            return None
        if not isinstance(items, (list, tuple)):
            raise _fail(key, value, "a list")
        return [one(f"{key}[{i}]", item) for i, item in enumerate(items)]

    return many


def _check_size(key: str, value: Any) -> None:
    """No string of a request is longer than limits.REQUEST_TEXT, no list longer than
    limits.REQUEST_ITEMS: a 15-million-card hand is refused before it is split."""
    items = value if isinstance(value, (list, tuple)) else [value]
    if len(items) > limits.REQUEST_ITEMS:
        raise TooLarge(f'"{key}": {len(items):,} items; no request needs more than {limits.REQUEST_ITEMS:,}')
    for item in items:
        if isinstance(item, str) and len(item) > limits.REQUEST_TEXT:
            raise TooLarge(
                f'"{key}": a string of {len(item):,} characters; no card, hand or word list in a '
                f"request is longer than {limits.REQUEST_TEXT:,}"
            )


def checked_request(request: Mapping[str, Any], specs: Iterable[Any] = ()) -> dict[str, Any]:
    """The request with every key melds knows checked (and a lone string where a list of files
    is expected made a list); raise :class:`BadRequest` for the first wrong one."""
    return _checked(request, *_checks(tuple(specs)))


def request_checker(specs: Iterable[Any] = ()) -> Callable[[Mapping[str, Any]], dict[str, Any]]:
    """:func:`checked_request` for many requests with the same options (a batch's lines)."""
    checks, aliases, plain = _checks(tuple(specs))
    return lambda request: _checked(request, checks, aliases, plain)


# checks that pass a value of this exact class as it is: a line's own value of that class needs no
# call (a string for cards and text, a boolean for a flag: most of a batch line's keys)
_PASSES: dict[Check, type] = {words: str, text: str, boolean: bool}


def _checked(
    request: Mapping[str, Any], checks: Mapping[str, Check], aliases: Mapping[str, str], plain: Mapping[str, type]
) -> dict[str, Any]:
    out = dict(request)
    text_limit = limits.REQUEST_TEXT
    for key, value in request.items():
        if not isinstance(key, str):
            raise BadRequest(f"a request's keys are strings, got {describe(key)}")
        kind = value.__class__
        if not (
            value is None or kind is bool or kind is int or kind is float or (kind is str and len(value) <= text_limit)
        ):  # the usual value passes at once
            _check_size(key, value)
        if plain.get(key) is kind:
            continue  # its check would return it as it is (and it is in ``out`` already)
        target = aliases.get(key, key)
        check = checks.get(target)
        if check is None:
            continue
        if target != key:  # the name a line gives wins over the command line's default under the key
            del out[key]
        out[target] = check(key, value)
    return out


_CHECKS: dict[tuple[int, ...], tuple[tuple[Any, ...], dict[str, Check], dict[str, str], dict[str, type]]] = {}


def _checks(specs: tuple[Any, ...]) -> tuple[dict[str, Check], dict[str, str], dict[str, type]]:
    """Key -> check for a command's options, an option's name as a batch line writes it -> the
    key the game reads ("from" for "discarder", "dict" for "dict_files"), and key -> the class of
    value its check passes unchanged (:data:`_PASSES`; not for a name that is also an alias),
    worked out once per set of options (a batch asks for the same table at every line). Keyed by
    the options' identities — hashing two dozen dataclasses was most of a line's check — and
    keeping the options alive, so that an identity is never another's."""
    key = tuple(map(id, specs))
    found = _CHECKS.get(key)
    if found is None:
        table = dict(SHARED)
        aliases: dict[str, str] = {}
        for spec in specs:
            table[spec.request_key] = spec_check(spec)
            plain = spec.name.lstrip("-").replace("-", "_")
            if plain != spec.request_key and plain not in table:
                aliases[plain] = spec.request_key
        passes = {k: _PASSES[check] for k, check in table.items() if check in _PASSES and k not in aliases}
        if len(_CHECKS) >= 64:  # a few commands' tables: never more, even for games made on the fly
            _CHECKS.clear()
        found = _CHECKS[key] = (specs, table, aliases, passes)
    return found[1], found[2], found[3]
