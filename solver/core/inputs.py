"""Opening what a user names as an input file: the one place that says why a path cannot be read,
and opens it without hanging.

A path may be a regular file or a pipe (``<(cat puzzle.yaml)``, ``/dev/stdin`` piped, a named
FIFO), read within the limits of what reads it. A FIFO is opened without blocking, so one that
nobody writes to reads as empty instead of waiting forever. A path that cannot be read — missing,
a dangling link, a loop of links, a folder, a socket, a device (``/dev/zero`` and
``/dev/urandom`` never end, a terminal waits), not permitted — is named with that reason, in the
same words wherever it was given (``-r``, a puzzle, a state, ``--dict``, ``--batch``, a log).
"""

from __future__ import annotations

import errno
import io
import os
import stat
from pathlib import Path

from solver.core.errors import MeldsError, Unreadable


def problem(path: str | Path, what: str = "file") -> str | None:
    """Why ``path`` cannot be read as a ``what`` (None: it can be opened)."""
    text = str(path)
    if not text or "\0" in text:
        return f"{text!r} is not a path"
    try:
        mode = os.stat(text).st_mode
    except FileNotFoundError:
        if os.path.islink(text):
            return f"{text}: a symbolic link to {os.readlink(text)!r}, which does not exist"
        return f"no {what} {text!r}: no such file"
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return f"{text}: a loop of symbolic links, not a {what}"
        if exc.errno == errno.ENAMETOOLONG:
            return f"{text[:60]}…: a path too long to be a {what}"
        return f"{text}: cannot read the {what} ({exc.strerror or exc})"
    except ValueError:  # a path the system cannot take (an embedded NUL, say)
        return f"{text!r} is not a path"
    if stat.S_ISDIR(mode):
        return f"{text}: a folder, not a {what}"
    if stat.S_ISSOCK(mode):
        return f"{text}: a socket, not a {what}"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):  # /dev/zero, /dev/urandom: endless; a terminal: waits
        return f"{text}: a device, not a {what} (give a file, or a pipe)"
    return None


def require(path: str | Path, what: str = "file", error: type[MeldsError] = Unreadable) -> Path:
    """``path``, or ``error`` saying why it cannot be read as a ``what``."""
    found = problem(path, what)
    if found:
        raise error(found)
    return Path(path)


def open_input(path: str | Path, what: str = "file") -> io.BufferedReader:
    """``path`` opened for reading in binary; a FIFO without a writer reads as empty rather than
    blocking; every failure is :class:`Unreadable` with its reason."""
    require(path, what)
    try:
        import fcntl  # noqa: PLC0415 - POSIX; elsewhere a plain open (no FIFOs to wait on)
    except ImportError:
        fcntl = None  # type: ignore[assignment]  # not POSIX: the module's absence is the answer
    nonblocking = getattr(os, "O_NONBLOCK", 0) if fcntl is not None else 0
    try:
        fd = os.open(str(path), os.O_RDONLY | nonblocking | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))
    except OSError as exc:
        raise Unreadable(f"{path}: cannot read the {what} ({exc.strerror or exc})") from None
    try:
        if nonblocking:
            flags = fcntl.fcntl(fd, fcntl.F_GETFL)
            fcntl.fcntl(fd, fcntl.F_SETFL, flags & ~nonblocking)  # reads wait for a writer that is there
        return os.fdopen(fd, "rb")
    except OSError as exc:
        os.close(fd)
        raise Unreadable(f"{path}: cannot read the {what} ({exc.strerror or exc})") from None
