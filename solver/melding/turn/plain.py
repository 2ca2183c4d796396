"""A plain turn of a small hand, answered by looking at every way to place it: no SAT model.

The turn model (:class:`~solver.melding.turn.solver.TurnSolver`) is built per query; for a small
hand with nothing on the table that costs far more than the answer. Such a turn — no table, no
claimed card, no limit on new melds, no phase-bound kind, no melds shown, the ways not counted —
is a *packing* of the hand's legal melds (disjoint), the discard the turn rule asks, and the cards
kept; a hand of a dozen cards has few packings, and each is looked at in turn. A hand of more
(``PACKINGS``, or ``STEPS`` steps to list them: wilds and copies) has them searched instead, with a
memo on the search's states (:mod:`~solver.melding.turn.packsearch`, :attr:`_Packed.search`); only
a search past ``STATES`` states sends the hand to the turn model.

The legal melds come from the whole deck's, found once per ruleset and parameters when there are
few (:func:`deck_melds`: the candidates of the deck, each judged by the checker as the turn model
judges an option — legal, its reading, its best points), as bit masks over the faces; a hand's
melds are those its mask holds. A deck with too many (wilds) is read per hand the same way, and
is not enumerated again for other values of the same parameters (another chosen card); when every
kind is plain, such a hand's melds are told from the candidate walk, with no checker call per card
set (:mod:`~solver.melding.turn.plainmelds`). A hand
holding a face more than once (two decks) is read per hand and packed over its cards' places: a
meld takes the first copies of its faces not yet decided, and a card left leaves the copies after
it, so the alike copies make no packing again — but for two melds that start at copies of one face,
which may come in either order: that packing is listed twice, and the questions keep the first
(:func:`~solver.melding.turn.packlist.listed`).

A way out, the best turn and the why (:mod:`~solver.melding.turn.plainturn`) are the turn model's,
decided the same way (the tests compare both on thousands of hands): the objective's levels in
order, the route's requirements, the cards no meld takes, and a set of cards that cannot all be
placed (one minimal such set, found by deleting cards in order: it may differ from the SAT core,
which is one of several too).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import compress, islice
from operator import attrgetter, itemgetter
from typing import Any, NamedTuple
from weakref import WeakKeyDictionary

from solver.core.deck import Face
from solver.core.gcpause import no_collections
from solver.core.rules import Goal as ObjectiveLevel
from solver.melding.meld.candidates import candidates
from solver.melding.meld.checker import MeldChecker
from solver.melding.meld.layouts import params_key
from solver.melding.turn.packlist import Listing, listed
from solver.melding.turn.packlist import Way as _Way
from solver.melding.turn.packsearch import STATES, Found, PackSearch, Start, TooManyStates
from solver.melding.turn.plainmelds import Meld, counted_hand, counted_melds, counted_ruleset
from solver.melding.turn.plainmelds import judged as judged_melds
from solver.melding.turn.problem import Problem, validate_problem

DECK_MELDS = 5000  # the most melds of a whole deck kept as masks (more: read per hand)
HAND_CARDS = 16  # larger hands go to the turn model
PACKINGS = 60000  # a hand with more ways to place its melds is searched instead
STEPS = 200_000  # a hand of copies whose search for its packings takes more steps goes to the turn model
MEASURES = ("hand_points", "meld_points", "melds")

_index = attrgetter("index")  # faces order by index


Candidate = tuple[int, int, tuple[Face, ...]]  # (place among its lowest face's, mask, faces)


@dataclass(frozen=True)
class _DeckMelds:
    """The whole deck's candidate melds by the lowest face each holds, grouped by the next face
    in the order of their first candidate, as (place, mask, faces) (None: too many), each group
    with the faces all its candidates hold (a hand without one of them holds none of the group),
    each candidate judged once it is first in a hand (``judged``, by mask); and the card points of
    every face by index. ``nexts``: by face index, the bits of its groups' next faces (a hand
    holding none of them holds none of its melds)."""

    by_low: list[list[tuple[int, list[Candidate]]]] | None  # by face index: (faces all hold, candidates)
    points: list[int]
    judged: dict[int, tuple[Meld, ...]]
    nexts: list[int] = field(default_factory=list)


def _grouped(faces: Sequence[Face], found: Sequence) -> list[list[tuple[int, list[Candidate]]]]:
    """The candidates ``found`` (of the cards ``faces``) by their lowest face, then their next,
    each group with the bits of the faces all its candidates hold."""
    lows: list[list[Candidate]] = [[] for _ in range(max(f.index for f in faces) + 1)]
    for cand in found:
        cards = tuple(faces[i] for i in cand.cards)
        low = min(f.index for f in cards)
        lows[low].append((len(lows[low]), sum(1 << f.index for f in cards), cards))
    by_low: list[list[tuple[int, list[Candidate]]]] = []
    for low, entries in enumerate(lows):
        groups: dict[int, list[Candidate]] = {}
        for entry in entries:
            above = entry[1] & ~(1 << low)
            groups.setdefault(above & -above or 1 << low, []).append(entry)  # a meld of one card: its own
        by_low.append([(_held_by_all(group), group) for group in groups.values()])
    return by_low


def _held_by_all(group: list[Candidate]) -> int:
    common = group[0][1]
    for _, mask, _ in group:
        common &= mask
    return common


def _next_faces(groups: list[tuple[int, list[Candidate]]], low: int) -> int:
    """The bits of the next face above ``low`` of each group (its own, for a meld of one card)."""
    nexts = 0
    for common, _ in groups:
        above = common & ~(1 << low)
        nexts |= above & -above or 1 << low
    return nexts


_DECKS: WeakKeyDictionary[MeldChecker, dict] = WeakKeyDictionary()
_OVERFLOWED: WeakKeyDictionary[MeldChecker, set] = WeakKeyDictionary()  # parameter names whose deck had too many
_LAST_DECK: list = [None, None, None]  # the last checker and parameters' key asked, and their deck's melds


def deck_melds(checker: MeldChecker, params) -> _DeckMelds:
    """The whole deck's candidate melds, found once per checker and parameters."""
    key = params_key(params)
    if _LAST_DECK[0] is checker and _LAST_DECK[1] == key:  # a batch asks of one deck again and again
        last: _DeckMelds = _LAST_DECK[2]
        return last
    per_checker = _DECKS.setdefault(checker, {})
    if key not in per_checker:
        rs = checker.ruleset
        faces = list(rs.deck.faces)
        points = [0] * (max(f.index for f in faces) + 1)
        for f in faces:
            points[f.index] = rs.points(f, params)
        named = tuple(sorted(params)) if params else ()
        overflowed = _OVERFLOWED.setdefault(checker, set())
        found = None
        if named not in overflowed:  # another chosen card of the same parameters: as many melds (wilds)
            found = candidates(rs, faces, rs.kinds, params=params, gate=checker.gate, limit=DECK_MELDS)
            if found is None:
                overflowed.add(named)
        by_low = _grouped(faces, found) if found is not None else None
        nexts = [_next_faces(groups, low) for low, groups in enumerate(by_low or ())]
        per_checker[key] = _DeckMelds(by_low, points, {}, nexts)
    _LAST_DECK[:] = checker, key, per_checker[key]
    return per_checker[key]


