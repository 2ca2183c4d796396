"""A query's budget: one deadline and one memory ceiling, enforced inside SAT calls and between steps.

``--max-seconds`` and ``--max-memory`` become one :class:`Budget` per query. Three things keep it:

* :meth:`Budget.run` runs a solver call with a watchdog that interrupts the solver when the
  deadline passes or the process grows past the memory ceiling (python-sat's interruptible
  ``solve_limited``), so the call returns and the caller raises :class:`Undecided`;
* :meth:`Budget.check`, called between steps (each candidate, each verification, each search
  state), raises :class:`Undecided` once either limit is spent;
* :meth:`Budget.guarding`, around a whole query, is the safety net for Python work that does not
  check (building a large model, say): its watchdog raises :class:`Undecided` in the main thread
  through a signal, at most once per query.

A solver that catches :class:`Undecided` answers with the best it found so far and its bound; the
command line exits 3. The memory ceiling is the process's resident size (what the machine gives
it), read from ``/proc/self/statm`` where there is one.
"""

from __future__ import annotations

import gc
import os
import signal
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from types import FrameType
from typing import Protocol, TypeVar

from solver.core.errors import Undecided

T = TypeVar("T")


class Interruptible(Protocol):
    """A solver call that a watchdog thread can end early."""

    def interrupt(self) -> None: ...


POLL = 0.02  # seconds between two looks of a watchdog: the slack of a limit, well under the 0.5 s allowed
GUARD_SLACK = 0.25  # the guard fires this much after the deadline: the solvers' own ending comes first
_default_memory: int | None = None  # bytes; set once by the command line (--max-memory)
_origin: float | None = None  # perf_counter time every budget with a deadline counts from (None: its own)


def count_from(origin: float | None) -> None:
    """Every budget made with a deadline from now on counts its seconds from ``origin`` (a
    perf_counter time), not from when it is made; None: each from when it is made. The command
    line gives the process's start: ``--max-seconds 10`` is the whole command's time as its user
    measures it — start-up, reading the ruleset and loading a state included, and any budget a
    game makes before the one its query runs under. A batch or a folder of puzzles clears it
    first: each line, each puzzle its own time."""
    global _origin
    _origin = origin


