"""Kans in 幻想麻雀's turn rules: the closed kan (暗槓), the added kan (加槓) and robbing them (槍槓);
the open kan on a discard (大明槓) is a call (:mod:`solver.games.mahjong.moves`) that ends here too.

A closed or added kan is *offered* until its replacement draw: ``facts.kan`` is ``{tile, kind:
ankan|kakan, by}``, the step is ``draw`` and the turn still its player's. Meanwhile another seat
may rob its tile with ``SEAT: ron`` (槍槓) — any winning hand robs an added kan; a closed kan only
the hand shapes the ruleset's ``chankan-closed-kan`` check names (国士無双は暗槓に対して槍槓する
ことが可能), and nobody when the ruleset has no such check (Tenhou). The replacement draw — or
``pass``: nobody robs — closes the offer: a seat that could have robbed is furiten, and every
ippatsu is gone (a robbing ron within the go-around keeps its own). A tile set aside (北抜き,
:mod:`solver.games.mahjong.nuki`) is offered the same way, as ``kind: nuki``. A robbed tile leaves the kan
for the discards: the kan is again the pon (or the concealed tiles) it was made of.

States written by the replay's first design mark an added kan with ``facts.robbable`` (the tile)
at step ``call``; :meth:`KanRules.current` reads them as the same offer.
"""

from __future__ import annotations

from typing import Any

from solver.core.errors import MeldsError
from solver.core.moves import Action, Forbidden
from solver.core.rules import MoveCheck
from solver.core.ruleset import Ruleset
from solver.core.state import GameState
from solver.games.mahjong.hands import Hand
from solver.games.mahjong.movepart import MahjongMovePart
from solver.games.mahjong.nuki import NUKI, breaks_ippatsu, nuki_robbed

ROBBING_RULE = "chankan-closed-kan"


def robbing_rule(ruleset: Ruleset) -> MoveCheck | None:
    """The ruleset's rule on robbing a closed kan (None: a closed kan is never robbed)."""
    return next((c for c in (ruleset.moves.checks if ruleset.moves else ()) if c.name == ROBBING_RULE), None)


def robbing_shapes(ruleset: Ruleset) -> tuple[str, ...]:
    """The hand shapes that may rob a closed kan (none without the rule)."""
    rule = robbing_rule(ruleset)
    return tuple(rule.params.get("shapes", ())) if rule else ()


def robbing_names(ruleset: Ruleset) -> str:
    shapes = robbing_shapes(ruleset)
    return " or ".join(s.name for s in ruleset.rules.hand_shapes if s.id in shapes) or "no hand"


