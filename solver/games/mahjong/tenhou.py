"""Tenhou's game records, read into :class:`~solver.games.mahjong.record.GameRecord`: here the
tenhou.net/6 JSON reader and what both of Tenhou's formats share (tiles, the yaku's names, the
error of a record that cannot be read); the raw mjlog XML reader is :mod:`solver.games.mahjong.mjlog`.

Two formats:

* **tenhou.net/6 JSON** — ``{"name", "rule", "log": [hand, …], "sc"?}``; a hand is
  ``[[round, honba, sticks], scores, dora, ura, deal₀, draws₀, discards₀, …, result]``. Tiles are
  11–19 (萬子), 21–29 (筒子), 31–39 (索子), 41–47 (東南西北白發中), 51–53 a red 5m/5p/5s. Calls sit
  in the streams as text: in the draws ``c`` chi, ``p`` pon, ``m`` open kan (the letter's place
  says whom it came from: first the left player, then across, then the right); in the discards
  ``r`` riichi, ``k`` added kan, ``a`` closed kan, ``f`` 北抜き, ``60`` the tile just drawn, ``0``
  the turn an open kan took. The streams are merged back into one order of play here. JSON Lines
  of such objects (a game split hand by hand) and a tenhou.net/6 URL with ``#json=`` read too.
* **mjlog XML** (``.mjlog``, the raw record, gzip or plain) — ``GO type`` (the room's rule bits),
  ``INIT`` (seed: round, honba, sticks, dice, dora; ``ten`` in hundreds; the deal), ``T``–``W``
  draws and ``D``–``G`` discards of tiles 0–135 (tile // 4 the kind; 16, 52, 88 red fives),
  ``N`` calls (the meld bit fields), ``REACH``, ``DORA``, ``AGARI``/``RYUUKYOKU`` (``sc``: score and
  change per seat, hundreds; ``owari`` on the last: the final scores and points).
"""

from __future__ import annotations

import json
import re
from collections import deque
from urllib.parse import unquote

from solver.core.errors import MeldsError
from solver.games.mahjong.record import GameRecord, HandRecord, Move, WinRecord


class RecordError(MeldsError):
    """A game record that cannot be read (exit code 2)."""

    code = "malformed-log"


# -- tiles ---------------------------------------------------------------------------------------


def tile_text(code) -> str:
    """A JSON tile code (11–47, 51–53) in tenhou's text form (``5m``, ``0p``, ``7z``)."""
    if type(code) is int and code in _CODES:
        return _CODES[code]
    if isinstance(code, int) and not isinstance(code, bool):
        if 51 <= code <= 53:
            return f"0{'mps'[code - 51]}"
        suit, rank = divmod(code, 10)
        if 1 <= suit <= 3 and 1 <= rank <= 9:
            return f"{rank}{'mps'[suit - 1]}"
        if suit == 4 and 1 <= rank <= 7:
            return f"{rank}z"
    raise RecordError(f"{code!r} is not a tile code (11–19, 21–29, 31–39, 41–47, 51–53)")


_CODES: dict[int, str] = {}  # every tile code's text, for the tiles of a record read one by one
_CODES.update((code, tile_text(code)) for code in [*(c for c in range(11, 48) if c % 10), 51, 52, 53])
# each seat's draw and discard of each tile code, one shared immutable Move each (most of a record)
_DRAWN = [{c: Move(s, "draw", t, (), None, str(c)) for c, t in _CODES.items()} for s in range(4)]
_DISCARDED = [{c: Move(s, "discard", t, (), None, str(c)) for c, t in _CODES.items()} for s in range(4)]
_TSUMOGIRI = [{t: Move(s, "discard", t, (), None, "60") for t in _CODES.values()} for s in range(4)]


