"""Shared fixtures: rulesets and meld checkers are built once per test session, the word games'
default list is read once a worker; the Hypothesis profile is loaded (tests/profiles.py)."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import profiles  # noqa: F401 - loads the Hypothesis profile MELDS_HYPOTHESIS_PROFILE names
import pytest

# the tests (and the commands they start) keep what melds caches apart from the user's own cache,
# in a folder the process that made it removes when it ends (workers inherit it)
if "MELDS_CACHE_DIR" not in os.environ:
    os.environ["MELDS_CACHE_DIR"] = tempfile.mkdtemp(prefix="melds-test-cache-")
    atexit.register(shutil.rmtree, os.environ["MELDS_CACHE_DIR"], ignore_errors=True)
# what one run of the suite makes once for all its workers (tests/test_audit.py's bundled audits):
# a folder made afresh by the process that starts the run, which the workers it starts inherit
if "PYTEST_XDIST_WORKER" not in os.environ:
    os.environ["MELDS_TEST_RUN_DIR"] = tempfile.mkdtemp(prefix="melds-test-run-")
    atexit.register(shutil.rmtree, os.environ["MELDS_TEST_RUN_DIR"], ignore_errors=True)
# a fault of melds is a traceback in the tests (the command line turns it into an error message
# otherwise); tests/hostile.py runs without it, to check that no input ever shows one
os.environ.setdefault("MELDS_DEBUG", "1")

from solver.core.ruleset import load_ruleset
from solver.melding.meld.checker import MeldChecker
from solver.sat import budget


@pytest.fixture(autouse=True)
def _no_memory_ceiling_left_behind():
    """A command run in-process (CliRunner) sets the process-wide --max-memory default; the test
    worker itself, with every ruleset and dictionary loaded, may be past it, so a later in-process
    query would be refused for memory that is not its own."""
    yield
    budget.set_default_memory(None)


@pytest.fixture(autouse=True, scope="session")
def _default_word_list_read_once_a_worker():
    """The word games' default list (150,000 words, about a second to read) read once a test
    worker: every command melds runs in-process starts afresh (registry.forget) and so reads it
    again, dozens of times a run. What a read gives is a function of the file and the tile set's
    spelling, so each later read of the same file and spelling is handed a copy of the first one's
    words (the entries are immutable named tuples); the reader itself runs for real on the first."""
    from solver.games.words.tiles import Dictionary

    real = Dictionary._load_default
    read: dict[tuple, tuple[int, int, dict[str, list]]] = {}

    def load_default(path: Path, name: str, translate: dict, by_key: dict) -> tuple[int, int]:
        key = (str(path), path.stat().st_mtime_ns, name, tuple(sorted(translate.items())))
        if key not in read:
            words: dict[str, list] = {}
            read[key] = (*real(path, name, translate, words), words)
        skipped, loaded, words = read[key]
        for word_key, entries in words.items():
            by_key.setdefault(word_key, []).extend(entries)
        return skipped, loaded

    Dictionary._load_default = staticmethod(load_default)
    yield
    Dictionary._load_default = staticmethod(real)


@pytest.fixture(scope="session")
def fesca():
    return load_ruleset("fesca")


@pytest.fixture(scope="session")
def fesca_checker(fesca):
    with MeldChecker(fesca) as checker:
        yield checker


@pytest.fixture(scope="session")
def fesca_no_sojun_checker():
    with MeldChecker(load_ruleset("fesca", {"sojun": False})) as checker:
        yield checker


@pytest.fixture(scope="session")
def rummy():
    return load_ruleset("basic-rummy")


@pytest.fixture(scope="session")
def rummy_checker(rummy):
    with MeldChecker(rummy) as checker:
        yield checker


def as_text(checker, reading) -> list[str]:
    """The identities of a reading in the document's notation, in reading order."""
    return [checker.notation.format_identity(p.identity) for p in reading.placements]


def roles(reading) -> dict[str, str]:
    """card name -> role played"""
    return {f"{p.face.cls}{p.face.suit or ''}{p.face.rank or ''}": p.role for p in reading.placements}
