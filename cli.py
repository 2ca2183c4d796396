"""melds — check rummy-family rules, solve go-out puzzles, audit rule documents.

The command line is a thin face over ``solver``: it parses arguments, loads the ruleset, asks the
engine and prints the answer (text by default, ``--json`` for scripts, ``--batch`` for JSON
Lines). Exit codes: 0 yes (legal / solvable / clean), 1 no, 2 bad input, 3 undecided.

Heavy modules (the SAT solver, NetworkX) are imported inside the commands, so that ``melds
--help`` and start-up stay quick.
"""

from __future__ import annotations

import functools
import json
import sys
from typing import Any, Callable, Iterable

import click

EXIT_YES, EXIT_NO, EXIT_BAD_INPUT, EXIT_UNDECIDED = 0, 1, 2, 3


def _emit_json(obj: Any) -> None:
    click.echo(json.dumps(obj, ensure_ascii=False))


def handle_errors(func: Callable) -> Callable:
    """Input errors become one message and exit code 2, never a traceback."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        from solver.errors import MeldsError

        try:
            return func(*args, **kwargs)
        except MeldsError as exc:
            if kwargs.get("as_json"):
                _emit_json({"error": exc.to_json()})
            click.echo(f"melds: error: {exc}", err=True)
            sys.exit(exc.exit_code)

    return wrapper


def parse_options(pairs: Iterable[str]) -> dict[str, str]:
    from solver.errors import BadOption

    out = {}
    for pair in pairs:
        if "=" not in pair:
            raise BadOption(f"an option is written KEY=VALUE, got {pair!r}")
        key, value = pair.split("=", 1)
        out[key.strip()] = value.strip()
    return out


def combine_exit(codes: Iterable[int]) -> int:
    """The exit code of a batch: bad input wins, then undecided, then no, else yes."""
    codes = set(codes)
    for code in (EXIT_BAD_INPUT, EXIT_UNDECIDED, EXIT_NO):
        if code in codes:
            return code
    return EXIT_YES


def run_batch(stream, handle: Callable[[dict], tuple[dict, int]]) -> int:
    """JSON Lines in, one JSON object per line out, a progress bar on stderr.

    ``handle`` maps one request object to (result object, exit code). A line that is not a
    JSON object, or whose request is bad, gives ``{"line": n, "error": {...}}`` and code 2.
    """
    from solver.errors import MeldsError

    lines = [(i, line) for i, line in enumerate(stream, start=1) if line.strip()]
    codes = []
    with click.progressbar(lines, label="checking", file=sys.stderr,
                           show_pos=True) as progress:
        for number, line in progress:
            try:
                request = json.loads(line)
                if not isinstance(request, dict):
                    raise ValueError("each line must be a JSON object")
                result, code = handle(request)
                result = {"line": number, **result}
            except (ValueError, MeldsError) as exc:
                error = exc.to_json() if isinstance(exc, MeldsError) else {
                    "code": "bad-json", "message": str(exc)}
                result, code = {"line": number, "error": error}, EXIT_BAD_INPUT
            _emit_json(result)
            codes.append(code)
    return combine_exit(codes)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="melds")
def main() -> None:
    """Check the rules of rummy-family games, solve go-out puzzles, audit rule documents.

    Rulesets are YAML files (bundled ones by id: see `melds rulesets`). Exit codes: 0 yes,
    1 no, 2 bad input, 3 undecided within the solver budget.
    """


ruleset_option = click.option("-r", "--ruleset", "ruleset_ref", required=True,
                              help="Ruleset id (see `melds rulesets`) or path to a ruleset YAML.")
options_option = click.option("-o", "--option", "option_pairs", multiple=True, metavar="KEY=VALUE",
                              help="Set a ruleset option (repeatable), e.g. -o sojun=false.")
json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")


@main.command("rulesets")
@json_option
@handle_errors
def rulesets_cmd(as_json: bool) -> None:
    """List the bundled rulesets."""
    from solver.present import ruleset_json
    from solver.ruleset import bundled_rulesets, load_ruleset

    found = [load_ruleset(str(path)) for path in bundled_rulesets()]
    if as_json:
        _emit_json({"rulesets": [ruleset_json(r) for r in found]})
        return
    for r in found:
        kinds = ", ".join(k.name for k in r.kinds)
        click.echo(f"{click.style(r.id, bold=True):24} {r.label}")
        click.echo(f"{'':16} document {r.document}; {r.deck.size} cards; melds: {kinds}; "
                   f"{len(r.options)} options, {len(r.assumptions)} assumptions")


@main.command("check")
@ruleset_option
@click.option("--phase", type=click.Choice(["yang", "yin"]),
              help="Field phase (陽場 yang / 陰場 yin) for phase-bound melds such as 相順.")
@click.option("--ordered", is_flag=True,
              help="The cards are given in table order (a sequence must read left to right "
                   "or right to left); by default they are a multiset.")
@options_option
@json_option
@click.option("--batch", type=click.File("r", encoding="utf-8"), metavar="FILE",
              help='JSON Lines of {"cards": "...", "phase": ..., "ordered": ...}; - for stdin.')
@click.argument("cards", nargs=-1)
@handle_errors
def check_cmd(ruleset_ref: str, phase: str | None, ordered: bool, option_pairs: tuple,
              as_json: bool, batch, cards: tuple) -> None:
    """Is CARDS one legal meld? Says which kind, what each wild stands for, or why not.

    \b
    Examples:
      melds check -r fesca 木3 木4 太極
      melds check -r fesca wood3 wood4 taiji --json
      melds check -r basic-rummy S9 S10 SJ SQ
    """
    from solver.errors import MeldsError
    from solver.meld import MeldChecker
    from solver.present import verdict_json, verdict_text
    from solver.ruleset import load_ruleset

    ruleset = load_ruleset(ruleset_ref, parse_options(option_pairs))
    with MeldChecker(ruleset) as checker:
        if batch is not None:
            if cards:
                raise MeldsError("give cards on the command line or --batch, not both")

            def handle(request: dict) -> tuple[dict, int]:
                given = request.get("cards")
                if not isinstance(given, (str, list)) or not given:
                    raise MeldsError('each line needs "cards": a string or a list of cards')
                verdict = checker.check(checker.notation.parse_many(given),
                                        phase=request.get("phase", phase),
                                        ordered=bool(request.get("ordered", ordered)))
                return verdict_json(verdict, checker), EXIT_YES if verdict.legal else EXIT_NO

            sys.exit(run_batch(batch, handle))
        if not cards:
            raise MeldsError("no cards given. " + checker.notation.describe())
        verdict = checker.check(checker.notation.parse_many(cards), phase=phase, ordered=ordered)
        if as_json:
            _emit_json(verdict_json(verdict, checker))
        else:
            click.echo(verdict_text(verdict, checker))
    sys.exit(EXIT_YES if verdict.legal else EXIT_NO)


if __name__ == "__main__":
    main()