# The record's names of yaku -> the ruleset's yaku ids (dora are counted apart, not yaku).
YAKU_IDS = {
    "門前清自摸和": "menzen-tsumo",
    "立直": "riichi",
    "一発": "ippatsu",
    "槍槓": "chankan",
    "嶺上開花": "rinshan",
    "海底摸月": "haitei",
    "河底撈魚": "houtei",
    "平和": "pinfu",
    "断幺九": "tanyao",
    "一盃口": "iipeikou",
    "役牌 白": "haku",
    "役牌 發": "hatsu",
    "役牌 中": "chun",
    "ダブル立直": "double-riichi",
    "七対子": "chiitoitsu",
    "混全帯幺九": "chanta",
    "一気通貫": "ittsu",
    "三色同順": "sanshoku",
    "三色同刻": "sanshoku-doukou",
    "三槓子": "sankantsu",
    "対々和": "toitoi",
    "三暗刻": "sanankou",
    "小三元": "shousangen",
    "混老頭": "honroutou",
    "二盃口": "ryanpeikou",
    "純全帯幺九": "junchan",
    "混一色": "honitsu",
    "清一色": "chinitsu",
    "人和": "renhou",
    "天和": "tenhou",
    "地和": "chiihou",
    "大三元": "daisangen",
    "四暗刻": "suuankou",
    "四暗刻単騎": "suuankou-tanki",
    "字一色": "tsuuiisou",
    "緑一色": "ryuuiisou",
    "清老頭": "chinroutou",
    "九蓮宝燈": "chuuren",
    "純正九蓮宝燈": "junsei-chuuren",
    "国士無双": "kokushi",
    "国士無双１３面": "kokushi-13",
    "大四喜": "daisuushii",
    "小四喜": "shousuushii",
    "四槓子": "suukantsu",
    "ドラ": "dora",
    "裏ドラ": "ura",
    "赤ドラ": "red",
}
WINDS = "東南西北"  # the wind names of the 自風 and 場風 yaku


def yaku_id(name: str) -> str | None:
    """The ruleset's id of a yaku the record names (自風/場風 of any wind), None if unknown."""
    if name.startswith("自風"):
        return "seat-wind"
    if name.startswith("場風"):
        return "round-wind"
    return YAKU_IDS.get(name)


# -- sniffing --------------------------------------------------------------------------------------


def looks_json(head: str) -> bool:
    text = head.lstrip()
    return (text[:1] == "{" and re.search(r'"log"\s*:\s*\[', text) is not None) or "#json=" in text[:200]


# -- tenhou.net/6 JSON -------------------------------------------------------------------------------


def read_json(text: str, path: str) -> list[GameRecord]:
    """Every game of a tenhou.net/6 JSON file (one object, JSON Lines, or a URL with #json=)."""
    if "#json=" in text[:200]:
        text = unquote(text.split("#json=", 1)[1].strip())
    try:
        objects = [json.loads(text)]
    except ValueError:
        objects = []
        for number, line in enumerate(text.splitlines(), start=1):
            if line.strip():
                try:
                    objects.append(json.loads(line))
                except ValueError as exc:
                    raise RecordError(f"{path}:{number}: not JSON: {exc}") from None
    games: list[GameRecord] = []
    for k, obj in enumerate(objects):
        if not isinstance(obj, dict) or not isinstance(obj.get("log"), list):
            raise RecordError(f'{path}: object {k + 1} is not a tenhou.net/6 game (no "log" list)')
        game = _json_game(obj, path, k)
        starts_anew = bool(game.hands) and game.hands[0].round == 0 and game.hands[0].honba == 0
        if games and not starts_anew and games[-1].players == game.players:  # a game split hand by hand
            games[-1].hands.extend(game.hands)
            games[-1].final_scores, games[-1].final_points = game.final_scores, game.final_points
        else:
            games.append(game)
    for game in games:
        for n, hand in enumerate(game.hands, start=1):
            hand.number = n
    return games


