"""The entry points' game names kept in melds' cache (solver.core.registry): read back while the
installed packages stay as they are, read again when a package's entry points change."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from solver.core import registry


def _package(folder: Path, name: str, games: list[str]) -> Path:
    """A package's metadata in ``folder`` declaring ``games`` as melds games."""
    meta = folder / f"{name}-1.0.dist-info"
    meta.mkdir(exist_ok=True)
    (meta / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n", encoding="utf-8")
    lines = "".join(f"{game} = {name}:GAME\n" for game in games)
    (meta / "entry_points.txt").write_text(f"[{registry.ENTRY_POINTS}]\n{lines}", encoding="utf-8")
    return meta


def _names() -> frozenset[str]:
    registry._entry_points.cache_clear()  # a new process, as far as the registry knows
    return registry._entry_point_names()


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = tmp_path / "site"
    folder.mkdir()
    monkeypatch.setenv("MELDS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(sys, "path", [*sys.path, str(folder)])
    yield folder
    registry._entry_points.cache_clear()


def test_kept_names_follow_the_installed_packages(site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _package(site, "tiles_extra", ["tiles_extra"])
    assert "tiles_extra" in _names()
    assert list((site.parent / "cache").glob("entry-point-games-*.pickle")), "the names were not kept"
    assert "tiles_extra" in _names()  # read back
    with monkeypatch.context() as reading:

        def metadata_read() -> None:
            raise AssertionError("the packages' metadata was read again")

        reading.setattr(registry, "_entry_points", metadata_read)
        assert "tiles_extra" in registry._entry_point_names()  # from the cache: no metadata read
    _package(site, "more_games", ["more_games"])  # a package added: the folder changed
    assert {"tiles_extra", "more_games"} <= _names()


def test_an_entry_points_file_rewritten_in_place_is_read_again(site: Path) -> None:
    meta = _package(site, "tiles_extra", ["tiles_extra"])
    assert "tiles_extra" in _names()
    folder_time = os.stat(site).st_mtime_ns
    _package(site, "tiles_extra", ["tiles_renamed"])
    os.utime(site, ns=(folder_time, folder_time))  # only the file inside changed
    points = meta / "entry_points.txt"
    stat = points.stat()
    os.utime(points, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    names = _names()
    assert "tiles_renamed" in names and "tiles_extra" not in names
