"""What melds derives once and keeps (the steps of a suit cycle): the same answers from the cache as
from NetworkX, NetworkX not imported when the cache holds the cycle, a broken cache passed by."""

from __future__ import annotations

import os
import subprocess
import sys

from clirun import ROOT

from solver.melding.meld.cycles import SuitSteps, cached_steps

CYCLE = ["木", "火", "土", "金", "水"]


def test_cached_steps_equal_the_graphs(tmp_path, monkeypatch):
    monkeypatch.setenv("MELDS_CACHE_DIR", str(tmp_path))
    from solver.melding.meld.cycles import cycle_graph

    fresh = SuitSteps.from_graph(cycle_graph(CYCLE))
    assert cached_steps(CYCLE) == fresh and (tmp_path / "cycles.json").is_file()
    assert cached_steps(CYCLE) == fresh  # now read back


def test_a_warm_cache_spares_networkx(tmp_path):
    env = {**os.environ, "MELDS_CACHE_DIR": str(tmp_path)}
    code = (
        "import sys; sys.argv = ['melds', 'check', '-r', 'fesca', '木3', '木4', '太極']\n"
        "from cli import main\ntry:\n    main()\nexcept SystemExit:\n    pass\n"
        "print('networkx' in sys.modules)"
    )
    first = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT)
    second = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT)
    assert first.stdout.splitlines()[-1] == "True" and second.stdout.splitlines()[-1] == "False"
    assert first.stdout.splitlines()[:-1] == second.stdout.splitlines()[:-1]  # the same verdict


def test_a_broken_or_disabled_cache_is_passed_by(tmp_path, monkeypatch):
    (tmp_path / "cycles.json").write_text("{not json", encoding="utf-8")
    monkeypatch.setenv("MELDS_CACHE_DIR", str(tmp_path))
    assert cached_steps(CYCLE).step("金", "forward", 2) == "木"
    monkeypatch.setenv("MELDS_CACHE_DIR", "off")
    assert cached_steps(CYCLE).step("木", "backward", 1) == "水"


def test_a_warm_cache_spares_yaml_and_gives_the_same_ruleset(tmp_path):
    env = {**os.environ, "MELDS_CACHE_DIR": str(tmp_path)}
    code = (
        "import sys; sys.argv = ['melds', 'rulesets', '--json']\n"
        "from cli import main\ntry:\n    main()\nexcept SystemExit:\n    pass\n"
        "print('yaml' in sys.modules, 'jsonschema' in sys.modules)"
    )
    first = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT)
    second = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT)
    assert first.stdout.splitlines()[-1] == "True False" and second.stdout.splitlines()[-1] == "False False"
    assert first.stdout.splitlines()[:-1] == second.stdout.splitlines()[:-1]  # every ruleset described alike
    assert len(list(tmp_path.glob("ruleset.*.pickle"))) >= 7


def test_a_broken_compiled_ruleset_is_rebuilt(tmp_path, monkeypatch):
    from solver.core import ruleset

    monkeypatch.setenv("MELDS_CACHE_DIR", str(tmp_path))
    path = ruleset.resolve_path("basic-rummy")
    build = ruleset._build_cached.__wrapped__  # past the process's own cache, to the one on disk
    fresh = build(str(path), path.stat().st_mtime, ())
    [entry] = tmp_path.glob("ruleset.basic-rummy.*.pickle")
    read_back = build(str(path), path.stat().st_mtime, ())
    assert read_back is not fresh and read_back.kinds == fresh.kinds
    entry.write_bytes(b"not a pickle")
    again = build(str(path), path.stat().st_mtime, ())
    assert again.deck.size == fresh.deck.size and again.kinds == fresh.kinds


def test_a_budget_ending_while_an_entry_loads_is_not_a_broken_entry(tmp_path, monkeypatch):
    """A query's budget ends Python work from its guard, raising Undecided wherever the work is.
    Inside the cache's read it once passed for a broken entry (None: rebuilt, and the query went
    on: an `audit --all --max-seconds 1` ran to its end, exit 1). A broken entry still is one."""
    import pytest

    from solver.core import cache
    from solver.core.errors import Undecided

    monkeypatch.setenv("MELDS_CACHE_DIR", str(tmp_path))
    cache.store("probe", "key", {"cards": 3})
    assert cache.load("probe", "key") == {"cards": 3}

    def ended(stream):
        raise Undecided("the time ran out")

    monkeypatch.setattr(cache.pickle, "load", ended)
    with pytest.raises(Undecided):
        cache.load("probe", "key")

    def broken(stream):
        raise ValueError("not a pickle")

    monkeypatch.setattr(cache.pickle, "load", broken)
    assert cache.load("probe", "key") is None
