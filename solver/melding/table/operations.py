"""The table: melds in their layout, with owners and buried wilds; single-card operations.

A table meld is its cards in table order (the order fixes what each wild stands for in a run
or 相順) plus, per position, a wild that a natural card buries (埋め潰し). The operations a
ruleset allows (``operations:``) are generic mechanisms named by their ``effect``:

========================  =================================================================
``add``                   付け札: one hand card joins the meld at either end
``replace-wild``          差し札: a hand card takes a wild's place as a natural; the wild is taken
``bury-wild``             埋め潰し: as 差し札, but the wild stays, buried under the card
``replace-natural``       抜き札: a hand wild takes a natural card's place; the natural is taken
``replace-buried``        発掘: a hand wild takes a buried pair's place; both cards are taken
``add-and-take-far-end``  付け抜き札: a card joins one end of a full meld, the far end is taken
``recall``                回収: one's own meld goes back to the hand
========================  =================================================================

Every result is judged by :class:`~solver.melding.meld.checker.MeldChecker` in its table layout, with the field
phase, exactly like a new meld; touching a meld of a phase-bound kind needs that phase.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from solver.core.deck import Face
from solver.core.errors import MeldsError
from solver.core.reader import RuleReader
from solver.core.source import Source
from solver.melding.meld.checker import MeldChecker
from solver.melding.meld.encode import Reading


@dataclass(frozen=True)
class Operation:
    """A single-card table operation a game allows (付け札, 差し札, …): its mechanism
    (``effect``), what it may play or take, and its restriction before one's own first meld:
    forbidden, allowed if the taken cards are melded at once, or allowed."""

    id: str
    name: str
    effect: str
    before_own_meld: str
    kind_change: str  # own | any | never: may the table meld change kind (family)?
    card_classes: frozenset[str] | None
    taken_classes: frozenset[str] | None
    families: frozenset[str] | None
    turns: frozenset[str] | None
    source: Source | None

    def __hash__(self) -> int:  # a table search keys its cache by a meld and the operations: the id is the identity
        return hash(self.id)


def read_operations(reader: RuleReader, raw: list, section: str) -> tuple[Operation, ...]:
    """A ruleset's list of operations (its section ``section``)."""
    out = []
    for i, o in enumerate(raw):
        for key in ("card_classes", "taken_classes"):
            if key in o:
                reader.check_ids(o[key], reader.class_ids, "card class", f"{section}[{i}].{key}")
        out.append(
            Operation(
                o["id"],
                o["name"],
                o["effect"],
                o.get("before_own_meld", "allowed"),
                o.get("kind_change", "never" if o["effect"] != "add" else "own"),
                frozenset(o["card_classes"]) if "card_classes" in o else None,
                frozenset(o["taken_classes"]) if "taken_classes" in o else None,
                frozenset(o["families"]) if "families" in o else None,
                frozenset(o["turns"]) if "turns" in o else None,
                reader.source(o),
            )
        )
    return tuple(out)


@dataclass(frozen=True)
class TableMeld:
    """A meld on the table: its cards in table order, its owner, and any buried wilds."""

    owner: str
    faces: tuple[Face, ...]
    mine: bool = False
    buried: tuple = field(default=())  # per position: a wild buried under that card, or None

    def __post_init__(self):
        if len(self.buried) != len(self.faces):
            object.__setattr__(self, "buried", tuple(self.buried) + (None,) * (len(self.faces) - len(self.buried)))

    @property
    def all_cards(self) -> tuple[Face, ...]:
        return self.faces + tuple(b for b in self.buried if b is not None)


@dataclass(frozen=True)
class Move:
    """One single-card operation: what was played, what was taken, the meld it leaves."""

    op: Operation
    table: int
    played: tuple[Face, ...]
    taken: tuple[Face, ...]
    result: TableMeld
    reading: Reading


