"""The elements of a ruleset that every game shares: roles, meld kinds, options, assumptions,
turn rules, points, round scoring, claims and move rules.

Each is a frozen dataclass built by :mod:`solver.core.reader` from validated YAML, carrying the
:class:`~solver.core.source.Source` it cites. A game's own sections (the ones only one family of
games reads) are built by the game's package, not here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from solver.core.deck import Face
from solver.core.source import Source


@dataclass(frozen=True)
class Requirement:
    """A role may be played only if the meld holds another card of one of these classes."""

    classes: frozenset[str]
    source: Source | None


@dataclass(frozen=True)
class Role:
    """A way a card can count in a meld: as itself, or as a wild standing for other identities.

    ``suits``/``ranks`` of ``None`` mean the card's own suit/rank.
    """

    id: str
    name: str
    classes: frozenset[str]
    wild: bool
    suits: tuple[str, ...] | None
    ranks: tuple[str, ...] | None
    requires_in_meld: Requirement | None
    source: Source | None
    if_chosen: frozenset[str] | None = None  # open only to cards in one of these relations to a chosen card
    stands_for: str | None = None  # the card counts as a card of this relation to a chosen card

    @property
    def conditional(self) -> bool:
        """Whether the cards the role is open to, or what they stand for, hang on a chosen card."""
        return self.if_chosen is not None or self.stands_for is not None

    def suits_for(self, face: Face) -> tuple[str | None, ...]:
        return (face.suit,) if self.suits is None else self.suits

    def ranks_for(self, face: Face) -> tuple[str | None, ...]:
        return (face.rank,) if self.ranks is None else self.ranks

    def fixed_suit(self, face: Face) -> str | None:
        """The suit a card shows whatever it stands for (None for a suit wild)."""
        suits = self.suits_for(face)
        return suits[0] if len(suits) == 1 else None

    def fixed_rank(self, face: Face) -> str | None:
        ranks = self.ranks_for(face)
        return ranks[0] if len(ranks) == 1 else None


@dataclass(frozen=True)
class WildLimit:
    """How many cards of a meld may act as wilds: ``least`` … ``most`` in any meld, and, for a meld
    of ``n`` cards, at least ``naturals_min`` cards acting as themselves and, with
    ``versus_naturals``, no more wilds than naturals (``at-most``) or fewer (``fewer``)."""

    least: int = 0
    most: int | None = None
    naturals_min: int = 0
    versus_naturals: str | None = None  # at-most | fewer
    source: Source | None = None
    apart: bool = False  # no two wilds side by side (a sequence's neighbouring places)

    def bounds(self, n: int) -> tuple[int, int]:
        """The least and the most wilds a meld of ``n`` cards may hold."""
        most = n if self.most is None else min(self.most, n)
        most = min(most, n - self.naturals_min)
        if self.versus_naturals == "at-most":
            most = min(most, n // 2)
        elif self.versus_naturals == "fewer":
            most = min(most, (n - 1) // 2)
        if self.apart:
            most = min(most, (n + 1) // 2)
        return self.least, most

    def describe(self, n: int) -> str:
        """The limit as a message says it, for a meld of ``n`` cards."""
        least, most = self.bounds(n)
        parts = [f"{least} to {max(most, 0)} wild cards"]
        if self.naturals_min:
            parts.append(f"at least {self.naturals_min} natural cards")
        if self.versus_naturals == "at-most":
            parts.append("no more wilds than naturals")
        elif self.versus_naturals == "fewer":
            parts.append("fewer wilds than naturals")
        if self.apart:
            parts.append("no two side by side")
        return ", ".join(parts)


@dataclass(frozen=True)
class KindRole:
    """A role allowed in a meld kind, optionally only for some classes or some meld sizes."""

    role: Role
    classes: frozenset[str] | None
    sizes: frozenset[int] | None
    source: Source | None
    if_chosen: frozenset[str] | None = None  # as the role's: both hold when both are given

    def applies(self, face: Face) -> bool:
        return face.cls in self.role.classes and (self.classes is None or face.cls in self.classes)

    @property
    def conditional(self) -> bool:
        """Whether the entry is open to a card, or what the card stands for, only under a chosen card."""
        return self.if_chosen is not None or self.role.conditional

    @property
    def relations(self) -> frozenset[str] | None:
        """The relations to a chosen card a card needs for the entry (the role's and the entry's
        own, both holding when both are given); None: no such need."""
        own, role = self.if_chosen, self.role.if_chosen
        if own is None or role is None:
            return own if role is None else role
        return own & role


@dataclass(frozen=True)
class Order:
    """The rank order of a sequence: positions, possibly cyclic (a rank may stand twice)."""

    ranks: tuple[str, ...]
    cyclic: bool
    source: Source | None


@dataclass(frozen=True)
class SuitStep:
    """How the suit changes from one card of a sequence to the next.

    ``cycle`` None: the suit stays the same. Otherwise the suit steps along the named cycle;
    ``directions`` maps 'forward'/'backward' to the name of that reading.
    """

    cycle: str | None
    directions: tuple[tuple[str, str], ...]
    free: bool = False  # ``any``: each card keeps a suit of its own (a run of any colours)


@dataclass(frozen=True)
class ShortForm:
    size: int
    roles: frozenset[str]
    source: Source | None


@dataclass(frozen=True)
class Distinguish:
    fixed_suits: int
    fixed_ranks: int
    source: Source | None


@dataclass(frozen=True)
class ScoreTable:
    """Meld points by the number of counted cards (``count``: naturals or all cards); with
    ``segments``, a sequence split by wilds scores each run of naturals apart."""

    points_by_count: Mapping[int, int]
    count: str  # naturals | cards | card_points (the card points of the cards, each as it stands)
    segments: bool
    source: Source | None
    card_values: CardValues | None = None  # with count card_points: how a melded card is valued

    def points(self, count: int) -> int:
        return self.points_by_count.get(count, 0)


@dataclass(frozen=True)
class MeldKind:
    id: str
    name: str
    name_en: str | None
    family: str
    shape: str  # group | sequence | identical | flush
    size_min: int
    size_max: int
    short_form: ShortForm | None
    suits: tuple[str, ...]
    ranks: tuple[str, ...]
    order: Order | None
    suit_step: SuitStep
    roles: tuple[KindRole, ...]
    wilds: WildLimit | None
    distinct: bool
    distinct_source: Source | None
    distinguish: Distinguish | None
    phase: str | None
    source: Source | None
    score: ScoreTable | None = None
    going_out_only: bool = False  # melded only in a turn that goes out
    going_out_only_source: Source | None = None  # the rule that says so

    @property
    def label(self) -> str:
        return f"{self.name} ({self.name_en})" if self.name_en else self.name

    @property
    def run_order(self) -> Order:
        """The rank order of a sequence (the reader gives every sequence one, and no other kind)."""
        if self.order is None:
            raise ValueError(f"meld kind {self.id} is a {self.shape}: it has no rank order")
        return self.order

    def size_ok(self, n: int) -> bool:
        return self.size_min <= n <= self.size_max or bool(self.short_form and n == self.short_form.size)

    @property
    def largest(self) -> int:
        return self.size_max

    @property
    def free_suit(self) -> bool:
        """The shape leaves a wild's suit open: a run of any colours, a group whose suits may repeat."""
        return (self.shape == "sequence" and self.suit_step.free) or (self.shape == "group" and not self.distinct)

    @property
    def free_rank(self) -> bool:
        """The shape leaves a wild's rank open: a flush whose ranks may repeat."""
        return self.shape == "flush" and not self.distinct

    def shown(self, identity: tuple[str | None, str | None]) -> tuple[str | None, str | None]:
        """What a wild's identity says in this kind: the suit or rank the shape leaves open is not
        shown (a wild in a run of any colours stands for a 5, not for a red 5)."""
        suit, rank = identity
        return (None if self.free_suit else suit, None if self.free_rank else rank)


