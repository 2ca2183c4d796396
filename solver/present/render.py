"""Output: one result, text or JSON; a stream of JSON Lines; errors in both forms."""

from __future__ import annotations

import json
from typing import Any

import click

from solver.core.errors import MeldsError, Undecided
from solver.core.result import Result


def json_text(obj: Any) -> str:
    """One JSON object on one line, as every command prints it."""
    if _C_ENCODE is None:
        return _ENCODER.encode(obj)
    return "".join(_C_ENCODE(obj, 0))


# made once (json.dumps with any option makes an encoder a call); results are trees, never cycles:
# no check for them (a --batch of fresh mahjong hands spent a fifth of its output time there)
_ENCODER = json.JSONEncoder(ensure_ascii=False, check_circular=False)


def _c_encoder(encoder: json.JSONEncoder) -> Any:
    """The C encoder that ``encoder.encode`` makes at every call (``JSONEncoder.iterencode``), with
    the same settings, made once: the text is the same, without the per-call set-up (some 8,000
    instructions of a batch line's 110,000 for its JSON). None where Python has no C encoder."""
    make = getattr(json.encoder, "c_make_encoder", None)
    encode_string = getattr(
        json.encoder, "c_encode_basestring_ascii" if encoder.ensure_ascii else "c_encode_basestring", None
    )
    if make is None or encode_string is None or encoder.indent is not None:
        return None
    return make(
        None,  # no markers: check_circular is off
        encoder.default,
        encode_string,
        encoder.indent,
        encoder.key_separator,
        encoder.item_separator,
        encoder.sort_keys,
        encoder.skipkeys,
        encoder.allow_nan,
    )


_C_ENCODE = _c_encoder(_ENCODER)


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
