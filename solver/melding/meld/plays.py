"""Which faces a meld kind can hold at all: a face no role entry of the kind gives one of its suits
and ranks can be in no meld of the kind, so the checker builds and asks no model for cards with
such a face (:meth:`~solver.melding.meld.checker.MeldChecker._query`)."""

from __future__ import annotations

from collections.abc import Sequence

from solver.core.deck import Deck, Face
from solver.core.rules import MeldKind


class KindPlays:
    """What faces of ``deck`` each kind can hold, at each meld size; worked out once a kind and size."""

    def __init__(self, deck: Deck):
        self.deck = deck
        self._plays: dict[tuple, bool] = {}  # (kind, face, size) -> a role could hold it
        self._masks: dict[tuple[str, int], int] = {}  # (kind, size) -> the faces that can play, a bit each

    def can_play(self, kind: MeldKind, face: Face, n: int) -> bool:
        """Some role entry of ``kind`` gives ``face`` a suit of the kind and a rank of it (of its
        order, for a sequence that fits in it); else the model could not hold the card present."""
        key = (kind.id, face, n)
        known = self._plays.get(key)
        if known is None:
            window = kind.shape == "sequence" and n <= len(kind.run_order.ranks)
            ranks = set(kind.run_order.ranks if kind.shape == "sequence" else kind.ranks)
            known = any(
                e.applies(face)
                and set(e.role.suits_for(face)) & set(kind.suits)
                and (kind.shape == "sequence" and not window or set(e.role.ranks_for(face)) & ranks)
                for e in kind.roles
            )
            self._plays[key] = known
        return known

    def all_play(self, kind: MeldKind, faces: Sequence[Face]) -> bool:
        """Every one of ``faces`` :meth:`can_play` in a meld of them of ``kind``."""
        n = len(faces)
        mask = self._masks.get((kind.id, n))
        if mask is None:
            mask = sum(1 << face.index for face in self.deck.faces if self.can_play(kind, face, n))
            self._masks[(kind.id, n)] = mask
        return all(mask >> face.index & 1 for face in faces)
