"""The distance of a plain hand as a nearest-target search: the most hand cards a way out can keep.

After ``d`` swaps a hand of ``n`` cards goes out with melds of ``T`` cards (``n - 1`` when the turn
discards, ``n`` when it does not): ``k`` of the hand's cards kept, ``T - k`` drawn; so the distance
is ``T`` less the most hand cards any way out keeps. When every kind of the ruleset's routes is
*plain* (:mod:`solver.melding.meld.plain`: each card natural at one identity, or a wild for any
card of the kind) — a group, identical cards, or a sequence in one suit — and the routes ask every
card melded and counts of melds, that maximum is bounded from above without SAT: the hand's
natural cards are split into *hand parts* (cards that share one meld's frame: a rank, an identity,
a window of one suit), each part a meld whose missing places are drawn or filled by the hand's
wild cards; a part's meld is at least as long as its span; the counts the routes ask are met by
the parts that can count and by melds of drawn cards beside them. Every way out is such a split,
so the bound is an upper bound on what any way out keeps (the distance's lower bound); a split is
then built into a target hand (:mod:`solver.melding.turn.nearbuild`) that the turn solver
confirms goes out — then the bound is the distance. When no split of the best value builds, the
caller asks the swap model from the bound up (:mod:`solver.melding.turn.distance`).

Kinds that read a card apart (a card wild in a kind that takes wilds and natural in one that
takes none; a card natural only in a kind kept to some chosen cards) are searched under the
loosest reading any of them gives the card, and kinds the search cannot tell apart (the same
frame, counted alike) as one; when some kind takes no wild, the hand's wilds are kept only where
places are left for them. The bound stays a bound, and the builder chooses each part's kind again
when it places the hand's wilds.

A *contract* (a route that lays some melds and keeps the other cards, asking counts of melds,
perhaps of given sizes: :func:`is_contract`) is searched by :mod:`solver.melding.turn.nearcontract`
over the same parts; its runs may change suit and its melds may be flushes.

The faces' views under the query's chosen card are read once per checker and parameters.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from weakref import WeakKeyDictionary

from solver.core.deck import Face
from solver.core.idmemo import IdentityMemo
from solver.core.rules import MeldKind
from solver.melding.meld.checker import MeldChecker
from solver.melding.meld.layouts import params_key
from solver.melding.meld.plain import NOT_PLAIN
from solver.melding.turn.firstmeld import first_meld_due
from solver.melding.turn.problem import Problem
from solver.melding.turn.routes import GoOutRoute, MeldCount
from solver.sat.budget import Budget

SHAPES = ("group", "identical", "sequence", "flush")  # a flush: a contract's only
PLANS = 48  # the splits of the best value kept for building (ties)
CHECK_EVERY = 4096  # search steps between two looks at the budget

Identity = tuple[str, str]


@dataclass(frozen=True)
class Part:
    """A meld of a split: its kind, the hand's natural cards in it (by their place in the
    naturals' order), the fewest cards it can hold, and whether it can be pure (every missing
    place has a natural card left to draw or a hand wild natural there)."""

    kind: MeldKind
    cards: tuple[int, ...]
    least: int
    pure: bool

    @property
    def mask(self) -> int:
        return sum(1 << c for c in self.cards)


@dataclass(frozen=True)
class Plan:
    """A split of the hand's naturals into parts, what it keeps (naturals and wilds) and the
    melds of drawn cards the route's counts need beside the parts; a contract's plan
    (:mod:`solver.melding.turn.nearcontract`) also names the cards its melds hold and the parts
    kept pure (by their place)."""

    parts: tuple[Part, ...]
    kept: int
    extra: int
    total: int | None = None
    pure: frozenset[int] | None = None


@dataclass(frozen=True)
class Views:
    """Every face of the deck under the route's kinds and the query's chosen card: its natural
    identity (None: none) and whether it may act as a wild."""

    natural: dict[int, Identity | None]
    wild: dict[int, bool]
    by_identity: dict[Identity, tuple[Face, ...]]  # natural faces of each identity, non-wild first


_VIEWS: WeakKeyDictionary[MeldChecker, dict] = WeakKeyDictionary()


def views(checker: MeldChecker, params, kinds: Sequence[MeldKind]) -> Views | None:
    """The faces' views, or None when some face is no plain card or the kinds read it as two
    different cards. A card the kinds read apart otherwise — natural in some and in no meld of
    others, a wild in some only — is read as the most any of them lets it be (its natural
    identity, a wild): every way out is then a way out of the looser reading, so the search's
    bound stays a bound, and every target it builds is confirmed by the checker or the turn solver."""
    key = (params_key(params), tuple(k.id for k in kinds))
    memo = _VIEWS.setdefault(checker, {})
    if key in memo:
        found: Views | None = memo[key]
        return found
    natural: dict[int, Identity | None] = {}
    wild: dict[int, bool] = {}
    result: Views | None = None
    for face in checker.ruleset.deck.faces:
        each = [checker.plain.view(kind, face, params, key) for kind in kinds]
        if any(v is NOT_PLAIN for v in each):  # by identity: a card no role plays reads alike
            break
        naturals = {v.natural for v in each} - {None}
        if len(naturals) > 1:
            break  # a card read as two cards by the kinds: the swap model answers
        found_natural = next(iter(naturals), None)
        if found_natural is None:
            natural[face.index] = None
        elif found_natural[0] is None or found_natural[1] is None:
            break  # an identity of any suit: not a card the search places
        else:
            natural[face.index] = (found_natural[0], found_natural[1])
        wild[face.index] = any(v.wild_role is not None for v in each)
    else:
        by_identity: dict[Identity, list[Face]] = {}
        for face in checker.ruleset.deck.faces:
            ident = natural[face.index]
            if ident is not None:
                by_identity.setdefault(ident, []).append(face)
        ordered = {i: tuple(sorted(fs, key=lambda f: wild[f.index])) for i, fs in by_identity.items()}
        result = Views(natural, wild, ordered)
    memo[key] = result
    return result


def takes_wilds(kind: MeldKind) -> bool:
    """May a card act as a wild in a meld of the kind (a role of it is a wild)?"""
    return any(entry.role.wild for entry in kind.roles)


def is_contract(route: GoOutRoute | None) -> bool:
    """Does the route lay down some melds and keep the other cards, asking counts of melds only
    (:mod:`solver.melding.turn.nearcontract` answers it)?"""
    return route is not None and not route.all_cards and all(isinstance(r, MeldCount) for r in route.requires)


def route_fits(route: GoOutRoute | None, kinds: Sequence[MeldKind]) -> bool:
    """Can the search answer this route: every card melded, counts of melds (any size), or a
    contract; plain kinds of the shapes it knows (a contract's runs may change
    suit)?"""
    contract = is_contract(route)
    if route is not None and not contract:
        if not route.all_cards or any(not isinstance(r, MeldCount) for r in route.requires):
            return False
        if any(c.sizes is not None for c in route.counts):
            return False
    for kind in kinds:
        if kind.shape not in SHAPES or kind.phase is not None:
            return False
        if kind.shape == "sequence" and (kind.order is None or kind.suit_step.cycle):
            return False
        if not contract and (kind.shape == "flush" or (kind.shape == "sequence" and kind.suit_step.free)):
            return False
    return bool(kinds)


def kinds_of(problem: Problem, route: GoOutRoute | None) -> list[MeldKind]:
    kinds = problem.ruleset.kinds
    return [k for k in kinds if route is None or k.id in route.kind_set]


def fits(problem: Problem, checker: MeldChecker, routes: Sequence[GoOutRoute | None]) -> bool:
    """Can the search answer this problem's distance (no table, a plain turn, routes it knows)?"""
    if problem.table or problem.shown or problem.turn != "normal" or first_meld_due(problem) is not None:
        return False
    rule = problem.turn_rule()
    if rule.max_new_melds is not None or rule.discard not in ("required", "none", "optional"):
        return False
    if params_key(problem.params) is False:
        return False
    for route in routes:
        kinds = kinds_of(problem, route)
        if not route_fits(route, kinds) or not all(checker.plain_kinds[k.id] for k in kinds):
            return False
        if views(checker, problem.params, kinds) is None:
            return False
    return True


