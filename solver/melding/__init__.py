"""What the rummy-like games share: meld kinds compiled to SAT and judged (checker, encode),
candidate melds, the turn as one MaxSAT model (turn, solve), single-card table operations
(table, tablesearch), points, rounds, puzzles of melds, the turn rules of a rummy game (moves),
their presentation, and :class:`~solver.melding.game.MeldGame`, the Game protocol for them."""
