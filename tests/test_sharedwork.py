"""Items worked by this process and forks of it together (solver.core.sharedwork): every answer
given once, in the items' order, whoever worked it; a fork that dies has its item worked here."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from solver.core import sharedwork
from solver.core.sharedwork import shared_map, spooled

pytestmark = pytest.mark.skipif(not sharedwork.AVAILABLE, reason="no fork here")

NAMES = ["a.json", "", "records/東1局.mjlog.gz", "bad-\udcff-byte", "x" * 5000] + [f"{k:03d}.json" for k in range(60)]


def test_spooled_names_read_back_as_written():
    with spooled(iter(NAMES)) as names:
        assert len(names) == len(NAMES)
        assert [names[k] for k in range(len(names))] == NAMES
        assert list(names) == NAMES
        with pytest.raises(IndexError):
            names[len(NAMES)]
    with spooled(iter([])) as none:
        assert len(none) == 0 and list(none) == []


PARENT = os.getpid()


def _marked(name: str) -> tuple[str, int]:
    """The name and the process that worked it, after a few milliseconds (so that every process
    takes some: a fork starts within them)."""
    time.sleep(0.005)
    return name.upper(), os.getpid()


@pytest.mark.parametrize("jobs", [2, 3])
def test_every_answer_comes_once_in_order(jobs):
    with spooled(iter(NAMES)) as names:
        answers = list(shared_map(_marked, names, jobs))
    assert [name for name, _ in answers] == [name.upper() for name in NAMES]
    workers = {pid for _, pid in answers}
    assert len(workers) >= 2  # more than one process took items


_DEATHS: list[Path] = []  # where a fork marks that it took an item (set by the test before forking)


def _forks_die(name: str) -> str:
    """A fork that takes an item marks it and is killed (as out of memory would); this process
    works every item, slowly enough that the forks take some first."""
    if os.getpid() != PARENT:
        (_DEATHS[0] / str(os.getpid())).touch()
        os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(0.005)
    return name[::-1]


def test_an_item_whose_fork_died_is_worked_here(tmp_path, monkeypatch):
    monkeypatch.setattr(f"{__name__}._DEATHS", [tmp_path])
    with spooled(iter(NAMES)) as names:
        answers = list(shared_map(_forks_die, names, 3))
    assert answers == [name[::-1] for name in NAMES]
    assert any(tmp_path.iterdir()), "no fork took an item: the test saw no death"


def test_stopping_early_leaves_no_fork_behind():
    with spooled(iter(NAMES)) as names:
        answers = shared_map(_marked, names, 3)
        assert next(answers)[0] == NAMES[0].upper()
        answers.close()
    with pytest.raises(ChildProcessError):  # every fork reaped: none left to wait for
        os.waitpid(-1, os.WNOHANG)