class Candidate(NamedTuple):
    """One place a card may go on a meld by one operation, before the checker is asked of it: the
    layout it would make (its cards and buried wilds), the place, the cards taken, and, when every
    kind the result may be read as has the same shape, whether that shape is a sequence (None: it
    depends on the kind the checker reads it as). A search that has reached the layout already
    need not ask the checker of it (see :meth:`MeldMoves.judged`)."""

    op: Operation
    faces: tuple[Face, ...]
    buried: tuple
    hole: int
    taken: tuple[Face, ...]
    sequence: bool | None


class MeldMoves:
    """The legal operations on one table meld, per card played (each worked out on first need):
    call it with a card. ``faces``: the cards (a bit per face index) that may have one — every
    other card has none, so a search need not ask. A search may instead take a card's
    :meth:`candidates` and ask the checker of each (:meth:`judged`) only when the layout it would
    make is new to it."""

    def __init__(self, table: Table, meld: TableMeld, phase: str | None, ops: tuple[Operation, ...]):
        self._table, self._meld, self._phase = table, meld, phase
        self._before = table.legal_reading(meld)
        self._places = table._places(meld, phase, ops)
        self.faces = 0
        for _, _, may_play, _ in self._places:
            self.faces |= may_play
        self._per_face: dict = {}
        self._candidates: dict = {}  # face -> its candidates
        self._judged: dict = {}  # face -> per candidate, its move (None: illegal; absent: not asked yet)

    def __call__(self, face: Face) -> list:
        found = self._per_face.get(face)
        if found is None:
            moves = (self.judged(face, i) for i in range(len(self.candidates(face))))
            found = self._per_face[face] = [move for move in moves if move is not None]
        return found

    def candidates(self, face: Face) -> list[Candidate]:
        """The places ``face`` may go, by each operation (cached), before any is judged."""
        found = self._candidates.get(face)
        if found is None:
            found = self._candidates[face] = self._table._candidates(self._meld, face, self._places)
        return found

    def judged(self, face: Face, i: int) -> tuple | None:
        """The move of ``face``'s ``i``-th candidate — (operation, cards played, cards taken, the
        resulting meld, its reading) — or None when the result is no legal meld the operation
        may make (cached)."""
        judged = self._judged.setdefault(face, {})
        if i not in judged:
            candidate = self.candidates(face)[i]
            judged[i] = self._table._judge(self._meld, self._before, face, candidate, self._phase)
        return judged[i]


# the operations whose card takes the place of one of the meld's (its layout otherwise unchanged)
_IN_PLACE = frozenset({"replace-wild", "bury-wild", "replace-natural", "replace-buried"})
# how the played card acts in the operations that say (see Table._roles_ok)
_WANTED_WILD = {"replace-wild": False, "bury-wild": False, "replace-natural": True, "replace-buried": True}


