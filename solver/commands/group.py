"""The ``melds`` command group: each command's module is imported only when the command runs
(click's lazy-loading pattern), so ``melds check`` never pays for the audit or the solver.

The group also gives every failure of the command line itself its documented form: a usage
error (an unknown flag, a missing ``-r``, a bad value) is exit 2, and one JSON object on stdout
under ``--json``; output cut short by a closed pipe (``melds rulesets | head -1``) ends quietly.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import os
import sys

import click

from solver.commands.batch import internal_error
from solver.core import gcpause, registry
from solver.core.errors import ExitCode, MeldsError, UsageError
from solver.present.render import emit_error, emit_json
from solver.sat import budget

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

    def main(self, args=None, prog_name=None, **extra):
        args = list(sys.argv[1:] if args is None else args)
        try:
            code = super().main(args, prog_name, standalone_mode=False, **extra)
        except SystemExit as exc:  # a command's own exit code
            code = exc.code
        except click.UsageError as exc:  # before the command ran: its own handler never saw it
            _usage_error(exc, args)
            code = ExitCode.BAD_INPUT
        except click.ClickException as exc:
            exc.show()
            code = exc.exit_code
        except click.Abort:
            click.echo("Aborted!", err=True)
            code = 1
        except BrokenPipeError:
            code = _broken_pipe()
        except MeldsError as exc:  # while the command line was read (the game of -r, its options)
            emit_error(exc, _wants_json(args))
            code = exc.exit_code
        except Exception as exc:  # noqa: BLE001 - a last resort: a message, not a traceback
            if os.environ.get("MELDS_DEBUG"):
                raise
            error = internal_error(exc)
            emit_error(error, _wants_json(args))
            code = error.exit_code
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            code = _broken_pipe()
        except (ValueError, AttributeError):  # stdout closed or absent
            pass
        sys.exit(code if isinstance(code, int) else 0)


def run() -> None:
    """The ``melds`` command as a process of its own: :func:`main`, then out at once. What exit
    would still do — free every object of the answer, one at a time — can cost more time than the
    budget's slack (docs/performance.md). Its exit functions run
    and its output is flushed first; only the freeing is left to the system. In-process callers
    (tests, scripts) call :func:`main`, which exits as usual. The query's ``--max-seconds`` counts
    from the process's start (:func:`~solver.sat.budget.count_from`); what a batch's first line loads
    is kept out of the cyclic collector's walks (:func:`~solver.core.gcpause.keep_loaded`)."""
    budget.count_from(budget.process_start())
    gcpause.own_process()
    code: str | int | None = 0
    try:
        main()
    except SystemExit as stop:
        code = stop.code
    if not isinstance(code, int):  # sys.exit("a message"), as Python itself would show it
        if code is not None:
            print(code, file=sys.stderr)
        code = 0 if code is None else 1
    atexit._run_exitfuncs()  # the compiled games' solvers closed, as at a normal exit
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError, AttributeError):  # a reader gone, a stream closed or absent
            stream.flush()
    os._exit(code)


def _usage_error(exc: click.UsageError, args: list[str]) -> None:
    """A usage error: click's usage lines and message on stderr; under --json also one JSON object
    on stdout, as for every other error."""
    exc.show()
    if _wants_json(args):
        message = exc.format_message()
        if exc.ctx is not None:
            message += f" (see '{exc.ctx.command_path} --help')"
        emit_json({"error": UsageError(message).to_json()})


def _wants_json(args: list[str]) -> bool:
    """--json, or --batch (whose output is JSON Lines)."""
    given = args[: args.index("--")] if "--" in args else args
    return any(arg == "--json" or arg == "--batch" or arg.startswith("--batch=") for arg in given)


def _broken_pipe() -> int:
    """The reader went away (``| head -1``): stop quietly, as a Unix tool does."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
    return 0


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="melds")
def main() -> None:
    """Check the rules of rummy-family games, solve go-out puzzles, audit rule documents.

    Rulesets are YAML files (bundled ones by id: see `melds rulesets`). Exit codes: 0 yes,
    1 no, 2 bad input, 3 undecided within the solver budget.
    """
    registry.forget()  # one command, one compiled model per ruleset (a batch shares it)
