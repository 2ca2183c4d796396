"""Compile one meld kind, at one meld size, into CNF; answer queries with assumptions.

The model is *card-centric*: every physical card of the deck (each copy of each face) that can
play some role in the kind has a presence literal, and a query says which cards are present by
assumptions. So the model is built once per (ruleset, kind, size) and reused by every query — a
fresh solver per query would cost far more than an assumption query.

For each card ``c`` (an integer index into ``model.cards``):

* ``pres[c]``: the card is in the meld (fixed by the query's assumptions);
* ``role[c, e]``: the card plays role entry ``e`` of the kind (natural, SW, RW, ...) — exactly one
  if present, none if absent: *each card is bound to a single role*;
* ``xs[c, s]`` and ``xr[c, r]`` (groups) or ``pos[c, q]`` (sequences): its identity, exactly one
  suit and one rank — *each wild bound to a single identity*, allowed by its role.

Shapes:

* ``group``: one meld rank ``R`` shared by all cards (rule ``same-rank``); suits pairwise distinct
  (rule ``distinct``).
* ``identical``: one suit ``S`` and one rank ``R`` shared by all cards.
* ``sequence``: a window of ``n`` consecutive positions of the kind's rank order, starting at
  ``st[p]`` (a cyclic order lets it wrap); the card's offset ``rel[c, i]`` places it at position
  ``p + i`` (rule ``consecutive`` keeps offsets below ``n``); its suit is the window's first suit
  ``su0`` stepped ``i`` times along a cycle graph in direction ``dir``, or the same suit for a run
  (rule ``suit-step``); one card per offset (rule ``distinct``).

Every rule — the structural ones above and the ruleset's own (length bounds, short forms, role
conditions, wild counts, distinguishability) — is guarded by a selector literal that a normal
query assumes true. For an illegal meld, the checker relaxes selectors to find the fewest rules
that forbid it (a minimal correction set): those become the reasons, each with its quote.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from solver.core.deck import Deck
from solver.core.gcpause import no_collections
from solver.core.rules import KindRole, MeldKind
from solver.core.source import Source
from solver.melding.meld.cycles import SuitSteps
from solver.melding.meld.gate import OPEN, GatedRoles, RoleGate
from solver.melding.meld.reading import Placement, Reading, sequence_place
from solver.sat import encodings
from solver.sat.pool import VarPool
from solver.sat.solvers import SMALL, SatSolver

Card = tuple  # (face, copy index)

# Rules that describe the shape itself, as opposed to the ruleset's explicit extra rules.
STRUCTURAL_RULES = ("same-rank", "same-suit", "suit-step", "consecutive")


class Values(Protocol):
    """A model's values by variable index (``values[var - 1] > 0``: the variable is true)."""

    def __getitem__(self, index: int, /) -> int: ...


@dataclass(frozen=True)
class Rule:
    """A rule as the encoder sees it: its selector key and what to tell the user."""

    key: str
    code: str  # reason code: too-short, too-long, duplicate-identity, not-a-meld, ambiguous
    source: Source | None
    entry: KindRole | None = None

    @property
    def structural(self) -> bool:
        return self.key in STRUCTURAL_RULES


