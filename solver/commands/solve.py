"""melds solve: a hand's question (can it go out, the best turn, its waits…), a puzzle file, a
folder of puzzles with a summary table, or a batch."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from solver.commands.batch import guarded, ordered_map, run_batch
from solver.commands.common import (
    SECONDS,
    CheckedValue,
    CompiledGames,
    batch_option,
    game_specs,
    given,
    handle_errors,
    json_option,
    max_memory_option,
    options_option,
    parse_options,
)
from solver.commands.gameoptions import GameCommand
from solver.core import inputs, requests
from solver.core.errors import BadRequest, ExitCode, MeldsError
from solver.core.files import is_state, load_document
from solver.core.registry import load_game
from solver.core.result import Summary
from solver.core.ruleset import load_ruleset
from solver.core.yamlload import load_file
from solver.present.render import emit, emit_json
from solver.present.text import BAD, verdict_word


@click.command("solve", cls=GameCommand, command="solve")
@click.argument("puzzle", nargs=-1)
@click.option("-r", "--ruleset", "ruleset_ref", help="Ruleset for an inline --hand.")
@click.option("--hand", help='The hand, e.g. "S9 S10 SJ H4 D4 C4 C7".')
@click.option(
    "--table",
    multiple=True,
    metavar='"OWNER: CARDS"',
    help="A meld on the table (repeatable); owner 'me' is the player's own.",
)
@click.option("--has-melded", is_flag=True, help="The player already has a meld of their own.")
@click.option("--best", is_flag=True, help="The optimum of the ruleset's objective, going out or not.")
@click.option("--all", "count_all", is_flag=True, help="Count the distinct ways to go out.")
@click.option(
    "--limit",
    type=CheckedValue(requests.integer(1), "whole number", int),
    default=1000,
    show_default=True,
    help="Stop counting at this many ways.",
)
@click.option("--max-seconds", type=SECONDS, help="Solver budget; exit 3 'undecided' when it runs out.")
@max_memory_option
@click.option("--stats", is_flag=True, help="Print the time taken and the SAT calls made.")
@options_option
@json_option
@batch_option('JSON Lines of {"puzzle": PATH} or {"hand": ..., "table": [...], ...}; - for stdin.')
@handle_errors
def solve_cmd(
    puzzle,
    ruleset_ref,
    hand,
    table,
    has_melded,
    best,
    count_all,
    limit,
    max_seconds,
    stats,
    option_pairs,
    as_json,
    batch,
    jobs,
    **options,
) -> None:
    """Can this hand go out this turn? Shows how, the best turn, or why not.

    \b
    PUZZLE is a puzzle file or a folder of them; or give -r RULESET --hand "...".
    A game may ask its own questions of a hand (its options: melds solve -r RULESET --help).
    """
    budget = {"all": count_all, "limit": limit, "max_seconds": max_seconds, "stats": stats, "best": best}
    defaults = given({**options, **budget})
    if batch is not None:
        if puzzle or hand:
            raise MeldsError("give a puzzle, --hand or --batch, not several")
        sys.exit(run_batch(batch, BatchLines(ruleset_ref, option_pairs, defaults), jobs))
    if ruleset_ref:
        game = load_game(load_ruleset(ruleset_ref, parse_options(option_pairs)))
        request = given({**defaults, "hand": hand, "table": table, "has_melded": has_melded, "args": puzzle})
        result = game.solve(requests.checked_request(request, game_specs(game, "solve")))
        emit(result, as_json)
        sys.exit(result.code)
    if len(puzzle) > 1:
        raise MeldsError(
            f'one puzzle file or folder at a time, got {len(puzzle)} arguments (for a hand use --hand "...")'
        )
    if not puzzle:
        raise MeldsError('give a puzzle file or folder, or -r RULESET --hand "CARDS"')
    path = Path(puzzle[0])
    if not path.is_dir():
        inputs.require(path, "puzzle file or folder")
    if path.is_dir():
        sys.exit(_solve_folder(path, as_json, defaults, jobs))
    if hand:
        raise MeldsError("give either a puzzle file or -r RULESET --hand, not both")
    document = load_document(path)
    result = load_game(document.ruleset).answer(document, defaults)
    emit(result, as_json)
    sys.exit(result.code)


class BatchLines:
    """The answer to each line of a ``solve --batch``: a puzzle file, or a hand of the line's
    ruleset (``-r`` by default) with the command line's options as defaults, each game compiled
    once for its ruleset and options (:class:`~solver.commands.common.CompiledGames`)."""

    def __init__(self, ruleset_ref: str | None, option_pairs: tuple, defaults: dict):
        self.ruleset_ref, self.defaults = ruleset_ref, defaults
        self.games = CompiledGames("solve", parse_options(option_pairs), defaults)

    def __call__(self, line: dict) -> tuple[dict, int]:
        if "puzzle" in line:
            if line["puzzle"] is None:
                raise BadRequest('"puzzle": expected the path of a file, got null')
            given = requests.path("puzzle", line["puzzle"])
            assert given is not None  # null was refused above
            document = load_document(Path(given))
            game = load_game(document.ruleset)
            result = game.answer(
                document, requests.checked_request({**self.defaults, **line}, game_specs(game, "solve"))
            )
            return result.data, result.code
        ref = requests.text("ruleset", line["ruleset"]) if "ruleset" in line else self.ruleset_ref
        if not ref:
            raise MeldsError('each line needs a ruleset ("ruleset" or -r)')
        solve, checker, defaults = self.games.get(ref, line.get("options"))
        checked = checker(line)  # a hand of the wrong type: a bad request (the line's own keys: a new dict)
        request = {**defaults, **checked} if defaults else checked
        if not request.get("hand"):
            raise MeldsError('each line needs "hand" (or "puzzle")')
        result = solve(request)
        return result.data, result.code


Row = tuple  # (path, data or None, Summary or None, folder code, error JSON or None, error text)


def _puzzle_row(path: Path, defaults: dict) -> Row | None:
    """One file of a folder answered (None: a game state, for melds move); any problem with it is
    its row's error, and the folder goes on."""

    def work() -> tuple:
        data = load_file(path)
        if is_state(data):
            return None, ExitCode.YES
        document = load_document(path, data)
        result = load_game(document.ruleset).answer(document, defaults, folder=True)
        return (result.data, result.summary, result.folder_code), result.folder_code

    answer, code = guarded(work)
    if answer is None:
        return None
    if isinstance(answer, dict):
        error = answer["error"]
        return (str(path), {"puzzle": str(path), "error": error}, None, code, error, error["message"])
    data, summary, folder_code = answer
    return (str(path), data, summary, folder_code, None, "")


