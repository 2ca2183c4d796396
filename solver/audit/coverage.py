"""Coverage: every sentence of a rule document, whether it states a rule, which ruleset entries
cite it, and what the audit found there.

A ruleset cites its document by short quotes (:mod:`solver.core.source`); each quote is mapped to
the sentence(s) holding it (:meth:`solver.audit.sentences.Document.locate`). An *entry* is any
element of the ruleset that carries a quote (a meld kind, a role, an option, a claim, an
assumption…), named by its place in the file: ``RULESET/melds/KIND/roles/ROLE``.

Whether a sentence bears a rule is decided by a heuristic (:func:`looks_rule_bearing`) corrected
by the ruleset's own ``audit:`` section: ``rule_bearing`` lists the sentences it misses,
``not_rule_bearing`` those it wrongly takes, ``omitted`` the rule-bearing sentences the ruleset
leaves out on purpose, each with the reason. ``cites`` names further sentences an entry implements
besides the one its own quote names (a rule stated twice, a table row and the prose saying the
same): ``{entry: PATH, quote}``, the entry by its place in the file. A ruleset whose own entries
depart from the document on purpose (``departs:``, with the reason: a variant citing the sentences
it replaces) lends the document's coverage only what it inherits.

A sentence's status is the strongest of what touches it: ``contradiction`` (a contradiction found
there), ``gap`` (a gap or a warning), ``assumption`` (an assumption of the ruleset cites it, or an
entry that rests on one), ``modelled`` (an entry cites it), else ``unmodelled``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from solver.audit.findings import Audit, Finding
from solver.audit.sentences import Document, Sentence, split_document
from solver.core.errors import MeldsError
from solver.core.ruleset import Ruleset, looks_like_path, resolve_path, ruleset_data
from solver.core.source import document_text
from solver.core.yamlload import load_file

STATUSES = ("contradiction", "gap", "assumption", "modelled", "unmodelled")
FINDING_STATUS = {"contradiction": "contradiction", "gap": "gap", "warning": "gap", "assumption": "assumption"}
ID_KEYS = ("id", "check", "role")  # what names a list item in an entry's id (else its index)

# -- is it a rule? ------------------------------------------------------------------------------

META = re.compile(r"^\d{4}/\d{1,2}/\d{1,2}|https?://|トップに戻る|最終更新|^注\d+$|参照(下さい|にして下さい)")
# A sentence that only names what the one before it describes (「これを上がりと呼びます。」), gives
# another name (「…と呼ぶこともあります。」), leads into a list (「次のように行います。」), or asks (an
# FAQ's question, a caption's 「4,4か4,5か?」): no rule.
NAMING = re.compile(r"^これを.*(と呼びます|といいます|と言います)。?$|(と呼ぶこと[がも]あります|とも呼ばれます)。?$")
LEAD_IN = re.compile(r"次の(ように(行います|分けられます)|通りです|やり方もあります)[。:：]?$")
QUESTION = re.compile(r"[?？]$")
LABEL = re.compile(r"^[^\s、。:：]{1,20}[(（][A-Za-z][^)）]*[)）]$")  # 「シークエンス(Sequence)」: a heading
RULE_LABEL = re.compile(r"(役|可|翻|扱い|禁止|OK|まで|から|連順|枚組)$")
NORMATIVE = re.compile(
    r"(でき|出来)(る|ない|ます|ません)|可能|不可|禁止|認め|許|ならない|なりません|必要|必ず|いけない|いけません"
    r"|かまいません|構いません|制限|優先|成立|採用|有効|無し|あり|扱|とする|となる|となり|になる|になり"
    r"|である|とは|のこと|と呼|^(例えば|たとえば|例[:：])"
    r"|\b(must|may|can|cannot|counts?|wins?|loses?|draws?|is|are|has|have)\b"
)


def looks_rule_bearing(sentence: Sentence) -> bool:
    """A first judgement, corrected per document by the ruleset's lists: headings, dates, links,
    bare labels ("カード", "A", "注1", 「グループ(Group)」), questions, lead-ins to a list and
    sentences that only give a name state no rule; a table row, a list item, a sentence
    with a normative or defining word, a number, or a label naming a rule's place (「門前役」,
    「副露可」) does."""
    text = sentence.text
    if sentence.form == "heading" or META.search(text):
        return False
    bare = text.strip().rstrip("*!！ ")
    if NAMING.search(bare) or LEAD_IN.search(bare) or QUESTION.search(text.strip()) or LABEL.match(bare):
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
    return [
        Entry(node.id, node.doc, node.quote, node.assumed, node.line)
        for node in ruleset_nodes(ruleset).values()
        if node.quote is not None
    ]


@dataclass(frozen=True)
class Node:
    """An element of a ruleset file (a mapping), quoting or not: its id (the ruleset whose file gives
    it, then its place), its document, its quote if it has one, whether it rests on an assumption."""

    id: str
    doc: str
    quote: str | None
    assumed: bool
    line: int | None


def ruleset_nodes(ruleset: Ruleset) -> dict[str, Node]:
    """Every mapping of the ruleset file (and of those it extends) but the audit section, by its
    place in the file (``melds/set/roles/SW``); a node that only holds a ``source:`` is its owner's."""
    data = ruleset_data(ruleset)
    out: dict[str, Node] = {}
    documents: dict[str, str] = getattr(data, "documents", {})
    for key, value in data.items():
        if key != "audit":
            doc = documents.get(getattr(value, "file", None) or "", ruleset.document)
            _walk(value, [key], doc, False, out, ruleset.id, getattr(data, "lines", {}).get(key), documents)
    return out


