"""Card notation: parsing what users type and printing what the documents write, in one place.

A ruleset's deck declares, per card class, its spellings (``"{suit}{rank}"``, ``"空無{suit}"``,
...) and, per suit and rank, the names that may stand in ``{suit}``/``{rank}``. From those this
module builds one lookup table; parsing is a dictionary lookup after Unicode (NFKC) and case
normalisation, so ``木3``, ``wood3`` and ``WD3`` are the same card, as are ``S9``, ``9s``, ``♠9``
and ``9♠``. The first spelling of a class, with the suit and rank ids, is how a card is printed.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from operator import attrgetter, itemgetter
from typing import cast

from solver.core.deck import Deck, Face
from solver.core.errors import TooManyCopies, UnknownCard

_COLORS = {
    "black": None,
    "white": None,
    "red": "red",
    "green": "green",
    "yellow": "yellow",
    "blue": "blue",
    "magenta": "magenta",
    "cyan": "cyan",
}


_WORD = re.compile(r"[^\s,、，]+")  # a card's spelling between separators (Notation.split)
_INDEX = attrgetter("index")  # a face's index (faces are read by it: a face's hash is a Python call)
SHORT_TEXT = 4096  # characters: a text of cards this short is split at once
SPELLINGS_KEPT = 4096  # the most spellings as given kept by a notation (Notation.spelled)


def _key(text: str) -> str:
    return unicodedata.normalize("NFKC", text).strip().casefold()


@dataclass(frozen=True)
class Notation:
    deck: Deck
    table: dict[str, Face]  # normalised spelling -> Face
    canonical: dict[Face, str]  # Face -> printed spelling
    # spellings as given -> Face, each read once (a batch reads the same few dozen again and again)
    spelled: dict[str, Face] = field(default_factory=dict, compare=False, repr=False)
    # identities (suit, rank) -> printed spelling, each spelled once (the deck's suits and ranks: few)
    identities: dict[tuple[str | None, str | None], str] = field(default_factory=dict, compare=False, repr=False)

    @cached_property
    def in_deck(self) -> frozenset[Face]:
        """The faces the deck holds at least one copy of."""
        return frozenset(f for f, count in self.deck.copies.items() if count >= 1)

    @cached_property
    def in_deck_indices(self) -> frozenset[int]:
        """The face indices of :attr:`in_deck` (a face is its index: no Python hash a face)."""
        return frozenset(f.index for f in self.in_deck)

    @cached_property
    def by_index(self) -> list[str]:
        """Each face's printed spelling by its index (faces read without hashing them)."""
        spelled = [""] * (max((f.index for f in self.canonical), default=-1) + 1)
        for face, text in self.canonical.items():
            spelled[face.index] = text
        return spelled

    @staticmethod
    def for_deck(deck: Deck) -> Notation:
        return _notation_for(deck)

    # -- parsing ----------------------------------------------------------------------------

    def parse(self, token: str) -> Face:
        """One card from its spelling; an unknown spelling says what is valid. Each spelling as
        given is normalised once and kept (:attr:`spelled`)."""
        face = self.spelled.get(token)
        if face is None:
            face = self.table.get(_key(token))
            if face is None:
                raise UnknownCard(self._unknown_message(token))
            if len(self.spelled) >= SPELLINGS_KEPT:
                self.spelled.clear()
            self.spelled[token] = face
        return face

    def split(self, text: str) -> list[str]:
        return [t for t in re.split(r"[\s,、，]+", text.strip()) if t]

    def parse_many(self, tokens: str | Iterable[str]) -> list[Face]:
        """Cards from a string or a list of strings (each may hold several, space-separated)."""
        if isinstance(tokens, str):
            tokens = [tokens]
        out: list[Face] = []
        size = self.deck.size
        read = self.spelled
        for token in tokens:
            # a short text's spellings at once; a long one's one at a time, so that a huge one is
            # refused before it is read whole
            words: Iterable[str]
            if len(token) <= SHORT_TEXT:
                # str.split() splits at the same white space as the pattern's \s (Unicode's)
                words = _WORD.findall(token) if "," in token or "、" in token or "，" in token else token.split()
                if len(out) + len(words) <= size:  # each spelling read before: all at once
                    known = list(map(read.get, words))
                    if all(known):  # (a face is true; a spelling not read yet is None)
                        out += cast("list[Face]", known)
                        continue
            else:
                words = (m.group() for m in _WORD.finditer(token))
            for word in words:
                face = read.get(word)  # parse()'s own memo, looked up inline: the hot loop of a batch
                out.append(face if face is not None else self.parse(word))
                if len(out) > size:  # no hand holds more
                    raise TooManyCopies(f"more than {size} cards given, but the whole deck has {size}")
        return out

    def check_copies(self, faces: Sequence[Face], available: dict[Face, int] | None = None) -> None:
        """More copies of a card than the deck (or the given pool) holds is an error."""
        if available is None:
            distinct = set(map(_INDEX, faces))
            if len(distinct) == len(faces) and distinct <= self.in_deck_indices:  # each once, each in the deck
                return
        limits = available if available is not None else self.deck.copies
        for face, count in Counter(faces).items():
            if count > limits.get(face, 0):
                held = limits.get(face, 0)
                raise TooManyCopies(
                    f"{self.format(face)} is given {count} times, but the deck holds "
                    f"{held} cop{'y' if held == 1 else 'ies'}"
                )

    def _unknown_message(self, token: str) -> str:
        close = difflib.get_close_matches(_key(token), list(self.table), n=3, cutoff=0.6) if len(token) <= 40 else []
        guesses = sorted({self.format(self.table[c]) for c in close})
        hint = f" Did you mean {' or '.join(guesses)}?" if guesses else ""
        shown = token if len(token) <= 40 else token[:37] + "…"
        return f"unknown card {shown!r} for this deck.{hint} {self.describe()}"

    def describe(self) -> str:
        """A one-sentence summary of how cards of this deck are written."""
        parts = []
        ascii_parts = []
        for cls in self.deck.classes:
            faces = [f for f in self.deck.faces if f.cls == cls.id]
            if not faces:  # a class the options leave out of the deck (no jokers)
                continue
            first, last = self.format(faces[0]), self.format(faces[-1])
            parts.append(first if len(faces) == 1 else f"{first} … {last}")
            alt = self._ascii_example(faces[0])
            if alt and alt != first:
                ascii_parts.append(alt)
        text = "Cards are written " + ", ".join(parts)
        if ascii_parts:
            text += " (ASCII: " + ", ".join(ascii_parts) + ")"
        return text + "."

    def _ascii_example(self, face: Face) -> str | None:
        for spelling, f in self.table.items():
            if f == face and spelling.isascii():
                return spelling
        return None

    # -- printing ---------------------------------------------------------------------------

    def format(self, face: Face) -> str:
        return self.canonical[face]

    def spell_all(self, faces: Iterable[Face]) -> list[str]:
        """The printed spellings of ``faces``, in order."""
        spelled = self.by_index
        indices = list(map(_INDEX, faces))
        if len(indices) > 1:  # one C call for the spellings (a batch spells every answer's cards)
            return list(itemgetter(*indices)(spelled))
        return [spelled[i] for i in indices]

    def format_many(self, faces: Iterable[Face]) -> str:
        return " ".join(self.format(f) for f in faces)

    def format_identity(self, identity: tuple[str | None, str | None]) -> str:
        text = self.identities.get(identity)
        if text is None:
            suit, rank = identity
            text = self.deck.identity_spell.replace("{suit}", suit or "").replace("{rank}", rank or "")
            self.identities[identity] = text
        return text

    def color_of(self, face_or_suit: Face | str | None) -> str | None:
        suit = face_or_suit.suit if isinstance(face_or_suit, Face) else face_or_suit
        if suit is None:
            return "bright_white" if isinstance(face_or_suit, Face) else None
        return _COLORS.get(self.deck.suit(suit).color or "black")


@cache
def _notation_for(deck: Deck) -> Notation:
    suit_names = {s.id: (s.id,) + s.names for s in deck.suits}
    rank_names = {r.id: (r.id,) + r.names for r in deck.ranks}
    table: dict[str, Face] = {}
    canonical: dict[Face, str] = {}
    for cls in deck.classes:
        for face in (f for f in deck.faces if f.cls == cls.id):
            for t_index, template in enumerate(cls.spell):
                suits = suit_names[face.suit] if face.suit is not None and "{suit}" in template else ("",)
                ranks = rank_names[face.rank] if face.rank is not None and "{rank}" in template else ("",)
                for s_index, suit in enumerate(suits):
                    for r_index, rank in enumerate(ranks):
                        text = template.replace("{suit}", suit).replace("{rank}", rank)
                        if t_index == s_index == r_index == 0:
                            canonical[face] = text
                        key = _key(text)
                        other = table.get(key)
                        if other is not None and other != face:
                            raise ValueError(f"spelling {text!r} names two cards")
                        table[key] = face
    return Notation(deck, table, canonical)
