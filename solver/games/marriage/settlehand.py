"""A Marriage hand of a game log settled by the document's formula (:mod:`settle`): the tiplu the
state names, who has seen it, every player's cards (in hand and shown on the table) and the
marriages they showed."""

from __future__ import annotations

from solver.core.errors import MeldsError
from solver.core.replay import Settlement
from solver.core.state import GameState
from solver.games.marriage import settle
from solver.melding.settlehand import winner_of

MARRIAGE = {"jhiplu", "tiplu", "poplu"}


def settle_marriage(game, state: GameState) -> Settlement:
    winner = winner_of(state)
    fmt, rules = game.notation, game.ruleset.rules
    tiplu_text = state.params.get("tiplu")
    if not tiplu_text:
        raise MeldsError("the tiplu is not known at the end of the hand: the log's state names it (tiplu:)")
    tiplu = fmt.parse_many(tiplu_text)[0]
    players = []
    for name in state.players:
        held = state.hands[name]
        if isinstance(held, int) and held:
            raise MeldsError(f"{name}'s hand is hidden ({held} cards) at the end: the log writes the cards left")
        cards = list(fmt.parse_many(held)) if isinstance(held, str) and held.strip() else []
        marriages = 0
        for meld in (t for t in state.table if t.owner == name):
            faces = fmt.parse_many(meld.cards)
            cards += faces
            marriages += {rules.maal_kind(f, tiplu) for f in faces} >= MARRIAGE
        players.append(settle.PlayerResult(name, bool(state.flag(name, "seen")), tuple(cards), marriages))
    result = settle.RoundResult(game.ruleset, tiplu, winner, tuple(players), bool(state.flag(winner, "dublee")))
    settled = settle.settle(result)
    text = f"{winner} goes out (tiplu {fmt.format(tiplu)}); maal " + " ".join(
        f"{p} {v}" for p, v in settled["maal"].items()
    )
    return Settlement(settled["payments"], {"text": text, "winner": winner, "tiplu": fmt.format(tiplu), **settled})
