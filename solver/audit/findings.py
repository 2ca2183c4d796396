"""What an audit finds: contradictions, gaps, warnings and assumptions, each with its source."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from solver.core.ruleset import Ruleset

SEVERITIES = ("contradiction", "gap", "warning", "assumption")


@dataclass
class Finding:
    id: str
    severity: str
    ruleset: str
    source: dict
    message: str
    claimed: Any = None
    computed: Any = None
    witness: Any = None

    def to_json(self) -> dict:
        return {"id": self.id, "severity": self.severity, "ruleset": self.ruleset, "source": self.source,
                "message": self.message, "claimed": self.claimed, "computed": self.computed,
                "witness": self.witness}


@dataclass
class Audit:
    ruleset: Ruleset
    findings: list[Finding] = field(default_factory=list)
    claims_checked: int = 0
    claims_agreeing: int = 0
    kinds_searched: int = 0

    @property
    def contradictions(self) -> int:
        return sum(f.severity == "contradiction" for f in self.findings)

    def add(self, key: str, severity: str, source, message: str, claimed: Any = None, computed: Any = None,
            witness: Any = None) -> None:
        """A finding of this ruleset: ``key`` names it under the ruleset's id."""
        self.findings.append(Finding(f"{self.ruleset.id}/{key}", severity, self.ruleset.id,
                                     source_of(self.ruleset, source), message, claimed, computed, witness))


def source_of(ruleset: Ruleset, src) -> dict:
    """A rule element's source as the audit reports it (the document alone when none is cited)."""
    if isinstance(src, dict):
        return src
    if src is None:
        return {"doc": ruleset.document, "quote": None}
    return {"doc": src.doc, "quote": src.quote, **({"assumption": src.assumption} if src.assumption else {})}
