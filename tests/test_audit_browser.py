"""The annotated pages in a real browser: each page of docs/audit rendered by headless Chromium —
the screenshot is not blank and shows the legend's colours, the rendered DOM holds the legend,
and the page's script fills the side panel for the sentence the address names."""

from __future__ import annotations

import shutil
import struct
import subprocess
import tempfile
import zlib
from pathlib import Path

import pytest
from clirun import ROOT

from solver.audit.pages import COLOURS

PAGES = sorted((ROOT / "docs" / "audit").glob("*.html"))
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome", "headless_shell")


def browser() -> str | None:
    return next((path for name in BROWSERS if (path := shutil.which(name))), None)


def chromium(url: str, *extra: str) -> subprocess.CompletedProcess:
    found = browser()
    assert found is not None, "no Chromium on the path"
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run(
            [
                found,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                f"--user-data-dir={profile}",
                "--hide-scrollbars",
                "--window-size=1280,900",
                *extra,
                url,
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )


def read_png(path: Path) -> tuple[int, int, list[tuple[int, ...]]]:
    """Width, height and RGB pixels of an 8-bit RGB or RGBA PNG (what Chromium writes)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, idat, width = 8, b"", 0
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at : at + 8])
        body = data[at + 8 : at + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6), (depth, colour)
            channels = 4 if colour == 6 else 3
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    raw, stride = zlib.decompress(idat), width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            up, corner = prev[x], prev[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + left) & 255
            elif kind == 2:
                line[x] = (line[x] + up) & 255
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[x] = (line[x] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append(line)
        prev = line
    pixels = [tuple(row[x : x + 3]) for row in rows for x in range(0, stride, channels)]
    return width, height, pixels


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    return int(hex_colour[1:3], 16), int(hex_colour[3:5], 16), int(hex_colour[5:7], 16)


@pytest.mark.slow
@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.stem)
def test_a_browser_renders_the_page_with_its_legend(page, tmp_path):
    if browser() is None:
        pytest.skip("no Chromium installed (apt-get install chromium) — the pages were not rendered")
    shot = tmp_path / "shot.png"
    done = chromium(page.as_uri(), f"--screenshot={shot}")
    assert shot.is_file(), done.stderr[-2000:]
    width, height, pixels = read_png(shot)
    assert (width, height) == (1280, 900)
    inked = sum(1 for p in pixels if p != (255, 255, 255))
    assert inked > 0.02 * len(pixels), "the screenshot is blank"
    seen = set(pixels)
    for status, (background, _) in COLOURS.items():  # the legend's swatches, in their colours
        want = _rgb(background)
        assert any(max(abs(a - b) for a, b in zip(want, p, strict=True)) <= 6 for p in seen), (page.name, status)
    dom = chromium(page.as_uri(), "--dump-dom").stdout
    assert 'id="legend"' in dom and all(f'data-status="{s}"' in dom for s in COLOURS), page.name
    if page.name != "index.html":  # the script shows the sentence the address names in the side panel
        shown = chromium(page.as_uri() + "#s-3", "--dump-dom").stdout
        panel = shown[shown.index('id="detail"') :]
        assert "<h2>Line " in panel and "Ruleset entries (" in panel and "Findings (" in panel, page.name
