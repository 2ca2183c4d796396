"""A list of independent items worked through by this process and forked ones together, each
taking the next item nobody has taken, the answers given in order.

This process is one of the workers: ``jobs`` processes on ``jobs`` cores, not ``jobs`` workers
and a parent that waits. The others are forks of it, started after it has loaded what the work
needs (a ruleset compiled, a game's tables read), so each begins with all of that. An item is
taken under a lock (``lockf`` on a file: the kernel lets it go if its holder dies), one at a time:
a few microseconds against milliseconds of work, and no worker is left with a long share while
another idles at the end. A child sends back each item's answer (pickled, through a pipe of its
own); this process works its own items, reads what has come between them, and gives the answers
in the items' order. A child that dies (killed, out of memory) has the item it held worked here.
The items are a :class:`SpooledNames` (strings kept in a file, not in memory): every process reads
the same list, and memory stays flat in its length. POSIX only (:data:`AVAILABLE`).
"""

from __future__ import annotations

import contextlib
import fcntl
import mmap
import os
import pickle
import select
import signal
import struct
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, BinaryIO, Generic, TypeVar

AVAILABLE = hasattr(os, "fork")
PIPE_BYTES = 1 << 20  # a child's pipe (where the system allows it): answers wait there, the child goes on
_WORD = struct.Struct("q")
_SPAN = struct.Struct("qq")

R = TypeVar("R")


class SpooledNames(Sequence[str]):
    """Strings kept in a file, read back by index (``pread``: no shared position, so forked
    processes read the same file at once), with a second file of where each ends. Made by
    :func:`spooled`."""

    def __init__(self, names: Iterable[str], text: BinaryIO, ends: BinaryIO):
        self._text, self._ends = text.fileno(), ends.fileno()
        end, spans = 0, bytearray(_WORD.pack(0))
        for name in names:
            data = name.encode("utf-8", "surrogateescape")
            text.write(data)
            end += len(data)
            spans += _WORD.pack(end)
        ends.write(spans)
        text.flush()
        ends.flush()
        self._count = len(spans) // _WORD.size - 1

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, index: int) -> str:  # type: ignore[override]  # one item, no slices
        if not 0 <= index < self._count:
            raise IndexError(index)
        start, end = _SPAN.unpack(os.pread(self._ends, _SPAN.size, index * _WORD.size))
        return os.pread(self._text, end - start, start).decode("utf-8", "surrogateescape")


@contextmanager
def spooled(names: Iterable[str]) -> Iterator[SpooledNames]:
    """``names`` as a :class:`SpooledNames`, its files deleted after the block."""
    with tempfile.TemporaryFile() as text, tempfile.TemporaryFile() as ends:
        yield SpooledNames(names, text, ends)


class _Claims:
    """The next item not yet taken, and the one each process took last, in memory the forks share
    (``memory``, anonymous: one copy for all), taken under a lock on ``lock``."""

    def __init__(self, memory: mmap.mmap, lock: BinaryIO):
        self._memory, self._lock = memory, lock
        for offset in range(_WORD.size, len(memory), _WORD.size):
            _WORD.pack_into(memory, offset, -1)

    def take(self, process: int) -> int:
        """The next item, for ``process`` (0: this one), noted as its own before the count moves on:
        should it die after, the item is known (and at worst worked twice, never lost)."""
        fcntl.lockf(self._lock, fcntl.LOCK_EX)
        try:
            index = int(_WORD.unpack_from(self._memory, 0)[0])
            _WORD.pack_into(self._memory, _WORD.size * (1 + process), index)
            _WORD.pack_into(self._memory, 0, index + 1)
        finally:
            fcntl.lockf(self._lock, fcntl.LOCK_UN)
        return index

    def held_by(self, process: int) -> int:
        """The item ``process`` took last (-1: none)."""
        return int(_WORD.unpack_from(self._memory, _WORD.size * (1 + process))[0])


@dataclass(frozen=True)
class _Child:
    pid: int
    number: int  # its place among the processes taking items (this one is 0)


def shared_map(work: Callable[[str], R], items: SpooledNames, jobs: int) -> Iterator[R]:
    """``work(item)`` for every item, in order, by this process and ``jobs - 1`` forks of it. ``work``
    must not raise (an item's failure is its answer); its answers must pickle."""
    if jobs <= 1 or len(items) <= 1 or not AVAILABLE:
        yield from map(work, items)
        return
    children: dict[int, _Child] = {}  # by the pipe its answers come through
    with mmap.mmap(-1, _WORD.size * (1 + jobs)) as memory, tempfile.TemporaryFile() as lock:
        claims = _Claims(memory, lock)
        try:
            yield from _forked(work, items, claims, children, jobs)
        finally:
            for pipe, child in children.items():  # only when stopped early: the others are gone
                os.close(pipe)
                os.kill(child.pid, signal.SIGKILL)
                os.waitpid(child.pid, 0)


