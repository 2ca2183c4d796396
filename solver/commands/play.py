"""melds move and melds moves: is this action legal now, in a game state? Every legal action."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from solver.commands.common import GameCommand, handle_errors, json_option
from solver.core import inputs
from solver.core.errors import ExitCode, MeldsError
from solver.core.registry import load_game
from solver.core.ruleset import resolve_path
from solver.core.state import GameState, load_state
from solver.core.validate import validate_state
from solver.present.moves import judgement_text
from solver.present.render import emit_json

ruleset_choice = click.option("-r", "--ruleset", "ruleset_ref", help="Ruleset id or path (default: the state file's).")


@click.command("move", cls=GameCommand, command="move")
@ruleset_choice
@json_option
@click.argument("state_file", type=click.Path(dir_okay=False))
@click.argument("action", nargs=-1, required=True)
@handle_errors
def move_cmd(ruleset_ref, as_json, state_file, action) -> None:
    """Is ACTION legal now, in the game state STATE_FILE? The rule and quote that decide it, and
    the state after it."""
    state = _state(ruleset_ref, state_file)
    judgement = load_game(state.ruleset).moves().judge(state, " ".join(action))
    emit_json(judgement.to_json()) if as_json else click.echo(judgement_text(judgement))
    sys.exit(ExitCode.of(judgement.legal))


@click.command("moves", cls=GameCommand, command="moves")
@ruleset_choice
@json_option
@click.argument("state_file", type=click.Path(dir_okay=False))
@handle_errors
def moves_cmd(ruleset_ref, as_json, state_file) -> None:
    """Every legal action in the game state STATE_FILE."""
    state = _state(ruleset_ref, state_file)
    legal = load_game(state.ruleset).moves().legal_actions(state)
    if as_json:
        emit_json({"turn": state.turn, "step": state.step, "actions": legal})
    else:
        click.echo(f"{state.turn} to play ({state.step}): {len(legal)} legal actions")
        for a in legal:
            click.echo(f"  {a}")
    sys.exit(ExitCode.of(bool(legal)))


def _state(ruleset_ref: str | None, state_file: str) -> GameState:
    inputs.require(state_file, "state file")
    state = load_state(state_file)
    if ruleset_ref and resolve_path(ruleset_ref).resolve() != Path(state.ruleset.path).resolve():
        raise MeldsError(f"-r {ruleset_ref} but {state_file} is a {state.ruleset.id} state")
    validate_state(state, load_game(state.ruleset))
    return state
