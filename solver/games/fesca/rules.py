"""Fesca's own ruleset sections: the field phase a 陰陽 discard sets, which melds a phase lets a
player touch, the restrictions before one's own first meld, and the sources of the scoring rules.
(The table operations are a shared melding mechanism: :mod:`solver.melding.game` reads them.)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from solver.core.deck import Face
from solver.core.reader import RuleReader
from solver.core.source import Source
from solver.melding.game import MeldRules, read_meld_rules


@dataclass(frozen=True)
class PhaseChange:
    """Discarding a card of these classes sets the phase by its rank's parity."""

    classes: frozenset[str]
    odd: str
    even: str
    start: str | None  # the phase before any such discard, under the options (None: no phase yet)
    values: Mapping[str, int]  # rank id -> its value (the parity is the value's)
    source: Source | None

    def after(self, face: Face, phase: str | None) -> str | None:
        """The field phase after discarding ``face``."""
        if face.cls not in self.classes:
            return phase
        rank = face.rank or ""
        value = self.values.get(rank)
        return self.odd if int(value if value is not None else rank) % 2 else self.even


@dataclass(frozen=True, eq=False)
class FescaRules(MeldRules):
    phase_change: PhaseChange | None = None
    phase_touch_source: Source | None = None
    restriction_sources: Mapping[str, Source | None] = field(default_factory=dict)
    scoring_sources: Mapping[str, Source | None] = field(default_factory=dict)

    @property
    def start_phase(self) -> str | None:
        return self.phase_change.start if self.phase_change is not None else None

    def phase_after(self, face: Face | None, phase: str | None) -> str | None:
        if face is None or self.phase_change is None:
            return phase
        return self.phase_change.after(face, phase)


def read_rules(reader: RuleReader) -> FescaRules:
    d = reader.data
    base = read_meld_rules(reader)
    return FescaRules(
        **vars(base),
        phase_change=read_phase_change(reader, d.get("phase_change")),
        phase_touch_source=reader.source(d.get("phase_touch")),
        restriction_sources=reader.sources(d.get("restrictions")),
        scoring_sources=reader.sources(d.get("scoring")),
    )


def read_phase_change(reader: RuleReader, raw: Mapping | None) -> PhaseChange | None:
    if raw is None:
        return None
    reader.check_ids(raw["on_discard_classes"], reader.class_ids, "card class", "phase_change.on_discard_classes")
    phase_ids = [p.id for p in reader.phases]
    for key in ("odd", "even"):
        if raw[key] not in phase_ids:
            reader.fail(raw, key, f"unknown phase {raw[key]!r}", f"phase_change.{key}")
    option = raw.get("start", {}).get("option")
    if option is not None and option not in reader.options:
        reader.fail(raw, "start", f"unknown option {option!r}", "phase_change.start")
    start = reader.values[option] if option is not None else None
    values = {r.id: r.value for r in reader.deck.ranks if r.value is not None}
    return PhaseChange(
        frozenset(raw["on_discard_classes"]),
        raw["odd"],
        raw["even"],
        None if start == "none" else start,
        values,
        reader.source(raw),
    )
