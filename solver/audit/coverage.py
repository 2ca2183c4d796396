"""Coverage: every sentence of a rule document, whether it states a rule, which ruleset entries
cite it, and what the audit found there.

A ruleset cites its document by short quotes (:mod:`solver.core.source`); each quote is mapped to
the sentence(s) holding it (:meth:`solver.audit.sentences.Document.locate`). An *entry* is any
element of the ruleset that carries a quote (a meld kind, a role, an option, a claim, an
assumption…), named by its place in the file: ``RULESET/melds/KIND/roles/ROLE``.

Whether a sentence bears a rule is decided by a heuristic (:func:`looks_rule_bearing`) corrected
by the ruleset's own ``audit:`` section: ``rule_bearing`` lists the sentences it misses,
``not_rule_bearing`` those it wrongly takes, ``omitted`` the rule-bearing sentences the ruleset
leaves out on purpose, each with the reason.

A sentence's status is the strongest of what touches it: ``contradiction`` (a contradiction found
there), ``gap`` (a gap or a warning), ``assumption`` (an assumption of the ruleset cites it, or an
entry that rests on one), ``modelled`` (an entry cites it), else ``unmodelled``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Iterable

from solver.audit.findings import Audit, Finding
from solver.audit.sentences import Document, Sentence, split_document
from solver.core.errors import MeldsError
from solver.core.ruleset import Ruleset, ruleset_data
from solver.core.source import document_text
from solver.core.yamlload import load_file

STATUSES = ("contradiction", "gap", "assumption", "modelled", "unmodelled")
FINDING_STATUS = {"contradiction": "contradiction", "gap": "gap", "warning": "gap", "assumption": "assumption"}
ID_KEYS = ("id", "check", "role")  # what names a list item in an entry's id (else its index)

# -- is it a rule? ------------------------------------------------------------------------------

META = re.compile(r"^\d{4}/\d{1,2}/\d{1,2}|https?://|トップに戻る|最終更新|^注\d+$|参照(下さい|にして下さい)")
RULE_LABEL = re.compile(r"(役|可|翻|扱い|禁止|OK|まで|から|連順|枚組)$")
NORMATIVE = re.compile(
    r"(でき|出来)(る|ない|ます|ません)|可能|不可|禁止|認め|許|ならない|なりません|必要|必ず|いけない|いけません"
    r"|かまいません|構いません|制限|優先|成立|採用|有効|無し|あり|扱|とする|となる|となり|になる|になり"
    r"|である|とは|のこと|と呼|^(例えば|たとえば|例[:：])"
    r"|\b(must|may|can|cannot|counts?|wins?|loses?|draws?|is|are|has|have)\b")


def looks_rule_bearing(sentence: Sentence) -> bool:
    """A first judgement, corrected per document by the ruleset's lists: headings, dates, links
    and bare labels ("カード", "A", "注1") state no rule; a table row, a list item, a sentence
    with a normative or defining word, a number, or a label naming a rule's place (「門前役」,
    「副露可」) does."""
    text = sentence.text
    if sentence.form == "heading" or META.search(text):
        return False
    if sentence.form in ("row", "item") or NORMATIVE.search(text):
        return True
    compact = re.sub(r"\s+", "", text)
    if len(compact) <= 12:
        return bool(RULE_LABEL.search(compact) or re.search(r"\d", compact) and re.search(r"[点枚人組]", compact))
    return True


# -- entries --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """A ruleset element that cites a document."""

    id: str
    doc: str
    quote: str
    assumption: bool
    ruleset_line: int | None = None


def ruleset_entries(ruleset: Ruleset) -> list[Entry]:
    """Every element of the ruleset (and of the rulesets it extends) that quotes a document, named
    by its place in the file under the id of the ruleset whose file gives it."""
    data = ruleset_data(ruleset)
    out: list[Entry] = []
    for key, value in data.items():
        if key != "audit":
            _walk(value, [key], ruleset.document, False, out, ruleset.id, getattr(data, "lines", {}).get(key))
    return out


@lru_cache(maxsize=64)
def _file_id(path: str) -> str | None:
    """The id a ruleset file gives itself (an inherited entry keeps the id of its own file)."""
    raw = load_file(path)
    return raw.get("id") if isinstance(raw, dict) else None


def _walk(node: Any, path: list[str], doc: str, assumed: bool, out: list[Entry], own: str,
          line: int | None) -> None:
    if isinstance(node, dict):
        assumed = assumed or bool(node.get("assumption")) or path[0] == "assumptions"
        line = getattr(node, "line", line)
        if isinstance(node.get("quote"), str):
            owner = path[:-1] if path[-1] == "source" else path
            file = getattr(node, "file", None)
            ruleset_id = (_file_id(file) if file else None) or own
            out.append(Entry(f"{ruleset_id}/{'/'.join(owner)}", node.get("doc", doc), node["quote"], assumed, line))
        for key, value in node.items():
            if key != "quote":
                _walk(value, path + [str(key)], doc, assumed, out, own, line)
    elif isinstance(node, list):
        for i, item in enumerate(node):
            name = next((str(item[k]) for k in ID_KEYS if isinstance(item, dict) and isinstance(item.get(k), str)),
                        f"{i}")
            _walk(item, path + [name], doc, assumed, out, own, line)


# -- the audit section ------------------------------------------------------------------------------


@dataclass(frozen=True)
class CoverageLists:
    """A ruleset's corrections to the heuristic, and its deliberate omissions."""

    rule_bearing: tuple[str, ...] = ()
    not_rule_bearing: tuple[str, ...] = ()
    omitted: tuple[tuple[str, str], ...] = ()  # (quote, reason)


