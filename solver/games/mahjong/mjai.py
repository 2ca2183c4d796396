"""mjai event logs read into :class:`~solver.games.mahjong.record.GameRecord`.

An mjai log is JSON Lines, one event a line, as mjai.app, Mortal, NAGA's tools, riichienv and
mjx write them: ``start_game``, then for each hand ``start_kyoku`` (``bakaze``, ``kyoku``,
``honba``, ``kyotaku``, ``oya``, ``scores``, ``dora_marker``, ``tehais``), the actions — ``tsumo``
and ``dahai`` (``actor``, ``pai``), ``reach`` (the next ``dahai`` declares it) and
``reach_accepted``, ``chi``/``pon``/``daiminkan`` (``target``: whom the tile came from,
``consumed``: the tiles from the hand), ``kakan``, ``ankan``, ``kita``/``nukidora`` (北抜き),
``dora`` (a new indicator) — and its end: ``hora`` (``actor``, ``target``: the discarder, the
winner's own seat for a tsumo; ``deltas``; ``ura_markers``; two in a row for a double ron) or
``ryukyoku`` (``deltas``, ``reason``), ``end_kyoku``; ``end_game`` (``scores`` when given).

Tiles are ``1m``–``9m``, ``1p``–``9p``, ``1s``–``9s``, ``E S W N`` (winds), ``P F C`` (白發中),
``5mr``/``5pr``/``5sr`` a red five; ``?`` a tile the log's writer did not see (a player's own
view), which cannot be replayed. The ``deltas`` of a hand count as the log counts them: a win's
include the riichi sticks it collects, and a riichi's own stick is paid apart (``reach_accepted``).
"""

from __future__ import annotations

import json
import re
from functools import partial
from itertools import compress
from operator import not_
from typing import Any

from solver.games.mahjong.record import GameRecord, HandRecord, Move, WinRecord
from solver.games.mahjong.tenhou import RecordError

HONOURS = {"E": "1z", "S": "2z", "W": "3z", "N": "4z", "P": "5z", "F": "6z", "C": "7z"}
WINDS = "ESWN"
# a ryukyoku's reason (lower case, without "_" or "-") -> the record's result (the tenhou readers' names)
REASONS = {
    "exhaustivedraw": "流局",
    "howanpai": "流局",
    "fanpai": "流局",
    "kyushukyuhai": "九種九牌",
    "kyuushukyuuhai": "九種九牌",
    "suufonrenda": "四風連打",
    "sufonrenda": "四風連打",
    "sufuurenta": "四風連打",  # riichienv's spelling
    "suufuurenda": "四風連打",
    "sufuurenda": "四風連打",
    "suuchariichi": "四家立直",
    "sucharichi": "四家立直",
    "suukansansen": "四槓散了",
    "suukansanra": "四槓散了",
    "sukansanra": "四槓散了",
    "sanchaho": "三家和了",
    "sanchahoura": "三家和了",
    "sanchahou": "三家和了",
    "nagashimangan": "流し満貫",
}
_HEAD = re.compile(r'^\s*\{[^\n]*"type"\s*:\s*"(start_game|start_kyoku)"')


def looks_mjai(head: str) -> bool:
    """An mjai log starts with a start_game (or start_kyoku) event on its first line."""
    return _HEAD.match(head.lstrip("\ufeff")) is not None


_TILES = {
    **HONOURS,
    **{f"{r}{s}": f"{r}{s}" for s in "mps" for r in "123456789"},
    **{f"{r}{s}r": f"0{s}" if r == "5" else f"{r}{s}" for s in "mps" for r in "123456789"},
}


def tile(text: Any, where: str) -> str:
    """An mjai tile in tenhou's text form (``5mr`` is ``0m``, ``E`` is ``1z``)."""
    found = _TILES.get(text) if isinstance(text, str) else None
    if found is not None:
        return found
    if text == "?":
        raise RecordError(f"{where}: a hidden tile (?): a log of one player's view cannot be replayed")
    raise RecordError(f"{where}: {text!r} is not an mjai tile (1m–9m, 1p–9p, 1s–9s, E S W N P F C, 5mr …)")


