"""What melds derives once per machine and keeps: the bundled rulesets compiled, the steps of a suit
cycle. A cold ``melds check`` then reads a pickle instead of importing YAML and building the
ruleset again.

Entries live in ``MELDS_CACHE_DIR`` (``off`` keeps nothing; by default ``$XDG_CACHE_HOME/melds``
or ``~/.cache/melds``) and are keyed by what made them: the bytes of the data (a ruleset's file
and every bundled ruleset it may extend) and the code (the size and time of every module of
melds), so an edited ruleset or a new version of melds never reads a stale entry. A cache that
cannot be read or written is passed by; an entry is written whole or not at all. The folder's
``bytecode/`` and ``generated.*`` are the command's (cli.py's ``keep_compiled``: what a start
compiles); it chooses the folder as :func:`cache_dir` does.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from functools import cache
from pathlib import Path
from typing import Any

SOLVER = Path(__file__).resolve().parent.parent  # the solver package: its modules sign the code


def cache_dir() -> Path | None:
    """Where melds keeps what it derives once (``MELDS_CACHE_DIR``; ``off`` keeps nothing)."""
    given = os.environ.get("MELDS_CACHE_DIR")
    if given == "off":
        return None
    if given:
        return Path(given)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "melds"


@cache
def code_signature() -> str:
    """A short key that changes whenever a module of melds changes (size and modification time of
    every ``.py`` under solver/: a stat each, no reading)."""
    digest = hashlib.sha256()
    for folder, dirs, files in os.walk(SOLVER):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(".py"):
                stat = os.stat(os.path.join(folder, name))
                digest.update(f"{folder}/{name}:{stat.st_size}:{stat.st_mtime_ns};".encode())
    return digest.hexdigest()[:20]


def key_of(*parts: bytes | str) -> str:
    digest = hashlib.sha256(code_signature().encode())
    for part in parts:
        digest.update(part if isinstance(part, bytes) else part.encode("utf-8"))
        digest.update(b"\0")
    return digest.hexdigest()[:32]


def load(kind: str, key: str) -> Any | None:
    """The entry ``kind``/``key``, or None (absent, unreadable, or from a build that cannot load)."""
    folder = cache_dir()
    if folder is None:
        return None
    try:
        with open(folder / f"{kind}-{key}.pickle", "rb") as stream:
            return pickle.load(stream)  # noqa: S301 - our own cache folder, keyed by our own code
    except Exception:  # noqa: BLE001 - any broken entry is passed by, and rebuilt
        return None


def store(kind: str, key: str, value: Any) -> None:
    """Keep ``value`` under ``kind``/``key`` (older entries of the kind are removed)."""
    folder = cache_dir()
    if folder is None:
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{kind}-{key}.pickle"
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_bytes(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
        temporary.replace(path)  # whole or not at all, whoever else writes it
        for old in folder.glob(f"{kind}-*.pickle"):
            if old != path:
                old.unlink(missing_ok=True)
    except (OSError, pickle.PicklingError, TypeError, AttributeError, RecursionError):
        pass
