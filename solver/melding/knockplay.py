"""A knock played as an action (``melds move STATE 'knock CARD | MELD | …'``): the player
discards CARD, lays the melds and keeps the rest of the hand as deadwood, going out by a route of
``going_out:`` — one that keeps cards within its limit on their points (a knock), or one that
melds every card (gin). ``knock CARD`` alone lays the melds that keep the least card points.

What the moves judge (:class:`solver.melding.moves.MeldMoves`) needs beside its own checks: the
action read, a hand's melds with the least deadwood (the turn solver, as a knock is settled:
:mod:`solver.melding.knock`) and a meld as it lies on the table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from solver.core.deck import Face
from solver.core.errors import MeldsError
from solver.core.ruleset import Ruleset
from solver.melding.knock import least_count
from solver.melding.meld.checker import MeldChecker
from solver.melding.meld.points import in_table_order
from solver.melding.meld.verdict import Verdict


def read_knock(tokens: Sequence[str]) -> tuple[str | None, list[str] | None]:
    """``knock CARD | MELD | …`` read: the card discarded (None: no discard, ``knock | MELD | …``)
    and the melds' texts (None: ``knock CARD`` alone, the melds left to the solver)."""
    parts = [p.strip() for p in " ".join(tokens).split("|")]
    discard = parts[0].split()
    if len(discard) > 1:
        raise MeldsError(
            f"knock CARD | MELD | …: the first part is the one card discarded, not {parts[0]!r} "
            "(write 'knock | MELD | …' to discard none)"
        )
    melds = [p for p in parts[1:] if p]
    if not discard and not melds:
        raise MeldsError("knock what? 'knock CARD' (the melds that keep least), or 'knock CARD | MELD | …'")
    return (discard[0] if discard else None), (melds if len(parts) > 1 else None)


def least_deadwood(
    ruleset: Ruleset, checker: MeldChecker, hand: Sequence[Face], params: Mapping[str, Any] | None
) -> list[tuple[Face, ...]]:
    """The melds of a hand at rest (no discard) that keep the least card points, as the defender's
    count of a knock is found (:func:`~solver.melding.knock.least_count`)."""
    return [tuple(p.faces) for p in least_count(ruleset, checker, hand, params=params).melds]


def laid_order(verdict: Verdict) -> tuple[Face, ...]:
    """A legal meld's cards as it lies on the table (a run from its low end)."""
    reading = verdict.reading
    return verdict.faces if reading is None else tuple(p.face for p in in_table_order(reading))


def knock_candidates(
    ruleset: Ruleset,
    checker: MeldChecker,
    hand: Sequence[str],
    params: Mapping[str, Any] | None,
    discard_required: bool,
) -> list[str]:
    """The knocks worth judging from a hand (the cards' texts): each discard with the melds that
    keep the least after it, and — where the turn may end without a discard — every card laid."""
    fmt = checker.notation
    discards: list[str | None] = list(dict.fromkeys(hand))
    if not discard_required:
        discards.append(None)
    out = []
    for card in discards:
        rest = list(hand)
        if card is not None:
            rest.remove(card)
        melds = least_deadwood(ruleset, checker, fmt.parse_many(rest), params)
        if card is None and sum(map(len, melds)) < len(rest):
            continue  # no discard: every card is laid, or nothing goes out
        written = " | ".join(fmt.format_many(meld) for meld in melds)
        out.append(f"knock {card or ''}" + (f" | {written}" if written else " |" if card is None else ""))
    return out
