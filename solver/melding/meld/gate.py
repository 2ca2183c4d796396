"""Roles that hang on the query's parameters: which role entries are open to a card, and what a
card standing for a related card may be, under the chosen card a query names.

A ruleset's chosen card (``parameters:``, :class:`~solver.core.rules.ChosenCard`) relates other
cards to it — the same rank (a cut joker), the next rank of its suit, another suit of its
colour (an alter) — and its roles say what the relations do: ``if_chosen`` opens a role only to
related cards, ``stands_for`` makes a card count as the related card. :class:`ChosenGate` answers
for them from that data; a kind's model (:mod:`solver.melding.meld.encode`) hangs each such role on
literals (:class:`GatedRoles`) that a query sets by assumptions, so one model serves every choice.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from typing import Any, Protocol

from solver.core.deck import Face
from solver.core.rules import ChosenCard, KindRole, MeldKind

Identities = tuple[tuple[str | None, ...], tuple[str | None, ...]]  # the suits and ranks a card may stand for


class RoleGate(Protocol):
    """Role entries open to a card only under the query's parameters (a card made wild by a
    chosen card, when the player may use it): which entries are gated, whether one is open, and
    what a card that stands for a related card may be."""

    def conditional(self, kind: MeldKind, entry: int) -> bool: ...

    def open(self, kind: MeldKind, entry: int, face: Face, params: Mapping[str, Any] | None) -> bool: ...

    def identities(
        self, kind: MeldKind, entry: int, face: Face, params: Mapping[str, Any] | None
    ) -> Identities | None: ...

    def reads(self, kind: MeldKind, face: Face, params: Mapping[str, Any] | None) -> Hashable: ...


class OpenGate:
    """No gated roles: every role entry is open to every card it applies to."""

    def conditional(self, kind: MeldKind, entry: int) -> bool:
        return False

    def open(self, kind: MeldKind, entry: int, face: Face, params: Mapping[str, Any] | None) -> bool:
        return True

    def identities(self, kind: MeldKind, entry: int, face: Face, params: Mapping[str, Any] | None) -> Identities | None:
        return None

    def reads(self, kind: MeldKind, face: Face, params: Mapping[str, Any] | None) -> Hashable:
        return ()


OPEN = OpenGate()


class ChosenGate:
    """The gate of a ruleset with chosen cards: an entry is open to a card when the card has one
    of the relations the entry needs (its role's ``if_chosen`` and its own) to the chosen card the
    query names; a card whose role ``stands_for`` a relation may be only the related card."""

    def __init__(self, parameters: Mapping[str, ChosenCard]):
        self.owner = {r.id: chosen for chosen in parameters.values() for r in chosen.relations}
        self._known: dict[tuple[int, str, int], tuple[str, ...]] = {}  # (face, parameter, chosen) -> relations

    def conditional(self, kind: MeldKind, entry: int) -> bool:
        return kind.roles[entry].conditional

    def related(self, face: Face, relation: str, params: Mapping[str, Any] | None) -> bool:
        """Whether ``face`` has ``relation`` to the chosen card the query names (a relation the
        options leave out holds for no card)."""
        chosen = self.owner.get(relation)
        value = params.get(chosen.id) if chosen is not None and params else None
        if chosen is None or not isinstance(value, Face):
            return False
        key = (face.index, chosen.id, value.index)
        found = self._known.get(key)
        if found is None:
            found = self._known[key] = chosen.relations_of(face, value)
        return relation in found

    def open(self, kind: MeldKind, entry: int, face: Face, params: Mapping[str, Any] | None) -> bool:
        kind_role = kind.roles[entry]
        need = kind_role.relations
        if need is not None and not any(self.related(face, r, params) for r in need):
            return False
        if kind_role.role.stands_for is not None:
            suits, ranks = self.identities(kind, entry, face, params) or ((), ())
            return bool(suits and ranks)
        return True

    def identities(self, kind: MeldKind, entry: int, face: Face, params: Mapping[str, Any] | None) -> Identities | None:
        role = kind.roles[entry].role
        if role.stands_for is None:
            return None
        chosen = self.owner.get(role.stands_for)
        value = params.get(chosen.id) if chosen is not None and params else None
        relation = chosen.relation(role.stands_for) if chosen is not None else None
        if chosen is None or relation is None or not isinstance(value, Face):
            return (), ()
        return chosen.suits(relation, value, role.suits_for(face)), chosen.ranks(relation, value, role.ranks_for(face))

    def reads(self, kind: MeldKind, face: Face, params: Mapping[str, Any] | None) -> Hashable:
        """What :meth:`open` and :meth:`identities` read of the parameters for this face's entries
        in the kind: whether it is related as each gated entry needs, and the chosen card an entry
        that stands for a related card names. Two queries that read alike give the face the same
        roles (a cut joker of another suit, or of another rank the face is not, reads alike)."""
        out: list[object] = []
        for entry in kind.roles:
            if not entry.applies(face):
                continue
            need = entry.relations
            if need is not None:
                out.append(any(self.related(face, r, params) for r in need))
            stands_for = entry.role.stands_for
            if stands_for is not None:
                chosen = self.owner.get(stands_for)
                value = params.get(chosen.id) if chosen is not None and params else None
                out.append(value.index if isinstance(value, Face) else None)
        return tuple(out)


def gate_for(parameters: Mapping[str, ChosenCard], kinds: Iterable[MeldKind]) -> RoleGate:
    """The gate a ruleset's kinds need: :data:`OPEN` when no role entry hangs on a chosen card."""
    if any(entry.conditional for kind in kinds for entry in kind.roles):
        return ChosenGate(parameters)
    return OPEN


class KindModel(Protocol):
    """What :class:`GatedRoles` reads and writes of a kind's model
    (:class:`solver.melding.meld.encode.KindModel`)."""

    kind: MeldKind
    gate: RoleGate
    degenerate: bool
    cards: list[tuple[Face, int]]
    entries: list[list[tuple[int, KindRole]]]
    role_lits: list[list[int]]
    xs: list[list[int]]
    xr: list[list[int]]
    pos: list[list[int]]

    def v(self, *key: Any) -> int: ...

    def add(self, clause: Iterable[int], guard: int | None = None) -> None: ...


class GatedRoles:
    """A kind model's literals for the roles that hang on the query's parameters: per card and
    gated entry, "the entry is open to it" (the entry's role literal implies it); per card that
    stands for a related card, "it may be this suit", "it may be this rank" (its suit and rank
    literals imply them). A query sets them all by assumptions (:meth:`assumptions`)."""

    def __init__(self, model: KindModel):
        self.model = model
        self.avail: dict[tuple[int, int], int] = {}  # (card, entry) -> "open to the card"
        self.by_card: dict[int, list[tuple[int, int]]] = {}  # card -> its (entry, literal)
        self.narrow: dict[tuple[int, int], tuple[dict[str, int], dict[str, int]]] = {}  # suit, rank literals
        gate, kind = model.gate, model.kind
        for c, entries in enumerate(model.entries):
            for (i, _), role in zip(entries, model.role_lits[c], strict=True):
                if gate.conditional(kind, i):
                    lit = model.v("avail", c, i)
                    self.avail[(c, i)] = lit
                    self.by_card.setdefault(c, []).append((i, lit))
                    model.add([-role, lit])

    def narrow_identities(self) -> None:
        """Each suit and rank a card that stands for a related card could take hangs on a
        literal: called once the shape's suit, rank or position literals are made."""
        model = self.model
        kind = model.kind
        if model.degenerate or not self.avail:
            return
        sequence = kind.shape == "sequence" and kind.order is not None
        ranks = kind.order.ranks if sequence and kind.order is not None else kind.ranks
        for (c, i), _ in self.avail.items():
            role = model.role_lits[c][[j for j, _ in model.entries[c]].index(i)]
            if kind.roles[i].role.stands_for is None:
                continue
            suit_lits = {s: model.v("narrow-suit", c, i, s) for s in kind.suits}
            rank_lits = {r: model.v("narrow-rank", c, i, r) for r in dict.fromkeys(ranks)}
            for j, suit in enumerate(kind.suits):
                model.add([-role, -model.xs[c][j], suit_lits[suit]])
            places = model.pos[c] if sequence else model.xr[c]
            for q, rank in enumerate(ranks):
                model.add([-role, -places[q], rank_lits[rank]])
            self.narrow[(c, i)] = (suit_lits, rank_lits)

    def assumptions(self, indices: Iterable[int], params: Mapping[str, Any] | None) -> list[int]:
        """For these cards, which gated entries are open and what a card standing for a related
        card may be, under the query's parameters."""
        out = []
        model = self.model
        kind, gate = model.kind, model.gate
        for c in indices:
            face = model.cards[c][0]
            for i, lit in self.by_card.get(c, ()):
                out.append(lit if gate.open(kind, i, face, params) else -lit)
                narrow = self.narrow.get((c, i))
                if narrow is not None:
                    suits, ranks = gate.identities(kind, i, face, params) or ((), ())
                    out += [lit if s in suits else -lit for s, lit in narrow[0].items()]
                    out += [lit if r in ranks else -lit for r, lit in narrow[1].items()]
        return out