def coverage_lists(ruleset: Ruleset) -> CoverageLists:
    section = ruleset_data(ruleset).get("audit") or {}

    def quotes(key: str) -> tuple[str, ...]:
        return tuple(item["quote"] for item in section.get(key) or [])

    return CoverageLists(quotes("rule_bearing"), quotes("not_rule_bearing"),
                         tuple((item["quote"], item["reason"]) for item in section.get("omitted") or []))


# -- per document ------------------------------------------------------------------------------------


@dataclass
class SentenceCoverage:
    sentence: Sentence
    rule_bearing: bool
    cited_by: list[str] = field(default_factory=list)
    assumed_by: list[str] = field(default_factory=list)  # the citing entries that rest on an assumption
    findings: list[Finding] = field(default_factory=list)
    omitted: str | None = None

    @property
    def status(self) -> str:
        severities = {FINDING_STATUS[f.severity] for f in self.findings}
        for status in ("contradiction", "gap", "assumption"):
            if status in severities or (status == "assumption" and self.assumed_by):
                return status
        return "modelled" if self.cited_by else "unmodelled"

    @property
    def covered(self) -> bool:
        return bool(self.cited_by)

    def to_json(self) -> dict:
        s = self.sentence
        out = {"text": s.text, "line": s.line, "rule_bearing": self.rule_bearing, "cited_by": self.cited_by,
               "status": self.status, "index": s.index, "findings": [f.id for f in self.findings]}
        if self.omitted:
            out["omitted"] = self.omitted
        return out


@dataclass
class DocumentCoverage:
    document: Document
    rulesets: list[str]
    sentences: list[SentenceCoverage]
    entries: dict[str, Entry]
    unplaced: list[Entry]  # entries whose quote is not in the document

    @property
    def rule_bearing(self) -> list[SentenceCoverage]:
        return [s for s in self.sentences if s.rule_bearing]

    @property
    def coverage(self) -> float:
        rule = self.rule_bearing
        return round(sum(s.covered for s in rule) / len(rule), 4) if rule else 1.0

    def to_json(self) -> dict:
        rule = self.rule_bearing
        return {"doc": self.document.name, "rulesets": self.rulesets, "coverage": self.coverage,
                "rule_bearing": len(rule), "covered": sum(s.covered for s in rule),
                "omitted": sum(bool(s.omitted) and not s.covered for s in rule),
                "sentences": [s.to_json() for s in self.sentences]}


def load_document(name: str, ruleset: Ruleset) -> Document:
    try:
        text = document_text(name, ruleset.path)
    except FileNotFoundError:
        raise MeldsError(f"{ruleset.path}: document {name} not found (beside the ruleset, or among the bundled "
                         f"documents)") from None
    return split_document(name, text)


def document_coverage(audits: Iterable[Audit]) -> list[DocumentCoverage]:
    """The coverage of each document the audits' rulesets encode (rulesets sharing a document —
    a variant that extends another — are read together, each entry once)."""
    by_doc: dict[str, list[Audit]] = {}
    for audit in audits:
        by_doc.setdefault(audit.ruleset.document, []).append(audit)
    return [_cover(name, group) for name, group in by_doc.items()]


def _cover(name: str, audits: list[Audit]) -> DocumentCoverage:
    document = load_document(name, audits[0].ruleset)
    rows = [SentenceCoverage(s, looks_rule_bearing(s)) for s in document.sentences]
    entries: dict[str, Entry] = {}
    for audit in audits:
        for entry in ruleset_entries(audit.ruleset):
            if entry.doc == name:
                entries.setdefault(entry.id, entry)
    unplaced = []
    for entry in entries.values():
        where = document.locate(entry.quote)
        if not where:
            unplaced.append(entry)
        for i in where:
            _once(rows[i].cited_by, entry.id)
            if entry.assumption:
                _once(rows[i].assumed_by, entry.id)
    for audit in audits:
        lists = coverage_lists(audit.ruleset)
        for quote in lists.rule_bearing:
            for i in document.locate_all(quote):
                rows[i].rule_bearing = True
        for quote in lists.not_rule_bearing:
            for i in document.locate_all(quote):
                rows[i].rule_bearing = False
        for quote, reason in lists.omitted:
            for i in document.locate(quote):
                rows[i].omitted = reason
        for finding in audit.findings:
            for side in finding.sides:
                if side.get("doc") == name and side.get("sentences"):
                    for i in side["sentences"]:
                        if finding not in rows[i].findings:
                            rows[i].findings.append(finding)
    return DocumentCoverage(document, [a.ruleset.id for a in audits], rows, entries, unplaced)


def _once(items: list, item) -> None:
    if item not in items:
        items.append(item)
