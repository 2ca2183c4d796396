"""Text files a user hands melds besides YAML (word lists: ``--dict``, ``--exclude``, a ruleset's
dictionary): read within limits, whatever they hold.

A file may be plain, gzip or xz (told by its first bytes, whatever its name says); what it
decompresses to is capped (:data:`~solver.core.limits.TEXT_BYTES`), so a gzip bomb or
``/dev/zero`` stops there. It must be UTF-8 text: a BOM is dropped (the first word is kept),
CRLF and CR line ends are fine, and bytes that are not UTF-8 or a NUL are named with their line.
"""

from __future__ import annotations

import gzip
import io
import lzma
from collections.abc import Callable, Iterator
from pathlib import Path

from solver.core import limits
from solver.core.errors import TooLarge, Unreadable
from solver.core.inputs import open_input

CHUNK = 1 << 20
_MAGIC: dict[bytes, Callable[[io.BufferedReader], io.BufferedIOBase]] = {
    b"\x1f\x8b": lambda raw: gzip.GzipFile(fileobj=raw),
    b"\xfd7zXZ\x00": lzma.LZMAFile,
}


def _opened(raw: io.BufferedReader) -> io.BufferedIOBase:
    head = raw.peek(6)[:6] if hasattr(raw, "peek") else b""
    for magic, opener in _MAGIC.items():
        if head.startswith(magic):
            return opener(raw)
    return raw


def read_text(path: str | Path, what: str = "word list", limit: int = limits.TEXT_BYTES) -> str:
    """The whole text of a file (decompressed), within ``limit`` bytes."""
    path = Path(path)
    chunks: list[bytes] = []
    size = lines = 0
    try:
        with open_input(path, what) as raw, _opened(raw) as stream:
            while True:
                chunk = stream.read(CHUNK)
                if not chunk:
                    break
                nul = chunk.find(b"\0")
                if nul >= 0:
                    line = lines + chunk.count(b"\n", 0, nul) + 1
                    raise Unreadable(f"{path}:{line}: a NUL byte: a {what} is UTF-8 text")
                lines += chunk.count(b"\n")
                size += len(chunk)
                if size > limit:
                    raise TooLarge(
                        f"{path}: more than {limit // limits.MIB} MiB of text (decompressed); "
                        f"no {what} melds reads is that large"
                    )
                chunks.append(chunk)
    except (OSError, EOFError, lzma.LZMAError) as exc:  # a broken archive too (gzip raises OSError)
        raise Unreadable(f"{path}: cannot read the {what} ({getattr(exc, 'strerror', None) or exc})") from None
    data = b"".join(chunks)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise Unreadable(
            f"{path}:{line}: not UTF-8 text (byte 0x{data[exc.start]:02x}); save the {what} as UTF-8"
        ) from None


def read_lines(path: str | Path, what: str = "word list") -> Iterator[tuple[int, str]]:
    """(line number, line without its end) of a text file, as :func:`read_text` reads it."""
    for number, line in enumerate(io.StringIO(read_text(path, what), newline=None), 1):
        yield number, line.rstrip("\n")
