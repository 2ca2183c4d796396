"""Defects found by reading a document, declared in its ruleset's ``audit: defects:`` list, each
shown with the solver where a state shows it.

A declared defect names its kind (:data:`DEFECT_KINDS`), the sentences on each side (``sides``,
quotes of the document) and what is wrong (``message``). How it is shown:

* ``witness:`` — claims (as in ``claims:``) on the one state where the sides demand opposite
  answers, each stating what one side demands. The solver answers each claim under the ruleset's
  rules; a claim it answers otherwise is the other side's answer, so the conflict is *shown*, and
  the claims with both answers are the finding's witness;
* ``found_by:`` — the id of a finding of one of the audit's own searches (a meld kind no card set
  can make for some value of a parameter, …): the search's witness becomes the defect's and its
  bare finding gives way to the declared one, which says what it means;
* neither — a defect of the text itself (values or headings lost, a rule that presupposes what may
  not exist yet): listed with its sides, no witness.

``annotate:`` adds the other side to a finding the audit makes itself (a worked example refuted by
a table a few lines above: the table's row).

A witness that no longer shows the conflict (the ruleset changed) is reported, not hidden: the
finding stays, marked ``reproduced: false``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from solver.audit.findings import Audit, Finding
from solver.core.errors import MeldsError
from solver.core.game import ClaimCheck
from solver.core.ruleset import ruleset_data

DEFECT_KINDS = {
    "rule-conflict": "two rules demand opposite answers on one state",
    "faq-contradiction": "an FAQ answer contradicts the body",
    "worked-example": "a worked example or figure its own rules refute",
    "one-seat-figure": "a figure that adds up for one seat only",
    "missing-values": "numbers the text lists without values",
    "lost-text": "a heading, table row, symbol or example lost from the text",
    "presupposition": "a rule that assumes something that may not exist yet",
    "stock-overdraw": "a draw of more than the stock can hold",
    "undefined-rule": "a rule the document names but never defines",
}


def declared_defects(audit: Audit, checks: Mapping[str, ClaimCheck]) -> None:
    rs = audit.ruleset
    section = ruleset_data(rs).get("audit") or {}
    for item in section.get("defects") or []:
        sides = [dict(side) for side in item.get("sides", [])]
        if not sides:
            raise MeldsError(f"{rs.path}: audit defect {item['id']}: give the sentences on each side (sides:)")
        claimed = computed = witness = None
        message = item["message"]
        if "witness" in item:
            witness, shown = _run_witness(rs.path, item, checks)
            if not shown:
                message += " (the solver no longer shows it: every witness claim holds under the ruleset)"
        elif "found_by" in item:
            search = next((f for f in audit.findings if f.id == f"{rs.id}/{item['found_by']}"), None)
            if search is None:
                witness = {"reproduced": False, "found_by": item["found_by"]}
                message += f" (the search {item['found_by']} no longer finds it)"
            else:
                audit.findings.remove(search)
                claimed, computed = search.claimed, search.computed
                witness = {"reproduced": True, "found_by": search.id, "search": search.message, "cards": search.witness}
        audit.add(
            f"defect/{item['id']}",
            item.get("severity", "contradiction"),
            sides[0],
            message,
            claimed,
            computed,
            witness,
            kind=item["kind"],
            sides=sides[1:],
        )
    for note in section.get("annotate") or []:
        found = next((f for f in audit.findings if f.id == f"{rs.id}/{note['finding']}"), None)
        if found is None:
            continue  # the finding is gone (the document or the ruleset changed): nothing to annotate
        found.sides += [dict(side) for side in note["sides"]]
        found.kind = note.get("kind", found.kind)


def _run_witness(path: str, item: Mapping[str, Any], checks: Mapping[str, ClaimCheck]) -> tuple[dict, bool]:
    """The witness claims checked: each with what it demands and what the solver answers."""
    rows, shown = [], False
    for i, claim in enumerate(item["witness"]):
        check = checks.get(claim["kind"])
        if check is None:
            raise MeldsError(
                f"{path}: audit defect {item['id']}: witness {i}: unknown claim kind {claim['kind']!r} "
                f"(kinds: {', '.join(checks)})"
            )
        data = {k: v for k, v in claim.items() if k not in ("kind", "note")}
        try:
            claimed, computed, seen = check(data)
        except MeldsError as exc:
            claimed, computed, seen = data.get("legal", data), f"error: {exc}", None
        differs = claimed != computed
        shown = shown or differs
        rows.append(
            {
                "kind": claim["kind"],
                "note": claim.get("note"),
                "claimed": claimed,
                "computed": computed,
                "differs": differs,
                "detail": seen,
            }
        )
    return {"reproduced": shown, "claims": rows}, shown


def mark_undefined(finding: Finding, claim_data: Mapping[str, Any]) -> None:
    """A claim about a rule the document names but never defines (``undefined: [field]``): when the
    claimed and computed values differ only there, the solver's answer rests on our reading of that
    rule — an assumption, not a contradiction."""
    undefined = set(claim_data.get("undefined") or ())
    claimed, computed = finding.claimed, finding.computed
    if not undefined or not isinstance(claimed, dict) or not isinstance(computed, dict):
        return
    differing = {k for k in set(claimed) | set(computed) if claimed.get(k) != computed.get(k)}
    if differing and differing <= undefined:
        finding.severity, finding.kind = "assumption", "undefined-rule"
