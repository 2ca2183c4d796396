"""Word games: kana tiles, words spelled in tiles, and the dictionary that says what a word is.

A *tile* is one character of the ruleset's tile set (``words.tiles``): with separate mark tiles
が is two tiles, か and ゛; a small kana is spelled with the tile that may stand for it (っ with
つ). A word's *key* is its tiles joined into one string, and the dictionary is indexed on keys,
so that a walk over the tiles a player holds finds every word they can spell.

>>> from solver.core.ruleset import load_ruleset
>>> tiles = TileSet(load_ruleset("word-rummy").rules)
>>> tiles.spell("ガッコウ").tiles
('か', '゛', 'つ', 'こ', 'う')
>>> tiles.spell("か゛っこう").word
'がっこう'
>>> tiles.spell("こーひー").missing
('ー', 'ー')
"""

from __future__ import annotations

import unicodedata
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from solver.core import textfile
from solver.core.errors import MeldsError
from solver.core.gcpause import no_collections
from solver.games.words.rules import WordGame

VOICED_MARK, SEMI_MARK = "\u3099", "\u309a"  # combining ゛ and ゜
MARK_TILES = {VOICED_MARK: "゛", SEMI_MARK: "゜"}
# spellings of the marks a user may type: spacing (゛ ゜), half-width (ﾞ ﾟ), combining
MARK_INPUT = {"゛": VOICED_MARK, "ﾞ": VOICED_MARK, "゜": SEMI_MARK, "ﾟ": SEMI_MARK}
NO_TILE = "\x00"  # marks a character no tile spells, in keys


def normalise(text: str) -> str:
    """Any kana spelling folded to composed hiragana: katakana and half-width forms folded,
    marks typed as separate tiles (``か゛``) joined to their kana, spaces dropped.

    >>> normalise("ｶﾞｯｺｳ"), normalise("か゛っこう"), normalise("は゜ん")
    ('がっこう', 'がっこう', 'ぱん')
    """
    text = "".join(MARK_INPUT.get(ch, ch) for ch in text if not ch.isspace())
    text = unicodedata.normalize("NFKC", text)
    out = []
    for ch in text:
        code = ord(ch)
        out.append(chr(code - 0x60) if 0x30A1 <= code <= 0x30F6 else ch)
    return unicodedata.normalize("NFC", "".join(out).replace("・", ""))


@dataclass(frozen=True)
class Spelling:
    """A word as tiles: the tiles in order, and the letters no tile of the set can spell."""

    word: str  # normalised (composed hiragana)
    tiles: tuple[str, ...]
    missing: tuple[str, ...]

    @property
    def key(self) -> str:
        return "".join(self.tiles)


class TileSet:
    """The tiles of a word game under its options, and how letters are spelled with them."""

    def __init__(self, game: WordGame):
        self.game = game
        self.kinds = game.tile_kinds
        self.marks = set(game.marks)
        table: dict[int, str] = {}
        for code in range(0x3041, 0x3097):
            table[code] = self._letter_tiles(chr(code))
        table[ord("ー")] = self._letter_tiles("ー")
        self._translate = table

    def _letter_tiles(self, letter: str) -> str:
        """The tiles spelling one composed letter, NO_TILE for a letter the set cannot spell."""
        if letter in self.kinds:
            return letter
        if letter in self.game.small_kana:
            return self.game.small_kana[letter]
        parts = unicodedata.normalize("NFD", letter)
        if len(parts) == 2 and parts[1] in MARK_TILES and MARK_TILES[parts[1]] in self.marks:
            base = self._letter_tiles(parts[0])
            return base + MARK_TILES[parts[1]] if NO_TILE not in base else NO_TILE
        return NO_TILE

    def key(self, reading: str) -> str:
        """The key of a normalised reading (contains NO_TILE when a letter has no tile)."""
        return reading.translate(self._translate)

    def spell(self, text: str) -> Spelling:
        """A word typed by a user (hiragana, katakana or tiles) as the tiles that spell it."""
        word = normalise(text)
        tiles: list[str] = []
        missing: list[str] = []
        for ch in word:
            if ch in MARK_TILES:  # a mark left over after composing (あ゛): a mark tile by itself
                spelled = MARK_TILES[ch] if MARK_TILES[ch] in self.marks else NO_TILE
            else:
                spelled = self._letter_tiles(ch) if ord(ch) in self._translate or ch in self.kinds else NO_TILE
            if NO_TILE in spelled:
                missing.append(ch)
            else:
                tiles.extend(spelled)
        return Spelling(word, tuple(tiles), tuple(missing))

    def tiles(self, text: str, what: str = "tiles") -> tuple[str, ...]:
        """Tiles written as kana (``ねこか゛``, katakana too): each letter its tiles. Bad input —
        a letter no tile spells — is an error naming it."""
        spelling = self.spell(text)
        if spelling.missing:
            raise MeldsError(
                f"{what} {text!r}: no tile spells {'、'.join(dict.fromkeys(spelling.missing))} (tiles: {self.kinds})"
            )
        return spelling.tiles

    def why_missing(self, letter: str) -> str:
        if letter == "ー":
            return "ー has no tile (option long-vowel-tile adds one)"
        if letter in "ぁぃぅぇぉっゃゅょゎゕゖ":
            allowed = "".join(self.game.small_kana) or "none"
            return f"small {letter} has no tile to stand for it (small kana allowed: {allowed})"
        return f"{letter} has no tile in this set"


