"""The lines of a sequence kind: the identities (suit, rank) a meld of the kind passes through,
position by position — one line a suit for a run, one line a starting suit and direction for a
kind whose suit steps along a cycle (a 相順 chain), unrolled past the end of a cyclic order so
that a window may wrap. The checker reads table layouts along them
(:mod:`solver.melding.meld.layouts`); the turn model lays sequence kinds out in slots along them
(:mod:`solver.melding.turn.slots`).
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.core.rules import MeldKind
from solver.melding.meld.cycles import SuitSteps


@dataclass(frozen=True)
class Line:
    """The identities a sequence kind passes through, by position."""

    kind: MeldKind
    identities: tuple[tuple[str, str], ...]
    cyclic: bool  # the last position is followed by the first
    starts: int  # stretches start before this position (an unrolled line repeats the order's head)


def kind_lines(kind: MeldKind, steps: SuitSteps | None) -> list[Line]:
    order = kind.run_order.ranks
    n = len(order)
    if kind.suit_step.cycle is None:
        return [Line(kind, tuple((suit, rank) for rank in order), kind.run_order.cyclic, n) for suit in kind.suits]
    span = n + min(kind.size_max, n) - 1 if kind.run_order.cyclic else n
    assert steps is not None, "a kind whose suits step along a cycle comes with the cycle's steps"
    return [
        Line(kind, tuple((steps.step(base, direction, t), order[t % n]) for t in range(span)), False, n)
        for direction, _ in kind.suit_step.directions
        for base in steps.successor
    ]
