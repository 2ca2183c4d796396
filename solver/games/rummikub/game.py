"""Rummikub: a ruleset of the shared melding machinery — its sets checked as every rummy's melds,
its turn the rearranging turn of ``table: {rearrange: free}`` with ``initial_meld:`` — presented in
the game's own words: tiles on a rack, a set's value, a rack's penalty, the racks left at the end."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from solver.core.errors import ExitCode
from solver.core.game import OptionSpec
from solver.core.replay import Settlement
from solver.core.result import Result
from solver.core.source import source_json
from solver.core.state import GameState
from solver.melding.game import MeldGame
from solver.melding.present import verdict_json
from solver.melding.settlehand import blocked_winner, hands_left
from solver.present.text import head

EXAMPLES = {
    "check": [
        "melds check -r rummikub r7 r8 J",
        "melds check -r rummikub k5 b5 o5 r5 --json",
        "melds check -r rummikub r12 r13 r1",
    ],
    "solve": [
        'melds solve -r rummikub --hand "r10 r11 J k2" --table "all: r7 r8 r9" --table "all: k5 b5 o5" '
        "--has-melded --best",
        'melds solve -r rummikub --hand "k10 b10 o10 r3 r4" --best',
        "melds solve puzzles/rummikub/",
        'melds solve -r rummikub --hand "r10 r11 k2" --table "all: r7 r8 r9" --has-melded --distance',
    ],
    "score": ["melds score -r rummikub --penalty k7 b13 J", "melds score -r rummikub r11 r12 J"],
    "move": ["melds move puzzles/rummikub/moves/m01-initial-meld.yaml play k10 b10 o10 | r7 r8 r9"],
    "moves": ["melds moves puzzles/rummikub/moves/m02-rearrange.yaml"],
}


RULES = "rulesets/documents/rummikub.md"
SOLVE_OPTIONS = [
    OptionSpec(
        "--distance",
        f"How many tiles must be drawn before one turn places the whole rack? A turn places tiles or draws one, "
        f"with no discard ({RULES} 4.5, 5.1): the table's sets rearranged freely with --has-melded (4.2), else "
        "the rack's own sets worth the initial meld (3.1-3.3). Shows the tiles drawn, copies left, the table after.",
        flag=True,
    ),
    OptionSpec("--discards", f"Refused (exit 2): a Rummikub turn has no discard ({RULES} 4.5).", flag=True),
]


class RummikubGame(MeldGame):
    name: ClassVar[str] = "rummikub"
    label: ClassVar[str] = "Rummikub"
    EXAMPLES = EXAMPLES
    NOUNS = {"card": "tile", "hand": "rack", "meld": "set", "stock": "pool"}
    OPTIONS = {"solve": SOLVE_OPTIONS}

    def score(self, request: Mapping[str, Any]) -> Result:
        """A set's value (the numbers its tiles stand for), or with ``--penalty`` a rack's (each
        tile its number, a joker its penalty)."""
        if request.get("round"):
            return super().score(request)
        faces = self.cards(request)
        self.notation.check_copies(faces)
        fmt = self.notation.format
        if request.get("penalty"):
            rows = [(f, self.ruleset.points(f)) for f in faces]
            points = sum(p for _, p in rows)
            wilds = self.catalogue.cards.wild_only
            data = {
                "points": points,
                "mode": "penalty",
                "cards": [fmt(f) for f in faces],
                "breakdown": [{"cards": [fmt(f)], "points": p} for f, p in rows],
                "doubled": False,
                "one_go": bool(request.get("double")),
                "one_go_bonus": None,
                "source": source_json(
                    next((e.source for e in self.ruleset.card_points for f in wilds if e.matches(f)), None)
                ),
                "ruleset": self.ruleset.id,
            }
            shown = " + ".join(f"{fmt(f)} {p}" for f, p in rows)
            return Result(data, ExitCode.YES, lambda: f"rack left: {points} points ({shown})")
        return self._set_value(faces)

    def _set_value(self, faces: list) -> Result:
        from solver.melding.arrange.present import laid_json

        laid = self.catalogue.lookup(faces)
        reasons = [] if laid else verdict_json(self.checker.check(faces), self.checker)["reasons"]  # why not
        data: dict[str, Any] = {
            "points": laid.value if laid else None,
            "mode": "meld",
            "legal": laid is not None,
            "kind": laid.kind.id if laid else None,
            "cards": laid_json(laid, self.notation, self.catalogue.cards)["cards"]
            if laid
            else [self.notation.format(f) for f in faces],
            "reasons": reasons,
            "ruleset": self.ruleset.id,
        }

        def text() -> str:
            if laid is None:
                return head("not a set", False) + ": " + "; ".join(r["message"] for r in data["reasons"])
            cards = " ".join(f"{c['card']}={c['as']}" if c["wild"] else c["card"] for c in data["cards"])
            return head(f"{laid.value} points", True) + f": {laid.kind.name} {cards}"

        return Result(data, ExitCode.of(laid is not None), text)

    def settle_hand(self, state: GameState, turn_start: GameState) -> Settlement:
        """Who emptied the rack wins; each other player loses the value of the tiles left on the rack
        and the winner gains their sum. In a game blocked with the pool empty (assumption pool-empty)
        the player whose rack is worth least takes the winner's place."""
        fmt = self.notation.format
        racks: dict[str, dict[str, Any]] = {
            player: {"tiles": [fmt(f) for f in faces], "points": sum(map(self.ruleset.points, faces))}
            for player, faces in hands_left(state, self.notation).items()
        }
        winner = blocked_winner(state, {p: r["points"] for p, r in racks.items()})
        lost = {p: r["points"] for p, r in racks.items() if p != winner}
        deltas = {p: -lost.get(p, 0) for p in state.players} | {winner: sum(lost.values())}
        emptied = not racks[winner]["points"] and not racks[winner]["tiles"]
        how = "empties the rack" if emptied else "has the rack worth least in a blocked game"
        left = ", ".join(f"{p} {v}" for p, v in lost.items())
        text = f"{winner} {how}; left on the racks: {left}"
        return Settlement(deltas, {"text": text, "winner": winner, "racks": racks})