def totals(problem: Problem) -> list[int]:
    """How many cards a way out melds: the hand less the discard the turn rule asks."""
    n, discard = len(problem.hand), problem.turn_rule().discard
    return {"required": [n - 1], "none": [n], "optional": [n - 1, n]}[discard]


class Splits:
    """The best splits of a hand's naturals for one route and total (the module's docstring)."""

    # a wild that is also a natural (a two in its own place) is counted among the naturals
    WILD_NATURALS = False

    def __init__(
        self,
        hand: Sequence[Face],
        left: Counter[Face],
        kinds: Sequence[MeldKind],
        route: GoOutRoute | None,
        seen: Views,
        total: int,
        budget: Budget,
    ):
        """What every search of splits holds: the hand's naturals and wilds, the identities that
        can still be drawn, the route's counts; then what this search prepares of them
        (:meth:`_prepare`)."""
        self.seen, self.total, self.budget, self.kinds = seen, total, budget, list(kinds)
        self.searched_kinds = self.kinds  # the kinds parts are searched of (Splits: those it tells apart)
        self.counts: tuple[MeldCount, ...] = route.counts if route is not None else ()
        # a card neither natural nor wild in these kinds is in no meld: never kept
        wild_naturals = self.WILD_NATURALS
        naturals = (f for f in hand if seen.natural[f.index] is not None and (wild_naturals or not seen.wild[f.index]))
        self.naturals = sorted(naturals, key=lambda f: f.index)
        self.wilds = [f for f in hand if seen.wild[f.index]]
        self.drawable = {seen.natural[f.index] for f, n in left.items() if n > 0}
        self.drawable |= {seen.natural[f.index] for f in self.wilds}
        self.steps = 0
        self._prepare(route)

    def _prepare(self, route: GoOutRoute | None) -> None:
        """The kinds told apart, the parts each natural can start and their cheapest costs."""
        self.searched_kinds, self.takes = _unlike(self.kinds, self.counts)
        # some kinds take no wild: the hand's wilds are kept only where a place is left for them
        self.wild_places = bool(self.wilds) and not all(self.takes.values())
        self.own: dict[tuple[str, tuple[int, ...]], int] = {}
        self.least_new = min(k.size_min for k in self.kinds)
        self.parts_of = [sorted(self._parts_from(i), key=lambda p: -len(p.cards)) for i in range(len(self.naturals))]
        # each natural's fewest places a part holding it takes per natural: the parts that keep
        # naturals take at least the sum of theirs, so the cheapest ones bound how many more fit
        cheapest = [float(self.total + 1)] * len(self.naturals)
        for parts in self.parts_of:
            for part in parts:
                for c in part.cards:
                    cheapest[c] = min(cheapest[c], part.least / len(part.cards))
        self.by_cost = sorted((cost, c) for c, cost in enumerate(cheapest))
        self.masked = [[(part, part.mask) for part in parts] for parts in self.parts_of]

    # -- the parts each natural can start --------------------------------------------------------

    def _ident(self, i: int) -> Identity:
        ident = self.seen.natural[self.naturals[i].index]
        assert ident is not None  # a non-wild card of a plain kind has one
        return ident

    def _parts_from(self, i: int) -> list[Part]:
        """Every part whose first natural (in the naturals' order) is ``i``."""
        out: list[Part] = []
        for kind in self.searched_kinds:
            mates = [j for j in range(i + 1, len(self.naturals)) if self._shares_frame(kind, i, j)]
            self._grow(kind, (i,), mates, out)
        return out

    def _shares_frame(self, kind: MeldKind, i: int, j: int) -> bool:
        (s1, r1), (s2, r2) = self._ident(i), self._ident(j)
        if kind.shape == "group":
            return r1 == r2 and (s1 != s2 or not kind.distinct)
        if kind.shape == "identical":
            return (s1, r1) == (s2, r2)
        if kind.shape == "flush":
            return s1 == s2 and (r1 != r2 or not kind.distinct)
        return (s1 == s2 or kind.suit_step.free) and r1 != r2

    def _grow(self, kind: MeldKind, cards: tuple[int, ...], mates: list[int], out: list[Part]) -> None:
        least = self._least(kind, cards)
        if least is None:
            return
        pure = self._pure(kind, cards, least)
        if pure or takes_wilds(kind):  # else its missing places can be filled by no card
            out.append(Part(kind, cards, least, pure))
        for at, j in enumerate(mates):
            if all(self._shares_frame(kind, c, j) for c in cards[1:]):
                self._grow(kind, (*cards, j), mates[at + 1 :], out)

    largest: dict[str, int] = {}  # by kind: the most cards a meld of it may hold here (a contract's sizes)

    def _least(self, kind: MeldKind, cards: tuple[int, ...]) -> int | None:
        """The fewest cards a meld of the kind holding these naturals has (None: no such meld, or
        one larger than :attr:`largest` allows)."""
        if kind.shape != "sequence":
            least = _least_of(kind, len(cards), frozenset())
        else:
            least = _least_of(kind, len(cards), frozenset(self._ident(c)[1] for c in cards))
        return None if least is None or least > self.largest.get(kind.id, least) else least

    def _pure(self, kind: MeldKind, cards: tuple[int, ...], least: int) -> bool:
        """Can the meld hold only naturals (each missing identity drawable or a hand wild's own)?"""
        idents = [self._ident(c) for c in cards]
        suit, rank = idents[0]
        if kind.shape == "identical":
            return (suit, rank) in self.drawable or least == len(cards)
        if kind.shape == "group" and kind.distinct:
            return sum((s, rank) in self.drawable for s in kind.suits if (s, rank) not in idents) >= least - len(cards)
        return True  # a run's missing places: looked at when the target is built

    # -- the search -----------------------------------------------------------------------------

    def best(self, ties: int = 1, need: int = 0) -> tuple[int, list[Plan]]:
        """The most a split keeps, at least ``need`` (-1: no split that is a way out keeps so
        many), and up to ``ties`` splits that keep it."""
        self.ties = ties
        self.found: tuple[int, list[Plan]] = (need - 1, [])
        self._search(0, 0, (), 0, 0)
        return self.found

    def _search(self, i: int, used: int, parts: tuple[Part, ...], kept: int, room: int) -> None:
        """From the ``i``-th natural on, ``used`` the naturals decided, ``kept`` those in
        ``parts``, ``room``: the cards the parts hold at least."""
        self.steps += 1
        if not self.steps % CHECK_EVERY:
            self.budget.check()
        n = len(self.naturals)
        while i < n and used >> i & 1:
            i += 1
        naturals = kept + self._more(i, used, self.total - room)
        bound, (best, plans) = min(self.total, naturals + len(self.wilds)), self.found
        if bound < best or (bound == best and (not plans or len(plans) >= self.ties)):
            return
        if i == n:
            self._leaf(parts, kept)
            return
        for part, mask in self.masked[i]:
            if not mask & used and room + part.least <= self.total:
                self._search(i + 1, used | mask, (*parts, part), kept + len(part.cards), room + part.least)
        self._search(i + 1, used | 1 << i, parts, kept, room)

    def _more(self, i: int, used: int, room: int) -> int:
        """The most naturals from the ``i``-th on, not ``used``, that parts of ``room`` places can hold."""
        more, spent = 0, 0.0
        for cost, c in self.by_cost:
            if c >= i and not used >> c & 1:
                spent += cost
                if spent > room + 1e-9:
                    break
                more += 1
        return more

    def _leaf(self, parts: tuple[Part, ...], naturals: int) -> None:
        least = sum(p.least for p in parts)
        extra = 0
        for count in self.counts:
            have = sum(count.counts(p.kind.id, p.least, 0 if p.pure else 1) for p in parts)
            extra = max(extra, count.at_least - have)
        if least + extra * self.least_new > self.total:
            return
        for count in self.counts:  # a part counts surely when it would with a wild in it
            if count.at_most is not None and sum(count.counts(p.kind.id, p.least, 1) for p in parts) > count.at_most:
                return
        kept = naturals + min(len(self.wilds), self.total - naturals, self._wild_room(parts, least))
        best, plans = self.found
        if kept > best:
            self.found = (kept, [Plan(parts, kept, extra)])
        elif plans and kept == best and len(plans) < self.ties:
            plans.append(Plan(parts, kept, extra))

    def _wild_room(self, parts: tuple[Part, ...], least: int) -> int:
        """The most hand wilds a way out of these parts can keep (when some kind takes none): the
        places beyond the parts' least melds, a part's missing places where its kinds take wilds,
        and where they take none as many as the hand has wilds that may be the missing cards
        themselves (in the part's window of a run, its rank in a group, its card in identical ones)."""
        if not self.wild_places:
            return self.total
        room = self.total - least
        for part in parts:
            holes = part.least - len(part.cards)
            if holes and self.takes[part.kind.id]:
                room += holes
            elif holes:
                key = (part.kind.id, part.cards)
                if key not in self.own:
                    self.own[key] = sum(self._may_be(part, wild) for wild in self.wilds)
                room += min(holes, self.own[key])
        return room

    def _may_be(self, part: Part, wild: Face) -> bool:
        """May the hand wild be one of the part's missing cards as its own natural card?"""
        natural = self.seen.natural[wild.index]
        if natural is None:
            return False
        idents = [self._ident(c) for c in part.cards]
        kind = part.kind
        if kind.shape == "identical":
            return natural == idents[0]
        if kind.shape == "group":
            return natural[1] == idents[0][1] and (not kind.distinct or natural not in idents)
        if kind.shape != "sequence" or kind.suit_step.free:
            return natural[0] == idents[0][0] or kind.shape == "sequence"
        ranks = frozenset(r for _, r in idents) | {natural[1]}
        span = _span(kind, ranks) if len(ranks) > len(idents) else None
        return natural[0] == idents[0][0] and span is not None and span <= part.least


