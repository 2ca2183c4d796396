"""Marriage's own ruleset sections: seeing the tiplu, the two ways to go out, and the settlement.

The maal (cards made wild by the tiplu) are the relations of the ruleset's chosen card
(``parameters: tiplu: relations:``), the shared mechanism every game reads; a player who has not
seen the tiplu names none, so no card is wild. Here they only name the maal kinds the settlement
pays for.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from solver.core.deck import Face
from solver.core.reader import RuleReader
from solver.core.rules import ChosenCard
from solver.core.source import Source
from solver.melding.game import MeldRules, read_meld_rules
from solver.melding.turn.routes import Requirement


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
    maal: ChosenCard | None = None  # the tiplu: its relations are the kinds of maal
    seeing: tuple[Requirement, ...] = ()
    settlement: Settlement | None = None

    def maal_kind(self, face: Face, chosen: Face | None) -> str | None:
        """Which maal a card is for the chosen card (its first relation to it), or None.

        >>> from solver.core.notation import Notation
        >>> from solver.core.ruleset import load_ruleset
        >>> rs = load_ruleset("marriage")
        >>> n = Notation.for_deck(rs.deck)
        >>> [rs.rules.maal_kind(n.parse(c), n.parse("SK")) for c in ("SK", "SA", "SQ", "HK", "S2")]
        ['tiplu', 'poplu', 'jhiplu', 'joker', None]
        >>> rs.rules.maal_kind(n.parse("HK"), n.parse("HA")), rs.rules.maal_kind(n.parse("H2"), n.parse("HA"))
        ('jhiplu', 'poplu')
        """
        return self.maal.relation_of(face, chosen) if self.maal is not None else None


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
        maal=next(iter(reader.chosen.values()), None),
        seeing=seeing,
        settlement=read_settlement(reader, d.get("settlement")),
    )


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
