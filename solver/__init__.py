"""melds' engine: rulesets as data, compiled to SAT, queried by assumptions.

The public face, in pipeline order:

* :func:`load_ruleset` — a game's rules from YAML (notation → ruleset);
* :class:`Notation` — parsing and printing cards in the document's notation;
* :class:`MeldChecker` — meld legality (compile → query), returning a :class:`Verdict`.

>>> from solver import load_ruleset, MeldChecker
>>> with MeldChecker(load_ruleset("basic-rummy")) as checker:
...     checker.check_text("HA H2 H3").legal
True

The SAT-backed names are imported on first use, so that ``import solver`` stays quick.
"""

from __future__ import annotations

from solver.core.errors import MeldsError
from solver.core.ruleset import Ruleset, load_ruleset

_LAZY = {
    "MeldChecker": ("solver.melding.checker", "MeldChecker"),
    "Verdict": ("solver.melding.checker", "Verdict"),
    "Reason": ("solver.melding.checker", "Reason"),
    "Notation": ("solver.core.notation", "Notation"),
}

__all__ = ["MeldsError", "Ruleset", "load_ruleset", *_LAZY]


def __getattr__(name: str):
    if name in _LAZY:
        from importlib import import_module

        module, attr = _LAZY[name]
        return getattr(import_module(module), attr)
    raise AttributeError(name)
