"""melds check: is this one legal meld (word, winning hand)?"""

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


@click.command("check", cls=GameCommand, command="check")
@ruleset_option
@options_option
@json_option
@batch_option(
    'JSON Lines of requests, {"cards": "..."} with the options\' names as keys (docs/json-output.md '
    "gives each game's); - for stdin."
)
@click.argument("cards", nargs=-1)
@handle_errors
def check_cmd(ruleset_ref: str, option_pairs: tuple, as_json: bool, batch, jobs: int, cards: tuple, **options) -> None:
    """Is CARDS one legal meld? Says which kind, what each wild stands for, or why not.

    What CARDS are is the game's: the cards of one meld, a whole hand of tiles (does it win, and
    how does it decompose?), words. `melds check -r RULESET --help` shows the game's options and
    examples.
    """
    answer(ruleset_ref, option_pairs, "check", {**given(options), "cards": cards}, batch, as_json, jobs)
