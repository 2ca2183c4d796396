"""Rummikub's own ruleset section (``rummikub:``): what the initial meld must reach and where its
tiles come from, the free rearrangement of the table after it, and a joker's penalty."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from solver.core.reader import RuleReader
from solver.core.source import Source
from solver.melding.game import MeldRules, read_meld_rules


@dataclass(frozen=True, eq=False)
class RummikubRules(MeldRules):
    initial_meld: int = 30  # the points the new sets of a first placement must reach
    joker_penalty: int = 30  # a joker left on a rack at the end
    sources: Mapping[str, Source | None] = field(default_factory=dict)  # rule -> where it is stated


def read_rules(reader: RuleReader) -> RummikubRules:
    section = reader.require("rummikub", "Rummikub's table rules: the initial meld and free rearrangement")
    initial = section["initial_meld"]
    penalty = section.get("joker_penalty") or {}
    sources = {
        "initial_meld": reader.source(initial),
        "hand_only": reader.source(initial.get("hand_only")),
        "joker_value": reader.source(initial.get("joker")),
        "rearrange": reader.source(section.get("rearrange")),
        "table_stays": reader.source(section.get("table_stays")),
        "draw": reader.source(section.get("draw")),
        "joker_penalty": reader.source(penalty),
    }
    return RummikubRules(
        **vars(read_meld_rules(reader)),
        initial_meld=reader.option_value(initial["points"], 30),
        joker_penalty=reader.option_value(penalty.get("points"), 30),
        sources=sources,
    )
