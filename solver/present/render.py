"""Output: one result, text or JSON; a stream of JSON Lines; errors in both forms."""

from __future__ import annotations

import json
from typing import Any

import click

from solver.core.errors import MeldsError, Undecided
from solver.core.result import Result


def json_text(obj: Any) -> str:
    """One JSON object on one line, as every command prints it."""
    return _ENCODER.encode(obj)


# made once (json.dumps with any option makes an encoder a call); results are trees, never cycles:
# no check for them (a --batch of fresh mahjong hands spent a fifth of its output time there)
_ENCODER = json.JSONEncoder(ensure_ascii=False, check_circular=False)


def emit_json(obj: Any) -> None:
    click.echo(json_text(obj))


def emit(result: Result, as_json: bool) -> None:
    """A result, as one JSON object or as its readable text."""
    if as_json:
        emit_json(result.data)
    else:
        click.echo(result.readable())


def emit_error(error: MeldsError | Undecided, as_json: bool) -> None:
    """An input error: ``{"error": {...}}`` on stdout under --json, and a message on stderr."""
    if as_json:
        emit_json({"error": error.to_json()})
    click.echo(f"melds: error: {error}", err=True)
