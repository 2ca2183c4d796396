"""``--batch``: JSON Lines in, exactly one JSON line out for every line in, in order, whatever a
line holds; ``--jobs N`` answers them in N worker processes, the order kept.

A line is read as bytes (at most :data:`~solver.core.limits.BATCH_LINE_BYTES`), decoded as UTF-8,
parsed as one JSON object of bounded depth and handed to the command; anything wrong with it —
not UTF-8, a NUL, not JSON, nested too deep, a key of the wrong type, a card that does not exist,
even a fault of melds itself — becomes ``{"line": n, "error": {"code", "message"}}`` for that line
alone, and the batch goes on. An empty line gets ``{"line": n, "skipped": "empty line"}``. The
batch's exit code is the worst of its lines' (docs/errors.md).
"""

from __future__ import annotations

import itertools
import json
import os
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any, BinaryIO, TypeVar

import click

from solver.core import limits
from solver.core.errors import BadJson, ExitCode, InternalError, MeldsError, Undecided, Unreadable
from solver.core.gcpause import keep_loaded
from solver.core.inputs import open_input
from solver.core.requests import describe
from solver.present.render import json_text
from solver.sat.budget import count_from

T = TypeVar("T")
R = TypeVar("R")
Handle = Callable[[dict], "tuple[dict, int]"]

FLUSH_EVERY = 0.1  # seconds: fast answers are written together, at most this far apart
SLOW_LINE = 0.002  # seconds: a line this slow is written at once (a write costs nothing beside it)
_LONG = object()  # a line past the limit (its bytes are skipped)
_ENDLESS = object()  # a line with no end in sight: reading stops there


def open_batch(name: str) -> BinaryIO:
    """The batch's byte stream: a file, or standard input for ``-``."""
    if name == "-":
        if sys.stdin is None or sys.stdin.closed:
            raise Unreadable("--batch -: standard input is closed")
        return sys.stdin.buffer
    try:
        return open_input(name, "file of JSON Lines")  # read to the end by run_batch
    except Unreadable as exc:
        raise Unreadable(f"--batch {exc}") from None


def read_lines(stream: BinaryIO) -> Iterator[tuple[int, Any]]:
    """(line number, raw bytes) for each line, lazily; a line longer than the limit is skipped to
    its end and given as ``_LONG``, one with no end within 16 times the limit as ``_ENDLESS``."""
    number = 0
    cap = limits.BATCH_LINE_BYTES
    while True:
        try:
            raw = stream.readline(cap + 1)
        except OSError as exc:
            raise Unreadable(f"--batch: cannot read line {number + 1} ({exc.strerror or exc})") from None
        if not raw:
            return
        number += 1
        if len(raw) <= cap or raw.endswith(b"\n"):
            yield number, raw
            continue
        skipped = len(raw)
        while not raw.endswith(b"\n") and raw:
            if skipped > 16 * cap:
                yield number, _ENDLESS
                return
            raw = stream.readline(cap)
            skipped += len(raw)
        yield number, _LONG


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def parse_line(raw: Any) -> dict | None:
    """One line's request (None for an empty line); :class:`BadJson` says what is wrong with it."""
    mib = limits.BATCH_LINE_BYTES // limits.MIB
    if raw is _LONG:
        raise BadJson(f"the line is longer than {mib} MiB: no request is that long")
    if raw is _ENDLESS:
        raise BadJson(f"the line runs past {16 * mib} MiB with no end of line: the rest of the input is not read")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadJson(f"not UTF-8 text: byte 0x{raw[exc.start]:02x} at column {exc.start + 1}") from None
    text = text.lstrip("\ufeff")
    if not text.strip():
        return None
    if "\x00" in text:
        raise BadJson(f"a NUL character at column {text.index(chr(0)) + 1}: a request is JSON text")
    try:
        value = _DECODER.decode(text)
    except RecursionError:
        raise BadJson("JSON nested too deeply") from None
    except json.JSONDecodeError as exc:  # where in the line, not json's "line 2 column 1" of a line and its end
        where = "at the end of the line" if exc.pos >= len(text.rstrip()) else f"at column {exc.pos + 1}"
        raise BadJson(f"not JSON: {exc.msg} {where}") from None
    except ValueError as exc:  # an integer of more than 4,300 digits
        raise BadJson(f"not JSON: {exc}") from None
    if not isinstance(value, dict):
        raise BadJson(f"each line must be one JSON object (a request), got {describe(value)}")
    if text.count("{") + text.count("[") > limits.JSON_DEPTH:  # fewer brackets cannot nest deeper
        _check_depth(value)
    return value


_DECODER = json.JSONDecoder(parse_constant=_no_constant)  # made once: json.loads would make one a line


def _check_depth(value: Any) -> None:
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > limits.JSON_DEPTH:
            raise BadJson(f"JSON nested more than {limits.JSON_DEPTH} levels deep: no request is")
        children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))


def guarded(work: Callable[..., tuple[dict, int]], *args: Any) -> tuple[dict, int]:
    """``work(*args)``'s (result, code); an input error, a budget that ran out inside, or a fault of
    melds itself become an error result instead of ending the batch (MELDS_DEBUG=1 shows faults)."""
    try:
        return work(*args)
    except MeldsError as exc:
        return {"error": exc.to_json()}, exc.exit_code
    except Undecided:
        return {"undecided": True}, ExitCode.UNDECIDED
    except Exception as exc:  # noqa: BLE001 - one line's fault must not end the batch
        if os.environ.get("MELDS_DEBUG"):
            raise
        return {"error": internal_error(exc).to_json()}, ExitCode.BAD_INPUT


