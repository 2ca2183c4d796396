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

from typing import TYPE_CHECKING

from solver.games.mahjong.hands import Hand

if TYPE_CHECKING:
    from solver.games.mahjong.hands import Mahjong
    from solver.games.mahjong.win import Win


def waiting_hand(mj: Mahjong, hand: Hand, tile: tuple) -> Hand:
    """The 13-tile hand a 14-tile winning hand waited with: less one copy of the winning tile
    (the last one held, as a state lists the tile drawn or claimed last)."""
    concealed = list(hand.concealed)
    for i in range(len(concealed) - 1, -1, -1):
        if mj.identity(concealed[i]) == tile:
            del concealed[i]
            return Hand(tuple(concealed), hand.melds)
    return hand


def furiten_reason(mj: Mahjong, waiting: Hand, win: Win) -> str | None:
    """Why the waiting hand may not win this ron (None: it may). Tsumo is never furiten."""
    if win.tsumo:
        return None
    if win.furiten:
        return (
            f"振聴: {'after riichi' if win.riichi else 'since its last discard'} the hand has let a winning "
            f"tile go by, so it may not win on a discard ({'riichi furiten' if win.riichi else 'temporary furiten'})"
        )
    if not win.river:
        return None
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
