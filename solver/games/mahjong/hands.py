"""Riichi mahjong hands on the meld machinery: winning shapes, waits, closed kans after riichi.

Tiles are cards; mentsu, pairs and orphans are meld kinds; a winning hand is a partition of the
concealed tiles into the parts of a *hand shape* (``hand_shapes:`` in the ruleset: four melds and
a pair, seven distinct pairs, thirteen orphans), declared melds counting as melds.

Two ways to decide, kept equal by the tests:

* the reference — :meth:`Mahjong.decompositions`: candidate melds (:mod:`solver.melding.meld.candidates`)
  and an exact cover in SAT with the shape's part counts, enumerating every decomposition;
* the fast path — :meth:`Mahjong.is_winning` and :meth:`Mahjong.waits`: per-suit tables built
  from the same shapes and kinds (which count vectors of one suit the parts can fill), combined
  across suits with a little dynamic programming; the scorer's per-suit ways come from
  :meth:`Mahjong.suit_ways_of`.

Hand strings follow tenhou (:mod:`solver.games.mahjong.tiles` reads and prints them).

>>> from solver.core.ruleset import load_ruleset
>>> mj = Mahjong(load_ruleset("gensou-mahjong"))
>>> [mj.tile_text(t) for t in mj.waits(mj.parse_hand("1113456788999p"))]  # the document says 2,5,8p
['2p', '5p', '7p', '8p']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from solver.core.deck import Face
from solver.core.errors import MeldsError
from solver.core.notation import Notation
from solver.core.ruleset import Ruleset
from solver.games.mahjong.rules import MahjongRules
from solver.games.mahjong.shapes import MAX_COPIES, FastTables, SuitWays, pack_parts, suit_instances, suit_table
from solver.games.mahjong.tiles import DeclaredMeld, Hand, TileNotation

if TYPE_CHECKING:
    from solver.melding.meld.checker import MeldChecker
    from solver.sat.encodings import Clause


@dataclass(frozen=True)
class Part:
    """One part of a decomposition: a run, triplet, kan or pair, concealed or declared."""

    kind: str
    faces: tuple[Face, ...]
    declared: str | None = None  # the declared meld id (chi, pon, …) or None for a concealed part


@dataclass(frozen=True)
class Decomposition:
    """A winning hand read as one hand shape's parts."""

    shape: str
    parts: tuple[Part, ...]


@dataclass(frozen=True)
class KanVerdict:
    """Whether a riichi hand may declare a closed kan of a tile, by the document and in general."""

    tile: tuple  # the identity konged
    okuri: bool  # the drawn tile is not the fourth (送り槓)
    waits_before: tuple
    waits_after: tuple | None
    doc_allowed: bool
    general_allowed: bool
    reason_doc: str
    reason_general: str


