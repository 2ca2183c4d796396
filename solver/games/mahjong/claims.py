"""The kinds of worked example the mahjong document states: waits, scores, payments, settled
draws, closed kans after riichi — each checked with the game's own tables and scorer."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from solver.core.game import ClaimCheck
from solver.core.ruleset import Ruleset, with_options
from solver.games.mahjong.hands import Mahjong
from solver.games.mahjong.scoring import NotAWin, Scorer, Win, win_from_facts


def checks(ruleset: Ruleset, mj: Mahjong, scorer: Scorer) -> dict[str, ClaimCheck]:
    def waits(claim: Mapping[str, Any]):
        hand = mj.parse_hand(claim["hand"])
        mj.require_size(hand, mj.winning_size - 1, "a waiting hand", "")
        return sorted(claim["waits"]), sorted(mj.tile_text(w) for w in mj.waits(hand)), claim["hand"]

    def riichi_kan(claim: Mapping[str, Any]):
        hand = mj.parse_hand(claim["hand"])
        drawn = mj.parse_tiles(claim["draw"])[0]
        ident = mj.identity(mj.parse_tiles(claim["kan"])[0])
        v = {v.tile: v for v in mj.riichi_kans(hand, drawn)}.get(ident)
        computed = {"document_rule": v.doc_allowed if v else False, "general_rule": v.general_allowed if v else False}
        claimed = {k: claim[k] for k in ("document_rule", "general_rule") if k in claim}
        return claimed, {k: computed[k] for k in claimed}, f"{claim['hand']} draws {claim['draw']}, kan {claim['kan']}"

    def draw(claim: Mapping[str, Any]):
        """An exhaustive draw settled (不聴罰符, 流し満貫): seat -> points received."""
        got = scorer.settle_draw(claim.get("players", 4), claim.get("tenpai", []), claim.get("nagashi", []))
        return claim["payments"], got, {"tenpai": claim.get("tenpai", []), "nagashi": claim.get("nagashi", [])}

    def score(claim: Mapping[str, Any]):
        """A winning hand scores what the document says (han, fu, points), under options."""
        by = Scorer(Mahjong(with_options(ruleset, claim["options"]))) if claim.get("options") else scorer
        facts = dict(claim["win"])
        win = win_from_facts(by, facts.pop("tile"), facts, int(facts.get("players", 4)))
        if "wins" in claim:  # the claim is that the hand may (or may not) win at all
            try:
                by.score(by.mj.parse_hand(claim["hand"]), win)
                return claim["wins"], True, {"hand": claim["hand"]}
            except NotAWin as exc:
                return claim["wins"], False, {"hand": claim["hand"], "why": str(exc)}
        result = by.score(by.mj.parse_hand(claim["hand"]), win)
        got = {"han": result.han, "fu": result.fu, "total": result.points.total}
        claimed = {k: claim[k] for k in ("han", "fu", "total") if k in claim}
        return claimed, {k: got[k] for k in claimed}, {"hand": claim["hand"], "yaku": [y.name for y in result.yaku]}

    def payment(claim: Mapping[str, Any]):
        win = Win(
            tile=(),
            tsumo=claim.get("tsumo", True),
            seat=claim["seat"],
            players=claim.get("players", 4),
            honba=claim.get("honba", 0),
            discarder=claim.get("from"),
        )
        points = scorer.payments(claim["basic"], win)
        got = (
            dict(points.payments)
            if "honba" not in claim
            else {s: points.payments[s] + points.honba.get(s, 0) for s in points.payments}
        )
        return (
            claim["payments"],
            got,
            f"basic {claim['basic']}, {claim['seat']} wins by "
            f"{'tsumo' if win.tsumo else 'ron'}, {win.players} players"
            + (f", {claim['honba']} honba" if claim.get("honba") else ""),
        )

    return {"draw": draw, "score": score, "waits": waits, "riichi-kan": riichi_kan, "payment": payment}
