"""Candidate melds: the card sets of a pool that some meld kind can read, found by frames.

Solving partitions a hand into melds, so it needs the melds that can be made of the hand's
cards. Enumerating every subset of a large hand would explode; instead each kind's *frames* are
walked — every meld rank of a group, every window (start, first suit, direction) of a sequence
— and for each frame every way of filling it with the pool's cards, using the identities each
card's roles allow (a natural for its own slot, a wild for any slot its role reaches). That is
complete: every meld of the pool fills some frame.

A candidate found this way is *structural*: it ignores the ruleset's other rules (role
conditions, ambiguity between kinds, phase). The solver verifies with :class:`MeldChecker` every
candidate it wants to use; its ``bound`` (the best meld points over its structural readings) is
an upper bound on what the legal meld scores.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from itertools import combinations
from operator import attrgetter
from typing import overload

from solver.core.deck import Face
from solver.core.idmemo import IdentityMemo
from solver.core.rules import MeldKind
from solver.core.ruleset import Ruleset
from solver.melding.meld.cycles import SuitSteps
from solver.melding.meld.gate import OPEN, RoleGate
from solver.melding.meld.points import points_for
from solver.melding.meld.wildtokens import TokenWalk, free_wilds


@dataclass(frozen=True)
class Candidate:
    key: tuple[int, ...]  # sorted face indices: the meld as a multiset of faces
    cards: tuple[int, ...]  # one choice of pool positions holding those faces
    bound: int  # best meld points over its structural readings
    kinds: frozenset = frozenset()  # the kinds that read it structurally
    # per kind that reads it structurally, the fewest of its cards a frame of that kind holds as wilds
    fewest: dict[str, int] = field(default_factory=dict, compare=False)

    def times(self, copies: Mapping[int, int]) -> int:
        """How many times ``copies`` (by face number) make this meld."""
        key = self.key
        if len(set(key)) == len(key):
            return min(map(copies.__getitem__, key))
        return min(copies[i] // k for i, k in Counter(key).items())


def identity_options(kind: MeldKind, face: Face, gate: RoleGate, params) -> dict[tuple, frozenset[int]]:
    """identity -> the meld sizes at which the card can be it as a natural (non-wild) role, for
    this kind (empty: only as a wild). A role kept to some sizes (陰陽 natural only in a set of
    six, say) is natural at those only, so that a candidate's bound is not above its points."""
    sizes = frozenset(sizes_of(kind))
    out: dict[tuple, frozenset[int]] = {}
    for i, entry in enumerate(kind.roles):
        if not entry.applies(face) or not gate.open(kind, i, face, params):
            continue
        role = entry.role
        natural = frozenset() if role.wild else sizes if entry.sizes is None else sizes & entry.sizes
        suits, ranks = gate.identities(kind, i, face, params) or (role.suits_for(face), role.ranks_for(face))
        for suit in suits:
            if suit not in kind.suits:
                continue
            for rank in ranks:
                out[(suit, rank)] = out.get((suit, rank), frozenset()) | natural
    return out


def _wilds(naturals: Sequence[frozenset[int]]) -> int:
    """The cards of a structural reading that are wild (natural at no size, or not at its size)."""
    n = len(naturals)
    return [n in sizes for sizes in naturals].count(False)


def _points(kind: MeldKind, naturals: Sequence[frozenset[int]]) -> int:
    """Meld points of a structural reading whose cards are natural at the sizes given."""
    if kind.score is None:
        return 0
    return points_for(kind, [len(naturals) in sizes for sizes in naturals])


def sizes_of(kind: MeldKind) -> set[int]:
    sizes = set(range(kind.size_min, kind.size_max + 1))
    if kind.short_form:
        sizes.add(kind.short_form.size)
    return sizes


Entry = tuple  # a card's pool position first, then what the walk reads of it


class _TooMany(Exception):
    pass


@dataclass(frozen=True)
class Scarce:
    """Pool positions a candidate may hold only a few of: at most ``most`` of ``positions`` (the
    cards a hand could draw, beside those it holds)."""

    positions: frozenset[int]
    most: int


_by_key = attrgetter("key")


