"""melds' engine: rulesets as data, compiled to SAT, queried through one Game protocol.

The public face:

* :func:`load_ruleset` — a ruleset from YAML, by bundled id or path, with option values;
* :func:`load_game` — the game a ruleset names, compiled for it (:class:`solver.core.game.Game`:
  ``check``, ``solve``, ``score``, ``answer`` a puzzle, ``moves``);
* :class:`MeldsError` — every error a user's input can cause (exit code 2).

The layers below (docs/architecture.md): ``core`` (rulesets, notation, files, the protocol and
the registry), ``sat`` (the one place that talks to python-sat), ``present``, ``audit``,
``melding`` (what the rummy-like games share), ``games`` (one package per game), ``commands``.
"""

from __future__ import annotations

from solver.core.errors import MeldsError
from solver.core.registry import load_game
from solver.core.ruleset import Ruleset, load_ruleset

__all__ = ["MeldsError", "Ruleset", "load_game", "load_ruleset"]
