"""The project's own game log: hands as a start state and the actions played, in the vocabulary of
``melds move`` (docs/state-format.md), with the score changes the table wrote down.

YAML::

    format: 1
    log: melds                 # marks the file as a game log
    ruleset: RULESET           # id, or a path relative to the file
    options: {}
    players: [A, B]
    hands:
      - name: hand 1           # optional
        start: {turn: A, step: draw, hands: {A: …, B: …}, discards: …, stock: 20}
        actions: [draw stock S9, meld S9 S10 SJ, discard C7, …]
        result: {A: 25, B: -25}    # the score changes written down

or JSON Lines: a first line ``{"log": "melds", "ruleset": …, "players": […]}`` and then one hand
object a line. Each hand is replayed from its start, every action judged by the game's moves; the
first illegal action stops it; a hand played through is settled by the game
(``Game.settle_hand``) and compared with ``result``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solver.core import registry
from solver.core.errors import Location, MeldsError, SchemaError
from solver.core.moves import parse_action
from solver.core.replay import GameReport, HandReport
from solver.core.ruleset import load_ruleset
from solver.core.state import state_from_data
from solver.core.yamlload import line_of, load_text

MARK = "melds"

if TYPE_CHECKING:
    from solver.core.game import Game
    from solver.core.moves import Moves


def looks_own(head: str) -> bool:
    text = head.lstrip()
    return (
        f'"log": "{MARK}"' in text
        or f'"log":"{MARK}"' in text
        or any(line.strip().startswith("log:") and MARK in line for line in text.splitlines()[:40])
    )


def read_own(path: str, text: str) -> tuple[Mapping[str, Any], list[Any]]:
    """(the header, the hands) of an own-format log, YAML or JSON Lines."""
    first = text.lstrip()[:1]
    if first == "{":
        lines = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
        objects = []
        for n, line in lines:
            try:
                obj = json.loads(line)
            except ValueError as exc:
                raise SchemaError(f"not JSON: {exc}", Location(path, n)) from None
            if not isinstance(obj, dict):
                raise SchemaError("each line is a JSON object", Location(path, n))
            objects.append((n, obj))
        header = objects[0][1] if objects else {}
        hands = [dict(obj, _line=n) for n, obj in objects[1:]] or list(header.get("hands") or [])
        return header, hands
    data = load_text(text, path)
    if not isinstance(data, Mapping):
        raise SchemaError("a game log is a mapping with log: melds, ruleset, players and hands", Location(path, 1))
    return data, list(data.get("hands") or [])


def _fail(path: str, container: Any, key: Any, message: str) -> SchemaError:
    line = container.get("_line") if isinstance(container, dict) and "_line" in container else line_of(container, key)
    return SchemaError(message, Location(path, line, str(key)))


def replay_own(path: str, text: str, ruleset_ref: str | None, options: Mapping[str, Any]) -> list[GameReport]:
    began = time.perf_counter()
    header, hands = read_own(path, text)
    for key in ("ruleset", "players"):
        if key not in header and not (key == "ruleset" and ruleset_ref):
            raise _fail(path, header, key, f"a game log needs {key!r}")
    players = [str(p) for p in header["players"]]
    ref = ruleset_ref or str(header["ruleset"])
    relative = Path(path).parent / ref
    if ref.endswith((".yaml", ".yml")) and relative.is_file():
        ref = str(relative)
    ruleset = load_ruleset(ref, {**(header.get("options") or {}), **options})
    game = registry.load_game(ruleset)
    moves = game.moves()
    report = GameReport(path, "melds-log", ruleset.id, players)
    if not hands:
        raise _fail(path, header, "hands", "a game log needs hands")
    for number, hand in enumerate(hands, start=1):
        if (
            not isinstance(hand, Mapping)
            or not isinstance(hand.get("start"), Mapping)
            or not isinstance(hand.get("actions"), list)
        ):
            raise _fail(path, hands, number - 1, f"hand {number}: needs start (a state) and actions (a list)")
        report.hands.append(_replay_hand(path, game, moves, players, hand, number))
    report.seconds = time.perf_counter() - began
    return [report]


def _replay_hand(
    path: str, game: Game, moves: Moves, players: list[str], hand: Mapping[str, Any], number: int
) -> HandReport:
    out = HandReport(str(hand.get("name") or f"hand {number}"), number=number)
    state = state_from_data({**hand["start"], "players": players}, Path(path), game.ruleset)
    turn_start = state
    for turn, text in enumerate(hand["actions"], start=1):
        try:
            judgement = moves.judge(state, str(text), describe=False)
        except MeldsError as exc:
            raise _fail(path, hand["actions"], turn - 1, f"hand {number}, action {turn} ({text}): {exc}") from None
        if not judgement.legal:
            action = parse_action(str(text))
            out.forbid(turn, action.actor or state.turn, judgement.action, judgement.reasons, str(text))
            return out
        assert judgement.state is not None  # a legal action's judgement holds the state after it
        before, state = state, judgement.state
        if state.turn != before.turn:
            turn_start = state
    try:
        settlement = game.settle_hand(state, turn_start)
    except MeldsError as exc:
        out.forbid(
            len(hand["actions"]) + 1, state.turn, "(settle)", [{"code": exc.code, "message": str(exc), "source": None}]
        )
        return out
    out.deltas = [int(settlement.deltas.get(p, 0)) for p in players]
    out.result = dict(settlement.details)
    out.tags = tuple(settlement.tags)
    expected = hand.get("result")
    if isinstance(expected, Mapping):
        if expected and all(isinstance(v, Mapping) for v in expected.values()):  # per scoring system
            systems = {s["id"]: s["payments"] for s in settlement.details.get("systems", [])}
            for system, want in expected.items():
                have = systems.get(system)
                if have is None or any(have.get(p, 0) != v for p, v in want.items()):
                    out.fail(f"result.{system}", dict(want), have)
            expected = {p: sum(int(v.get(p, 0)) for v in expected.values()) for p in players}
        out.expected = [int(expected.get(p, 0)) for p in players]
        if out.expected != out.deltas:
            out.fail("deltas", out.expected, out.deltas)
    return out
