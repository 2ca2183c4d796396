"""Rummikub (Sabra rules, rulesets/rummikub.yaml): its turn is the shared rearranging turn
(``table:``, ``initial_meld:``); the package says only how Rummikub names and scores its tiles."""

from solver.games.rummikub.game import RummikubGame as GAME

__all__ = ["GAME"]