def fits(problem: Problem, checker: MeldChecker) -> bool:
    """Can the plain turn answer this problem exactly?"""
    rs = problem.ruleset
    if problem.table or problem.shown or problem.turn != "normal" or len(problem.hand) > HAND_CARDS:
        return False
    if _PLAIN_RULESET[0] is not rs:  # a batch asks of one ruleset: its answer kept
        plain = not any(k.phase is not None for k in rs.kinds) and all(g.measure in MEASURES for g in rs.objective)
        _PLAIN_RULESET[:] = rs, plain
    if not _PLAIN_RULESET[1] or (problem.params and params_key(problem.params) is False):
        return False
    return rs.turn_rule(problem.turn, len(problem.hand)).max_new_melds is None


# the last ruleset asked, and whether it has no phase-bound kind and only the plain turn's measures
_PLAIN_RULESET: list = [None, False]


class _Cards(NamedTuple):
    """A hand's cards by face index (``order``, and ``indices``: their face indices) and the bit of
    each: its face index when every card is held once, else its place in ``order`` (copies of a
    face side by side), with the bits of each card's face (``copies``: the card's own bit when
    held once); ``mask``: every card's bit. (A named tuple, as the line's other records here:
    one is made for every hand, and a frozen dataclass sets each field through
    ``object.__setattr__``, several times the cost.)"""

    order: list[Face]
    indices: list[int]
    bits: list[int]
    copies: list[int]
    repeated: bool
    mask: int

    @staticmethod
    def of(hand: Sequence[Face]) -> _Cards:
        order = sorted(hand, key=_index)
        indices = list(map(_index, order))
        if indices and indices[-1] >= len(_BITS):  # a deck of more faces than met so far
            _BITS.extend(1 << i for i in range(len(_BITS), indices[-1] + 1))
        bits = _picked(_BITS, indices)
        mask = sum(bits)
        if mask.bit_count() == len(bits):  # a carry in the sum: some face is there twice
            return _Cards(order, indices, bits, bits, False, mask)
        bits = [1 << place for place in range(len(order))]
        of_face: dict[int, int] = {}
        for i, bit in zip(indices, bits, strict=True):
            of_face[i] = of_face.get(i, 0) | bit
        return _Cards(order, indices, bits, [of_face[i] for i in indices], True, sum(bits))

    def lowest(self, cards: int) -> int:
        """The same cards with each face's copies the first ones (copies are alike)."""
        if not self.repeated:
            return cards
        out = 0
        for group in dict.fromkeys(self.copies):
            for _ in range((cards & group).bit_count()):
                out |= group & -group
                group &= group - 1
        return out

    def among(self, cards: int, most: int | None = None) -> list[Face]:
        """The cards among ``cards`` (bits), in order (the first ``most``)."""
        if most is None:
            left_out = self.mask & ~cards
            if not left_out & (left_out - 1):  # all the cards, or all but one (a hand with no meld)
                place = self.bits.index(left_out) if left_out else len(self.order)
                return self.order[:place] + self.order[place + 1 :]
            return [f for f, bit in zip(self.order, self.bits, strict=True) if cards & bit]
        return list(islice(compress(self.order, map(cards.__and__, self.bits)), most))


