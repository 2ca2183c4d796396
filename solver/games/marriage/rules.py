"""Marriage's own ruleset sections: the maal (cards made wild by the tiplu), seeing the tiplu, the
two ways to go out, and the settlement.

The maal are wild only for a player who has seen the tiplu, so the roles a card may play depend
on the query: :class:`MaalGate` tells the meld models which role entries are open to a card for
the tiplu given (``if_maal:`` on a role or on a meld kind's role entry).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from solver.core.deck import Face
from solver.core.reader import RuleReader
from solver.core.rules import MeldKind
from solver.core.source import Source
from solver.melding.game import MeldRules, read_meld_rules
from solver.melding.turn.routes import Requirement


@dataclass(frozen=True)
class MaalKind:
    id: str
    name: str
    suit: str  # same | other | same-colour
    offset: int
    source: Source | None


@dataclass(frozen=True)
class Maal:
    """Cards made wild by a chosen card (the tiplu): each kind relates a card to it by suit
    (same, other, same colour) and rank (an offset along a rank cycle)."""

    parameter: str
    cycle: tuple[str, ...]
    colours: Mapping[str, str]
    kinds: tuple[MaalKind, ...]  # those the options enable
    source: Source | None

    def kind_of(self, face: Face, chosen: Face | None) -> str | None:
        """Which maal a card is for the chosen card, or None.

        >>> from solver.core.notation import Notation
        >>> from solver.core.ruleset import load_ruleset
        >>> rs = load_ruleset("marriage")
        >>> n = Notation.for_deck(rs.deck)
        >>> [rs.rules.maal_kind(n.parse(c), n.parse("SK")) for c in ("SK", "SA", "SQ", "HK", "S2")]
        ['tiplu', 'poplu', 'jhiplu', 'joker', None]
        >>> rs.rules.maal_kind(n.parse("HK"), n.parse("HA")), rs.rules.maal_kind(n.parse("H2"), n.parse("HA"))
        ('jhiplu', 'poplu')
        """
        if chosen is None or face.rank not in self.cycle or chosen.rank not in self.cycle:
            return None
        i, j = self.cycle.index(face.rank), self.cycle.index(chosen.rank)
        same = face.suit == chosen.suit
        for kind in self.kinds:
            if (j + kind.offset) % len(self.cycle) != i:
                continue
            if kind.suit == "same" and same:
                return kind.id
            if kind.suit == "other" and not same:
                return kind.id
            if kind.suit == "same-colour" and not same and self.colours.get(face.suit) == self.colours.get(chosen.suit):
                return kind.id
        return None


@dataclass(frozen=True)
class Settlement:
    seen: int
    unseen: int
    dublee_bonus: int
    card_points: Mapping[str, tuple[int, ...]]  # maal kind -> points for holding 1, 2, 3
    marriage: int
    dealt_tunnela: Mapping[str, int]  # maal kind of the tunnela's card (plain) -> points
    sources: Mapping[str, Source | None]


@dataclass(frozen=True, eq=False)
class MarriageRules(MeldRules):
    maal: Maal | None = None
    seeing: tuple[Requirement, ...] = ()
    settlement: Settlement | None = None
    gated: Mapping[tuple[str, int], frozenset[str]] = field(default_factory=dict)  # (kind, role entry) -> maal kinds

    def maal_kind(self, face: Face, chosen: Face | None) -> str | None:
        return self.maal.kind_of(face, chosen) if self.maal is not None else None


class MaalGate:
    """Role entries open to a card only when it is maal of the right kind for the tiplu the
    query gives (a player who has not seen the tiplu gives none: no card is wild)."""

    def __init__(self, rules: MarriageRules):
        self.rules = rules

    def conditional(self, kind: MeldKind, entry: int) -> bool:
        return (kind.id, entry) in self.rules.gated

    def open(self, kind: MeldKind, entry: int, face: Face, params: Mapping[str, Any] | None) -> bool:
        need = self.rules.gated.get((kind.id, entry))
        if need is None:
            return True
        maal = self.rules.maal
        chosen = (params or {}).get(maal.parameter) if maal is not None else None
        return self.rules.maal_kind(face, chosen) in need


def read_rules(reader: RuleReader) -> MarriageRules:
    d = reader.data
    base = read_meld_rules(reader)
    seeing = tuple(
        Requirement(
            frozenset(reader.check_ids(r["kinds"], reader.kind_ids, "meld kind", f"seeing_tiplu[{i}].kinds")),
            r["count"],
            reader.source(r),
        )
        for i, r in enumerate(d.get("seeing_tiplu", []))
    )
    return MarriageRules(
        **vars(base),
        maal=read_maal(reader, d.get("maal")),
        seeing=seeing,
        settlement=read_settlement(reader, d.get("settlement")),
        gated=read_gates(reader),
    )


def read_maal(reader: RuleReader, raw: Mapping | None) -> Maal | None:
    if raw is None:
        return None
    cycle = reader.expand_ranks(raw["rank_cycle"], "maal.rank_cycle")
    kinds = tuple(
        MaalKind(k["id"], k.get("name", k["id"]), k["suit"], k["offset"], reader.source(k))
        for i, k in enumerate(raw["kinds"])
        if reader.enabled(k, f"maal.kinds[{i}]", key="enabled_if")
    )
    return Maal(raw["parameter"], cycle, dict(raw.get("colours", {})), kinds, reader.source(raw))


def read_settlement(reader: RuleReader, raw: Mapping | None) -> Settlement | None:
    if raw is None:
        return None
    game = raw.get("game_payment", {})
    maal = raw.get("maal_points", {})
    sources = {
        "game": reader.source(game),
        "formula": reader.source(raw.get("formula")),
        "exchange": reader.source(raw.get("exchange")),
        "maal": reader.source(maal),
        "dublee": reader.source({"source": game["dublee_source"]}) if "dublee_source" in game else None,
    }
    return Settlement(
        game.get("seen", 0),
        game.get("unseen", 0),
        game.get("dublee_bonus", 0),
        {k: tuple(v) for k, v in maal.get("cards", {}).items()},
        maal.get("marriage", 0),
        dict(maal.get("dealt_tunnela", {})),
        sources,
    )


def read_gates(reader: RuleReader) -> dict[tuple[str, int], frozenset[str]]:
    """The maal kinds each gated role entry needs: the role's ``if_maal`` and the entry's, both
    holding when both are given."""
    by_role = {r["id"]: frozenset(r["if_maal"]) for r in reader.data.get("roles", []) if "if_maal" in r}
    gated = {}
    for raw, kind in zip(reader.data.get("melds", []), reader.kinds, strict=True):
        for j, entry in enumerate(raw["roles"]):
            entry = entry if isinstance(entry, Mapping) else {"role": entry}
            own = frozenset(entry["if_maal"]) if "if_maal" in entry else None
            role = by_role.get(entry["role"])
            need = own if role is None else role if own is None else role & own
            if need is not None:
                gated[(kind.id, j)] = need
    return gated
