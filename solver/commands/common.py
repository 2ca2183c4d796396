"""What every command shares: the options every command has, batches of JSON Lines, and turning
input errors into one message and exit code. The options a game adds are
:mod:`solver.commands.gameoptions`'s.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import click

from solver.commands.batch import internal_error, run_batch
from solver.core import gcpause, inputs, requests
from solver.core.errors import BadRequest, MeldsError, Undecided
from solver.core.game import OptionSpec
from solver.core.registry import load_game
from solver.core.result import Result
from solver.core.ruleset import load_ruleset
from solver.present.render import emit, emit_error
from solver.sat.budget import set_default_memory

ruleset_option = click.option(
    "-r", "--ruleset", "ruleset_ref", required=True, help="Ruleset id (see `melds rulesets`) or path to a ruleset YAML."
)
options_option = click.option(
    "-o",
    "--option",
    "option_pairs",
    multiple=True,
    metavar="KEY=VALUE",
    help="Set a ruleset option (repeatable), e.g. -o sojun=false.",
)
json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")


class ByteSize(click.ParamType):
    """A memory size: 512MiB, 2G, 1.5GiB, 800M; a plain number is MiB."""

    name = "size"
    UNITS = {
        "": 2**20,
        "b": 1,
        "k": 2**10,
        "kb": 2**10,
        "kib": 2**10,
        "m": 2**20,
        "mb": 2**20,
        "mib": 2**20,
        "g": 2**30,
        "gb": 2**30,
        "gib": 2**30,
    }

    def convert(self, value, param, ctx) -> int:
        if isinstance(value, int):
            return value
        text = str(value).strip().lower().replace(" ", "")
        number = text.rstrip("abcdefghijklmnopqrstuvwxyz")
        unit = text[len(number) :]
        try:
            amount = float(number)
        except ValueError:
            amount = float("nan")
        if unit not in self.UNITS or not 0 < amount < float("inf"):
            self.fail(f"{value!r} is not a memory size (say 512MiB, 2GiB or a number of MiB)", param, ctx)
        return int(amount * self.UNITS[unit])


def _memory_ceiling(ctx: click.Context, param: click.Parameter, value: int) -> int:
    set_default_memory(value)
    return value


max_memory_option = click.option(
    "--max-memory",
    type=ByteSize(),
    default=lambda: os.environ.get("MELDS_MAX_MEMORY", "1GiB"),
    show_default="1GiB",
    expose_value=False,
    callback=_memory_ceiling,
    metavar="SIZE",
    help="Memory ceiling of the process (e.g. 512MiB, 2GiB); past it: exit 3 'undecided' with the best found so far.",
)

jobs_option = click.option(
    "--jobs",
    "-j",
    type=click.IntRange(1, 256),
    default=1,
    show_default=True,
    help="Answer a --batch (or a folder of puzzles) in N processes; the order is kept.",
)


def batch_option(help: str) -> Callable:
    def decorate(func: Callable) -> Callable:
        return click.option("--batch", metavar="FILE", help=help)(jobs_option(func))

    return decorate


class CheckedValue(click.ParamType):
    """A flag's value checked by the same rule as a batch line's key (solver.core.requests), so that
    ``--max-seconds inf`` and ``{"max_seconds": 1e400}`` are refused in the same words."""

    def __init__(self, check: requests.Check, name: str = "number", to_number: Callable = float):
        self.check, self.name, self.to_number = check, name, to_number

    def convert(self, value: Any, param, ctx):
        if not isinstance(value, str):
            return value
        key = param.opts[0] if param is not None else self.name
        try:
            number = self.to_number(value.strip())
        except (ValueError, OverflowError):
            self.fail(f"{value!r} is not a {self.name}", param, ctx)
        try:
            return self.check(key, number)
        except BadRequest as exc:
            self.fail(str(exc).replace(f'"{key}": ', ""), param, ctx)


SECONDS = CheckedValue(requests.SECONDS, "number of seconds")


class InputFile(click.ParamType):
    """A file to read, refused with its reason (missing, a folder, a loop of links) in the words
    every input uses (solver.core.inputs)."""

    name = "file"

    def convert(self, value: Any, param, ctx):
        why = inputs.problem(value, "file")
        if why:
            self.fail(why, param, ctx)
        return value


INPUT_FILE = InputFile()


def handle_errors(func: Callable) -> Callable:
    """Input errors become one message and exit code 2, never a traceback; a fault of melds itself
    one message too (exit 2; MELDS_DEBUG=1 shows the traceback)."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        gcpause.start_done()  # the command's own work begins: the collector, paused for the start, runs again
        as_json = bool(kwargs.get("as_json")) or kwargs.get("batch") is not None  # a batch speaks JSON Lines
        try:
            return func(*args, **kwargs)
        except MeldsError as exc:
            emit_error(exc, as_json)
            sys.exit(exc.exit_code)
        except Undecided as exc:
            emit_error(exc, as_json)
            sys.exit(exc.exit_code)
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException, SystemExit, BrokenPipeError):
            raise
        except Exception as exc:  # noqa: BLE001 - a last resort: a message, not a traceback
            if os.environ.get("MELDS_DEBUG"):
                raise
            error = internal_error(exc)
            emit_error(error, as_json)
            sys.exit(error.exit_code)

    return wrapper


