"""The peer solver ``rummikub-solver`` (a MILP over the same sets) driven in melds' notation, for
the differential test and bench/rummikub.py. A test and bench oracle only: melds never imports it."""

from __future__ import annotations

from rummikub_solver import Colour, Number, RuleSet, SolverMode


class Peer:
    def __init__(self):
        self.rules = RuleSet()  # the standard game: 4 colours × 13 × 2, two jokers, 30 to start
        letters = {Colour.BLACK: "k", Colour.BLUE: "b", Colour.ORANGE: "o", Colour.RED: "r"}
        self.tile = {}
        for t in self.rules.tiles:
            self.tile[f"{letters[t.colour]}{t.value}" if isinstance(t, Number) else "J"] = t
        self.name = {v: k for k, v in self.tile.items()}

    def best(self, hand: list[str], table: list[str]) -> list[str]:
        """The rack tiles the peer places on a player who has melded (most tiles)."""
        state = self.rules.new_game()
        state.initial = False
        state.add_table(*(self.tile[t] for s in table for t in s.split()))
        state.add_rack(*(self.tile[t] for t in hand))
        found = self.rules.solve(state, SolverMode.TILE_COUNT)
        return [self.name[t] for t in found.tiles] if found else []
