"""The game-record formats riichi mahjong reads (``Game.log_formats``) and their replay: a record's
own rule (red fives, 東風 or 東南, open tanyao, three players) picks the ruleset's options, then
every game of the file is replayed (:mod:`solver.games.mahjong.replay`)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

from solver.core.errors import MeldsError
from solver.core.registry import load_game
from solver.core.replay import GameLog, GameReport, LogFormat
from solver.core.ruleset import load_ruleset, with_options
from solver.games.mahjong import mjai, mjlog, tenhou
from solver.games.mahjong.record import GameRecord
from solver.games.mahjong.replay import replay_game

FORMATS = (
    LogFormat(
        "tenhou-json",
        'Tenhou JSON (tenhou.net/6: a "log" of hands)',
        (".json", ".jsonl", ".txt"),
        tenhou.looks_json,
        "tenhou",
    ),
    LogFormat(
        "tenhou-mjlog", "Tenhou mjlog XML (<mjloggm>, the raw record)", (".mjlog", ".xml"), mjlog.looks_mjlog, "tenhou"
    ),
    LogFormat(
        "mjai",
        "mjai event log (JSON Lines: start_game, start_kyoku, … end_game)",
        (".json", ".jsonl", ".mjson", ".log", ".txt"),
        mjai.looks_mjai,
        "tenhou",
    ),
)


def read_records(log: GameLog) -> list[GameRecord]:
    if log.format is not None and log.format.id == "tenhou-mjlog":
        return mjlog.read_mjlog(log.text, log.path)
    if log.format is not None and log.format.id == "mjai":
        return mjai.read_mjai(log.text, log.path)
    return tenhou.read_json(log.text, log.path)


def game_for(game, record: GameRecord, variant: Callable[[str, int], str | None]):
    """The game compiled for the options the record's rule sets (and its player count)."""
    rs = game.ruleset
    options: dict = {}
    if record.reds is not None and "red-fives" in rs.options:
        if record.reds not in (0, 3):
            raise tenhou.RecordError(
                f"{record.path}: {record.reds} red fives: only none or one of each suit (aka 0 or 3) can be replayed"
            )
        options["red-fives"] = record.reds == 3
    if record.kuitan is not None and "kuitan" in rs.options:
        options["kuitan"] = record.kuitan
    if record.length is not None and "game-length" in rs.options:
        options["game-length"] = record.length
    players = rs.players or (4, 4)
    if not players[0] <= record.players <= players[1]:
        variant_path = variant(rs.id, record.players)
        if variant_path is None:
            raise MeldsError(
                f"{record.path}: a {record.players}-player record, and {rs.id} has no {record.players}-player form"
            )
        return load_game(load_ruleset(variant_path, options))
    changed = {k: v for k, v in options.items() if rs.option_values.get(k) != v}
    return load_game(with_options(rs, changed)) if changed else game


def replay_log(game, log: GameLog, variant: Callable[[str, int], str | None]) -> Iterator[GameReport]:
    """Every game of a record file, replayed (``variant``: the ruleset for another player count)."""
    for number, record in enumerate(read_records(log), start=1):
        began = time.perf_counter()
        compiled = game_for(game, record, variant)
        flow = compiled.rules.flow
        if flow is None:
            raise MeldsError(
                f"{compiled.ruleset.id} has no mahjong_game section: it cannot settle whole games (try -r tenhou)"
            )
        report = replay_game(compiled, record, flow, number)
        report.format = log.format.id if log.format else record.format
        report.seconds = time.perf_counter() - began
        yield report
