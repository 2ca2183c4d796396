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

    def suits_for(self, face: Face) -> tuple[str, ...]:
        return (face.suit,) if self.suits is None else self.suits

    def ranks_for(self, face: Face) -> tuple[str, ...]:
        return (face.rank,) if self.ranks is None else self.ranks

    def fixed_suit(self, face: Face) -> str | None:
        """The suit a card shows whatever it stands for (None for a suit wild)."""
        suits = self.suits_for(face)
        return suits[0] if len(suits) == 1 else None

    def fixed_rank(self, face: Face) -> str | None:
        ranks = self.ranks_for(face)
        return ranks[0] if len(ranks) == 1 else None


@dataclass(frozen=True)
class KindRole:
    """A role allowed in a meld kind, optionally only for some classes or some meld sizes."""

    role: Role
    classes: frozenset[str] | None
    sizes: frozenset[int] | None
    source: Source | None

    def applies(self, face: Face) -> bool:
        return face.cls in self.role.classes and (self.classes is None or face.cls in self.classes)


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
    count: str
    segments: bool
    source: Source | None

    def points(self, count: int) -> int:
        return self.points_by_count.get(count, 0)


@dataclass(frozen=True)
class MeldKind:
    id: str
    name: str
    name_en: str | None
    family: str
    shape: str  # group | sequence | identical
    size_min: int
    size_max: int
    short_form: ShortForm | None
    suits: tuple[str, ...]
    ranks: tuple[str, ...]
    order: Order | None
    suit_step: SuitStep
    roles: tuple[KindRole, ...]
    wilds: tuple[int | None, int | None, Source | None] | None
    distinct: bool
    distinct_source: Source | None
    distinguish: Distinguish | None
    phase: str | None
    source: Source | None
    score: ScoreTable | None = None

    @property
    def label(self) -> str:
        return f"{self.name} ({self.name_en})" if self.name_en else self.name

    def size_ok(self, n: int) -> bool:
        return self.size_min <= n <= self.size_max or bool(self.short_form and n == self.short_form.size)

    @property
    def largest(self) -> int:
        return self.size_max


@dataclass(frozen=True)
class Option:
    id: str
    type: str
    default: Any
    choices: tuple | None
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

    def matches(self, face: Face) -> bool:
        return (
            (self.classes is None or face.cls in self.classes)
            and (self.suits is None or face.suit in self.suits)
            and (self.ranks is None or face.rank in self.ranks)
        )


@dataclass(frozen=True)
class HandSize:
    players: frozenset[int]
    cards: int
    condition: Mapping[str, Any]
    source: Source | None


TURN_FIELDS = ("discard", "claimed_in_new_meld", "claimed_not_discarded", "max_new_melds")


@dataclass(frozen=True)
class TurnEntry:
    """One entry of ``turns:``: the fields it sets, for which turn kinds, under which options."""

    kinds: frozenset[str]
    fields: Mapping[str, Any]
    condition: Mapping[str, Any]
    source: Source | None


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
    sources: tuple = ()


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


@dataclass(frozen=True)
class RoundScoring:
    """A way to settle a finished round: losers pay the winner their hand points, each player
    collects their own melds' points from every other, or hand points are recorded."""

    id: str
    name: str
    method: str
    one_go: tuple[Bonus, ...]
    condition: Mapping[str, Any]
    source: Source | None
    counts_source: Source | None


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
    counts: str  # rank
    source: Source | None
    from_source: Source | None = None
    counts_source: Source | None = None
