"""The phase a query names (``--phase``, ``"phase"``): one of the ruleset's ``phases:``, or none yet."""

from __future__ import annotations

from solver.core.errors import MeldsError
from solver.core.ruleset import Ruleset

NO_PHASE = "none"  # a field with no phase yet: every phase-bound kind is barred


def check_phase(ruleset: Ruleset, phase: str | None) -> None:
    """Refuse a phase the ruleset does not declare (``phases:``), naming those it does."""
    if phase in (None, NO_PHASE) or phase in {p.id for p in ruleset.phases}:
        return
    if not ruleset.phases:
        raise MeldsError(
            f'{ruleset.id} declares no phases (phases:), so it takes no --phase ("phase" in a batch line); '
            "a variant chosen by the table is an option: -o KEY=VALUE"
        )
    known = ", ".join(p.id for p in ruleset.phases)
    raise MeldsError(f"unknown phase {phase!r} for {ruleset.id} (phases: {known}, or none)")
