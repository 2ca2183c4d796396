"""melds move and melds moves: is this action legal now, in a game state? Every legal action."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import click

from solver.commands.common import SECONDS, handle_errors, json_option, max_memory_option
from solver.commands.gameoptions import GameCommand
from solver.core import inputs
from solver.core.errors import BadRequest, ExitCode, MeldsError
from solver.core.registry import load_game
from solver.core.ruleset import resolve_path
from solver.core.state import GameState, load_state
from solver.core.validate import validate_state
from solver.present.moves import judgement_text
from solver.present.render import emit_json
from solver.sat.budget import Budget

ruleset_choice = click.option("-r", "--ruleset", "ruleset_ref", help="Ruleset id or path (default: the state file's).")
indicator_choice = click.option(
    "--indicator", metavar="CARD", help="The ruleset's chosen card (cut joker, indicator), over the state's own."
)


@click.command("move", cls=GameCommand, command="move")
@ruleset_choice
@indicator_choice
@json_option
@click.argument("state_file", type=click.Path(dir_okay=False))
@click.argument("action", nargs=-1, required=True)
@handle_errors
def move_cmd(ruleset_ref, indicator, as_json, state_file, action) -> None:
    """Is ACTION legal now, in the game state STATE_FILE? The rule and quote that decide it, and
    the state after it."""
    state = _state(ruleset_ref, state_file, indicator)
    judgement = load_game(state.ruleset).moves().judge(state, " ".join(action))
    emit_json(judgement.to_json()) if as_json else click.echo(judgement_text(judgement))
    sys.exit(ExitCode.of(judgement.legal))


@click.command("moves", cls=GameCommand, command="moves")
@ruleset_choice
@indicator_choice
@json_option
@click.option(
    "--max-seconds",
    type=SECONDS,
    help="Budget of the listing; past it, exit 3 'undecided' with the actions judged legal so far.",
)
@max_memory_option
@click.argument("state_file", type=click.Path(dir_okay=False))
@handle_errors
def moves_cmd(ruleset_ref, indicator, as_json, max_seconds, state_file) -> None:
    """Every legal action in the game state STATE_FILE."""
    state = _state(ruleset_ref, state_file, indicator)
    budget = Budget(max_seconds)
    with budget.guarding():
        listing = load_game(state.ruleset).moves().listing(state, budget.check)
    legal, cut = listing.actions, listing.undecided
    if as_json:
        data = {"turn": state.turn, "step": state.step, "actions": legal}
        if cut is not None:  # the actions judged before the budget ran out: more may be legal
            data.update(partial=True, undecided={"limit": cut.limit or budget.spent or "time", "message": str(cut)})
        emit_json(data)
    else:
        more = " so far (the budget ran out before every action was judged)" if cut is not None else ""
        click.echo(f"{state.turn} to play ({state.step}): {len(legal)} legal actions{more}")
        for a in legal:
            click.echo(f"  {a}")
    if cut is not None:
        if not as_json:
            click.echo(f"melds: undecided: {cut}", err=True)
        sys.exit(ExitCode.UNDECIDED)
    sys.exit(ExitCode.of(bool(legal)))


def _state(ruleset_ref: str | None, state_file: str, indicator: str | None = None) -> GameState:
    inputs.require(state_file, "state file")
    state = load_state(state_file)
    if ruleset_ref and resolve_path(ruleset_ref).resolve() != Path(state.ruleset.path).resolve():
        raise MeldsError(f"-r {ruleset_ref} but {state_file} is a {state.ruleset.id} state")
    if indicator is not None:  # the first chosen card, as a state's "indicator" names it
        chosen = list(state.ruleset.parameters)
        if not chosen:
            raise BadRequest(f"{state.ruleset.id} has no chosen card: --indicator does not apply to it")
        state = replace(state, params={**state.params, chosen[0]: indicator})
    validate_state(state, load_game(state.ruleset))
    return state
