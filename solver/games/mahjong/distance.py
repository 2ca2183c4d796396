"""``melds solve --shanten`` and ``--discards``: a hand read, its shanten or its discard table
worked out (:mod:`solver.games.mahjong.shanten`), the answer presented."""

from __future__ import annotations

from solver.core.errors import ExitCode, MeldsError, TooManyCopies
from solver.core.game import Request
from solver.core.result import Result
from solver.games.mahjong import present
from solver.games.mahjong.hands import Mahjong
from solver.games.mahjong.shanten import DiscardTable, ShantenTables
from solver.games.mahjong.tiles import Hand


def answer(mj: Mahjong, tables: ShantenTables, question: str, words: str, request: Request) -> Result:
    """The answer to ``--shanten`` (13 or 14 tiles) or ``--discards`` (14 tiles)."""
    hand = mj.parse_hand(words)
    if question == "shanten":
        size = len(hand.concealed) + 3 * len(hand.melds)
        if size != mj.winning_size - 1 and size != mj.winning_size:
            raise MeldsError(
                f"a hand's shanten is asked of {mj.winning_size - 1} or {mj.winning_size} tiles (a declared kan "
                f"counts as 3); this hand has {size}: {mj.format_hand(hand)}"
            )
        shanten = tables.shanten_of(hand.concealed, len(hand.melds))
        data = present.shanten_json(mj, hand, shanten)
        return Result(data, ExitCode.of(shanten.value <= 0), lambda: present.shanten_text(mj, hand, shanten))
    table = discard_table(mj, tables, hand, request.get("visible"), request.get("dora_indicators"))
    return Result(
        present.discards_json(mj, table), ExitCode.of(table.best <= 0), lambda: present.discards_text(mj, table)
    )


def discard_table(mj: Mahjong, tables: ShantenTables, hand: Hand, visible: object, indicators: object) -> DiscardTable:
    """The table of a hand one tile over, with the tiles given as seen (tenhou text, or None)."""
    mj.require_size(hand, mj.winning_size, "a hand before its discard", "For 13 tiles ask --shanten.")
    counts = mj.counts(hand.concealed)
    seen = mj.parse_tiles(str(visible or "")), mj.parse_tiles(str(indicators or ""))
    left = copies_left(mj, tables.copies, hand, seen[0] + seen[1])
    rows = tables.discards(counts, len(hand.melds), left)
    return DiscardTable(hand, tables.shanten(counts, len(hand.melds)), rows, *seen)


def copies_left(mj: Mahjong, copies: tuple[int, ...], hand: Hand, seen: list) -> list[int]:
    """The copies of each identity neither in the hand (declared melds included) nor seen
    elsewhere (red fives counted as fives); more than the set holds is bad input."""
    held = mj.counts(hand.tiles)
    out = [n - h for n, h in zip(copies, held, strict=True)]
    for face in seen:
        i = mj.index[mj.identity(face)]
        out[i] -= 1
        if out[i] < 0:
            others = sum(1 for f in seen if mj.identity(f) == mj.identity(face))
            raise TooManyCopies(
                f"{mj.tile_text(mj.identity(face))}: {held[i]} in the hand and {others} seen (--visible, "
                f"--dora-indicators), but the set has {copies[i]}"
            )
    return out
