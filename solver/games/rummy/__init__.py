"""Rummy (ラミー): melds of a standard deck — sequences and groups — with lay-offs, a discard to
end each turn, and deadwood or penalty points (rulesets/basic-rummy.yaml)."""

from solver.games.rummy.game import RummyGame as GAME

__all__ = ["GAME"]