class _Collector:
    """Deduplicates card sets by face multiset and keeps the best bound; knows what each pool
    position costs against the scarce positions' allowance."""

    def __init__(
        self,
        pool: Sequence[Face],
        required: frozenset[int],
        limit: int | None = None,
        check: Callable[[], None] | None = None,
        scarce: Scarce | None = None,
        fewest: bool = False,
    ):
        self.pool = pool
        self.fewest = fewest  # keep each candidate's fewest wilds per kind
        self.required = required
        self.found: dict[tuple[int, ...], Candidate] = {}
        self.faces = [face.index for face in pool]
        self.in_order = self.faces == sorted(self.faces)  # then a card set's faces sort as its cards do
        self.kind, self.kinds = "", frozenset([""])
        self.limit = limit
        self.check = check
        self.added = 0
        self.cost = [int(i in scarce.positions) for i in range(len(pool))] if scarce is not None else None
        self.room = scarce.most if scarce is not None else len(pool)
        last: dict[Face, int] = {}
        self.before: list[int | None] = []  # the previous copy of each position's face in the pool
        for i, face in enumerate(pool):
            self.before.append(last.get(face))
            last[face] = i

    def take(self, card: int, used: list[int], spent: int) -> int | None:
        """What a walk that holds ``used`` and has spent ``spent`` of the allowance has spent once
        it takes ``card``; None when it may not: taken already, a copy of its face before it in
        the pool not taken yet, or over the allowance."""
        if card in used:
            return None
        before = self.before[card]
        if before is not None and before not in used:
            return None
        if self.cost is None:
            return spent
        after = spent + self.cost[card]
        return after if after <= self.room else None

    def affordable(self, entries: list[Entry]) -> tuple[list[Entry], list[Entry]]:
        """``entries`` (cards first) as a walk reads them: (those that cost nothing of the allowance,
        all of them). Indexed by whether the allowance has room left, so that a walk that has spent
        it loops over the free cards only."""
        if self.cost is None:
            return entries, entries
        cost = self.cost
        return [e for e in entries if not cost[e[0]]], entries

    def add(self, cards: Iterable[int], bound: int, naturals: Sequence[frozenset[int]]) -> None:
        """A card set the current kind reads, its ``bound`` and the sizes each card is natural at."""
        self.counted(tuple(sorted(cards)), bound, _wilds(naturals) if self.fewest else 0)

    def counted(self, cards: tuple[int, ...], bound: int, wilds: int) -> None:
        """:meth:`add` of a card set in order, its wilds counted (kept only by a walk for the fewest)."""
        self.added += 1
        if self.check is not None and not self.added & 1023:
            self.check()  # a budget's: tens of thousands of card sets in a large hand counted (--all)
        if len(cards) == len(self.required) or (self.required and not self.required <= set(cards)):
            return
        faces = tuple(map(self.faces.__getitem__, cards))
        key = faces if self.in_order else tuple(sorted(faces))
        old = self.found.get(key)
        if old is None:
            self.found[key] = Candidate(key, cards, bound, self.kinds, {self.kind: wilds} if self.fewest else {})
            if self.limit is not None and len(self.found) > self.limit:
                raise _TooMany
            return
        fewest = old.fewest
        if self.fewest and wilds < fewest.get(self.kind, wilds + 1):
            fewest[self.kind] = wilds
        if bound > old.bound:
            self.found[key] = Candidate(key, cards, bound, old.kinds | self.kinds, fewest)
        elif self.kind not in old.kinds:
            self.found[key] = Candidate(key, old.cards, old.bound, old.kinds | self.kinds, fewest)

    def counted_all(self, found: Sequence[tuple[tuple[int, ...], int, int]]) -> None:
        """:meth:`counted` of each (card set, bound, wilds) in turn: a token walk hands on hundreds at
        once (:meth:`TokenWalk.expand <solver.melding.meld.wildtokens.TokenWalk.expand>`), looked
        at here with the collector's fields read once."""
        if self.check is not None or self.required or self.limit is not None:
            for cards, bound, wilds in found:
                self.counted(cards, bound, wilds)
            return
        self.added += len(found)
        known, face_of, in_order = self.found, self.faces.__getitem__, self.in_order
        kind, kinds, fewest_kept = self.kind, self.kinds, self.fewest
        for cards, bound, wilds in found:
            faces = tuple(map(face_of, cards))
            key = faces if in_order else tuple(sorted(faces))
            old = known.get(key)
            if old is None:
                known[key] = Candidate(key, cards, bound, kinds, {kind: wilds} if fewest_kept else {})
                continue
            fewest = old.fewest
            if fewest_kept and wilds < fewest.get(kind, wilds + 1):
                fewest[kind] = wilds
            if bound > old.bound:
                known[key] = Candidate(key, cards, bound, old.kinds | kinds, fewest)
            elif kind not in old.kinds:
                known[key] = Candidate(key, old.cards, old.bound, old.kinds | kinds, fewest)

    def candidates(self) -> list[Candidate]:
        """The card sets found, by face multiset."""
        return sorted(self.found.values(), key=_by_key)

    def reading(self, kind: str) -> None:
        """The kind whose card sets are added next."""
        self.kind, self.kinds = kind, frozenset([kind])