def _solve_folder(folder: Path, as_json: bool, defaults: dict, jobs: int = 1) -> ExitCode:
    """Every puzzle of a folder (states are for melds move): a row each, then a summary; a bad
    file is a row that says what is wrong with it."""
    paths = sorted(folder.rglob("*.yaml"))
    with click.progressbar(paths, label="solving", file=sys.stderr, show_pos=True) as progress:
        rows = [row for row in ordered_map(lambda p: _puzzle_row(p, defaults), progress, jobs) if row is not None]
    if not rows:
        raise MeldsError(f"no puzzle files (*.yaml) in {folder}")
    if as_json:
        for row in rows:
            emit_json(row[1])
    else:
        click.echo(_summary(rows))
    return ExitCode.worst(row[3] for row in rows)


def _summary(rows: list[Row]) -> str:
    names = [path if error else Path(path).name for path, _, _, _, error, _ in rows]
    width = max(len(n) for n in names)
    lines = [f"{'puzzle':{width}}  {'answer':10}  {'seconds':>7}  check"]
    summaries: list[Summary] = []
    for name, (_, _, s, _, error, message) in zip(names, rows, strict=True):
        if error:
            lines.append(f"{name:{width}}  {click.style('bad file', fg=BAD)}  {message}")
            continue
        summaries.append(s)
        seconds = f"{s.seconds:7.3f}" if s.seconds is not None else f"{'':>7}"
        lines.append(f"{name:{width}}  {s.answer:10}  {seconds}  {verdict_word(s.matches, s.mismatches)}")
    lines.append(
        f"{len(rows)} puzzles: {sum(1 for s in summaries if s.matches)} match their expected "
        f"answers, {sum(1 for s in summaries if s.matches is False)} differ, "
        f"{len(rows) - len(summaries)} bad files"
    )
    return "\n".join(lines)
