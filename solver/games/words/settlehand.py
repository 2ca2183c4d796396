"""A Word Rummy hand of a game log settled: who emptied the hand wins; each other player reveals
the tiles left and scores them as the document says (the winner's best bonus words from them at
-2 a tile, the rest -1), as ``melds solve --bonus`` finds them."""

from __future__ import annotations

from solver.core.errors import MeldsError, Undecided
from solver.core.replay import Settlement
from solver.core.state import GameState


def settle_words(game, state: GameState) -> Settlement:
    out = [p for p in state.players if state.hands[p] in (0, "")]
    if not out and state.step == "over" and state.facts.get("result"):
        # FAQ 1: 場に裏向きの牌がなくなった場合は…1周1手番プレイしてゲーム終了となります。得点計算はせずにノーゲーム
        return Settlement(
            {p: 0 for p in state.players},
            {"text": str(state.facts["result"]), "winner": None, "no_game": True},
            ("no game",),
        )
    if not out:
        raise MeldsError("the hand ends with nobody out: a log's hand is settled once a player has no tile left")
    winner, session = out[0], game.session_for()
    deltas, revealed = {p: 0 for p in state.players}, {}
    for player in state.players:
        held = state.hands[player]
        if player == winner:
            continue
        if isinstance(held, int):
            raise MeldsError(f"{player}'s hand is hidden ({held} tiles) at the end: the log writes the tiles left")
        result, _ = session.solve({"bonus": True, "hand": held})
        if result.get("undecided"):  # the budget ran out, not the input: exit 3
            raise Undecided(f"the bonus words of {player}'s tiles were not found within the budget")
        deltas[player] = int(result["points"])
        revealed[player] = {
            "tiles": result["revealed"],
            "bonus_words": [w["word"] for w in result["words"]],
            "points": result["points"],
        }
    words = "; ".join(f"{p}: {'・'.join(r['bonus_words']) or '—'} ({r['points']})" for p, r in revealed.items())
    return Settlement(
        deltas, {"text": f"{winner} goes out; bonus words {words}", "winner": winner, "revealed": revealed}
    )
