"""The deck: suits, ranks, card classes and the faces printed on cards, with their copies.

A *face* is what is printed on a card (its class, suit and rank); several physical copies may
share one. An *identity* ``(suit id, rank id)`` is what a card counts as inside a meld: a natural
card counts as its own face, a wild as the identity it stands for.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

from solver.core.source import Source


@dataclass(frozen=True)
class Suit:
    id: str
    names: tuple[str, ...] = ()
    color: str | None = None


@dataclass(frozen=True)
class Rank:
    id: str
    names: tuple[str, ...] = ()
    value: int | None = None


@dataclass(frozen=True)
class CardClass:
    id: str
    name_en: str | None
    suits: tuple[str, ...]
    ranks: tuple[str, ...]
    spell: tuple[str, ...]
    copies: int
    source: Source | None


@dataclass(frozen=True, order=True)
class Face:
    """What is printed on a card: its class, suit and rank. Several copies may share a face."""

    index: int
    cls: str = field(compare=False)
    suit: str | None = field(compare=False)
    rank: str | None = field(compare=False)

    def __hash__(self) -> int:  # faces are hashed in the hot loops: the index is the identity
        return self.index


@dataclass(frozen=True, eq=False)  # compared by identity: built once per ruleset and options
class Deck:
    suits: tuple[Suit, ...]
    ranks: tuple[Rank, ...]
    classes: tuple[CardClass, ...]
    faces: tuple[Face, ...]
    copies: Mapping[Face, int]
    identity_spell: str

    def suit(self, suit_id: str) -> Suit:
        return next(s for s in self.suits if s.id == suit_id)

    def rank(self, rank_id: str) -> Rank:
        return next(r for r in self.ranks if r.id == rank_id)

    def card_class(self, class_id: str) -> CardClass:
        return next(c for c in self.classes if c.id == class_id)

    @cached_property
    def size(self) -> int:
        """Cards in the deck (asked per card read: counted once)."""
        return sum(self.copies.values())


def rank_order(rank: str) -> tuple[int, int | str]:
    """A sort key for rank ids: numbers by value (2 before 10), then names."""
    return (0, int(rank)) if rank.lstrip("-").isdigit() else (1, rank)