class Mahjong(TileNotation):
    """Hands of a ruleset with ``hand_shapes`` (their notation is :class:`TileNotation`'s)."""

    def __init__(self, ruleset: Ruleset, checker=None):
        if not isinstance(ruleset.rules, MahjongRules) or not ruleset.rules.hand_shapes:
            raise MeldsError(f"{ruleset.id} has no hand shapes: it is not a mahjong ruleset")
        self.rs = ruleset
        self.rules: MahjongRules = ruleset.rules
        self._declared_kinds: dict[tuple[int, ...], tuple[bool, frozenset]] = {}  # see _declared
        if checker is not None:
            self.checker = checker  # else made when a hand first needs it (cached_property)
        self.notation = Notation.for_deck(ruleset.deck)
        # identities (suit, rank): a red five is a five
        seen: dict[tuple, int] = {}
        for face in ruleset.deck.faces:
            seen.setdefault((face.suit, face.rank), len(seen))
        self.identities = list(seen)
        self.index = seen
        self.suits = [s.id for s in ruleset.deck.suits if any(i[0] == s.id for i in self.identities)]
        self.suit_ranks = {s: [i[1] for i in self.identities if i[0] == s] for s in self.suits}
        self._plain_classes = {ident: self._most_common_class(ident) for ident in self.identities}
        self.plain = {
            ident: next(
                f for f in ruleset.deck.faces if (f.suit, f.rank) == ident and f.cls == self._plain_class(ident)
            )
            for ident in self.identities
        }
        self._tables: dict = {}
        # text -> tiles, for the short texts that recur (tokens, melds, a winning tile, indicators)
        self._parsed: dict[str, tuple[Face, ...]] = {}
        self._groups: dict[str, DeclaredMeld] = {}  # a bracket group's text -> its declared meld
        self._identity_texts: dict[tuple[int, ...], str] = {}  # identity indices -> their text
        self._meld_texts: dict[int, tuple] = {}  # id of a declared meld -> (it, its text, in brackets and not)
        self._copies = [ruleset.deck.copies.get(f, 0) for f in ruleset.deck.faces]  # face index -> copies

    def _most_common_class(self, ident) -> str:
        classes = [f.cls for f in self.rs.deck.faces if (f.suit, f.rank) == ident]
        return max(classes, key=lambda c: self.rs.deck.card_class(c).copies)

    @cached_property
    def checker(self) -> MeldChecker:  # type: ignore[override]
        """The ruleset's meld checker (SAT), made when a hand first needs it: scoring and shanten
        never do, and a process that only scores does not load the SAT layer."""
        from solver.melding.meld.checker import MeldChecker

        return MeldChecker(self.rs)

    def close(self) -> None:
        """Close the meld checker's solvers, if it was made."""
        if "checker" in self.__dict__:
            self.checker.close()

    # -- counts -----------------------------------------------------------------------------

    def counts(self, faces: Iterable[Face]) -> list[int]:
        out = [0] * len(self.identities)
        by_face = self.identity_of_face
        for f in faces:
            out[by_face[f.index]] += 1
        return out

    @cached_property
    def identity_of_face(self) -> list[int]:
        """Face index (its place in the deck) -> identity index: a red five counts as a five."""
        return [self.index[(f.suit, f.rank)] for f in self.rs.deck.faces]

    def size(self, hand: Hand) -> int:
        """The hand's size as the shapes count it: a declared kan counts as three tiles."""
        return len(hand.concealed) + 3 * len(hand.melds)

    @cached_property
    def winning_size(self) -> int:
        """Tiles in a winning hand (14), from the first shape's parts."""
        shape = self.rules.hand_shapes[0]
        return sum(p.count * self.rs.kind(p.kinds[0]).size_min for p in shape.parts)

    def require_size(self, hand: Hand, size: int, what: str, other: str) -> None:
        """A hand of the wrong size is bad input, said plainly."""
        if self.size(hand) != size:
            kans = " (a declared kan counts as 3)" if hand.melds else ""
            raise MeldsError(
                f"{what} has {size} tiles{kans}; this hand has {self.size(hand)}: {self.format_hand(hand)}. {other}"
            )

    # -- the fast path --------------------------------------------------------------------------
    #
    # Each shape's part-count vector is packed into its own bit field of one int (6 bits a part,
    # plus a "poison" field that is non-zero when a suit cannot be filled for that shape). One
    # dict lookup per suit gives the suit's contribution to every shape at once; summing the
    # suits and comparing each shape's field with its need decides the hand. Fields never carry
    # into each other: no sum over four suits reaches 64.

    def suit_shape_table(self, shape, suit: str) -> dict:
        """For one suit: counts tuple -> set of part-count vectors that fill it exactly."""
        key = (shape.id, suit)
        if key not in self._tables:
            self._tables[key] = suit_table(self.rs, shape, suit, self.suit_ranks[suit])
        return self._tables[key]

    @cached_property
    def suit_slices(self) -> tuple[tuple[int, int], ...]:
        out, start = [], 0
        for suit in self.suits:
            width = len(self.suit_ranks[suit])
            out.append((start, start + width))
            start += width
        return tuple(out)

    @cached_property
    def _fast(self) -> FastTables:
        return FastTables.kept(self, self.rs.id, self._shapes_signature())

    def _shapes_signature(self) -> str:
        """What the fast tables are built from: each hand shape, its parts and their instances in
        each suit (the key they are kept under)."""
        return repr(
            [
                (
                    shape.id,
                    shape.parts,
                    shape.closed,
                    shape.distinct,
                    [(suit, tuple(suit_instances(self.rs, shape, suit, self.suit_ranks[suit]))) for suit in self.suits],
                )
                for shape in self.rules.hand_shapes
            ]
        )

    def shape_need(self, shape, declared: int) -> list[int] | None:
        need = [p.count - (declared if p.declared else 0) for p in shape.parts]
        if any(n < 0 for n in need) or (shape.closed and declared):
            return None
        return need

    def shape_fits(self, shape, counts: Sequence[int], declared: int) -> bool:
        """Does one shape fit these counts? (general: any number of ways a suit can be filled)"""
        need = self.shape_need(shape, declared)
        if need is None:
            return False
        reachable = {0}
        for suit, (a, b) in zip(self.suits, self.suit_slices, strict=True):
            options = self.suit_shape_table(shape, suit).get(tuple(counts[a:b]))
            if options is None:
                return False
            reachable = {r + pack_parts(o) for r in reachable for o in options}
        return pack_parts(need) in reachable

    def winning_counts(self, counts: Sequence[int], declared: int = 0) -> bool:
        """Is a count vector (one entry per identity) a winning shape? (fast)"""
        fast = self._fast
        total = 0
        for (a, b), table in zip(self.suit_slices, fast.tables, strict=True):
            total += table.get(tuple(counts[a:b]), fast.poison)
        for mask, need in fast.needs[declared] if declared < len(fast.needs) else ():
            if total & mask == need:
                return True
        return any(self.shape_fits(shape, counts, declared) for shape in fast.slow_shapes)

    def is_winning(self, hand: Hand) -> bool:
        """Do the hand's concealed tiles and declared melds make a winning shape? (fast)"""
        return self.winning_counts(self.counts(hand.concealed), len(hand.melds))

    def waits_counts(self, counts: Sequence[int], declared: int = 0) -> list[int]:
        """Indices of the identities that complete a count vector (形式聴牌 included)."""
        fast = self._fast
        keys = [tuple(counts[a:b]) for a, b in self.suit_slices]
        values = [table.get(key, fast.poison) for key, table in zip(keys, fast.tables, strict=True)]
        total = sum(values)
        needs = fast.needs[declared] if declared < len(fast.needs) else ()
        out = []
        for s, (a, _) in enumerate(self.suit_slices):
            rest = total - values[s]
            for i, value in fast.completions(s, keys[s]):
                whole = rest + value
                for mask, need in needs:
                    if whole & mask == need:
                        out.append(a + i)
                        break
        if fast.slow_shapes:
            trial = list(counts)
            for i in range(len(trial)):
                if i in out or trial[i] >= MAX_COPIES:
                    continue
                trial[i] += 1
                if any(self.shape_fits(shape, trial, declared) for shape in fast.slow_shapes):
                    out.append(i)
                trial[i] -= 1
            out.sort()
        return out

    def waits(self, hand: Hand) -> list[tuple]:
        """The tiles that complete the hand, a tile whose every copy is held included (形式聴牌)."""
        return [self.identities[i] for i in self.waits_counts(self.counts(hand.concealed), len(hand.melds))]

    def shape_needs(self, declared: int) -> list[tuple]:
        """(shape, part counts still needed) for the shapes a hand with ``declared`` melds can take."""
        key = ("needs", declared)
        if key not in self._tables:
            self._tables[key] = [
                (shape, tuple(need))
                for shape in self.rules.hand_shapes
                if (need := self.shape_need(shape, declared)) is not None
            ]
        return self._tables[key]

    def suit_ways_of(self, shape, s: int) -> SuitWays:
        """The ways of filling suit ``s`` with a shape's parts, as a function of its counts."""
        ways = self._tables.get(("ways", shape.id, s))
        if ways is None:
            instances = self.instances(shape, s)
            ways = self._tables.get(("ways", instances, shape.distinct))
            if ways is None:
                ways = self._tables[("ways", instances, shape.distinct)] = SuitWays(instances, shape.distinct)
            self._tables[("ways", shape.id, s)] = ways
        return ways

    def instances(self, shape, s: int) -> tuple:
        """The shape's parts that fit in suit ``s``: (part index, kind id, counts vector,
        identity key or None) each (see :func:`~solver.games.mahjong.shapes.suit_instances`)."""
        key = ("instances", shape.id, s)
        if key not in self._tables:
            self._tables[key] = tuple(suit_instances(self.rs, shape, self.suits[s], self.suit_ranks[self.suits[s]]))
        return self._tables[key]

    # -- the reference: every decomposition by SAT ------------------------------------------------

    def decompositions(self, hand: Hand, limit: int = 200) -> list[Decomposition]:
        out: list[Decomposition] = []
        for shape in self.rules.hand_shapes:
            if shape.closed and hand.melds:
                continue
            out.extend(self._decompose(shape, hand, limit - len(out)))
        return out

    def _decompose(self, shape, hand: Hand, limit: int) -> list[Decomposition]:
        from solver.melding.meld.candidates import candidates
        from solver.sat import encodings
        from solver.sat.encodings import exact_counter
        from solver.sat.pool import VarPool
        from solver.sat.solvers import SatSolver

        need = [p.count - (len(hand.melds) if p.declared else 0) for p in shape.parts]
        if any(n < 0 for n in need):
            return []
        kinds = [self.rs.kind(k) for p in shape.parts for k in p.kinds]
        pool = list(hand.concealed)
        options: list[tuple[int, int, tuple[Face, ...], int | None, str]] = []  # (var, part, faces, previous, kind)
        vpool = VarPool()
        held = Counter(pool)
        for cand in candidates(self.rs, pool, kinds) or []:  # no limit: never None
            faces = tuple(pool[i] for i in cand.cards)
            verdict = self.checker.check(faces, explain=False)
            if not verdict.legal:
                continue
            part = next((j for j, p in enumerate(shape.parts) if cand.kinds & set(p.kinds)), None)
            if part is None:
                continue
            need_faces = Counter(faces)
            times = min(held[f] // k for f, k in need_faces.items())
            kind_id = next(k for k in shape.parts[part].kinds if k in cand.kinds)
            previous: int | None = None
            for _ in range(times):
                var = vpool.id(("x", len(options)))
                options.append((var, part, faces, previous, kind_id))
                previous = var
        clauses: list[Clause] = [[-v, prev] for v, _, _, prev, _ in options if prev is not None]
        for face in set(pool):
            uses = [v for v, _, faces, _, _ in options for _ in range(faces.count(face))]
            ge = exact_counter(uses, held[face] + 1, vpool, clauses)
            at_least, over = ge[held[face]], ge[held[face] + 1]
            if at_least is None:
                return []  # the face cannot be covered
            if at_least != 0:
                clauses.append([at_least])
            if over is not None:
                clauses.append([-over])
        for j, n in enumerate(need):
            lits = [v for v, part, _, _, _ in options if part == j]
            if n > len(lits):
                return []
            clauses += encodings.exactly(lits, n, vpool) if lits else ([] if n == 0 else [[]])
        if shape.distinct:
            by_identity: dict = {}
            for v, _, faces, _, _ in options:
                by_identity.setdefault(self.identity(faces[0]), []).append(v)
            for lits in by_identity.values():
                clauses += encodings.at_most(lits, 1, vpool)
        found: list[Decomposition] = []
        seen = set()
        with SatSolver(clauses) as solver:
            while len(found) < limit and solver.solve():
                model = solver.true()
                chosen = [(kind_id, faces) for v, _, faces, _, kind_id in options if v in model]
                # two decompositions differ in how the tiles group, not in where a red five sits
                key = tuple(
                    sorted((k, tuple(sorted(self.index[self.identity(f)] for f in faces))) for k, faces in chosen)
                )
                solver.add([-v for v, _, _, _, _ in options if v in model])
                if key in seen:
                    continue
                seen.add(key)
                # concealed melds in tile order, then the pair, then the declared melds
                parts = sorted(
                    (Part(kind_id, faces) for kind_id, faces in chosen),
                    key=lambda p: (len(p.faces) == 2, self.index[self.identity(p.faces[0])]),
                )
                parts += [Part(m.meld_kind, m.faces, m.kind) for m in hand.melds]
                found.append(Decomposition(shape.id, tuple(parts)))
        return found

    def decompositions_by_wait(self, hand: Hand, waits: Sequence[tuple]) -> dict[tuple, list[Decomposition]]:
        """For each wait, every decomposition of the hand completed by it."""
        return {w: self.decompositions(hand.with_tile(self.plain[w])) for w in waits}

    def tenpai_discards(self, hand: Hand) -> list[tuple[tuple, list[tuple]]]:
        """For a hand one tile over tenpai: each discard that leaves it waiting, with its waits."""
        counts = self.counts(hand.concealed)
        out = []
        for i, n in enumerate(counts):
            if n:
                counts[i] -= 1
                waits = self.waits_counts(counts, len(hand.melds))
                counts[i] += 1
                if waits:
                    out.append((self.identities[i], [self.identities[w] for w in waits]))
        return out

    def waits_reference(self, hand: Hand) -> list[tuple]:
        return [
            ident
            for ident in self.identities
            if self.counts(hand.concealed)[self.index[ident]] < MAX_COPIES
            and self.decompositions(hand.with_tile(self.plain[ident]), limit=1)
        ]

    # -- closed kans after riichi ---------------------------------------------------------------

    def riichi_kans(self, hand: Hand, drawn: Face) -> list[KanVerdict]:
        """Every closed kan the hand could declare after drawing ``drawn`` while in riichi, judged
        by the document's rule (waits unchanged; never a 送り槓) and by the general rule (no
        decomposition of the waiting hand changes)."""
        before = self._riichi_waits(hand)
        out = []
        for ident in self._kan_identities(hand, drawn):
            okuri, after, doc_ok, reason_doc = self._riichi_kan_doc(hand, drawn, ident, before)
            general_ok = doc_ok and self._kan_keeps_decompositions(hand, ident, before)
            reason_general = (
                reason_doc
                if not doc_ok
                else f"{self.tile_text(ident)} is a triplet in every reading"
                if general_ok
                else f"some reading of the waiting hand uses {self.tile_text(ident)} otherwise"
            )
            out.append(KanVerdict(ident, okuri, before, after, doc_ok, general_ok, reason_doc, reason_general))
        return out

    def riichi_kan_allowed(self, hand: Hand, drawn: Face, ident: tuple) -> tuple[bool, str] | None:
        """The document's rule alone for a closed kan of ``ident`` after drawing ``drawn`` in
        riichi — allowed, and why — as :meth:`riichi_kans` gives it (None: the hand and the draw
        hold no four of it); what a judge needs, without the general rule's decompositions."""
        before = self._riichi_waits(hand)
        if ident not in self._kan_identities(hand, drawn):
            return None
        _, _, allowed, reason = self._riichi_kan_doc(hand, drawn, ident, before)
        return allowed, reason

    def _riichi_waits(self, hand: Hand) -> tuple:
        if self.rules.riichi_kan is None:
            raise MeldsError(f"{self.rs.id} has no rule for closed kans after riichi")
        before = tuple(self.waits(hand))
        if not before:
            raise MeldsError(f"{self.format_hand(hand)} is not tenpai, so it cannot be in riichi")
        return before

    def _kan_identities(self, hand: Hand, drawn: Face) -> list[tuple]:
        """The identities of which the hand and the draw hold four, in tile order."""
        full = Counter(self.identity(f) for f in hand.concealed + (drawn,))
        return [ident for ident, n in sorted(full.items(), key=lambda kv: self.index[kv[0]]) if n >= 4]

    def _riichi_kan_doc(
        self, hand: Hand, drawn: Face, ident: tuple, before: tuple
    ) -> tuple[bool, tuple | None, bool, str]:
        """(送り槓, the waits after, allowed by the document's rule, why) for a kan of ``ident``."""
        okuri = self.identity(drawn) != ident
        if okuri:  # the drawn tile stays in hand and must still be discarded: 送り槓
            after = None
        else:
            kan_faces = tuple(f for f in hand.concealed + (drawn,) if self.identity(f) == ident)
            remaining = list(hand.concealed + (drawn,))
            for f in kan_faces:
                remaining.remove(f)
            after_hand = Hand(tuple(remaining), hand.melds + (DeclaredMeld("ankan", kan_faces, False, "kantsu"),))
            after = tuple(self.waits(after_hand))
        waits_same = after == before and bool(before)
        rule = self.rules.riichi_kan  # there is one: the waits before were asked of it
        doc_ok = waits_same and not (okuri and rule is not None and rule.no_okuri_kan)
        reason = (
            "送り槓: the drawn tile is not the fourth"
            if okuri
            else "the waits stay the same"
            if waits_same
            else "the waits change"
        )
        return okuri, after, doc_ok, reason

    def _kan_keeps_decompositions(self, hand: Hand, ident: tuple, waits: Sequence[tuple]) -> bool:
        for w in waits:
            for d in self.decompositions(hand.with_tile(self.plain[w])):
                if not any(
                    p.kind == "koutsu" and len(p.faces) == 3 and all(self.identity(f) == ident for f in p.faces)
                    for p in d.parts
                    if p.declared is None
                ):
                    return False
        return True