def _events(lines: list[str], path: str) -> list:
    """The event of each line (the lines without blank ones), read as one JSON array — or, when
    that fails, line by line, to say which one is wrong."""
    try:
        events = json.loads("[" + ",".join(lines) + "]")
    except ValueError:
        events = None
    if events is None or len(events) != len(lines):
        events = []
        for k, line in enumerate(lines):
            try:
                events.append(json.loads(line))
            except ValueError as exc:
                raise RecordError(f"{path}:{_number(lines, k)}: not JSON: {exc}") from None
    return events


def _number(lines: list[str], k: int) -> int:
    """The line number of ``lines[k]`` in the file (blank lines are left out of ``lines``)."""
    line = lines[k]
    return line.number if isinstance(line, _Line) else k + 1


class _Line(str):
    """A line of the log that knows its number in the file (kept where blank lines were left out)."""

    number: int


def _lines(text: str) -> list[str]:
    lines = text.splitlines()
    if all(lines) and not any(map(str.isspace, lines)):  # no blank line: the lines as they are
        return lines
    out: list[str] = []
    for number, line in enumerate(lines, start=1):
        if line and not line.isspace():
            kept = _Line(line)
            kept.number = number
            out.append(kept)
    return out


_move = partial(tuple.__new__, Move)  # Move(...) without its keywords' checks: a line's action, made at once
# the lines of draws and discards met before, each as its action (a discard's; a riichi's is made
# from it): a line says all of its event, so a line met again is its action without a JSON read.
# Loggers write few distinct such lines (seat × tile × tsumogiri); the table stops growing at a bound.
_PLAIN: dict[str, Move] = {}
_PLAIN_BOUND = 8192


def _decoded(lines: list[str], met: list[Move | None], path: str) -> tuple[list, bool]:
    """The events of the lines not in :data:`_PLAIN` (``met``: each line's action there, or
    None), read as one JSON array, and True; or, when those cannot be read so, every line's
    event, and False (an error names its line)."""
    unknown = list(compress(lines, map(not_, met)))
    try:
        events = json.loads("[" + ",".join(unknown) + "]")
    except ValueError:
        events = None
    if events is not None and len(events) == len(unknown):
        return events, True
    return _events(lines, path), False


def read_mjai(text: str, path: str) -> list[GameRecord]:
    """Every game of an mjai log (a file may hold several, each from its start_game)."""
    lines = _lines(text)
    reader = _Reader(path)
    tiles, riichi_next, append = _TILES, reader.riichi_next, None  # append: to the hand's moves
    met = list(map(_PLAIN.get, lines))
    events, skipped = _decoded(lines, met, path)
    next_event = iter(events).__next__
    if not skipped:  # every line's event decoded: none taken from the table
        met = [None] * len(lines)
    learned: dict[str, Move] = {}  # kept apart while reading: the lines decoded above stay the ones not in plain
    for k, (line, move) in enumerate(zip(lines, met, strict=True)):
        if move is not None:
            if append is not None:  # a draw or a discard met before
                seat = move.seat
                if riichi_next and seat in riichi_next and move.verb == "discard":
                    riichi_next.discard(seat)
                    move = move._replace(verb="riichi")
                append(move)
                continue
            event = json.loads(line)  # before any hand: the event is read to say what is wrong
        else:
            event = next_event()
        try:  # most lines, a draw or a discard, read here at once
            kind = event.get("type")
            if (kind == "dahai" or kind == "tsumo") and append is not None:
                found, seat = tiles.get(event.get("pai")), event.get("actor")
                if found is not None and type(seat) is int:
                    move = _move((seat, "draw" if kind == "tsumo" else "discard", found, (), None, line))
                    learned[line] = move
                    if seat in riichi_next and kind == "dahai":
                        riichi_next.discard(seat)
                        move = move._replace(verb="riichi")
                    append(move)
                    continue
        except (AttributeError, TypeError):  # not an object, or a tile of a type no tile has: said below
            kind = event.get("type") if isinstance(event, dict) else None
        if not isinstance(kind, str):
            raise RecordError(f'{path}:{_number(lines, k)}: an mjai event is an object with a "type"')
        try:
            if not reader.play(event, k, lines):
                reader.take(event, f"{path}:{_number(lines, k)}", line)
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise RecordError(f"{path}:{_number(lines, k)}: cannot read the {event['type']} event ({exc})") from None
        append = reader.hand.moves.append if reader.hand is not None else None
    records = reader.finish()
    if len(_PLAIN) < _PLAIN_BOUND:
        _PLAIN.update(learned)
    return records


