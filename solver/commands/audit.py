"""melds audit: a rule document's contradictions, gaps and assumptions, through its ruleset; its
coverage sentence by sentence; the document annotated as an HTML page."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from solver.audit.coverage import document_coverage
from solver.audit.pages import document_page, index_page, page_name
from solver.audit.report import audit_markdown, audit_text, audits_json, coverage_json, coverage_text
from solver.audit.run import audit_ruleset
from solver.commands.common import SECONDS, handle_errors, json_option, max_memory_option
from solver.core.errors import ExitCode, MeldsError, Undecided
from solver.core.ruleset import bundled_rulesets, load_ruleset
from solver.present.render import emit_error, emit_json
from solver.sat.budget import Budget


@click.command("audit")
@click.argument("ruleset_ref", metavar="RULESET", required=False)
@click.option("--all", "all_rulesets", is_flag=True, help="Audit every bundled ruleset.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "markdown", "html"]),
    default="text",
    show_default=True,
    help="Text for the terminal, Markdown (docs/audit-report.md), or the document annotated as HTML "
    "(needs -o: a file, or a folder with --all).",
)
@click.option(
    "--coverage",
    is_flag=True,
    help="Every sentence of the document: whether it states a rule, the ruleset entries that cite it, "
    "its status; the coverage figure per document, uncovered rule-bearing sentences first.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=True, path_type=Path),
    metavar="PATH",
    help="Where --format html writes: a file (one ruleset) or a folder (--all: a page per document and index.html).",
)
@click.option("--max-seconds", type=SECONDS, help="Budget of the whole audit; exit 3 'undecided' when it runs out.")
@max_memory_option
@json_option
@handle_errors
def audit_cmd(ruleset_ref, all_rulesets, fmt, coverage, output, max_seconds, as_json) -> None:
    """Find the contradictions, gaps and assumptions of a rule document, through its ruleset:
    its worked examples checked with the solver, meld sizes no meld can have, rules that cancel
    or contradict each other (searched with SAT, or shown on a state), deals against the deck,
    every assumption with its quote. Exit 0 with no contradiction, 1 with one.

    \b
    Examples:
      melds audit RULESET
      melds audit RULESET --coverage
      melds audit RULESET --coverage --json
      melds audit RULESET --format html -o page.html
      melds audit --all --format html -o docs/audit
      melds audit --all --format markdown > docs/audit-report.md
      melds audit ./my-game.yaml --json
    """
    if bool(ruleset_ref) == bool(all_rulesets):
        raise MeldsError("give one RULESET (id or path) or --all")
    if fmt == "html" and output is None:
        raise MeldsError("--format html writes files: give -o FILE (or -o DIR with --all)")
    if output is not None and fmt != "html":
        raise MeldsError("-o is for --format html; text, Markdown and JSON go to standard output")
    if coverage and fmt == "markdown":
        raise MeldsError("--coverage prints text or JSON (--json); the HTML pages (--format html) show it too")
    refs = [str(p) for p in bundled_rulesets()] if all_rulesets else [ruleset_ref]
    audits = []
    budget = Budget(max_seconds)
    with budget.guarding():  # the searches and checks of every ruleset, under one budget
        for ref in refs:
            if len(refs) > 1:
                click.echo(f"auditing {Path(ref).stem}", err=True)
            try:
                budget.check()  # between rulesets too: the guard fires once, wherever the work is then
                audit = audit_ruleset(load_ruleset(ref), budget.check)
                # a ruleset whose audit ran past the budget is not one audited: a claim's solve may
                # have taken the guard for its own limit and answered undecided
                budget.check()
                audits.append(audit)
            except Undecided as exc:
                stopped = Undecided(
                    f"{exc} — while auditing {Path(ref).stem} ({len(audits)} of {len(refs)} rulesets audited)"
                )
                if not audits or fmt == "html" or coverage:
                    raise stopped from None
                # the rulesets audited are the answer found so far: their report, with the error
                # that says where the audit stopped (coverage and the pages need every ruleset)
                _report(audits, fmt, as_json, stopped)
                emit_error(stopped, as_json=False)
                sys.exit(stopped.exit_code)
    if fmt == "html":
        _write_pages(audits, output, all_rulesets)
    elif coverage:
        covs = document_coverage(audits)
        emit_json(coverage_json(covs)) if as_json else click.echo(coverage_text(covs))
    else:
        _report(audits, fmt, as_json)
    sys.exit(ExitCode.NO if any(a.contradictions for a in audits) else ExitCode.YES)


def _report(audits, fmt: str, as_json: bool, stopped: Undecided | None = None) -> None:
    """The audits' findings as JSON (with the error of an audit cut short), Markdown or text."""
    if as_json:
        emit_json({"error": stopped.to_json(), **audits_json(audits)} if stopped else audits_json(audits))
    else:
        click.echo(audit_markdown(audits) if fmt == "markdown" else audit_text(audits), nl=fmt != "markdown")


def _write_pages(audits, output: Path, folder: bool) -> None:
    covs = document_coverage(audits)
    titles = {a.ruleset.document: a.ruleset.document_title or a.ruleset.label for a in audits}
    try:
        if not folder:
            output.parent.mkdir(parents=True, exist_ok=True)
            output.write_text(document_page(covs[0], titles[covs[0].document.name]), encoding="utf-8")
            click.echo(f"wrote {output}", err=True)
            return
        output.mkdir(parents=True, exist_ok=True)
        for cov in covs:
            path = output / page_name(cov.document.name)
            path.write_text(document_page(cov, titles[cov.document.name]), encoding="utf-8")
            click.echo(f"wrote {path}", err=True)
        (output / "index.html").write_text(index_page(covs, titles), encoding="utf-8")
        click.echo(f"wrote {output / 'index.html'}", err=True)
    except OSError as exc:
        raise MeldsError(f"cannot write {output}: {exc.strerror or exc}") from None