@overload
def candidates(
    ruleset: Ruleset,
    pool: Sequence[Face],
    kinds: Iterable[MeldKind] | None = None,
    required: Iterable[int] = (),
    steps: dict[str, SuitSteps] | None = None,
    params=None,
    gate: RoleGate = OPEN,
    limit: None = None,
    check: Callable[[], None] | None = None,
    scarce: Scarce | None = None,
    fewest: bool = False,
) -> list[Candidate]: ...


@overload
def candidates(
    ruleset: Ruleset,
    pool: Sequence[Face],
    kinds: Iterable[MeldKind] | None = None,
    required: Iterable[int] = (),
    steps: dict[str, SuitSteps] | None = None,
    params=None,
    gate: RoleGate = OPEN,
    limit: int | None = None,
    check: Callable[[], None] | None = None,
    scarce: Scarce | None = None,
    fewest: bool = False,
) -> list[Candidate] | None: ...


def candidates(
    ruleset: Ruleset,
    pool: Sequence[Face],
    kinds: Iterable[MeldKind] | None = None,
    required: Iterable[int] = (),
    steps: dict[str, SuitSteps] | None = None,
    params=None,
    gate: RoleGate = OPEN,
    limit: int | None = None,
    check: Callable[[], None] | None = None,
    scarce: Scarce | None = None,
    fewest: bool = False,
) -> list[Candidate] | None:
    """Every card set of ``pool`` (by position) that a kind can read, holding all ``required``
    positions and at least one other; one entry per face multiset. ``params`` and ``gate``: the
    roles open to each card under the query's parameters. With a ``limit``, None as soon as
    there are more (the caller models those kinds another way). ``check``: called now and then
    (a budget's, which raises when it is spent). ``scarce``: a card set holds at most so many of
    those positions (copies of one face are taken in pool order, so a set holding a face twice
    holds its first copies: the positions of a face a hand holds come first). ``fewest``: each
    candidate keeps, per kind, the fewest wilds a frame of it needs (:attr:`Candidate.fewest`).

    Copies of one face are interchangeable: a walk takes a copy only once the copies before it
    in the pool are taken (the same sets, without a walk for every order of the copies)."""
    collector = _Collector(pool, frozenset(required), limit, check, scarce, fewest)
    try:
        _collect(ruleset, pool, kinds, collector, steps if steps is not None else {}, params, gate)
    except _TooMany:
        return None
    return collector.candidates()


def merged(*found: Sequence[Candidate]) -> list[Candidate]:
    """Candidate lists of different kinds as one: a face multiset once, with every kind that
    reads it and the best bound."""
    out: dict[tuple[int, ...], Candidate] = {}
    for cand in (c for part in found for c in part):
        old = out.get(cand.key)
        if old is None:
            out[cand.key] = cand
            continue
        fewest = dict(old.fewest)
        for kind, wilds in cand.fewest.items():
            fewest[kind] = min(wilds, fewest.get(kind, wilds))
        out[cand.key] = Candidate(cand.key, old.cards, max(old.bound, cand.bound), old.kinds | cand.kinds, fewest)
    return sorted(out.values(), key=lambda c: c.key)