# -- the dictionary -------------------------------------------------------------------------------


@dataclass
class SourceReport:
    """What one word list gave: how many words were loaded, and why the others were skipped."""

    name: str
    loaded: int = 0
    skipped: Counter = field(default_factory=Counter)
    examples: dict = field(default_factory=dict)  # reason -> a few examples (line numbers for files)

    def skip(self, reason: str, example: str) -> None:
        self.skipped[reason] += 1
        shown = self.examples.setdefault(reason, [])
        if len(shown) < 3:
            shown.append(example)

    def to_json(self) -> dict:
        return {"name": self.name, "loaded": self.loaded, "skipped": dict(self.skipped), "examples": self.examples}

    def text(self) -> str:
        out = f"{self.name}: {self.loaded:,} words"
        if self.skipped:
            parts = [f"{n:,} {reason} (e.g. {', '.join(self.examples[reason])})" for reason, n in self.skipped.items()]
            out += "; skipped " + "; ".join(parts)
        return out


class Entry(NamedTuple):
    """A dictionary word: its reading, where it came from, and its headwords (漢字 forms). A
    named tuple: the default list makes 150,000 of them at start-up."""

    reading: str
    source: str
    headwords: str = ""
    common: bool = False  # JMdict marks it common; a user's own words count as common

    def __str__(self) -> str:
        return f"{self.reading}【{self.headwords}】" if self.headwords else self.reading


def read_lines(path: Path) -> Iterator[tuple[int, str]]:
    """(line number, text) of a UTF-8 word list, plain, .gz or .xz; a clear error otherwise (the
    one reader of text files, within melds' limits: solver.core.textfile)."""
    return textfile.read_lines(path)


def read_text(path: Path) -> str:
    """A whole UTF-8 word list at once (plain, .gz or .xz), with the errors of read_lines."""
    return textfile.read_text(path)


