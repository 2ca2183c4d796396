"""A plain turn's legal melds: each card set judged by the checker, or told from the candidate walk.

A card set is judged as the turn model judges an option (:func:`judged`: legal, its reading, its
best points; one meld per kind that reads it). That is a checker call per card set, and a hand
rich in wilds has hundreds of card sets, nearly all new questions (a wild's meld repeats across
hands only with the same natural cards).

When every kind of the ruleset is plain (:mod:`solver.melding.meld.plain`: a card is one natural
identity or a wild that may be any card of the kind), no kind scores its melds nor bounds its
wilds, and each card of the hand reads plainly, the candidate walk already knows the verdict: a
kind reads a card set when some frame of it holds the set (the walk tries every frame), with the
fewest wilds any such frame needs (:attr:`Candidate.fewest
<solver.melding.meld.candidates.Candidate.fewest>`), and the checker's reading is the kind with the
fewest wilds (the first of the ruleset's kinds on a tie), the others after it under ambiguity
"any". Such melds (:func:`counted_melds`) carry their kind and wilds; the reading (which card
stands for which) is asked of the checker only for a meld that is shown.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cached_property
from operator import attrgetter
from typing import Any, NamedTuple
from weakref import WeakKeyDictionary

from solver.core.deck import Face
from solver.melding.meld.candidates import Candidate
from solver.melding.meld.checker import MeldChecker
from solver.melding.meld.encode import Reading
from solver.melding.meld.plain import NOT_PLAIN

_index = attrgetter("index")  # faces order by index
ReadingOf = Callable[[tuple[Face, ...], str], Reading]  # a legal card set's reading as a kind


class _MeldFields(NamedTuple):
    mask: int
    faces: tuple[Face, ...]
    kind: str
    wilds: int
    points: int
    known: Reading | None = None
    read: ReadingOf | None = None
    asked: tuple[Face, ...] = ()  # its cards as ``read`` is asked


class Meld(_MeldFields):
    """A legal meld: its cards (as a mask of face indices), its kind, its wilds (cards that stand in
    for others: a route's requirements ask them of every packing) and best points; its reading is
    ``known``, or asked of ``read`` once it is wanted (a meld shown). A named tuple: a hand's walk
    makes dozens, and a frozen dataclass sets each field through ``object.__setattr__``."""

    @staticmethod
    def of(mask: int, faces: tuple[Face, ...], reading: Reading, points: int) -> Meld:
        """The meld of a reading the checker gave."""
        return Meld(mask, faces, reading.kind.id, reading.wilds, points, reading)

    def on(self, mask: int) -> Meld:
        """The same meld over other bits (a hand's places of its cards)."""
        return Meld(mask, self.faces, self.kind, self.wilds, self.points, self.known, self.read, self.asked)

    @cached_property
    def reading(self) -> Reading:
        if self.known is not None:
            return self.known
        assert self.read is not None, "a meld has its reading or a way to ask it"
        return self.read(self.asked, self.kind)


_VERDICTS: WeakKeyDictionary[MeldChecker, dict] = WeakKeyDictionary()


def judged(checker: MeldChecker, faces: tuple[Face, ...], params, key_params: object) -> tuple[Meld, ...]:
    """A card set judged as the turn model judges an option (legal, reading, best points): one
    meld per kind that reads it (the first the reading shown; under ambiguity "any" the player
    says which the meld is, and a route counts it as that one); none when it is no meld.
    ``key_params``: the parameters' key (:func:`~solver.melding.meld.layouts.params_key`)."""
    memo = _VERDICTS.setdefault(checker, {})
    key = (tuple(f.index for f in faces), key_params)
    if key not in memo:
        verdict, points = checker.best_points(faces, params=params)
        mask = sum(1 << f.index for f in faces)
        faces = tuple(sorted(faces, key=_index))
        if len(memo) > 200_000:
            memo.clear()
        memo[key] = tuple(Meld.of(mask, faces, r, points) for r in verdict.every_reading) if verdict.legal else ()
    found: tuple[Meld, ...] = memo[key]
    return found


_COUNTED: WeakKeyDictionary[MeldChecker, bool] = WeakKeyDictionary()


def counted_ruleset(checker: MeldChecker) -> bool:
    """Are the ruleset's verdicts told by the candidate walk: every kind plain, none scoring its
    melds or bounding its wilds?"""
    found = _COUNTED.get(checker)
    if found is None:
        kinds = checker.ruleset.kinds
        found = _COUNTED[checker] = all(
            checker.plain_kinds[k.id] and k.score is None and k.wilds is None for k in kinds
        )
    return found


_PLAIN_FACES: WeakKeyDictionary[MeldChecker, dict] = WeakKeyDictionary()  # by parameters' key: face -> plain


def counted_hand(checker: MeldChecker, faces: Sequence[Face], params: Mapping[str, Any] | None, key: object) -> bool:
    """Does every card of the hand read plainly in every kind (:func:`counted_ruleset` asked first)?
    Each face's answer is kept per checker and parameters."""
    by_key = _PLAIN_FACES.get(checker)
    if by_key is None:
        by_key = _PLAIN_FACES[checker] = {}
    plain: dict[int, bool] | None = by_key.get(key)
    if plain is None:
        if len(by_key) >= 4096:
            by_key.clear()
        plain = by_key[key] = {}
    for face in faces:
        known = plain.get(face.index)
        if known is None:
            view, kinds = checker.plain.view, checker.ruleset.kinds
            known = plain[face.index] = all(view(kind, face, params, key) is not NOT_PLAIN for kind in kinds)
        if not known:
            return False
    return True


_KIND_ORDER: WeakKeyDictionary[MeldChecker, tuple[str, dict[str, int], dict[str, str]]] = WeakKeyDictionary()


def _kind_order(checker: MeldChecker) -> tuple[str, dict[str, int], dict[str, str]]:
    """The ruleset's ambiguity rule, each kind's place among the kinds and each kind's family."""
    found = _KIND_ORDER.get(checker)
    if found is None:
        rs = checker.ruleset
        rank = {k.id: n for n, k in enumerate(rs.kinds)}
        found = _KIND_ORDER[checker] = (rs.ambiguity_rule, rank, {k.id: k.family for k in rs.kinds})
    return found


def counted_melds(
    checker: MeldChecker,
    found: Sequence[Candidate],
    order: Sequence[Face],
    bits: Sequence[int],
    params: Mapping[str, Any] | None,
    key: object,
) -> list[Meld]:
    """The legal melds of the candidates ``found`` (over the cards ``order``, each card's bit in
    ``bits``) told from the walk, in the order :func:`judged` gives them: candidates in turn, each
    with its kind of fewest wilds first (the ruleset's first on a tie), then under ambiguity
    "any" the other kinds in the ruleset's order; a set two families read is no meld under
    ambiguity "reject"."""
    rule, rank, family = _kind_order(checker)
    read = _Reader(checker, params, key)
    out: list[Meld] = []
    for cand in found:
        fewest = cand.fewest
        if len(fewest) == 1:
            (best,) = fewest
        else:
            if rule == "reject" and len({family[k] for k in fewest}) > 1:
                continue
            best = min(fewest, key=lambda k: (fewest[k], rank[k]))
        cards = cand.cards
        asked = tuple(map(order.__getitem__, cards))  # as judged() would be asked: the reading shown
        faces = tuple(sorted(asked, key=_index))
        mask = sum(map(bits.__getitem__, cards))
        out.append(Meld(mask, faces, best, fewest[best], 0, None, read, asked))
        if rule == "any" and len(fewest) > 1:
            others = sorted((k for k in fewest if k != best), key=rank.__getitem__)
            out += [Meld(mask, faces, k, fewest[k], 0, None, read, asked) for k in others]
    return out


class _Reader:
    """The checker's reading of a legal card set as a kind, under one query's parameters. A plain
    ruleset's reading depends on the parameters only through what each card's roles read of them
    (:meth:`RoleGate.reads <solver.melding.meld.gate.RoleGate.reads>`: the gate is the one way a
    chosen card reaches a kind), so readings are kept by that, per checker: a meld shown under
    one cut joker is read again under any other its cards relate to alike (a natural sequence
    under every cut joker of a rank it does not hold)."""

    def __init__(self, checker: MeldChecker, params: Mapping[str, Any] | None, key: object):
        self.checker, self.params, self.key = checker, params, key

    def __call__(self, faces: tuple[Face, ...], kind: str) -> Reading:
        kept = _READINGS.get(self.checker)
        if kept is None:
            kept = _READINGS[self.checker] = ({}, {})
        reads, readings = kept
        if len(readings) > 65536:
            readings.clear()
            reads.clear()
        read = []
        for face in faces:
            face_key = (face.index, self.key)
            found = reads.get(face_key)
            if found is None:
                gate, params = self.checker.gate, self.params
                found = reads[face_key] = tuple(gate.reads(k, face, params) for k in self.checker.ruleset.kinds)
            read.append(found)
        key = (tuple(f.index for f in faces), kind, tuple(read))
        reading = readings.get(key)
        if reading is None:
            reading = readings[key] = self._judged(faces, kind)
        return reading

    def _judged(self, faces: tuple[Face, ...], kind: str) -> Reading:
        reading = self.checker.plain_reading(faces, kind, self.params)
        if reading is not None:  # the verdict's, without the rest of it
            return reading
        for meld in judged(self.checker, faces, self.params, self.key):
            if meld.kind == kind:
                return meld.reading
        raise AssertionError(f"the candidate walk read {faces} as {kind}, the checker does not")


# by checker: each face's reads under a query's parameters (by face index and the parameters' key), and
# each reading by its cards, kind and their reads
_READINGS: WeakKeyDictionary[MeldChecker, tuple[dict, dict]] = WeakKeyDictionary()
