"""Meld points shared out among the cards: the objective the turn's optimiser weighs.

Weighing each candidate meld by its points (a soft clause "this meld is made") makes the
optimiser's cost — the weight it leaves unsatisfied — the points of every candidate *not* made.
Candidates overlap, so that cost is many times the optimum (a random hand of 45 cards: 1,297 points of
candidates for a best turn of 53), and a core-guided optimiser must find a core for almost every
unit of it: over a thousand SAT calls, seconds on the hardest hands.

A card of which the turn holds one copy sits in one meld at most, so a meld's points can be paid
to its cards instead: each candidate pays each such card a *share*, its shares summing to its
points, and the objective is what the cards are paid. A card's *cap* is the most any candidate
pays it; the caps are chosen as small as a greedy integer cover makes them while every candidate
can still pay its points (the sum of its cards' caps at least its points), so the caps add up to
little more than the best turn (53 against 81 above) and the cost left to prove is small. A card's
pay is weighed by one soft clause a distinct share ``t`` it can be paid: "some candidate paying it
``t`` or more is made", an OR of candidate literals, weighing the step from the share below.

Exact, not a bound: in every turn, what the cards are paid is the points of the melds made. Points
no such card can carry (a meld of cards held twice, say) stay on the meld's own literal.

Melds laid out in slots (:mod:`solver.melding.meld.lines`) pay their cards by position instead: a
card's *ladder* on a line says "paid ``v`` or more when one of these literals holds"; its rungs
join the card's thresholds, and its top is a floor under the card's cap.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

Soft = tuple[list[int], int]  # (clause, weight)
Ladder = Sequence[tuple[int, Sequence[int]]]  # (paid at least this, when one of these literals holds), rising


@dataclass(frozen=True)
class Level:
    """One level of the objective in the optimiser's weights: the satisfied weight of its soft
    clauses, unscaled, plus ``offset`` is the measure's value in a turn."""

    measure: str
    total: int  # the weight of the level's soft clauses, unscaled
    scale: int  # what one unit of the level weighs (more than every level below it together)
    offset: int = 0


def caps(
    melds: Sequence[tuple[int, int, Sequence[Hashable]]], floors: Mapping[Hashable, int] | None = None
) -> dict[Hashable, int]:
    """Integer caps per card, small, with every meld's cards' caps adding up to its points:
    melds taken densest first (points per card), each raising its cards, lowest first, by what
    it still lacks, split evenly. ``floors``: caps no lower than these."""
    cap: dict[Hashable, int] = defaultdict(int, floors or {})
    for _, points, cards in sorted(melds, key=lambda m: -m[1] / max(1, len(m[2]))):
        lacking = points - sum(cap[c] for c in cards)
        if lacking <= 0 or not cards:
            continue
        each, extra = divmod(lacking, len(cards))
        for i, card in enumerate(sorted(cards, key=lambda c: cap[c])):
            cap[card] += each + (i < extra)
    return cap


def share_out(
    melds: Sequence[tuple[int, int, Sequence[Hashable]]], ladders: Mapping[Hashable, Sequence[Ladder]] | None = None
) -> list[Soft]:
    """Soft clauses whose satisfied weight is the points of the melds made. ``melds``: (literal,
    points, the cards it may pay — each in at most one meld made, and not twice in one meld);
    ``ladders``: per card, what the lines it is laid on pay it."""
    ladders = ladders or {}
    cap = caps(melds, {card: max(ladder[-1][0] for ladder in rungs) for card, rungs in ladders.items()})
    pay: dict[Hashable, list[tuple[int, int]]] = defaultdict(list)  # card -> (share, meld literal)
    soft: list[Soft] = []
    for lit, points, cards in melds:
        left = points
        for card in sorted(cards, key=lambda c: cap[c]):  # the smallest caps filled first
            share = min(cap[card], left)
            if share:
                pay[card].append((share, lit))
                left -= share
        if left:  # no card to carry it (the cover leaves none over for melds that have cards)
            soft.append(([lit], left))
    for card in list(pay) + [card for card in ladders if card not in pay]:
        paid, rungs = pay.get(card, []), ladders.get(card, ())
        below = 0
        for share in sorted({s for s, _ in paid} | {v for ladder in rungs for v, _ in ladder}):
            clause = [lit for s, lit in paid if s >= share]
            for ladder in rungs:  # the lowest rung paying this much
                clause += next((list(lits) for v, lits in ladder if v >= share), [])
            soft.append((clause, share - below))
            below = share
    return soft


def one_of_pays(choices: Sequence[Sequence[tuple[int, int]]]) -> tuple[list[Soft], int]:
    """Soft clauses whose satisfied weight, plus the offset returned, is what the options chosen
    are worth, when exactly one option of each choice is chosen (a table meld's forms, each
    gaining or losing the player meld points). ``choices``: per choice, (literal, value).

    A ladder from the choice's least value up: "the option chosen is worth ``v`` or more" weighs
    the step from the value below, and the least value goes to the offset, so a choice weighs
    what its option is worth above its worst — one soft clause a distinct value, not one a form.
    A step is the OR of the options worth that much, or, when a single option is worth less, that
    option's negation (a unit clause). Gains as a ladder (not a unit clause per gain): the
    options' gains added up are far above what any turn reaches, and the optimiser would have to
    prove them out of reach. Losses as a ladder too (not a unit clause per losing form): the
    player's own meld of three wilds has hundreds of forms that lose a point or two, and a bound
    on the weight left unmet counted each of them (docs/performance.md)."""
    soft: list[Soft] = []
    offset = 0
    for options in choices:
        if not options:
            continue
        values = sorted({value for _, value in options})
        below = values[0]
        offset += below
        for value in values[1:]:
            under = [lit for lit, worth in options if worth < value]
            clause = [-under[0]] if len(under) == 1 else [lit for lit, worth in options if worth >= value]
            soft.append((clause, value - below))
            below = value
    return soft, offset
