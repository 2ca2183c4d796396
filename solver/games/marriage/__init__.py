"""Marriage (マリッジ, Nepal): three decks, the tiplu and its maal made wild once seen, pure and
dirty sequences, tunnelas and dublees, two ways to go out, and the settlement of maal points
(rulesets/marriage.yaml)."""

from solver.games.marriage.game import MarriageGame as GAME

__all__ = ["GAME"]
