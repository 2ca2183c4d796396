"""Fesca Wild Rummy R (フェスカ): sets, runs and 相順 chains along the 相生/相克 cycles, four wild
roles, the field phase a 陰陽 discard sets, single-card table operations, two scorings
(rulesets/fesca.yaml)."""

from solver.games.fesca.game import FescaGame as GAME

__all__ = ["GAME"]