def _json_game(obj: dict, path: str, k: int) -> GameRecord:
    rule = obj.get("rule") or {}
    if not isinstance(rule, dict):
        raise RecordError(f'{path}: "rule" is not an object')
    disp = str(rule.get("disp", ""))
    reds = None
    if any(f"aka5{i}" in rule for i in (1, 2, 3)):
        reds = sum(int(rule.get(f"aka5{i}", 0)) for i in (1, 2, 3))
    elif "aka" in rule:
        reds = 3 * int(rule["aka"]) if int(rule["aka"]) in (0, 1) else int(rule["aka"])
    names = [str(n) for n in obj.get("name", [])]
    first = obj["log"][0] if obj["log"] and isinstance(obj["log"][0], list) else None
    players = 3 if len(names) == 3 or "三" in disp or (first is not None and len(first) > 13 and first[13] == []) else 4
    length = "east" if "東" in disp else "east-south" if "南" in disp else None
    kuitan = ("喰" in disp) if disp and any(c in disp for c in "東南") else None
    game = GameRecord(
        path,
        "tenhou-json",
        players,
        names,
        [],
        reds,
        kuitan,
        length,
        disp,
        title=" ".join(str(t) for t in obj.get("title", []) if t),
    )
    for i, entry in enumerate(obj["log"]):
        game.hands.append(_json_hand(entry, players, f"{path}: log[{i}]" + (f" of object {k + 1}" if k else "")))
    sc = obj.get("sc")
    if isinstance(sc, list) and len(sc) >= 2 * players:
        game.final_scores = [int(sc[2 * s]) for s in range(players)]
        game.final_points = [float(sc[2 * s + 1]) for s in range(players)]
    return game


def _json_hand(entry, players: int, where: str) -> HandRecord:
    if not isinstance(entry, list) or len(entry) < 17 or not isinstance(entry[0], list) or len(entry[0]) < 3:
        raise RecordError(
            f"{where}: a hand is [[round, honba, sticks], scores, dora, ura, then deal, draws and "
            f"discards of each seat, result]"
        )
    try:
        round_, honba, sticks = (int(x) for x in entry[0][:3])
        scores = [int(x) for x in entry[1][:players]]
        dora = [tile_text(t) for t in entry[2]]
        ura = [tile_text(t) for t in entry[3]]
        deal = [[tile_text(t) for t in entry[4 + 3 * s]] for s in range(players)]
    except (TypeError, ValueError) as exc:
        raise RecordError(f"{where}: {exc}") from None
    hand = HandRecord(0, round_, honba, sticks, scores, round_ % 4, dora, ura, deal, where=where)
    if hand.dealer >= players:
        raise RecordError(f"{where}: round {round_} has no dealer among {players} players")
    for s, tiles in enumerate(deal):
        if len(tiles) != 13:
            raise RecordError(f"{where}: seat {s} is dealt {len(tiles)} tiles, not 13")
    hand.moves = _json_moves(entry, players, hand.dealer, where)
    _json_result(hand, entry[16], players, where)
    return hand


_CALL = re.compile(r"^((?:\d\d)*)([cpmkafr])(\d\d)((?:\d\d)*)$")


_CALLS: dict[tuple[str, int, int], Move] = {}  # (item, seat, players) -> the call read (a Move is immutable)


def _call(item: str, seat: int, players: int, where: str) -> Move:
    """A call in the stream text, read once (a stream's next call is looked at at every discard
    until it is made)."""
    key = (item, seat, players)
    found = _CALLS.get(key)
    if found is None:
        found = _read_call(item, seat, players, where)
        if len(_CALLS) < 65536:
            _CALLS[key] = found
    return found


def _read_call(item: str, seat: int, players: int, where: str) -> Move:
    """A call in the stream text: chi/pon/open kan (draws), added/closed kan, 北抜き (discards)."""
    match = _CALL.match(item)
    if not match:
        raise RecordError(f"{where}: cannot read the call {item!r}")
    before, letter, called, after = match.groups()
    tiles = (
        [before[i : i + 2] for i in range(0, len(before), 2)]
        + [called]
        + [after[i : i + 2] for i in range(0, len(after), 2)]
    )
    texts = [tile_text(int(t)) for t in tiles]
    place = len(before) // 2  # where the letter stands: whom the tile came from
    if letter == "c":
        return Move(seat, "chi", texts[0], tuple(texts[1:]), (seat - 1) % players, item)
    if letter in "pmk":
        # 0: the left player, 1: across, 2 (3 for a kan of four): the right player — counted round
        # a table of four seats also when three play (the empty fourth seat is never named)
        source = (seat + {0: 3, 1: 2, 2: 1, 3: 1}[place]) % 4
        if source >= players:
            raise RecordError(f"{where}: the call {item!r} takes from seat {source}, and {players} play")
        if letter == "k":
            rest = texts[:place] + texts[place + 1 :]
            return Move(seat, "kakan", texts[place], tuple(rest), source, item)
        rest = texts[:place] + texts[place + 1 :]
        return Move(seat, "pon" if letter == "p" else "minkan", texts[place], tuple(rest), source, item)
    if letter == "a":
        return Move(seat, "ankan", texts[-1].replace("0", "5"), tuple(texts), None, item)
    if letter == "f":
        return Move(seat, "nuki", texts[place], (), None, item)
    raise RecordError(f"{where}: {item!r} is not a call")


