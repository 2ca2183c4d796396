"""Game logs on disk: finding them (files, folders, globs, ``.gz``), reading them within bounds,
telling their format, and replaying one file — the unit of work a pool of processes or a Dask
cluster is handed (:func:`replay_file` takes and returns plain, picklable values).

A file is either the project's own log of actions (:mod:`solver.core.actionlog`, which names its
ruleset) or a format some game reads (``Game.log_formats()``: each format recognises its files
from their first characters and names the ruleset its records are read through).
"""

from __future__ import annotations

import functools
import glob
import gzip
import os
import time
import traceback
import zlib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from solver.core import cache, inputs, registry
from solver.core.errors import MeldsError
from solver.core.replay import GameLog, GameReport, LogFormat

MAX_BYTES = 64 << 20  # a log larger than this (unzipped) is refused: bounded memory whatever the input
SUFFIXES = (".json", ".jsonl", ".mjson", ".mjlog", ".xml", ".yaml", ".yml", ".txt", ".log")
OWN_SUFFIXES = (".yaml", ".yml", ".jsonl", ".json")


def log_files(paths: list[str]) -> Iterator[Path]:
    """Every log a command line names: files as given, folders searched (recursively) for known
    suffixes (also gzipped: ``.mjlog.gz``), shell patterns expanded; in a stable order, lazily."""
    for given in paths:
        path = Path(given)
        if path.is_dir():
            for root, dirs, files in os.walk(path):
                dirs.sort()
                for name in sorted(files):
                    if _is_log_name(name):
                        yield Path(root) / name
        elif inputs.problem(given) is None:
            yield path  # a file, or a pipe (read without waiting for a writer that is not there)
        elif any(ch in given for ch in "*?["):
            matches = sorted(glob.iglob(given, recursive=True))
            if not matches:
                raise MeldsError(f"no log matches {given!r}")
            for match in matches:
                if Path(match).is_file():
                    yield Path(match)
        else:
            raise MeldsError(inputs.problem(given, "log file or folder") or given)


def _is_log_name(name: str) -> bool:
    base = name[:-3] if name.endswith(".gz") else name
    return base.endswith(SUFFIXES) and not name.startswith(".")


def read_text(path: str | Path) -> str:
    """A log's text: gzip undone (by its magic number, whatever the name), UTF-8 (with a BOM or
    without; bytes that are not UTF-8 are shown replaced), at most MAX_BYTES."""
    with inputs.open_input(path, "log file") as raw:
        head = raw.peek(2)[:2]
        stream = gzip.GzipFile(fileobj=raw) if head == b"\x1f\x8b" else raw
        try:
            data = stream.read(MAX_BYTES + 1)
        except (OSError, EOFError, zlib.error) as exc:
            raise MeldsError(f"{path}: cannot read it: {exc}") from None
    if len(data) > MAX_BYTES:
        raise MeldsError(f"{path}: larger than {MAX_BYTES >> 20} MB: not a game log")
    return data.decode("utf-8-sig", errors="replace")


def foreign_formats() -> list[tuple[str, LogFormat]]:
    """(game name, format) for every log format a game reads. A game of melds' own that reads no
    other software's records is passed by without importing it (:func:`_bundled_games_reading_none`),
    unless it is already at hand."""
    out: list[tuple[str, LogFormat]] = []
    passed_by = _bundled_games_reading_none()
    for name in registry.known_games():
        if name in passed_by and not registry.is_registered(name):
            continue
        out.extend((name, fmt) for fmt in _formats_of(name))
    return out


def _formats_of(name: str) -> list[LogFormat]:
    return list(getattr(registry.game_type(name), "log_formats", lambda: ())())


@functools.cache
def _bundled_games_reading_none() -> frozenset[str]:
    """The games of melds' own package that read no other software's records, asked once per
    machine and version of melds (kept in :mod:`solver.core.cache`): a replay's start then imports
    only the games that read them, not every game to ask it."""
    bundled = registry.bundled_games()
    key = cache.key_of(*sorted(bundled))
    kept = cache.load("games-reading-no-logs", key)
    if isinstance(kept, frozenset) and kept <= bundled:
        return kept
    found = frozenset(name for name in bundled if not _formats_of(name))
    cache.store("games-reading-no-logs", key, found)
    return found


def detect(text: str, path: str) -> LogFormat | None:
    """The format of a log: a game's own format, or None for the project's own log of actions."""
    head = text[:4000]
    for _, fmt in foreign_formats():
        if fmt.sniff(head):
            return fmt
    from solver.core.actionlog import looks_own  # noqa: PLC0415 - only when no game's format fits

    if looks_own(head):
        return None
    names = ", ".join(fmt.label for _, fmt in foreign_formats())
    raise MeldsError(f"{path}: not a game log melds reads (its own log format — docs/replay-format.md — or {names})")


def replay_text(
    path: str, text: str, ruleset_ref: str | None = None, options: Mapping[str, Any] | None = None
) -> list[GameReport]:
    """Every game of one log's text, replayed."""
    from solver.core.actionlog import replay_own  # noqa: PLC0415
    from solver.core.ruleset import load_ruleset  # noqa: PLC0415

    fmt = detect(text, path)
    if fmt is None:
        return replay_own(path, text, ruleset_ref, options or {})
    ruleset = load_ruleset(ruleset_ref or fmt.ruleset, dict(options or {}))
    game = registry.load_game(ruleset)
    replay = getattr(game, "replay", None)
    if replay is None:
        raise MeldsError(f"{ruleset.id}'s game does not replay game logs")
    return list(replay(GameLog(path, text, fmt, ruleset_ref, dict(options or {}))))


def replay_file(
    path: str, ruleset_ref: str | None = None, options: Mapping[str, Any] | None = None
) -> list[GameReport]:
    """One file replayed; a file that cannot be read or replayed is one report with its error
    (nothing in a batch is dropped), and so is a fault of melds itself (with its trace, no crash)."""
    began = time.perf_counter()
    try:
        reports = replay_text(path, read_text(path), ruleset_ref, options)
        if not reports:
            raise MeldsError(f"{path}: no game in the log")
        return reports
    except MeldsError as exc:
        error = exc.to_json()
    except RecursionError as exc:
        error = {"code": "bad-input", "message": f"{path}: nested too deeply to read ({exc})"}
    except Exception as exc:  # a fault of melds: reported for this file, the batch goes on
        error = {
            "code": "internal-error",
            "message": f"{path}: {exc.__class__.__name__}: {exc}",
            "trace": traceback.format_exc(limit=6),
        }
    return [GameReport(str(path), "unknown", ruleset_ref, error=error, seconds=time.perf_counter() - began)]
