"""Sources: where a rule comes from — a sentence of a rule document, or an assumption of ours.

Every element of a ruleset may cite one. Quotes are compared with the documents after
:func:`normalise_quote` (documents space Japanese text irregularly).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# The rule documents the bundled rulesets quote, as received.
DOCUMENTS_DIR = Path(__file__).resolve().parent.parent.parent / "rulesets" / "documents"


@dataclass(frozen=True)
class Source:
    """Where a rule comes from: a document and a short quote, or an assumption of ours."""

    doc: str
    quote: str | None = None
    note: str | None = None
    assumption: str | None = None
    line: int | None = None  # line of the element in the ruleset file

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"doc": self.doc}
        if self.quote:
            out["quote"] = self.quote
        if self.assumption:
            out["assumption"] = self.assumption
        if self.line is not None:
            out["ruleset_line"] = self.line
        return out


def source_json(source: Source | None) -> dict[str, Any] | None:
    """A source as JSON, or None."""
    return source.to_json() if source is not None else None


def normalise_quote(text: str) -> str:
    """NFKC, without any white space: documents space Japanese text irregularly."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text))


def document_text(name: str, ruleset_path: str | Path | None = None) -> str:
    """The text of a rule document: beside the ruleset file, else among the bundled documents."""
    candidates = []
    if ruleset_path is not None:
        here = Path(ruleset_path).resolve().parent
        candidates += [here / name, here / "documents" / name]
    candidates.append(DOCUMENTS_DIR / name)
    for path in candidates:
        if path.is_file():
            from solver.core.textfile import read_text  # within melds' limits, any bytes named

            return read_text(path, "rule document")
    raise FileNotFoundError(name)
