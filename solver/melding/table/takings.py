"""Which forms of each table meld take which cards: what the turn model asks of a table's forms
(:mod:`solver.melding.table.forms`) about the cards a turn may hold."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from solver.core.deck import Face
from solver.melding.table.forms import Form


@dataclass(frozen=True)
class Takings:
    """Which forms of each table meld take which cards: what the turn model asks of the forms
    about the cards it may hold (built once, :meth:`of`). ``bits``: per table meld, per (card, k),
    its forms that take k copies of the card or more, as a bit set (a meld of four wilds has some
    1,700 forms: one AND a card, not a walk over them); ``sources``: per card, the table melds some
    form of which takes it."""

    bits: tuple[dict[tuple[Face, int], int], ...]
    sources: dict[Face, frozenset[int]]

    @classmethod
    def of(cls, forms: Sequence[Sequence[Form]]) -> Takings:
        taking: list[dict[tuple[Face, int], int]] = []
        sources: dict[Face, set[int]] = {}
        for t, per_meld in enumerate(forms):
            bits: dict[tuple[Face, int], int] = {}
            for i, form in enumerate(per_meld):
                for face, count in Counter(form.taken).items():
                    sources.setdefault(face, set()).add(t)
                    for k in range(1, count + 1):
                        bits[face, k] = bits.get((face, k), 0) | 1 << i
            taking.append(bits)
        return cls(tuple(taking), {face: frozenset(melds) for face, melds in sources.items()})

    def most(self) -> Counter:
        """Per card, the most copies the forms can take from the table at once (one form a meld)."""
        most: Counter = Counter()
        for bits in self.bits:
            top: dict[Face, int] = {}
            for face, k in bits:
                top[face] = max(top.get(face, 0), k)
            most.update(top)
        return most

    def holdable(self, hand: Sequence[Face]) -> Callable[[Sequence[Face]], bool]:
        """Whether a turn choosing one form per table meld could hold ``cards`` at once, with
        ``hand`` (a necessary condition, not a sufficient one). A copy beyond the hand's comes from
        a table meld whose form takes it, and each meld has one form: the cards only one meld can
        give must all be taken by one of its forms. A card more than one meld could give is not
        judged (which melds give it would be a matching). Without it a long run of the cards of
        one table run, each of which some form takes but none all, would seem within reach, and
        its points, paid card by card, be most of what the optimiser has to prove out of reach
        (:mod:`solver.melding.meld.lines`)."""
        held = Counter(hand)
        taking, sources = self.bits, self.sources

        def judge(cards: Sequence[Face]) -> bool:
            left: dict[int, int] = {}  # per table meld that must give some of them, its forms that could
            for face, count in Counter(cards).items():
                short = count - held[face]
                if short <= 0:
                    continue
                melds = sources.get(face)
                if not melds:
                    return False
                if len(melds) == 1:
                    t = next(iter(melds))
                    could = left.get(t, -1) & taking[t].get((face, short), 0)
                    if not could:
                        return False
                    left[t] = could
            return True

        return judge

    def apart(self) -> list[tuple[tuple[Face, int], tuple[Face, int]]]:
        """Pairs ((card, k), (other card, j)) that no turn can take from the table at once — k
        copies of the one and j of the other — when one table meld only gives both, and none of
        its forms takes both: the model implies it (one form per meld), but only through a search
        of that meld's forms, which may be thousands (see ``TableTurn._apart_clauses``). Of the
        counts, the least only (more copies of either are apart from the other all the more)."""
        pairs = []
        for t, bits in enumerate(self.bits):
            alone = sorted(key for key in bits if self.sources[key[0]] == {t})
            for i, (a, ka) in enumerate(alone):
                for b, kb in alone[i + 1 :]:
                    if a == b or bits[a, ka] & bits[b, kb]:
                        continue
                    if ka > 1 and not bits[a, ka - 1] & bits[b, kb] or kb > 1 and not bits[a, ka] & bits[b, kb - 1]:
                        continue  # fewer copies are apart already
                    pairs.append(((a, ka), (b, kb)))
        return pairs
