"""What the rummy-like games share, in three layers and the game around them:

- :mod:`.meld` — one meld judged: kinds compiled to SAT, the checker, candidate melds, points;
- :mod:`.table` — the table's melds and the single-card operations on them, and their forms;
- :mod:`.turn` — one turn solved as one MaxSAT model, with or without the table's forms;
- beside them, the game: :class:`~solver.melding.game.MeldGame` (the Game protocol for these
  games), the turn rules action by action (:mod:`.moves`), puzzles (:mod:`.puzzle`), rounds and
  their settlement (:mod:`.rounds`, :mod:`.settlehand`), worked-example claims and the audit's
  searches (:mod:`.claims`, :mod:`.audit`), and their presentation (:mod:`.present`,
  :mod:`.scorecard`).

Each layer imports only the ones below it (import-linter contracts in ``pyproject.toml``)."""
