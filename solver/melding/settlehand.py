"""A hand of a rummy game, played to its end in a game log, settled by the ruleset's round
scoring (``round_scoring:``): the player who went out, the cards left in the others' hands, the
melds on the table with their owners, and whether the winner went out in one go."""

from __future__ import annotations

from collections.abc import Mapping

from solver.core.deck import Face
from solver.core.errors import MeldsError
from solver.core.notation import Notation
from solver.core.replay import Settlement
from solver.core.state import GameState
from solver.melding.meld.checker import MeldChecker
from solver.melding.puzzle import table_meld
from solver.melding.rounds import Round, score_round


def winner_of(state: GameState) -> str:
    """The player who went out: the state's ``facts.winner`` (a knock keeps cards), else the
    player whose hand is empty."""
    if state.facts.get("winner") in state.players:
        return state.facts["winner"]
    out = [
        p for p in state.players if (hand := state.hands[p]) in (0, "") or (isinstance(hand, str) and not hand.strip())
    ]
    if not out:
        raise MeldsError(
            "the hand ends with nobody out: a log's hand is settled once a player has gone out "
            "(every card melded or discarded)"
        )
    return out[0]


def went_out_in_one_go(turn_start: GameState, winner: str) -> bool:
    """Did the winner go out in the turn with nothing laid down before it — no meld of their own on
    the table as the turn began, and no meld or lay-off in an earlier turn (ゴーイング・ラミー: 最後の
    自分の番より前にはメルドやレイオフを全くしていなかった; 公開メルドしていない状態で一度に…上がる)?"""
    return not (
        any(t.owner == winner for t in turn_start.table)
        or turn_start.flag(winner, "melded")
        or turn_start.flag(winner, "laid_off")
    )


def blocked_winner(state: GameState, worth: Mapping[str, int]) -> str:
    """Who went out; in a game that ended blocked (over, with a result and no winner: every player
    passed with the stock empty), the player whose hand is ``worth`` least takes the winner's place."""
    if not (state.step == "over" and state.facts.get("result") and "winner" not in state.facts):
        return winner_of(state)
    least = min(worth.values())
    lowest = [p for p in state.players if worth[p] == least]
    if len(lowest) > 1:
        raise MeldsError(
            f"the blocked game leaves {', '.join(lowest)} with hands of equal value ({least}): no one "
            "takes the winner's place"
        )
    return lowest[0]


def hands_left(state: GameState, notation: Notation) -> dict[str, tuple[Face, ...]]:
    """The cards left in each player's hand at the end (a hidden hand must be empty: to count its
    cards the log writes them)."""
    hands = {}
    for player in state.players:
        held = state.hands[player]
        if isinstance(held, int):
            if held:
                raise MeldsError(
                    f"{player}'s hand is hidden ({held} cards) at the end: the log writes the cards left, to count them"
                )
            held = ""
        hands[player] = tuple(notation.parse_many(held)) if held.strip() else ()
    return hands


def settle_melds(state: GameState, turn_start: GameState, checker: MeldChecker) -> Settlement:
    rs, notation = state.ruleset, checker.notation
    winner = winner_of(state)
    hands = hands_left(state, notation)
    melds = tuple(table_meld(notation, t.owner, t.cards) for t in state.table)
    one_go = went_out_in_one_go(turn_start, winner)
    systems = score_round(Round(rs, state.players, winner, one_go, melds, hands), checker)
    if not systems:
        raise MeldsError(f"{rs.id} has no round_scoring under these options: nothing settles its hands")
    deltas = {p: sum(s["payments"].get(p, 0) for s in systems) for p in state.players}
    tags = ("one go",) if one_go else ()
    text = (
        f"{winner} goes out"
        + (" in one go" if one_go else "")
        + "; "
        + "; ".join(f"{s['name']}: " + " ".join(f"{p} {v:+d}" for p, v in s["payments"].items() if v) for s in systems)
    )
    return Settlement(deltas, {"text": text, "winner": winner, "one_go": one_go, "systems": systems}, tags)