def _forked(
    work: Callable[[str], R], items: SpooledNames, claims: _Claims, children: dict[int, _Child], jobs: int
) -> Iterator[R]:
    """The children forked (each with a pipe for its answers, noted in ``children``), then this
    process's own share and the answers in order."""
    for number in range(1, min(jobs, len(items))):
        read, write = os.pipe()
        _widen(write)
        pid = os.fork()
        if pid == 0:
            os.close(read)
            for other in children:
                os.close(other)
            _serve(work, items, claims, number, write)
        os.close(write)
        children[read] = _Child(pid, number)
    yield from _Gathering(work, items, claims, children).answers()


def _serve(work: Callable[[str], R], items: SpooledNames, claims: _Claims, number: int, out: int) -> None:
    """A child's life: items taken and worked until none is left, each answer sent; then it leaves
    (``os._exit``: none of its parent's exit handlers or buffered output run twice)."""
    code = 1
    try:
        while (index := claims.take(number)) < len(items):
            payload = pickle.dumps((index, work(items[index])), pickle.HIGHEST_PROTOCOL)
            _write_all(out, _WORD.pack(len(payload)) + payload)
        code = 0
    finally:
        os._exit(code)


class _Gathering(Generic[R]):
    """This process's side: its own items worked, the children's answers read between them, every
    answer given in order."""

    def __init__(self, work: Callable[[str], R], items: SpooledNames, claims: _Claims, children: dict[int, _Child]):
        self.work, self.items, self.claims, self.children = work, items, claims, children
        self.ready: dict[int, R] = {}
        self.given = 0  # the answers given so far: the next one to give
        self.poll = select.poll()
        for pipe in children:
            self.poll.register(pipe, select.POLLIN)

    def answers(self) -> Iterator[R]:
        taking = True
        while self.given < len(self.items):
            if self.given in self.ready:
                yield self.ready.pop(self.given)
                self.given += 1
                continue
            index = self.claims.take(0) if taking else len(self.items)
            if index < len(self.items):
                self.ready[index] = self.work(self.items[index])
                self._read(wait=False)
            elif self.children:
                taking = False
                self._read(wait=True)
            else:  # every child gone and this answer never came: worked here
                self.ready[self.given] = self.work(self.items[self.given])

    def _read(self, wait: bool) -> None:
        """Every answer that has come (with ``wait``, at least one, or a child's end)."""
        events = self.poll.poll(None if wait else 0)
        while events:
            for pipe, _ in events:
                answer = _read_answer(pipe)
                if answer is None:
                    self._ended(pipe)
                elif answer[0] >= self.given:
                    self.ready[answer[0]] = answer[1]
            events = self.poll.poll(0) if self.children else []

    def _ended(self, pipe: int) -> None:
        """A child's pipe closed: it has taken all it will. Had it died holding an item, that item is
        worked here now."""
        child = self.children.pop(pipe)
        self.poll.unregister(pipe)
        os.close(pipe)
        os.waitpid(child.pid, 0)
        held = self.claims.held_by(child.number)
        if self.given <= held < len(self.items) and held not in self.ready:
            self.ready[held] = self.work(self.items[held])


def _read_answer(pipe: int) -> tuple[int, Any] | None:
    """One answer from a child's pipe, or None at its end (or a message cut short by its death)."""
    head = _read_exactly(pipe, _WORD.size)
    if head is None:
        return None
    payload = _read_exactly(pipe, _WORD.unpack(head)[0])
    return None if payload is None else pickle.loads(payload)


def _read_exactly(pipe: int, size: int) -> bytes | None:
    parts, left = [], size
    while left:
        part = os.read(pipe, left)
        if not part:
            return None
        parts.append(part)
        left -= len(part)
    return b"".join(parts)


def _write_all(pipe: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(pipe, view) :]


def _widen(pipe: int) -> None:
    """A pipe that holds :data:`PIPE_BYTES`, where the system allows it (Linux), so that a child
    seldom waits for this process to read."""
    setting = getattr(fcntl, "F_SETPIPE_SZ", None)
    if setting is not None:
        with contextlib.suppress(OSError):  # above the system's limit for a user: the pipe as it is
            fcntl.fcntl(pipe, setting, PIPE_BYTES)