def _collect(
    ruleset: Ruleset,
    pool: Sequence[Face],
    kinds: Iterable[MeldKind] | None,
    collector: _Collector,
    steps: dict[str, SuitSteps],
    params,
    gate: RoleGate,
) -> None:
    known = _known_options(params)
    for kind in kinds if kinds is not None else ruleset.kinds:
        collector.reading(kind.id)
        options = _options(kind, pool, gate, params, known)
        usable = [i for i, opts in enumerate(options) if opts]
        if not collector.required <= set(usable):
            continue
        if kind.shape == "sequence":
            cycle = kind.suit_step.cycle
            if cycle and cycle not in steps:
                steps[cycle] = SuitSteps.from_cycle(ruleset.cycles[cycle])
        if not _walked_by_tokens(kind, options, usable, collector, steps):
            _walk(kind, options, usable, collector, steps)


def _walk(kind: MeldKind, options, usable, collector, steps: dict[str, SuitSteps]) -> None:
    """The walk of one kind's frames."""
    if kind.shape == "sequence":
        cycle = kind.suit_step.cycle
        _sequences(kind, options, usable, collector, steps.get(cycle) if cycle else None)
    elif kind.shape == "group" and kind.distinct:
        _groups(kind, options, usable, collector)
    elif kind.shape == "flush" and kind.distinct:
        _flushes(kind, options, usable, collector)
    else:
        _subsets_by_identity(kind, options, usable, collector)


def _walked_by_tokens(kind: MeldKind, options, usable, collector: _Collector, steps: dict[str, SuitSteps]) -> bool:
    """Is the kind walked with its free wilds as tokens (:mod:`~solver.melding.meld.wildtokens`)?
    Only a hand's walk for its fewest wilds (no allowance of scarce cards, no limit) of a sequence
    or a group of distinct suits (of a few suits), and only where every wild is free."""
    if not collector.fewest or collector.cost is not None or collector.limit is not None:
        return False
    if kind.shape != "sequence" and not (kind.shape == "group" and kind.distinct and len(kind.suits) <= 8):
        return False
    wilds = free_wilds(options, usable)
    if wilds is None:
        return False
    free, every = wilds
    walk = TokenWalk(options, usable, free, every, collector.before, collector.faces)
    sizes = sizes_of(kind)
    points = partial(_points, kind) if kind.score is not None else None
    if kind.shape == "sequence":
        cycle = kind.suit_step.cycle
        walk.sequences(_windows(kind, steps.get(cycle) if cycle else None), sizes, kind.suit_step.free, points)
    else:
        walk.groups(kind.suits, kind.ranks, sizes, points)
    walk.expand(collector)
    return True


Options = dict[tuple, frozenset[int]]  # a card's identities in a kind -> the sizes it is natural at
# by kind, gate and parameters: each face's options by its index (see _options)
_OPTIONS: IdentityMemo[dict[int, Options]] = IdentityMemo(500)


def _known_options(params) -> tuple | None:
    """The parameters as a key of the cards' options kept across walks (None: not kept)."""
    try:
        key = tuple(sorted(params.items())) if params else ()
        hash(key)
    except TypeError:
        return None
    return key


def _options(kind: MeldKind, pool: Sequence[Face], gate: RoleGate, params, known: tuple | None) -> list[Options]:
    """Each card's :func:`identity_options` in ``kind``, kept across walks by kind, gate, face and
    parameters (``known``: None keeps nothing): a batch of hands asks of the same few, and each
    kind, gate and parameters' table of faces is looked up once a walk. A face new to the table
    takes the options it has under any parameters its roles read alike."""
    of_face: dict[int, Options] = {} if known is None else _OPTIONS.get((kind, gate), known, dict)
    out = []
    for face in pool:
        found = of_face.get(face.index)
        if found is None:
            found = of_face[face.index] = _READ.get(
                (kind, gate),
                (face.index, gate.reads(kind, face, params)),
                partial(identity_options, kind, face, gate, params),
            )
        out.append(found)
    return out


# by kind, gate, face and what its roles read of the parameters (RoleGate.reads): a face's options under
# a new chosen card are most often those under another that it relates to alike
_READ: IdentityMemo[Options] = IdentityMemo(20_000)