@dataclass
class KindModel:
    """The SAT model of ``kind`` for melds of exactly ``n`` cards."""

    deck: Deck
    kind: MeldKind
    n: int
    steps: SuitSteps | None
    gate: RoleGate = OPEN
    pool: VarPool = field(default_factory=VarPool)
    clauses: list = field(default_factory=list)
    rules: dict = field(default_factory=dict)  # key -> (selector literal, Rule)
    cards: list = field(default_factory=list)  # (face, copy) for cards that can play here
    index: dict = field(default_factory=dict)  # (face, copy) -> card index
    entries: list = field(default_factory=list)  # card index -> [(entry index, KindRole)]
    live: SatSolver | None = None  # made at the first question (see solver)
    packed: Callable[[], list[list[int]]] | None = None  # a kept model's clauses, read back for its solver
    closed: bool = False
    sat_calls: int = 0
    degenerate: bool = False  # a sequence longer than its rank order: no window, only the size rule

    # -- construction -----------------------------------------------------------------------

    def v(self, *key) -> int:
        return self.pool.id(key)

    def add(self, clause: Iterable[int], guard: int | None = None) -> None:
        clause = list(clause)
        self.clauses.append(clause if guard is None else [-guard] + clause)

    def add_all(self, clauses: Iterable[Iterable[int]], guard: int | None = None) -> None:
        for clause in clauses:
            self.add(clause, guard)

    def exactly_one(self, lits: Sequence[int], guard: int | None = None) -> None:
        self.add(lits, guard)
        self.at_most_one(lits, guard)

    def at_most_one(self, lits: Sequence[int], guard: int | None = None) -> None:
        self.add_all(encodings.at_most_one(lits, self.pool), guard)

    def one_if_present(self, card: int, lits: Sequence[int]) -> None:
        """Exactly one of ``lits`` when the card is present, none when it is absent."""
        pres = self.pres[card]
        self.add([-pres] + list(lits))
        for lit in lits:
            self.add([-lit, pres])
        self.at_most_one(lits)

    def rule(self, key: str, code: str, source: Source | None, entry: KindRole | None = None) -> int:
        if key not in self.rules:
            self.rules[key] = (self.v("rule", key), Rule(key, code, source, entry))
        return self.rules[key][0]

    def build(self, keep_clauses: bool = False) -> KindModel:
        """Compile the kind; ``keep_clauses`` leaves a copy in ``self.formula`` (for a search
        that joins two kinds' models, as melds audit does)."""
        kind, deck = self.kind, self.deck
        for face in deck.faces:
            entries = [(i, e) for i, e in enumerate(kind.roles) if e.applies(face)]
            if not entries:
                continue
            for copy in range(deck.copies[face]):
                self.index[(face, copy)] = len(self.cards)
                self.cards.append((face, copy))
                self.entries.append(entries)
        count = len(self.cards)
        self.pres = [self.v("pres", c) for c in range(count)]
        self.role_lits = [[self.v("role", c, i) for i, _ in self.entries[c]] for c in range(count)]
        self.xs = [[self.v("xs", c, s) for s in kind.suits] for c in range(count)]
        # Roles open only to some cards under the query's parameters (a wild only for the
        # chosen card the query names) hang on literals the query sets.
        self.gated = GatedRoles(self)
        self.avail = self.gated.avail
        for c in range(count):
            self.one_if_present(c, self.role_lits[c])
            face, copy = self.cards[c]
            if copy > 0:  # copies of a face are interchangeable: use them in order
                self.add([-self.pres[c], self.pres[self.index[(face, copy - 1)]]])
            self._suit_vars(c)
        shapes = {"group": self._group, "identical": self._identical, "sequence": self._sequence, "flush": self._flush}
        shapes[kind.shape]()
        self.gated.narrow_identities()
        self._size_rules()
        self._role_conditions()
        self._wild_bounds()
        self._distinguish()
        self.formula = list(self.clauses) if keep_clauses else None
        self.absent = [-p for p in self.pres]
        return self

    def _suit_vars(self, c: int) -> None:
        """Each present card has exactly one suit, allowed by its role and the kind."""
        face = self.cards[c][0]
        self.one_if_present(c, self.xs[c])
        for (_i, entry), role in zip(self.entries[c], self.role_lits[c], strict=True):
            allowed = [self.xs[c][j] for j, s in enumerate(self.kind.suits) if s in entry.role.suits_for(face)]
            self.add([-role] + allowed)

    def _rank_vars(self, c: int) -> list[int]:
        """Each present card of a group has exactly one rank, allowed by its role and the kind."""
        face = self.cards[c][0]
        xr = [self.v("xr", c, r) for r in self.kind.ranks]
        self.one_if_present(c, xr)
        for (_i, entry), role in zip(self.entries[c], self.role_lits[c], strict=True):
            allowed = [xr[j] for j, r in enumerate(self.kind.ranks) if r in entry.role.ranks_for(face)]
            self.add([-role] + allowed)
        return xr

    def _share(self, name: str, values: Sequence[str], per_card: list[list[int]], key: str) -> None:
        """All present cards take one common value (rule ``key``): each card's literal for a
        value implies the meld's literal for it."""
        meld = [self.v(name, x) for x in values]
        self.exactly_one(meld)
        guard = self.rule(key, "not-a-meld", self.kind.source)
        for lits in per_card:
            for lit, meld_lit in zip(lits, meld, strict=True):
                self.add([-lit, meld_lit], guard)

    def _group(self) -> None:
        kind = self.kind
        self.xr = [self._rank_vars(c) for c in range(len(self.cards))]
        self._share("R", kind.ranks, self.xr, "same-rank")
        if kind.distinct:
            self._one_card_each(self.xs, len(kind.suits))

    def _one_card_each(self, per_card: list[list[int]], values: int) -> None:
        """No two cards take one value (a group's suits, a flush's ranks): rule ``distinct``."""
        guard = self.rule("distinct", "duplicate-identity", self.kind.distinct_source or self.kind.source)
        for j in range(values):
            self.at_most_one([per_card[c][j] for c in range(len(self.cards))], guard)

    def _identical(self) -> None:
        self.xr = [self._rank_vars(c) for c in range(len(self.cards))]
        self._share("R", self.kind.ranks, self.xr, "same-rank")
        self._share("S", self.kind.suits, self.xs, "same-suit")

    def _flush(self) -> None:
        """One suit for every card, any ranks (of ``ranks``); ``distinct``: no rank twice."""
        kind = self.kind
        self.xr = [self._rank_vars(c) for c in range(len(self.cards))]
        self._share("S", kind.suits, self.xs, "same-suit")
        if kind.distinct:
            self._one_card_each(self.xr, len(kind.ranks))

    def starts(self) -> list[int]:
        length = len(self.kind.run_order.ranks)
        if self.kind.run_order.cyclic:
            # Every start, even for a window covering the whole cycle: the cards read the same from
            # every start, but a table layout (12, ZAT, 1, …, 11) fixes where the window begins.
            return list(range(length))
        return list(range(length - self.n + 1))

    def canonical_start(self) -> list[int]:
        """Assumptions that pick one start among equivalent ones for an unordered query: a
        same-suit window covering the whole cycle reads the same from every start (a rotation
        keeps every card's place in the order), so it is read from the order's first rank."""
        whole = self.kind.run_order.cyclic and self.n >= len(self.kind.run_order.ranks)
        if whole and not self.kind.suit_step.cycle and not self.degenerate:
            return [self.st[0]]
        return []

    def _sequence(self) -> None:
        kind, n = self.kind, self.n
        order = kind.run_order.ranks
        length = len(order)
        starts = self.starts()
        if not starts:
            self.add([-self.rule("size", "too-long", kind.source)])  # longer than the order
            self.degenerate = True
            return
        self.st = {p: self.v("st", p) for p in starts}
        self.exactly_one(list(self.st.values()))
        su0 = [self.v("su0", s) for s in kind.suits]
        self.exactly_one(su0)
        self.directions = [d for d, _ in kind.suit_step.directions]
        dirs = [self.v("dir", d) for d in self.directions]
        self.exactly_one(dirs)
        consecutive = self.rule("consecutive", "not-a-meld", kind.run_order.source or kind.source)
        free = kind.suit_step.free  # a run of any colours: no rule ties a card's suit to the window's
        step_key = "suit-step" if kind.suit_step.cycle else "same-suit"
        suit_rule = 0 if free else self.rule(step_key, "not-a-meld", kind.source)
        # Offsets reach past n only when 'consecutive' is relaxed (to diagnose gaps).
        width = max(length, n)
        self.rel = []
        self.pos = []
        clauses = self.clauses  # the two loops below write most of a sequence's clauses
        # the suit index at offset i from first suit j0 in direction d (None: off the kind's suits)
        stepped = [
            [
                [
                    kind.suits.index(s) if s in kind.suits else None
                    for s in ((self.steps.step(s0, d, i) if self.steps else s0) for i in range(width))
                ]
                for d in self.directions
            ]
            for s0 in kind.suits
        ]
        for c in range(len(self.cards)):
            face = self.cards[c][0]
            rel = [self.v("rel", c, i) for i in range(width)]
            self.rel.append(rel)
            self.one_if_present(c, rel)
            for i in range(n, width):
                self.add([-rel[i]], consecutive)
            pos = [self.v("pos", c, q) for q in range(length)]
            self.pos.append(pos)
            for q in pos:
                self.add([-q, self.pres[c]])
            self.at_most_one(pos)
            for p, st in self.st.items():
                for i in range(width):
                    if kind.run_order.cyclic:
                        clauses.append([-st, -rel[i], pos[(p + i) % length]])
                    elif p + i < length:
                        clauses.append([-st, -rel[i], pos[p + i]])
                    else:
                        clauses.append([-st, -rel[i]])
            # The suit follows the position in the order (not the card count), so that with
            # 'consecutive' relaxed a chain's suits still step rank by rank.
            xs = self.xs[c]
            for j0 in range(0 if free else len(kind.suits)):
                for steps, dir_lit in zip(stepped[j0], dirs, strict=True):
                    for i, j in enumerate(steps):
                        clause = [-suit_rule, -rel[i], -su0[j0], -dir_lit]
                        if j is not None:
                            clause.append(xs[j])
                        clauses.append(clause)
            for (_, entry), role in zip(self.entries[c], self.role_lits[c], strict=True):
                ranks = set(entry.role.ranks_for(face))
                self.add([-role] + [pos[q] for q in range(length) if order[q] in ranks])
        if kind.distinct:
            self._distinct_in_sequence(width)

    def _distinct_in_sequence(self, width: int) -> None:
        """A sequence of distinct cards: no two at one offset. A rank that stands twice in the order
        (an ace low and high) is one identity: per suit, at most one card is that rank ("the card
        is this rank in this suit" for each)."""
        kind = self.kind
        order = kind.run_order.ranks
        guard = self.rule("distinct", "duplicate-identity", kind.distinct_source or kind.source)
        for i in range(width):
            self.at_most_one([self.rel[c][i] for c in range(len(self.cards))], guard)
        for rank in {r for r in order if order.count(r) > 1}:
            twice = [q for q in range(len(order)) if order[q] == rank]
            for j in range(len(kind.suits)):
                holders = []
                for c in range(len(self.cards)):
                    here = self.v("twice", rank, j, c)
                    holders.append(here)
                    for q in twice:
                        self.clauses.append([-self.pos[c][q], -self.xs[c][j], here])
                self.at_most_one(holders, guard)

    def _size_rules(self) -> None:
        kind, n = self.kind, self.n
        if kind.size_min <= n <= kind.size_max:
            return
        short = kind.short_form
        if short and n == short.size:
            guard = self.rule("short-form", "too-short", short.source)
            for c in range(len(self.cards)):
                for (_i, entry), role in zip(self.entries[c], self.role_lits[c], strict=True):
                    if entry.role.id not in short.roles:
                        self.add([-role], guard)
            return
        code = "too-short" if n < kind.size_min else "too-long"
        self.add([-self.rule("size", code, kind.source)])

    def _role_conditions(self) -> None:
        n = self.n
        for i, entry in enumerate(self.kind.roles):
            holders = [
                (c, self.role_lits[c][k])
                for c in range(len(self.cards))
                for k, (j, _) in enumerate(self.entries[c])
                if j == i
            ]
            if entry.sizes is not None and n not in entry.sizes:
                guard = self.rule(f"role-size:{i}", "not-a-meld", entry.source, entry)
                for _, role in holders:
                    self.add([-role], guard)
            req = entry.role.requires_in_meld
            if req is not None:
                guard = self.rule(f"requires:{entry.role.id}", "not-a-meld", req.source, entry)
                for c, role in holders:
                    others = [
                        self.pres[o] for o in range(len(self.cards)) if o != c and self.cards[o][0].cls in req.classes
                    ]
                    self.add([-role] + others, guard)

    def _wild_bounds(self) -> None:
        wild_lits = []
        for c in range(len(self.cards)):
            w = self.v("wild", c)
            wild_roles = [role for (i, e), role in zip(self.entries[c], self.role_lits[c], strict=True) if e.role.wild]
            for r in wild_roles:
                self.add([-r, w])
            self.add([-w] + wild_roles)
            wild_lits.append(w)
        if self.kind.wilds:
            lo, hi = self.kind.wilds.bounds(self.n)
            guard = self.rule("wilds", "not-a-meld", self.kind.wilds.source)
            if lo:
                self.add_all(encodings.at_least(wild_lits, lo, self.pool), guard)
            if hi < self.n:
                self.add_all(encodings.at_most(wild_lits, max(hi, 0), self.pool), guard)
            if self.kind.wilds.apart and not self.degenerate and self.cards:
                self._wilds_apart(wild_lits)
        # Counts wild cards upward: assuming -rhs[k] allows at most k wilds. Used to prefer the
        # reading with the most cards counting as themselves.
        self.wild_count = None
        if any(e.role.wild for entries in self.entries for _, e in entries):
            self.wild_count = encodings.Totalizer(wild_lits, self.n, self.pool)
            self.add_all(self.wild_count.clauses)

    def _wilds_apart(self, wild_lits: list[int]) -> None:
        """``wilds: {apart: true}``: no two cards acting as wilds at neighbouring places of a sequence."""
        assert self.kind.wilds is not None
        guard = self.rule("wilds-apart", "not-a-meld", self.kind.wilds.source)
        width = len(self.rel[0])
        wild_at = [self.v("wild-at", i) for i in range(width)]
        for rel, wild in zip(self.rel, wild_lits, strict=True):
            self.clauses += [[-rel[i], -wild, wild_at[i]] for i in range(width)]
        for i in range(width - 1):
            self.add([-wild_at[i], -wild_at[i + 1]], guard)

    def _distinguish(self) -> None:
        dg = self.kind.distinguish
        if dg is None:
            return
        guard = self.rule("distinguish", "ambiguous", dg.source)
        for what, need in (("suit", dg.fixed_suits), ("rank", dg.fixed_ranks)):
            if need <= 0:
                continue
            shown: dict[str, list[int]] = {}
            for c in range(len(self.cards)):
                for (_i, entry), role in zip(self.entries[c], self.role_lits[c], strict=True):
                    fixed = entry.role.fixed_suit if what == "suit" else entry.role.fixed_rank
                    value = fixed(self.cards[c][0])
                    if value is not None:
                        shown.setdefault(value, []).append(role)
            indicators = []
            for value, roles in shown.items():
                ind = self.v("shown", what, value)
                self.add([-ind] + roles)
                indicators.append(ind)
            self.add_all(encodings.at_least(indicators, need, self.pool), guard)

    # -- queries ----------------------------------------------------------------------------

    def card_indices(self, cards: Sequence[Card]) -> list[int] | None:
        """Indices of the given (face, copy) cards; None if one cannot play in this kind."""
        out = []
        for card in cards:
            c = self.index.get(card)
            if c is None:
                return None
            out.append(c)
        return out

    def presence(self, indices: Sequence[int], params=None) -> list[int]:
        """Assumptions saying exactly these cards are present, and which parameter-bound roles
        are open to them."""
        lits = self.absent.copy()
        for c in indices:
            lits[c] = self.pres[c]
        if self.avail:
            lits += self.gated.assumptions(indices, params)
        return lits

    def layout(self, indices: Sequence[int], reverse: bool) -> list[int]:
        """Assumptions that fix a sequence's cards to the given table order."""
        n = len(indices)
        return [self.rel[c][n - 1 - i if reverse else i] for i, c in enumerate(indices)]

    def selectors(self, relaxed: Iterable[str] = ()) -> list[int]:
        relaxed = set(relaxed)
        return [-lit if key in relaxed else lit for key, (lit, _) in self.rules.items()]

    @property
    def solver(self) -> SatSolver | None:
        """The model's solver, handed the clauses at the first question: a model the checker's
        plain looks settle (:mod:`solver.melding.meld.ruleholds`) never needs one. None once closed."""
        if self.live is None and not self.closed:
            with no_collections():  # a kept model's clauses, read back as lists: freed once handed over
                self.live = SatSolver(self.packed() if self.packed is not None else self.clauses, name=SMALL)
            self.clauses, self.packed = [], None  # the solver holds them now
        return self.live

    @property
    def live_solver(self) -> SatSolver:
        """The model's solver (a closed model has none)."""
        solver = self.solver
        if solver is None:
            raise ValueError(f"the model of {self.kind.id} is closed")
        return solver

    def solve(self, assumptions: list[int]) -> bool:
        self.sat_calls += 1
        return self.live_solver.solve(assumptions)

    def at_most_wilds(self, k: int) -> list[int]:
        if self.wild_count is None or k >= self.n:
            return []
        return [-self.wild_count.rhs[k]]

    def reading(self, indices: Sequence[int], values: Values | None = None) -> Reading | None:
        """Decode the last model (or ``values``, a model kept from earlier) for the given present
        cards (None for a degenerate model, which has no placements to decode: only its size rule
        speaks)."""
        if self.degenerate:
            return None
        model = self.live_solver.model() if values is None else values

        def first(lits: Sequence[int]) -> int:
            for j, lit in enumerate(lits):
                if model[lit - 1] > 0:
                    return j
            raise StopIteration  # as next() on no true literal

        kind = self.kind
        direction = None
        if kind.shape == "sequence":
            direction = self.directions[first([self.v("dir", d) for d in self.directions])]
        chosen: list[tuple[int, KindRole, int, str, int | None]] = []
        for c in indices:
            entry = self.entries[c][first(self.role_lits[c])][1]
            suit = first(self.xs[c])
            if kind.shape == "sequence":
                chosen.append((c, entry, suit, kind.run_order.ranks[first(self.pos[c])], first(self.rel[c])))
            else:
                chosen.append((c, entry, suit, kind.ranks[first(self.xr[c])], None))
        return self.composed(chosen, direction)

    def composed(self, chosen: Iterable[tuple[int, KindRole, int, str, int | None]], direction: str | None) -> Reading:
        """The reading of cards each given its role entry, suit index, rank and (in a sequence)
        offset: ``chosen`` holds (card, entry, suit index, rank, offset), ``direction`` a
        sequence's suit direction."""
        kind = self.kind
        placements = []
        for c, entry, suit_index, rank, offset in chosen:
            face, copy = self.cards[c]
            suit = kind.suits[suit_index]
            identity = kind.shown((suit, rank)) if entry.role.wild else (suit, rank)
            placements.append(Placement(face, copy, entry.role.id, entry.role.wild, identity, offset))
        if kind.shape == "sequence":
            placements.sort(key=sequence_place)
        else:
            placements.sort(key=lambda p: _group_order(kind, p))
        label = dict(kind.suit_step.directions).get(direction) if direction else None
        return Reading(kind, tuple(placements), label or None)

    def readings(self, indices: Sequence[int], assumptions: list[int], limit: int) -> list[Reading]:
        """Every distinct reading (roles, identities, direction) under ``assumptions``, at most
        ``limit``. Blocking clauses hang on a fresh activation literal that is retired after,
        so the model stays reusable."""
        act = self.pool.id(("enumeration", self.pool.top + 1))
        found: list[Reading] = []
        while len(found) < limit and self.solve(assumptions + [act]):
            reading = self.reading(indices)
            if reading is not None:  # (a degenerate model has none)
                found.append(reading)
            model = self.live_solver.model()
            shown = []
            for c in indices:
                lits = self.role_lits[c] + self.xs[c]
                lits += self.pos[c] if self.kind.shape == "sequence" else self.xr[c]
                shown += [lit for lit in lits if model[lit - 1] > 0]
            if self.kind.shape == "sequence":
                shown += [lit for lit in (self.v("dir", d) for d in self.directions) if model[lit - 1] > 0]
            self.live_solver.add([-act] + [-lit for lit in shown])
        self.live_solver.add([-act])
        return found

    def identity_options(self, c: int, base: list[int]) -> list[tuple[str, tuple]]:
        """Every (role, identity) card ``c`` can take in some reading under ``base`` assumptions."""
        kind = self.kind
        face = self.cards[c][0]
        found = []
        for (_i, entry), role in zip(self.entries[c], self.role_lits[c], strict=True):
            if not self.solve(base + [role]):
                continue
            for j, suit in enumerate(kind.suits):
                if suit not in entry.role.suits_for(face):
                    continue
                for rank in entry.role.ranks_for(face):
                    if kind.shape == "sequence":
                        options = [[self.pos[c][q]] for q, r in enumerate(kind.run_order.ranks) if r == rank]
                    elif rank in kind.ranks:
                        options = [[self.xr[c][kind.ranks.index(rank)]]]
                    else:
                        options = []
                    if any(self.solve(base + [role, self.xs[c][j]] + extra) for extra in options):
                        found.append((entry.role.id, (suit, rank)))
        return found

    def close(self) -> None:
        self.closed = True
        self.clauses, self.packed = [], None
        if self.live is not None:
            self.live.close()
            self.live = None


def _group_order(kind: MeldKind, p: Placement) -> tuple:
    """Where a card of a meld that is not a sequence is shown: by suit (a wild whose suit is open
    first), then by rank for a flush, then by face."""
    suit, rank = p.identity
    by_rank = kind.ranks.index(rank) if kind.shape == "flush" and rank in kind.ranks else -1
    return (kind.suits.index(suit) if suit in kind.suits else -1, by_rank, p.face)