class Table:
    """Judges table melds (cached) and lists the operations a hand can make on them."""

    def __init__(self, checker: MeldChecker):
        self.checker = checker
        self._verdicts: dict = {}  # phase -> cards in table order -> verdict
        self._families: dict = {}  # (family, phase) -> cards in table order -> a kind of it reads them
        self._acting_masks: dict = {}  # (operation, family) -> the faces that may play it
        self._moves: dict = {}
        kinds = checker.ruleset.kinds
        # families whose every kind is a group: what may fill a place is a function of the other cards'
        # multiset, whatever their order and the place (see _may_fill)
        self._group_families = {k.family for k in kinds} - {
            k.family for k in kinds if k.shape not in ("group", "identical")
        }
        self._group_fills: dict = {}  # (family, phase, the other cards' indices sorted) -> faces (bits)
        # (family, phase) -> whether a legal verdict of that family in the phase is its verdict in none
        self._phase_free: dict = {}
        self._shapes: dict[str, set[bool]] = {}  # family -> whether its kinds are sequences
        self._sequence_kinds = [k for k in kinds if k.shape == "sequence"]
        self._maybe_sequences: dict = {}  # cards in table order -> whether a sequence kind may read them

    def verdict(self, faces: tuple[Face, ...], phase: str | None):
        known = self._verdicts.setdefault(phase, {})
        verdict = known.get(faces)
        if verdict is None:
            verdict = known[faces] = self.checker.check(faces, phase=phase, ordered=True, explain=False)
            anyhow = self._verdicts.setdefault(None, {})
            if verdict.legal and faces not in anyhow:
                # a layout a search reaches is asked again in no phase (to touch it, its reading):
                # the same verdict when no kind of its family is bound to another phase; else asked
                # now, while the checker still remembers what the kinds read (its memo is bounded)
                assert verdict.reading is not None
                if self._same_in_no_phase(verdict.reading.kind.family, phase):
                    anyhow[faces] = verdict
                else:
                    anyhow[faces] = self.checker.check(faces, phase=None, ordered=True, explain=False)
        return verdict

    def _same_in_no_phase(self, family: str, phase: str | None) -> bool:
        """Is a legal verdict of a meld of ``family`` in ``phase`` its verdict in no phase? So when
        ambiguity is rejected and every kind of the family may be read in the phase: a legal meld
        is then read by kinds of its family alone (two families are ambiguous), each allowed in
        the phase as in none, so the checker chooses among the same readings."""
        key = (family, phase)
        same = self._phase_free.get(key)
        if same is None:
            rs = self.checker.ruleset
            same = self._phase_free[key] = rs.ambiguity_rule == "reject" and all(
                kind.phase in (None, phase) for kind in rs.kinds if kind.family == family
            )
        return same

    def reading(self, meld: TableMeld) -> Reading | None:
        """The meld's reading in its layout, whatever the phase (it is on the table already)."""
        v = self.verdict(meld.faces, None)
        return v.reading if v.legal else None

    def legal_reading(self, meld: TableMeld) -> Reading:
        """The reading of a meld known to be legal (a turn's table is checked when it is read)."""
        reading = self.reading(meld)
        if reading is None:
            raise ValueError(f"table meld {meld.faces} is not a legal meld")
        return reading

    def placement_at(self, meld: TableMeld, reading: Reading, i: int):
        """The reading's placement of the layout's ``i``-th card (the k-th occurrence of a face is
        its copy k, as :meth:`_placements` reads them)."""
        index = meld.faces[i].index
        copy = sum(f.index == index for f in meld.faces[:i])
        return next(p for p in reading.placements if p.face.index == index and p.copy == copy)

    def _placements(self, meld: TableMeld, reading: Reading) -> list:
        """The reading's placement of each position of the layout, in order (what every
        position-wise operation asks of one meld): the k-th occurrence of a face is its copy k (by
        face index: a card's own hash is a Python call)."""
        by_card = {(p.face.index, p.copy): p for p in reading.placements}
        copies: dict[int, int] = {}
        out = []
        for face in meld.faces:
            copy = copies.get(face.index, 0)
            copies[face.index] = copy + 1
            out.append(by_card[face.index, copy])
        return out

    def touchable(self, meld: TableMeld, phase: str | None) -> bool:
        """A meld of a phase-bound kind may be touched only in its phase."""
        reading = self.reading(meld)
        return reading is not None and reading.kind.phase in (None, phase)

    def moves(
        self, table: tuple[TableMeld, ...], hand: tuple[Face, ...], phase: str | None, ops: tuple[Operation, ...]
    ) -> Iterator[Move]:
        """Every single-card operation the hand can make on the table melds."""
        for t, meld in enumerate(table):
            if not self.touchable(meld, phase):
                continue
            for face in sorted(set(hand)):
                for op, played, taken, result, reading in self._legal(meld, face, phase, ops):
                    yield Move(op, t, played, taken, result, reading)

    def _legal(self, meld: TableMeld, face: Face, phase: str | None, ops: tuple[Operation, ...]):
        """The legal operations on one meld with one hand card (cached: they depend on nothing
        else)."""
        return self.legal_with(meld, phase, ops)(face)

    def legal_with(self, meld: TableMeld, phase: str | None, ops: tuple[Operation, ...]) -> MeldMoves:
        """:meth:`_legal` for one meld, as a function of the card (a search asks one meld about
        every card it may play: the meld's places are worked out once, see :meth:`_places`)."""
        key = (meld, phase, ops)
        moves = self._moves.get(key)
        if moves is None:
            moves = self._moves[key] = MeldMoves(self, meld, phase, ops)
        return moves

    def _candidates(self, meld: TableMeld, face: Face, places: list) -> list[Candidate]:
        """The places of ``places`` (see :meth:`_places`) where one card may go: those some window
        reads it at, by the operations it may act in."""
        bit = 1 << face.index
        found = []
        for op, family, may_play, at in places:
            if not may_play & bit:
                continue  # the card can go nowhere a window reads; or never acts as the operation needs
            sequence = self._family_shape(family)
            for layout, buried, hole, taken, fill, same_at_end in at:
                if fill is not None and not fill & bit or same_at_end and all(f == face for f in meld.faces):
                    continue  # no window reads the card there; or 付け札 at the start, the same as at the end
                faces = layout[:hole] + (face,) + layout[hole + 1 :]
                found.append(Candidate(op, faces, buried, hole, taken, sequence))
        return found

    def _judge(
        self, meld: TableMeld, before: Reading, face: Face, candidate: Candidate, phase: str | None
    ) -> tuple | None:
        """A candidate's move (see :meth:`MeldMoves.judged`) on ``meld`` (read ``before``), the
        checker asked of its layout."""
        op, faces = candidate.op, candidate.faces
        family = None if _may_change_kind(op, meld) else before.kind.family
        verdict = self._verdicts.setdefault(phase, {}).get(faces)  # a layout reached before: its family is known
        if verdict is None:
            if not self._in_family(faces, family, phase):
                return None  # no meld (of its family, if it must stay in it): most results
            if _WANTED_WILD.get(op.effect) is False and self._surely_wild(faces, candidate.hole, family):
                return None  # the card played would be wild in any reading, where it must act as a natural
            verdict = self.verdict(faces, phase)
        if not verdict.legal or verdict.reading is None or not self._kind_change_ok(op, meld, before, verdict.reading):
            return None
        result = TableMeld(meld.owner, faces, meld.mine, candidate.buried)
        if not self._roles_ok(op, result, verdict.reading, candidate.hole):
            return None
        return op, (face,), candidate.taken, result, verdict.reading

    def may_read_as_sequence(self, faces: tuple[Face, ...]) -> bool:
        """May a sequence kind (of any family or phase) read ``faces`` in this order? False only when
        the checker's own look before its model (shortcuts on) rules every one out: no card of
        the layout plays in the kind, or no window reads the layout either way. A legal verdict of
        such a layout is then a group's reading, so a search knows its layout's key before the
        checker is asked (cached)."""
        known = self._maybe_sequences.get(faces)
        if known is None:
            checker, n = self.checker, len(faces)
            known = self._maybe_sequences[faces] = not checker.shortcuts or any(
                kind.size_ok(n)
                and checker.plays.all_play(kind, faces)
                and checker.layouts.least_wilds_each_way(kind, faces, None) != (None, None)
                for kind in self._sequence_kinds
            )
        return known

    def _surely_wild(self, faces: tuple[Face, ...], hole: int, family: str | None) -> bool:
        """Is the card at ``hole`` wild in every reading of ``faces`` by a kind of ``family``, as the
        windows of each kind's lines tell (:meth:`~solver.melding.meld.layouts.LayoutLines.may_be_natural`)?
        False when some kind may not be looked at so, or the card is there twice (a reading's
        copies of a face are matched to places by order). A table search's 差し札 and 埋め潰し
        results are mostly melds read with the card played as a wild: the checker need not be asked."""
        if family is None or not self.checker.shortcuts or faces.count(faces[hole]) > 1:
            return False
        layouts = self.checker.layouts
        kinds = [kind for kind in self.checker.ruleset.kinds if kind.family == family and kind.size_ok(len(faces))]
        return all(layouts.may_be_natural(kind, faces, hole) is False for kind in kinds)

    def _family_shape(self, family: str | None) -> bool | None:
        """Whether every kind of ``family`` is a sequence (True), none is (False), or it depends
        on the kind (None; also for any kind, ``family`` None)."""
        if family is None:
            return None
        shapes = self._shapes.get(family)
        if shapes is None:
            kinds = self.checker.ruleset.kinds
            shapes = self._shapes[family] = {k.shape == "sequence" for k in kinds if k.family == family}
        return next(iter(shapes)) if len(shapes) == 1 else None

    def _places(self, meld: TableMeld, phase: str | None, ops: tuple[Operation, ...]) -> list:
        """Per operation: the family its results must stay in (None: any kind), the faces that may
        play it on the meld (a bit per face index), and the places its card may go — (the layout
        with None there, its buried wilds, the place, cards taken, the faces some window reads
        there (None: any), whether it is 付け札 at the start). The faces a window reads at each
        place are worked out once for the meld: a card at a place no window reads is no meld of
        a sequence kind, and most cards at most places are none."""
        before = self.legal_reading(meld)
        placements = (
            self._placements(meld, before)
            if any(op.effect in ("replace-wild", "bury-wild", "replace-natural") for op in ops)
            else []
        )
        out = []
        in_place: dict[tuple[int, str | None], int | None] = {}  # (place, family) -> fill, see below
        for op in ops:
            family = None if _may_change_kind(op, meld) else before.kind.family
            at = []
            for layout, buried, hole, taken, first in self._effect(op, meld, before, placements):
                if op.effect in _IN_PLACE:  # the meld's cards with the place emptied: one fill for them all
                    key = (hole, family)
                    if key not in in_place:
                        in_place[key] = self._may_fill(layout, hole, family, phase)
                    fill = in_place[key]
                else:
                    fill = self._may_fill(layout, hole, family, phase)
                at.append((layout, buried, hole, taken, fill, first))
            fills = 0
            for place in at:
                fills |= -1 if place[4] is None else place[4]
            out.append((op, family, fills & self._acting(op, before.kind.family), at))
        return out

    def _may_fill(self, layout: tuple, hole: int, family: str | None, phase: str | None) -> int | None:
        """The checker's :meth:`~solver.melding.meld.checker.MeldChecker.faces_that_may_fill` of a
        place; of a family of groups, kept per multiset of the other cards: a group's layouts of the
        same cards (buried wilds placed otherwise, a card put at another place) ask the same."""
        if family not in self._group_families:
            return self.checker.faces_that_may_fill(layout, hole, family, phase)
        key = (family, phase, _multiset(layout))
        found = self._group_fills.get(key, False)
        if found is False:
            found = self._group_fills[key] = self.checker.faces_that_may_fill(layout, hole, family, phase)
        return found

    def _acting(self, op: Operation, family: str) -> int:
        """The faces (a bit each) the operation may play on a meld of the family: of its card
        classes, and, where it wants a natural or a wild (see :meth:`_roles_ok`), able to act so —
        a role entry of some kind of the family applies to it with that wildness (these
        operations never change a meld's kind)."""
        key = (op.id, family)
        mask = self._acting_masks.get(key)
        if mask is None:
            wanted = _WANTED_WILD.get(op.effect)
            entries = [entry for kind in self.checker.ruleset.kinds if kind.family == family for entry in kind.roles]
            mask = self._acting_masks[key] = sum(
                1 << face.index
                for face in self.checker.ruleset.deck.faces
                if (op.card_classes is None or face.cls in op.card_classes)
                and (wanted is None or any(e.applies(face) and e.role.wild == wanted for e in entries))
            )
        return mask

    def _in_family(self, faces: tuple[Face, ...], family: str | None, phase: str | None) -> bool:
        """May a kind of ``family`` read the cards (a "perhaps" will do: the verdict comes next)? Of
        a family of groups, kept per multiset: the layouts of the same cards in other orders ask
        the same."""
        known = self._families.setdefault((family, phase), {})
        key = _multiset(faces) if family in self._group_families else faces
        found = known.get(key)
        if found is None:
            found = known[key] = self.checker.reads_in_family(faces, family, phase, surely=False)
        return found

    def _kind_change_ok(self, op: Operation, meld: TableMeld, before: Reading, after: Reading) -> bool:
        return before.kind.family == after.kind.family or _may_change_kind(op, meld)

    def _roles_ok(self, op: Operation, result: TableMeld, reading: Reading, slot: int) -> bool:
        """The played card acts as the operation says: a natural for 差し札 and 埋め潰し, a wild
        for 抜き札 and 発掘."""
        wanted_wild = _WANTED_WILD.get(op.effect)
        return wanted_wild is None or self.placement_at(result, reading, slot).wild == wanted_wild

    def _effect(self, op: Operation, meld: TableMeld, before: Reading, placements: list):
        """(the resulting layout with None where the played card goes, its buried wilds, that
        place, the cards taken, whether it is 付け札 at the start) for each way the operation may
        apply to the meld (a card is put in the place by :meth:`_candidates`)."""
        faces, buried = meld.faces, meld.buried
        effect = op.effect
        if effect == "add":
            yield faces + (None,), buried + (None,), len(faces), (), False
            yield (None,) + faces, (None,) + buried, 0, (), True
        elif effect in ("replace-wild", "bury-wild"):
            for i, face in enumerate(faces):
                if buried[i] is not None or not placements[i].wild:
                    continue
                under = buried[:i] + ((face if effect == "bury-wild" else None),) + buried[i + 1 :]
                taken = () if effect == "bury-wild" else (face,)
                yield faces[:i] + (None,) + faces[i + 1 :], under, i, taken, False
        elif effect == "replace-natural":
            for i, face in enumerate(faces):
                p = placements[i]
                if (
                    buried[i] is not None
                    or p.wild
                    or (op.taken_classes is not None and face.cls not in op.taken_classes)
                ):
                    continue
                yield faces[:i] + (None,) + faces[i + 1 :], buried, i, (face,), False
        elif effect == "replace-buried":
            for i, face in enumerate(faces):
                if buried[i] is None:
                    continue
                under = buried[:i] + (None,) + buried[i + 1 :]
                yield faces[:i] + (None,) + faces[i + 1 :], under, i, (face, buried[i]), False
        elif effect == "add-and-take-far-end":
            if op.families is not None and before.kind.family not in op.families:
                return
            if len(faces) < before.kind.size_max:
                return
            yield (
                faces[1:] + (None,),
                buried[1:] + (None,),
                len(faces) - 1,
                tuple(x for x in (faces[0], buried[0]) if x is not None),
                False,
            )
            yield (
                (None,) + faces[:-1],
                (None,) + buried[:-1],
                0,
                tuple(x for x in (faces[-1], buried[-1]) if x is not None),
                False,
            )


