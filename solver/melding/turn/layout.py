"""A turn the model chose, laid out as single steps in an order the rules allow.

The turn model counts cards, not order. Its choice — one form per table meld (each with its own
path of single-card operations, :mod:`solver.melding.table.forms`) and the new melds — is laid
out here: a 鳴き turn melds the claimed card first; before the player's own first meld, the
operations forbidden then wait for a new meld, and a card an exchange takes is melded at once.
Melds are independent, so each form's own path keeps its order; what is searched is the
interleaving, depth first over a few items, failures remembered.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from solver.core.deck import Face
from solver.melding.meld.encode import Reading
from solver.melding.meld.points import meld_points
from solver.melding.table.forms import Form
from solver.melding.table.operations import Operation, TableMeld
from solver.melding.turn.problem import Problem

Cards = tuple[tuple[Face, int], ...]  # (card, count) pairs
Hand = dict[Face, int]  # a plain dict changed by hand: the search runs tens of thousands of times a turn


@dataclass(frozen=True)
class Step:
    """One play of the turn, in order."""

    action: str  # "meld" for a new meld, or the operation's id
    op: Operation | None
    table: int | None  # which table meld (index into the problem's table)
    played: tuple[Face, ...]  # hand cards put down
    taken: tuple[Face, ...]  # cards taken into the hand
    reading: Reading  # the meld as it stands after the step
    result: TableMeld | None  # the table meld after an operation
    points: int  # meld points the step adds for the player


@dataclass(frozen=True)
class NewMeld:
    faces: tuple[Face, ...]
    reading: Reading
    points: int


def lay_out(
    problem: Problem,
    claim: Face | None,
    forms: Sequence[Form],
    melds: Sequence[NewMeld],
    start_points: Sequence[int],
    supply: Counter[Face] | None = None,
) -> list[Step] | None:
    """The chosen forms' operations and the new melds as steps in an order the rules allow, or
    None. ``start_points``: each table meld's points before the turn; ``supply``: cards held
    beyond the hand from the start (a relaxation, see ``TableTurn._deadlock``)."""
    search = _Interleaving(problem, forms, melds, start_points)
    hand = dict(Counter(problem.hand) + (supply or Counter()))
    return search.steps(tuple(0 for _ in forms), frozenset(), hand, problem.has_melded, (), claim)


class _Interleaving:
    """The depth-first search of :func:`lay_out`. A state: how far each form's path has gone
    (``at``), the new melds made, the hand, whether the player has a meld of their own, the
    cards that must be melded next, and the claimed card still to meld."""

    def __init__(self, problem: Problem, forms: Sequence[Form], melds: Sequence[NewMeld], start: Sequence[int]):
        self.problem, self.forms, self.melds, self.start = problem, forms, melds, start
        self.failed: set[tuple] = set()
        # per form, per move of its path: the cards it needs in the hand and what it leaves there
        self.needs = [[_cards(move.played) for move in form.path] for form in forms]
        self.gives = [[_cards(move.taken) for move in form.path] for form in forms]
        self.meld_cards = [_cards(meld.faces) for meld in melds]

    def steps(
        self, at: tuple, made: frozenset, hand: Hand, own: bool, pending: tuple, claim: Face | None
    ) -> list[Step] | None:
        # the hand is fixed by the steps taken (``at`` and ``made``): it is not part of the key
        key = (at, made, own, pending, claim)
        if key in self.failed:
            return None
        rest = [j for j in range(len(self.melds)) if j not in made]
        if claim is not None or pending:  # a meld first, holding the card that must be melded now
            found = self._meld_holding({claim} if claim is not None else set(pending), at, made, hand, pending, rest)
        elif all(i == len(form.path) for i, form in zip(at, self.forms, strict=True)):
            found = self._the_rest(hand, rest)
        else:
            found = self._next_move(at, made, hand, own)
            if found is None and not own:  # a meld of one's own first, to open the operations forbidden before it
                found = next(
                    (
                        [_meld_step(self.melds[j])] + after
                        for j in rest
                        if _holds(hand, self.meld_cards[j])
                        and (after := self.steps(at, made | {j}, _less(hand, self.meld_cards[j]), True, (), None))
                        is not None
                    ),
                    None,
                )
        if found is None:
            self.failed.add(key)
        return found

    def _meld_holding(
        self, must: set[Face], at: tuple, made: frozenset, hand: Hand, pending: tuple, rest: list[int]
    ) -> list[Step] | None:
        for j in rest:
            faces = self.melds[j].faces
            if must & set(faces) and _holds(hand, self.meld_cards[j]):
                left = list(pending)
                for f in faces:
                    if f in left:
                        left.remove(f)
                found = self.steps(at, made | {j}, _less(hand, self.meld_cards[j]), True, tuple(left), None)
                if found is not None:
                    return [_meld_step(self.melds[j])] + found
        return None

    def _the_rest(self, hand: Hand, rest: list[int]) -> list[Step] | None:
        """Every path done: the new melds left, at the end, if the hand holds them."""
        if _holds(hand, _cards(f for j in rest for f in self.melds[j].faces)):
            return [_meld_step(self.melds[j]) for j in rest]
        return None

    def _next_move(self, at: tuple, made: frozenset, hand: Hand, own: bool) -> list[Step] | None:
        """The next move of some form's path, then the rest."""
        for n, (i, form) in enumerate(zip(at, self.forms, strict=True)):
            if i == len(form.path):
                continue
            move = form.path[i]
            before_own = move.op.before_own_meld
            if not _holds(hand, self.needs[n][i]) or (not own and before_own == "forbidden"):
                continue
            waits = tuple(sorted(move.taken)) if (not own and before_own == "meld-taken-at-once") else ()
            after = _less(hand, self.needs[n][i])
            for f, k in self.gives[n][i]:
                after[f] = after.get(f, 0) + k
            found = self.steps(at[:n] + (i + 1,) + at[n + 1 :], made, after, own, waits, None)
            if found is not None:
                previous = form.path[i - 1].reading if i else None
                gain = 0
                if self.problem.table[form.table].mine:
                    gain = meld_points(move.reading) - (meld_points(previous) if previous else self.start[n])
                step = Step(move.op.id, move.op, move.table, move.played, move.taken, move.reading, move.result, gain)
                return [step] + found
        return None


def _cards(faces) -> Cards:
    return tuple(Counter(faces).items())


def _holds(hand: Hand, cards: Cards) -> bool:
    return all(hand.get(f, 0) >= k for f, k in cards)


def _less(hand: Hand, cards: Cards) -> Hand:
    """The hand after playing ``cards`` (which the hand holds)."""
    after = dict(hand)
    for f, k in cards:
        after[f] -= k
    return after


def _meld_step(meld: NewMeld) -> Step:
    return Step("meld", None, None, meld.faces, (), meld.reading, None, meld.points)


def most_lent(forms: Sequence[Form]) -> Counter[Face]:
    """Of one table meld's forms, the most of each card a path has given the hand at any moment,
    beyond what it has taken from it: cards taken out less cards played in, after each step. A
    card the path takes back after the hand played it into the meld (a wild laid in by 抜き札,
    taken again by 差し札) lends nothing: such a meld never held the card for the hand, and a
    deadlock's nogood that counted it would keep that meld's form and meet the same deadlock
    again with each of its other forms."""
    most: Counter[Face] = Counter()
    for form in forms:
        lent: Counter[Face] = Counter()
        for move in form.path:
            lent.subtract(move.played)
            lent.update(move.taken)
            most |= lent  # | keeps the positive counts only
    return most
