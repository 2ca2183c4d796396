"""Rummikub (Sabra rules): groups and runs of numbered tiles with jokers, a 30-point initial meld
from the rack alone, then the whole table rearranged freely (rulesets/rummikub.yaml). The turn is
the shared rearranging turn (``table:``, ``initial_meld:``); the package says only how Rummikub
names and scores its tiles."""

from solver.games.rummikub.game import RummikubGame as GAME

__all__ = ["GAME"]