def _json_moves(entry, players: int, dealer: int, where: str) -> list[Move]:
    """The streams merged into one order of play. A discard called now or the same tile discarded
    again later by the same player cannot always be told apart from the streams: the first is
    tried, then the later one when the first leads nowhere (a bounded search)."""
    choices: list[bool] = []  # at each such point in order: the call takes this discard
    first_error = None
    for _ in range(256):
        try:
            return _play_streams(entry, players, dealer, where, choices)
        except RecordError as exc:
            first_error = first_error or exc
            while choices and not choices[-1]:
                choices.pop()
            if not choices:
                break
            choices[-1] = False
    # No order of play fits the streams: the record is damaged. Its actions are laid out as they
    # come, so that the replay reports the first one the rules forbid.
    try:
        return _play_streams(entry, players, dealer, where, [], lenient=True)
    except RecordError:
        raise first_error or RecordError(f"{where}: the calls cannot be placed in any order of play") from None


def _play_streams(
    entry, players: int, dealer: int, where: str, choices: list[bool], lenient: bool = False
) -> list[Move]:
    draws = [deque(entry[5 + 3 * s]) for s in range(players)]
    discards = [deque(entry[6 + 3 * s]) for s in range(players)]
    calls_ahead = [bool(d) and isinstance(d[0], str) for d in draws]  # a seat's next draw entry calls a discard
    moves: list[Move] = []
    seat, need_draw, drawn, point = dealer, True, None, 0
    while True:
        if need_draw:
            if not draws[seat] and not (lenient and discards[seat]):
                break
            item = draws[seat].popleft() if draws[seat] else None
            calls_ahead[seat] = bool(draws[seat]) and isinstance(draws[seat][0], str)
            if item is None:
                drawn = None  # lenient: a discard with no draw before it
            elif not isinstance(item, int) or isinstance(item, bool):
                if not lenient:
                    raise RecordError(
                        f"{where}: seat {seat} draws {item!r} where a tile is drawn (a call with no discard to call)"
                    )
                call = _call(str(item), seat, players, where)
                moves.append(call)
                need_draw = call.verb == "minkan"
                continue
            else:
                move = _DRAWN[seat].get(item) or Move(seat, "draw", tile_text(item), raw=str(item))
                drawn = move.tile
                moves.append(move)
        if not discards[seat]:
            break
        item = discards[seat].popleft()
        verb = "discard"
        if isinstance(item, str):
            if item.startswith("r"):
                verb, item = "riichi", int(item[1:]) if item[1:].isdigit() else item
            else:
                moves.append(_call(item, seat, players, where))
                need_draw = True  # a kan or 北抜き draws a replacement; an added kan may be robbed first
                continue
        if item == 60 and drawn is None and not lenient:
            raise RecordError(f"{where}: seat {seat} discards the tile just drawn (60) without a draw")
        move = _discard_move(seat, verb, item, drawn)
        tile = move.tile
        moves.append(move)
        drawn = None
        claimant = _claimant(draws, seat, tile, players, where) if tile is not None and True in calls_ahead else None
        if claimant is not None and tile is not None and any(_may_be(d, tile) for d in discards[seat]):
            if point == len(choices):
                choices.append(True)
            if not choices[point]:
                claimant = None  # the same tile comes again: this time nobody calls
            point += 1
        if claimant is None:
            seat, need_draw = (seat + 1) % players, True
            continue
        call = _call(draws[claimant].popleft(), claimant, players, where)
        calls_ahead[claimant] = bool(draws[claimant]) and isinstance(draws[claimant][0], str)
        moves.append(call)
        seat, need_draw = claimant, call.verb == "minkan"
        if call.verb == "minkan":
            if not discards[seat] or discards[seat][0] != 0:
                raise RecordError(f"{where}: after the open kan {call.raw!r} the discards of seat {seat} should show 0")
            discards[seat].popleft()
    left = [s for s in range(players) if draws[s] or discards[s]]
    if left and lenient:
        for s in left:
            moves += [Move(s, "draw", tile_text(d) if isinstance(d, int) else None, raw=str(d)) for d in draws[s]]
            moves += [
                Move(s, "discard", tile_text(d) if isinstance(d, int) and d not in (0, 60) else None, raw=str(d))
                for d in discards[s]
            ]
    elif left:
        s = left[0]
        rest = list(draws[s])[:3] or list(discards[s])[:3]
        raise RecordError(
            f"{where}: the play of seat {s} goes on after the hand could end ({rest} left): a draw or "
            f"a discard is missing before it"
        )
    return moves


