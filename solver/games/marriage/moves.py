"""Marriage turn by turn: the rummy turn, plus showing combinations to see the tiplu (the first
three pure ones, or seven dublees; after seeing, the rest of the hand), wild cards that count only
for a player who has seen, and the checks on taking a discarded wild."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from itertools import combinations
from typing import Any

from solver.core.chosen import unchosen
from solver.core.moves import UNKNOWN, Action, Forbidden
from solver.core.ruleset import Ruleset
from solver.core.state import GameState, TableWord
from solver.games.marriage.rules import MarriageRules
from solver.melding.meld.checker import MeldChecker
from solver.melding.moves import MeldMoves


class MarriageMoves(MeldMoves):
    VERBS = {**MeldMoves.VERBS, "show": "show"}
    ROUTES_JUDGED = False  # its shows judge the ways out

    def __init__(self, ruleset: Ruleset, checker: MeldChecker):
        super().__init__(ruleset, checker)
        self.rules: MarriageRules = ruleset.rules

    def tiplu(self, state: GameState) -> str | None:
        """The tiplu, when the state knows it."""
        tiplu = state.params.get(self.rules.maal.id) if self.rules.maal is not None else None
        return None if tiplu is None or unchosen(tiplu) else tiplu

    def params(self, state: GameState) -> Mapping[str, Any] | None:
        tiplu, maal = self.tiplu(state), self.rules.maal
        if not tiplu or maal is None or not state.flag(state.turn, "seen"):
            return None  # wilds count only for a player who has seen the tiplu
        return {maal.id: self.notation.parse(tiplu)}

    def is_wild(self, state: GameState, card: str) -> bool:
        tiplu = self.tiplu(state)
        if not tiplu or card == UNKNOWN:
            return False
        return self.rules.maal_kind(self.notation.parse(card), self.notation.parse(tiplu)) is not None

    def show(self, state: GameState, action: Action) -> GameState:
        self._need_step(state, "play")
        groups = [[self.canon(t) for t in self.tokens(p)] for p in action.parts]
        left = self.take_from_hand(state, [c for g in groups for c in g], "show")
        seen = state.flag(state.turn, "seen")
        # before seeing no card is wild; after, the tiplu's wilds count
        kinds = []
        for g in groups:
            verdict = self.checker.check(self.notation.parse_many(g), params=self.params(state) if seen else None)
            kinds.append(verdict.kind.id if verdict.legal and verdict.kind is not None else None)
        if not seen:
            fits = next(
                (
                    r
                    for r in self.rules.seeing
                    if len(groups) + self._shown_before(state, r) == r.count and all(k in r.kinds for k in kinds)
                ),
                None,
            )
            if fits is None:
                wants = "; or ".join(f"{r.count} of {'/'.join(sorted(r.kinds))}" for r in self.rules.seeing)
                raise Forbidden(
                    "not-enough-to-see",
                    f"to see the tiplu show {wants} (no wilds before seeing); "
                    f"shown: {', '.join(k or 'not a combination' for k in kinds)}",
                    self.rules.seeing[0].source,
                )
        else:  # after seeing: the rest of a going-out route (the ruleset's going_out:)
            route = self._route(state)
            own = sum(1 for t in state.table if t.owner == state.turn)
            kinds_ok = all(k is not None and k in route.kinds for k in kinds)
            if route.melds is not None:
                ok, what = kinds_ok and own + len(groups) == route.melds, f"{route.melds - own} more {route.name}"
            else:  # every card but the discard
                ok, what = kinds_ok and len(left) == 1, "the rest of the hand in combinations, all but the discard"
            if not ok:
                raise Forbidden(
                    "not-the-rest",
                    f"after seeing, {state.turn} shows {what}; shown: "
                    f"{', '.join(k or 'not a combination' for k in kinds)}",
                    route.source,
                )
        table = state.table + tuple(TableWord(state.turn, " ".join(g)) for g in groups)
        after = self._with_hand(state, left, table=table).with_flag(state.turn, "seen", True)
        if not seen and all(k == "dublee" for k in kinds):
            after = after.with_flag(state.turn, "dublee", True)
        return after.with_flag(state.turn, "melded", True)

    def _shown_before(self, state: GameState, rule) -> int:
        """The player's combinations already on the table that count for a way of seeing: a tunnela
        shown at the deal (プレイ開始前にツネラをテーブルに出していたら、それも3組のうちに数えることができます)."""
        kinds = [
            self.checker.check(self.notation.parse_many(self.tokens(t.cards)))
            for t in state.table
            if t.owner == state.turn
        ]
        return sum(1 for v in kinds if v.legal and v.kind is not None and v.kind.id in rule.kinds)

    def tiplu_placed(self, state: GameState) -> bool:
        """Has the tiplu been chosen and put under the stock? (It is known, or someone has seen it.)"""
        return bool(self.tiplu(state)) or any(state.flag(p, "seen") for p in state.players)

    def _rebuilds_stock(self) -> bool:
        return any(c.name == "tiplu-stays-in-stock" for c in self.move_rules.checks)

    def discard(self, state: GameState, action: Action) -> GameState:
        """A discard; when the stock is down to the tiplu (or empty, before there is one) and the
        game goes on, the dealer shuffles every discard but the last into a new stock over it."""
        after = super().discard(state, action)
        floor = 1 if self.tiplu_placed(state) else 0
        if after.step != "over" and after.stock <= floor and self._rebuilds_stock() and len(after.discards) > 1:
            after = replace(after, stock=after.stock + len(after.discards) - 1, discards=after.discards[-1:])
        return after

    def _route(self, state: GameState):
        """The going-out route a player who has seen is on: the dublee route after showing
        dublees, else the one whose melds are not counted (all cards but the discard)."""
        dublee = state.flag(state.turn, "dublee")
        return next(r for r in self.rules.going_out if (r.melds is not None) == bool(dublee))

    def gone_out(self, state: GameState) -> bool:
        """A dublee player goes out with the route's count of dublees shown, cards still in hand."""
        if not self.rules.going_out or not state.flag(state.turn, "dublee"):
            return False
        route = self._route(state)
        return sum(1 for t in state.table if t.owner == state.turn) >= (route.melds or 0)

    def more_candidates(self, state: GameState, known: list[str], melds: list[list[str]]) -> list[str]:
        return self._shows(state, known, melds)

    def _shows(self, state: GameState, known: list[str], melds: list[list[str]], limit: int = 60) -> list[str]:
        """Marriage: ways to show combinations (the first three or seven dublees; after seeing the
        rest), disjoint melds of the hand, at most ``limit`` of them."""
        if not state.flag(state.turn, "seen"):
            counts = sorted({r.count - self._shown_before(state, r) for r in self.rules.seeing} - {0})
        else:
            counts = [1] if state.flag(state.turn, "dublee") else [4]
        out: list[str] = []
        for count in counts:
            for combo in combinations(melds, count):
                if Counter(c for m in combo for c in m) - Counter(known):
                    continue  # two melds want the same card
                out.append("show " + " | ".join(" ".join(m) for m in combo))
                if len(out) >= limit:
                    return out
        return out


