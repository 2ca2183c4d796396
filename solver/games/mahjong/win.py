"""The facts of a win that the tiles do not show, and the small helpers every part of the scorer
shares (bounded caches, rounding up)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from solver.core.errors import MeldsError

SEATS = ("E", "S", "W", "N")
# the facts of a win that are flags: the one list of their names. A pattern's ``flag:`` spells them
# with '-' and adds ``ron`` (a win not by tsumo): PATTERN_FLAGS; a state's ``facts.win_facts`` gives
# all but ``tsumo`` (the action says it): WIN_FACT_FLAGS. tools/gen_schema.py writes both into the
# schemas from here.
WIN_FLAGS = (
    "riichi",
    "double_riichi",
    "ippatsu",
    "tsumo",
    "haitei",
    "houtei",
    "rinshan",
    "chankan",
    "tenhou",
    "chiihou",
    "renhou",
)
PATTERN_FLAGS = tuple(
    spelt for name in WIN_FLAGS for spelt in (name.replace("_", "-"), *(["ron"] if name == "tsumo" else []))
)
SEAT_NAMES = {"E": "東家", "S": "南家", "W": "西家", "N": "北家"}
# the Win fields a state's ``facts.win_facts`` may give for a seat (what its tiles and play cannot show)
WIN_FACT_FLAGS = tuple(name for name in WIN_FLAGS if name != "tsumo")
WIN_FACT_TILES = ("dora_indicators", "ura_indicators")


class NotAWin(MeldsError):
    """The tiles do not win, or win with no yaku (役が不足しています)."""

    code = "not-a-win"


@dataclass(frozen=True)
class Win:
    """The facts of a win that the tiles do not show."""

    tile: tuple  # the identity of the winning tile
    tsumo: bool = False
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    haitei: bool = False
    houtei: bool = False
    rinshan: bool = False
    chankan: bool = False
    tenhou: bool = False
    chiihou: bool = False
    renhou: bool = False
    seat: str = "E"  # the winner's seat wind: E S W N
    round_wind: str = "E"
    dora_indicators: tuple = ()  # identities
    ura_indicators: tuple = ()
    honba: int = 0
    riichi_sticks: int = 0
    dealer_streak: int = 0  # the dealer's consecutive wins, this one included
    players: int = 4
    discarder: str | None = None  # the seat that dealt in (ron)
    river: tuple = ()  # identities the winner discarded this hand (振聴 on a ron waiting on one)
    furiten: bool = False  # the winner let a winning tile go by (temporary, or after riichi)
    nuki: int = 0  # tiles the winner set aside as 抜きドラ (北抜き), each a dora

    @cached_property
    def flags(self) -> frozenset[str]:
        """The facts that hold, as pattern ``flag:`` names; ``ron`` is a win on a discard."""
        return frozenset([n.replace("_", "-") for n in WIN_FLAGS if getattr(self, n)] + ["ron"] * (not self.tsumo))

    @property
    def dealer(self) -> bool:
        return self.seat == "E"

    def but(self, **changes: Any) -> Win:
        """The win with these fields changed: what ``dataclasses.replace`` gives, without its
        checks (a replay judges and settles every win); ``flags`` worked out again when asked."""
        fields = dict(self.__dict__)
        fields.pop("flags", None)
        fields.update(changes)
        new = object.__new__(Win)
        new.__dict__.update(fields)
        return new


CACHE_LIMIT = 1 << 16  # entries a scorer's cache keeps before it starts afresh (long batches)


def remember(cache: dict, key, value):
    """cache[key] = value, the cache emptied first when full: the scorer's caches hold what recurs
    from hand to hand (suit patterns, keys, payments), and a long batch must not grow them forever."""
    if len(cache) >= CACHE_LIMIT:
        cache.clear()
    cache[key] = value
    return value


def round_up(value: float, step: int) -> int:
    return int(math.ceil(value / step - 1e-9) * step)
