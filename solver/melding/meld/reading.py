"""A reading of cards as a meld of one kind: each card's role and the identity it stands for.

The kinds' models (:mod:`solver.melding.meld.encode`) decode their answers into readings; the
checker, the reasons and the turn models show and score them.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.core.deck import Face
from solver.core.rules import MeldKind


@dataclass(frozen=True)
class Placement:
    """One card of a reading: the card, the role it plays and the identity it stands for."""

    face: Face
    copy: int
    role: str
    wild: bool
    identity: tuple  # (suit, rank)
    offset: int | None  # position in a sequence window, None for groups


def sequence_place(p: Placement) -> int:
    """A card's position in its sequence window (every card of a sequence has one)."""
    if p.offset is None:
        raise ValueError(f"{p.identity} is not placed in a sequence")
    return p.offset


@dataclass(frozen=True)
class Reading:
    """One way to read the given cards as a meld of one kind."""

    kind: MeldKind
    placements: tuple[Placement, ...]
    direction: str | None = None  # for suit-stepping sequences: the name of the direction

    @property
    def naturals(self) -> int:
        return sum(not p.wild for p in self.placements)

    @property
    def wilds(self) -> int:
        return sum(p.wild for p in self.placements)