def _wild_to_seen_player(self: MarriageMoves, state: GameState, action: Action) -> str | None:
    if action.verb != "draw" or action.args[:1] != ("discard",) or not state.discards:
        return None
    top = state.discards[-1]
    discarder = state.discarded_by or state.previous_player
    if self.is_wild(state, top) and state.flag(state.turn, "seen") and not state.flag(discarder, "seen"):
        return (
            f"{top} is a wild card discarded by {discarder}, who has not seen the tiplu; {state.turn} has "
            f"seen it, so must draw from the stock"
        )
    return None


def _dublee_seen_no_discard_draw(self: MarriageMoves, state: GameState, action: Action) -> str | None:
    if (
        action.verb == "draw"
        and action.args[:1] == ("discard",)
        and state.flag(state.turn, "dublee")
        and state.flag(state.turn, "seen")
        and state.discards
    ):
        top = self.canon(state.discards[-1])
        if top not in (self.hand(state) or []):  # it would make the eighth dublee: that goes out
            return (
                f"{state.turn} plays dublees and has seen the tiplu: the discard may be taken only to go "
                f"out, and {top} makes no dublee with the hand"
            )
    return None


def _tiplu_stays_in_stock(self: MarriageMoves, state: GameState, action: Action) -> str | None:
    """The tiplu lies under the stock and is never drawn: when only it is left, the stock was
    made again from the discards (see MarriageMoves.discard)."""
    if action.verb == "draw" and action.args[:1] == ("stock",) and self.tiplu_placed(state) and state.stock <= 1:
        return (
            "the last card of the stock is the tiplu, which is not drawn; the discards (all but the last) "
            "become the stock over it"
        )
    return None


MarriageMoves.CHECKS = {
    **MeldMoves.CHECKS,
    "wild-to-seen-player": _wild_to_seen_player,
    "dublee-seen-no-discard-draw": _dublee_seen_no_discard_draw,
    "tiplu-stays-in-stock": _tiplu_stays_in_stock,
}
