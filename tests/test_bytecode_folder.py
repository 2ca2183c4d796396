"""A melds process keeps what its start compiles in its cache folder (cli.keep_compiled): the
modules' bytecode where Python is told to write none beside the sources, and the code the
dataclasses and typing write; the second start reads what the first compiled, the answer is the
same, and ``MELDS_CACHE_DIR=off`` keeps nothing."""

from __future__ import annotations

import marshal
import os
import subprocess
import sys
from pathlib import Path

from clirun import ROOT, melds_exe

QUESTION = ["score", "-r", "gensou-mahjong", "--json", "123m456p789s11z22z", "--win", "2z", "--tsumo"]


def _melds(cache: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "MELDS_CACHE_DIR": cache, "PYTHONPYCACHEPREFIX": ""}
    return subprocess.run(melds_exe() + QUESTION, capture_output=True, text=True, env=env, timeout=120)


def test_the_bytecode_is_kept_in_the_cache_folder_and_read_again(tmp_path):
    first = _melds(str(tmp_path))
    group = tmp_path / "bytecode" / Path(*(ROOT / "solver" / "commands").parts[1:])  # the sources' paths
    kept = sorted(p.name for p in group.glob("group.*.pyc"))
    assert len(kept) == 1, sorted(str(p) for p in (tmp_path / "bytecode").rglob("group*"))
    written = (group / kept[0]).stat().st_mtime_ns
    second = _melds(str(tmp_path))
    assert (group / kept[0]).stat().st_mtime_ns == written  # read, not compiled again
    assert len(list(tmp_path.glob("generated.*"))) == 1  # written whole, no temporary left
    assert first.returncode == second.returncode and first.stdout == second.stdout
    assert '"winning": true' in first.stdout, first.stderr


def test_a_cache_folder_of_off_keeps_no_bytecode(tmp_path):
    home = tmp_path / "home"
    env_cache = {"HOME": str(home), "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    result = subprocess.run(
        melds_exe() + QUESTION,
        capture_output=True,
        text=True,
        env={**os.environ, **env_cache, "PYTHONDONTWRITEBYTECODE": "1", "MELDS_CACHE_DIR": "off"},
        timeout=120,
    )
    assert '"winning": true' in result.stdout, result.stderr
    assert not (tmp_path / "xdg").exists() and not home.exists()


NAMED_TUPLE = """
import sys
import cli
cli.keep_generated_code(sys.argv[1])
from collections import namedtuple
Point = namedtuple("Point", "x y", defaults=(0,))
print(Point(1, 2), Point(3), Point._make([4, 5]), Point(y=6, x=7) == (7, 6))
"""


def test_a_named_tuples_new_is_kept_and_made_the_same(tmp_path):
    path = tmp_path / "generated"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}

    def run() -> str:
        done = subprocess.run(
            [sys.executable, "-c", NAMED_TUPLE, str(path)], capture_output=True, text=True, env=env, timeout=60
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    first = run()
    kept = marshal.loads(path.read_bytes())
    assert ("eval", "lambda _cls, x, y: _tuple_new(_cls, (x, y))") in kept
    assert run() == first == "Point(x=1, y=2) Point(x=3, y=0) Point(x=4, y=5) True\n"
