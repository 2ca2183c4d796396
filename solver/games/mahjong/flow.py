"""The flow of a whole game of riichi mahjong, from the ruleset's ``mahjong_game:`` section: the
points a game starts and ends with, uma and oka, how many round winds are played (and the
sudden-death extension), who keeps the deal (連荘), which draws abort a hand, when a game ends
(a player below zero, the last dealer who stops on top), the sticks left at the end, placement
ties, and liability (包) — every number and choice from the ruleset."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from solver.core.reader import RuleReader
from solver.core.source import Source

WINDS = "ESWN"
ABORTIVE = ("nine-terminals", "four-winds", "four-kans", "four-riichi", "triple-ron")


@dataclass(frozen=True)
class GameFlow:
    start: int
    target: int  # the return points (返し): the uma's base, and what ends an extension
    uma: tuple[int, ...]  # by place, in thousands
    oka: bool  # the top takes (target - start) × players
    winds: int  # round winds played: 1 東風, 2 東南
    extension: int  # winds more while nobody has reached the target (西入, sudden death)
    dealer_win: bool  # a dealer who wins keeps the deal
    tenpai_winds: tuple[str, ...]  # round winds in which a dealer in tenpai at a draw keeps it
    abortive: Mapping[str, bool]  # the draws that abort a hand -> whether the dealer keeps the deal
    below: int | None  # a score below this ends the game (飛び)
    stop_on_win: bool  # the last dealer who wins and is top ends the game (アガリ止め)
    stop_on_tenpai: bool  # … who is in tenpai at a draw and top (テンパイ止め)
    leftover_to_top: bool  # riichi sticks on the table at the end go to the top
    pao: tuple[str, ...]  # yaku whose feeder is liable (包)
    tenpai_all_copies: bool  # a wait on a tile whose every copy is in the concealed hand counts as tenpai
    chankan_closed_kan: bool  # a closed kan may be robbed (by 国士無双)
    sources: Mapping[str, Source | None] = field(default_factory=dict)

    def round_name(self, round_index: int, honba: int, players: int) -> str:
        wind = "東南西北"[min(round_index // 4, 3)]
        return f"{wind}{round_index % 4 + 1}局 {honba}本場"

    def last_round(self, players: int) -> int:
        """The index of the last regular hand's round (南4局 is 7 in a 東南 game)."""
        return 4 * self.winds - 4 + players - 1

    def keeps_deal(self, round_index: int, outcome: Outcome) -> bool:
        if outcome.kind == "win":
            return self.dealer_win and outcome.dealer_won
        if outcome.kind == "abortive":
            return self.abortive.get(outcome.draw, True)
        return outcome.dealer_tenpai and WINDS[min(round_index // 4, 3)] in self.tenpai_winds

    def after(
        self, start: HandStart, outcome: Outcome, scores: Sequence[int], sticks: int, players: int
    ) -> HandStart | None:
        """The next hand's start, or None when the game is over (``scores``, ``sticks``: after this
        hand, the riichi sticks paid in it included)."""
        keep = self.keeps_deal(start.round, outcome)
        honba = start.honba + 1 if keep or outcome.kind != "win" else 0
        next_round = start.round if keep else start.round + 1 + (4 - players if (start.round + 1) % 4 == players else 0)
        sticks = 0 if outcome.kind == "win" else sticks
        if self.below is not None and min(scores) < self.below:
            return None
        last = self.last_round(players)
        top = self.top(scores)
        reached = max(scores) >= self.target
        if start.round >= last:  # the last round, or the extension
            stops = (outcome.kind == "win" and self.stop_on_win) or (
                outcome.kind != "win" and self.stop_on_tenpai and outcome.dealer_tenpai
            )
            if start.round > last and reached and (not keep or (top == start.dealer and stops)):
                return None  # sudden death: somebody reached the target, and no dealer below the top keeps the deal
            last_dealer_kept = keep and start.round == last and top == start.dealer
            if last_dealer_kept and (self.extension == 0 or reached) and stops:
                return None
            if not keep:
                if next_round > last and (self.extension == 0 or reached):
                    return None
                if next_round > 4 * (self.winds + self.extension) - 4 + players - 1:
                    return None
        return HandStart(next_round, honba, sticks, (start.dealer if keep else (start.dealer + 1) % players))

    def top(self, scores: Sequence[int]) -> int:
        """The seat placed first (ties: the earlier seat from the first dealer)."""
        return min(range(len(scores)), key=lambda s: (-scores[s], s))

    def standings(
        self, scores: Sequence[int], sticks: int, stick_points: int, rounded: bool = True
    ) -> tuple[list[int], list[float]]:
        """Final scores (the sticks left to the top) and points with uma and oka, in whole
        thousands (五捨六入) or, ``rounded`` false, to the hundred."""
        final = list(scores)
        if self.leftover_to_top and sticks:
            final[self.top(final)] += sticks * stick_points
        order = sorted(range(len(final)), key=lambda s: (-final[s], s))
        points = [0.0] * len(final)
        for place, seat in enumerate(order):
            if place == 0:
                continue
            points[seat] = _thousands(final[seat] - self.target, rounded) + (
                self.uma[place] if place < len(self.uma) else 0
            )
        top = order[0]
        if self.oka:
            points[top] = -sum(points)  # the top's share: what the others' points leave (oka included)
        else:
            points[top] = _thousands(final[top] - self.target, rounded) + self.uma[0]
        return final, [round(p, 1) for p in points]


def _thousands(value: int, rounded: bool) -> float:
    """Points in thousands, five down, six up (五捨六入) on the hundreds, a half going down the
    number line: 19.5 is 19, 19.6 is 20, -45.4 is -45, -45.5 is -46 (as a three-player record of
    Tenhou shows: -5,500 against 40,000 is -46 before uma); or exact to the hundred."""
    if not rounded:
        return value / 1000
    return (value + 400) // 1000


@dataclass(frozen=True)
class HandStart:
    round: int
    honba: int
    sticks: int
    dealer: int


@dataclass(frozen=True)
class Outcome:
    kind: str  # win | exhaustive | abortive
    dealer_won: bool = False
    dealer_tenpai: bool = False
    draw: str = ""  # the abortive draw's id


def read_flow(reader: RuleReader, raw: Mapping | None) -> GameFlow | None:
    if raw is None:
        return None
    where = "mahjong_game"
    points = raw.get("points") or {}
    for key in ("start", "return"):
        if key not in points:
            reader.fail(raw, "points", f"mahjong_game.points needs '{key}'", f"{where}.points")
    abortive = {}
    for draw_id, entry in (raw.get("abortive") or {}).items():
        if draw_id not in ABORTIVE:
            reader.fail(
                raw["abortive"],
                draw_id,
                f"unknown abortive draw {draw_id!r} (known: {', '.join(ABORTIVE)})",
                f"{where}.abortive",
            )
        abortive[draw_id] = bool((entry or {}).get("renchan", True))
    renchan = raw.get("renchan") or {}
    end = raw.get("end") or {}
    stop = end.get("last_dealer") or {}
    tenpai_winds = tuple(renchan.get("dealer_tenpai", WINDS))
    for w in tenpai_winds:
        if w not in WINDS:
            reader.fail(renchan, "dealer_tenpai", f"round winds are E, S, W, N, not {w!r}", f"{where}.renchan")
    yaku_ids = {y for y in (reader.data.get("mahjong_scoring") or {}).get("yaku", {})}
    pao = tuple((raw.get("pao") or {}).get("yaku", ()))
    reader.check_ids(list(pao), yaku_ids, "yaku", f"{where}.pao.yaku")
    sources = {k: reader.source(v) for k, v in raw.items() if isinstance(v, Mapping)}
    return GameFlow(
        start=int(points["start"]),
        target=int(points["return"]),
        uma=tuple(int(u) for u in (raw.get("uma") or {}).get("places", ())),
        oka="oka" in raw,
        winds=reader.option_value((raw.get("winds") or {}).get("count"), 2),
        extension=int((raw.get("extension") or {}).get("winds", 0)),
        dealer_win=bool(renchan.get("dealer_win", True)),
        tenpai_winds=tenpai_winds,
        abortive=abortive,
        below=end.get("below"),
        stop_on_win=bool(stop.get("win", False)),
        stop_on_tenpai=bool(stop.get("tenpai", False)),
        leftover_to_top=(raw.get("leftover_sticks") or {}).get("to") == "top",
        pao=pao,
        tenpai_all_copies=bool((raw.get("tenpai") or {}).get("all_copies_held", True)),
        chankan_closed_kan=bool((raw.get("chankan") or {}).get("closed_kan", False)),
        sources=sources,
    )


def points_close(a: float, b: float) -> bool:
    return math.isclose(a, b, abs_tol=0.05)
