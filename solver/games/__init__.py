"""The games melds knows, one package each; each exports ``GAME``, its class implementing
:class:`solver.core.game.Game`, and its rulesets name it with ``game:`` (the package's name)."""

DEFAULT_GAME = "rummy"  # the game of a ruleset that names none: plain melds of a deck
