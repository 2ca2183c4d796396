"""Work that builds a large heap runs without the cyclic garbage collector's full collections.

A full collection walks every object the process holds. Python starts one each time the objects
that survived younger collections have grown by a quarter: while a heap grows from nothing to
millions of objects — a 40-card table's forms (some 10^5 layouts and moves), the turn model's 10^5
clause lists, a dictionary's 150,000 words — that is a full walk of it every few percent of its
growth (a large part of a table's search of forms: docs/performance.md). The young collections go
on as before, so the cyclic
garbage such work makes (a recursive closure's frame, a cache that holds its owner: on that turn
over a million objects) is still freed as it goes, not left for later; what reaches the old
generation meanwhile waits for the next full collection after the block.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager

NEVER = 2**31 - 1  # collections of the middle generation before a full one: never, in a block
_OWN_PROCESS = False  # the process is melds' own command line: what it has loaded lasts to its end
_START_PAUSED = False  # the collector was paused for the process's start (cli.run): start_done resumes it


def own_process() -> None:
    """The process is melds' own (the command line, not an in-process caller such as the tests):
    :func:`keep_loaded` may move its heap out of the collector's walks, and a collector paused by
    the command's start (cli.run) is resumed by :func:`start_done`."""
    global _OWN_PROCESS, _START_PAUSED
    _OWN_PROCESS = True
    _START_PAUSED = not gc.isenabled()


def start_done() -> None:
    """The process's start is over — its imports, its command line read, its ruleset loaded — and
    the command's own work begins. The command line pauses the collector for the start (cli.run):
    the start's objects (modules, classes, the compiled ruleset) are not garbage, yet the
    collections they set off walked them again and again. What the start made is moved out of the
    collector's walks (``gc.freeze``) and the collector runs again, so the command's work is
    collected as before."""
    global _START_PAUSED
    if _START_PAUSED:
        _START_PAUSED = False
        gc.freeze()
        gc.enable()


def keep_loaded() -> None:
    """What melds' own process holds now lasts to its end (a batch's ruleset and compiled game, as
    its first line leaves them): moved out of the cyclic collector's generations (``gc.freeze``),
    so that no later collection walks it again (each walk of a loaded game costs tens of
    milliseconds, as much as a hundred small answers of a batch). An in-process caller's heap is
    its own: left alone."""
    if _OWN_PROCESS:
        gc.freeze()


def no_full_collections() -> AbstractContextManager[None]:
    """No full collection in the block (the thresholds restored after it, whatever happens: a block
    within a block leaves the outer one as it was)."""
    return _NoFullCollections()


class _NoFullCollections:
    """:func:`no_full_collections`'s block: a class, as it is entered for every turn solved (a
    generator's context manager costs microseconds to make, a part of a small hand's answer)."""

    __slots__ = ("thresholds",)

    def __enter__(self) -> None:
        self.thresholds = young, middle, _ = gc.get_threshold()
        gc.set_threshold(young, middle, NEVER)

    def __exit__(self, *exc: object) -> None:
        gc.set_threshold(*self.thresholds)


@contextmanager
def no_collections() -> Iterator[None]:
    """No collection at all in the block: for work whose objects are in no reference cycle (lists of
    clauses, a dictionary's entries), where even the young collections only walk what reference
    counting frees anyway. Left as it was after
    (a caller's own pause goes on)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
