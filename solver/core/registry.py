"""The game registry: a ruleset's ``game:`` name -> the class that implements the game.

Games are found, in order: registered with :func:`register` (a game kept outside the project, a
test's toy game); a package ``solver/games/NAME`` exporting ``GAME``; an installed package that
declares an entry point in the group ``melds.games``. A game's package is imported only when a
ruleset of that game is loaded, so that ``melds check`` on one game never pays for another.

The compiled game of a ruleset (:func:`load_game`) is built once and kept while the ruleset lives
(rulesets are themselves built once per file and options).
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import importlib
import os
import pkgutil
import sys
import weakref
from typing import TYPE_CHECKING, Any

from solver.core import cache
from solver.core.errors import Location, UnknownGame

if TYPE_CHECKING:  # importlib.metadata is read only when a game is looked for among entry points
    from importlib.metadata import EntryPoint

# The games' classes implement solver.core.game.Game; a compiled game is an instance of one (the
# registry holds them as Any: the protocol module builds on rulesets, which build on this one).
Game = Any
Ruleset = Any

GAMES_PACKAGE = "solver.games"
ENTRY_POINTS = "melds.games"

_registered: dict[str, type[Game]] = {}
_compiled: weakref.WeakKeyDictionary[Ruleset, Game] = weakref.WeakKeyDictionary()


def register(game: type[Game]) -> type[Game]:
    """Register a game class under its ``name`` (usable as a class decorator)."""
    _registered[game.name] = game
    return game


def unregister(name: str) -> None:
    _registered.pop(name, None)


def default_game() -> str:
    """The game of a ruleset that names none (the plain rummy game, as the games package says)."""
    return str(importlib.import_module(GAMES_PACKAGE).DEFAULT_GAME)


def known_games() -> list[str]:
    """Every game name that can be loaded."""
    return sorted(set(_registered) | _installed_games())


@functools.cache
def bundled_games() -> frozenset[str]:
    """The games of melds' own games package (not those of entry points): their code is melds'."""
    package = importlib.import_module(GAMES_PACKAGE)
    return frozenset(m.name for m in pkgutil.iter_modules(package.__path__) if m.ispkg)


def is_registered(name: str) -> bool:
    """Whether the class of the game ``name`` is at hand (registered, or its package imported)."""
    return name in _registered


@functools.cache
def _installed_games() -> frozenset[str]:
    """The games package's games and those of entry points (looked for once: a replay of many
    logs asks for each)."""
    return bundled_games() | _entry_point_names()


def _entry_point_names() -> frozenset[str]:
    """The names of the entry points' games, kept in :mod:`solver.core.cache` under the state of
    every place Python finds packages' metadata in (:func:`_metadata_state`): a start then reads a
    few bytes instead of importing ``importlib.metadata`` and reading every installed package's
    metadata (a tenth of a replay's start)."""
    key = cache.key_of(ENTRY_POINTS, *_metadata_state())
    kept = cache.load("entry-point-games", key)
    if isinstance(kept, frozenset) and all(isinstance(name, str) for name in kept):
        return kept
    found = frozenset(ep.name for ep in _entry_points())
    cache.store("entry-point-games", key, found)
    return found


def _metadata_state() -> list[str]:
    """What the installed packages' entry points are read from, as it stands: each ``sys.path``
    place's size and modification time (a package's metadata added, removed or replaced in a
    folder; an archive changed) and, in a folder, the size and time of each package's
    ``entry_points.txt`` (one rewritten in place)."""
    state = []
    for place in sys.path:
        try:
            found = os.stat(place or ".")
            state.append(f"{place}: {found.st_size} {found.st_mtime_ns}")
            if os.path.isdir(place or "."):
                state.extend(_entry_point_files(place or "."))
        except OSError:
            state.append(f"{place}: unreadable")
    return state


def _entry_point_files(folder: str) -> list[str]:
    """The size and time of each ``entry_points.txt`` of the packages' metadata in ``folder``."""
    state = []
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.name.endswith((".dist-info", ".egg-info")):
                with contextlib.suppress(OSError):  # a package without entry points
                    points = os.stat(os.path.join(entry.path, "entry_points.txt"))
                    state.append(f"{entry.name}: {points.st_size} {points.st_mtime_ns}")
    return state


def game_type(name: str, where: Location | None = None) -> type[Game]:
    """The class of the game ``name``."""
    if name in _registered:
        return _registered[name]
    module = None
    if name.isidentifier():
        try:
            module = importlib.import_module(f"{GAMES_PACKAGE}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{GAMES_PACKAGE}.{name}":
                raise  # the game's package exists but is broken: show it
    if module is None:
        found = next((ep for ep in _entry_points() if ep.name == name), None)
        if found is not None:
            return register(found.load())
        known = ", ".join(known_games())
        message = f"unknown game {name!r} (games: {known})"
        raise UnknownGame(f"{where}: {message}" if where else message)
    return register(module.GAME)


def load_game(ruleset: Ruleset) -> Game:
    """The game compiled for ``ruleset``, built on first use."""
    game = _compiled.get(ruleset)
    if game is None:
        game = _compiled[ruleset] = game_type(ruleset.game)(ruleset)
    return game


def forget() -> None:
    """Close and drop every compiled game (a new command starts afresh: its answers then never
    depend on what earlier commands of the same process asked the same live solvers)."""
    games = list(_compiled.values())
    _compiled.clear()
    for game in games:
        game.close()


atexit.register(forget)  # solvers closed while their library is still loaded, not at teardown


@functools.cache
def _entry_points() -> tuple[EntryPoint, ...]:
    """The installed packages' games, read once a process (a replay asks for every log it reads)."""
    from importlib.metadata import entry_points

    return tuple(entry_points(group=ENTRY_POINTS))