SUIT_RELATIONS = ("same", "other", "same-colour", "other-colour", "any")


@dataclass(frozen=True)
class Relation:
    """The cards related one way to a chosen card: by suit (``same``, ``other``, ``same-colour``:
    another suit of its colour, ``other-colour``, ``any``) and by rank (``offset`` places along the
    chosen card's rank cycle, wrapping; None: any rank)."""

    id: str
    name: str
    suit: str
    offset: int | None
    source: Source | None


@dataclass(frozen=True)
class ChosenCard:
    """A card chosen during the game that makes wilds or lends its identity (a cut joker, an
    indicator): a query parameter named ``id``, and the relations of other cards to it."""

    id: str
    name: str
    classes: frozenset[str]  # the classes a chosen card may be of
    required: bool  # a query must name it; else a query without it relates no card to it
    cycle: tuple[str, ...]  # the ranks offsets count along
    colours: Mapping[str, str | None]  # suit -> colour
    relations: tuple[Relation, ...]  # those the options enable, in the ruleset's order
    description: str
    source: Source | None
    counts_as: Mapping[str, str] = field(default_factory=dict)  # class -> the rank a chosen card of it has

    def relations_of(self, face: Face, chosen: Face | None) -> tuple[str, ...]:
        """The relations ``face`` has to the chosen card, in the ruleset's order."""
        if chosen is None or face.suit is None or face.rank is None:
            return ()
        return tuple(r.id for r in self.relations if self._related(r, face, chosen))

    def rank_of(self, chosen: Face) -> str | None:
        """The chosen card's rank: its own, or the one its class counts as (a cut printed joker
        that makes the aces wild)."""
        return chosen.rank if chosen.rank is not None else self.counts_as.get(chosen.cls)

    def relation_of(self, face: Face, chosen: Face | None) -> str | None:
        """The first relation ``face`` has to the chosen card, or None."""
        found = self.relations_of(face, chosen)
        return found[0] if found else None

    def _related(self, relation: Relation, face: Face, chosen: Face) -> bool:
        if relation.offset is not None:
            rank = self.rank_of(chosen)
            if face.rank not in self.cycle or rank not in self.cycle:
                return False
            i, j = self.cycle.index(face.rank), self.cycle.index(rank)
            if (j + relation.offset) % len(self.cycle) != i:
                return False
        return face.suit in self.suits(relation, chosen, (face.suit,) if face.suit else ())

    def suits(self, relation: Relation, chosen: Face, suits: tuple[str | None, ...]) -> tuple[str | None, ...]:
        """Of ``suits``, those in the relation's suit relation to the chosen card."""
        return tuple(s for s in suits if self._suit_related(relation.suit, s, chosen))

    def _suit_related(self, how: str, suit: str | None, chosen: Face) -> bool:
        colour = self.colours.get(chosen.suit or "")
        if how == "same":
            return suit == chosen.suit
        if how == "other":
            return suit != chosen.suit
        if how == "same-colour":
            return suit != chosen.suit and self.colours.get(suit or "") == colour
        if how == "other-colour":
            return self.colours.get(suit or "") != colour
        return True  # any

    def ranks(self, relation: Relation, chosen: Face, ranks: tuple[str | None, ...]) -> tuple[str | None, ...]:
        """Of ``ranks``, those in the relation's rank relation to the chosen card."""
        rank = self.rank_of(chosen)
        if relation.offset is None:
            return ranks
        if rank not in self.cycle:
            return ()
        target = self.cycle[(self.cycle.index(rank) + relation.offset) % len(self.cycle)]
        return tuple(r for r in ranks if r == target)

    def relation(self, relation_id: str) -> Relation | None:
        return next((r for r in self.relations if r.id == relation_id), None)