def _groups(kind: MeldKind, options, usable, out: _Collector) -> None:
    """One rank; one card per suit, chosen suit by suit. A group's points depend only on which
    sizes its cards are natural at, not on their order, so a state (next suit, cards used, those
    sizes as a multiset) is walked once: wilds that can be any of many suits would otherwise reach
    the same cards by every assignment of suits (a 4-card check of a 40-suit deck of wilds:
    millions of paths for a few hundred states)."""
    sizes = sizes_of(kind)
    largest = max(sizes)
    suits = kind.suits
    for rank in kind.ranks:
        able = {s: [(i, options[i][(s, rank)]) for i in usable if (s, rank) in options[i]] for s in suits}
        if sum(1 for s in suits if able[s]) < min(sizes):
            continue
        _walk_group(kind, [able[s] for s in suits], sizes, largest, out)


def _flushes(kind: MeldKind, options, usable, out: _Collector) -> None:
    """One suit; one card per rank, chosen rank by rank (as a group's suits)."""
    sizes = sizes_of(kind)
    for suit in kind.suits:
        able = {r: [(i, options[i][(suit, r)]) for i in usable if (suit, r) in options[i]] for r in kind.ranks}
        if sum(1 for r in kind.ranks if able[r]) >= min(sizes):
            _walk_group(kind, [able[r] for r in kind.ranks], sizes, max(sizes), out)


def _walk_group(kind: MeldKind, able: list[list[tuple[int, frozenset[int]]]], sizes, largest: int, out) -> None:
    """Every group of one rank (flush of one suit): ``able[j]``, the cards (with the sizes they are
    natural at) that can be its ``j``-th suit (rank)."""
    seen: set = set()
    ids: dict[frozenset[int], int] = {}  # each natural-at sizes as a number: a state's multiset of them, sorted
    numbered = [
        out.affordable([(card, natural, ids.setdefault(natural, len(ids))) for card, natural in cards])
        for cards in able
    ]
    room = out.room

    def walk(
        j: int, used: list[int], naturals: list[frozenset[int]], marks: tuple[int, ...], spent: int, joined: bool
    ) -> None:
        state = (j, frozenset(used), marks)
        if state in seen:
            return
        seen.add(state)
        if joined and len(used) in sizes:  # a state a suit was left out to reach was added where its last card joined
            out.add(used, _points(kind, naturals), naturals)
        if j == len(able) or len(used) == largest:
            return
        walk(j + 1, used, naturals, marks, spent, False)  # leave this suit out
        for card, natural, mark in numbered[j][spent < room]:
            after = out.take(card, used, spent)
            if after is not None:
                walk(j + 1, used + [card], naturals + [natural], tuple(sorted((*marks, mark))), after, True)

    walk(0, [], [], (), 0, False)


def _subsets_by_identity(kind: MeldKind, options, usable, out: _Collector) -> None:
    """Groups that allow repeated suits, flushes that allow repeated ranks, and melds of
    identical cards: choose cards per frame (a rank, a suit, or both)."""
    sizes = sizes_of(kind)
    flush = kind.shape == "flush"
    by_suit = kind.shape in ("identical", "flush")
    framed: dict[tuple, dict[int, frozenset[int]]] = {}  # (rank, suit) of a frame -> its cards, natural at
    for i in usable:
        for (s, r), natural in options[i].items():
            cards = framed.setdefault((None if flush else r, s if by_suit else None), {})
            cards[i] = cards.get(i, frozenset()) | natural
    for rank in [None] if flush else kind.ranks:
        for suit in kind.suits if by_suit else [None]:
            seen = framed.get((rank, suit), {})
            for n in sizes:
                for combo in combinations(sorted(seen), n):
                    if _affordable(combo, out):
                        naturals = [seen[i] for i in combo]
                        out.add(combo, _points(kind, naturals), naturals)


def _affordable(combo: Sequence[int], out: _Collector) -> bool:
    """A card set within the scarce positions' allowance, its copies taken in pool order."""
    taken: list[int] = []
    spent = 0
    for card in combo:
        after = out.take(card, taken, spent)
        if after is None:
            return False
        spent = after
        taken.append(card)
    return True


