"""What every command shares: the options every command has, the options a game adds, batches of
JSON Lines, and turning input errors into one message and exit code.

A command that takes ``-r RULESET`` is a :class:`GameCommand`: before it parses its arguments it
looks for ``-r`` and asks the ruleset's game (:mod:`solver.core.registry`) which options it adds,
so ``melds score -r RULESET --help`` lists that game's options and no other's. Without ``-r`` (a
puzzle file, a batch naming its rulesets) it accepts the options of every game.
"""

from __future__ import annotations

import functools
import json
import sys
import time
from typing import Any, Callable, Iterable, Mapping, Sequence

import click

from solver.core import registry
from solver.core.errors import ExitCode, MeldsError
from solver.core.game import OptionSpec
from solver.core.ruleset import raw_game
from solver.core.result import Result
from solver.present.render import emit, emit_error, json_text

ruleset_option = click.option("-r", "--ruleset", "ruleset_ref", required=True,
                              help="Ruleset id (see `melds rulesets`) or path to a ruleset YAML.")
options_option = click.option("-o", "--option", "option_pairs", multiple=True, metavar="KEY=VALUE",
                              help="Set a ruleset option (repeatable), e.g. -o sojun=false.")
json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
FLUSH_EVERY = 0.1  # seconds: the longest a batch's answers wait to be written


def batch_option(help: str) -> Callable:
    return click.option("--batch", type=click.File("r", encoding="utf-8"), metavar="FILE", help=help)