@dataclass(frozen=True)
class Option:
    id: str
    type: str
    default: Any
    choices: tuple[Any, ...] | None
    minimum: int | None
    maximum: int | None
    description: str
    source: Source | None


@dataclass(frozen=True)
class Assumption:
    id: str
    text: str
    reason: str
    source: Source | None
    option: str | None
    line: int | None


@dataclass(frozen=True)
class Phase:
    id: str
    name: str
    source: Source | None


@dataclass(frozen=True)
class CardPoints:
    classes: frozenset[str] | None
    suits: frozenset[str] | None
    ranks: frozenset[str] | None
    points: int | str  # an integer, or "rank" for the rank's value
    source: Source | None
    if_chosen: frozenset[str] | None = None  # only cards in one of these relations to a chosen card
    name: str | None = None  # how a hand's breakdown names the cards it prices
    run_end: str | None = None  # low | high: only a melded card at that end of a sequence (never in hand)

    def matches(self, face: Face, related: frozenset[str] = frozenset()) -> bool:
        """The entry applies to the card in hand (``related``: the card's relations to the chosen cards)."""
        return (
            self.run_end is None
            and (self.classes is None or face.cls in self.classes)
            and (self.suits is None or face.suit in self.suits)
            and (self.ranks is None or face.rank in self.ranks)
            and (self.if_chosen is None or bool(self.if_chosen & related))
        )


