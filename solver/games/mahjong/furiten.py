"""振聴 (furiten): when a waiting hand may not win on a discard.

A hand is furiten for ron — never for tsumo — when

* one of its winning tiles lies among its own discards (its river: every tile it discarded, those
  other players called included) — for 国士無双十三面待ち every terminal and honour is a winning
  tile, so any of them discarded makes it furiten, "現物以外でも" (国士無双十三面待ちは現物以外でも振聴
  となる);
* it let a winning tile go by since its own last discard (temporary furiten, 同巡内振聴), or at any
  time after declaring riichi (riichi furiten: the hand can no longer change).

Declaring riichi while furiten is allowed (振聴立直は可); the furiten stays.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from solver.games.mahjong.hands import Hand

if TYPE_CHECKING:
    from solver.core.moves import Action
    from solver.core.state import GameState
    from solver.games.mahjong.hands import Mahjong
    from solver.games.mahjong.win import Win

MahjongMoves = Any  # solver.games.mahjong.moves.MahjongMoves, which imports this module


def waiting_hand(mj: Mahjong, hand: Hand, tile: tuple) -> Hand:
    """The 13-tile hand a 14-tile winning hand waited with: less one copy of the winning tile
    (the last one held, as a state lists the tile drawn or claimed last)."""
    concealed = list(hand.concealed)
    for i in range(len(concealed) - 1, -1, -1):
        if mj.identity(concealed[i]) == tile:
            del concealed[i]
            return Hand(tuple(concealed), hand.melds)
    return hand


def furiten_reason(mj: Mahjong, waiting: Hand, win: Win, waits: list[tuple] | None = None) -> str | None:
    """Why the waiting hand may not win this ron (None: it may). Tsumo is never furiten.
    ``waits``: the hand's, when known."""
    if win.tsumo:
        return None
    if win.furiten:
        return (
            f"振聴: {'after riichi' if win.riichi else 'since its last discard'} the hand has let a winning "
            f"tile go by, so it may not win on a discard ({'riichi furiten' if win.riichi else 'temporary furiten'})"
        )
    if not win.river:
        return None
    if waits is None:
        waits = mj.waits(waiting)
    discarded = [w for w in waits if w in set(win.river)]
    if not discarded:
        return None
    shown = " ".join(mj.tile_text(w) for w in discarded)
    every = " (a thirteen-sided wait: every terminal and honour it discarded counts)" if len(waits) == 13 else ""
    return (
        f"振聴: the hand waits on {' '.join(mj.tile_text(w) for w in waits)} and has discarded {shown} itself, "
        f"so it may not win on a discard{every}"
    )


# -- the checks of melds move (MahjongMoves.CHECKS) ---------------------------------------------------


def _ron_seat(moves: MahjongMoves, state: GameState, action: Action) -> str | None:
    """The seat of a ron with a tile to take — a discard, or the tile of a kan being robbed —
    or None."""
    if action.verb != "ron":
        return None
    if moves.offered_kan(state) or (state.step == "call" and state.discards):
        return moves.actor(state, action)
    return None


def _furiten_of(moves: MahjongMoves, state: GameState, action: Action, thirteen: bool) -> str | None:
    seat = _ron_seat(moves, state, action)
    if seat is None or isinstance(state.hands[seat], int):
        return None
    waits = moves.wait_list(state, seat)
    if (len(waits) == 13) != thirteen:
        return None
    return furiten_reason(moves.mj, moves.hand(state, seat), moves.winning(state, seat, tsumo=False)[1], waits)


def furiten_check(moves: MahjongMoves, state: GameState, action: Action) -> str | None:
    """振聴: no ron on a winning tile among one's own discards, nor after letting one go by (until
    one's next discard; after riichi, for good)."""
    return _furiten_of(moves, state, action, thirteen=False)


def furiten_thirteen_check(moves: MahjongMoves, state: GameState, action: Action) -> str | None:
    """国士無双十三面待ちは現物以外でも振聴となる: a 13-sided wait is furiten on every tile once it has
    discarded any terminal or honour."""
    return _furiten_of(moves, state, action, thirteen=True)
