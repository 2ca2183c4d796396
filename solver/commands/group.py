"""The ``melds`` command group: each command's module is imported only when the command runs
(click's lazy-loading pattern), so ``melds check`` never pays for the audit or the solver."""

from __future__ import annotations

import importlib

import click

from solver.core import registry

COMMANDS = {  # name -> "module:function" of its click command
    "audit": "solver.commands.audit:audit_cmd",
    "check": "solver.commands.check:check_cmd",
    "move": "solver.commands.play:move_cmd",
    "moves": "solver.commands.play:moves_cmd",
    "replay": "solver.commands.replay:replay_cmd",
    "rulesets": "solver.commands.rulesets:rulesets_cmd",
    "score": "solver.commands.score:score_cmd",
    "solve": "solver.commands.solve:solve_cmd",
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module, attr = COMMANDS[name].split(":")
        return getattr(importlib.import_module(module), attr)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="melds")
def main() -> None:
    """Check the rules of rummy-family games, solve go-out puzzles, audit rule documents.

    Rulesets are YAML files (bundled ones by id: see `melds rulesets`). Exit codes: 0 yes,
    1 no, 2 bad input, 3 undecided within the solver budget.
    """
    registry.forget()  # one command, one compiled model per ruleset (a batch shares it)
