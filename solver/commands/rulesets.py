"""melds rulesets: the bundled rulesets, their game, meld kinds, options and assumptions."""

from __future__ import annotations

import click

from solver.commands.common import handle_errors, json_option
from solver.core.registry import load_game
from solver.core.ruleset import Ruleset, bundled_rulesets, load_ruleset
from solver.present.render import emit_json


def ruleset_json(ruleset: Ruleset) -> dict:
    return {
        "id": ruleset.id,
        "name": ruleset.name,
        "name_en": ruleset.name_en,
        "document": ruleset.document,
        "path": ruleset.path,
        "kinds": [
            {"id": k.id, "name": k.name, "family": k.family, "enabled": k in ruleset.kinds} for k in ruleset.all_kinds
        ],
        "options": {
            o.id: {
                "type": o.type,
                "default": o.default,
                "value": ruleset.option_values[o.id],
                "description": o.description,
            }
            for o in ruleset.options.values()
        },
        "assumptions": len(ruleset.assumptions),
        "deck_size": ruleset.deck.size,
        "game": ruleset.game,
    }


@click.command("rulesets")
@json_option
@handle_errors
def rulesets_cmd(as_json: bool) -> None:
    """List the bundled rulesets."""
    found = [load_ruleset(str(path)) for path in bundled_rulesets()]
    described = [(r, load_game(r).describe()) for r in found]
    if as_json:
        emit_json({"rulesets": [{**ruleset_json(r), **d.data} for r, d in described]})
        return
    for r, d in described:
        click.echo(f"{click.style(r.id, bold=True):24} {r.label}")
        click.echo(
            f"{'':16} document {r.document}; {d.readable()}; {len(r.options)} options, {len(r.assumptions)} assumptions"
        )