def internal_error(exc: BaseException) -> InternalError:
    detail = str(exc)
    detail = detail if len(detail) <= 200 else detail[:197] + "…"
    return InternalError(
        f"melds could not answer this ({type(exc).__name__}: {detail}); please report it with the input"
    )


def answer_line(handle: Handle, item: tuple[int, Any]) -> tuple[dict, int]:
    number, raw = item
    result, code = guarded(_answer_raw, handle, raw)
    return {"line": number, **result}, code


def _answer_raw(handle: Handle, raw: Any) -> tuple[dict, int]:
    request = parse_line(raw)
    if request is None:
        return {"skipped": "empty line"}, ExitCode.YES
    return handle(request)


def run_batch(name: str, handle: Handle, jobs: int = 1) -> ExitCode:
    """Answer every line of the batch ``name`` (``-``: stdin), print each answer as it comes, in
    order, and return the worst exit code."""
    stream = open_batch(name)
    worst = ExitCode.YES
    answers = ordered_map(lambda item: answer_line(handle, item), read_lines(stream), jobs, died=_died_line)
    # fast answers are written in groups, at most FLUSH_EVERY seconds apart and at the end: an echo
    # (a write and a flush, system calls) a line was a twentieth of a fast mahjong batch's time;
    # a slow line's answer (and any waiting before it) is written as it comes
    pending: list[str] = []
    kept = False
    flushed = last = time.monotonic()
    try:
        with click.progressbar(answers, label="answering", file=sys.stderr, show_pos=True) as progress:
            for result, code in progress:
                if not kept:
                    keep_loaded()  # the first line has loaded the ruleset and its game: kept for good
                    kept = True
                pending.append(json_text(result))
                if code != worst:
                    worst = ExitCode.worst((worst, code))
                now = time.monotonic()
                if now - flushed > FLUSH_EVERY or now - last > SLOW_LINE:
                    click.echo("\n".join(pending))
                    pending.clear()
                    flushed = now
                last = now
    finally:
        if pending:
            click.echo("\n".join(pending))
    return worst


def _died_line(item: tuple[int, Any]) -> tuple[dict, int]:
    error = InternalError("the worker process answering this line died (out of memory, or killed)")
    return {"line": item[0], "error": error.to_json()}, ExitCode.BAD_INPUT


# -- the pool ----------------------------------------------------------------------------------------

_work: Callable[[Any], Any] | None = None  # what a forked worker runs (set before the pool forks)


CHUNK_SECONDS = 0.05  # a chunk's work once items are timed: the pipe's cost a chunk (about 1 ms) stays small


def _run_chunk(chunk: list) -> tuple[list, float]:
    """The chunk's answers and the seconds they took (the parent sizes the next chunks by them)."""
    assert _work is not None
    start = time.perf_counter()
    return [_work(item) for item in chunk], time.perf_counter() - start


def ordered_map(
    work: Callable[[T], R], items: Iterable[T], jobs: int = 1, chunk: int = 8, died: Callable[[T], R] | None = None
) -> Iterator[R]:
    """``work`` over ``items``, lazily and in order; with ``jobs`` > 1 in that many forked worker
    processes (each inherits the compiled game), a bounded window of chunks in flight: one item a
    chunk until items are timed, then as many as take about :data:`CHUNK_SECONDS`, at most
    ``chunk`` (four table turns in one chunk of eight once ran on one worker, the other idle). ``work``
    must not raise (wrap it with :func:`guarded`). A worker that dies (killed, out of memory) takes
    its chunk with it: each item of it is tried again alone, and one that kills a worker again
    gets ``died(item)``. Where processes cannot fork, one process. Each item's budget counts from
    its own start, not the process's."""
    count_from(None)
    if jobs > 1:
        import multiprocessing  # only a pool pays for it
        from concurrent.futures import ProcessPoolExecutor
        from concurrent.futures.process import BrokenProcessPool
    if jobs <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        for item in items:
            yield work(item)
        return
    global _work
    _work = work
    context = multiprocessing.get_context("fork")
    source = iter(items)
    window: deque = deque()  # (chunk, future, alone: a retried single item)
    pool = ProcessPoolExecutor(jobs, mp_context=context)
    size = 1  # items a chunk: one until the first answers say how long an item takes
    try:
        while True:
            while len(window) < 4 * jobs:
                block = list(itertools.islice(source, size))
                if not block:
                    break
                window.append((block, pool.submit(_run_chunk, block), False))
            if not window:
                return
            block, future, alone = window.popleft()
            try:
                results, seconds = future.result()
                size = max(1, min(chunk, int(CHUNK_SECONDS * len(block) / max(seconds, 1e-6))))
            except BrokenProcessPool:
                pool.shutdown(cancel_futures=True)
                pool = ProcessPoolExecutor(jobs, mp_context=context)
                again = [] if alone else [([item], True) for item in block]
                again += [(b, a) for b, _, a in window]
                window.clear()
                window.extend((b, pool.submit(_run_chunk, b), a) for b, a in again)
                if not alone:
                    continue
                results = [died(item) if died else work(item) for item in block]
            yield from results
    finally:
        pool.shutdown(cancel_futures=True)
