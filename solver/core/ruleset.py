"""Rulesets: what a game is, as data read from YAML.

A ruleset file is validated against ``rulesets/ruleset.schema.json`` and then built into the
frozen dataclasses below, with the semantic checks a schema cannot make (unknown suit, a role
that says ``own`` for a card with no suit, two cards spelt the same way, ...). Every error names
the file, line and key. Options (the variants in a document's notes) are resolved at build time:
``load_ruleset("basic-rummy", {"decks": 2})`` gives the two-deck game.

>>> rs = load_ruleset("basic-rummy")
>>> rs.name_en, [k.id for k in rs.kinds]
('Basic Rummy', ['sequence', 'group'])
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from solver.core.errors import BadOption, Location, SchemaError, UnknownRuleset
from solver.core.schema import validate
from solver.core.yamlload import line_of, load_file, merged

BUNDLED_DIR = Path(__file__).resolve().parent.parent.parent / "rulesets"
# The rule documents the bundled rulesets quote, as received (copies of shared/seeds).
DOCUMENTS_DIR = BUNDLED_DIR / "documents"


def document_text(name: str, ruleset_path: str | Path | None = None) -> str:
    """The text of a rule document: beside the ruleset file, else among the bundled documents."""
    candidates = []
    if ruleset_path is not None:
        here = Path(ruleset_path).resolve().parent
        candidates += [here / name, here / "documents" / name]
    candidates.append(DOCUMENTS_DIR / name)
    for path in candidates:
        if path.is_file():
            return path.read_text(encoding="utf-8")
    raise FileNotFoundError(name)


# --------------------------------------------------------------------------------------------
# The data model


@dataclass(frozen=True)
class Source:
    """Where a rule comes from: a document and a short quote, or an assumption of ours."""

    doc: str
    quote: str | None = None
    note: str | None = None
    assumption: str | None = None
    line: int | None = None  # line of the element in the ruleset file

    def to_json(self) -> dict:
        out: dict[str, Any] = {"doc": self.doc}
        if self.quote:
            out["quote"] = self.quote
        if self.assumption:
            out["assumption"] = self.assumption
        if self.line is not None:
            out["ruleset_line"] = self.line
        return out


@dataclass(frozen=True)
class Suit:
    id: str
    names: tuple[str, ...] = ()
    color: str | None = None


@dataclass(frozen=True)
class Rank:
    id: str
    names: tuple[str, ...] = ()
    value: int | None = None


@dataclass(frozen=True)
class CardClass:
    id: str
    name_en: str | None
    suits: tuple[str, ...]
    ranks: tuple[str, ...]
    spell: tuple[str, ...]
    copies: int
    source: Source | None


@dataclass(frozen=True, order=True)
class Face:
    """What is printed on a card: its class, suit and rank. Several copies may share a face."""

    index: int
    cls: str = field(compare=False)
    suit: str | None = field(compare=False)
    rank: str | None = field(compare=False)

    def __hash__(self) -> int:  # faces are hashed in the hot loops: the index is the identity
        return self.index


Identity = tuple  # (suit id, rank id): what a card counts as inside a meld


@dataclass(frozen=True, eq=False)  # compared by identity: built once per ruleset and options
class Deck:
    suits: tuple[Suit, ...]
    ranks: tuple[Rank, ...]
    classes: tuple[CardClass, ...]
    faces: tuple[Face, ...]
    copies: Mapping[Face, int]
    identity_spell: str

    def suit(self, suit_id: str) -> Suit:
        return next(s for s in self.suits if s.id == suit_id)

    def rank(self, rank_id: str) -> Rank:
        return next(r for r in self.ranks if r.id == rank_id)

    def card_class(self, class_id: str) -> CardClass:
        return next(c for c in self.classes if c.id == class_id)

    @property
    def size(self) -> int:
        return sum(self.copies.values())


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
    if_maal: frozenset[str] | None = None  # open only to cards of these maal kinds

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
    if_maal: frozenset[str] | None = None

    def applies(self, face: Face) -> bool:
        return face.cls in self.role.classes and (self.classes is None or face.cls in self.classes)

    @property
    def maal_kinds(self) -> frozenset[str] | None:
        """The maal kinds a card needs for this entry (None: no condition)."""
        if self.role.if_maal is None:
            return self.if_maal
        if self.if_maal is None:
            return self.role.if_maal
        return self.role.if_maal & self.if_maal


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
        return self.size_min <= n <= self.size_max or bool(
            self.short_form and n == self.short_form.size)

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
        return ((self.classes is None or face.cls in self.classes)
                and (self.suits is None or face.suit in self.suits)
                and (self.ranks is None or face.rank in self.ranks))


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
class MaalKind:
    id: str
    name: str
    suit: str  # same | other | same-colour
    offset: int
    condition: Mapping[str, Any]
    source: Source | None


@dataclass(frozen=True)
class Maal:
    """Cards made wild by a chosen card (Marriage's tiplu): each kind relates a card to it by
    suit (same, other, same colour) and rank (an offset along a rank cycle)."""

    parameter: str
    cycle: tuple[str, ...]
    colours: Mapping[str, str]
    kinds: tuple[MaalKind, ...]
    source: Source | None


@dataclass(frozen=True)
class GoOutRoute:
    """A way to go out: melds of these kinds; all cards but the discard melded, or a number of
    melds (the rest may stay in hand); a first requirement (count of some kinds) to meet."""

    id: str
    name: str
    kinds: tuple[str, ...]
    all_cards: bool
    melds: int | None
    first_kinds: frozenset[str] | None
    first_count: int
    source: Source | None
    first_source: Source | None


@dataclass(frozen=True)
class SeeRequirement:
    kinds: frozenset[str]
    count: int
    source: Source | None


@dataclass(frozen=True)
class Settlement:
    seen: int
    unseen: int
    dublee_bonus: int
    card_points: Mapping[str, tuple[int, ...]]  # maal kind -> points for holding 1, 2, 3
    marriage: int
    dealt_tunnela: Mapping[str, int]  # maal kind of the tunnela's card (plain) -> points
    sources: Mapping[str, Source | None]


@dataclass(frozen=True)
class Operation:
    """A single-card table operation the game allows (付け札, 差し札, …): its mechanism
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

    def label(self) -> str:
        return f"{self.name} ({self.id})"


@dataclass(frozen=True)
class PhaseChange:
    """Discarding a card of these classes sets the phase by its rank's parity."""

    classes: frozenset[str]
    odd: str
    even: str
    start_option: str | None
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
class DeclaredKind:
    """A meld a player may declare (mahjong: chi, pon, open kan, closed kan)."""

    id: str
    name: str
    kind: str
    open: bool
    source: Source | None
    allowed: bool = True  # false: the document forbids it (三人麻雀: チーは不可)


@dataclass(frozen=True)
class ShapePart:
    kinds: tuple[str, ...]
    count: int
    declared: bool  # declared melds count toward this part


@dataclass(frozen=True)
class HandShape:
    """A winning shape: parts of given kinds and counts; 'closed' allows no declared meld;
    'distinct' allows no two parts of one identity (seven distinct pairs)."""

    id: str
    name: str
    parts: tuple[ShapePart, ...]
    closed: bool
    distinct: bool
    source: Source | None


@dataclass(frozen=True)
class RiichiKan:
    rule: str  # waits-unchanged | decompositions-unchanged
    general_rule: str
    no_okuri_kan: bool
    examples: tuple[Source, ...]
    source: Source | None


@dataclass(frozen=True)
class Yaku:
    """One yaku of a mahjong ruleset: a hand-pattern primitive with its parameters
    (``pattern``, interpreted by :mod:`solver.games.mahjong.scoring`) and its value."""

    id: str
    name: str
    han: int  # closed; 0 for yakuman and fixed hands
    open_han: int | None  # None: closed only (門前役); yakuman: 1 when open is allowed
    open_if: Mapping[str, Any]  # option values under which the open han applies
    yakuman: int  # 0 for ordinary yaku
    fixed: str | None  # a fixed limit hand (人和: 倍満), not combined with other yaku
    aotenjou_han: int | None
    pattern: Mapping[str, Any]
    excludes: tuple[str, ...]
    source: Source | None


@dataclass(frozen=True, eq=False)
class MahjongScoring:
    """The scoring section of a mahjong ruleset: yaku, fu, points, sticks, 青天井."""

    yaku: tuple[Yaku, ...]
    winds: tuple[str, ...]
    dragons: tuple[str, ...]
    green: tuple[str, ...]
    honour_cycles: tuple[tuple[str, ...], ...]
    red_fives: int
    fu: Mapping[str, Any]
    points: Mapping[str, Any]
    honba: int
    riichi_stick: int
    noten_penalty: int
    nagashi: Mapping[str, int]
    shibari: tuple[int, int] | None  # (from honba, han) when the option enables it
    three_player_split: bool
    yakuman_combine: bool
    aotenjou: Mapping[str, Any] | None  # when the option enables it
    sources: Mapping[str, Source | None]


@dataclass(frozen=True)
class WordTiles:
    """One group of tile kinds of a word game (one character a tile)."""

    tiles: str
    mark: bool  # the ゛/゜ tiles: a voiced kana is its base tile plus a mark tile
    source: Source | None


@dataclass(frozen=True, eq=False)
class WordGame:
    """A word game's rules (``words:``): the tiles the options enable, which tiles may stand for
    small kana, word lengths, the turn, scoring and the default dictionary."""

    tiles: tuple[WordTiles, ...]
    copies: int  # of each tile kind; 0: not limited
    small_kana: Mapping[str, str]  # small kana -> the tile that stands for it
    small_sources: tuple[Source | None, ...]
    hand_sizes: tuple[tuple[int, int, int, Source | None], ...]  # (min players, max players, tiles)
    min_length: Mapping[str, int]  # word, table, last_lap, bonus
    words_from_hand: int
    relief: Mapping[str, int]  # discard, draw, per_turn
    no_word_draw: int
    left_in_hand: int
    bonus_tile: int
    dictionary_file: Path
    dictionary_name: str
    dictionary_licence: str | None
    sources: Mapping[str, Source | None]  # rule name -> its source

    @property
    def tile_kinds(self) -> str:
        return "".join(t.tiles for t in self.tiles)

    @property
    def marks(self) -> str:
        return "".join(t.tiles for t in self.tiles if t.mark)


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
    params: Mapping[str, Any] = field(default_factory=dict)  # the check's own data (call-priority: order)


@dataclass(frozen=True, eq=False)
class MoveRules:
    """A game's turn rules (``moves:``): its actions with their sources, and the checks on them
    that the options enable (solver/moves.py)."""

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


@dataclass(frozen=True, eq=False)  # compared by identity, like Deck
class Ruleset:
    id: str
    name: str
    name_en: str | None
    document: str
    document_title: str | None
    path: str
    players: tuple[int, int] | None
    options: Mapping[str, Option]
    option_values: Mapping[str, Any]
    assumptions: tuple[Assumption, ...]
    deck: Deck
    cycles: Mapping[str, tuple[str, ...]]
    phases: tuple[Phase, ...]
    roles: Mapping[str, Role]
    all_kinds: tuple[MeldKind, ...]
    kinds: tuple[MeldKind, ...]  # the kinds enabled by the option values
    ambiguity_source: Source | None
    deal: Deal | None
    card_points: tuple[CardPoints, ...]
    turn_entries: tuple[TurnEntry, ...] = ()
    layoff_rules: tuple[LayoffRule, ...] = ()
    objective: tuple[Goal, ...] = ()
    scoring_sources: Mapping[str, Source | None] = field(default_factory=dict)
    operations: tuple[Operation, ...] = ()
    phase_change: PhaseChange | None = None
    phase_touch_source: Source | None = None
    restriction_sources: Mapping[str, Source | None] = field(default_factory=dict)
    round_scorings: tuple[RoundScoring, ...] = ()
    ambiguity_rule: str = "reject"
    parameters: Mapping[str, Source | None] = field(default_factory=dict)
    maal: Maal | None = None
    going_out: tuple[GoOutRoute, ...] = ()
    seeing: tuple["SeeRequirement", ...] = ()
    settlement: Settlement | None = None
    declared_melds: tuple[DeclaredKind, ...] = ()
    hand_shapes: tuple[HandShape, ...] = ()
    tenpai_source: Source | None = None
    riichi_kan: RiichiKan | None = None
    guest_winds: tuple[str, ...] = ()
    mahjong_scoring: MahjongScoring | None = None
    words: WordGame | None = None
    moves: MoveRules | None = None
    claims: tuple[Claim, ...] = ()

    def maal_kind(self, face: Face, chosen: Face | None) -> str | None:
        """Which maal a card is for the chosen card (tiplu), or None.

        >>> rs = load_ruleset("marriage")
        >>> from solver.core.notation import Notation
        >>> n = Notation.for_deck(rs.deck)
        >>> [rs.maal_kind(n.parse(c), n.parse("SK")) for c in ("SK", "SA", "SQ", "HK", "S2")]
        ['tiplu', 'poplu', 'jhiplu', 'joker', None]
        >>> rs.maal_kind(n.parse("HK"), n.parse("HA")), rs.maal_kind(n.parse("H2"), n.parse("HA"))
        ('jhiplu', 'poplu')
        """
        m = self.maal
        if m is None or chosen is None or face.rank not in m.cycle or chosen.rank not in m.cycle:
            return None
        i, j = m.cycle.index(face.rank), m.cycle.index(chosen.rank)
        for kind in m.kinds:
            if not self._holds(kind.condition):
                continue
            if (j + kind.offset) % len(m.cycle) != i:
                continue
            same = face.suit == chosen.suit
            if kind.suit == "same" and same:
                return kind.id
            if kind.suit == "other" and not same:
                return kind.id
            if kind.suit == "same-colour" and not same and m.colours.get(face.suit) == m.colours.get(chosen.suit):
                return kind.id
        return None

    def available(self, entry: "KindRole", face: Face, params: Mapping[str, Any] | None) -> bool:
        """Is this role entry open to the card under the query's parameters (the tiplu)?"""
        need = entry.maal_kinds
        if need is None:
            return True
        chosen = (params or {}).get(self.maal.parameter) if self.maal else None
        return self.maal_kind(face, chosen) in need

    def scoring_systems(self) -> list[RoundScoring]:
        """The round-scoring systems in force under the options."""
        return [r for r in self.round_scorings if self._holds(r.condition)]

    def one_go_bonus(self, system: RoundScoring) -> Bonus | None:
        return next((b for b in system.one_go if self._holds(b.condition)), None)

    def operation(self, effect: str) -> Operation | None:
        return next((op for op in self.operations if op.effect == effect), None)

    @property
    def start_phase(self) -> str | None:
        """The phase before any phase-changing discard (None: no phase yet)."""
        pc = self.phase_change
        if pc is None or pc.start_option is None:
            return None
        value = self.option_values[pc.start_option]
        return None if value == "none" else value

    def phase_after_discard(self, face: Face, phase: str | None) -> str | None:
        """The field phase after discarding ``face``."""
        pc = self.phase_change
        if pc is None or face.cls not in pc.classes:
            return phase
        value = self.deck.rank(face.rank).value
        return pc.odd if int(value if value is not None else face.rank) % 2 else pc.even

    @property
    def label(self) -> str:
        return f"{self.name} ({self.name_en})" if self.name_en else self.name

    def kind(self, kind_id: str) -> MeldKind:
        for kind in self.all_kinds:
            if kind.id == kind_id:
                return kind
        raise KeyError(kind_id)

    def hand_size(self, players: int) -> int:
        """Cards dealt to each player for a player count, under the current options.

        >>> rs = load_ruleset("basic-rummy")
        >>> [rs.hand_size(n) for n in (2, 3, 5)]
        [10, 7, 4]
        """
        if self.deal is None:
            raise BadOption(f"ruleset {self.id} has no deal table")
        for entry in self.deal.hand_sizes:
            if players in entry.players and all(
                    self.option_values.get(k) == v for k, v in entry.condition.items()):
                return entry.cards
        raise BadOption(f"{self.label} is not played by {players} players")

    def _holds(self, condition: Mapping[str, Any]) -> bool:
        return all(self.option_values.get(o) == v for o, v in condition.items())

    def turn_rule(self, kind: str) -> TurnRule:
        """The rule for a normal turn or one that claimed a discard, under the options: the
        matching entries merged, the first entry that sets a field deciding it."""
        fields: dict[str, Any] = {}
        sources = []
        for entry in self.turn_entries:
            if kind in entry.kinds and self._holds(entry.condition):
                new = {k: v for k, v in entry.fields.items() if k not in fields}
                if new:
                    fields.update(new)
                    sources.append(entry.source)
        if "discard" not in fields:
            raise BadOption(f"{self.label} says nothing of how a {kind} turn ends")
        return TurnRule(kind, sources=tuple(sources), **fields)

    def layoff_rule(self) -> LayoffRule | None:
        return next((r for r in self.layoff_rules if self._holds(r.condition)), None)

    def points(self, face: Face) -> int:
        """The card-point value of a face (deadwood or penalty value)."""
        for entry in self.card_points:
            if entry.matches(face):
                if entry.points == "rank":
                    value = self.deck.rank(face.rank).value
                    return int(value if value is not None else face.rank)
                return int(entry.points)
        return 0


# --------------------------------------------------------------------------------------------
# Loading


def normalise_quote(text: str) -> str:
    """NFKC, without any white space: documents space Japanese text irregularly."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text))


def bundled_rulesets() -> list[Path]:
    return sorted(p for p in BUNDLED_DIR.glob("*.yaml"))


def resolve_path(ref: str) -> Path:
    """A ruleset reference is a bundled id (``fesca``) or a path to a YAML file."""
    candidate = Path(ref)
    if candidate.suffix in (".yaml", ".yml") or "/" in ref or candidate.exists():
        if not candidate.is_file():
            raise UnknownRuleset(f"no ruleset file {ref!r}")
        return candidate
    bundled = BUNDLED_DIR / f"{ref}.yaml"
    if bundled.is_file():
        return bundled
    known = ", ".join(p.stem for p in bundled_rulesets())
    raise UnknownRuleset(f"unknown ruleset {ref!r}; bundled rulesets: {known} (or give a path)")


@lru_cache(maxsize=32)
def _load_raw(path: str, mtime: float) -> Any:
    data = load_file(path)
    validate(data, "ruleset.schema.json", path)
    if "extends" in data:
        ref = data["extends"]
        is_path = ref.endswith((".yaml", ".yml")) or "/" in ref
        base_path = (Path(path).parent / ref) if is_path else resolve_path(ref)
        if not base_path.is_file():
            raise UnknownRuleset(f"{path}: extends {ref!r}, which is not a ruleset")
        if base_path.resolve() == Path(path).resolve():
            raise SchemaError("a ruleset cannot extend itself", Location(path, line_of(data, "extends")))
        base = _load_raw(str(base_path), base_path.stat().st_mtime)
        base = _with_absolute_files(base, base_path)  # a file the base names stays the base's
        child = {k: v for k, v in data.items() if k != "extends"}
        data = merged({k: v for k, v in base.items() if k != "extends"}, child)
        for key in ("document",) + (() if "words" in data else ("deck", "roles", "melds")):
            if key not in data:
                raise SchemaError(f"missing required key '{key}'", Location(path, 1))
    return data


def _with_absolute_files(data: Any, path: Path) -> Any:
    """The base of an ``extends:`` with the files it names (the word list) made absolute, so that
    a child ruleset elsewhere still finds them."""
    words = data.get("words") if isinstance(data, Mapping) else None
    if not isinstance(words, Mapping) or "dictionary" not in words:
        return data
    dictionary = dict(words["dictionary"])
    dictionary["file"] = str((Path(path).parent / dictionary["file"]).resolve())
    return {**data, "words": {**words, "dictionary": dictionary}}


def load_ruleset(ref: str, options: Mapping[str, Any] | None = None) -> Ruleset:
    """Load, validate and build a ruleset by id or path, with option values applied."""
    path = resolve_path(ref)
    return _build_cached(str(path), path.stat().st_mtime, tuple(sorted((options or {}).items())))


@lru_cache(maxsize=64)
def _build_cached(path: str, mtime: float, options: tuple) -> Ruleset:
    return _Builder(path, _load_raw(path, mtime)).build(dict(options))


class _Builder:
    """Turns validated YAML data into a :class:`Ruleset`, reporting semantic errors by line."""

    def __init__(self, path: str, data: Any):
        self.path = path
        self.data = data
        self.doc = data["document"]["file"]

    # -- helpers ----------------------------------------------------------------------------

    def fail(self, container: Any, key: Any, message: str, path: str = "") -> None:
        where = getattr(container, "file", None) or self.path
        raise SchemaError(message, Location(where, line_of(container, key), path))

    def source(self, element: Mapping | None) -> Source | None:
        if not isinstance(element, Mapping):
            return None
        src = element.get("source")
        assumption = element.get("assumption")
        if src is None and assumption is None:
            return None
        src = src or {}
        return Source(doc=src.get("doc", self.doc), quote=src.get("quote"), note=src.get("note"),
                      assumption=assumption, line=getattr(element, "line", None))

    def expand_ranks(self, items: list, known: Mapping[str, Rank], where: Any, path: str,
                     ) -> tuple[str, ...]:
        out: list[str] = []
        for i, item in enumerate(items):
            text = str(item)
            match = re.fullmatch(r"(-?\d+)\.\.(-?\d+)", text)
            if match:
                lo, hi = int(match[1]), int(match[2])
                if lo > hi:
                    self.fail(items, i, f"empty rank range {text!r}", f"{path}[{i}]")
                ids = [str(v) for v in range(lo, hi + 1)]
            else:
                ids = [text]
            for rid in ids:
                if rid not in known:
                    self.fail(items, i, f"unknown rank {rid!r} (the deck's ranks: "
                              f"{', '.join(known)})", f"{path}[{i}]")
                out.append(rid)
        return tuple(out)

    def expand_ints(self, items: list, where: Any, path: str) -> frozenset[int]:
        out: set[int] = set()
        for i, item in enumerate(items):
            match = re.fullmatch(r"(\d+)\.\.(\d+)", str(item))
            if match:
                out.update(range(int(match[1]), int(match[2]) + 1))
            elif isinstance(item, int):
                out.add(item)
            else:
                self.fail(items, i, f"expected a number or a range 'a..b', got {item!r}",
                          f"{path}[{i}]")
        return frozenset(out)

    def check_ids(self, items: list, known: Any, what: str, path: str) -> tuple[str, ...]:
        for i, item in enumerate(items):
            if item not in known:
                self.fail(items, i, f"unknown {what} {item!r} (known: {', '.join(known)})",
                          f"{path}[{i}]")
        return tuple(items)

    # -- sections ---------------------------------------------------------------------------

    def build(self, option_values: dict) -> Ruleset:
        d = self.data
        options = self.build_options(d.get("options", {}))
        values = self.resolve_options(options, option_values)
        assumptions = self.build_assumptions(d.get("assumptions", []), options)
        deck = self.build_deck(d["deck"], values) if "deck" in d else Deck((), (), (), (), {}, "")
        cycles = self.build_cycles(d.get("cycles", {}), deck)
        phases = tuple(Phase(p["id"], p.get("name", p["id"]), self.source(p))
                       for p in d.get("phases", []))
        roles = self.build_roles(d.get("roles", []), deck)
        kinds = tuple(self.build_kind(k, i, deck, roles, cycles, phases, options)
                      for i, k in enumerate(d.get("melds", [])))
        seen: set[str] = set()
        for i, kind in enumerate(kinds):
            if kind.id in seen:
                self.fail(d["melds"], i, f"duplicate meld kind id {kind.id!r}", f"melds[{i}].id")
            seen.add(kind.id)
        enabled = tuple(k for k, raw in zip(kinds, d.get("melds", []))
                        if all(values.get(o) == v for o, v in raw.get("enabled_if", {}).items()))
        players = d.get("players")
        known_assumptions = {a.id for a in assumptions}
        self.check_assumption_refs(d, known_assumptions, "")
        return Ruleset(
            id=d["id"], name=d["name"], name_en=d.get("name_en"), document=self.doc,
            document_title=d["document"].get("title"), path=self.path,
            players=(players["min"], players["max"]) if players else None,
            options=options, option_values=values, assumptions=assumptions, deck=deck,
            cycles=cycles, phases=phases, roles=roles, all_kinds=kinds, kinds=enabled,
            ambiguity_source=self.source(d.get("ambiguity")),
            deal=self.build_deal(d.get("deal"), options),
            card_points=self.build_points(d.get("card_points", []), deck),
            turn_entries=tuple(
                TurnEntry(frozenset([t["kind"]] if isinstance(t["kind"], str) else t["kind"]),
                          {f: t[f] for f in TURN_FIELDS if f in t},
                          self.condition(t, options, f"turns[{i}]"), self.source(t))
                for i, t in enumerate(d.get("turns", []))),
            layoff_rules=tuple(LayoffRule(r["requires_own_meld"],
                                          self.condition(r, options, f"layoff[{i}]"), self.source(r))
                               for i, r in enumerate(d.get("layoff", []))),
            objective=tuple(Goal("maximize" if "maximize" in g else "minimize",
                                 g.get("maximize") or g.get("minimize"), self.source(g))
                            for g in d.get("objective", [])),
            scoring_sources={k: self.source(v) for k, v in d.get("scoring", {}).items()},
            operations=self.build_operations(d.get("operations", []), deck),
            phase_change=self.build_phase_change(d.get("phase_change"), deck, phases, options),
            phase_touch_source=self.source(d.get("phase_touch")),
            restriction_sources={k: self.source(v) for k, v in d.get("restrictions", {}).items()},
            ambiguity_rule=(d.get("ambiguity") or {}).get("rule", "reject"),
            parameters={k: self.source(v) for k, v in d.get("parameters", {}).items()},
            maal=self.build_maal(d.get("maal"), deck, options),
            going_out=self.build_routes(d.get("going_out", []), kinds),
            seeing=tuple(SeeRequirement(frozenset(self.check_ids(r["kinds"], [k.id for k in kinds], "meld kind",
                                                               f"seeing_tiplu[{i}].kinds")),
                                      r["count"], self.source(r))
                         for i, r in enumerate(d.get("seeing_tiplu", []))),
            settlement=self.build_settlement(d.get("settlement")),
            declared_melds=tuple(DeclaredKind(m["id"], m.get("name", m["id"]),
                                              self.check_ids([m["kind"]], [k.id for k in kinds], "meld kind",
                                                             f"declared_melds[{i}].kind")[0],
                                              m["open"], self.source(m), bool(m.get("allowed", True)))
                                 for i, m in enumerate(d.get("declared_melds", []))),
            hand_shapes=self.build_shapes(d.get("hand_shapes", []), kinds),
            tenpai_source=self.source(d.get("tenpai")),
            riichi_kan=self.build_riichi_kan(d.get("riichi_kan")),
            guest_winds=tuple(g["rank"] for g in d.get("guest_winds", [])),
            mahjong_scoring=self.build_mahjong_scoring(d.get("mahjong_scoring"), options, values),
            words=self.build_words(d.get("words"), options, values),
            moves=self.build_moves(d.get("moves"), options, values),
            claims=self.build_claims(d.get("claims", [])),
            round_scorings=tuple(
                RoundScoring(r["id"], r["name"], r["method"],
                             tuple(Bonus(bool(b.get("double")), b.get("add", 0),
                                         self.condition(b, options, f"round_scoring[{i}].one_go[{j}]"),
                                         self.source(b)) for j, b in enumerate(r.get("one_go", []))),
                             self.condition(r, options, f"round_scoring[{i}]"), self.source(r),
                             self.source(r.get("counts")))
                for i, r in enumerate(d.get("round_scoring", []))),
        )

    def build_shapes(self, raw: list, kinds) -> tuple[HandShape, ...]:
        ids = [k.id for k in kinds]
        out = []
        for i, h in enumerate(raw):
            parts = []
            for j, p in enumerate(h["parts"]):
                self.check_ids(p["kinds"], ids, "meld kind", f"hand_shapes[{i}].parts[{j}].kinds")
                parts.append(ShapePart(tuple(p["kinds"]), p["count"], bool(p.get("declared", False))))
            out.append(HandShape(h["id"], h.get("name", h["id"]), tuple(parts), bool(h.get("closed", False)),
                                 bool(h.get("distinct", False)), self.source(h)))
        return tuple(out)

    def build_mahjong_scoring(self, raw, options, option_values) -> MahjongScoring | None:
        if raw is None:
            return None
        for key in ("fu", "points", "yaku"):
            if key not in raw:
                self.fail(self.data, "mahjong_scoring", f"mahjong_scoring needs '{key}'", "mahjong_scoring")
        yaku = []
        for yid, y in raw["yaku"].items():
            where = f"mahjong_scoring.yaku.{yid}"
            open_if = self.condition({"if": y.get("open_if", {})}, options, f"{where}.open_if")
            opened = y.get("open")
            if y.get("yakuman"):
                open_han = 1 if opened is True else None
            else:
                open_han = opened if isinstance(opened, int) and not isinstance(opened, bool) else None
                if opened is True:
                    self.fail(y, "open", "open: true is for yakuman; give the open han", f"{where}.open")
            if not y.get("yakuman") and not y.get("fixed") and "han" not in y:
                self.fail(raw["yaku"], yid, "a yaku needs han, yakuman or fixed", where)
            yaku.append(Yaku(yid, y["name"], y.get("han", 0), open_han, open_if, y.get("yakuman", 0),
                             y.get("fixed"), y.get("aotenjou_han"), dict(y["pattern"]),
                             tuple(y.get("excludes", ())), self.source(y)))
        ids = [y.id for y in yaku]
        for y, (yid, entry) in zip(yaku, raw["yaku"].items()):
            self.check_ids(list(y.excludes), ids, "yaku", f"mahjong_scoring.yaku.{yid}.excludes")

        def enabled(element) -> bool:
            cond = self.condition(element, options, "mahjong_scoring")
            return all(option_values.get(k) == v for k, v in cond.items())

        shibari = raw.get("shibari")
        aotenjou = raw.get("aotenjou")
        dora = raw.get("dora", {})
        sources = {k: self.source(v) for k, v in raw.items() if isinstance(v, Mapping)}
        for key in ("open_pinfu_source", "double_wind_pair_source"):
            sources[key] = self.source({"source": raw["fu"][key]}) if key in raw["fu"] else None
        return MahjongScoring(
            tuple(yaku), tuple(raw.get("winds", ())), tuple(raw.get("dragons", ())),
            tuple(raw.get("green", ())), tuple(tuple(c) for c in dora.get("honour_cycles", ())),
            dora.get("red_fives", 0), dict(raw["fu"]), dict(raw["points"]),
            raw.get("honba", {}).get("points", 0), raw.get("riichi_stick", {}).get("points", 0),
            raw.get("noten_penalty", {}).get("points", 0),
            {k: raw["nagashi_mangan"][k] for k in ("dealer", "other")} if "nagashi_mangan" in raw else {},
            (shibari["honba"], shibari["han"]) if shibari and enabled(shibari) else None,
            "three_player_tsumo" in raw, raw.get("yakuman", {}).get("combine", True),
            dict(aotenjou) if aotenjou and enabled(aotenjou) else None, sources)

    def build_claims(self, raw: list) -> tuple[Claim, ...]:
        out, seen = [], set()
        for i, c in enumerate(raw):
            if c["id"] in seen:
                self.fail(raw, i, f"duplicate claim id {c['id']!r}", f"claims[{i}]")
            seen.add(c["id"])
            data = {k: v for k, v in c.items() if k not in ("id", "kind", "source", "assumption", "note", "description")}
            out.append(Claim(c["id"], c["kind"], data, self.source(c), c.get("note")))
        return tuple(out)

    def build_moves(self, raw, options, values) -> MoveRules | None:
        if raw is None:
            return None
        checks = []
        for i, c in enumerate(raw.get("checks", [])):
            cond = self.condition(c, options, f"moves.checks[{i}]")
            if all(values.get(o) == v for o, v in cond.items()):
                checks.append(MoveCheck(c["check"], self.source(c),
                                        {k: v for k, v in c.items() if k not in ("check", "if", "source", "assumption",
                                                                                  "description")}))
        return MoveRules({k: self.source(v) for k, v in raw["actions"].items()}, tuple(checks))

    def build_words(self, raw, options, values) -> WordGame | None:
        if raw is None:
            return None

        def enabled(element, path) -> bool:
            return all(values.get(o) == v for o, v in self.condition(element, options, path).items())

        tiles = tuple(WordTiles(t["tiles"], bool(t.get("mark")), self.source(t))
                      for i, t in enumerate(raw["tiles"]) if enabled(t, f"words.tiles[{i}]"))
        kinds = "".join(t.tiles for t in tiles)
        if len(set(kinds)) != len(kinds):
            self.fail(raw, "tiles", "a tile kind is listed twice under these options", "words.tiles")
        small: dict[str, str] = {}
        small_sources = []
        for i, g in enumerate(raw.get("small_kana", [])):
            if len(g["tiles"]) != len(g["small"]):
                self.fail(g, "small", "small needs one kana for each tile", f"words.small_kana[{i}]")
            for tile in g["tiles"]:
                if tile not in kinds:
                    self.fail(g, "tiles", f"{tile} is not a tile of the set", f"words.small_kana[{i}]")
            if enabled(g, f"words.small_kana[{i}]"):
                small.update(zip(g["small"], g["tiles"]))
                small_sources.append(self.source(g))
        turn = raw["turn"]
        scoring = raw["scoring"]
        dictionary = raw["dictionary"]
        sources = {f"min_length.{k}": self.source(v) for k, v in raw["min_length"].items()}
        sources.update({f"turn.{k}": self.source(v) for k, v in turn.items()})
        sources.update({f"scoring.{k}": self.source(v) for k, v in scoring.items()})
        sources["dictionary"] = self.source(dictionary)
        sources["tiles"] = next((t.source for t in tiles), None)
        relief = turn.get("relief", {"discard": 1, "draw": 0, "per_turn": 0})
        return WordGame(
            tiles=tiles, copies=self.option_value(raw.get("copies"), values, 0),
            small_kana=small, small_sources=tuple(small_sources),
            hand_sizes=tuple((h["players"][0], h["players"][1], h["tiles"], self.source(h))
                             for h in raw.get("hand_size", [])),
            min_length={k: v["tiles"] for k, v in raw["min_length"].items()},
            words_from_hand=turn["words_from_hand"]["max"],
            relief={k: relief[k] for k in ("discard", "draw", "per_turn")},
            no_word_draw=turn.get("no_word", {}).get("draw", 1),
            left_in_hand=scoring["left_in_hand"]["points"], bonus_tile=scoring["bonus_tile"]["points"],
            dictionary_file=(Path(self.path).parent / dictionary["file"]),
            dictionary_name=dictionary["name"], dictionary_licence=dictionary.get("licence"),
            sources=sources)

    def build_riichi_kan(self, raw) -> RiichiKan | None:
        if raw is None:
            return None
        examples = tuple(Source(e.get("doc", self.doc), e["quote"]) for e in raw.get("examples", []))
        return RiichiKan(raw["rule"], raw.get("general_rule", "decompositions-unchanged"),
                         bool(raw.get("no_okuri_kan", True)), examples, self.source(raw))

    def build_maal(self, raw, deck: Deck, options) -> Maal | None:
        if raw is None:
            return None
        ranks = {r.id: r for r in deck.ranks}
        cycle = self.expand_ranks(raw["rank_cycle"], ranks, raw, "maal.rank_cycle")
        kinds = tuple(MaalKind(k["id"], k.get("name", k["id"]), k["suit"], k["offset"],
                               self.condition({"if": k.get("enabled_if", {})}, options, f"maal.kinds[{i}]"),
                               self.source(k)) for i, k in enumerate(raw["kinds"]))
        return Maal(raw["parameter"], cycle, dict(raw.get("colours", {})), kinds, self.source(raw))

    def build_routes(self, raw: list, kinds) -> tuple[GoOutRoute, ...]:
        ids = [k.id for k in kinds]
        out = []
        for i, r in enumerate(raw):
            self.check_ids(r["kinds"], ids, "meld kind", f"going_out[{i}].kinds")
            first = r.get("first")
            if first:
                self.check_ids(first["kinds"], ids, "meld kind", f"going_out[{i}].first.kinds")
            out.append(GoOutRoute(r["id"], r.get("name", r["id"]), tuple(r["kinds"]),
                                  bool(r.get("all_cards", True)), r.get("melds"),
                                  frozenset(first["kinds"]) if first else None,
                                  first["count"] if first else 0, self.source(r),
                                  self.source({"source": r["first_source"]}) if "first_source" in r else None))
        return tuple(out)

    def build_settlement(self, raw) -> Settlement | None:
        if raw is None:
            return None
        game = raw.get("game_payment", {})
        maal = raw.get("maal_points", {})
        sources = {"game": self.source(game), "formula": self.source(raw.get("formula")),
                   "exchange": self.source(raw.get("exchange")), "maal": self.source(maal),
                   "dublee": self.source({"source": game["dublee_source"]}) if "dublee_source" in game else None}
        return Settlement(game.get("seen", 0), game.get("unseen", 0), game.get("dublee_bonus", 0),
                          {k: tuple(v) for k, v in maal.get("cards", {}).items()},
                          maal.get("marriage", 0), dict(maal.get("dealt_tunnela", {})), sources)

    def build_operations(self, raw: list, deck: Deck) -> tuple[Operation, ...]:
        class_ids = [c.id for c in deck.classes]
        out = []
        for i, o in enumerate(raw):
            for key in ("card_classes", "taken_classes"):
                if key in o:
                    self.check_ids(o[key], class_ids, "card class", f"operations[{i}].{key}")
            out.append(Operation(
                o["id"], o["name"], o["effect"], o.get("before_own_meld", "allowed"),
                o.get("kind_change", "never" if o["effect"] != "add" else "own"),
                frozenset(o["card_classes"]) if "card_classes" in o else None,
                frozenset(o["taken_classes"]) if "taken_classes" in o else None,
                frozenset(o["families"]) if "families" in o else None,
                frozenset(o["turns"]) if "turns" in o else None, self.source(o)))
        return tuple(out)

    def build_phase_change(self, raw, deck: Deck, phases, options) -> PhaseChange | None:
        if raw is None:
            return None
        self.check_ids(raw["on_discard_classes"], [c.id for c in deck.classes], "card class",
                       "phase_change.on_discard_classes")
        for key in ("odd", "even"):
            if raw[key] not in [p.id for p in phases]:
                self.fail(raw, key, f"unknown phase {raw[key]!r}", f"phase_change.{key}")
        start = raw.get("start", {}).get("option")
        if start is not None and start not in options:
            self.fail(raw, "start", f"unknown option {start!r}", "phase_change.start")
        return PhaseChange(frozenset(raw["on_discard_classes"]), raw["odd"], raw["even"], start,
                           self.source(raw))

    def condition(self, element: Mapping, options: Mapping[str, Option], path: str) -> dict:
        """An element's ``if:`` (option id -> value), checked against the declared options."""
        cond = dict(element.get("if", {}))
        for oid, value in cond.items():
            if oid not in options:
                self.fail(element["if"], oid, f"unknown option {oid!r}", f"{path}.if")
            problem = _option_problem(options[oid], value)
            if problem:
                self.fail(element["if"], oid, problem, f"{path}.if.{oid}")
        return cond

    def check_assumption_refs(self, node: Any, known: set[str], path: str) -> None:
        """Every ``assumption: id`` must name an assumption of the ruleset."""
        if isinstance(node, Mapping):
            for key, value in node.items():
                if key == "assumption" and value not in known:
                    self.fail(node, key, f"unknown assumption {value!r} (declared: "
                              f"{', '.join(sorted(known)) or 'none'})", f"{path}.{key}")
                if key != "assumptions":
                    self.check_assumption_refs(value, known, f"{path}.{key}" if path else key)
        elif isinstance(node, list):
            for i, item in enumerate(node):
                self.check_assumption_refs(item, known, f"{path}[{i}]")

    def build_options(self, raw: Mapping) -> dict[str, Option]:
        out = {}
        for oid, o in raw.items():
            choices = tuple(o["choices"]) if "choices" in o else None
            option = Option(oid, o["type"], o["default"], choices, o.get("minimum"),
                            o.get("maximum"), o["description"], self.source(o))
            problem = _option_problem(option, option.default)
            if problem:
                self.fail(o, "default", f"default {problem}", f"options.{oid}.default")
            out[oid] = option
        return out

    def resolve_options(self, options: Mapping[str, Option], given: Mapping[str, Any]) -> dict:
        values = {oid: o.default for oid, o in options.items()}
        for oid, value in given.items():
            if oid not in options:
                known = ", ".join(options) or "none"
                raise BadOption(f"ruleset {self.data['id']} has no option {oid!r} (options: {known})")
            value = _coerce_option(options[oid], value)
            problem = _option_problem(options[oid], value)
            if problem:
                raise BadOption(f"option {oid}: {problem}")
            values[oid] = value
        return values

    def build_assumptions(self, raw: list, options: Mapping[str, Option]) -> tuple[Assumption, ...]:
        out = []
        ids: set[str] = set()
        for i, a in enumerate(raw):
            if a["id"] in ids:
                self.fail(raw, i, f"duplicate assumption id {a['id']!r}", f"assumptions[{i}]")
            ids.add(a["id"])
            if a.get("option") and a["option"] not in options:
                self.fail(a, "option", f"unknown option {a['option']!r}", f"assumptions[{i}].option")
            src = a.get("source")
            out.append(Assumption(a["id"], a["text"], a["reason"],
                                  Source(src.get("doc", self.doc), src["quote"]) if src else None,
                                  a.get("option"), getattr(a, "line", None)))
        return tuple(out)

    def option_value(self, raw: Any, values: Mapping[str, Any], default: int) -> int:
        """A number of copies: a number, an option's value, or an option's value mapped."""
        if raw is None:
            return default
        if isinstance(raw, Mapping):
            if raw["option"] not in values:
                self.fail(raw, "option", f"unknown option {raw['option']!r}")
            value = values[raw["option"]]
            if "map" in raw:
                key = str(value).lower() if isinstance(value, bool) else str(value)
                if key not in raw["map"]:
                    self.fail(raw, "map", f"no entry for {raw['option']} = {key}")
                return int(raw["map"][key])
            return int(value)
        return int(raw)

    def build_deck(self, raw: Mapping, values: Mapping[str, Any]) -> Deck:
        suits = []
        for i, s in enumerate(raw["suits"]):
            suits.append(Suit(str(s["id"]), tuple(str(n) for n in s.get("names", [])), s.get("color")))
        suit_ids = [s.id for s in suits]
        if len(set(suit_ids)) != len(suit_ids):
            self.fail(raw, "suits", "duplicate suit id", "deck.suits")
        ranks: dict[str, Rank] = {}
        for i, r in enumerate(raw.get("ranks", [])):
            if isinstance(r, str):
                lo, hi = (int(x) for x in r.split(".."))
                new = [Rank(str(v), (), v) for v in range(lo, hi + 1)]
            else:
                rid = str(r["id"])
                value = r.get("value", int(rid) if re.fullmatch(r"-?\d+", rid) else None)
                new = [Rank(rid, tuple(str(n) for n in r.get("names", [])), value)]
            for rank in new:
                if rank.id in ranks:
                    self.fail(raw["ranks"], i, f"duplicate rank id {rank.id!r}", f"deck.ranks[{i}]")
                ranks[rank.id] = rank
        if "suits" not in raw or "classes" not in raw:
            self.fail(raw, "suits", "the deck needs suits and classes", "deck")
        deck_copies = self.option_value(raw.get("copies"), values, 1)
        classes = []
        faces: list[Face] = []
        copies: dict[Face, int] = {}
        for i, c in enumerate(raw["classes"]):
            path = f"deck.classes[{i}]"
            csuits = self.check_ids(c.get("suits", []), suit_ids, "suit", f"{path}.suits")
            cranks = self.expand_ranks(c.get("ranks", []), ranks, c, f"{path}.ranks")
            for t_i, template in enumerate(c["spell"]):
                if "{suit}" in template and not csuits:
                    self.fail(c["spell"], t_i, "spelling uses {suit} but the class has no suits",
                              f"{path}.spell[{t_i}]")
                if "{rank}" in template and not cranks:
                    self.fail(c["spell"], t_i, "spelling uses {rank} but the class has no ranks",
                              f"{path}.spell[{t_i}]")
            n_copies = self.option_value(c.get("copies"), values, deck_copies)
            by_rank = {str(r): self.option_value(spec, values, n_copies)
                       for r, spec in c.get("rank_copies", {}).items()}
            excluded = set()
            for j, ex in enumerate(c.get("exclude", [])):
                for rank in self.expand_ranks(ex["ranks"], ranks, ex, f"{path}.exclude[{j}].ranks"):
                    excluded.add((ex["suit"], rank))
            cls = CardClass(c["id"], c.get("name_en"), csuits, cranks, tuple(c["spell"]),
                            n_copies, self.source(c))
            classes.append(cls)
            for suit in csuits or (None,):
                for rank in cranks or (None,):
                    count = by_rank.get(rank, n_copies)
                    if (suit, rank) in excluded or count == 0:
                        continue  # this face is not in the deck (under these options)
                    face = Face(len(faces), cls.id, suit, rank)
                    faces.append(face)
                    copies[face] = count
        class_ids = [c.id for c in classes]
        if len(set(class_ids)) != len(class_ids):
            self.fail(raw, "classes", "duplicate card class id", "deck.classes")
        deck = Deck(tuple(suits), tuple(ranks.values()), tuple(classes), tuple(faces), copies,
                    raw.get("identity", "{suit}{rank}"))
        from solver.core.notation import Notation  # notation builds on the deck model defined here

        try:
            Notation.for_deck(deck)
        except ValueError as exc:
            self.fail(raw, "classes", str(exc), "deck.classes")
        return deck

    def build_cycles(self, raw: Mapping, deck: Deck) -> dict[str, tuple[str, ...]]:
        out = {}
        suit_ids = [s.id for s in deck.suits]
        for name, c in raw.items():
            suits = self.check_ids(c["suits"], suit_ids, "suit", f"cycles.{name}.suits")
            if len(set(suits)) != len(suits):
                self.fail(c, "suits", "a cycle lists each suit once", f"cycles.{name}.suits")
            out[name] = suits
        return out

    def build_roles(self, raw: list, deck: Deck) -> dict[str, Role]:
        out: dict[str, Role] = {}
        class_ids = [c.id for c in deck.classes]
        suit_ids = [s.id for s in deck.suits]
        rank_map = {r.id: r for r in deck.ranks}
        for i, r in enumerate(raw):
            path = f"roles[{i}]"
            if r["id"] in out:
                self.fail(raw, i, f"duplicate role id {r['id']!r}", path)
            classes = self.check_ids(r["classes"], class_ids, "card class", f"{path}.classes")
            suits = None if r["suit"] == "own" else self.check_ids(r["suit"], suit_ids, "suit",
                                                                     f"{path}.suit")
            ranks = None if r["rank"] == "own" else self.expand_ranks(r["rank"], rank_map, r,
                                                                       f"{path}.rank")
            for cid in classes:
                cls = deck.card_class(cid)
                if suits is None and not cls.suits:
                    self.fail(r, "suit", f"suit 'own', but cards of class {cid} have no suit",
                              f"{path}.suit")
                if ranks is None and not cls.ranks:
                    self.fail(r, "rank", f"rank 'own', but cards of class {cid} have no rank",
                              f"{path}.rank")
            req = None
            if "requires_in_meld" in r:
                q = r["requires_in_meld"]
                self.check_ids(q["classes"], class_ids, "card class", f"{path}.requires_in_meld.classes")
                req = Requirement(frozenset(q["classes"]), self.source(q))
            out[r["id"]] = Role(r["id"], r.get("name", r["id"]), frozenset(classes),
                                bool(r.get("wild", False)), suits, ranks, req, self.source(r),
                                frozenset(r["if_maal"]) if "if_maal" in r else None)
        return out

    def build_kind(self, k: Mapping, index: int, deck: Deck, roles: Mapping[str, Role],
                   cycles: Mapping, phases: tuple[Phase, ...], options: Mapping[str, Option],
                   ) -> MeldKind:
        path = f"melds[{index}]"
        rank_map = {r.id: r for r in deck.ranks}
        suit_ids = [s.id for s in deck.suits]
        size = k["size"]
        if size["min"] > size["max"]:
            self.fail(k, "size", "size.min is larger than size.max", f"{path}.size")
        kind_roles = []
        for j, entry in enumerate(k["roles"]):
            entry_map = entry if isinstance(entry, Mapping) else {"role": entry}
            rid = entry_map["role"]
            if rid not in roles:
                self.fail(k["roles"], j, f"unknown role {rid!r} (roles: {', '.join(roles)})",
                          f"{path}.roles[{j}]")
            classes = entry_map.get("classes")
            if classes:
                self.check_ids(classes, roles[rid].classes, f"class of role {rid}",
                               f"{path}.roles[{j}].classes")
            sizes = (self.expand_ints(entry_map["sizes"], entry_map, f"{path}.roles[{j}].sizes")
                     if "sizes" in entry_map else None)
            kind_roles.append(KindRole(roles[rid], frozenset(classes) if classes else None, sizes,
                                       self.source(entry_map),
                                       frozenset(entry_map["if_maal"]) if "if_maal" in entry_map else None))
        shape = k["shape"]
        order = None
        if shape == "sequence":
            if "order" not in k:
                self.fail(k, "shape", "a sequence needs an 'order' of ranks", f"{path}.order")
            o = k["order"]
            order = Order(self.expand_ranks(o["ranks"], rank_map, o, f"{path}.order.ranks"),
                          bool(o.get("cyclic", False)), self.source(o))
        elif "order" in k or "suit_step" in k:
            key = "order" if "order" in k else "suit_step"
            self.fail(k, key, f"'{key}' only applies to sequences", f"{path}.{key}")
        step_raw = k.get("suit_step", "same")
        if step_raw == "same":
            step = SuitStep(None, (("forward", ""),))
        else:
            if step_raw["cycle"] not in cycles:
                self.fail(step_raw, "cycle", f"unknown cycle {step_raw['cycle']!r} "
                          f"(cycles: {', '.join(cycles) or 'none'})", f"{path}.suit_step.cycle")
            if not step_raw["directions"]:
                self.fail(step_raw, "directions", "name at least one direction",
                          f"{path}.suit_step.directions")
            step = SuitStep(step_raw["cycle"], tuple(step_raw["directions"].items()))
        suits = self.check_ids(k.get("suits", suit_ids), suit_ids, "suit", f"{path}.suits")
        ranks = (self.expand_ranks(k["ranks"], rank_map, k, f"{path}.ranks") if "ranks" in k
                 else tuple(rank_map))
        short = None
        if "short_form" in k:
            sf = k["short_form"]
            self.check_ids(sf["roles"], [r.role.id for r in kind_roles], "role of this kind",
                           f"{path}.short_form.roles")
            short = ShortForm(sf["size"], frozenset(sf["roles"]), self.source(sf))
        wilds = None
        if "wilds" in k:
            w = k["wilds"]
            wilds = (w.get("min"), w.get("max"), self.source(w))
        distinct_raw = k.get("distinct", True)
        distinct = distinct_raw is not False
        distinguish = None
        if "distinguish" in k:
            dg = k["distinguish"]
            distinguish = Distinguish(dg.get("fixed_suits", 0), dg.get("fixed_ranks", 0),
                                      self.source(dg))
        phase = k.get("phase")
        if phase is not None and phase not in [p.id for p in phases]:
            self.fail(k, "phase", f"unknown phase {phase!r} (phases: "
                      f"{', '.join(p.id for p in phases) or 'none'})", f"{path}.phase")
        for oid, value in k.get("enabled_if", {}).items():
            if oid not in options:
                self.fail(k["enabled_if"], oid, f"unknown option {oid!r}", f"{path}.enabled_if")
            problem = _option_problem(options[oid], value)
            if problem:
                self.fail(k["enabled_if"], oid, problem, f"{path}.enabled_if.{oid}")
        score = None
        if "score" in k:
            sc = k["score"]
            if len(sc["counts"]) != len(sc["points"]):
                self.fail(sc, "points", "score.points needs one value per count",
                          f"{path}.score.points")
            score = ScoreTable(dict(zip(sc["counts"], sc["points"])), sc.get("count", "naturals"),
                               bool(sc.get("segments", False)), self.source(sc))
        return MeldKind(
            score=score,
            id=k["id"], name=k["name"], name_en=k.get("name_en"), family=k.get("family", k["id"]),
            shape=shape, size_min=size["min"], size_max=size["max"], short_form=short,
            suits=suits, ranks=ranks, order=order, suit_step=step, roles=tuple(kind_roles),
            wilds=wilds, distinct=distinct,
            distinct_source=self.source(distinct_raw) if isinstance(distinct_raw, Mapping) else None,
            distinguish=distinguish, phase=phase, source=self.source(k),
        )

    def build_deal(self, raw: Mapping | None, options: Mapping[str, Option]) -> Deal | None:
        if raw is None:
            return None
        sizes = []
        for i, h in enumerate(raw["hand_size"]):
            cond = self.condition(h, options, f"deal.hand_size[{i}]")
            sizes.append(HandSize(self.expand_ints(h["players"], h, f"deal.hand_size[{i}].players"),
                                  h["cards"], cond, self.source(h)))
        return Deal(tuple(sizes), raw.get("starter_discard", 0), self.source(raw))

    def build_points(self, raw: list, deck: Deck) -> tuple[CardPoints, ...]:
        out = []
        rank_map = {r.id: r for r in deck.ranks}
        for i, p in enumerate(raw):
            path = f"card_points[{i}]"
            classes = p.get("classes")
            if classes:
                self.check_ids(classes, [c.id for c in deck.classes], "card class", f"{path}.classes")
            suits = p.get("suits")
            if suits:
                self.check_ids(suits, [s.id for s in deck.suits], "suit", f"{path}.suits")
            ranks = self.expand_ranks(p["ranks"], rank_map, p, f"{path}.ranks") if "ranks" in p else None
            out.append(CardPoints(frozenset(classes) if classes else None,
                                  frozenset(suits) if suits else None,
                                  frozenset(ranks) if ranks else None, p["points"], self.source(p)))
        return tuple(out)


def _coerce_option(option: Option, value: Any) -> Any:
    """Option values from the command line arrive as text."""
    if not isinstance(value, str):
        return value
    if option.type == "boolean":
        lowered = value.lower()
        if lowered in ("true", "yes", "on", "1"):
            return True
        if lowered in ("false", "no", "off", "0"):
            return False
        return value
    if option.type == "integer" and re.fullmatch(r"-?\d+", value):
        return int(value)
    return value


def _option_problem(option: Option, value: Any) -> str | None:
    expected = {"boolean": bool, "integer": int, "string": str}[option.type]
    if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
        return f"expects a {option.type}, got {value!r}"
    if option.choices and value not in option.choices:
        return f"{value!r} is not one of {', '.join(map(str, option.choices))}"
    if option.minimum is not None and value < option.minimum:
        return f"must be at least {option.minimum}"
    if option.maximum is not None and value > option.maximum:
        return f"must be at most {option.maximum}"
    return None


def with_options(ruleset: Ruleset, options: Mapping[str, Any]) -> Ruleset:
    """The same ruleset file built with other option values."""
    merged = {**{k: v for k, v in ruleset.option_values.items()
                 if v != ruleset.options[k].default}, **options}
    return load_ruleset(ruleset.path, merged)


__all__ = [
    "Assumption", "CardClass", "Deck", "Face", "KindRole", "MeldKind", "Option", "Order", "Role",
    "Ruleset", "Source", "Suit", "SuitStep", "bundled_rulesets", "load_ruleset", "normalise_quote",
    "resolve_path", "with_options",
]
