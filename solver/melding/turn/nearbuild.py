"""A split of :mod:`solver.melding.turn.nearest` built into a target hand: each part's missing
places filled (a hand wild at its own place first, then the hand's wilds, then drawn naturals,
then drawn wilds; a part a pure count needs with naturals only), the melds of drawn cards the
route's counts need, the hand's wilds left laid into the melds, and the melds grown with drawn
cards until they hold as many cards as the way out melds. The target is the hand less the cards
set aside plus those drawn; the turn solver is asked whether it goes out (its melds are the
answer shown): a target that does not is not used."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations

from solver.core.deck import Face
from solver.core.rules import MeldKind
from solver.melding.meld.checker import MeldChecker
from solver.melding.turn.nearest import Identity, Part, Plan, Splits, takes_wilds
from solver.melding.turn.problem import Answer, Play, Problem
from solver.melding.turn.routes import GoOutRoute
from solver.melding.turn.solve import solve_turn
from solver.sat.budget import Budget

PURE_CHOICES = 6  # the ways of choosing the parts kept pure a plan is built with


@dataclass
class _Meld:
    """A meld being built: its kind, its places (identities; a sequence's in window order), the
    cards held (hand or drawn) and how many act as wilds."""

    kind: MeldKind
    places: list[Identity]
    hand: list[Face] = field(default_factory=list)
    drawn: list[Face] = field(default_factory=list)
    wilds: int = 0
    pure: bool = False

    @property
    def size(self) -> int:
        return len(self.places)

    def wild_room(self, size: int) -> bool:
        """May one more card act as a wild in the meld at this size (a kind with no wild role: never)?"""
        return self.wilds + 1 <= _wild_places(self.kind, size)


@dataclass
class Built:
    """A target: the hand's cards set aside, the cards drawn, the turn that goes out."""

    aside: list[Face]
    drawn: list[Face]
    answer: Answer
    route: str | None = None


class Builder:
    """Builds the targets of one hand's splits (the module's docstring)."""

    def __init__(self, splits: Splits, left: Counter[Face], hand: Sequence[Face]):
        self.splits, self.left, self.hand = splits, left, list(hand)
        self.seen = splits.seen
        self.melds: list[tuple[tuple[Face, ...], str]] = []  # the last build's melds: cards and kind
        self.wanted: set[Identity] | None = None

    def build(self, plan: Plan) -> tuple[list[Face], list[Face]] | None:
        """The hand's cards a plan's melds keep and the cards they draw, or None when it does not
        build with any of the first few choices of the parts kept pure (the plan as searched, then
        its parts' kinds chosen again: :meth:`_relabelled`)."""
        built = self._build_each(plan)
        if built is None and plan.pure is None:
            other = self._relabelled(plan)
            built = self._build_each(other) if other != plan else None
        return built

    def _build_each(self, plan: Plan) -> tuple[list[Face], list[Face]] | None:
        """The plan built with the first of its choices of the parts kept pure that builds."""
        if plan.pure is not None:
            choices = [[at in plan.pure for at in range(len(plan.parts))]]
        else:
            choices = [[p in pure for p in plan.parts] for pure in self._pure_choices(plan.parts)]
        for flags in choices:
            built = self._build(plan, flags)
            if built is not None:
                return built
        return None

    def _relabelled(self, plan: Plan) -> Plan:
        """The plan with each part's kind chosen again among the route's kinds that hold the same
        cards in as many places: as kinds the route's counts take, first the parts no other kind
        holds, then those drawing the fewest cards (a hand wild natural at a missing place fills
        it), as many as each count asks; the others as kinds that take the hand's wilds into their
        missing places while wilds are left (the search splits the cards; which kind of the same
        frame each part is matters only here, where the wilds are placed)."""
        parts = plan.parts
        alike = [self._alike(part) for part in parts]
        kinds: list[MeldKind | None] = [None] * len(parts)
        draws = [part.least - len(part.cards) - self._own_fills(part) for part in parts]
        for count in self.splits.counts:
            able = [
                [k for k in kinds_at if count.counts(k.id, parts[at].least, 0)] for at, kinds_at in enumerate(alike)
            ]
            wanted = count.at_least - plan.extra
            for at in sorted(range(len(parts)), key=lambda at: (len(able[at]) < len(alike[at]), draws[at])):
                if wanted > 0 and able[at] and (kinds[at] is None or kinds[at] in able[at]):
                    kinds[at], wanted = kinds[at] or able[at][0], wanted - 1
        wilds = len(self.splits.wilds)
        for at in sorted(range(len(parts)), key=lambda at: -draws[at]):
            holes = parts[at].least - len(parts[at].cards)
            taking = [k for k in alike[at] if 0 < min(holes, wilds) <= _wild_places(k, parts[at].least)]
            if kinds[at] is None and taking:
                kinds[at], wilds = taking[0], wilds - min(holes, _wild_places(taking[0], parts[at].least))
        return replace(plan, parts=tuple(replace(p, kind=k or p.kind) for p, k in zip(parts, kinds, strict=True)))

    def _own_fills(self, part: Part) -> int:
        """The most missing places of a meld of the part's kind that the hand's wilds fill as their
        own natural cards."""
        idents = [self.splits._ident(c) for c in part.cards]
        own = Counter(self.seen.natural[w.index] for w in self.splits.wilds)
        best = 0
        for places in _frames(part.kind, idents, part.least):
            missing = Counter(places) - Counter(idents)
            best = max(best, sum(min(n, own[ident]) for ident, n in missing.items()))
        return best

    def _alike(self, part: Part) -> list[MeldKind]:
        """The route's kinds whose melds hold the part's cards in as many places (its own first)."""
        cards = part.cards
        out = [part.kind]
        for kind in self.splits.kinds:
            if kind is part.kind or self.splits._least(kind, cards) != part.least:
                continue
            if all(self.splits._shares_frame(kind, a, b) for i, a in enumerate(cards) for b in cards[i + 1 :]):
                out.append(kind)
        return out

    def _build(self, plan: Plan, pure: list[bool]) -> tuple[list[Face], list[Face]] | None:
        self.pool = Counter(self.left)
        in_parts = Counter(self.splits.naturals[c] for p in plan.parts for c in p.cards)
        self.wilds = list((Counter(self.splits.wilds) - in_parts).elements())
        self.plan, self.wanted = plan, None
        melds = []
        for part, kept_pure in zip(plan.parts, pure, strict=True):
            meld = self._part(part, kept_pure) if part.cards else self._drawn_meld(part.kind, part.least)
            if meld is None:
                return None
            melds.append(meld)
        for _ in range(self._deficit(melds)):
            meld = self._drawn_meld()
            if meld is None:
                return None
            melds.append(meld)
        total = self.splits.total if plan.total is None else plan.total
        self._lay_wilds(melds, total)
        if not self._grow(melds, total):
            return None
        kept = [f for m in melds for f in m.hand]
        if len(kept) != plan.kept:
            return None
        self.melds = [(tuple(m.hand + m.drawn), m.kind.id) for m in melds]
        return kept, [f for m in melds for f in m.drawn]

    def spare(self) -> Face | None:
        """A card left to draw after a build (drawn to be let go again)."""
        return next((f for f, n in sorted(self.pool.items(), key=lambda kv: kv[0].index) if n > 0), None)

    def _pure_choices(self, parts: Sequence[Part]) -> list[set[Part]]:
        """The parts kept free of wilds, a few ways: for each pure count, as many parts that can
        count as it asks, those with the fewest missing places first."""
        choices: list[set[Part]] = [set()]
        for count in self.splits.counts:
            if count.pure:
                able = sorted(
                    (p for p in parts if p.pure and count.counts(p.kind.id, p.least, 0)),
                    key=lambda p: p.least - len(p.cards),
                )
                ways = list(combinations(able, min(count.at_least, len(able))))
                choices = [c | set(w) for c in choices for w in ways][:PURE_CHOICES]
        return choices

    def _part(self, part: Part, pure: bool) -> _Meld | None:
        naturals = [self.splits.naturals[c] for c in part.cards]
        idents = [self.splits._ident(c) for c in part.cards]
        best: _Meld | None = None
        if _free(part.kind):  # a run of any suits: its places are matched by rank
            idents = [(idents[0][0], rank) for _, rank in idents]
        for places in _frames(part.kind, idents, part.least):
            meld = _Meld(part.kind, list(places), list(naturals), pure=pure)
            missing = list((Counter(places) - Counter(idents)).elements())
            saved = (Counter(self.pool), list(self.wilds))
            if all(self._fill(meld, ident, pure) for ident in missing):
                best = meld
                break
            self.pool, self.wilds = saved
        return best

    def _fill(self, meld: _Meld, ident: Identity, pure: bool) -> bool:
        """One missing place filled: a hand wild that is this card, a hand wild (not pure), a
        drawn natural, a drawn wild (not pure)."""
        own = next((w for w in self.wilds if self._fits(meld.kind, w, ident)), None)
        if own is not None:
            self.wilds.remove(own)
            meld.hand.append(own)
            return True
        if not pure and self.wilds and meld.wild_room(meld.size):
            wanted = self._wanted()
            spare = next((w for w in reversed(self.wilds) if self.seen.natural[w.index] not in wanted), None)
            placed = spare if spare is not None else self.wilds[-1]
            self.wilds.remove(placed)
            meld.hand.append(placed)
            meld.wilds += 1
            return True
        face = self._draw_natural(ident, meld.kind)
        if face is not None:
            meld.drawn.append(face)
            return True
        if pure or not meld.wild_room(meld.size):
            return False
        wild = self._draw_wild()
        if wild is None:
            return False
        meld.drawn.append(wild)
        meld.wilds += 1
        return True

    def _wanted(self) -> set[Identity]:
        """The places of the plan's parts (a hand wild that is one of them is kept to fill it as
        its own card), once a build."""
        if self.wanted is None:
            idents = [(part, [self.splits._ident(c) for c in part.cards]) for part in self.plan.parts if part.cards]
            self.wanted = {i for part, ids in idents for places in _frames(part.kind, ids, part.least) for i in places}
        return self.wanted

    def _fits(self, kind: MeldKind, card: Face, ident: Identity) -> bool:
        """Is the card natural at this place (a run of any suits': at its rank)?"""
        natural = self.seen.natural[card.index]
        if natural is None or natural == ident:
            return natural is not None
        if kind.shape == "flush":
            return not kind.distinct and natural[0] == ident[0]
        return _free(kind) and natural[1] == ident[1]

    def _draw_natural(self, ident: Identity, kind: MeldKind | None = None) -> Face | None:
        """A card left at this place, taken from the pool: of any suit at a free run's rank, of
        any rank in a flush whose ranks may repeat."""
        idents = [ident]
        if kind is not None and _free(kind):
            idents = [(s, ident[1]) for s in kind.suits]
        elif kind is not None and kind.shape == "flush" and not kind.distinct:
            idents = [(ident[0], r) for r in kind.ranks]
        for one in dict.fromkeys([ident, *idents]):
            for face in self.seen.by_identity.get(one, ()):
                if self.pool[face] > 0:
                    self.pool[face] -= 1
                    return face
        return None

    def _draw_wild(self) -> Face | None:
        for face, n in sorted(self.pool.items(), key=lambda kv: kv[0].index):
            if n > 0 and self.seen.wild[face.index]:
                self.pool[face] -= 1
                return face
        return None

    def _deficit(self, melds: Sequence[_Meld]) -> int:
        extra = 0
        for count in self.splits.counts:
            have = sum(count.counts(m.kind.id, m.size, m.wilds) for m in melds)
            extra = max(extra, count.at_least - have)
        return extra

    def _drawn_meld(self, only: MeldKind | None = None, size: int | None = None) -> _Meld | None:
        """A meld of drawn naturals of the smallest size (or ``size``), of a kind every count takes
        if one does (or of ``only``)."""
        kinds = sorted(self.splits.kinds, key=lambda k: -sum(c.counts(k.id, k.size_min, 0) for c in self.splits.counts))
        for kind in kinds if only is None else [only]:
            for places in _all_frames(kind, kind.size_min if size is None else size):
                faces = []
                saved = Counter(self.pool)
                for ident in places:
                    face = self._draw_natural(ident, kind)
                    if face is None:
                        break
                    faces.append(face)
                else:
                    return _Meld(kind, list(places), [], faces, pure=True)
                self.pool = saved
        return None

    def _lay_wilds(self, melds: list[_Meld], total: int) -> None:
        """The hand's wilds left laid into melds that can grow, while the melds hold fewer than ``total``."""
        for meld in (m for m in melds if not m.pure):
            while self.wilds and sum(m.size for m in melds) < total and self._extend(meld, wild=True):
                meld.hand.append(self.wilds.pop())
                meld.wilds += 1

    def _extend(self, meld: _Meld, wild: bool, ident: Identity | None = None) -> bool:
        """Add a place to the meld (the given one, else the first that fits); False when it cannot grow."""
        if meld.size >= meld.kind.size_max or (wild and not meld.wild_room(meld.size + 1)):
            return False
        options = _growth(meld)
        if ident is not None:
            options = [o for o in options if o[1] == ident]
        if not options:
            return False
        at, place = options[0]
        meld.places.insert(at, place)
        return True

    def _grow(self, melds: list[_Meld], total: int) -> bool:
        """Drawn cards added until the melds hold ``total`` cards."""
        while sum(m.size for m in melds) < total:
            if not any(self._grow_one(m) for m in melds):
                if total - sum(m.size for m in melds) < min(k.size_min for k in self.splits.kinds):
                    return False
                meld = self._drawn_meld()
                if meld is None:
                    return False
                melds.append(meld)
        return sum(m.size for m in melds) == total

    def _grow_one(self, meld: _Meld) -> bool:
        if meld.size >= meld.kind.size_max:
            return False
        for _, ident in _growth(meld):
            face = self._draw_natural(ident)
            if face is not None:
                self._extend(meld, wild=False, ident=ident)
                meld.drawn.append(face)
                return True
        if not meld.pure and meld.wild_room(meld.size + 1) and _growth(meld):
            wild = self._draw_wild()
            if wild is not None:
                self._extend(meld, wild=True)
                meld.drawn.append(wild)
                meld.wilds += 1
                return True
        return False


def _wild_places(kind: MeldKind, size: int) -> int:
    """The most cards of a meld of the kind and size that may act as wilds (none without a wild role)."""
    if not takes_wilds(kind):
        return 0
    return size if kind.wilds is None else kind.wilds.bounds(size)[1]


def _free(kind: MeldKind) -> bool:
    return kind.shape == "sequence" and kind.suit_step.free


def _frames(kind: MeldKind, idents: Sequence[Identity], size: int) -> list[tuple[Identity, ...]]:
    """The places of each meld of ``size`` cards of the kind holding these identities."""
    suit, rank = idents[0]
    if kind.shape == "identical":
        return [((suit, rank),) * size]
    if kind.shape == "flush":
        others = [r for r in kind.ranks if (suit, r) not in idents] if kind.distinct else list(kind.ranks)
        return [tuple(idents) + tuple((suit, r) for r in (others * size)[: size - len(idents)])]
    if kind.shape == "group":
        others = [s for s in kind.suits if (s, rank) not in idents] if kind.distinct else list(kind.suits)
        extra = [(s, rank) for s in others]
        while len(extra) < size - len(idents):
            extra += extra or [(suit, rank)]
        return [tuple(idents) + tuple(extra[: size - len(idents)])]
    ranks = {r for _, r in idents}
    return [w for w in _windows(kind, suit, size) if ranks <= {r for _, r in w}]


def _all_frames(kind: MeldKind, size: int) -> list[tuple[Identity, ...]]:
    if kind.shape == "sequence":
        return [w for s in kind.suits for w in _windows(kind, s, size)]
    if kind.shape == "identical":
        return [((s, r),) * size for r in kind.ranks for s in kind.suits]
    if kind.shape == "flush":
        return [tuple((s, r) for r in (kind.ranks * size)[:size]) for s in kind.suits]
    if kind.distinct and size > len(kind.suits):
        return []
    return [tuple((s, r) for s in (kind.suits * size)[:size]) for r in kind.ranks]


def _windows(kind: MeldKind, suit: str, size: int) -> list[tuple[Identity, ...]]:
    order = kind.order
    assert order is not None
    seq, n = order.ranks, len(order.ranks)
    starts = range(n) if order.cyclic else range(n - size + 1)
    out = []
    for start in starts:
        ranks = [seq[(start + i) % n] for i in range(size)]
        if len(set(ranks)) == size:
            out.append(tuple((suit, r) for r in ranks))
    return out


def _growth(meld: _Meld) -> list[tuple[int, Identity]]:
    """Where a place can be added: a sequence's window one longer at either end; a group's or
    identical cards' another place."""
    kind, places = meld.kind, meld.places
    suit, rank = places[0]
    if kind.shape == "identical":
        return [(len(places), (suit, rank))]
    if kind.shape == "group":
        taken = set(places)
        free = [(s, rank) for s in kind.suits if (s, rank) not in taken] if kind.distinct else [(suit, rank)]
        return [(len(places), f) for f in free]
    ranks = [r for _, r in places]
    out = []
    for window in _windows(kind, suit, len(places) + 1):
        wr = [r for _, r in window]
        if wr[1:] == ranks:
            out.append((0, window[0]))
        elif wr[:-1] == ranks:
            out.append((len(places), window[-1]))
    return out


def confirmed(
    problem: Problem,
    checker: MeldChecker,
    budget: Budget,
    route: GoOutRoute | None,
    swaps: tuple[list[Face], list[Face]],
    way: tuple[list[tuple[tuple[Face, ...], str]], Face | None] | None = None,
    ask_solver: bool = True,
) -> Built | None:
    """The swaps' target confirmed: the built way out (``way``: its melds and discard) when the
    checker finds each meld legal of its kind and the route's counts met, else (``ask_solver``)
    the turn solver's way out; None when the target has none (or is not asked)."""
    aside, drawn = swaps
    answer = _checked(problem, checker, route, way) if way is not None else None
    if answer is None and not ask_solver:
        return None
    if answer is None:
        hand = Counter(problem.hand) - Counter(aside) + Counter(drawn)
        target = replace(problem, hand=tuple(sorted(hand.elements(), key=lambda f: f.index)))
        answer = solve_turn(target, checker, "go-out", budget=budget, routes=[route] if route is not None else ())
    return Built(aside, drawn, answer, route.id if route is not None else None) if answer.solvable else None


def _checked(
    problem: Problem,
    checker: MeldChecker,
    route: GoOutRoute | None,
    way: tuple[list[tuple[tuple[Face, ...], str]], Face | None],
) -> Answer | None:
    """The built way out as the turn's answer, each meld judged by the checker (legal, read as its
    kind or else as another kind of the route, its best points), the route's counts met; None when
    it is not a way out."""
    melds, discard = way
    plays = []
    for cards, kind in melds:
        faces = tuple(sorted(cards, key=lambda f: f.index))
        verdict, points = checker.best_points(faces, params=problem.params)
        readings = verdict.every_reading if verdict.legal else ()
        allowed = [r for r in readings if route is None or r.kind.id in route.kind_set]
        reading = next((r for r in allowed if r.kind.id == kind), allowed[0] if allowed else None)
        if reading is None:
            return None
        plays.append(Play(faces, reading, points))
    for count in route.counts if route is not None else ():
        made = sum(count.counts(p.reading.kind.id, len(p.faces), p.reading.wilds) for p in plays)
        if not count.allows(made):
            return None
    plays.sort(key=lambda p: p.faces[0].index)
    answer = Answer(solvable=True, question="go-out", plays=plays, discard=discard, kept=[])
    answer.route = route.id if route is not None else None
    return answer