_BITS = [1 << i for i in range(64)]  # each face index's bit, by index (grown for larger decks)


def _picked(values: Sequence[int], places: Sequence[int]) -> list[int]:
    """``values`` at ``places`` (each within them), in order: one C call for several places."""
    if len(places) > 1:
        return list(itemgetter(*places)(values))
    return [values[p] for p in places]


class _Packed(NamedTuple):
    """A hand's cards, its melds (of some kinds), every packing of them (``listing``, None: more
    than ``PACKINGS``, or ``STEPS`` steps to list them: then the packings are searched,
    :attr:`search`), the card points of every face by index, the turn's discard rule and the
    objective's levels (a measure and its sign: 1 made smallest, -1 largest); ``known``: what
    the questions found of them (each route of a hand asks again)."""

    cards: _Cards
    melds: list[Meld]
    listing: Listing | None
    points: list[int]
    discard: str
    levels: tuple[tuple[str, int], ...]
    known: dict[Any, Any]

    @property
    def ways(self) -> list[_Way] | None:
        """Every packing listed (None: they are searched), each made when asked."""
        listing = self.listing
        return None if listing is None else [listing.way(k) for k in range(len(listing.points))]

    @property
    def search(self) -> PackSearch:
        """The packings searched with a memo on the search's states (a hand of many packings),
        made when first asked."""
        search: PackSearch | None = self.known.get("search")
        if search is None:
            cards = self.cards
            starting = _starting(cards, self.melds, self.points)
            search = self.known["search"] = PackSearch(
                cards.order, cards.bits, cards.copies, starting, self.points, self.discard, self.levels
            )
        return search

    @property
    def plain(self) -> bool:
        """Are the packings listed, or their search within ``STATES`` (else the hand goes to
        the turn model)? The search's first best packing is kept."""
        if self.listing is not None:
            return True
        searched: bool | None = self.known.get("searched")
        if searched is None:
            try:
                found = self.search.best(limit=STATES)
            except TooManyStates:
                searched = False
            else:
                assert found is not None, "leaving every card is a packing"
                self.known[None] = self.way(found)
                searched = True
            self.known["searched"] = searched
        return searched

    def way(self, found: Found) -> _Way:
        """The packing a search found, with the discard the turn rule asks."""
        way = _Packer(self.cards, self.points, self.discard).way(found.melds, found.melded, found.weight)
        assert way is not None, "a search finds only packings the turn rule allows"
        return way


