"""melds audit: a rule document's contradictions, gaps and assumptions, through its ruleset."""

from __future__ import annotations

import sys

import click

from solver.audit.report import audit_markdown, audit_text, audits_json
from solver.audit.run import audit_ruleset
from solver.commands.common import handle_errors, json_option
from solver.core.errors import ExitCode, MeldsError
from solver.core.ruleset import bundled_rulesets, load_ruleset
from solver.present.render import emit_json


@click.command("audit")
@click.argument("ruleset_ref", metavar="RULESET", required=False)
@click.option("--all", "all_rulesets", is_flag=True, help="Audit every bundled ruleset.")
@click.option("--format", "fmt", type=click.Choice(["text", "markdown"]), default="text", show_default=True,
              help="Text for the terminal, or Markdown (docs/audit-report.md).")
@json_option
@handle_errors
def audit_cmd(ruleset_ref, all_rulesets, fmt, as_json) -> None:
    """Find the contradictions, gaps and assumptions of a rule document, through its ruleset:
    its worked examples checked with the solver, meld sizes no meld can have, deals against the
    deck, every assumption with its quote. Exit 0 with no contradiction, 1 with one.

    \b
    Examples:
      melds audit RULESET
      melds audit --all --format markdown > docs/audit-report.md
      melds audit ./my-game.yaml --json
    """
    if bool(ruleset_ref) == bool(all_rulesets):
        raise MeldsError("give one RULESET (id or path) or --all")
    refs = [str(p) for p in bundled_rulesets()] if all_rulesets else [ruleset_ref]
    audits = [audit_ruleset(load_ruleset(ref)) for ref in refs]
    if as_json:
        emit_json(audits_json(audits))
    else:
        click.echo(audit_markdown(audits) if fmt == "markdown" else audit_text(audits), nl=fmt != "markdown")
    sys.exit(ExitCode.NO if any(a.contradictions for a in audits) else ExitCode.YES)
