"""Extract the kana readings of JMdict into melds' word-rummy dictionary.

    python tools/build_dictionary.py [--source PATH] [--out rulesets/dictionaries/jmdict-kana.txt.xz]

PATH is the ``jamdict-data`` source distribution from PyPI (``pip download jamdict-data==1.5
--no-deps``), its ``jamdict.db.xz`` or the decompressed ``jamdict.db``; without ``--source`` the
script runs that ``pip download`` itself into a temporary folder. melds never downloads anything
at run time: the output file is committed, with its licence beside it (``JMdict-LICENSE.md``).

Each output line is ``reading<TAB>headwords<TAB>common``: the reading normalised to hiragana
(katakana folded, middle dots dropped, ー kept), up to four headwords of the entries that have it
(kanji forms, or the original spelling when it differs) joined by ``・``, and ``1`` when JMdict
marks the reading common (news1, ichi1, spec1, spec2, gai1 — JMdict's own test) or ``0``. The
solver prefers common words when it has a choice. Readings that are not kana after
normalisation (letters, digits, iteration marks) are left out; the counts are printed.
"""

from __future__ import annotations

import argparse
import lzma
import shutil
import sqlite3
import subprocess
import sys
import tarfile
import tempfile
from collections import Counter
from pathlib import Path

HIRAGANA = {chr(c) for c in range(0x3041, 0x3097)} | {"ー"}
OUT = Path(__file__).resolve().parent.parent / "rulesets" / "dictionaries" / "jmdict-kana.txt.xz"


def to_hiragana(text: str) -> str:
    """Katakana folded onto hiragana (ヴ → ゔ); the middle dot of compounds dropped."""
    out = []
    for ch in text.replace("・", "").replace("･", ""):
        code = ord(ch)
        out.append(chr(code - 0x60) if 0x30A1 <= code <= 0x30F6 else ch)
    return "".join(out)


def find_database(source: Path | None, work: Path) -> Path:
    if source is None:
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "jamdict-data==1.5", "--no-deps", "-d", str(work)], check=True
        )
        source = next(work.glob("jamdict_data-*.tar.gz"))
    if source.name.endswith(".tar.gz"):
        with tarfile.open(source) as tar:
            member = next(m for m in tar.getmembers() if m.name.endswith("jamdict.db.xz") and m.isfile())
            packed = tar.extractfile(member)
            assert packed is not None  # a regular file's member always has its contents
            with packed, open(work / "jamdict.db.xz", "wb") as out:
                shutil.copyfileobj(packed, out)
        source = work / "jamdict.db.xz"
    if source.suffix == ".xz":
        with lzma.open(source) as packed, open(work / "jamdict.db", "wb") as out:
            shutil.copyfileobj(packed, out, 1 << 20)
        source = work / "jamdict.db"
    return source


def extract(db: Path) -> tuple[dict[str, list[str]], set[str], Counter, dict]:
    con = sqlite3.connect(str(db))
    meta = dict(con.execute("select key, value from meta"))
    kanji: dict[int, list[str]] = {}
    for idseq, text in con.execute("select idseq, text from Kanji order by ID"):
        kanji.setdefault(idseq, []).append(text)
    common_ids = {
        kid for (kid,) in con.execute("select kid from KNP where text in ('news1', 'ichi1', 'spec1', 'spec2', 'gai1')")
    }
    readings: dict[str, list[str]] = {}
    common: set[str] = set()
    skipped: Counter = Counter()
    for kid, idseq, text, nokanji in con.execute("select ID, idseq, text, nokanji from Kana order by ID"):
        reading = to_hiragana(text)
        if not reading or any(ch not in HIRAGANA for ch in reading) or reading.startswith("ー"):
            skipped["not kana"] += 1
            continue
        if kid in common_ids:
            common.add(reading)
        heads = readings.setdefault(reading, [])
        shown = ([] if nokanji else kanji.get(idseq, [])[:2]) or ([text] if text != reading else [])
        for h in shown:
            if h not in heads and len(heads) < 4:
                heads.append(h)
    con.close()
    return readings, common, skipped, meta


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        readings, common, skipped, meta = extract(find_database(args.source, Path(tmp)))
    header = (
        f"# JMdict kana readings (JMdict {meta.get('jmdict.version', '?')}, via jamdict-data 1.5), "
        f"normalised to hiragana for melds word-rummy.\n"
        f"# Copyright the Electronic Dictionary Research and Development Group; CC BY-SA. "
        f"See JMdict-LICENSE.md.\n"
    )
    lines = [f"{r}\t{'・'.join(h)}\t{int(r in common)}\n" for r, h in sorted(readings.items())]
    with lzma.open(args.out, "wt", encoding="utf-8", preset=9) as out:
        out.write(header)
        out.writelines(lines)
    print(
        f"{len(lines)} readings ({len(common)} common) written to {args.out} ({args.out.stat().st_size:,} bytes); "
        f"skipped: {dict(skipped)}"
    )


if __name__ == "__main__":
    main()