def _sequences(kind: MeldKind, options, usable, out: _Collector, steps: SuitSteps | None) -> None:
    """Every window of the order, filled card by card."""
    sizes = sizes_of(kind)
    free = kind.suit_step.free  # a run of any colours: a place is a rank, any suit fills it
    by_identity: dict[tuple, list[tuple[int, frozenset[int]]]] = {}
    for i in usable:
        for (suit, rank), natural in options[i].items():
            by_identity.setdefault((None if free else suit, rank), []).append((i, natural))
    if free:
        by_identity = {key: _merged(cards) for key, cards in by_identity.items()}
    places = {identity: out.affordable(cards) for identity, cards in by_identity.items()}  # once, not a window's
    wilds = {identity: frozenset(c for c, natural in cards if not natural) for identity, cards in by_identity.items()}
    for window in _windows(kind, steps):
        _fill_window(kind, window, sizes, places, wilds, out)


_WINDOWS: IdentityMemo[list[list[tuple]]] = IdentityMemo(64)  # a sequence kind's windows, its suits not cycling


def _windows(kind: MeldKind, steps: SuitSteps | None) -> list[list[tuple]]:
    """Every window of a sequence kind's order (start, first suit, direction), as the identities
    of its places from its start; kept for a kind whose suits do not cycle (they depend on no hand)."""
    if steps is None:
        return _WINDOWS.of(kind, _all_windows)
    return _all_windows(kind, steps)


def _all_windows(kind: MeldKind, steps: SuitSteps | None = None) -> list[list[tuple]]:
    order = kind.run_order.ranks
    length = len(order)
    largest = min(max(sizes_of(kind)), length)
    directions = [d for d, _ in kind.suit_step.directions]
    windows = []
    for start in range(length):
        for first in [None] if kind.suit_step.free else kind.suits:
            for direction in directions:
                reach = largest if kind.run_order.cyclic else min(largest, length - start)
                windows.append(
                    [
                        (steps.step(first, direction, k) if steps and first else first, order[(start + k) % length])
                        for k in range(reach)
                    ]
                )
    return windows


def _merged(cards: list[tuple[int, frozenset[int]]]) -> list[tuple[int, frozenset[int]]]:
    """One entry a card, natural at every size any of its suits there is."""
    out: dict[int, frozenset[int]] = {}
    for card, natural in cards:
        out[card] = out.get(card, frozenset()) | natural
    return list(out.items())


def _fill_window(
    kind: MeldKind,
    window: list[tuple],
    sizes,
    places_of: dict[tuple, tuple[list[Entry], list[Entry]]],
    wilds_of: dict[tuple, frozenset[int]],
    out: _Collector,
) -> None:
    """Every meld along ``window`` (the identities of its places from its start), card by card:
    ``places_of``, the cards (with the sizes they are natural at) each identity takes, as
    :meth:`_Collector.affordable` splits them; ``wilds_of``, those that stand in there as wilds.
    Two cards standing in as wilds (natural at no size there) that could trade places make the same
    card set with the same points either way: only the way with the lower card first is walked.
    A meld fills the window's places from its start: a place no card can fill ends the walk."""
    reach = next((k for k, identity in enumerate(window) if identity not in places_of), len(window))
    if reach < min(sizes):
        return
    window = window[:reach]
    wild_here = [wilds_of[identity] for identity in window]
    places = [places_of[identity] for identity in window]
    room = out.room

    def walk(k: int, used: list[int], naturals: list[frozenset[int]], wilds: list[tuple[int, int]], spent: int) -> None:
        if k in sizes:
            out.add(used, _points(kind, naturals), naturals)
        if k == len(window):
            return
        for card, natural in places[k][spent < room]:
            after = out.take(card, used, spent)
            if after is None:
                continue
            if natural:
                walk(k + 1, used + [card], naturals + [natural], wilds, after)
            elif not any(other > card and card in wild_here[j] and other in wild_here[k] for j, other in wilds):
                walk(k + 1, used + [card], naturals + [natural], wilds + [(k, card)], after)

    walk(0, [], [], [], 0)