def parse_options(pairs: Iterable[str]) -> dict[str, str]:
    """``-o KEY=VALUE`` pairs."""
    out = {}
    for pair in pairs:
        if "=" not in pair:
            raise MeldsError(f"an option is written KEY=VALUE, got {pair!r}")
        key, value = pair.split("=", 1)
        out[key.strip()] = value.strip()
    return out


def game_specs(game: Any, command: str) -> list[OptionSpec]:
    """The options a compiled game adds to ``command`` (the keys its requests may carry)."""
    return list(type(game).options(command))


def answer(
    ruleset_ref: str,
    option_pairs: Iterable[str],
    command: str,
    request: dict,
    batch: str | None,
    as_json: bool,
    jobs: int = 1,
) -> None:
    """Answer one request (the command line's), or every line of a batch with the command line's
    options as defaults; exit with the answer's code (a batch's: the worst). The game is the
    ruleset's under the command line's options (``-o``); a batch line that gives its own
    ``"options"`` is answered by the game compiled for them, merged over the command line's."""
    if batch is None:
        game = load_game(load_ruleset(ruleset_ref, parse_options(option_pairs)))
        result = getattr(game, command)(requests.checked_request(request, game_specs(game, command)))
        emit(result, as_json)
        sys.exit(result.code)
    if request.get("cards"):
        raise MeldsError("give cards on the command line or --batch, not both")
    games = CompiledGames(command, parse_options(option_pairs), {k: v for k, v in request.items() if k != "cards"})
    games.get(ruleset_ref)  # the command line's game and defaults, checked before any line is read

    def line(extra: dict) -> tuple[dict, int]:
        ask, checked, defaults = games.get(ruleset_ref, extra.get("options"))
        result = ask({**defaults, **checked({k: v for k, v in extra.items() if k != "options"})})
        return result.data, result.code

    sys.exit(run_batch(batch, line, jobs))


class CompiledGames:
    """A batch's games by the ruleset and the options its lines give (a line's ``"options"`` merged
    over the command line's): each compiled once and kept (at most 64 at once), with the command's
    request checker and the command line's defaults checked for it. A line's own keys are checked
    at each line (keys are checked one by one, so this is the check of the merged request)."""

    KEPT = 64

    def __init__(self, command: str, options: Mapping[str, Any], defaults: dict):
        self.command, self.options, self.defaults = command, dict(options), defaults
        self.games: dict[tuple, tuple[Callable[[dict], Result], Callable[[dict], dict], dict]] = {}

    def get(self, ruleset_ref: str, given: Any = None) -> tuple[Callable[[dict], Result], Callable[[dict], dict], dict]:
        """(the command's question of the game, the request checker, the checked defaults)."""
        options = {**self.options, **(requests.mapping("options", given) or {})} if given else self.options
        key = (ruleset_ref, tuple(sorted(options.items())) if given else None)  # None: the command line's options
        found = self.games.get(key)
        if found is None:
            game = load_game(load_ruleset(ruleset_ref, options))
            checked = requests.request_checker(game_specs(game, self.command))
            if len(self.games) >= self.KEPT:
                self.games.clear()
            found = self.games[key] = (getattr(game, self.command), checked, checked(self.defaults))
        return found


def given(values: Mapping[str, Any]) -> dict[str, Any]:
    """The options a command line gave (unset ones are left out, so a batch line's own win)."""
    return {k: v for k, v in values.items() if v is not None and v != ()}
