"""The command-line options every game of melds answers to, by command (``melds check``, ``solve``,
``score``): :class:`~solver.melding.game.MeldGame` offers them, and a game adds its own beside them
(``MeldGame.OPTIONS``)."""

from __future__ import annotations

from solver.core.game import OptionSpec

INDICATOR_OPTION = OptionSpec(
    "--indicator",
    "The chosen card of a ruleset that has one (parameters:): the cut joker, the indicator; 'none': "
    "not chosen yet (no card relates to it).",
    metavar="CARD",
)
PHASE_OPTION = OptionSpec(
    "--phase",
    "The phase of a ruleset that declares phases: (phases:), which gates the kinds bound to one (phase:); "
    "none: no phase yet, every phase-bound kind barred. Not given: a turn keeps to one phase of its choice.",
    metavar="PHASE",
)
MELD_OPTIONS: dict[str, list[OptionSpec]] = {
    "check": [
        OptionSpec(
            "--ordered",
            "The cards are given in table order (a sequence must read left to right or "
            "right to left); by default they are a multiset.",
            flag=True,
        ),
        INDICATOR_OPTION,
        PHASE_OPTION,
    ],
    "solve": [
        OptionSpec("--claimed", "The turn claimed this discard (it is in the hand).", metavar="CARD"),
        INDICATOR_OPTION,
        PHASE_OPTION,
        OptionSpec(
            "--distance",
            "How many swaps (draw one, let one go) is the hand from going out? In a game with no discard "
            "(a turn places cards or draws one): how many cards drawn before one turn places the whole hand.",
            flag=True,
        ),
        OptionSpec(
            "--discards",
            "Each card let go: the swaps left after it and the draws that bring it closer (bad input in a game "
            "with no discard).",
            flag=True,
        ),
        OptionSpec(
            "--visible",
            "With --distance or --discards: cards seen outside the hand and the table, not left to draw.",
            metavar="CARDS",
        ),
    ],
    "score": [
        INDICATOR_OPTION,
        PHASE_OPTION,
        OptionSpec("--penalty", "Score CARDS as a hand left at the end (罰点, deadwood).", flag=True),
        OptionSpec(
            "--double",
            "With --penalty: the winner went out in one go (the ruleset's bonus: ×2, or what a variant adds).",
            flag=True,
        ),
        OptionSpec("--ordered", "The meld is given in table order (its layout).", flag=True),
        OptionSpec("--round", "A round file to settle (puzzle format, round: section).", metavar="FILE"),
        OptionSpec(
            "--knock",
            "Settle a knock (round scoring method knock): the knocker's hand, laid down by its best turn; "
            "with --against.",
            metavar="CARDS",
        ),
        OptionSpec(
            "--against", "With --knock: the defender's hand, counted after its melds and lay-offs.", metavar="CARDS"
        ),
    ],
}
