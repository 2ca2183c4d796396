"""A recorded game of riichi mahjong replayed hand by hand through the game's own moves.

Each hand is rebuilt from its deal as a game state (seats as winds, ``E`` the dealer), and every
action of the record is judged by :class:`~solver.games.mahjong.moves.MahjongMoves` — the rules
``melds move`` applies, kans and robbing them included — with ``pass`` between a discard and the
next draw when nobody calls. The first action a rule forbids ends the hand's replay (``illegal``).
A hand played through is settled: each win scored from its tiles and the facts its state shows
(:meth:`~solver.games.mahjong.moves.MahjongMoves.winning`: riichi, ippatsu, the last tile, the
replacement tile, robbing a kan, the first go-around) with the dora the record shows, paid with
honba, sticks and liability as the ruleset says; a draw paid by tenpai or 流し満貫; an abortive
draw checked against the state. The score changes are compared with the record's, and the
game's flow — who deals next, honba, sticks, the scores each hand starts with, the end and the
final placement — with the hands that follow.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from solver.core.errors import MeldsError
from solver.core.replay import GameReport, HandReport
from solver.core.source import source_json
from solver.core.state import GameState
from solver.core.validate import state_problems
from solver.games.mahjong.fastpath import CountedTable, fast_rules
from solver.games.mahjong.flow import GameFlow, HandStart, Outcome, points_close
from solver.games.mahjong.hands import Hand
from solver.games.mahjong.record import GameRecord, HandRecord, Move
from solver.games.mahjong.settle import Settler
from solver.games.mahjong.tenhou import yaku_id

SEATS = "ESWN"
ABORTIVE_IDS = {
    "九種九牌": "nine-terminals",
    "四風連打": "four-winds",
    "四槓散了": "four-kans",
    "四開槓": "four-kans",
    "四家立直": "four-riichi",
    "三家和了": "triple-ron",
    "三家和": "triple-ron",
}
EXHAUSTIVE = {"流局", "全員聴牌", "全員不聴", "流し満貫", "荒牌平局"}
CALLS = {"chi", "pon", "minkan"}
ANSWERS = CALLS | {"ron"}  # actions on the tile on the table
TAKEN = frozenset({"draw", "discard", "riichi", "chi", "pon"})  # what the counted table may take


@dataclass
class Table:
    """What settling the hand needs beyond the state: the riichi sticks paid, and who fed whom."""

    riichi: set = field(default_factory=set)  # seats that declared riichi
    pending_riichi: int | None = None  # a riichi discard not yet passed (a ron on it voids it)
    accepted: int = 0  # riichi sticks paid this hand
    robbed: set = field(default_factory=set)  # seats one of whose discards was called
    feeders: dict = field(default_factory=dict)  # seat -> [(tile identity, seat that fed the call)]


class HandReplay:
    def __init__(self, game, record: GameRecord, hand: HandRecord, flow: GameFlow):
        self.game, self.record, self.hand, self.flow = game, record, hand, flow
        self.mj, self.moves = game.mj, game.moves()
        self.settler = Settler(game, flow)
        self.n = record.players
        self.table = Table()
        self.rules = fast_rules(self.moves)  # None: every action judged by the moves
        self.counted: CountedTable | None = None  # the position as counts, while it can be held so
        self.state: GameState | None = None  # the position as the moves' state (shown from the counts)
        self.report = HandReport(
            flow.round_name(hand.round, hand.honba, self.n), number=hand.number, expected=hand.deltas
        )

    # -- seats ---------------------------------------------------------------------------------

    def wind(self, seat: int) -> str:
        return SEATS[(seat - self.hand.dealer) % self.n]

    def seat(self, wind: str) -> int:
        return (SEATS.index(wind) + self.hand.dealer) % self.n

    # -- the replay ----------------------------------------------------------------------------

    def start(self) -> GameState:
        hands = {self.wind(s): "".join(tiles) for s, tiles in enumerate(self.hand.deal)}
        return GameState(
            self.game.ruleset,
            tuple(SEATS[: self.n]),
            "E",
            "draw",
            hands,
            stock=self._live(),
            flags=dict(zip(SEATS, self._flags(), strict=False)),
            facts=self._facts(),
            path=self.record.path,
        )

    def _live(self) -> int:
        return 4 * len(self.mj.identities) - 14 - 13 * self.n

    def _flags(self) -> list[dict]:
        """Each wind's flags as the hand starts (E first)."""
        return [{"points": self.hand.scores[self.seat(w)]} for w in SEATS[: self.n]]

    def _facts(self) -> dict:
        return {"round": SEATS[min(self.hand.round // 4, 3)], "first_go_around": True, "kans": {}}

    def _deal(self) -> bool:
        """The hand's start: counted when every tile dealt is one the set holds, else checked as a
        state (a bad deal is the hand's illegal first action, reported)."""
        if self.rules is not None:
            deal = [self.hand.deal[self.seat(w)] for w in SEATS[: self.n]]
            self.counted = CountedTable.dealt(
                self.rules, tuple(SEATS[: self.n]), deal, self._live(), self._flags(), self._facts(), self.record.path
            )
            if self.counted is not None:
                return True
        try:
            state = self.start()
            problems = state_problems(state, self.game)  # the deal: hands of tiles the set holds
        except MeldsError as exc:  # a tile that does not exist
            problems = [exc]  # type: ignore[list-item]  # reported alike: code, message, source
        if problems:
            self.report.forbid(
                0,
                None,
                "(the deal)",
                [
                    {"code": p.code, "message": str(p), "source": getattr(p, "source", None) and source_json(p.source)}
                    for p in problems[:3]
                ],
            )
            return False
        self._adopt(state)
        return True

    # -- the position: counted while it can be, else the moves' state ---------------------------

    def position(self) -> GameState:
        """The hand's position as a state (the counted table's, shown once until it changes)."""
        if self.state is None:
            assert self.counted is not None
            self.state = self.counted.state()
        return self.state

    def _adopt(self, state: GameState) -> None:
        """The moves' state after an action they judged: counted again when it can be."""
        self.state = state
        self.counted = CountedTable.of_state(self.rules, state) if self.rules is not None else None

    def _step(self) -> tuple[str, int]:
        """The step and the seat of the discard on the table (else the turn's)."""
        counted = self.counted
        if counted is not None:
            by = counted.by if counted.by is not None else counted.turn
            return counted.step, self.seat(SEATS[by])
        state = self.position()
        return state.step, self.seat(state.discarded_by or state.turn)

    def run(self) -> tuple[HandReport, Outcome | None]:
        if not self._deal():
            return self.report, None
        moves = self.hand.moves
        k = 0
        while k < len(moves):
            if self.counted is not None:
                k = self._counted_run(moves, k)
                if k == len(moves):
                    break
            move = moves[k]
            if move.verb == "ron":
                rons = [m for m in moves[k:] if m.verb == "ron"]
                return self.report, self._rons(self.position(), rons, k)
            step, discarder = self._step()
            answers = move.verb in ANSWERS and move.seat != discarder
            if step == "call" and not answers and not self._pass(k, move.seat):
                return self.report, None
            if move.verb in ("tsumo", "kyuushu"):
                return self.report, self._last(self.position(), move, k)
            if not self._play(move, k):
                return self.report, None
            self._track(move)
            k += 1
        return self.report, self._end(self.position(), len(moves))

    def _counted_run(self, moves: list[Move], k: int) -> int:
        """The record's actions from ``k`` taken on the counted table while it takes them (the
        pass before each that does not answer the discard on the table included): the index of
        the first one it leaves to the moves."""
        counted, dealer, n = self.counted, self.hand.dealer, self.n
        assert counted is not None
        self.state = None
        table, end = self.table, len(moves)
        while k < end:
            if table.pending_riichi is None or counted.step != "call":  # no riichi waits on a pass
                k = counted.run(moves, k, dealer)
                if k == end:
                    break
            move = moves[k]
            verb, seat = move.verb, (move.seat - dealer) % n
            if verb not in TAKEN:
                return k
            if counted.step == "call" and not (verb in ANSWERS and seat != counted.by):
                if not counted.pass_():
                    return k
                self._passed()
            if not counted.take(seat, verb, move.tile, move.own):
                return k
            self._track(move)
            k += 1
        return k

    def _play(self, move: Move, k: int) -> bool:
        """One action of the record: taken on the counted table, else judged by the moves."""
        counted = self.counted
        if counted is not None and counted.take(
            (move.seat - self.hand.dealer) % self.n, move.verb, move.tile, move.own
        ):
            self.state = None
            return True
        after = self._judge(self.position(), self._action(move), k, move.seat, move.raw)
        if after is None:
            return False
        self._adopt(after)
        return True

    def _action(self, move: Move) -> str:
        wind = self.wind(move.seat)
        if move.verb in ("draw", "discard", "riichi", "kakan", "ankan"):
            if move.tile is None:
                return f"{wind}: {move.verb} ?"
            return f"{wind}: {move.verb} {move.tile}"
        if move.verb == "chi":
            return f"{wind}: chi {''.join(move.own)}"
        if move.verb == "pon":
            return f"{wind}: pon {''.join(move.own)}"
        if move.verb == "minkan":
            return f"{wind}: kan {''.join(move.own)}"
        if move.verb == "nuki":
            return f"{wind}: nuki {move.tile}"
        return f"{wind}: {move.verb}"

    def _judge(self, state: GameState, text: str, k: int, seat: int, raw: str) -> GameState | None:
        """The state after an action, or None when it is illegal (the report says why)."""
        try:
            judgement = self.moves.judge(state, text, describe=False)
        except MeldsError as exc:
            reasons = [{"code": exc.code, "message": str(exc), "source": None}]
        else:
            if judgement.legal:
                return judgement.state
            reasons = judgement.reasons
        self.report.forbid(k + 1, seat, text, reasons, raw)
        self.report.result = {"seat": seat, "wind": self.wind(seat)}
        return None

    # -- what settling needs -----------------------------------------------------------------------

    def _track(self, move: Move) -> None:
        t, s = self.table, move.seat
        if move.verb == "riichi":
            t.riichi.add(s)
            t.pending_riichi = s
        elif move.verb in CALLS:
            if t.pending_riichi is not None:
                t.accepted += 1  # the riichi discard is called, not won on: the riichi stands
                t.pending_riichi = None
            t.robbed.add(move.source)
            t.feeders.setdefault(s, []).append((self.mj.identity(self.mj.parse_tiles(move.tile)[0]), move.source))

    def _pass(self, k: int, seat: int) -> bool:
        """Nobody calls the tile on the table: the pass judged (False: illegal, reported), and a
        riichi declared with that tile stands."""
        counted = self.counted
        if counted is not None and counted.pass_():
            self.state = None
        else:
            after = self._judge(self.position(), "pass", k, seat, "(nobody calls)")
            if after is None:
                return False
            self._adopt(after)
        self._passed()
        return True

    def _passed(self) -> None:
        """Nobody took the tile on the table: a riichi declared with it stands."""
        t = self.table
        if t.pending_riichi is not None:
            t.accepted += 1
            t.pending_riichi = None

    def discarder(self, state: GameState) -> int:
        """The seat a ron takes its tile from: the discard's, or the kan's being robbed."""
        offered = self.moves.offered_kan(state)
        return self.seat(offered["by"] if offered else state.discarded_by or state.turn)

    # -- the end of the hand -----------------------------------------------------------------------

    def _last(self, state: GameState, move: Move, k: int) -> Outcome | None:
        if move.verb == "kyuushu":
            if self._judge(state, f"{self.wind(move.seat)}: kyuushu", k, move.seat, move.raw) is None:
                return None
            return self._abortive("nine-terminals", k)
        win = self.hand.wins[0] if self.hand.wins else None
        if self._judge(state, f"{self.wind(move.seat)}: tsumo", k, move.seat, move.raw) is None:
            return None
        scored = self.settler.score_win(self, state, move.seat, None, win, gets_sticks=True)
        self.report.deltas = scored
        return self._compare(Outcome("win", dealer_won=move.seat == self.hand.dealer))

    def _rons(self, state: GameState, rons: list[Move], k: int) -> Outcome | None:
        if state.step != "call" and self.moves.offered_kan(state) is None:
            move = rons[0]
            self._judge(state, f"{self.wind(move.seat)}: ron", k, move.seat, move.raw)
            return None
        discarder = self.discarder(state)
        for j, move in enumerate(rons):
            if self._judge(state, f"{self.wind(move.seat)}: ron", k + j, move.seat, move.raw) is None:
                return None
        order = sorted(rons, key=lambda m: (m.seat - discarder) % self.n)
        if len(rons) == 3 and "triple-ron" in self.flow.abortive:  # 三家和: three seats (four play)
            return self._abortive("triple-ron", k)
        totals = [0] * self.n
        for j, move in enumerate(rons):
            win = self.hand.wins[j] if j < len(self.hand.wins) else None
            deltas = self.settler.score_win(self, state, move.seat, discarder, win, gets_sticks=move is order[0])
            totals = [a + b for a, b in zip(totals, deltas, strict=True)]
        self.report.deltas = totals
        return self._compare(Outcome("win", dealer_won=any(m.seat == self.hand.dealer for m in rons)))

    def _end(self, state: GameState, k: int) -> Outcome | None:
        """The record's moves are played: the hand ends as its result says."""
        result = self.hand.result
        if result in ABORTIVE_IDS:
            draw = ABORTIVE_IDS[result]
            if draw == "triple-ron":
                return self._triple_ron(state, k)
            if state.step == "call":
                if not self._pass(k, self.seat(state.turn)):
                    return None
                state = self.position()
            happened = {
                "four-winds": "四風連打" in str(state.facts.get("result", "")),
                "four-kans": "四開槓" in str(state.facts.get("result", "")),
                "four-riichi": all(state.flag(w, "riichi") for w in state.players),
            }
            if draw in happened and not happened[draw]:
                return self._wrong_end(
                    k, state, f"the record ends the hand in {result}, which the play has not brought about"
                )
            return self._abortive(draw, k)
        if result not in EXHAUSTIVE:
            return self._wrong_end(k, state, f"the record ends the hand with {result!r} after its last action")
        if state.step == "call":
            if not self._pass(k, self.seat(state.turn)):
                return None
            state = self.position()
        if state.step != "draw" or state.stock > 0:
            return self._wrong_end(
                k,
                state,
                f"the record ends the hand in a draw with {state.stock} tiles left in "
                f"the wall (a draw is missing, or the hand was cut short)",
            )
        deltas, tenpai, nagashi = self.settler.exhaustive(self, state)
        self.report.deltas = deltas
        self.report.result = {
            "draw": "exhaustive",
            "tenpai": tenpai,
            "nagashi": nagashi,
            "text": f"流局: 聴牌 {' '.join(map(str, tenpai)) or '—'}"
            + (f", 流し満貫 {' '.join(map(str, nagashi))}" if nagashi else ""),
        }
        if self.hand.tenpai is not None and sorted(self.hand.tenpai) != tenpai and not nagashi:
            self.report.fail("tenpai", sorted(self.hand.tenpai), tenpai)
        if nagashi:
            self.report.tags = ("流し満貫",)
        return self._compare(Outcome("exhaustive", dealer_tenpai=self.hand.dealer in tenpai))

    def _triple_ron(self, state: GameState, k: int) -> Outcome | None:
        if state.step != "call" and self.moves.offered_kan(state) is None:
            return self._wrong_end(k, state, "三家和 needs a discard on the table")
        discarder = self.discarder(state)
        for seat in range(self.n):
            if seat != discarder and self._judge(state, f"{self.wind(seat)}: ron", k, seat, "(三家和)") is None:
                return None
        return self._abortive("triple-ron", k)

    def _abortive(self, draw: str, k: int) -> Outcome | None:
        if draw not in self.flow.abortive:
            self.report.forbid(
                k + 1,
                None,
                f"({self.hand.result})",
                [
                    {
                        "code": "no-abortive-draw",
                        "source": source_json(self.flow.sources.get("abortive")),
                        "message": f"{self.game.ruleset.id} does not end a hand in {self.hand.result}: play goes on",
                    }
                ],
            )
            return None
        self.report.deltas = [0] * self.n
        self.report.result = {"draw": draw, "text": f"途中流局: {self.hand.result}"}
        return self._compare(Outcome("abortive", draw=draw))

    def _wrong_end(self, k: int, state: GameState, message: str) -> Outcome | None:
        self.report.forbid(
            k + 1,
            self.seat(state.turn),
            f"({self.hand.result or 'end of the record'})",
            [{"code": "wrong-end", "message": message, "source": None}],
        )
        return None

    def _compare(self, outcome: Outcome) -> Outcome:
        expected = self.hand.deltas
        if expected is not None and self.report.deltas != expected:
            self.report.fail("deltas", expected, self.report.deltas)
        return outcome


def replay_game(game, record: GameRecord, flow: GameFlow, number: int = 1) -> GameReport:
    """Every hand of a record, and the flow between them."""
    report = GameReport(
        record.path,
        record.format,
        game.ruleset.id,
        record.names[: record.players] or [str(s) for s in range(record.players)],
        game=number,
    )
    n = record.players
    after_options: list[list[int]] = []  # the scores the next hand may start with (record's or melds' changes)
    stick_points = game.rules.mahjong_scoring.riichi_stick
    expected_next: HandStart | None = None
    for i, hand in enumerate(record.hands):
        replay = HandReplay(game, record, hand, flow)
        _check_start(report, replay.report, hand, after_options, expected_next, i == 0, flow, n)
        hand_report, outcome = replay.run()
        report.hands.append(hand_report)
        if outcome is None:
            return report  # an illegal action: the hands after it are not replayed
        paid = _paid(replay)
        after_options = [
            [a + b - (stick_points if s in paid else 0) for s, (a, b) in enumerate(zip(hand.scores, d, strict=True))]
            for d in (hand_report.deltas, hand.deltas)
            if d is not None
        ] or [list(hand.scores)]
        scores = after_options[-1]  # with the record's own changes when it lists them, else melds'
        sticks = hand.sticks + replay.table.accepted
        start = HandStart(hand.round, hand.honba, hand.sticks, hand.dealer)
        expected_next = flow.after(start, outcome, scores, sticks, n)
        if expected_next is None:
            _standings(report, record, flow, scores, sticks if outcome.kind != "win" else 0, stick_points)
    if expected_next is not None and _whole(record):
        report.problems.append(
            {
                "what": "end",
                "hand": record.hands[-1].number,
                "expected": "the record ends",
                "computed": "the game goes on: " + _start_json(expected_next, flow, n)["round"],
            }
        )
    return report


def _check_start(
    report: GameReport,
    hand_report: HandReport,
    hand: HandRecord,
    after_options: list[list[int]],
    expected: HandStart | None,
    first: bool,
    flow: GameFlow,
    n: int,
) -> None:
    """The hand starts as the hands before it left the game: with their scores (the record's or
    melds' changes), and the round, honba, sticks and dealer the flow gives — or the game was over."""
    if after_options and hand.scores not in after_options:
        hand_report.fail("scores", hand.scores, after_options[-1], note="the scores the hand starts with")
    if first:
        return
    got = HandStart(hand.round, hand.honba, hand.sticks, hand.dealer)
    if expected is None:
        report.problems.append(
            {
                "what": "end",
                "hand": hand.number,
                "expected": "the game goes on",
                "computed": "the game is over after the hand before",
            }
        )
    elif got != expected:
        hand_report.fail(
            "start",
            _start_json(got, flow, n),
            _start_json(expected, flow, n),
            note="the round, honba, sticks and dealer the hand starts with",
        )


def _standings(
    report: GameReport, record: GameRecord, flow: GameFlow, scores: list[int], sticks: int, stick_points: int
) -> None:
    """The game is over: its final scores and points, compared with the record's when it lists them."""
    exact = any(p != int(p) for p in record.final_points or ())  # newer records keep the hundreds
    final, points = flow.standings(scores, sticks, stick_points, not exact)
    report.final = {
        "scores": final,
        "points": points,
        "places": sorted(range(len(final)), key=lambda s: (-final[s], s)),
        "expected_scores": record.final_scores,
        "expected_points": record.final_points,
    }
    if record.final_scores is not None and record.final_scores != final:
        report.problems.append({"what": "final scores", "expected": record.final_scores, "computed": final})
    if record.final_points is not None and not all(
        points_close(a, b) for a, b in zip(record.final_points, points, strict=True)
    ):
        report.problems.append({"what": "final points", "expected": record.final_points, "computed": points})


def _whole(record: GameRecord) -> bool:
    """Does the record claim the whole game? A record of a few hands of a game is not expected to
    end: one is whole when it starts at the first hand and gives the game's final standings or
    marks its end (a hand cut from a game's start has neither)."""
    return (
        bool(record.hands)
        and record.hands[0].round == 0
        and record.hands[0].honba == 0
        and (record.final_scores is not None or record.final_points is not None or record.ended)
    )


def _paid(replay: HandReplay) -> set[int]:
    """Seats whose riichi stick was paid in the hand."""
    t = replay.table
    pending = {t.pending_riichi} if t.pending_riichi is not None else set()
    return {s for s in t.riichi if s not in pending}


def _start_json(start: HandStart, flow: GameFlow, players: int) -> dict:
    return {"round": flow.round_name(start.round, start.honba, players), "sticks": start.sticks, "dealer": start.dealer}


def record_tags(win) -> tuple[str, ...]:
    """The record's yaku of a win, as the summary counts them (dora left out)."""
    return tuple(name for name, _ in win.yaku if yaku_id(name) not in (None, "dora", "ura", "red"))


__all__ = ["Hand", "HandReplay", "replay_game", "record_tags"]
