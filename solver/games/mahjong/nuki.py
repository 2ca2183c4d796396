"""北抜き (抜きドラ) in the turn rules of a three-player table whose ruleset has ``nuki_dora``.

On one's turn, after a draw, a tile of the ruleset's kind (北) is set aside beside the hand: the
seat's flag ``nuki`` counts the tiles set aside (each a dora when the hand wins), and a
replacement is drawn from the dead wall. Until that draw the tile is *offered* as a kan's tile is
(``facts.kan`` is ``{tile, kind: nuki, by}``, :mod:`solver.games.mahjong.kakan`): another seat may
win on it with ``SEAT: ron`` when the ruleset says so (``ron``; 槍槓 only with ``chankan``), and a
seat that lets it go by is furiten. The replacement draw is 嶺上開花 when it wins (``rinshan``);
the set-aside ends every ippatsu and the first go-around as a call does (``call``). A hand in
riichi sets aside only the tile it has just drawn, and nothing is set aside with the wall empty
(no replacement is left to draw).
"""

from __future__ import annotations

from solver.core.moves import Action, Forbidden
from solver.core.state import GameState
from solver.games.mahjong.hands import Hand
from solver.games.mahjong.movepart import MahjongMovePart
from solver.games.mahjong.rules import NukiDora

NUKI = "nuki"  # the kind of a tile set aside on offer (facts.kan.kind)


class NukiRules(MahjongMovePart):
    """The 北抜き action of :class:`~solver.games.mahjong.moves.MahjongMoves` (a part of it: the
    hands, tiles and offers it uses are the moves')."""

    def _nuki_rule(self) -> NukiDora:
        rule = self.rs.rules.nuki_dora
        if rule is None:
            raise Forbidden("no-nuki", f"{self.rs.name} sets no tile aside (no 北抜き)", self.source("nuki"))
        return rule

    def nuki(self, state: GameState, action: Action) -> GameState:
        """北抜き: a tile of the ruleset's kind set aside after one's draw, a replacement drawn for it."""
        rule = self._nuki_rule()
        seat = self.actor(state, action)
        self._need(state, "discard", seat, "nuki")
        self._drew(state, seat, "nuki")
        kind = self.tile(rule.tile)
        face = self.tile(action.args[0]) if action.args else kind
        name = self.mj.tile_text(self.mj.identity(kind))
        if self.mj.identity(face) != self.mj.identity(kind):
            raise Forbidden("not-nuki-tile", f"only {name} is set aside (北抜き), not {action.args[0]}", rule.source)
        if state.stock <= 0:
            raise Forbidden("wall-empty", f"the wall is empty: no replacement tile is left to draw for {name}")
        hand = self.hand(state, seat)
        if state.flag(seat, "riichi") and self.mj.identity(self._drawn(state, hand)) != self.mj.identity(kind):
            raise Forbidden(
                "riichi-nuki",
                f"{seat} is in riichi: the hand is fixed, so only a {name} just drawn is set aside",
                rule.source,
            )
        rest: Hand = self._without(hand, [face])
        facts = {k: v for k, v in state.facts.items() if k not in ("drawn", "kan", "rinshan")}
        facts["claims"] = {}
        if rule.rinshan:
            facts["rinshan"] = seat
        if rule.call:
            facts["first_go_around"] = False
        if rule.ron:  # offered to a ron until the replacement draw
            facts["kan"] = {"tile": name, "kind": NUKI, "by": seat}
        after = self._set_hand(state, seat, rest, step="draw", turn=seat, facts=facts)
        after = after.with_flag(seat, NUKI, nuki_count(state, seat) + 1)
        return self._calls_break_ippatsu(after) if rule.call and not rule.ron else after

    def nuki_candidates(self, state: GameState, hand: Hand) -> list[str]:
        """``nuki TILE`` when the ruleset sets tiles aside and the hand holds one."""
        rule = self.rs.rules.nuki_dora
        if rule is None or NUKI not in self.move_rules.actions:
            return []
        kind = self.mj.identity(self.tile(rule.tile))
        held = any(self.mj.identity(f) == kind for f in hand.concealed)
        return [f"nuki {self.mj.tile_text(kind)}"] if held else []

    def state_lines(self, state: GameState) -> list[str]:
        """The state's text lines, with the tiles each seat has set aside."""
        lines: list[str] = super().state_lines(state)
        aside = [f"{p} {nuki_count(state, p)}" for p in state.players if nuki_count(state, p)]
        return lines + ([f"  北抜き: {', '.join(aside)}"] if aside else [])

    def _robbing_is_chankan(self, offered: dict | None) -> bool:
        """Is a ron on the offered tile 槍槓? On a kan's tile, yes; on a tile set aside, as its
        ruleset says (``chankan``)."""
        return offered is not None and (offered.get("kind") != NUKI or self._nuki_rule().chankan)


def nuki_robbed(state: GameState, offered: dict) -> GameState:
    """A tile set aside and won on leaves the seat's 北抜き for the discards (where a ron's tile lies)."""
    by = offered["by"]
    after = state.with_flag(by, NUKI, max(0, nuki_count(state, by) - 1))
    facts = {k: v for k, v in after.facts.items() if k != "kan"}
    return after.but(discards=state.discards + (offered["tile"],), facts=facts)


def breaks_ippatsu(rule: NukiDora | None, offered: dict) -> bool:
    """Does the offer, once nobody wins on it, end every ippatsu? A kan does; a tile set aside as
    its ruleset says (``call``)."""
    return offered.get("kind") != NUKI or rule is None or rule.call


def nuki_count(state: GameState, seat: str) -> int:
    """The tiles a seat has set aside (北抜き) this hand."""
    value = state.flag(seat, NUKI)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


__all__ = ["NUKI", "NukiRules", "breaks_ippatsu", "nuki_count", "nuki_robbed"]