def _unlike(kinds: Sequence[MeldKind], counts: Sequence[MeldCount]) -> tuple[list[MeldKind], dict[str, bool]]:
    """The kinds less those the search cannot tell from one before them: the same shape, sizes,
    cards and order, counted by the same counts (a pure run kept to some chosen cards beside a pure run, a group
    beside the same group with a wild: what tells them apart is which cards act as wilds, and the hand's wilds
    are placed when a split is built, where each part's kind is chosen again); and whether each
    kind kept, or one it stands for, takes wilds."""
    kept: dict[tuple, MeldKind] = {}
    takes: dict[str, bool] = {}
    for kind in kinds:
        order = (kind.order.ranks, kind.order.cyclic) if kind.order is not None else None
        step = (kind.suit_step.free, kind.suit_step.cycle)
        frame = (kind.shape, kind.size_min, kind.size_max, kind.distinct, kind.suits, kind.ranks, order, step)
        first = kept.setdefault((frame, tuple(c.kinds is None or kind.id in c.kinds for c in counts)), kind)
        takes[first.id] = takes.get(first.id, False) or takes_wilds(kind)
    return list(kept.values()), takes


_LEAST: IdentityMemo[int | None] = IdentityMemo(100_000)  # by the kind (its hash walks every field) and figures


