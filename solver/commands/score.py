"""melds score: points of a meld, of a hand left, of a round, of a winning hand."""

from __future__ import annotations

import click

from solver.commands.common import (
    answer,
    batch_option,
    given,
    handle_errors,
    json_option,
    options_option,
    parse_options,
    ruleset_option,
)
from solver.commands.gameoptions import GameCommand
from solver.core.registry import load_game
from solver.core.ruleset import load_ruleset


@click.command("score", cls=GameCommand, command="score")
@ruleset_option
@options_option
@json_option
@batch_option(
    'JSON Lines of requests, {"cards": "..."} with the options\' names as keys (--penalty is '
    '"penalty"; docs/json-output.md gives each game\'s).'
)
@click.argument("cards", nargs=-1)
@handle_errors
def score_cmd(ruleset_ref, option_pairs, as_json, batch, jobs, cards, **options) -> None:
    """Points of one meld (出来役加点), of a hand left at the end (--penalty), of a round, or of a
    winning hand (its yaku, han, fu and payments) — as the ruleset's game counts them.
    `melds score -r RULESET --help` shows the game's options and examples."""
    command_line = parse_options(option_pairs)
    game = load_game(load_ruleset(ruleset_ref, command_line))
    answer(
        game,
        "score",
        {**given(options), "cards": cards},
        batch,
        as_json,
        jobs,
        game_for=lambda line: load_game(load_ruleset(ruleset_ref, {**command_line, **line})),
    )