_PACKED: dict[tuple, _Packed] = {}  # the last few hands packed (a route of the same kinds asks again)
_ASKED: list = [None, {}]  # the last problem asked and its packings by (checker, discard, kinds)


def packed(problem: Problem, checker: MeldChecker, discard: str, kinds: frozenset[str] | None) -> _Packed:
    """The packings of a problem's hand with melds of ``kinds`` (None: any), each with the discard
    the turn rule (``discard``) asks: the card worth most (the hand's value and its limit both
    want it gone; nothing else depends on it). A problem's routes and questions ask again: the
    last problem's are kept by the problem itself (it is held, so it is not another one)."""
    if _ASKED[0] is not problem:
        _ASKED[:] = problem, {}
    asked: dict = _ASKED[1]
    found = asked.get((checker, discard, kinds))
    if found is None:
        found = asked[checker, discard, kinds] = _packed_hand(problem, checker, discard, kinds)
    return found


def _packed_hand(problem: Problem, checker: MeldChecker, discard: str, kinds: frozenset[str] | None) -> _Packed:
    """:func:`packed`, kept for the last few hands by their cards."""
    cards = _Cards.of(problem.hand)
    hand = tuple(cards.indices) if cards.repeated else cards.mask
    key = (id(checker), hand, params_key(problem.params), discard, kinds)
    found = _PACKED.get(key)
    if found is None:
        validate_problem(problem, checker)  # a plain problem is its hand: checked once
        deck = deck_melds(checker, problem.params)
        found_melds = (
            _copies_melds(problem, checker, cards)
            if cards.repeated
            else _hand_melds(problem, checker, deck, cards.mask)
        )
        melds = [m for m in found_melds if kinds is None or m.kind in kinds]
        starting = _starting(cards, melds, deck.points)
        steps = STEPS if cards.repeated else None  # a hand of copies: its walk may take long
        worth = _picked(deck.points, cards.indices)
        with no_collections():  # its rows and chains of melds hold no cycle: young collections only walk them
            listing = listed(cards.order, cards.bits, cards.copies, starting, worth, discard, PACKINGS, steps)
        levels = _levels(problem.ruleset.objective)
        found = _Packed(cards, melds, listing, deck.points, discard, levels, {})
        if len(_PACKED) >= 8:
            _PACKED.clear()
        _PACKED[key] = found
    return found


_LEVELS: list = [None, ()]  # the last objective asked and its levels (a batch asks of one ruleset)


def _levels(objective: tuple[ObjectiveLevel, ...]) -> tuple[tuple[str, int], ...]:
    """The objective's levels: each measure, and its sign (1 made smallest, -1 largest)."""
    if _LEVELS[0] is not objective:
        _LEVELS[:] = objective, tuple((g.measure, -1 if g.sense == "maximize" else 1) for g in objective)
    levels: tuple[tuple[str, int], ...] = _LEVELS[1]
    return levels


def _hand_melds(problem: Problem, checker: MeldChecker, deck: _DeckMelds, mask: int) -> list[Meld]:
    """The legal melds of the hand's cards (``mask``: their faces' bits): the deck's candidates it
    holds, or its own."""
    hand, params = problem.hand, problem.params
    by_low = deck.by_low
    if by_low is not None:
        judged, nexts = deck.judged, deck.nexts
        out: list[Meld] = []
        for f in hand:
            if not mask & nexts[f.index]:  # the hand holds none of its melds' next faces: none of them
                continue
            held: list[Candidate] = []
            groups = 0
            for common, group in by_low[f.index]:
                if common & mask == common:
                    groups += 1
                    held += [entry for entry in group if entry[1] & mask == entry[1]]
            if groups > 1:
                held.sort()  # by place: the deck's order of the face's candidates
            for _, meld_mask, cards in held:
                if meld_mask not in judged:
                    judged[meld_mask] = judged_melds(checker, cards, params, params_key(params))
                out += judged[meld_mask]
        return out
    rs, key = problem.ruleset, params_key(params)
    told = counted_ruleset(checker) and counted_hand(checker, hand, params, key)
    found = candidates(rs, list(hand), rs.kinds, params=params, gate=checker.gate, fewest=told) or []
    if told:
        return counted_melds(checker, found, hand, [1 << f.index for f in hand], params, key)
    return [m for c in found for m in judged_melds(checker, tuple(hand[i] for i in c.cards), params, key)]


