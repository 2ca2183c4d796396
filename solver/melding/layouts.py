"""What a sequence laid out on the table can read as, seen without SAT.

A table meld's cards are in table order, and a sequence must read left to right or right to left
(:meth:`~solver.melding.checker.MeldChecker.check` with ``ordered``). Its kind's model
(:meth:`~solver.melding.encode.KindModel._sequence`) then places the card at offset ``i`` at
the identity a start, a first suit and a direction give that offset — (the suit ``i`` steps
along the kind's cycle from the first, the rank ``i`` places after the start). So a layout that
no start, first suit and direction read — each card an identity one of its roles allows — has no
reading; and in any reading, the cards whose identity there is natural to none of their roles at
that size are wild. A table search tries thousands of layouts, nearly all of them no meld
(97 % in a large turn, most of them 相順 chains): this look rules most of them out before a SAT
call, and bounds the wilds of the rest.
"""

from __future__ import annotations

from typing import Callable, Mapping, Sequence

from solver.core.deck import Face
from solver.core.rules import MeldKind
from solver.melding.candidates import identity_options
from solver.melding.cycles import SuitSteps
from solver.melding.encode import RoleGate
from solver.melding.lines import kind_lines

Line = tuple  # per offset, the identity (suit, rank) there


class LayoutLines:
    """The readings of sequence layouts by offset, per kind and size (cached), and the identities
    each card's roles allow it (cached)."""

    def __init__(self, gate: RoleGate, steps: Callable[[MeldKind], SuitSteps | None]):
        self.gate = gate
        self.steps = steps
        self._lines: dict[tuple[str, int], list[dict[tuple, list[Line]]] | None] = {}
        self._identities: dict[tuple, dict] = {}  # (kind, params) -> face -> identity_options

    def least_wilds(self, kind: MeldKind, faces: Sequence[Face], params: Mapping | None) -> int | None:
        """For ``faces`` laid out in this order as ``kind``: None when no start, first suit and
        direction read them (left to right or right to left), else the fewest cards any
        reading makes wild. 0 (nothing known) for a kind not looked at so: not a sequence, a
        short form, no window this long, parameters that are no key."""
        if kind.shape != "sequence" or kind.order is None or kind.short_form:
            return 0
        try:
            key_params = tuple(sorted(params.items())) if params else None
            hash(key_params)
        except TypeError:
            return 0
        n = len(faces)
        lines = self._lines.get((kind.id, n))
        if lines is None:
            lines = self._lines[(kind.id, n)] = self._offset_identities(kind, n)
        if lines is None:
            return 0  # no window this long: the model's size rule speaks
        known = self._identities.get((kind.id, key_params))
        if known is None:
            known = self._identities[(kind.id, key_params)] = {}
        allowed = []
        for face in faces:
            found = known.get(face)
            if found is None:
                found = known[face] = identity_options(kind, face, self.gate, params)
            allowed.append(found)
        least = None
        for cards in (allowed, allowed[::-1]):
            anchor = min(range(n), key=lambda i: len(cards[i]))  # the card fewest lines pass
            for ident in cards[anchor]:
                for line in lines[anchor].get(ident, ()):
                    if all(it in ok for it, ok in zip(line, cards)):
                        wild = sum(n not in ok[it] for it, ok in zip(line, cards))
                        if least is None or wild < least:
                            least = wild
        return least

    def _offset_identities(self, kind: MeldKind, n: int) -> list[dict[tuple, list[Line]]] | None:
        """Every window of ``n`` offsets along the kind's lines (:func:`~solver.melding.lines.kind_lines`:
        the identities a meld of the kind passes through, one line a suit, or a first suit and
        direction), indexed by offset and the identity there: a card anchors the few windows
        through what it can be. None: no window this long (the model's size rule speaks)."""
        windows = set()
        for line in kind_lines(kind, self.steps(kind)):
            ids, m = line.identities, len(line.identities)
            for p in range(line.starts):
                if line.cyclic:
                    windows.add(tuple(ids[(p + i) % m] for i in range(n)))
                elif p + n <= m:
                    windows.add(ids[p:p + n])
        if not windows:
            return None
        index: list[dict[tuple, list[Line]]] = [{} for _ in range(n)]
        for window in windows:
            for i, ident in enumerate(window):
                index[i].setdefault(ident, []).append(window)
        return index
