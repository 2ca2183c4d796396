"""melds audit: the contradictions, gaps and assumptions of a rule document, through its ruleset.

Four sources of findings:

* **claims** (``claims:`` in a ruleset) — the document's worked examples and numbers, transcribed
  as the document states them, each checked with the real solver (the game's own checks, through
  the Game protocol: meld legality, waits, scores, words, actions in a position); a disagreement
  is a *contradiction*, with the claimed and the computed value side by side;
* **the game's searches** — what the game can look for beyond the claims (for melds: sizes no
  meld can have, kinds that read the same cards; for words: deals the tile set cannot make);
* **deals** — the cards a deal hands out, for every player count and deal option, against the
  deck: a deal that cannot be made is a *contradiction*, a player count it forgets a *gap*;
* **assumptions** — every assumption of the ruleset, with the quote that shows the gap;
* **declared defects** (``audit: defects:`` in a ruleset) — what a careful reading finds: rules
  that contradict each other, values or headings lost, a rule presupposing what may not exist
  yet, each with the sentences on both sides and, where a state shows it, the solver's witness
  (:mod:`solver.audit.defects`).

Every finding names its kind and its sides: the sentences of the document it sets against each
other, located (:mod:`solver.audit.sentences`).

Exit status of ``melds audit``: 0 when no finding is a contradiction, 1 otherwise.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from solver.audit.defects import declared_defects, mark_undefined
from solver.audit.findings import SEVERITIES, Audit
from solver.audit.sentences import Document
from solver.core.errors import MeldsError
from solver.core.files import document_of
from solver.core.game import ClaimCheck, Game
from solver.core.registry import load_game
from solver.core.ruleset import Ruleset
from solver.core.state import state_from_data

LOST = "lost"  # an example whose picture or symbols are gone: listed, not checkable


def audit_ruleset(ruleset: Ruleset, check: Callable[[], None] = lambda: None) -> Audit:
    """The audit of one ruleset. ``check`` (a budget's) is called before each claim and each
    search: a game's solver catches a budget's guard to answer undecided with its best so far, so
    past its deadline an audit's own checks are what end it in time."""
    audit = Audit(ruleset)
    game = load_game(ruleset)
    checks = claim_checks_of(game)
    check_claims(audit, checks, check)
    for search in game.audit_checks():
        check()
        search(audit)
    check_deal(audit)
    declared_defects(audit, checks)
    list_assumptions(audit)
    locate_sides(audit)
    order = {s: i for i, s in enumerate(SEVERITIES)}
    audit.findings.sort(key=lambda f: order[f.severity])
    return audit


def claim_checks_of(game: Game) -> dict[str, ClaimCheck]:
    """How a game's claims are checked, by claim kind: the moves' (``move``) and the game's own."""
    return {"move": move_claim(game), **game.claim_checks()}


def locate_sides(audit: Audit) -> None:
    """Each finding's sides — its source, then what it sets against it — with the sentences of
    the document each quote stands in (``line`` of the first, ``sentences`` their numbers)."""
    from solver.audit.coverage import load_document  # the documents are read once, when needed

    documents: dict[str, Document] = {}
    for f in audit.findings:
        sides = []
        for side in [f.source, *f.sides]:
            side = {"doc": side.get("doc") or audit.ruleset.document, "quote": side.get("quote")}
            if side in sides:
                continue
            if side["quote"]:
                if side["doc"] not in documents:
                    documents[side["doc"]] = load_document(side["doc"], audit.ruleset)
                doc = documents[side["doc"]]
                where = doc.locate(side["quote"])
                side["sentences"] = list(where)
                side["line"] = doc.sentences[where[0]].line if where else None
            sides.append(side)
        f.sides = sides


def check_claims(
    audit: Audit, checks: Mapping[str, ClaimCheck], budget_check: Callable[[], None] = lambda: None
) -> None:
    rs = audit.ruleset
    for claim in rs.claims:
        budget_check()
        if claim.kind == LOST:
            audit.add(
                f"lost/{claim.id}",
                "gap",
                claim.source,
                claim.note or "the example's picture is lost; nothing is left to check",
            )
            continue
        check = checks.get(claim.kind)
        if check is None:
            raise MeldsError(
                f"{rs.path}: claim {claim.id}: unknown kind {claim.kind!r} "
                f"(kinds of {rs.game} rulesets: {', '.join(checks)}, {LOST})"
            )
        audit.claims_checked += 1
        try:
            claimed, computed, witness = check(dict(claim.data))
        except MeldsError as exc:
            claimed, computed, witness = claim.data.get("legal", claim.data), f"error: {exc}", None
        if claimed == computed:
            audit.claims_agreeing += 1
            continue
        found = audit.add(
            f"claim/{claim.id}",
            "contradiction",
            claim.source,
            claim.note or f"the document's {claim.kind} example does not hold under its own rules",
            claimed,
            computed,
            witness,
        )
        mark_undefined(found, claim.data)


def move_claim(game: Game) -> ClaimCheck:
    """An action in a position (an inline state, as in state files) is legal or not."""

    def check(claim: Mapping[str, Any]):
        rs = game.ruleset
        document = document_of({"format": 1, "ruleset": rs.id, **claim["state"]}, f"{rs.path} (claim state)", rs)
        state = state_from_data(document.data, Path(rs.path), rs)
        judgement = game.moves().judge(state, claim["action"])
        return (
            claim["legal"],
            judgement.legal,
            {"action": claim["action"], "reasons": [r["message"] for r in judgement.reasons]},
        )

    return check


def check_deal(audit: Audit) -> None:
    """The deal table against the deck, for every player count the ruleset allows."""
    rs = audit.ruleset
    if rs.deal is None or rs.players is None:
        return
    deck = rs.deck.size
    for players in range(rs.players[0], rs.players[1] + 1):
        try:
            hand = rs.hand_size(players)
        except MeldsError:
            audit.add(f"deal/{players}", "gap", rs.deal.source, f"the deal says nothing for {players} players")
            continue
        need = players * hand + rs.deal.starter_discard
        if need > deck:
            audit.add(
                f"deal/{players}",
                "contradiction",
                rs.deal.source,
                f"{players} players × {hand} cards + {rs.deal.starter_discard} turned up = {need}, "
                f"more than the {deck} cards of the deck",
                need,
                deck,
            )


def list_assumptions(audit: Audit) -> None:
    rs = audit.ruleset
    for a in rs.assumptions:
        source = a.source if a.source else {"doc": rs.document, "quote": None}
        audit.add(
            f"assumption/{a.id}",
            "assumption",
            source,
            f"{a.text} — why: {a.reason}",
            witness={"option": a.option} if a.option else None,
        )
