"""A query's time budget: one deadline, checked between steps and enforced inside SAT calls.

``--max-seconds`` becomes one :class:`Budget` per query; every solver call of the query runs
under it (a timer interrupts the call at the deadline) and every step checks it, so an answer
comes back as :class:`~solver.core.errors.Undecided` (exit 3) when the time is up.
"""

from __future__ import annotations

import threading
import time
from typing import Callable, TypeVar

from solver.core.errors import Undecided

T = TypeVar("T")


class Budget:
    """The deadline of one query (``seconds`` None: no limit)."""

    def __init__(self, seconds: float | None = None):
        self.start = time.perf_counter()
        self.deadline = None if seconds is None else self.start + seconds

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def left(self) -> float | None:
        """Seconds left, or None without a limit."""
        return None if self.deadline is None else self.deadline - time.perf_counter()

    def check(self) -> None:
        """Raise :class:`Undecided` once the deadline has passed."""
        left = self.left()
        if left is not None and left <= 0:
            raise Undecided

    def run(self, interruptible, call: Callable[[], T]) -> T:
        """Run ``call`` with a timer that interrupts ``interruptible`` (a solver) at the deadline."""
        left = self.left()
        if left is None:
            return call()
        if left <= 0:
            raise Undecided
        timer = threading.Timer(left, interruptible.interrupt)
        timer.start()
        try:
            return call()
        finally:
            timer.cancel()
