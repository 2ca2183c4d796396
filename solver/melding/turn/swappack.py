"""Ways out within a bound of swaps found among a swap model's candidates by a depth-first
search, no SAT call: :mod:`solver.melding.turn.distance` asks it before the solver.

A plain turn (no table, no route, no first-meld minimum, no cap on melds, the field's phase given)
goes out when its melds, each a verified candidate, place every card of the hand after the swaps
but the discard. The search takes the hand's cards in turn, the one fewest candidates hold first:
each is melded by a candidate holding it (its other cards the hand's while it has them, else drawn
from the copies left) or let go (set aside, or the discard); then melds of drawn cards alone may
make up the cards a way out melds. A choice that draws more than the
bound, or lets go more than the bound's swaps and the discard, is not taken. When every hand card
is placed and the melds hold exactly the cards a way out melds, their candidates are verified by
the checker (the model's own verdicts, shared with its solver); one that is illegal is never
chosen again. A search that tries every choice and finds nothing refutes the bound as the solver
would (up to the model's reach); one that runs out of steps proves nothing, and the solver is
asked then. The prunings are exact: an option draws at least the cards the hand lacks of it, and
each hand card melded at least its least share of an option's drawn cards (as the floor of
:mod:`~solver.melding.turn.swapfloor`).

A discard table's row asks which draws start a way out: the same search, every full choice
collected instead of the first (:meth:`PackSearch.draws`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import repeat
from math import lcm
from typing import Generic, Protocol, TypeVar

from solver.core.deck import Face

STEPS = 100000  # choices tried before the search gives the question back to the solver


class Packable(Protocol):
    """What the search reads of an option: the cards it melds (the hand's and drawn ones)."""

    @property
    def hand_faces(self) -> tuple[Face, ...]: ...


AnOption = TypeVar("AnOption", bound=Packable)


@dataclass(frozen=True)
class Packing(Generic[AnOption]):
    """A way out: the options melded, the hand's cards set aside, the cards drawn, the discard."""

    options: tuple[AnOption, ...]
    aside: tuple[Face, ...]
    drawn: tuple[Face, ...]
    discard: Face | None


@dataclass(frozen=True)
class Searched(Generic[AnOption]):
    """What a search found (None: nothing), and whether it searched every choice: then nothing
    found means no way out among the options."""

    packing: Packing[AnOption] | None
    complete: bool


@dataclass(frozen=True)
class Draws:
    """The cards drawn in some way out the search found, and whether it searched every choice
    (then they are every such card)."""

    faces: frozenset[Face]
    complete: bool


class _OutOfSteps(Exception):
    pass


def _counted(faces: list[int]) -> tuple[tuple[int, int], ...]:
    """The copies of each face among ``faces``."""
    if len(set(faces)) == len(faces):
        return tuple(zip(faces, repeat(1, len(faces)), strict=True))
    return tuple(Counter(faces).items())


class PackSearch(Generic[AnOption]):
    """The search over one model's options (those not known illegal) for a hand held as ``held``,
    copies up to ``most`` per face (the hand's and those left to draw); ``melded``: the cards a
    way out melds (the hand's size, less one when ``discard`` is required). Faces are numbered."""

    def __init__(
        self, options: Sequence[AnOption], held: Counter[Face], most: Counter[Face], melded: int, discard: bool
    ):
        self.options, self.melded, self.discard = list(options), melded, discard
        listed = {f.index: f for o in options for f in o.hand_faces}  # by number: a face's hash is Python's
        listed.update((f.index, f) for f in (*held, *most))
        self.faces = sorted(listed.values())
        number = {f.index: n for n, f in enumerate(self.faces)}
        self.held = [held[f] for f in self.faces]
        self.most = [max(most[f], held[f]) for f in self.faces]
        self.needs = [_counted([number[f.index] for f in o.hand_faces]) for o in self.options]
        sizes = [len(o.hand_faces) for o in self.options]
        had = self.held
        from_hand = [sum(min(n, had[f]) for f, n in need) for need in self.needs]
        self.drawing = [size - h for size, h in zip(sizes, from_hand, strict=True)]  # drawn cards, at least
        self.holding: dict[int, list[int]] = {number[f.index]: [] for f in held}
        for i, need in enumerate(self.needs):
            for f, _ in need:
                if f in self.holding:
                    self.holding[f].append(i)
        for found in self.holding.values():  # fewest drawn cards first, then the most cards
            found.sort(key=lambda i: (self.drawing[i], -sizes[i]))
        self.order = sorted(self.holding, key=lambda f: (len(self.holding[f]), f))
        self.by_size = sorted(range(len(self.options)), key=sizes.__getitem__)
        self.forbidden: set[int] = set()  # options the checker refused
        # each hand card's least share of an option's drawn cards, in whole units (swapfloor.py)
        self.unit = lcm(*range(1, held.total() + 1)) if held else 1
        never = self.unit * (melded + 1)
        self.least = {
            f: min((self.drawing[i] * (self.unit // from_hand[i]) for i in found), default=never)
            for f, found in self.holding.items()
        }
        self.dearest = sorted(self.least, key=self.least.__getitem__, reverse=True)  # the hand's faces

    def find(self, bound: int, legal: Callable[[AnOption], bool], aside: Face | None = None) -> Searched[AnOption]:
        """A way out in at most ``bound`` swaps whose every option ``legal`` passes, a copy of
        ``aside`` among the cards set aside when given."""
        self._start(bound, legal, aside, None)
        try:
            return Searched(self._walk(0, 0, 0), True)
        except _OutOfSteps:
            return Searched(None, False)

    def draws(self, bound: int, legal: Callable[[AnOption], bool], aside: Face) -> Draws:
        """The cards drawn in the ways out in at most ``bound`` swaps with a copy of ``aside`` set
        aside (a discard table's row: the draws that help once ``aside`` is let go)."""
        collected: set[int] = set()
        self._start(bound, legal, aside, collected)
        try:
            self._walk(0, 0, 0)
        except _OutOfSteps:
            return Draws(frozenset(self.faces[f] for f in collected), False)
        return Draws(frozenset(self.faces[f] for f in collected), True)

    def _start(
        self, bound: int, legal: Callable[[AnOption], bool], aside: Face | None, collected: set[int] | None
    ) -> None:
        self.bound, self.legal, self.steps, self.collected = bound, legal, STEPS, collected
        self.wanted = self.faces.index(aside) if aside is not None else None
        self.free = list(self.held)  # hand copies not yet melded nor let go
        self.drawn = [0] * len(self.faces)  # copies drawn
        self.chosen: list[tuple[int, list[int]]] = []  # the options melded, and their cards from the hand
        self.let_go: list[int] = []
        self.taken: set[int] = set()
        if self.wanted is not None and self.free[self.wanted]:  # a copy of it let go first: it is set aside
            self.free[self.wanted] -= 1
            self.let_go.append(self.wanted)

    def _walk(self, at: int, drawn: int, cards: int) -> Packing[AnOption] | None:
        self.steps -= 1
        if self.steps < 0:
            raise _OutOfSteps
        order, free = self.order, self.free
        while at < len(order) and not free[order[at]]:
            at += 1
        if at == len(order):
            return self._fill(drawn, cards, 0)
        if self._hopeless(drawn):
            return None
        face = order[at]
        for i in self.holding[face]:
            if self.drawing[i] > self.bound - drawn:
                break  # the options are in order of the cards they draw at least
            size = len(self.options[i].hand_faces)
            if i in self.forbidden or cards + size > self.melded:
                continue
            more = self._take(i)
            if more is None:
                continue
            found = self._walk(at, drawn + more, cards + size) if drawn + more <= self.bound else None
            self._give_back()
            if found is not None:
                return found
        if len(self.let_go) < self.bound + self.discard:
            free[face] -= 1
            self.let_go.append(face)
            found = self._walk(at, drawn, cards)
            self.let_go.pop()
            free[face] += 1
            return found
        return None

    def _fill(self, drawn: int, cards: int, start: int) -> Packing[AnOption] | None:
        """Every hand card placed: the melds of drawn cards alone that make up the cards a way
        out melds (each of them drawn, so no more than the bound allows), options from ``start``
        on in order of size (each set of them once)."""
        room = min(self.melded - cards, self.bound - drawn)
        if cards < self.melded and room < self.melded - cards:
            return None
        found = self._leaf(drawn, cards) if cards == self.melded else None
        for k in range(start, len(self.by_size)):
            i = self.by_size[k]
            size = len(self.options[i].hand_faces)
            if size > room or found is not None:
                break
            if i in self.forbidden or (more := self._take(i)) is None:
                continue
            found = self._fill(drawn + more, cards + size, k + 1)
            self._give_back()
        return found

    def _hopeless(self, drawn: int) -> bool:
        """No way out within the bound from here: the free cards beyond those that may still be
        let go (the dearest) are melded, each drawing at least its least share."""
        may_let_go = max(0, self.bound + self.discard - len(self.let_go))
        free, least = self.free, self.least
        shares = 0
        for f in self.dearest:
            copies = free[f]
            if copies > may_let_go:
                shares += (copies - may_let_go) * least[f]
                may_let_go = 0
            else:
                may_let_go -= copies
        return drawn + -(-shares // self.unit) > self.bound

    def _take(self, i: int) -> int | None:
        """Meld option ``i``: its cards from the hand's free copies, the rest drawn; how many are
        drawn (None: more copies than there are)."""
        need, free = self.needs[i], self.free
        if i in self.taken:
            return None  # an option is one meld, made once
        for f, n in need:
            if self.drawn[f] + n - min(n, free[f]) > self.most[f] - self.held[f]:
                return None  # more copies drawn than are left
        took = []
        drawn = 0
        for f, n in need:
            from_hand = min(n, free[f])
            free[f] -= from_hand
            self.drawn[f] += n - from_hand
            drawn += n - from_hand
            took.append(from_hand)
        self.chosen.append((i, took))
        self.taken.add(i)
        return drawn

    def _give_back(self) -> None:
        i, took = self.chosen.pop()
        self.taken.discard(i)
        for (f, n), from_hand in zip(self.needs[i], took, strict=True):
            self.drawn[f] -= n - from_hand
            self.free[f] += from_hand

    def _leaf(self, drawn: int, cards: int) -> Packing[AnOption] | None:
        """The way out a full choice makes, if its melds are legal: a card let go is the discard
        and the others are set aside; or every card let go is set aside and one more card drawn
        is the discard, one swap more (found only when no other card than the wanted one is let
        go; collected, every card with a copy left is such a draw)."""
        if cards != self.melded or (self.wanted is not None and self.wanted not in self.let_go):
            return None
        illegal = [i for i, _ in self.chosen if not self.legal(self.options[i])]
        if illegal:
            self.forbidden.update(illegal)
            return None
        drawn_faces = [f for f, n in enumerate(self.drawn) for _ in range(n)]
        others = list(self.let_go)
        if self.wanted is not None:
            others.remove(self.wanted)
        # one more card drawn as the discard, every card let go set aside: one swap more
        spare = [f for f, n in enumerate(self.most) if n > self.held[f] + self.drawn[f]] if self.discard else []
        spare = spare if drawn + 1 <= self.bound else []
        if self.collected is not None:
            if not self.discard or others:
                self.collected.update(drawn_faces)
            self.collected.update(drawn_faces if spare else (), spare)
            return None
        if not self.discard or others:
            return self._packing(drawn_faces, others[-1] if self.discard else None)
        return self._packing([*drawn_faces, spare[0]], spare[0]) if spare else None

    def _packing(self, drawn: list[int], discard: int | None) -> Packing[AnOption]:
        aside = list(self.let_go)
        if discard is not None and discard in aside:
            aside.remove(discard)
        faces = self.faces
        return Packing(
            tuple(self.options[i] for i, _ in self.chosen),
            tuple(faces[f] for f in aside),
            tuple(faces[f] for f in drawn),
            faces[discard] if discard is not None else None,
        )
