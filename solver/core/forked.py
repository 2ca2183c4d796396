"""One piece of work run beside this process, in a forked child, its result sent back when done.

Work that splits in two runs one half here, on another core: a table turn's last round of form
walks (``tableforms._walked_beside``), and a large table turn raced against the forms that stand
in for the rest (``TableTurn._raced``, two children). A fork, not a new process: the child starts with
everything the parent has worked out (the table's forms, the checker's compiled models) and does
only its own part. It runs one function and leaves through ``os._exit``, never returning into the
caller's stack, flushing its copies of the parent's files, or running its exit handlers; threads
of the parent (a budget's watchdog) do not exist in it, so it keeps its limits with a budget of
its own. POSIX only (:data:`AVAILABLE`).

The result is pickled; the objects in ``shared`` (a ruleset's cards, kinds, operations) travel as
their keys and arrive as the parent's own objects, not copies.
"""

from __future__ import annotations

import os
import pickle
import signal
import threading
from collections.abc import Callable, Hashable, Iterable
from io import BytesIO
from typing import Any

AVAILABLE = hasattr(os, "fork")


class Forked:
    """``work()`` in a forked child (started at once). ``on_result`` is called in a thread of this
    process with the result when it comes back (not when the child failed or was cancelled)."""

    def __init__(
        self,
        work: Callable[[], Any],
        shared: Iterable[tuple[Hashable, Any]] = (),
        on_result: Callable[[Any], None] | None = None,
    ):
        self._objects = dict(shared)
        self._keys = {id(obj): key for key, obj in self._objects.items()}
        self._result: Any = None
        self.error: str | None = None  # what went wrong in the child, if it failed
        self._done = threading.Event()
        read, write = os.pipe()
        self._pid = os.fork()
        if self._pid == 0:  # the child: work, answer, leave
            os.close(read)
            self._child(work, write)
        os.close(write)
        self._reader = threading.Thread(target=self._receive, args=(read, on_result), daemon=True)
        self._reader.start()

    def _child(self, work: Callable[[], Any], write: int) -> None:
        code = 1
        try:
            try:
                payload = self._dumps(("ok", work()))
            except BaseException as exc:  # noqa: BLE001 - whatever failed, the parent hears of it
                payload = pickle.dumps(("error", f"{type(exc).__name__}: {exc}"))
            with os.fdopen(write, "wb") as out:
                out.write(payload)
            code = 0
        finally:
            os._exit(code)

    def _dumps(self, value: Any) -> bytes:
        buffer = BytesIO()
        pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
        keys = self._keys
        # pickle's documented hook, which typeshed declares a method
        pickler.persistent_id = lambda obj: keys.get(id(obj))  # type: ignore[method-assign]
        pickler.dump(value)
        return buffer.getvalue()

    def _receive(self, read: int, on_result: Callable[[Any], None] | None) -> None:
        with os.fdopen(read, "rb") as source:
            data = source.read()  # until the child closes its end (done, failed or killed)
        try:
            unpickler = pickle.Unpickler(BytesIO(data))
            # pickle's documented hook, which typeshed declares a method
            unpickler.persistent_load = self._objects.__getitem__  # type: ignore[method-assign]
            status, value = unpickler.load() if data else ("error", "the child ended without an answer")
        except Exception as exc:  # noqa: BLE001 - a torn or foreign answer is no answer
            status, value = "error", f"{type(exc).__name__}: {exc}"
        if status == "ok":
            self._result = value
        else:
            self.error = value
        self._done.set()
        if status == "ok" and on_result is not None:
            on_result(value)

    @property
    def done(self) -> bool:
        return self._done.is_set()

    def result(self, timeout: float | None = 0.0) -> Any:
        """The child's result, waiting up to ``timeout`` seconds for it (None: until it comes);
        None when it has not come, or the child failed."""
        self._done.wait(timeout)
        return self._result

    def close(self) -> None:
        """End the child if it is still at work, and reap it."""
        if self._pid:
            try:
                if not self._done.is_set():
                    os.kill(self._pid, signal.SIGKILL)
                os.waitpid(self._pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
            self._pid = 0
        self._reader.join()

    def __enter__(self) -> Forked:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
