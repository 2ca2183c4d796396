"""What an audit searches for in a game of melds, beyond the document's claims.

* **rules that never apply** — for every meld kind and every size its rule allows, a SAT search
  for a legal meld (the kind's model with "exactly n cards present" added); none is a *warning*
  that the size (or the kind) is dead letter; so is a points table that lists counts no meld
  reaches, and a table that breaks its own growth pattern is a contradiction;
* **rules that disagree** — without an ``ambiguity:`` rule, a SAT search on two kinds' models
  joined on the cards present finds a card set both read (a *gap*: nothing decides it);
* **rules that cancel under a parameter** — for every value of a query parameter (the chosen card
  that makes wilds), every kind whose roles hang on it: a SAT search for any legal meld. A kind
  that some values leave without a single legal meld is one whose defining rules cannot all hold
  for those values (a chosen card whose neighbours make a sequence that does not connect).
"""

from __future__ import annotations

import itertools

from solver.audit.findings import Audit
from solver.core.rules import MeldKind
from solver.melding.meld.checker import MeldChecker
from solver.melding.meld.encode import KindModel
from solver.sat import encodings
from solver.sat.pool import VarPool
from solver.sat.solvers import SMALL, SatSolver


def dead_sizes(audit: Audit, checker: MeldChecker) -> None:
    """For each meld kind and size, is there any legal meld at all? A SAT search per (kind, size).
    A kind whose roles hang on a query parameter is searched, on the same models, for each value of
    the parameter too (:func:`dead_with_parameter`)."""
    rs = audit.ruleset
    for kind in rs.kinds:
        largest = min(kind.largest, sum(rs.deck.copies.values()))
        dead = []
        live: dict[str, set] = {p: set() for p in rs.parameters} if _gated(checker, kind) else {}
        for n in range(kind.size_min, largest + 1):
            audit.kinds_searched += 1
            model = KindModel(rs.deck, kind, n, checker.steps(kind), checker.gate).build()
            try:
                model.live_solver.extend(encodings.exactly(model.pres, n, model.pool))
                if not model.live_solver.solve(model.selectors()):
                    dead.append(n)
                    continue
                for param, found in live.items():
                    found.update(
                        face
                        for face in rs.deck.faces
                        if face not in found and model.live_solver.solve(_with_value(checker, model, param, face))
                    )
            finally:
                model.close()
        score_table(audit, kind, largest, dead)
        dead_with_parameter(audit, checker, kind, live)
        if dead:
            sizes = _ranges(dead)
            whole = len(dead) == largest - kind.size_min + 1
            audit.add(
                f"dead/{kind.id}",
                "warning",
                kind.source,
                (
                    f"no meld of kind {kind.name} ({kind.id}) can ever be legal"
                    if whole
                    else f"{kind.name} ({kind.id}) allows {kind.size_min}–{largest} cards,"
                    f" but no legal meld has {sizes}"
                ),
                {"sizes": [kind.size_min, largest]},
                {"impossible_sizes": dead},
            )


def score_table(audit: Audit, kind: MeldKind, largest: int, dead: list[int]) -> None:
    """A score table against the melds the kind allows (a count no meld reaches is dead letter)
    and against its own pattern (the documents' tables grow by a constant factor — ×2, ×3 — and
    elide their middle with "...": every filled-in value must keep that factor)."""
    table = kind.score
    if table is None:
        return
    unreachable = [n for n in sorted(table.points_by_count) if n > largest or n in dead]
    if unreachable:
        audit.add(
            f"score-table/{kind.id}",
            "warning",
            table.source,
            f"the points table of {kind.name} ({kind.id}) lists {_ranges(unreachable)}, but no legal "
            f"{kind.name} has that many (at most {largest})",
            {"counts": sorted(table.points_by_count)},
            {"unreachable": unreachable},
        )
    counts = sorted(table.points_by_count)
    points = table.points_by_count
    if len(counts) >= 3 and points[counts[0]]:
        factor = points[counts[1]] / points[counts[0]]
        broken = [b for a, b in itertools.pairwise(counts) if b == a + 1 and points[b] != factor * points[a]]
        if broken:
            audit.add(
                f"score-pattern/{kind.id}",
                "contradiction",
                table.source,
                f"the points table of {kind.name} grows ×{factor:g} but breaks the pattern at {broken[0]} cards",
                {"points": dict(points)},
                {"factor": factor, "breaks_at": broken[0]},
            )


