"""A Rummikub hand of a game log settled: who emptied the rack wins; each other player loses the
value of the tiles left on the rack (a joker its penalty) and the winner gains their sum."""

from __future__ import annotations

from solver.core.errors import MeldsError
from solver.core.replay import Settlement
from solver.core.state import GameState
from solver.melding.settlehand import winner_of


def settle_racks(game, state: GameState) -> Settlement:
    racks = {}
    for player in state.players:
        held = state.hands[player]
        if isinstance(held, int):
            if held:
                raise MeldsError(
                    f"{player}'s rack is hidden ({held} tiles) at the end: the log writes the tiles left, to count them"
                )
            held = ""
        faces = game.notation.parse_many(held) if held.strip() else []
        points = sum(game.rules.joker_penalty if f.rank is None else int(f.rank) for f in faces)
        racks[player] = {"tiles": [game.notation.format(f) for f in faces], "points": points}
    winner = _winner(state, racks)
    deltas = {p: 0 for p in state.players}
    for player in state.players:
        points = racks[player]["points"]
        if player != winner:
            deltas[player] -= points
            deltas[winner] += points
    left = ", ".join(f"{p} {r['points']}" for p, r in racks.items() if p != winner)
    how = (
        "empties the rack"
        if not racks[winner]["points"] and not racks[winner]["tiles"]
        else "has the rack worth least in a blocked game"
    )
    return Settlement(deltas, {"text": f"{winner} {how}; left on the racks: {left}", "winner": winner, "racks": racks})


def _winner(state: GameState, racks: dict) -> str:
    """Who emptied the rack; in a game blocked with the pool empty (assumption pool-empty), the player
    whose rack is worth least takes the winner's place."""
    if not (state.step == "over" and state.facts.get("result") and "winner" not in state.facts):
        return winner_of(state)
    least = min(r["points"] for r in racks.values())
    lowest = [p for p in state.players if racks[p]["points"] == least]
    if len(lowest) > 1:
        raise MeldsError(
            f"the blocked game leaves {', '.join(lowest)} with racks of equal value ({least}): no one "
            f"takes the winner's place"
        )
    return lowest[0]
