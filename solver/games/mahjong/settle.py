"""Settling a replayed hand: a win scored from its tiles and the facts of the play, and paid with
honba, riichi sticks and liability (包); an exhaustive draw paid by tenpai or 流し満貫. Seats are
absolute (the record's); the scorer works in winds, ``E`` the dealer."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from solver.games.mahjong.flow import GameFlow
from solver.games.mahjong.hands import Hand
from solver.games.mahjong.record import WinRecord
from solver.games.mahjong.scoring import NotAWin
from solver.games.mahjong.tenhou import yaku_id

if TYPE_CHECKING:
    from solver.core.state import GameState

HandReplay = Any  # solver.games.mahjong.replay.HandReplay, which imports this module


class Settler:
    def __init__(self, game, flow: GameFlow):
        self.game, self.flow = game, flow
        self.mj, self.scorer = game.mj, game.scorer
        self.ms = game.rules.mahjong_scoring

    def _identities(self, tiles) -> tuple:
        return tuple(self.mj.identity(self.mj.parse_tiles(t)[0]) for t in tiles or ())

    def score_win(
        self,
        replay: HandReplay,
        state: GameState,
        seat: int,
        discarder: int | None,
        record: WinRecord | None,
        gets_sticks: bool,
    ) -> list[int]:
        """One win's score changes (absolute seats), its account in the replay's report: the tiles
        and facts the state shows (as the moves judged the win), the dora the record shows."""
        hand, n, wind = replay.hand, replay.n, replay.wind
        tsumo = discarder is None
        win = replay.moves.winning(state, wind(seat), tsumo)[1]
        dora = record.dora if record is not None and record.dora is not None else hand.dora
        ura = record.ura if record is not None and record.ura is not None else hand.ura
        sticks = hand.sticks + len(replay.table.riichi) - (1 if replay.table.pending_riichi is not None else 0)
        win = win.but(
            dora_indicators=self._identities(dora),
            ura_indicators=self._identities(ura),
            honba=hand.honba if gets_sticks else 0,
            riichi_sticks=sticks if gets_sticks else 0,
            river=(),
            furiten=False,
        )
        try:  # the tiles as the judge read them, in the situation the record shows
            score = self.scorer.score_read(replay.moves.win_read(state, wind(seat), tsumo), win)
        except NotAWin as exc:  # the moves judged it a win with the same facts: this does not happen
            replay.report.fail("win", "a win", str(exc))
            return [0] * n
        deltas = [0] * n
        liable = self._liable(replay, seat, score) if self.flow.pao else None
        pts = score.points
        for payer, amount in pts.payments.items():
            payer_seat = replay.seat(payer)
            if liable is not None and liable != payer_seat:
                if tsumo:
                    deltas[liable] -= amount
                else:  # the liable player pays half a ron
                    deltas[liable] -= amount // 2
                    deltas[payer_seat] -= amount - amount // 2
            else:
                deltas[payer_seat] -= amount
            deltas[seat] += amount
        for payer, amount in pts.honba.items():
            deltas[liable if liable is not None and tsumo else replay.seat(payer)] -= amount
            deltas[seat] += amount
        deltas[seat] += pts.riichi_sticks
        account = self._account(score, seat, discarder, liable, deltas, record, wind)
        if win.nuki:  # the 北 set aside, counted in the dora
            account["nuki"] = win.nuki
            account["text"] = account["text"].replace(f" ドラ{score.dora}", f" ドラ{score.dora} (北抜き{win.nuki})", 1)
        replay.report.result.setdefault("wins", []).append(account)
        replay.report.result["text"] = "; ".join(filter(None, [replay.report.result.get("text"), account["text"]]))
        replay.report.tags = tuple(dict.fromkeys(replay.report.tags + tuple(y.name for y in score.yaku)))
        if record is not None and record.deltas is not None and record.deltas != deltas:
            replay.report.fail(
                "win", record.deltas, deltas, seat=seat, yaku=account["yaku"], record_yaku=account.get("record_yaku")
            )
        return deltas

    def _liable(self, replay: HandReplay, seat: int, score) -> int | None:
        """The seat that fed the meld completing a 包 yaku (the third dragon, the fourth wind)."""
        ids = {y.id for y in score.yaku}
        for yid in self.flow.pao:
            if yid not in ids:
                continue
            group = set(self.scorer.dragons if yid == "daisangen" else self.scorer.winds)
            fed = [(tile, src) for tile, src in replay.table.feeders.get(seat, []) if self.mj.index[tile] in group]
            if len(fed) >= len(group) and fed[-1][1] is not None:
                return fed[-1][1]
        return None

    def _account(self, score, seat, discarder, liable, deltas, record, wind) -> dict:
        how = "ツモ" if discarder is None else f"ロン ← {discarder}"
        value = (
            f"{score.points.limit} " if score.points.limit else f"{score.fu}符{score.han}飜 "
        ) + f"{score.points.total}点"
        text = (
            f"{seat} {how}: {'・'.join(y.name for y in score.yaku)}"
            + (f" ドラ{score.dora}" if score.dora else "")
            + f", {value}"
            + (f", 包 {liable}" if liable is not None else "")
        )
        out = {
            "text": text,
            "seat": seat,
            "wind": wind(seat),
            "from": discarder,
            "liable": liable,
            "yaku": [{"id": y.id, "name": y.name, "han": y.han} for y in score.yaku],
            "han": score.han,
            "fu": score.fu,
            "dora": score.dora,
            "limit": score.points.limit,
            "points": score.points.total,
            "deltas": deltas,
        }
        if record is not None:
            out["record_yaku"] = [{"name": n, "id": yaku_id(n), "han": h} for n, h in record.yaku]
            out["record"] = {"fu": record.fu, "points": record.points, "limit": record.limit, "deltas": record.deltas}
        return out

    # -- draws ----------------------------------------------------------------------------------------

    def tenpai(self, hand: Hand) -> bool:
        waits = self.mj.waits(hand)
        if not self.flow.tenpai_all_copies:  # the concealed tiles: a called meld's are no longer in the hand
            held = self.mj.counts(hand.concealed)
            waits = [w for w in waits if held[self.mj.index[w]] < 4]
        return bool(waits)

    def exhaustive(self, replay: HandReplay, state: GameState) -> tuple[list[int], list[int], list[int]]:
        """An exhaustive draw's score changes, the seats in tenpai and those with 流し満貫."""
        n, t = replay.n, replay.table
        tenpai = sorted(s for s in range(n) if self.tenpai(replay.moves.hand(state, replay.wind(s))))
        yaochu = self.scorer.tile_classes["yaochu"]
        rivers = state.facts.get("rivers") or {}  # each seat's discards, called ones too
        nagashi = sorted(
            s
            for s, tiles in ((replay.seat(w), replay.moves.river(state, w).split()) for w in rivers)
            if s not in t.robbed
            and tiles
            and all(yaochu[self.mj.index[self.mj.identity(self.mj.parse_tiles(x)[0])]] for x in tiles)
        )
        by_wind = self.scorer.settle_draw(n, [replay.wind(s) for s in tenpai], [replay.wind(s) for s in nagashi])
        return [by_wind[replay.wind(s)] for s in range(n)], tenpai, nagashi