@lru_cache(maxsize=64)
def _file_id(path: str) -> str | None:
    """The id a ruleset file gives itself (an inherited entry keeps the id of its own file)."""
    raw = load_file(path)
    return raw.get("id") if isinstance(raw, dict) else None


def _walk(
    node: Any,
    path: list[str],
    doc: str,
    assumed: bool,
    out: dict[str, Node],
    own: str,
    line: int | None,
    documents: dict[str, str],
) -> None:
    """Record ``node`` and what it holds; ``doc``: the document cited unless a node names its own
    or comes from a file of the extends chain that cites another (``documents``, by file)."""
    if isinstance(node, dict):
        assumed = assumed or bool(node.get("assumption")) or path[0] == "assumptions"
        line = getattr(node, "line", line)
        owner = "/".join(path[:-1] if path[-1] == "source" and len(path) > 1 else path)
        file = getattr(node, "file", None)
        doc = documents.get(file or "", doc)
        ruleset_id = (_file_id(file) if file else None) or own
        quote = node.get("quote") if isinstance(node.get("quote"), str) else None
        if owner not in out or (quote is not None and out[owner].quote is None):
            out[owner] = Node(f"{ruleset_id}/{owner}", node.get("doc", doc), quote, assumed, line)
        files = getattr(node, "files", {})
        for key, value in node.items():
            if key != "quote":
                given = (
                    _file_id(files[key]) if files.get(key) else None
                ) or ruleset_id  # a list: the file that gives it
                _walk(
                    value,
                    path + [str(key)],
                    doc,
                    assumed,
                    out,
                    given if isinstance(value, list) else own,
                    line,
                    documents,
                )
    elif isinstance(node, list):
        out.setdefault("/".join(path), Node(f"{own}/{'/'.join(path)}", doc, None, assumed, line))
        for i, item in enumerate(node):
            name = next(
                (str(item[k]) for k in ID_KEYS if isinstance(item, dict) and isinstance(item.get(k), str)), f"{i}"
            )
            _walk(item, path + [name], doc, assumed, out, own, line, documents)


# -- the audit section ------------------------------------------------------------------------------


@dataclass(frozen=True)
class CoverageLists:
    """A ruleset's corrections to the heuristic, its deliberate omissions, the further sentences
    its entries implement, and whether its own entries depart from the document."""

    rule_bearing: tuple[str, ...] = ()
    not_rule_bearing: tuple[str, ...] = ()
    omitted: tuple[tuple[str, str], ...] = ()  # (quote, reason)
    cites: tuple[tuple[str, Node, str], ...] = ()  # (the file that says so, the entry, a further sentence's quote)
    departs: str | None = None  # why the ruleset's own entries are not the document's encoding


def coverage_lists(ruleset: Ruleset) -> CoverageLists:
    """The ruleset's reading of its document: the lists of its own audit section and of the
    sections of the rulesets it extends, added up (a variant reads the document as its base does,
    and adds its own); ``departs`` is the ruleset's own."""
    sections = _audit_sections(ruleset)

    def items(key: str) -> list:
        return [item for _, section in sections for item in section.get(key) or []]

    nodes = ruleset_nodes(ruleset) if items("cites") else {}
    cites = []
    for origin, section in sections:
        for item in section.get("cites") or []:
            node = nodes.get(str(item["entry"]).strip("/"))
            if node is None:
                raise MeldsError(
                    f"{ruleset.path}: audit cites: no element {item['entry']!r} in the ruleset (an entry "
                    f"is named by its place in the file, e.g. melds/set/roles/SW)"
                )
            cites.append((origin, node, item["quote"]))
    return CoverageLists(
        tuple(item["quote"] for item in items("rule_bearing")),
        tuple(item["quote"] for item in items("not_rule_bearing")),
        tuple((item["quote"], item["reason"]) for item in items("omitted")),
        tuple(cites),
        sections[0][1].get("departs"),
    )


