"""Points and payments: the basic value of han and fu, who pays what for a win, several rons on
one discard, and the payments at an exhaustive draw — every figure from the ruleset's points."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from solver.core.errors import MeldsError
from solver.games.mahjong.scorertables import ScorerTables
from solver.games.mahjong.win import SEATS, Win, remember, round_up


@dataclass(frozen=True)
class Points:
    """What a win is paid: the hand's points by payer, honba, riichi sticks, the limit reached."""

    total: int  # what the payers pay for the hand itself
    payments: dict  # payer seat (or "discarder") -> points for the hand
    honba: dict  # payer seat -> honba points
    riichi_sticks: int  # points from the sticks on the table
    basic: int
    limit: str | None  # 満貫 … 役満, or None

    @property
    def received(self) -> int:
        return self.total + sum(self.honba.values()) + self.riichi_sticks


class Payments(ScorerTables):
    """The Scorer's payments (a part of :class:`~solver.games.mahjong.scoring.Scorer`: the points
    section ``ms`` and the cache it reads are set by ``Scorer.__init__``)."""

    def _basic(self, han: int, fu: int) -> tuple[int, str | None]:
        """The basic points of han and fu, and the limit reached (remembered: few pairs occur)."""
        found = self._basics.get((han, fu))
        if found is None:
            found = remember(self._basics, (han, fu), self._new_basic(han, fu))
        return found

    def _new_basic(self, han: int, fu: int) -> tuple[int, str | None]:
        pts = self.ms.points
        limit = None
        basic = fu * 2 ** (han + 2)
        for lim in pts["limits"]:
            if han >= lim["han"]:
                basic, limit = lim["basic"], lim["name"]
        if limit is None and basic > pts["mangan_basic"]:
            basic, limit = pts["mangan_basic"], pts["limits"][0]["name"]
        return basic, limit

    # -- payments ---------------------------------------------------------------------------

    @property
    def yakuman_han(self) -> int:
        """The han a yakuman is shown as: the 数え役満 limit (13)."""
        return self.ms.points["limits"][-1]["han"]

    def seats(self, players: int) -> tuple[str, ...]:
        return SEATS[:players]

    def payments(self, basic: int, win: Win, limit: str | None = None) -> Points:
        """Who pays what for a hand of ``basic`` points (cached: a Points is read, never changed)."""
        key = (basic, win.seat, win.tsumo, win.players, win.discarder, win.honba, win.riichi_sticks, limit)
        found = self._payments.get(key)
        if found is None:
            found = remember(self._payments, key, self._new_payments(basic, win, limit))
        return found

    def _new_payments(self, basic: int, win: Win, limit: str | None) -> Points:
        pts = self.ms.points
        step = pts.get("round_to", 100)
        seats = self.seats(win.players)
        others = [s for s in seats if s != win.seat]
        honba_total = self.ms.honba * win.honba
        if not win.tsumo:
            total = round_up(basic * (pts["ron"]["dealer"] if win.dealer else pts["ron"]["other"]), step)
            payer = win.discarder or "discarder"
            payments = {payer: total}
            honba = {payer: honba_total} if honba_total else {}
        else:

            def share(seat: str) -> int:
                factor = pts["tsumo"]["dealer"] if (win.dealer or seat == "E") else pts["tsumo"]["other"]
                return round_up(basic * factor, step)

            payments = {s: share(s) for s in others}
            if win.players == 3 and self.ms.three_player_split:
                north = round_up(share("N") / 2, step)  # 北家分を残る2人で折半
                payments = {s: v + north for s, v in payments.items()}
            total = sum(payments.values())
            honba = {s: round_up(honba_total / len(others), step) for s in others} if honba_total else {}
        return Points(total, payments, honba, self.ms.riichi_stick * win.riichi_sticks, basic, limit)

    # -- several rons on one discard ------------------------------------------------------------

    def settle_rons(
        self, wins: Sequence[tuple[str, int]], discarder: str, players: int, honba: int = 0, riichi_sticks: int = 0
    ) -> dict:
        """ダブロン、トリロン: each winner (seat, hand total) is paid by the discarder; the honba and
        the sticks on the table go to the winner nearest the discarder in turn order (上家取り).
        Returns seat -> points received (negative: paid)."""
        seats = self.seats(players)
        if discarder not in seats or any(seat not in seats or seat == discarder for seat, _ in wins):
            raise MeldsError(f"winners and discarder must be different seats among {' '.join(seats)}")
        out = {s: 0 for s in seats}
        for seat, total in wins:
            out[seat] += total
            out[discarder] -= total
        k = seats.index(discarder)
        winners = {seat for seat, _ in wins}
        nearest = next(
            seats[(k + step) % len(seats)] for step in range(1, len(seats)) if seats[(k + step) % len(seats)] in winners
        )
        out[nearest] += self.ms.honba * honba + self.ms.riichi_stick * riichi_sticks
        out[discarder] -= self.ms.honba * honba
        return out

    # -- draws ------------------------------------------------------------------------------

    def settle_draw(self, players: int, tenpai: Sequence[str] = (), nagashi: Sequence[str] = ()) -> dict:
        """Payments at an exhaustive draw: 流し満貫 (fixed, summed when several) or else 不聴罰符.
        Returns seat -> points received (negative: paid); sums to zero."""
        seats = self.seats(players)
        for s in list(tenpai) + list(nagashi):
            if s not in seats:
                raise MeldsError(f"unknown seat {s!r} for {players} players (seats: {' '.join(seats)})")
        out = {s: 0 for s in seats}
        if nagashi:
            nm = self.ms.nagashi
            for s in nagashi:
                win = Win(tile=(), tsumo=True, seat=s, players=players)
                ron = self.ms.points["ron"]  # the fixed total as basic points, paid like a tsumo
                basic = nm["dealer"] // ron["dealer"] if s == "E" else nm["other"] // ron["other"]
                pay = self.payments(basic, win)
                for payer, amount in pay.payments.items():
                    out[payer] -= amount
                    out[s] += amount
            return out
        ready = [s for s in seats if s in tenpai]
        if ready and len(ready) < len(seats):
            total = self.ms.noten_penalty
            noten = [s for s in seats if s not in ready]
            for s in noten:
                out[s] -= total // len(noten)
            for s in ready:
                out[s] += total // len(ready)
        return out