def _least_of(kind: MeldKind, n: int, ranks: frozenset[str]) -> int | None:
    """The fewest cards of a meld of the kind holding ``n`` naturals (a sequence's: of these
    ranks), remembered (None: no such meld)."""
    return _LEAST.get((kind,), (n, ranks), lambda: _fewest_cards(kind, n, ranks))


def _fewest_cards(kind: MeldKind, n: int, ranks: frozenset[str]) -> int | None:
    if kind.shape == "group":
        most = min(kind.size_max, len(kind.suits)) if kind.distinct else kind.size_max
        return max(kind.size_min, n) if n <= most else None
    if kind.shape == "identical":
        return max(kind.size_min, n) if n <= kind.size_max else None
    if kind.shape == "flush":
        most = min(kind.size_max, len(kind.ranks)) if kind.distinct else kind.size_max
        return max(kind.size_min, n) if n <= most else None
    span = _span(kind, ranks)
    least = None if span is None else max(kind.size_min, span)
    return least if least is not None and least <= kind.size_max else None


def _span(kind: MeldKind, ranks: frozenset[str]) -> int | None:
    """The shortest window of the kind's order holding every rank (None: none does)."""
    order = kind.order
    assert order is not None
    seq = order.ranks
    length = len(seq)
    best: int | None = None
    for start in range(length):
        if seq[start] not in ranks:
            continue
        found: set[str] = set()
        for step in range(min(kind.size_max, length)):
            at = start + step
            if at >= length and not order.cyclic:
                break
            rank = seq[at % length]
            if rank in found:
                break  # a rank twice (an ace low and high): no window goes on
            found.add(rank)
            if found >= ranks:
                best = step + 1 if best is None else min(best, step + 1)
                break
    return best