def _copies_melds(problem: Problem, checker: MeldChecker, cards: _Cards) -> list[Meld]:
    """The legal melds of a hand holding some face more than once, each once per face multiset, as
    the bits of the first copies of its faces."""
    rs, params = problem.ruleset, problem.params
    key, bits, order = params_key(params), cards.bits, cards.order
    told = counted_ruleset(checker) and counted_hand(checker, order, params, key)
    found = candidates(rs, order, rs.kinds, params=params, gate=checker.gate, fewest=told) or []
    if told:
        return counted_melds(checker, found, order, bits, params, key)
    out: list[Meld] = []
    for cand in found:
        mask = sum([bits[i] for i in cand.cards])
        out += [m.on(mask) for m in judged_melds(checker, tuple([order[i] for i in cand.cards]), params, key)]
    return out


_NONE: list[Start] = []  # a card that starts no meld (shared: a hand has several, none of them added to)


def _starting(cards: _Cards, melds: list[Meld], points: list[int]) -> list[list[Start]]:
    """The melds that start at each card's face (by its place in the hand), each with its card
    points, the bits of its faces held once (the cards it must take) and the copies of each of
    its faces held more than once (it takes the first free copy of each)."""
    by_face: dict[int, list[Start]] = {}
    if not cards.repeated:  # each card held once: a meld takes its own cards (its mask)
        for meld in melds:
            weight = sum([points[f.index] for f in meld.faces])
            by_face.setdefault(meld.faces[0].index, []).append((meld, weight, meld.mask, ()))
        return [by_face.get(f.index, _NONE) for f in cards.order]
    of_face = {f.index: group for f, group in zip(cards.order, cards.copies, strict=True)}
    taking: dict[int, tuple[int, int, tuple[int, ...]]] = {}  # by a meld's mask: the same cards as another kind
    for meld in melds:
        found = taking.get(meld.mask)
        if found is None:
            groups = [of_face[f.index] for f in meld.faces]
            once = sum([g for g in groups if not g & (g - 1) and groups.count(g) == 1])
            repeated = tuple([g for g in groups if not g & once])
            found = taking[meld.mask] = (sum([points[f.index] for f in meld.faces]), once, repeated)
        weight, once, repeated = found
        by_face.setdefault(meld.faces[0].index, []).append((meld, weight, once, repeated))
    return [by_face.get(f.index, _NONE) for f in cards.order]


class _Packer:
    """The packings of one hand under the turn's discard rule."""

    def __init__(self, cards: _Cards, points: list[int], rule: str):
        self.cards, self.points, self.rule = cards, points, rule
        self.worth = _picked(points, cards.indices)  # each card's, in order
        self.total = sum(self.worth)
        self.dearest: list[int] | None = None  # the cards' places by worth, ties in order (made when first asked)

    def way(self, melds: tuple[Meld, ...], melded: int, weight: int) -> _Way | None:
        """The packing of ``melds`` (holding the cards ``melded``, of card points ``weight``)."""
        cards = self.cards
        left = len(cards.order) - melded.bit_count()
        discard, bit = None, 0
        if left and self.rule != "none":
            if self.dearest is None:  # the first of the dearest first (a stable sort)
                self.dearest = sorted(range(len(cards.order)), key=self.worth.__getitem__, reverse=True)
            dearest, bits, k = self.dearest, cards.bits, 0
            while melded & bits[dearest[k]]:  # the first of the dearest left
                k += 1
            place = dearest[k]
            discard, bit = cards.order[place], bits[place]
            left -= 1
            weight += self.points[discard.index]
        elif not left and self.rule == "required":
            return None
        return _Way(melds, melded, discard, left, self.total - weight, bit)
