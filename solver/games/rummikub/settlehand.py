"""A Rummikub hand of a game log settled: who emptied the rack wins; each other player loses the
value of the tiles left on the rack (a joker its penalty) and the winner gains their sum."""

from __future__ import annotations

from solver.core.errors import MeldsError
from solver.core.replay import Settlement
from solver.core.state import GameState
from solver.melding.settlehand import winner_of


def settle_racks(game, state: GameState) -> Settlement:
    winner = winner_of(state)
    deltas = {p: 0 for p in state.players}
    racks = {}
    for player in state.players:
        held = state.hands[player]
        if isinstance(held, int):
            if held:
                raise MeldsError(f"{player}'s rack is hidden ({held} tiles) at the end: the log writes the tiles "
                                 f"left, to count them")
            held = ""
        faces = game.notation.parse_many(held) if held.strip() else []
        points = sum(game.rules.joker_penalty if f.rank is None else int(f.rank) for f in faces)
        racks[player] = {"tiles": [game.notation.format(f) for f in faces], "points": points}
        if player != winner:
            deltas[player] -= points
            deltas[winner] += points
    left = ", ".join(f"{p} {r['points']}" for p, r in racks.items() if p != winner)
    return Settlement(deltas, {"text": f"{winner} empties the rack; left on the racks: {left}", "winner": winner,
                               "racks": racks})
