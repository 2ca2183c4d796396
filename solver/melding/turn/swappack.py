"""A way out within a bound of swaps found among a swap model's candidates by a depth-first
search, no SAT call: :mod:`solver.melding.turn.distance` asks it before the solver.

A plain turn (no table, no route, no first-meld minimum, no cap on melds, the field's phase given)
goes out when its melds, each a verified candidate, place every card of the hand after the swaps
but the discard. The search takes the hand's cards in turn, the one fewest candidates hold first:
each is melded by a candidate holding it (its other cards the hand's while it has them, else drawn
from the copies left) or let go (set aside, or the discard). A choice that draws more than the
bound, or lets go more than the bound's swaps and the discard, is not taken. When every hand card
is placed and the melds hold exactly the cards a way out melds, their candidates are verified by
the checker (the model's own verdicts, shared with its solver); one that is illegal is never
chosen again. A search that tries every choice and finds nothing refutes the bound as the solver
would (up to the model's reach); one that runs out of steps proves nothing, and the solver is
asked then. The prunings are exact: an option draws at least the cards the hand lacks of it, and
each hand card melded at least its least share of an option's drawn cards (as the floor of
:mod:`~solver.melding.turn.swapfloor`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from math import lcm
from typing import Generic, Protocol, TypeVar

from solver.core.deck import Face

STEPS = 20000  # choices tried before the search gives the question back to the solver


class Packable(Protocol):
    """What the search reads of an option: the cards it melds (the hand's and drawn ones)."""

    @property
    def hand_faces(self) -> tuple[Face, ...]: ...


AnOption = TypeVar("AnOption", bound=Packable)


@dataclass(frozen=True)
class Packing(Generic[AnOption]):
    """A way out: the options melded, the hand's cards let go (aside) and drawn, the discard."""

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


class _OutOfSteps(Exception):
    pass


class PackSearch(Generic[AnOption]):
    """The search over one model's options (``live``: those not known illegal) for a hand held
    as ``held``, copies up to ``most`` per face (the hand's and those left to draw); ``melded``:
    the cards a way out melds (the hand's size, less one when a discard is required)."""

    def __init__(
        self, options: Sequence[AnOption], held: Counter[Face], most: Counter[Face], melded: int, discard: bool
    ):
        self.held, self.most, self.melded, self.discard = held, most, melded, discard
        self.needs = [Counter(o.hand_faces) for o in options]
        self.options = list(options)
        self.holding: dict[Face, list[int]] = {f: [] for f in held}
        for i, need in enumerate(self.needs):
            for face in need:
                if face in self.holding:
                    self.holding[face].append(i)
        self.drawing = [self._drawn_at_start(i) for i in range(len(self.options))]  # drawn cards, at least
        for found in self.holding.values():  # fewest drawn cards first, then the most hand cards
            found.sort(key=lambda i: (self.drawing[i], -len(self.options[i].hand_faces)))
        self.forbidden: set[int] = set()  # options the checker refused
        self.order = sorted(held, key=lambda f: (len(self.holding[f]), str(f)))
        # each hand card's least share of an option's drawn cards, in whole units (swapfloor.py)
        self.unit = lcm(*range(1, held.total() + 1)) if held else 1
        self.least = {
            f: min((self._share(i) for i in found), default=self.unit * (melded + 1))
            for f, found in self.holding.items()
        }

    def _share(self, i: int) -> int:
        """Option ``i``'s drawn cards per hand card it holds, in units."""
        from_hand = sum(min(n, self.held[f]) for f, n in self.needs[i].items())
        return self.drawing[i] * (self.unit // from_hand)

    def _drawn_at_start(self, i: int) -> int:
        return sum(max(0, n - self.held[f]) for f, n in self.needs[i].items())

    def find(
        self,
        bound: int,
        legal: Callable[[AnOption], bool],
        aside: Face | None = None,
        draws: Collection[Face] = (),
        steps: int = STEPS,
    ) -> Searched[AnOption]:
        """A way out in at most ``bound`` swaps whose every option ``legal`` passes, a copy of
        ``aside`` among the cards set aside and one of ``draws`` among those drawn when given."""
        self.bound, self.legal, self.wanted, self.draws, self.steps = bound, legal, aside, frozenset(draws), steps
        self.free = Counter(self.held)  # hand copies not yet melded nor let go
        self.used: Counter[Face] = Counter()  # copies melded, the hand's and drawn
        self.chosen: list[tuple[int, Counter[Face]]] = []  # the options melded, and their cards from the hand
        self.let_go: list[Face] = []
        try:
            return Searched(self._walk(0, 0, 0), True)
        except _OutOfSteps:
            return Searched(None, False)

    def _walk(self, at: int, drawn: int, cards: int) -> Packing[AnOption] | None:
        self.steps -= 1
        if self.steps < 0:
            raise _OutOfSteps
        while at < len(self.order) and not self.free[self.order[at]]:
            at += 1
        if at == len(self.order):
            return self._leaf(drawn, cards)
        if self._hopeless(drawn):
            return None
        face = self.order[at]
        for i in self.holding[face]:
            if self.drawing[i] > self.bound - drawn:
                break  # the options are in order of the cards they draw at least
            if i in self.forbidden:
                continue
            more = self._take(i)
            if more is not None:
                if drawn + more <= self.bound and cards + len(self.options[i].hand_faces) <= self.melded:
                    found = self._walk(at, drawn + more, cards + len(self.options[i].hand_faces))
                    if found is not None:
                        return found
                self._give_back()
        if len(self.let_go) < self.bound + self.discard:
            self.free[face] -= 1
            self.let_go.append(face)
            found = self._walk(at, drawn, cards)
            self.let_go.pop()
            self.free[face] += 1
            return found
        return None

    def _hopeless(self, drawn: int) -> bool:
        """No way out within the bound from here: the free cards beyond those that may still be
        let go are melded, each drawing at least its least share."""
        may_let_go = self.bound + self.discard - len(self.let_go)
        costs = sorted(self.least[f] for f, n in self.free.items() for _ in range(n))
        melded = costs[: max(0, len(costs) - may_let_go)]
        return drawn + -(-sum(melded) // self.unit) > self.bound

    def _take(self, i: int) -> int | None:
        """Meld option ``i``: its cards from the hand's free copies, the rest drawn; how many are
        drawn (None: more copies than there are)."""
        need = self.needs[i]
        if any(self.used[f] + n > self.most[f] for f, n in need.items()):
            return None
        from_hand: Counter[Face] = Counter()
        for f, n in need.items():
            from_hand[f] = min(n, self.free[f])
            self.free[f] -= from_hand[f]
            self.used[f] += n
        self.chosen.append((i, from_hand))
        return sum(need.values()) - sum(from_hand.values())

    def _give_back(self) -> None:
        i, from_hand = self.chosen.pop()
        for f, n in self.needs[i].items():
            self.used[f] -= n
            self.free[f] += from_hand[f]

    def _leaf(self, drawn: int, cards: int) -> Packing[AnOption] | None:
        """The way out a full choice makes, if its melds are legal: a card let go is the discard
        and the others are set aside; or, when none is free to be the discard (the wanted card
        set aside, or no draw the question asks for), every card let go is set aside and one more
        card drawn is the discard (one swap more)."""
        if cards != self.melded or (self.wanted is not None and self.wanted not in self.let_go):
            return None
        illegal = [i for i, _ in self.chosen if not self.legal(self.options[i])]
        if illegal:
            self.forbidden.update(illegal)
            return None
        melds = tuple(self.options[i] for i, _ in self.chosen)
        drawn_faces = [f for f, n in self.used.items() for _ in range(max(0, n - self.held[f]))]
        asked = not self.draws or not self.draws.isdisjoint(drawn_faces)
        if not self.discard:
            return Packing(melds, tuple(self.let_go), tuple(drawn_faces), None) if asked else None
        others = list(self.let_go)
        if self.wanted is not None:
            others.remove(self.wanted)
        if others and asked:
            return Packing(melds, tuple(self._without(others[-1])), tuple(drawn_faces), others[-1])
        spare = self._spare_draw(drawn_faces, asked) if drawn + 1 <= self.bound else None
        if spare is None:
            return None
        return Packing(melds, tuple(self.let_go), (*drawn_faces, spare), spare)

    def _without(self, face: Face) -> list[Face]:
        """The cards let go, one copy of ``face`` less."""
        rest = list(self.let_go)
        rest.remove(face)
        return rest

    def _spare_draw(self, drawn: list[Face], asked: bool) -> Face | None:
        """A card with a copy left to draw beyond those melded (one the question asks for, unless
        a melded draw is one already)."""
        for face in sorted(self.draws if not asked else self.most):
            if self.most[face] - max(self.held[face], self.used[face]) > 0:
                return face
        return None
