"""The meld checker's answer (:class:`~solver.melding.meld.checker.MeldChecker`): legal or not,
the reading shown, the reasons of an illegal meld, and what each wild could stand for instead."""

from __future__ import annotations

from dataclasses import dataclass, field

from solver.core.deck import Face
from solver.core.rules import MeldKind
from solver.melding.meld.reading import Reading
from solver.melding.meld.reasons import Reason


@dataclass(frozen=True)
class Verdict:
    legal: bool
    faces: tuple[Face, ...]
    reading: Reading | None
    reasons: tuple[Reason, ...]
    readings: tuple[Reading, ...] = ()  # every kind's reading (several when ambiguous)
    could_be: dict = field(default_factory=dict)  # placement index -> other identities
    phase_required: str | None = None
    also: tuple[Reading, ...] = ()  # under ambiguity "any": the other kinds that read the cards too

    @property
    def every_reading(self) -> tuple[Reading, ...]:
        """The reading shown, then every other kind's that may stand for it (a player says which)."""
        return (self.reading, *self.also) if self.reading is not None else ()

    @property
    def kind(self) -> MeldKind | None:
        return self.reading.kind if self.reading else None
