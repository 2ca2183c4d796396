"""One kind's answer to a question about cards (:class:`~solver.melding.meld.checker.MeldChecker`): the
cards as physical copies, the layouts its model is asked in, what it found — the reading, and the
assumptions and model behind it — and that answer carried over to another order of the same cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from solver.core.deck import Face
from solver.melding.meld.encode import KindModel, Reading


@dataclass
class Found:
    """A kind's reading of the cards with the fewest wilds, and the model and assumptions it was read
    under (what the checker asks again for the other identities a wild could take)."""

    reading: Reading
    assumptions: list
    model: KindModel | None  # None: a plain kind's reading, counted (no model asked)
    indices: list


def decoded(model: KindModel, indices: list[int]) -> Reading:
    """The reading of a model just solved with its rules on (only a degenerate model, whose size
    rule fails, has none)."""
    reading = model.reading(indices)
    if reading is None:
        raise AssertionError(f"a degenerate model of {model.kind.id} was satisfied")
    return reading


def in_this_order(outcome: Found | Reading | None, cards: list) -> Found | Reading | None:
    """A kind's outcome for some order of these cards (the checker's ``_kind_reading``, of a kind that
    is no sequence), for this order: the reading is the same — its placements name each card by face
    and copy, the k-th occurrence of a face its copy k in any order, and it lists them in the kind's
    own order —, and so are the model's assumptions (presence is per card, no layout); only the
    cards' indices follow the order (the checker's ``_could_be`` reads the wilds through them)."""
    if not isinstance(outcome, Found) or outcome.model is None:
        return outcome
    indices = outcome.model.card_indices(cards)
    assert indices is not None, "the same cards, so the same indices in another order"
    return Found(outcome.reading, outcome.assumptions, outcome.model, indices)


def always_wild(model: KindModel, indices: list[int]) -> int:
    """How many of the cards every role of the kind makes wild: a floor under any reading's wilds."""
    return sum(all(e.role.wild for _, e in model.entries[c]) for c in indices)


def open_ways(layouts: list[list[int]], ways: tuple[int | None, int | None]) -> list[tuple[list[int], int]]:
    """The model's layouts (left to right, right to left) some window reads, each with the fewest
    wilds its windows need (:meth:`LayoutLines.least_wilds_each_way`): a way no window reads is
    unsatisfiable, so it is not asked."""
    return [(layout, way) for layout, way in zip(layouts, ways, strict=True) if way is not None]


def as_cards(faces: Sequence[Face]) -> list:
    """Faces to physical cards: the k-th occurrence of a face is its copy k."""
    seen: dict = {}  # a plain dict: a table search asks this hundreds of thousands of times
    cards = []
    for face in faces:
        copy = seen.get(face, 0)
        cards.append((face, copy))
        seen[face] = copy + 1
    return cards


def query_layouts(model: KindModel, indices: list[int], ordered: bool) -> list[list[int]]:
    if model.kind.shape != "sequence":
        return [[]]
    if not ordered:
        return [model.canonical_start()]
    return [model.layout(indices, reverse=False), model.layout(indices, reverse=True)]
