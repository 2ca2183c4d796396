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

from .errors import MeldsError
from .ruleset import Ruleset, load_ruleset

_LAZY = {
    "MeldChecker": ("meld", "MeldChecker"),
    "Verdict": ("meld", "Verdict"),
    "Reason": ("meld", "Reason"),
    "Notation": ("notation", "Notation"),
}

__all__ = ["MeldsError", "Ruleset", "load_ruleset", *_LAZY]


def __getattr__(name: str):
    if name in _LAZY:
        from importlib import import_module

        module, attr = _LAZY[name]
        return getattr(import_module(f".{module}", __name__), attr)
    raise AttributeError(name)