def _ranges(values: list[int]) -> str:
    out: list[str] = []
    start: int | None = values[0]
    for a, b in zip(values, [*values[1:], None], strict=True):
        if b != a + 1:
            out.append(f"{start}" if start == a else f"{start}–{a}")
            start = b
    return ", ".join(out) + " cards"


def ambiguous_kinds(audit: Audit, checker: MeldChecker) -> None:
    """Without an ``ambiguity:`` section, a card set that two kinds both read is a gap the ruleset
    leaves to a default. Searched with SAT: the two kinds' models joined on the cards present."""
    rs = audit.ruleset
    if rs.ambiguity_stated:
        return  # the ruleset says how such melds are judged (an uncited rule is the coverage's to report)
    kinds = list(rs.kinds)
    for i, a in enumerate(kinds):
        for b in kinds[i + 1 :]:
            if a.family == b.family:
                continue
            for n in range(max(a.size_min, b.size_min), min(a.largest, b.largest) + 1):
                shown = _joint_witness(checker, a, b, n)
                if shown is not None:
                    audit.add(
                        f"ambiguous/{a.id}+{b.id}",
                        "gap",
                        a.source,
                        f"{shown} reads as a {a.name} and as a {b.name}, and the ruleset has no ambiguity: rule "
                        f"to decide (it falls back to refusing such melds)",
                        None,
                        None,
                        shown,
                    )
                    break


def _joint_witness(checker: MeldChecker, a: MeldKind, b: MeldKind, n: int) -> str | None:
    """n cards that both kinds read, or None."""
    deck = checker.ruleset.deck
    ma = KindModel(deck, a, n, checker.steps(a), checker.gate).build(keep_clauses=True)
    mb = KindModel(deck, b, n, checker.steps(b), checker.gate, pool=VarPool(ma.pool.top + 1)).build(keep_clauses=True)
    try:
        assert ma.formula is not None and mb.formula is not None, "built with keep_clauses"
        clauses = ma.formula + mb.formula
        for card, c in ma.index.items():  # the same cards are present in both readings
            other = mb.index.get(card)
            clauses += (
                [[-ma.pres[c], mb.pres[other]], [ma.pres[c], -mb.pres[other]]] if other is not None else [[-ma.pres[c]]]
            )
        for card, c in mb.index.items():
            if card not in ma.index:
                clauses.append([-mb.pres[c]])
        clauses += encodings.exactly(ma.pres, n, mb.pool)
        with SatSolver(clauses, name=SMALL) as joint:
            if not joint.solve(ma.selectors() + mb.selectors()):
                return None
            model = joint.true()
        cards = [ma.cards[c] for c in range(len(ma.cards)) if ma.pres[c] in model]
        return checker.notation.format_many(face for face, _ in cards)
    finally:
        ma.close()
        mb.close()


def _gated(checker: MeldChecker, kind: MeldKind) -> bool:
    return any(checker.gate.conditional(kind, i) for i in range(len(kind.roles)))


def _with_value(checker: MeldChecker, model: KindModel, param: str, face) -> list[int]:
    """Assumptions: the kind's rules, and the roles the parameter's value opens or closes."""
    params = {param: face}
    return model.selectors() + [
        lit if checker.gate.open(model.kind, i, model.cards[c][0], params) else -lit
        for (c, i), lit in model.avail.items()
    ]


def dead_with_parameter(audit: Audit, checker: MeldChecker, kind: MeldKind, live: dict[str, set]) -> None:
    """A kind some values of a query parameter leave without a single legal meld (while others
    allow one): the rules that define it cannot all hold for those values."""
    faces = audit.ruleset.deck.faces
    for param, found in live.items():
        dead_for = [face for face in faces if face not in found]
        if found and dead_for:
            shown = [checker.notation.format(face) for face in dead_for]
            audit.add(
                f"dead-with/{kind.id}/{param}",
                "contradiction",
                kind.source,
                f"with the {param} {' or '.join(shown)}, no {kind.name} ({kind.id}) can be legal: the rules "
                f"that define it cannot all hold for that {param}",
                {param: "any card"},
                {"dead_for": shown},
                shown,
                kind="rule-conflict",
            )
