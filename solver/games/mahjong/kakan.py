"""The turn rules of :mod:`solver.games.mahjong.moves` with the added kan (加槓) and the robbing of
it (槍槓), and the facts of a win that a game record knows beyond the tiles.

``kakan TILE`` adds the fourth tile to one's own pon; the tile then lies open to a ron by another
seat (step ``call``, ``facts.robbable``) until ``pass``, after which the player draws the
replacement tile. ``facts.win_facts`` (seat -> Win fields: ``ippatsu``, ``rinshan``, ``haitei``,
``dora_indicators`` …) completes the facts a tsumo or ron is judged with, so that a hand whose
only yaku is, say, 嶺上開花 wins as the record says it did.
"""

from __future__ import annotations

from dataclasses import replace

from solver.core.errors import MeldsError
from solver.core.moves import Action, Forbidden
from solver.core.state import GameState
from solver.games.mahjong.hands import Hand
from solver.games.mahjong.moves import MahjongMoves


class KanMoves(MahjongMoves):
    VERBS = {**MahjongMoves.VERBS, "kakan": "kakan"}

    def kakan(self, state: GameState, action: Action) -> GameState:
        seat = self.actor(state, action)
        self._need(state, "discard", seat, "kakan")
        if len(action.args) != 1:
            raise MeldsError("kakan TILE: the tile added to one's own pon, e.g. 'kakan 7z'")
        face = self.tile(action.args[0])
        hand = self.hand(state, seat)
        ident = self.mj.identity(face)
        pon = next((m for m in hand.melds if m.kind == "pon" and self.mj.identity(m.faces[0]) == ident), None)
        if pon is None:
            raise Forbidden("no-pon", f"an added kan (加槓) needs a pon of {action.args[0]}", self.source("kakan"))
        added = next((c for c in hand.concealed if c == face), None) or \
            next((c for c in hand.concealed if self.mj.identity(c) == ident), None)
        if added is None:
            raise Forbidden("not-in-hand", f"{action.args[0]} is not in the hand")
        rest = self._without(hand, [added])
        kan = self.mj.parse_hand(f"[{self.mj.format_tiles(pon.faces + (added,))}]").melds[0]
        melds = tuple(kan if m is pon else m for m in rest.melds)
        kans = dict(state.facts.get("kans", {}))
        kans[seat] = kans.get(seat, 0) + 1
        facts = {**state.facts, "kans": kans, "robbable": action.args[0], "first_go_around": False, "claims": {}}
        return self._set_hand(state, seat, Hand(rest.concealed, melds), step="call", turn=seat,
                              discarded_by=seat, facts=facts)

    def _called(self, state: GameState) -> object:
        robbable = state.facts.get("robbable")
        return self.tile(robbable) if robbable else super()._called(state)

    def pass_(self, state: GameState, action: Action) -> GameState:
        if state.step == "call" and state.facts.get("robbable"):  # nobody robs the kan: its replacement draw
            facts = {k: v for k, v in state.facts.items() if k != "robbable"}
            return replace(state, step="draw", turn=state.discarded_by or state.turn, facts=facts)
        return super().pass_(state, action)

    def ron(self, state: GameState, action: Action) -> GameState:
        after = super().ron(state, action)
        robbable, robbed = state.facts.get("robbable"), state.discarded_by
        if not robbable or robbed is None:
            return after
        hand = self.hand(state, robbed)  # the robbed tile leaves the kan: it is a pon again
        tile = self.tile(robbable)
        kan = next((m for m in hand.melds if m.kind == "minkan"
                    and self.mj.identity(m.faces[0]) == self.mj.identity(tile)), None)
        if kan is None:
            return after
        faces = list(kan.faces)
        faces.remove(tile if tile in faces else faces[-1])
        pon = self.mj.parse_hand(f"[{self.mj.format_tiles(faces)}]").melds[0]
        melds = tuple(pon if m is kan else m for m in hand.melds)
        # the tile lies where a ron's discard lies: on the discards
        return replace(after, hands={**after.hands, robbed: self.text(Hand(hand.concealed, melds))},
                       discards=after.discards + (robbable,))

    def _claim(self, state: GameState, action: Action, kind: str, from_hand: int) -> GameState:
        if state.facts.get("robbable"):
            raise Forbidden("robbing-only", "the tile added to a kan may only be taken by a ron (槍槓)",
                            self.source("kakan"))
        return super()._claim(state, action, kind, from_hand)

    def _win(self, state: GameState, seat: str, tile, tsumo: bool):
        win = super()._win(state, seat, tile, tsumo)
        known = dict((state.facts.get("win_facts") or {}).get(seat) or {})
        if state.facts.get("robbable") and not tsumo:
            known["chankan"] = True
        return replace(win, **known) if known else win

    def candidates(self, state: GameState) -> list[str]:
        out = super().candidates(state)
        if state.step == "discard" and not isinstance(state.hands[state.turn], int):
            hand = self.hand(state, state.turn)
            pons = {self.mj.identity(m.faces[0]) for m in hand.melds if m.kind == "pon"}
            out += [f"kakan {self.mj.tile_text(i)}" for i in dict.fromkeys(self.mj.identity(f) for f in hand.concealed)
                    if i in pons]
        return out
