"""melds — check rummy-family rules, solve go-out puzzles, audit rule documents.

The command line is a thin face over ``solver``: each command (solver/commands/, imported when it
runs) parses its arguments, asks the ruleset's game through the Game protocol
(solver/core/game.py) and prints the answer (text by default, ``--json`` for scripts, ``--batch``
for JSON Lines). Exit codes: 0 yes (legal / solvable / clean), 1 no, 2 bad input, 3 undecided.
"""

from __future__ import annotations

import gc
import os
import sys
import typing

# the most pieces of generated code kept across starts (a file of a few hundred kilobytes at most)
KEPT_FUNCTIONS = 20_000


def keep_compiled() -> None:
    """What a start of the command would otherwise compile again, kept in melds' cache folder
    (``MELDS_CACHE_DIR``, solver/core/cache.py; ``off`` keeps nothing): the modules' bytecode where
    Python writes none beside the sources (:func:`keep_bytecode`), and the code the standard
    library writes at run time (:func:`keep_generated_code`). Both are most of the start's
    time otherwise. This runs before the solver package is imported, so it cannot ask
    solver.core.cache where the folder is."""
    folder = os.environ.get("MELDS_CACHE_DIR")
    if folder == "off":
        return
    if not folder:
        folder = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "melds")
    try:
        os.makedirs(os.path.join(folder, "bytecode"), exist_ok=True)
    except OSError:
        return
    if os.access(folder, os.W_OK):
        keep_bytecode(os.path.join(folder, "bytecode"))
        keep_generated_code(os.path.join(folder, f"generated.{sys.implementation.cache_tag}.{sys.hexversion:x}"))


def keep_bytecode(folder: str) -> None:
    """Where Python is told to write no bytecode beside the sources (``PYTHONDONTWRITEBYTECODE``),
    the modules' bytecode goes to ``folder`` (mirroring the sources' paths; Python's own ``.pyc``
    files, checked against the sources as usual). A Python that writes bytecode as usual, or has a
    bytecode folder of its own (``PYTHONPYCACHEPREFIX``), is left alone."""
    if sys.dont_write_bytecode and not sys.pycache_prefix:
        sys.pycache_prefix, sys.dont_write_bytecode = folder, False


def keep_generated_code(path: str) -> None:
    """Code the standard library writes as source text and compiles at every start: the
    dataclasses' functions for each class (``__init__``, ``__eq__``, ``__hash__`` ...), typing's
    forward references (a NamedTuple's annotations, strings under ``from __future__ import
    annotations``) and each named tuple's ``__new__`` (collections.namedtuple). The code is kept
    in the file ``path``, keyed by the very text, and a text seen before is run from its kept code:
    the same function, without the compiling. New code is written at exit (every process's exit
    functions run, cli.run)."""
    import atexit
    import builtins
    import collections
    import dataclasses
    import marshal

    try:
        with open(path, "rb") as stream:
            kept = marshal.loads(stream.read())  # marshal.load would read the file item by item
    except (OSError, EOFError, ValueError, TypeError):
        kept = {}
    if not isinstance(kept, dict):
        kept = {}
    used: dict[tuple[str, str], typing.Any] = {}

    def compiled(source: str, mode: str) -> typing.Any:
        key = (mode, source)
        code = used.get(key) or kept.get(key)
        used[key] = code = code or builtins.compile(source, "<string>", mode, dont_inherit=True)
        return code

    def exec_kept(source: typing.Any, *args: typing.Any, **kwargs: typing.Any) -> None:
        # only text run in namespaces of its own (a generated function's): the code is the same
        if isinstance(source, str) and args and isinstance(args[0], dict):
            source = compiled(source, "exec")
        builtins.exec(source, *args, **kwargs)

    def eval_kept(source: typing.Any, *args: typing.Any, **kwargs: typing.Any) -> typing.Any:
        # a named tuple's __new__ is a lambda evaluated in a namespace of its own
        if isinstance(source, str) and args and isinstance(args[0], dict):
            source = compiled(source, "eval")
        return builtins.eval(source, *args, **kwargs)

    def compile_kept(
        source: typing.Any, filename: str, mode: str, *args: typing.Any, **kwargs: typing.Any
    ) -> typing.Any:
        if isinstance(source, str) and filename == "<string>" and not args and not kwargs:
            return compiled(source, mode)
        return builtins.compile(source, filename, mode, *args, **kwargs)

    def store() -> None:
        if used.keys() <= kept.keys():
            return
        everything = {**kept, **used} if len(kept) + len(used) <= KEPT_FUNCTIONS else used
        temporary = f"{path}.{os.getpid()}.tmp"
        try:
            with open(temporary, "wb") as stream:
                marshal.dump(everything, stream)
            os.replace(temporary, path)  # whole or not at all, whoever else writes it
        except OSError:
            pass

    setattr(dataclasses, "exec", exec_kept)  # noqa: B010 - each module's own name for the builtin
    setattr(typing, "compile", compile_kept)  # noqa: B010
    setattr(collections, "eval", eval_kept)  # noqa: B010
    atexit.register(store)


def run() -> None:
    """The ``melds`` command as a process of its own (solver.commands.group.run), what it compiles
    kept first (:func:`keep_compiled`). The cyclic garbage collector is paused while the process
    starts: its imports and its ruleset's load make objects that last, not garbage, and the
    collections they set off walked them all; the command resumes it when its own work begins
    (solver.core.gcpause.start_done)."""
    gc.disable()
    keep_compiled()
    from solver.commands.group import run as run_command

    run_command()


def __getattr__(name: str) -> typing.Any:
    """``main``, the click group, for in-process callers (tests, scripts): imported when asked, so
    that an in-process caller's interpreter is left as it was (no bytecode folder chosen)."""
    if name == "main":
        from solver.commands.group import main

        return main
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["keep_bytecode", "keep_compiled", "keep_generated_code", "run"]  # and main, through __getattr__

if __name__ == "__main__":
    run()
