"""Fu: the ruleset's fu table and the fu of one reading, item by item."""

from __future__ import annotations

from functools import cached_property
from typing import NamedTuple

from solver.games.mahjong.readings import Reading
from solver.games.mahjong.scorertables import ScorerTables
from solver.games.mahjong.win import SEATS, Win, remember, round_up

_WAIT_LABELS = {wait: f"wait ({wait})" for wait in ("kanchan", "penchan", "tanki")}  # the waits worth fu


class FuTable(NamedTuple):
    """The ruleset's fu values, read once."""

    base: int
    closed_ron: int
    tsumo: int
    wait: int  # kanchan, penchan, tanki
    round_to: int
    open_pinfu: int | None  # an open hand with no fu but the base (食い平和形); None: no such rule
    chiitoitsu: int
    yaochu_triplet: int
    simple_triplet: int
    closed_factor: int
    kan_factor: int


class FuCounter(ScorerTables):
    """The Scorer's fu (a part of :class:`~solver.games.mahjong.scoring.Scorer`: the fu table, the
    winds and the caches it reads are built by ``Scorer.__init__``)."""

    _fu: FuTable

    def value_pair_fu(self, tile: int, win: Win) -> tuple[int, str]:
        fu = self.ms.fu
        seat = self.winds[SEATS.index(win.seat)]
        round_ = self.winds[SEATS.index(win.round_wind)]
        if tile in self.dragons:
            return fu.get("value_pair", 2), "value pair (dragon)"
        if tile == seat == round_:
            return fu.get("double_wind_pair", 4), "double wind pair (連風牌)"
        if tile in (seat, round_):
            return fu.get("value_pair", 2), "value pair (wind)"
        return 0, ""

    def fu_of(self, r: Reading, pinfu: bool) -> tuple[int, list[tuple[str, int]]]:
        """The fu of a reading, with the items that make it up."""
        fu = self._fu
        if r.shape == "chiitoitsu":
            return fu.chiitoitsu, [("七対子", fu.chiitoitsu)]
        tsumo = r.win.tsumo
        details = [("base", fu.base)]
        if r.shape == "kokushi":  # only 青天井 needs this (assumption aotenjou-kokushi-fu)
            extra = fu.tsumo if tsumo else fu.closed_ron
            details.append(("tsumo" if tsumo else "closed ron", extra))
            details.append((_WAIT_LABELS["tanki"], fu.wait))
            return round_up(fu.base + extra + fu.wait, fu.round_to), details
        if pinfu:
            if tsumo:
                return fu.base, details
            details.append(("closed ron", fu.closed_ron))
            return fu.base + fu.closed_ron, details
        total = fu.base
        if r.closed and not tsumo:
            total += fu.closed_ron
            details.append(("closed ron", fu.closed_ron))
        if tsumo:
            total += fu.tsumo
            details.append(("tsumo", fu.tsumo))
        yaochu = self._yaochu
        for p in r.triplets:
            value = fu.yaochu_triplet if yaochu[p.tiles[0]] else fu.simple_triplet
            if r.concealed_triplet(p):
                value *= fu.closed_factor
            if p.kind == "kan":
                value *= fu.kan_factor
            total += value
            details.append((self._triplet_labels[p.kind == "kan"][p.tiles[0]], value))
        if r.pair is not None:
            value, why = self.pair_fu(r.win)[r.pair.tiles[0]]
            if value:
                total += value
                details.append((why, value))
        if r.wait in _WAIT_LABELS:
            total += fu.wait
            details.append((_WAIT_LABELS[r.wait], fu.wait))
        if not r.closed and fu.open_pinfu is not None and (total == fu.base or (tsumo and total == fu.base + fu.tsumo)):
            return fu.open_pinfu, [("open pinfu shape (食い平和形)", fu.open_pinfu)]
        return round_up(total, fu.round_to), details

    @cached_property
    def _triplet_labels(self) -> tuple[list[str], list[str]]:
        """tile -> how its triplet's fu are named, and its kan's."""
        texts = [self.mj.tile_text(ident) for ident in self.mj.identities]
        return [f"triplet {t}" for t in texts], [f"kan {t}" for t in texts]

    def pair_fu(self, win: Win) -> list[tuple[int, str]]:
        """tile -> the fu of a pair of it, and why, for the winner's seat and the round."""
        key = (win.seat, win.round_wind)
        found = self._pair_fu_cache.get(key)
        if found is None:
            found = remember(
                self._pair_fu_cache, key, [self.value_pair_fu(i, win) for i in range(len(self.mj.identities))]
            )
        return found
