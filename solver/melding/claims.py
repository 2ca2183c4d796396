"""The kinds of worked example a rummy document states, checked with the meld machinery.

Each check takes a claim's data (as the ruleset transcribes it) and returns (what the document
claims, what melds computes, a witness). ``melds audit`` compares the first two.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from solver.core.chosen import INDICATOR
from solver.core.deck import Face
from solver.core.game import ClaimCheck
from solver.core.ruleset import with_options
from solver.melding.meld.checker import MeldChecker
from solver.melding.meld.points import hand_points, meld_points

Params = Callable[[Mapping[str, Any]], Mapping[str, Any] | None]


def meld_claims(checker: MeldChecker, params: Params) -> dict[str, ClaimCheck]:
    """The meld claim checks of a game (``params``: the query parameters a claim gives)."""
    rs, notation = checker.ruleset, checker.notation

    def meld(claim: Mapping[str, Any]):
        request = {"cards": claim["cards"], **{k: claim[k] for k in (*rs.parameters, INDICATOR) if claim.get(k)}}
        judge = _under_options(checker, claim.get("options"))
        verdict = judge.check(
            notation.parse_many(claim["cards"]),
            phase=claim.get("phase"),
            ordered=bool(claim.get("ordered")),
            params=params(request),
        )
        claimed = {"legal": claim["legal"], **({"kind": claim["as"]} if "as" in claim else {})}
        computed = {
            "legal": verdict.legal,
            **({"kind": verdict.kind.id if verdict.legal and verdict.kind else None} if "as" in claim else {}),
        }
        why = [r.message for r in verdict.reasons]
        return claimed, computed, {"cards": claim["cards"], **({"reasons": why} if why else {})}

    def meld_points_(claim: Mapping[str, Any]):
        verdict = checker.check(notation.parse_many(claim["cards"]), phase=claim.get("phase"), ordered=True)
        computed = meld_points(verdict.reading) if verdict.legal and verdict.reading else None
        return claim["points"], computed, claim["cards"]

    def hand_points_(claim: Mapping[str, Any]):
        points = hand_points(rs, notation.parse_many(claim["cards"]))
        return claim["points"], points * (2 if claim.get("double") else 1), claim["cards"]

    def penalty_total(claim: Mapping[str, Any]):
        factor = 2 if claim.get("double") else 1
        each = {who: hand_points(rs, notation.parse_many(cards)) * factor for who, cards in claim["hands"].items()}
        return claim["points"], sum(each.values()), each

    def wild(claim: Mapping[str, Any]):
        """With the chosen card the claim names, are these cards wild (or not, as it says)?"""
        chosen = {k: claim[k] for k in (*rs.parameters, INDICATOR) if claim.get(k)}
        given = params({"cards": claim["cards"], **chosen})
        faces = notation.parse_many(claim["cards"])
        agree = [notation.format(f) for f in faces if is_wild(checker, f, given) == claim["wild"]]
        return [notation.format(f) for f in faces], agree, chosen

    return {
        "meld": meld,
        "meld-points": meld_points_,
        "hand-points": hand_points_,
        "penalty-total": penalty_total,
        "wild": wild,
    }


def _under_options(checker: MeldChecker, options: Mapping[str, Any] | None) -> MeldChecker:
    """The checker of the claim's ruleset under the options the claim names (its own without)."""
    if not options:
        return checker
    return MeldChecker(with_options(checker.ruleset, options))


def is_wild(checker: MeldChecker, face: Face, params: Mapping[str, Any] | None) -> bool:
    """Some kind has a wild role open to the card under the query's chosen cards."""
    return any(
        entry.role.wild and entry.applies(face) and checker.gate.open(kind, i, face, params)
        for kind in checker.ruleset.kinds
        for i, entry in enumerate(kind.roles)
    )