@dataclass(frozen=True)
class CardValues:
    """The card points of cards in a meld (``score: {count: card_points}``, ``initial_meld: {counts:
    card_points}``): the ruleset's ``card_points`` entries, matched against the card each placement
    stands for — its class is the printed card's, its suit and rank the identity it takes (a wild:
    the card it represents) — and ``run_end`` entries against where it stands in a sequence."""

    entries: tuple[CardPoints, ...]
    rank_values: Mapping[str, int]  # a rank's value, for entries of points: rank

    def value(self, cls: str, suit: str | None, rank: str | None, run_end: str | None) -> int:
        for e in self.entries:
            if (
                (e.run_end is None or e.run_end == run_end)
                and (e.classes is None or cls in e.classes)
                and (e.suits is None or suit in e.suits)
                and (e.ranks is None or rank in e.ranks)
                and e.if_chosen is None
            ):
                if e.points == "rank":
                    return self.rank_values.get(rank or "", 0)
                return int(e.points)
        return 0

    @property
    def most(self) -> int:
        """The most any card can count (an upper bound of a meld's points, card by card)."""
        fixed = [int(e.points) for e in self.entries if e.points != "rank"]
        return max([*fixed, *self.rank_values.values(), 0])


@dataclass(frozen=True)
class HandSize:
    players: frozenset[int]
    cards: int
    condition: Mapping[str, Any]
    source: Source | None
    line: int | None = None  # the entry's line in its file, for messages


TURN_FIELDS = ("discard", "claimed_in_new_meld", "claimed_not_discarded", "max_new_melds")


@dataclass(frozen=True)
class TurnEntry:
    """One entry of ``turns:``: the fields it sets, for which turn kinds (and hand sizes), under
    which options."""

    kinds: frozenset[str]
    fields: Mapping[str, Any]
    condition: Mapping[str, Any]
    source: Source | None
    in_hand: frozenset[int] | None = None  # the hand sizes it applies to (None: any)

    def applies(self, kind: str, in_hand: int | None) -> bool:
        """Does the entry speak of this turn kind, played from a hand of ``in_hand`` cards?"""
        return kind in self.kinds and (self.in_hand is None or in_hand in self.in_hand)


@dataclass(frozen=True)
class TurnRule:
    """How a turn may end: ``discard`` required, optional (made exactly when a card would
    otherwise stay in hand) or none; for a turn that claimed a discard, whether that card must
    go into a new meld and whether it may be discarded again; how many new melds it allows."""

    kind: str  # normal | claimed
    discard: str
    claimed_in_new_meld: bool = False
    claimed_not_discarded: bool = False
    max_new_melds: int | None = None
    sources: tuple[Source | None, ...] = ()


@dataclass(frozen=True)
class LayoffRule:
    requires_own_meld: bool
    condition: Mapping[str, Any]
    source: Source | None


@dataclass(frozen=True)
class Bonus:
    double: bool
    add: int
    condition: Mapping[str, Any]
    source: Source | None


ROUND_MEASURES = ("melded_points", "hand_points")  # what a term of method each-player counts of a player


@dataclass(frozen=True)
class MeldFilter:
    """Which of a player's melds a bonus counts: of ``kinds`` (None: any), ``sizes`` (None: any),
    ``wilds`` "none" (no card acts as a wild) or "some" (None: either)."""

    kinds: frozenset[str] | None
    sizes: tuple[int, int | None] | None  # (least, most or None: no most)
    wilds: str | None


