"""The rummy game: every rule is the shared meld machinery's, read from the ruleset."""

from __future__ import annotations

from typing import ClassVar

from solver.melding.game import MeldGame


class RummyGame(MeldGame):
    """Basic Rummy and any ruleset of melds that names no other game."""

    name: ClassVar[str] = "rummy"
    label: ClassVar[str] = "rummy"
    EXAMPLES = {
        "check": ["melds check -r basic-rummy S9 S10 SJ SQ", "melds check -r basic-rummy HA H2 H3 --json"],
        "solve": ['melds solve -r basic-rummy --hand "S9 S10 SJ H4 D4 C4 C7"', "melds solve puzzles/basic-rummy/"],
        "score": [
            "melds score -r basic-rummy --penalty HK SQ C3",
            "melds score -r basic-rummy -o going-rummy=plus-ten --penalty --double HK SQ C3",
        ],
        "move": ["melds move -r basic-rummy puzzles/basic-rummy/moves/m01-draw-first.yaml draw stock"],
        "moves": ["melds moves puzzles/basic-rummy/moves/m04-melds.yaml"],
    }
