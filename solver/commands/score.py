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
    ruleset_option,
)
from solver.commands.gameoptions import GameCommand


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
    answer(ruleset_ref, option_pairs, "score", {**given(options), "cards": cards}, batch, as_json, jobs)