class Dictionary:
    """Words indexed on their tile keys, with a walk that finds every word spelled from a
    multiset of tiles. Built from the ruleset's default list and the user's own."""

    def __init__(self, tileset: TileSet):
        self.tileset = tileset
        self.by_key: dict[str, list[Entry]] = {}
        self.reports: list[SourceReport] = []
        self.excluded: set[str] = set()
        self._keys: list[str] | None = None

    @classmethod
    def for_game(
        cls, game: WordGame, user: Iterable[Path] = (), default: bool = True, exclude: Iterable[Path] = ()
    ) -> Dictionary:
        d = cls(TileSet(game))
        if default:
            d.add_default(game.dictionary_file, game.dictionary_name)
        for path in user:
            d.add_user(Path(path))
        for path in exclude:
            d.exclude(Path(path))
        return d

    def _add(self, reading: str, entry: Entry, report: SourceReport, where: str) -> None:
        key = self.tileset.key(reading)
        if NO_TILE in key:
            missing = next(ch for ch, k in zip(reading, map(self.tileset.key, reading), strict=True) if NO_TILE in k)
            report.skip("needing a letter no tile spells", f"{where}{reading} ({missing})")
            return
        self.by_key.setdefault(key, []).append(entry)
        report.loaded += 1
        self._keys = None

    def add_default(self, path: Path, name: str) -> None:
        report = SourceReport(name)
        if not path.is_file():
            raise MeldsError(
                f"the default dictionary {path} is missing: reinstall melds, or run tools/build_dictionary.py"
            )
        translate = self.tileset._translate
        by_key = self.by_key
        skipped = loaded = 0
        with no_collections():  # 150,000 small objects, none of them cyclic
            skipped, loaded = self._load_default(path, name, translate, by_key)
        report.loaded = loaded
        if skipped:
            report.skipped["needing a letter no tile spells"] = skipped
            report.examples["needing a letter no tile spells"] = ["こーひー (ー)", "ゐる (ゐ)"]
        self.reports.append(report)
        self._keys = None

    @staticmethod
    def _load_default(path: Path, name: str, translate: dict, by_key: dict) -> tuple[int, int]:
        skipped = loaded = 0
        # the fast path of _add: the default list is already normalised, one reading a line
        for line in read_text(path).splitlines():
            if line.startswith("#"):
                continue
            reading, heads, common = (line.split("\t") + ["", ""])[:3]
            key = reading.translate(translate)
            if NO_TILE in key:
                skipped += 1
                continue
            entry = Entry(reading, name, heads, common == "1")
            found = by_key.get(key)
            if found is None:
                by_key[key] = [entry]
            else:
                found.append(entry)
            loaded += 1
        return skipped, loaded

    def add_user(self, path: Path) -> None:
        """A user's list: one word a line (any kana spelling), ``#`` comments, blank lines."""
        report = SourceReport(path.name)
        for number, line in read_lines(path):
            text = line.split("#", 1)[0].strip()
            if not text:
                continue
            word = normalise(text)
            if not all(0x3041 <= ord(ch) <= 0x3096 or ch == "ー" for ch in word):
                report.skip("not kana", f"line {number}: {text}")
                continue
            self._add(word, Entry(word, path.name, common=True), report, f"line {number}: ")
        self.reports.append(report)

    def exclude(self, path: Path) -> None:
        """Ban the words of a list (exact readings, any kana spelling)."""
        report = SourceReport(f"{path.name} (excluded)")
        banned = set()
        for _number, line in read_lines(path):
            text = line.split("#", 1)[0].strip()
            if text:
                banned.add(normalise(text))
        for key in list(self.by_key):
            kept = [e for e in self.by_key[key] if e.reading not in banned]
            report.loaded += len(self.by_key[key]) - len(kept)
            if kept:
                self.by_key[key] = kept
            else:
                del self.by_key[key]
        self.excluded |= banned
        self.reports.append(report)
        self._keys = None

    def __len__(self) -> int:
        return len(self.by_key)

    @property
    def keys(self) -> list[str]:
        if self._keys is None:
            self._keys = sorted(self.by_key)
        return self._keys

    def lookup(self, spelling: Spelling) -> list[Entry]:
        """The entries spelled by these tiles, the exact reading first, then common words."""
        found = self.by_key.get(spelling.key, [])
        return sorted(found, key=lambda e: (e.reading != spelling.word, not e.common))

    def formable(self, available: Counter, min_tiles: int, max_tiles: int | None = None) -> list[str]:
        """Every key of ``min_tiles``..``max_tiles`` tiles spelled from ``available`` (a multiset
        of tiles): a depth-first walk over the sorted keys, entering a prefix only when some key
        starts with it and a tile for its next letter is left.

        >>> from solver.core.ruleset import load_ruleset
        >>> d = Dictionary.for_game(load_ruleset("word-rummy").rules)
        >>> "ねこ" in d.formable(Counter("ねこいぬ"), 2)
        True
        """
        keys = self.keys
        counts = dict(available)
        out: list[str] = []
        limit = max_tiles if max_tiles is not None else sum(counts.values())

        held = sorted(counts)

        def walk(prefix: str, lo: int, hi: int) -> None:
            depth = len(prefix)
            if lo < hi and keys[lo] == prefix:
                if depth >= min_tiles:
                    out.append(prefix)
                lo += 1
            if depth >= limit:
                return
            while lo < hi:
                tile = keys[lo][depth]
                if counts.get(tile, 0) > 0:
                    end = bisect_left(keys, prefix + tile + "\uffff", lo, hi)
                    counts[tile] -= 1
                    walk(prefix + tile, lo, end)
                    counts[tile] += 1
                    lo = end
                    continue
                # leapfrog: on to the next tile still held that sorts after this letter
                k = bisect_left(held, tile)
                while k < len(held) and (held[k] == tile or counts[held[k]] == 0):
                    k += 1
                if k == len(held):
                    return
                lo = bisect_left(keys, prefix + held[k], lo, hi)

        walk("", 0, len(keys))
        return out
