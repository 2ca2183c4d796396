"""melds replay: recorded games replayed hand by hand — every action judged as ``melds move``
judges it, every hand settled and compared with what the record says was paid."""

from __future__ import annotations

import functools
import json
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from solver.commands.common import handle_errors, json_option, options_option, parse_options
from solver.core.errors import MeldsError
from solver.core.gcpause import keep_loaded
from solver.core.logs import foreign_formats, log_files, replay_file
from solver.core.replay import Summary, report_code
from solver.core.sharedwork import shared_map, spooled
from solver.present.replay import game_lines, summary_lines

EPILOG = """\b
Examples:
  melds replay game.json                   a game record in a format a game reads (see below)
  melds replay records/ --jobs 4           a folder: progress on stderr, then the summary
  melds replay --dask records/             on a local Dask cluster (--dask=HOST:PORT: a scheduler)
  melds replay 'records/**/*.mjlog.gz'     a pattern; gzipped logs are read as they are
  melds replay hand.yaml                   a log of melds' own format (docs/replay-format.md)
  melds replay --write-example -r RULESET  a sample log of melds' own format
Exit codes: 0 every hand agrees, 1 a mismatch or an illegal action, 2 a malformed log."""


class ReplayCommand(click.Command):
    """The help lists the game-record formats the games read, as they declare them; ``--dask`` is
    a flag, so that ``--dask records/`` replays the folder, and ``--dask=ADDRESS`` names a
    scheduler (read as ``--scheduler ADDRESS``)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        spelled: list[str] = []
        for k, arg in enumerate(args):
            if arg == "--":
                spelled += args[k:]
                break
            if arg.startswith("--dask="):
                spelled += ["--dask", "--scheduler", arg.split("=", 1)[1]]
            else:
                spelled.append(arg)
        return super().parse_args(ctx, spelled)

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_epilog(ctx, formatter)
        with formatter.section("Game-record formats the games read"):
            formatter.write_dl([(fmt.id, f"{fmt.label} (-r {fmt.ruleset} by default)") for _, fmt in foreign_formats()])


@click.command("replay", cls=ReplayCommand, epilog=EPILOG)
@click.option(
    "-r",
    "--ruleset",
    "ruleset_ref",
    help="Ruleset id or path the records are read through (default: the one the log names, or its format's own).",
)
@options_option
@json_option
@click.option(
    "--jobs", type=click.IntRange(min=1), default=1, show_default=True, help="Replay logs in this many processes."
)
@click.option(
    "--dask",
    "local_dask",
    is_flag=True,
    help="Replay on a Dask cluster: a local one of --jobs workers, or the scheduler of --dask=ADDRESS "
    "(pip install 'melds[dask]').",
)
@click.option(
    "--scheduler", "scheduler", metavar="ADDRESS", help="Replay on the Dask cluster of this scheduler (host:port)."
)
@click.option("-v", "--verbose", is_flag=True, help="A line for every hand, also for many logs.")
@click.option("--write-example", is_flag=True, help="Print a sample log of melds' own format for -r RULESET.")
@click.argument("logs", nargs=-1)
@handle_errors
def replay_cmd(ruleset_ref, option_pairs, as_json, jobs, local_dask, scheduler, verbose, write_example, logs) -> None:
    """Replay recorded games: LOG files, folders (searched for logs, .gz too) or patterns. Each
    hand is rebuilt from its start, every action checked, the hand settled; it agrees with the
    record, or the first illegal action, or the score changes that differ are shown."""
    if write_example:
        click.echo(_example(ruleset_ref))
        return
    if not logs:
        raise MeldsError("give game logs to replay (files, folders or patterns), or --write-example -r RULESET")
    options = parse_options(option_pairs)
    dask_address = scheduler if scheduler else "" if local_dask else None  # "": a local cluster
    total = sum(1 for _ in log_files(list(logs)))  # counted first: a progress bar, and paths never held
    many = total > 1
    summary = Summary(files=total)
    code = 0  # the worst so far: 2 a malformed log, else 1 a mismatch or an illegal action
    began = time.perf_counter()
    with tempfile.TemporaryFile("w+", encoding="utf-8") as games_spool:  # under --json: the games, after the hands
        first_hand = True
        if as_json:
            sys.stdout.write('{"hands": [')
        bar = click.progressbar(length=total, label="replaying", file=sys.stderr, show_pos=True) if many else None
        try:
            every_hand = verbose or not many
            for shown in _replayed(
                log_files(list(logs)), ruleset_ref, options, as_json, every_hand, jobs, dask_address
            ):
                summary.merge(shown.tally)
                code = max(code, shown.code)
                for hand in shown.hands:
                    sys.stdout.write(("" if first_hand else ",") + "\n " + hand)
                    first_hand = False
                games_spool.writelines(game + "\n" for game in shown.games)
                for text in shown.texts:
                    if bar is not None:
                        click.echo("", err=True)  # below the progress bar
                    click.echo(text)
                if bar is not None:
                    bar.update(1)
        finally:
            if bar is not None:
                bar.render_finish()
        summary.seconds = time.perf_counter() - began
        if as_json:
            sys.stdout.write('\n], "games": [')
            games_spool.seek(0)
            for k, line in enumerate(games_spool):
                sys.stdout.write(("," if k else "") + "\n " + line.rstrip("\n"))
            sys.stdout.write('\n], "summary": ' + json.dumps(summary.to_json(), ensure_ascii=False) + "}\n")
        elif many:  # one log says it all in its own lines
            click.echo("\n".join(summary_lines(summary)))
        sys.exit(code)


@dataclass(frozen=True)
class ShownLog:
    """One log's games as the command shows them, made where the log is replayed: a worker sends
    back these few strings and counts, not its reports, and the parent only adds and writes them."""

    code: int  # the exit code of its games alone: 0 agree, 1 a mismatch or an illegal action, 2 malformed
    tally: Summary  # its counts
    texts: tuple[str, ...] = ()  # the text form: a block of lines for each game shown
    hands: tuple[str, ...] = ()  # under --json: each hand's JSON object
    games: tuple[str, ...] = ()  # under --json: each game's JSON object (without its hands)


def show_log(
    path: str, ruleset_ref: str | None, options: Mapping[str, Any], as_json: bool, every_hand: bool
) -> ShownLog:
    """``path`` replayed and shown: under --json its hands' and games' objects, else the lines of
    each game that does not agree (of every game with ``every_hand``)."""
    reports = replay_file(path, ruleset_ref, options)
    tally = Summary()
    for report in reports:
        tally.add(report)
    if as_json:
        hands = tuple(
            json.dumps({"file": report.path, "game": report.game, **hand.to_json()}, ensure_ascii=False)
            for report in reports
            for hand in report.hands
        )
        games = tuple(json.dumps(report.to_json(with_hands=False), ensure_ascii=False) for report in reports)
        return ShownLog(report_code(reports), tally, hands=hands, games=games)
    texts = tuple(
        "\n".join(game_lines(report, every_hand)) for report in reports if every_hand or report.status != "agree"
    )
    return ShownLog(report_code(reports), tally, texts=texts)


def _replayed(
    paths: Iterator[Path],
    ruleset_ref: str | None,
    options: dict,
    as_json: bool,
    every_hand: bool,
    jobs: int,
    dask_address: str | None,
) -> Iterator[ShownLog]:
    """Each log shown, in order: on Dask, here, or — with ``--jobs`` — the first log here (the
    rulesets it needs compiled, the tables of its hands read), then the others by this process and
    ``jobs - 1`` forked after it, which inherit all that, each taking the next log not yet taken."""
    names = (str(path) for path in paths)
    if dask_address is not None:
        from solver.core.fanout import ordered_map  # noqa: PLC0415 - only a cluster needs it

        shown = ordered_map(
            show_log, names, args=(ruleset_ref, options, as_json, every_hand), jobs=jobs, dask=dask_address
        )
        yield from shown
        return
    work = functools.partial(show_log, ruleset_ref=ruleset_ref, options=options, as_json=as_json, every_hand=every_hand)
    if jobs > 1:
        first = next(names, None)
        if first is None:
            return
        yield work(first)
        keep_loaded()  # what the workers inherit is out of the collector's walks: theirs, and no page copied for them
        with spooled(names) as rest:
            yield from shared_map(work, rest, jobs)
        return
    yield from map(work, names)


def _example(ruleset_ref: str | None) -> str:
    """A sample log of the project's own format for a ruleset, from the bundled samples."""
    if not ruleset_ref:
        raise MeldsError("--write-example needs -r RULESET: the sample log is of that ruleset's game")
    import yaml  # noqa: PLC0415 - only the sample needs it

    root = Path(__file__).resolve().parent.parent.parent / "puzzles"
    for path in sorted(root.rglob("logs/*.jsonl")):
        header, *hands = (json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
        if header.get("ruleset") == ruleset_ref:  # shown as YAML, the form a person writes
            document = {**header, "hands": hands}
            return f"# {path.relative_to(root.parent)} as YAML: melds replay FILE replays it\n" + yaml.safe_dump(
                document, allow_unicode=True, sort_keys=False, width=100
            ).rstrip("\n")
    raise MeldsError(f"no sample log for {ruleset_ref!r} (the samples are puzzles/*/logs/*.jsonl)")