def _audit_sections(ruleset: Ruleset) -> list[tuple[str, dict]]:
    """The audit sections of the ruleset's file and of each file it extends, nearest first, each with
    the id of the file that gives it."""
    out: list[tuple[str, dict]] = []
    path: Path | None = Path(ruleset.path)
    seen: set[Path] = set()
    while path is not None and path.resolve() not in seen:
        seen.add(path.resolve())
        raw = load_file(str(path))
        raw = raw if isinstance(raw, dict) else {}
        out.append((str(raw.get("id") or ruleset.id), raw.get("audit") or {}))
        ref = raw.get("extends")
        path = None if not isinstance(ref, str) else (path.parent / ref if looks_like_path(ref) else resolve_path(ref))
    return out


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
        out = {
            "text": s.text,
            "line": s.line,
            "rule_bearing": self.rule_bearing,
            "cited_by": self.cited_by,
            "status": self.status,
            "index": s.index,
            "findings": [f.id for f in self.findings],
        }
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
        return {
            "doc": self.document.name,
            "rulesets": self.rulesets,
            "coverage": self.coverage,
            "rule_bearing": len(rule),
            "covered": sum(s.covered for s in rule),
            "omitted": sum(bool(s.omitted) and not s.covered for s in rule),
            "sentences": [s.to_json() for s in self.sentences],
        }


def load_document(name: str, ruleset: Ruleset) -> Document:
    try:
        text = document_text(name, ruleset.path)
    except FileNotFoundError:
        raise MeldsError(
            f"{ruleset.path}: document {name} not found (beside the ruleset, or among the bundled documents)"
        ) from None
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
    lists = {a.ruleset.id: coverage_lists(a.ruleset) for a in audits}
    departing = {rid for rid, ls in lists.items() if ls.departs}
    if departing == set(lists):
        departing = set()  # only variants read the document: what they cite is all there is to show
    reading = [a for a in audits if a.ruleset.id not in departing]
    entries: dict[str, Entry] = {}
    for audit in audits:
        for entry in ruleset_entries(audit.ruleset):
            if entry.doc == name and entry.id.split("/")[0] not in departing:
                entries.setdefault(entry.id, entry)
    unplaced = []
    for entry in entries.values():
        where = document.locate(entry.quote)
        if not where:
            unplaced.append(entry)
        for i in where:
            _cite(rows[i], entry)
    cited: dict[tuple, Node] = {}  # a cite the base file makes, read once: in the base ruleset if it is here
    for audit in reading:
        for origin, node, quote in lists[audit.ruleset.id].cites:
            key = (origin, node.id.split("/", 1)[1], quote)
            if key not in cited or audit.ruleset.id == origin:
                cited[key] = node
    for (_, _, quote), node in cited.items():
        if node.doc == name and node.id.split("/")[0] not in departing:
            entry = entries.setdefault(node.id, Entry(node.id, node.doc, quote, node.assumed, node.line))
            where = document.locate_all(quote)
            if not where:
                unplaced.append(Entry(node.id, node.doc, quote, node.assumed, node.line))
            for i in where:
                _cite(rows[i], entry)
    for audit in reading:
        lists_of = lists[audit.ruleset.id]
        for quote in lists_of.rule_bearing:
            for i in document.locate_all(quote):
                rows[i].rule_bearing = True
        for quote in lists_of.not_rule_bearing:
            for i in document.locate_all(quote):
                rows[i].rule_bearing = False
        for quote, reason in lists_of.omitted:
            for i in document.locate(quote):
                rows[i].omitted = reason
        for finding in audit.findings:
            for side in finding.sides:
                if side.get("doc") == name and side.get("sentences"):
                    for i in side["sentences"]:
                        if finding not in rows[i].findings:
                            rows[i].findings.append(finding)
    return DocumentCoverage(document, [a.ruleset.id for a in reading], rows, entries, unplaced)


def _cite(row: SentenceCoverage, entry: Entry) -> None:
    _once(row.cited_by, entry.id)
    if entry.assumption:
        _once(row.assumed_by, entry.id)


def _once(items: list, item) -> None:
    if item not in items:
        items.append(item)
