"""Word Rummy (ワードラミー): kana tiles spelled into dictionary words, one word from the hand a
turn, the table rearranged freely, relief discards, bonus words at the end
(rulesets/word-rummy.yaml)."""

from solver.games.words.game import WordGame as GAME

__all__ = ["GAME"]
