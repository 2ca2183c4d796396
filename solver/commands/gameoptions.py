"""The options a ruleset's game adds to a command, found before the command line is parsed.

A command that takes ``-r RULESET`` is a :class:`GameCommand`: before it parses its arguments it
looks for ``-r`` and asks the ruleset's game (:mod:`solver.core.registry`) which options it adds,
so ``melds score -r RULESET --help`` lists that game's options and no other's. Without ``-r`` (a
puzzle file, a batch naming its rulesets) it accepts the options of every game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

from solver.commands.common import INPUT_FILE, CheckedValue
from solver.core import registry, requests
from solver.core.errors import MeldsError
from solver.core.files import ruleset_named_in
from solver.core.game import Game, OptionSpec
from solver.core.ruleset import raw_game


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
        return CheckedValue(requests.integer(spec.minimum), "whole number", int)
    if spec.type == "float":
        return CheckedValue(requests.number(spec.minimum), "number")
    if spec.type == "path":
        return INPUT_FILE
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


def games_for(args: Sequence[str], ref: str | None = None) -> list[type[Game]]:
    """The game of the command line's ruleset (``ref``, when the caller has read it: -r, else a
    puzzle's or state's), or every game when it names none (or a bad one: loading it later says
    what is wrong)."""
    ref = ref or ruleset_in(args) or ruleset_named_in(args)
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
        ref = ruleset_in(args) or ruleset_named_in(args)  # read first: click's parser consumes ``args`` as it goes
        games = games_for(args, ref)
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
        owners = [
            g
            for g in (registry.game_type(n) for n in registry.known_games())
            if any(s.name == exc.option_name for s in g.options(self.command))
        ]
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