class _Reader:
    """The games of one log, event by event."""

    def __init__(self, path: str):
        self.path = path
        self.games: list[GameRecord] = []
        self.hand: HandRecord | None = None
        self.riichi_next: set[int] = set()

    @property
    def game(self) -> GameRecord:
        if not self.games:
            self.games.append(GameRecord(self.path, "mjai", 4, [], []))
        return self.games[-1]

    def play(self, event: dict, k: int, lines: list[str]) -> bool:
        """A draw or a discard, the events of most lines, read (False: another event); ``k``:
        the event's place in ``lines``, whose line is its record."""
        kind, hand = event["type"], self.hand
        if hand is None or (kind != "tsumo" and kind != "dahai"):
            return False
        seat, pai, raw = int(event["actor"]), event["pai"], lines[k]
        found = _TILES.get(pai) if isinstance(pai, str) else None
        if found is None:
            found = tile(pai, f"{self.path}:{_number(lines, k)}")
        if kind == "tsumo":
            hand.moves.append(Move(seat, "draw", found, (), None, raw))
        else:
            riichi = seat in self.riichi_next
            if riichi:
                self.riichi_next.discard(seat)
            hand.moves.append(Move(seat, "riichi" if riichi else "discard", found, (), None, raw))
        return True

    def take(self, event: dict, where: str, raw: str) -> None:
        """One event (``raw``: its line, the record's own notation of an action)."""
        kind = event["type"]
        if kind == "start_game":
            names = [str(n) for n in event.get("names") or []]
            self.games.append(GameRecord(self.path, "mjai", len(names) if names else 4, names, []))
        elif kind == "start_kyoku":
            self._start(event, where)
        elif kind in ("end_kyoku", "none", "reach_accepted"):
            return
        elif kind == "end_game":
            self.game.ended = True
            scores = event.get("scores")
            if isinstance(scores, list) and scores:
                self.game.final_scores = [int(s) for s in scores]
        elif self.hand is None:
            raise RecordError(f"{where}: a {kind} event before any start_kyoku")
        elif kind == "hora":
            self._hora(event, where, raw)
        elif kind == "ryukyoku":
            self._ryukyoku(event, raw)
        elif kind == "dora":
            self.hand.dora.append(tile(event["dora_marker"], where))
        else:
            self._action(kind, event, where, raw)

    def _start(self, event: dict, where: str) -> None:
        tehais = event["tehais"]
        game = self.game
        players = len(tehais)
        if game.hands and players != game.players:
            raise RecordError(f"{where}: {players} hands dealt in a game of {game.players} players")
        game.players = players
        wind = WINDS.index(event.get("bakaze", "E"))
        dealer = int(event.get("oya", int(event.get("kyoku", 1)) - 1))
        try:
            deal = [[_TILES[t] for t in hand] for hand in tehais]
        except (KeyError, TypeError):  # a tile no tile is: said by tile()
            deal = [[tile(t, where) for t in hand] for hand in tehais]
        for seat, tiles in enumerate(deal):
            if len(tiles) != 13:
                raise RecordError(f"{where}: seat {seat} is dealt {len(tiles)} tiles, not 13")
        self.hand = HandRecord(
            len(game.hands) + 1,
            4 * wind + int(event.get("kyoku", dealer + 1)) - 1,
            int(event.get("honba", 0)),
            int(event.get("kyotaku", 0)),
            [int(s) for s in event.get("scores") or [0] * players],
            dealer,
            [tile(event["dora_marker"], where)],
            [],
            deal,
            where=where,
        )
        self.riichi_next.clear()
        game.hands.append(self.hand)

    def _action(self, kind: str, event: dict, where: str, raw: str) -> None:
        assert self.hand is not None
        seat = int(event["actor"])
        moves = self.hand.moves
        if kind == "reach":
            self.riichi_next.add(seat)
        elif kind in ("chi", "pon", "daiminkan"):
            own = tuple(tile(t, where) for t in event["consumed"])
            verb = "minkan" if kind == "daiminkan" else kind
            moves.append(Move(seat, verb, tile(event["pai"], where), own, int(event["target"]), raw))
        elif kind == "kakan":
            own = tuple(tile(t, where) for t in event.get("consumed") or ())
            moves.append(Move(seat, "kakan", tile(event["pai"], where), own, None, raw))
        elif kind == "ankan":
            own = tuple(tile(t, where) for t in event["consumed"])
            moves.append(Move(seat, "ankan", own[0].replace("0", "5"), own, None, raw))
        elif kind in ("kita", "nukidora"):
            moves.append(Move(seat, "nuki", tile(event.get("pai", "N"), where), (), None, raw))
        else:
            raise RecordError(f"{where}: unknown mjai event {kind!r}")

    def _hora(self, event: dict, where: str, raw: str) -> None:
        hand = self.hand
        assert hand is not None
        players = self.game.players
        seat, source = int(event["actor"]), int(event.get("target", event["actor"]))
        deltas = [int(d) for d in event["deltas"]][:players]
        if len(deltas) != players:
            raise RecordError(f"{where}: hora deltas for {len(deltas)} players, not {players}")
        pao = event.get("pao")
        win = WinRecord(seat, source, int(pao) if isinstance(pao, int) and pao != seat else None, deltas)
        win.dora = list(hand.dora)
        win.ura = [tile(t, where) for t in event.get("ura_markers") or ()]
        hand.result = "和了"
        hand.wins.append(win)
        hand.ura = win.ura or hand.ura
        hand.deltas = [a + b for a, b in zip(hand.deltas or [0] * players, deltas, strict=True)]
        hand.moves.append(Move(seat, "tsumo" if seat == source else "ron", source=source, raw=raw))

    def _ryukyoku(self, event: dict, raw: str) -> None:
        hand = self.hand
        assert hand is not None
        players = self.game.players
        reason = str(event.get("reason") or "")
        plain = reason.lower().replace("_", "").replace("-", "")
        hand.result = REASONS.get(plain, reason or "流局")
        deltas = event.get("deltas")
        hand.deltas = [int(d) for d in deltas][:players] if isinstance(deltas, list) else [0] * players
        tenpais = event.get("tenpais")
        if isinstance(tenpais, list):
            hand.tenpai = [s for s, t in enumerate(tenpais) if t]
        if hand.result == "流局" and not reason and hand.moves and hand.moves[-1].verb == "draw":
            hand.result = "九種九牌"  # a hand that ends on a draw, with no reason given, ends in 九種九牌
        if hand.result == "九種九牌" and hand.moves:
            hand.moves.append(Move(hand.moves[-1].seat, "kyuushu", raw=raw))

    def finish(self) -> list[GameRecord]:
        games = [g for g in self.games if g.hands]
        if not games:
            raise RecordError(f"{self.path}: no hand (no start_kyoku) in the mjai log")
        for game in games:
            for hand in game.hands:
                if not hand.result:
                    raise RecordError(f"{hand.where}: the hand has no end (no hora or ryukyoku): the log is cut short")
        return games