class KanRules(MahjongMovePart):
    """The kan actions of :class:`~solver.games.mahjong.moves.MahjongMoves` (a part of it: the
    hands, tiles, furiten and scoring it uses are the moves')."""

    # -- the offer -------------------------------------------------------------------------------

    @staticmethod
    def current(state: GameState) -> GameState:
        """The state in today's form: an added kan of the first design (``facts.robbable``, step
        ``call``) as the offer ``facts.kan`` before its replacement draw."""
        robbable = state.facts.get("robbable")
        if not robbable:
            return state
        by = state.discarded_by or state.turn
        facts = {k: v for k, v in state.facts.items() if k != "robbable"}
        facts["kan"] = {"tile": str(robbable), "kind": "kakan", "by": by}
        facts.setdefault("rinshan", by)
        return state.but(step="draw", turn=by, facts=facts)

    @staticmethod
    def offered_kan(state: GameState) -> dict | None:
        """The kan whose tile may be robbed now: declared, its replacement not yet drawn."""
        kan = state.facts.get("kan")
        if isinstance(kan, dict) and state.step == "draw" and state.turn == kan.get("by"):
            return kan
        return None

    def _kan_passed(self, state: GameState) -> GameState:
        """Nobody robbed the kan: those who could have are furiten, every ippatsu is broken, and
        its player draws the replacement tile."""
        offered = self.offered_kan(state)
        if offered is None:
            return state
        tile = self.tile(offered["tile"])
        skip = {offered["by"]}
        if offered.get("kind") == "ankan":  # only the shapes that may rob a closed kan were waiting on it
            skip |= {p for p in state.players if self._may_rob_closed(state, p, tile) is False}
        after = self._missed(state, self.mj.identity(tile), skip)
        after = after.but(facts={k: v for k, v in after.facts.items() if k != "kan"})
        return self._calls_break_ippatsu(after) if breaks_ippatsu(self.rs.rules.nuki_dora, offered) else after

    def _may_rob_closed(self, state: GameState, seat: str, tile) -> bool | None:
        """May this seat's hand, with the tile, rob a closed kan? (None: its hand is hidden.)"""
        if isinstance(state.hands[seat], int):
            return None
        shapes = robbing_shapes(self.rs)
        if not shapes:
            return False
        hand = self.hand(state, seat)
        return self.mj.size(hand) == self.mj.winning_size - 1 and any(
            d.shape in shapes for d in self.mj.decompositions(hand.with_tile(tile))
        )

    # -- declaring a kan --------------------------------------------------------------------------

    def ankan(self, state: GameState, action: Action) -> GameState:
        """暗槓: four of a tile from the hand, on one's turn (after riichi only when the waits stay)."""
        seat = self.actor(state, action)
        self._need(state, "discard", seat, "ankan")
        self._drew(state, seat, "ankan")
        if len(action.args) != 1:
            raise MeldsError("ankan TILE: the tile of the closed kan, e.g. 'ankan 9m'")
        face = self.tile(action.args[0])
        hand = self.hand(state, seat)
        ident = self.mj.identity(face)
        four = [f for f in hand.concealed if self.mj.identity(f) == ident]
        if len(four) < 4:
            raise Forbidden("not-four", f"a closed kan needs all four {action.args[0]} in the hand")
        if state.flag(seat, "riichi"):
            drawn = self._drawn(state, hand)
            before = self._without(hand, [drawn])
            verdict = self.mj.riichi_kan_allowed(before, drawn, ident)  # the document's rule
            if verdict is None or not verdict[0]:
                why = verdict[1] if verdict else f"{action.args[0]} is not the tile drawn"
                raise Forbidden("riichi-kan", f"after riichi: {why}", self.rs.rules.riichi_kan.source)
        rest = self._without(hand, four[:4])
        kan = self.mj.parse_hand(f"({self.mj.format_tiles(four[:4])})").melds[0]
        after = self._set_hand(state, seat, Hand(rest.concealed, rest.melds + (kan,)))
        return self._kan_done(after, seat, {"tile": action.args[0], "kind": "ankan", "by": seat})

    def kakan(self, state: GameState, action: Action) -> GameState:
        """加槓: the fourth tile added to one's own open pon, on one's turn; 槍槓 may rob it."""
        seat = self.actor(state, action)
        self._need(state, "discard", seat, "kakan")
        self._drew(state, seat, "kakan")
        if len(action.args) != 1:
            raise MeldsError("kakan TILE: the tile added to one's own pon, e.g. 'kakan 7z'")
        face = self.tile(action.args[0])
        hand = self.hand(state, seat)
        ident = self.mj.identity(face)
        pon = next((m for m in hand.melds if m.kind == "pon" and self.mj.identity(m.faces[0]) == ident), None)
        if pon is None:
            raise Forbidden("no-pon", f"an added kan (加槓) needs a pon of {action.args[0]}", self.source("kakan"))
        added = next((c for c in hand.concealed if c == face), None) or next(
            (c for c in hand.concealed if self.mj.identity(c) == ident), None
        )
        if added is None:
            raise Forbidden("not-in-hand", f"{action.args[0]} is not in the hand")
        rest = self._without(hand, [added])
        kan = self.mj.parse_hand(f"[{self.mj.format_tiles(pon.faces + (added,))}]").melds[0]
        melds = tuple(kan if m is pon else m for m in rest.melds)
        after = self._set_hand(state, seat, Hand(rest.concealed, melds))
        return self._kan_done(after, seat, {"tile": action.args[0], "kind": "kakan", "by": seat})

    def _kan_done(self, state: GameState, seat: str, offered: dict | None = None) -> GameState:
        """A kan made: counted (四開槓), the replacement draw next — after any 槍槓 on ``offered``."""
        kans = dict(state.facts.get("kans", {}))
        kans[seat] = kans.get(seat, 0) + 1
        facts = {k: v for k, v in state.facts.items() if k not in ("drawn", "kan")}
        facts.update(kans=kans, rinshan=seat, first_go_around=False, claims={})
        if offered:
            facts["kan"] = offered
        return state.but(facts=facts, step="draw", turn=seat)

    # -- robbing it -----------------------------------------------------------------------------

    def _rob_kan(self, state: GameState, seat: str, offered: dict) -> GameState:
        """槍槓: a ron on the tile of a kan just declared, before its replacement draw."""
        by = offered["by"]
        if seat == by:
            raise Forbidden("own-kan", f"{seat} cannot rob their own kan")
        tile = self.tile(offered["tile"])
        if offered.get("kind") == "ankan" and not self._may_rob_closed(state, seat, tile):
            if robbing_rule(self.rs) is None:
                raise Forbidden(
                    "closed-kan",
                    f"a closed kan is not robbed in {self.rs.name}: 槍槓 takes only a tile added to a pon",
                    self.source("ron"),
                )
            return state  # the ruleset's chankan-closed-kan check says why, with its quote
        self._judged_win(state, seat, tsumo=False)
        if offered.get("kind") == NUKI:
            after, how = nuki_robbed(state, offered), "北抜き"
        else:
            after, how = self._kan_robbed(state, offered, tile), "槍槓"
        return after.but(step="over", facts={**after.facts, "result": f"ron {seat} from {by} ({how})"})

    def _kan_robbed(self, state: GameState, offered: dict, tile) -> GameState:
        """The robbed tile leaves the kan for the discards (where a ron's tile lies): an added kan
        is its pon again, a closed kan its three tiles in the hand."""
        by = offered["by"]
        hand = self.hand(state, by)
        ident = self.mj.identity(tile)
        kan = next(
            (m for m in reversed(hand.melds) if len(m.faces) == 4 and self.mj.identity(m.faces[0]) == ident), None
        )
        if kan is None:
            return state
        faces = list(kan.faces)
        faces.remove(tile if tile in faces else faces[-1])
        if offered.get("kind") == "kakan":
            pon = self.mj.parse_hand(f"[{self.mj.format_tiles(faces)}]").melds[0]
            back = Hand(hand.concealed, tuple(pon if m is kan else m for m in hand.melds))
        else:
            back = Hand(hand.concealed + tuple(faces), tuple(m for m in hand.melds if m is not kan))
        kans = dict(state.facts.get("kans", {}))
        kans[by] = max(0, kans.get(by, 1) - 1)  # the kan was never made
        facts = {k: v for k, v in state.facts.items() if k != "kan"}
        return self._set_hand(
            state, by, back, discards=state.discards + (offered["tile"],), facts={**facts, "kans": kans}
        )


def chankan_closed_kan(self, state: GameState, action: Action) -> str | None:
    """A closed kan may be robbed only by the shapes the check names (国士無双は暗槓に対して槍槓することが可能)."""
    if action.verb != "ron":
        return None
    offered = self.offered_kan(state)
    if offered is None or offered.get("kind") != "ankan":
        return None
    seat = self.actor(state, action)
    if seat == offered.get("by") or self._may_rob_closed(state, seat, self.tile(offered["tile"])) is not False:
        return None
    return f"a closed kan may be robbed (槍槓) only by {robbing_names(self.rs)}"


__all__: Any = ["KanRules", "chankan_closed_kan", "robbing_names", "robbing_rule", "robbing_shapes"]