@dataclass(frozen=True)
class RoundTerm:
    """One term of a player's score under method each-player: a measure of that player's round
    (:data:`ROUND_MEASURES`), added (``sign`` 1) or subtracted (-1); or ``points`` for each of
    the player's melds that ``per_meld`` counts (measure "per_meld"), or for going out ("winner")."""

    sign: int
    measure: str
    source: Source | None
    points: int = 0
    per_meld: MeldFilter | None = None
    kept_none: bool = False  # a winner's bonus only when they kept no card in hand (winner: {kept: none})


@dataclass(frozen=True)
class RoundScoring:
    """A way to settle a finished round: losers pay the winner their hand points, each player
    collects their own melds' points from every other, hand points are recorded, a knock is
    settled (the knocker's count against each other hand's, after lay-offs; gin, big gin and
    undercut bonuses), or each player scores the sum of ``terms`` (method each-player)."""

    id: str
    name: str
    method: str
    one_go: tuple[Bonus, ...]
    condition: Mapping[str, Any]
    source: Source | None
    counts_source: Source | None
    gin: tuple[Bonus, ...] = ()  # method knock: the knocker kept no card
    big_gin: tuple[Bonus, ...] = ()  # method knock: the knocker melded every card, with no discard
    undercut: tuple[Bonus, ...] = ()  # method knock: another's count no more than the knocker's
    terms: tuple[RoundTerm, ...] = ()  # method each-player: what each player's score sums


@dataclass(frozen=True)
class Claim:
    """A worked example or number of the document, as the document states it (``claims:``),
    for melds audit to check with the solver."""

    id: str
    kind: str
    data: Mapping[str, Any]
    source: Source | None
    note: str | None


@dataclass(frozen=True)
class MoveCheck:
    name: str
    source: Source | None
    params: Mapping[str, Any] = field(default_factory=dict)  # the check's own data (an order, a count)


@dataclass(frozen=True, eq=False)
class MoveRules:
    """A game's turn rules (``moves:``): its actions with their sources, and the checks on them
    that the options enable (each game's moves)."""

    actions: Mapping[str, Source | None]
    checks: tuple[MoveCheck, ...]


@dataclass(frozen=True)
class Goal:
    """One level of the solving objective: maximize meld_points or minimize hand_points."""

    sense: str  # maximize | minimize
    measure: str
    source: Source | None


@dataclass(frozen=True)
class Deal:
    hand_sizes: tuple[HandSize, ...]
    starter_discard: int
    source: Source | None
    draws: int | None = 1  # cards a turn adds to a hand at most; None: the whole discard pile may be taken


@dataclass(frozen=True)
class TableRule:
    """How the melds on the table may change in a turn (``table:``): ``free`` — every turn the
    whole table and the hand's cards may be laid out again into legal melds, no table card going
    back to a hand; ``none`` — only by the lay-offs and operations the ruleset names."""

    rearrange: str  # free | none
    source: Source | None
    stays_source: Source | None = None  # the rule that no table card goes back to a hand


@dataclass(frozen=True)
class InitialMeld:
    """What a player's first meld must reach (``initial_meld:``): new melds worth ``points`` or
    more together, counted as ``counts`` says (``rank``: each card the value of the rank it stands
    for); ``cards_from`` ``hand``: made of the hand's cards alone, the table untouched until then."""

    points: int
    cards_from: str  # hand
    counts: str  # rank | card_points
    source: Source | None
    from_source: Source | None = None
    counts_source: Source | None = None
    card_values: CardValues | None = None  # with counts card_points
    melds: int = 0  # the fewest new melds the first meld lays (initial_meld.melds; 0: any)
    melds_source: Source | None = None

    def describe(self) -> str:
        """The minimum in words: "be worth 40 points (card points)", "lay 5 melds", or both."""
        said = [f"be worth {self.points} points ({self.counts.replace('_', ' ')})"] if self.points else []
        said += [f"lay at least {self.melds} melds"] if self.melds else []
        return " and ".join(said)