def _multiset(faces: Sequence[Face | None]) -> tuple[int, ...]:
    """The cards (a layout's, its place left empty) as a multiset: their face indices in order."""
    return tuple(sorted(f.index for f in faces if f is not None))


def _may_change_kind(op: Operation, meld: TableMeld) -> bool:
    """May the operation's result be a meld of another family (``kind_change``: any, or own on
    one's own meld)?"""
    return op.kind_change == "any" or op.kind_change == "own" and meld.mine


def recall(meld: TableMeld) -> tuple[Face, ...]:
    """回収: every card of one's own meld back to hand, buried wilds included ("全てまとめて手札に
    戻す … 埋め潰されたワイルドカードも新たに分離して活用することができる")."""
    if not meld.mine:
        raise MeldsError("only one's own meld can be recalled")
    return meld.all_cards


def meld_state(reading: Reading) -> tuple:
    """What makes a meld 'the same state' for the recall rule: its cards, and which of them act
    as wilds ("ワイルドカードなどの使用／不使用の状態が変わっていたり、枚数の違いがあればよい")."""
    return (
        tuple(sorted(p.face for p in reading.placements)),
        tuple(sorted(p.face for p in reading.placements if p.wild)),
    )


def remeld_forbidden(reading: Reading, recalled: list[tuple]) -> bool:
    """A recalled meld may not be melded again in exactly the state it was recalled in."""
    return meld_state(reading) in recalled
