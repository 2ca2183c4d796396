"""What an audit finds: contradictions, gaps, warnings and assumptions, each with its kind, its
source and the sentences on each side."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from solver.core.ruleset import Ruleset

SEVERITIES = ("contradiction", "gap", "warning", "assumption")

# The kind of defect a finding is, by the family of its id, where its maker does not name one.
KINDS = {
    "claim": "worked-example",  # a worked example or figure of the document its own rules refute
    "lost": "lost-text",  # an example or sentence whose symbols or picture are gone
    "deal": "deal",  # a deal against the deck
    "assumption": "assumption",  # what the ruleset decided where the document is silent
    "dead": "dead-rule",  # a meld size (or kind) no legal meld has
    "score-table": "unreachable-count",  # a points table listing counts no meld reaches
    "score-pattern": "table-pattern",  # a points table breaking its own growth
    "ambiguous": "ambiguity",  # cards two kinds both read, nothing deciding
}


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
    kind: str = "other"
    sides: list = field(default_factory=list)  # [{doc, quote, line, sentence}], the source first

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "severity": self.severity,
            "ruleset": self.ruleset,
            "source": self.source,
            "message": self.message,
            "claimed": self.claimed,
            "computed": self.computed,
            "witness": self.witness,
            "kind": self.kind,
            "sides": self.sides,
        }


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

    def add(
        self,
        key: str,
        severity: str,
        source,
        message: str,
        claimed: Any = None,
        computed: Any = None,
        witness: Any = None,
        *,
        kind: str | None = None,
        sides: list | None = None,
    ) -> Finding:
        """A finding of this ruleset: ``key`` names it under the ruleset's id; ``kind`` defaults to
        what the key's family finds (:data:`KINDS`); ``sides`` are further sources (the sentences a
        conflict sets against the source)."""
        found = Finding(
            f"{self.ruleset.id}/{key}",
            severity,
            self.ruleset.id,
            source_of(self.ruleset, source),
            message,
            claimed,
            computed,
            witness,
            kind or KINDS.get(key.split("/")[0], "other"),
            [source_of(self.ruleset, s) for s in (sides or [])],
        )
        self.findings.append(found)
        return found


def source_of(ruleset: Ruleset, src) -> dict:
    """A rule element's source as the audit reports it (the document alone when none is cited)."""
    if isinstance(src, dict):
        return {"doc": src.get("doc", ruleset.document), **{k: v for k, v in src.items() if k != "doc"}}
    if src is None:
        return {"doc": ruleset.document, "quote": None}
    return {"doc": src.doc, "quote": src.quote, **({"assumption": src.assumption} if src.assumption else {})}