def handle_errors(func: Callable) -> Callable:
    """Input errors become one message and exit code 2, never a traceback."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except MeldsError as exc:
            emit_error(exc, bool(kwargs.get("as_json")))
            sys.exit(exc.exit_code)

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


def run_batch(stream, handle: Callable[[dict], tuple[dict, int]]) -> ExitCode:
    """JSON Lines in, one JSON object per line out, a progress bar on stderr.

    ``handle`` maps one request object to (result object, exit code). A line that is not a
    JSON object, or whose request is bad, gives ``{"line": n, "error": {...}}`` and code 2.
    """
    lines = [(i, line) for i, line in enumerate(stream, start=1) if line.strip()]
    codes: list = []
    # answers are written together, at most FLUSH_EVERY seconds apart (and at the end): an echo,
    # and so a system call, a line was a twentieth of a fast batch's time
    pending: list[str] = []
    flushed = time.monotonic()
    try:
        with click.progressbar(lines, label="checking", file=sys.stderr, show_pos=True) as progress:
            for number, line in progress:
                result, code = _batch_line(number, line, handle)
                pending.append(json_text(result))
                codes.append(code)
                if time.monotonic() - flushed > FLUSH_EVERY:
                    click.echo("\n".join(pending))
                    pending.clear()
                    flushed = time.monotonic()
    finally:
        if pending:
            click.echo("\n".join(pending))
    return ExitCode.worst(codes)


def _batch_line(number: int, line: str, handle: Callable[[dict], tuple[dict, int]]) -> tuple[dict, int]:
    """One line of a batch answered: (result object, exit code)."""
    try:
        request = json.loads(line)
        if not isinstance(request, dict):
            raise ValueError("each line must be a JSON object")
        result, code = handle(request)
        return {"line": number, **result}, code
    except (ValueError, MeldsError) as exc:
        error = exc.to_json() if isinstance(exc, MeldsError) else {"code": "bad-json", "message": str(exc)}
        return {"line": number, "error": error}, ExitCode.BAD_INPUT


def answer(ask: Callable[[dict], Result], request: dict, batch, as_json: bool) -> None:
    """Answer one request (the command line's), or every line of a batch with the command line's
    options as defaults; exit with the answer's code (a batch's: the worst)."""
    if batch is not None:
        if request.get("cards"):
            raise MeldsError("give cards on the command line or --batch, not both")
        defaults = {k: v for k, v in request.items() if k != "cards"}

        def line(extra: dict) -> tuple[dict, int]:
            result = ask({**defaults, **extra})
            return result.data, result.code

        sys.exit(run_batch(batch, line))
    result = ask(request)
    emit(result, as_json)
    sys.exit(result.code)


def given(values: Mapping[str, Any]) -> dict[str, Any]:
    """The options a command line gave (unset ones are left out, so a batch line's own win)."""
    return {k: v for k, v in values.items() if v is not None and v != ()}


# -- options a game adds -------------------------------------------------------------------------------


def click_option(spec: OptionSpec) -> click.Option:
    kwargs: dict[str, Any] = {"help": spec.help}
    if spec.flag:
        kwargs["is_flag"] = True
    else:
        kwargs["type"] = _click_type(spec)
        if spec.metavar:
            kwargs["metavar"] = spec.metavar
        if spec.default is not None:
            kwargs["default"] = spec.default
            kwargs["show_default"] = bool(spec.default)
        if spec.multiple:
            kwargs["multiple"] = True
    return click.Option([spec.name, spec.request_key], **kwargs)


def _click_type(spec: OptionSpec):
    if spec.choices:
        return click.Choice(list(spec.choices))
    if spec.type == "int":
        return click.IntRange(min=None if spec.minimum is None else int(spec.minimum))
    if spec.type == "float":
        return click.FloatRange(min=spec.minimum)
    if spec.type == "path":
        return click.Path(exists=True, dir_okay=False)
    if spec.type == "file":
        return click.Path(dir_okay=False)
    return click.STRING


def ruleset_in(args: Sequence[str]) -> str | None:
    """The ``-r``/``--ruleset`` a command line gives, read before parsing."""
    for i, arg in enumerate(args):
        if arg in ("-r", "--ruleset") and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith("--ruleset="):
            return arg.split("=", 1)[1]
        if arg.startswith("-r") and not arg.startswith("--") and len(arg) > 2:
            return arg[2:]
    return None


def games_for(args: Sequence[str]) -> list[type]:
    """The game of the command line's ruleset, or every game when it names none (or a bad one:
    loading it later says what is wrong)."""
    ref = ruleset_in(args)
    if ref is not None:
        try:
            return [registry.game_type(raw_game(ref))]
        except MeldsError:
            pass
    return [registry.game_type(name) for name in registry.known_games()]


class GameCommand(click.Command):
    """A command whose options include those the ruleset's game adds (see the module docstring)."""

    def __init__(self, *args, command: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.command = command
        self.common = list(self.params)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ref = ruleset_in(args)  # read first: click's parser consumes ``args`` as it goes
        games = games_for(args)
        ctx.meta["melds.games"] = games
        specs: dict[str, OptionSpec] = {}
        for game in games:
            for spec in game.options(self.command):
                specs.setdefault(spec.name, spec)
        self.params = self.common + [click_option(spec) for spec in specs.values()]
        try:
            return super().parse_args(ctx, args)
        except click.NoSuchOption as exc:
            raise self._foreign(exc, games, ref) from None

    def _foreign(self, exc: click.NoSuchOption, games: list[type], ref: str | None) -> click.UsageError:
        """An option another game has: say whose it is."""
        if len(games) != 1 or ref is None:
            return exc
        owners = [g for g in (registry.game_type(n) for n in registry.known_games())
                  if any(s.name == exc.option_name for s in g.options(self.command))]
        if not owners:
            return exc
        what = exc.option_name.lstrip("-").replace("-", " ")
        labels = " and ".join(g.label for g in owners)
        return click.UsageError(f"{exc.option_name} is for {labels} games; {ref} has no {what}")

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        examples = [e for game in ctx.meta.get("melds.games", ()) for e in game.examples(self.command)]
        if examples:
            with formatter.section("Examples"):
                formatter.write_text("\b\n" + "\n".join(examples))
        super().format_epilog(ctx, formatter)