def _discard_move(seat: int, verb: str, item, drawn: str | None) -> Move:
    """A discard entry of a seat's stream (60: the tile just drawn, ``drawn``) as its action: a
    plain discard of a tile code is one shared Move."""
    if item == 60:
        move = _TSUMOGIRI[seat].get(drawn) if drawn is not None else None
        tile = drawn
    else:
        move = _DISCARDED[seat].get(item) if type(item) is int else None
        tile = move.tile if move is not None else tile_text(item)
    if move is None:
        return Move(seat, verb, tile, raw=str(item))
    return move if verb == "discard" else move._replace(verb=verb)


def _may_be(item, tile: str) -> bool:
    """Could this later discard entry be the same tile again (60: the tile drawn then, unknown)?"""
    if isinstance(item, str):
        if not item.startswith("r") or not item[1:].isdigit():
            return False
        item = int(item[1:])
    return item == 60 or (item != 0 and tile_text(item) == tile)


def _claimant(draws, discarder: int, tile: str, players: int, where: str) -> int | None:
    """The seat whose next draw entry calls this discard (pon and kan before chi)."""
    found = []
    for seat in range(players):
        if seat == discarder or not draws[seat] or not isinstance(draws[seat][0], str):
            continue
        call = _call(draws[seat][0], seat, players, where)
        if call.source == discarder and call.tile == tile:
            found.append((call.verb == "chi", seat))
    return min(found)[1] if found else None


_POINTS = re.compile(r"(?:(\d+)符)?(?:(\d+)飜)?(満貫|跳満|倍満|三倍満|数え役満|役満)?(\d+)(?:-(\d+))?点")


def _json_result(hand: HandRecord, result, players: int, where: str) -> None:
    if not isinstance(result, list) or not result or not isinstance(result[0], str):
        raise RecordError(f'{where}: the result is not ["和了" | "流局" | …, …]')
    hand.result = result[0]
    if result[0] == "和了":
        total = [0] * players
        for k in range(1, len(result) - 1, 2):
            deltas, info = result[k], result[k + 1]
            if not isinstance(deltas, list) or not isinstance(info, list) or len(info) < 3:
                raise RecordError(f"{where}: a win is [deltas], [who, from, pao, points, yaku…]")
            win = WinRecord(
                int(info[0]),
                int(info[1]),
                int(info[2]) if int(info[2]) != int(info[0]) else None,
                [int(d) for d in deltas[:players]],
            )
            match = _POINTS.search(str(info[3])) if len(info) > 3 else None
            if match:
                win.fu = int(match[1]) if match[1] else None
                win.limit = match[3]
                win.points = int(match[4]) + (int(match[5]) if match[5] else 0)
            for text in info[4:]:
                name, _, value = str(text).partition("(")
                han = 13 if "役満" in value else int(re.sub(r"\D", "", value) or 0)
                win.yaku.append((name.strip(), han))
            win.dora, win.ura = hand.dora, hand.ura
            hand.wins.append(win)
            total = [a + b for a, b in zip(total, win.deltas or [0] * players, strict=True)]
        if not hand.wins:
            raise RecordError(f"{where}: 和了 with no win listed")
        hand.deltas = total
        for win in hand.wins:
            hand.moves.append(Move(win.seat, "tsumo" if win.tsumo else "ron", source=win.source, raw=str(result[2])))
    else:
        hand.deltas = (
            [int(d) for d in result[1][:players]] if len(result) > 1 and isinstance(result[1], list) else [0] * players
        )
        if result[0] == "九種九牌" and hand.moves:
            hand.moves.append(Move(hand.moves[-1].seat, "kyuushu", raw=result[0]))
