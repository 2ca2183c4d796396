"""幻想麻雀 riichi mahjong (with its 3-player form and 青天井): winning shapes, waits, closed kans
after riichi, yaku, fu and payments, and the turn with its calls (rulesets/gensou-mahjong.yaml)."""

from solver.games.mahjong.game import MahjongGame as GAME

__all__ = ["GAME"]