def process_start() -> float:
    """When this process started, on the perf_counter clock (Linux: from /proc/self/stat, to the
    kernel's clock tick); where that cannot be read, now."""
    now = time.perf_counter()
    try:
        with open("/proc/self/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
        started = int(fields[19]) / os.sysconf("SC_CLK_TCK")  # field 22: seconds after boot
        age = time.clock_gettime(time.CLOCK_BOOTTIME) - started
    except (OSError, ValueError, IndexError, AttributeError):
        return now
    return now - age if 0 <= age < 60 else now  # a clock that disagrees: count from now


def set_default_memory(limit: int | None) -> None:
    """The memory ceiling of every budget made without one (the command line's ``--max-memory``)."""
    global _default_memory
    _default_memory = limit


def resident_bytes() -> int:
    """The process's resident size now (its peak where the system tells no more)."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
MEMORY_READ_EVERY = 0.005  # seconds between two reads of the resident size by the budgets' checks
_resident_read: tuple[float, int] = (-MEMORY_READ_EVERY, 0)  # (when, bytes): the last reading


def _resident_lately() -> int:
    """The resident size, read at most every :data:`MEMORY_READ_EVERY` seconds for the whole process
    (reading /proc is dear; every budget of a batch, and the guard's looks, share one reading)."""
    global _resident_read
    now = time.perf_counter()
    if now - _resident_read[0] >= MEMORY_READ_EVERY:
        _resident_read = (now, resident_bytes())
    return _resident_read[1]


class Budget:
    """The limits of one query: ``seconds`` (None: no deadline) and ``memory`` in bytes (None: the
    command line's default, see :func:`set_default_memory`; 0: none)."""

    def __init__(self, seconds: float | None = None, memory: int | None = None):
        self.start = time.perf_counter()
        if seconds is not None and _origin is not None:
            self.start = min(_origin, self.start)
        self.seconds = seconds
        self.deadline = None if seconds is None else self.start + seconds
        self.memory = _default_memory if memory is None else (memory or None)
        self.spent: str | None = None  # "time" or "memory" once a limit ran out
        self._reported = False  # an Undecided was raised for this budget
        self._active: list[Interruptible] = []  # solvers running under this budget now (for the guard)
        self._guard: _Watch | None = None  # the query's guard while it keeps the limits

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    @property
    def limited(self) -> bool:
        return self.deadline is not None or self.memory is not None

    def left(self) -> float | None:
        """Seconds left, or None without a deadline."""
        return None if self.deadline is None else self.deadline - time.perf_counter()

    def part(self, share: float) -> Budget:
        """A budget for a part of this query: the same memory ceiling and start (its answers'
        seconds are the query's), and a deadline ``share`` of the time left from now (a query with
        none: none). Its own limits end only the part; this budget's guard, if any, still keeps
        the whole query's."""
        part = Budget(memory=self.memory or 0)
        part.start = self.start
        left = self.left()
        if left is not None:
            part.deadline = time.perf_counter() + share * max(left, 0.0)
            part.seconds = part.deadline - part.start
        return part

    def in_child(self, working: int = 2) -> Budget:
        """The budget of a forked child working beside the query (:mod:`solver.core.forked`): the
        same deadline, and a ``working``-th share of the memory left below the ceiling, for as
        many processes at work at once (two children racing while the parent waits; a child
        walking beside the parent). A child starts with the parent's pages (its resident size
        counts them too): its ceiling is that size and its share, so what the children add stays
        within what the query had left."""
        part = self.part(1.0)
        if part.memory is not None:
            now = resident_bytes()
            part.memory = now + max(0, part.memory - now) // working
        return part

    def grace(self) -> float:
        """Seconds a query past its limit may still wait for work that ends itself (a forked child
        under its own budget) and keep the promise of ``--max-seconds``: the deadline, plus a
        tenth of the time and 0.5 s, less a margin for the answer's own output. A query without a
        deadline (its memory spent): half a second."""
        if self.deadline is None or self.seconds is None:
            return 0.5
        return max(0.0, self.deadline + 0.1 * self.seconds + 0.4 - time.perf_counter())

    def _over(self, slack: float = 0.0) -> str | None:
        """Which limit is spent now, if any."""
        if self.spent:
            return self.spent
        if self.deadline is not None and time.perf_counter() >= self.deadline + slack:
            return "time"
        if self.memory is not None and _resident_lately() > self.memory:
            return "memory"
        return None

    def undecided(self) -> Undecided:
        """The exception for a spent budget (it says which limit ran out)."""
        self._reported = True
        what = self.spent or "time"
        if what == "memory" and self.memory is not None:
            return Undecided(
                f"the memory ceiling ({self.memory / 2**20:.0f} MiB) was reached before an answer (raise --max-memory)"
            )
        return Undecided(f"the time ran out after {self.elapsed:.1f} s before an answer (raise --max-seconds)")

    def check(self) -> None:
        """Raise :class:`Undecided` once a limit is spent."""
        if not self.limited:
            return
        spent = self._over()
        if spent:
            self.spent = spent
            raise self.undecided()

    def run(self, interruptible: Interruptible, call: Callable[[], T]) -> T:
        """Run ``call`` while a watchdog interrupts ``interruptible`` (a solver) when a limit runs
        out; the caller sees the interrupted result and raises :meth:`undecided`."""
        if not self.limited:
            return call()
        self.check()
        if self._guard is not None:  # the query's guard watches: it interrupts the active solvers
            self._active.append(interruptible)
            try:
                return call()
            finally:
                self._active.remove(interruptible)
        done = threading.Event()

        def watch() -> None:
            while not done.wait(POLL):
                spent = self._over()
                if spent:
                    self.spent = spent
                    interruptible.interrupt()
                    return

        watchdog = threading.Thread(target=watch, daemon=True)
        watchdog.start()
        try:
            return call()
        finally:
            done.set()

    @contextmanager
    def guarding(self) -> Iterator[Budget]:
        """Keep the limits for the whole query, Python work included: past a limit the running
        solvers are interrupted and, if nothing has raised :class:`Undecided` yet, the main thread
        gets one (through SIGALRM's handler; elsewhere than the main thread only the solvers
        are interrupted and the steps' :meth:`check` ends the query)."""
        if not self.limited or self._guard is not None:
            yield self
            return
        main = threading.current_thread() is threading.main_thread() and hasattr(signal, "pthread_kill")
        watch = _Watch(self, main)

        def handler(signum: int, frame: FrameType | None) -> None:  # runs in the main thread between two bytecodes
            if watch.fired and not self._reported and not watch.done and not unraisable_at(frame):
                raise self.undecided()

        previous = signal.signal(signal.SIGALRM, handler) if main else None
        self._guard = watch
        _watcher.add(watch)
        try:
            yield self
        finally:
            _watcher.remove(watch)  # no signal is sent for this query from here on
            self._guard = None
            if main:
                signal.signal(signal.SIGALRM, previous if previous is not None else signal.SIG_DFL)

    def alarm(self) -> AbstractContextManager[Budget]:
        """The deadline for a short piece of Python work that calls no solver (a small hand's
        packings): a one-shot timer whose signal raises :class:`Undecided` in the main thread at
        the deadline — no watchdog thread to start. The memory ceiling is left to :meth:`check`.
        Elsewhere than the main thread, only :meth:`check` keeps the limits. With no deadline,
        nothing to set (the block is entered for every small hand of a batch)."""
        if self.deadline is None:
            return nullcontext(self)
        return self._alarm()

    @contextmanager
    def _alarm(self) -> Iterator[Budget]:
        left = self.left()
        main = threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")
        if left is None or not main or self._guard is not None:
            yield self
            return
        self.check()

        def handler(signum: int, frame: FrameType | None) -> None:
            if unraisable_at(frame):
                signal.setitimer(signal.ITIMER_REAL, POLL)  # raised there it would be dropped: a little later
            elif not self._reported:
                self.spent = self.spent or "time"
                raise self.undecided()

        previous = signal.signal(signal.SIGALRM, handler)
        signal.setitimer(signal.ITIMER_REAL, max(left, 1e-6))
        try:
            yield self
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous if previous is not None else signal.SIG_DFL)


def unraisable_at(frame: FrameType | None) -> bool:
    """Is ``frame`` inside a finaliser, a weak reference's callback or a collector's callback
    (``gc.callbacks``: Hypothesis times collections with one), all run by the collector between
    any two bytecodes, itself or a function it called (python-sat's ``__del__`` calls ``delete``)?
    Python prints and drops an exception raised there, so the guard's signal raises nothing in it:
    the watcher signals again at its next look, a one-shot alarm is set again."""
    collector_calls = {getattr(callback, "__code__", None) for callback in gc.callbacks}
    while frame is not None:
        code = frame.f_code
        if code.co_name == "__del__" or code.co_filename == weakref.__file__ or code in collector_calls:
            return True
        frame = getattr(frame, "f_back", None)
    return False


class _Watch:
    """One guarded query, as the process's watcher thread looks at it (under the watcher's lock):
    past a limit its running solvers are interrupted, and :data:`GUARD_SLACK` later, if nothing
    has raised :class:`Undecided` yet, the main thread gets SIGALRM (a query guarded elsewhere
    than in the main thread: only the interrupt)."""

    def __init__(self, budget: Budget, main: bool):
        self.budget = budget
        self.main = main
        self.fired = False  # SIGALRM was sent for this query
        self.done = False  # the query has ended: nothing more is sent
        self.interrupted_at: float | None = None

    def look(self, now: float) -> bool:
        """One look; False once nothing is left to do for this query."""
        budget = self.budget
        if self.interrupted_at is None:
            spent = budget._over()
            if not spent:
                return True
            budget.spent = spent
            for solver in list(budget._active):  # a solver's own ending gives its best so far
                solver.interrupt()
            self.interrupted_at = now
            return self.main and not budget._reported
        if now < self.interrupted_at + GUARD_SLACK:
            return True
        if not budget._reported:
            self.fired = True  # Python work that does not check: end it from outside
            main_thread = threading.main_thread().ident
            assert main_thread is not None  # the main thread has started
            signal.pthread_kill(main_thread, signal.SIGALRM)
            return True  # sent again at each look until one raise is taken (not one the collector drops)
        return False


class _Watcher:
    """The process's one watchdog thread for the guarded queries: started with the first, it looks
    at each query in force every :data:`POLL` seconds and sleeps while there is none. One thread
    for the process, not one a query: a batch's lines do not each wait for a thread to start and
    to be joined."""

    def __init__(self) -> None:
        self._wake = threading.Condition()
        self._watches: list[_Watch] = []
        self._thread: threading.Thread | None = None
        self._idle = False  # the thread sleeps until a query comes

    def add(self, watch: _Watch) -> None:
        with self._wake:
            self._watches.append(watch)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, daemon=True, name="melds-budget-guard")
                self._thread.start()
            elif self._idle:
                self._wake.notify()

    def remove(self, watch: _Watch) -> None:
        with self._wake:
            watch.done = True
            if watch in self._watches:
                self._watches.remove(watch)

    def _run(self) -> None:
        with self._wake:
            while True:
                self._idle = not self._watches
                self._wake.wait(None if self._idle else POLL)
                now = time.perf_counter()
                for watch in list(self._watches):
                    if not watch.look(now):
                        self._watches.remove(watch)


_watcher = _Watcher()


def _new_watcher() -> None:
    """A forked child has no watcher thread (and maybe a lock its parent's thread held): a new one."""
    global _watcher
    _watcher = _Watcher()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_new_watcher)
