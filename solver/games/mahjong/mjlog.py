"""Tenhou's raw game record, mjlog XML (``.mjlog``, gzip or plain), read into
:class:`~solver.games.mahjong.record.GameRecord`: ``GO type`` (the room's rule bits), ``INIT``
(seed: round, honba, sticks, dice, dora; ``ten`` in hundreds; the deal), ``T``–``W`` draws and
``D``–``G`` discards of tiles 0–135 (tile // 4 the kind; 16, 52, 88 red fives), ``N`` calls (the meld
bit fields), ``REACH``, ``DORA``, ``AGARI``/``RYUUKYOKU`` (``sc``: score and change per seat,
hundreds; ``owari`` on the last: the final scores and points)."""

from __future__ import annotations

import re
from urllib.parse import unquote

from solver.games.mahjong.record import GameRecord, HandRecord, Move, WinRecord
from solver.games.mahjong.tenhou import WINDS, RecordError

# mjlog's yaku numbers, in the record's names
MJLOG_YAKU = (
    ["門前清自摸和", "立直", "一発", "槍槓", "嶺上開花", "海底摸月", "河底撈魚", "平和", "断幺九", "一盃口"]
    + [f"自風 {w}" for w in WINDS]
    + [f"場風 {w}" for w in WINDS]
    + [
        "役牌 白",
        "役牌 發",
        "役牌 中",
        "ダブル立直",
        "七対子",
        "混全帯幺九",
        "一気通貫",
        "三色同順",
        "三色同刻",
        "三槓子",
        "対々和",
        "三暗刻",
        "小三元",
        "混老頭",
        "二盃口",
        "純全帯幺九",
        "混一色",
        "清一色",
        "人和",
        "天和",
        "地和",
        "大三元",
        "四暗刻",
        "四暗刻単騎",
        "字一色",
        "緑一色",
        "清老頭",
        "九蓮宝燈",
        "純正九蓮宝燈",
        "国士無双",
        "国士無双１３面",
        "大四喜",
        "小四喜",
        "四槓子",
        "ドラ",
        "裏ドラ",
        "赤ドラ",
    ]
)
LIMITS = {0: None, 1: "満貫", 2: "跳満", 3: "倍満", 4: "三倍満", 5: "役満"}
MJLOG_DRAWS = {
    "yao9": "九種九牌",
    "reach4": "四家立直",
    "ron3": "三家和了",
    "kan4": "四槓散了",
    "kaze4": "四風連打",
    "nm": "流し満貫",
}


def looks_mjlog(head: str) -> bool:
    return "<mjloggm" in head[:2000]


def mjlog_tile(tile_id: int, reds: bool) -> str:
    """A mjlog tile id (0–135) as text: id // 4 is the kind; 16, 52 and 88 are red fives."""
    if not 0 <= tile_id < 136:
        raise RecordError(f"{tile_id} is not a tile (0–135)")
    if reds and tile_id in (16, 52, 88):
        return f"0{'mps'[tile_id // 36]}"
    kind = tile_id // 4
    suit, rank = divmod(kind, 9)
    return f"{rank + 1}{'mpsz'[suit]}"


# -- mjlog XML ------------------------------------------------------------------------------------

_DRAWS, _DISCARDS = "TUVW", "DEFG"  # the tag of each seat's draw and discard
_TILE_TEXTS = {reds: [mjlog_tile(t, reds) for t in range(136)] for reds in (False, True)}
# a tag from its name on (the text is split at each "<"): name, digits, attributes
_TAG = re.compile(r"([A-Za-z]+)(\d*)((?:\s+[\w]+=\"[^\"]*\")*)\s*/?>")
_ATTR = re.compile(r"(\w+)=\"([^\"]*)\"")


def _plain_moves(reds: bool) -> dict[str, Move]:
    """Every draw and discard tag as written after its "<" (``T12/>``, ``D0/>``) as its action: a
    record's Move is immutable, so one object stands for each of the 8 × 136 tags."""
    texts = _TILE_TEXTS[reds]
    moves = {}
    for tags, verb in ((_DRAWS, "draw"), (_DISCARDS, "discard")):
        for seat, tag in enumerate(tags):
            for tile_id in range(136):
                moves[f"{tag}{tile_id}/>"] = Move(seat, verb, texts[tile_id], (), None, f"{tag}{tile_id}")
    return moves


_PLAIN_MOVES = {reds: _plain_moves(reds) for reds in (False, True)}


def read_mjlog(text: str, path: str) -> list[GameRecord]:
    """The game of a raw mjlog file: the text split at each "<", a draw or discard tag looked up
    as written (most of a record), any other read by :data:`_TAG`."""
    if "<mjloggm" not in text:
        raise RecordError(f"{path}: not a mjlog file (no <mjloggm>)")
    game = GameRecord(path, "tenhou-mjlog", 4, [], [])
    reds, hand, riichi_next, number, go_seen = True, None, set(), 0, False
    plain = _PLAIN_MOVES[reds]
    for piece in text.split("<"):
        move = plain.get(piece)
        if move is not None:  # most tags: a draw or a discard
            if hand is not None:
                if riichi_next and move.seat in riichi_next and move.verb == "discard":
                    riichi_next.discard(move.seat)
                    move = move._replace(verb="riichi")
                hand.moves.append(move)
            continue
        match = _TAG.match(piece)
        if match is None:  # a closing tag, the XML declaration, text between tags
            continue
        name, digits, rest = match.groups()
        attrs = dict(_ATTR.findall(rest))
        try:
            if name == "GO":
                go_seen = True
                bits = int(attrs.get("type", "0"))
                reds, game.kuitan = not bits & 2, not bits & 4
                plain = _PLAIN_MOVES[reds]
                game.length = "east-south" if bits & 8 else "east"
                game.players = 3 if bits & 16 else 4
                game.reds = 3 if reds else 0
                game.rule = f"GO type={bits}"
            elif name == "UN" and any(f"n{s}" in attrs for s in range(4)):
                first = not game.names  # later UN tags name a player who came back (as does BYE, who left)
                names = game.names or [""] * 4
                game.names = [unquote(attrs[f"n{s}"]) if f"n{s}" in attrs else names[s] for s in range(4)]
                if first and game.names[3] == "" and game.players == 4 and not go_seen:
                    game.players = 3
            elif name == "INIT":
                number += 1
                hand = _mjlog_init(attrs, game.players, reds, number, f"{path}: INIT #{number}")
                game.hands.append(hand)
            elif hand is None:
                continue
            elif name in "TUVW" and digits and len(name) == 1:
                hand.moves.append(
                    Move("TUVW".index(name), "draw", mjlog_tile(int(digits), reds), raw=f"{name}{digits}")
                )
            elif name in "DEFG" and digits and len(name) == 1:
                seat = "DEFG".index(name)
                verb = "riichi" if seat in riichi_next else "discard"
                riichi_next.discard(seat)
                hand.moves.append(Move(seat, verb, mjlog_tile(int(digits), reds), raw=f"{name}{digits}"))
            elif name == "N":
                hand.moves.append(decode_meld(int(attrs["who"]), int(attrs["m"]), game.players, reds))
            elif name == "REACH" and attrs.get("step") == "1":
                riichi_next.add(int(attrs["who"]))
            elif name == "DORA":
                hand.dora.append(mjlog_tile(int(attrs["hai"]), reds))
            elif name == "AGARI":
                _mjlog_agari(hand, attrs, game, reds)
            elif name == "RYUUKYOKU":
                _mjlog_draw(hand, attrs, game)
        except (KeyError, ValueError, IndexError) as exc:
            where = f"{path}: <{name}{digits}> (hand {number})"
            raise RecordError(f"{where}: cannot read it ({exc.__class__.__name__}: {exc})") from None
    if not game.hands:
        raise RecordError(f"{path}: no hand (no <INIT>) in the record")
    for hand in game.hands:
        if not hand.result:
            raise RecordError(
                f"{hand.where}: the hand has no result (no <AGARI> or <RYUUKYOKU>): the record is cut short"
            )
    return [game]


def _ints(text: str) -> list[int]:
    if not text:
        return []
    try:
        return list(map(int, text.split(",")))  # the usual list: no empty entry
    except ValueError:
        return [int(x) for x in text.split(",") if x.strip() != ""]


def _tiles(text: str, reds: bool) -> list[str]:
    """A list of mjlog tile ids as tile texts."""
    texts = _TILE_TEXTS[reds]
    return [texts[t] if 0 <= t < 136 else mjlog_tile(t, reds) for t in _ints(text)]


def _mjlog_init(attrs: dict, players: int, reds: bool, number: int, where: str) -> HandRecord:
    seed = _ints(attrs["seed"])
    scores = [100 * x for x in _ints(attrs["ten"])][:players]
    deal = [_tiles(attrs.get(f"hai{s}", ""), reds) for s in range(players)]
    for s, tiles in enumerate(deal):
        if len(tiles) != 13:
            raise RecordError(f"{where}: seat {s} is dealt {len(tiles)} tiles, not 13")
    return HandRecord(
        number,
        seed[0],
        seed[1],
        seed[2],
        scores,
        int(attrs.get("oya", seed[0] % 4)),
        [mjlog_tile(seed[5], reds)],
        [],
        deal,
        where=where,
    )


def decode_meld(who: int, m: int, players: int, reds: bool) -> Move:
    """A mjlog ``N`` tag's meld: the low two bits say whom it came from (1 right, 2 across, 3 left)."""
    raw = f"<N who={who} m={m}>"
    relative = m & 3
    source = (who + relative) % 4 if players == 4 else (who + relative) % 4 % players
    if m & 0x4:  # chi: the run's first tile and which of the three was called
        t = m >> 10
        called, t = t % 3, t // 3
        base = (t // 7) * 9 + t % 7
        ids = [(base + i) * 4 + ((m >> (3 + 2 * i)) & 3) for i in range(3)]
        tiles = [mjlog_tile(i, reds) for i in ids]
        return Move(who, "chi", tiles[called], tuple(tiles[:called] + tiles[called + 1 :]), source, raw)
    if m & 0x18:  # pon, or a pon made a kan (加槓): the copy left out is the one added
        t = m >> 9
        called, kind = t % 3, t // 3
        unused = (m >> 5) & 3
        ids = [kind * 4 + i for i in range(4) if i != unused]
        tiles = [mjlog_tile(i, reds) for i in ids]
        if m & 0x10:
            return Move(who, "kakan", mjlog_tile(kind * 4 + unused, reds), tuple(tiles), source, raw)
        return Move(who, "pon", tiles[called], tuple(tiles[:called] + tiles[called + 1 :]), source, raw)
    if m & 0x20:
        return Move(who, "nuki", mjlog_tile(m >> 8, reds), (), None, raw)
    tile = m >> 8
    kind = tile // 4
    tiles = [mjlog_tile(kind * 4 + i, reds) for i in range(4)]
    if relative == 0:
        return Move(who, "ankan", mjlog_tile(tile, False), tuple(tiles), None, raw)
    own = [mjlog_tile(kind * 4 + i, reds) for i in range(4) if kind * 4 + i != tile]
    return Move(who, "minkan", mjlog_tile(tile, reds), tuple(own), source, raw)


def _deltas(attrs: dict, players: int) -> list[int]:
    sc = _ints(attrs.get("sc", ""))
    return [100 * sc[2 * s + 1] for s in range(players)] if len(sc) >= 2 * players else [0] * players


def _owari(attrs: dict, game: GameRecord) -> None:
    if "owari" in attrs:
        values = [float(x) for x in attrs["owari"].split(",")]
        game.final_scores = [int(100 * values[2 * s]) for s in range(game.players)]
        game.final_points = [values[2 * s + 1] for s in range(game.players)]


def _mjlog_agari(hand: HandRecord, attrs: dict, game: GameRecord, reds: bool) -> None:
    players = game.players
    who, source = int(attrs["who"]), int(attrs["fromWho"])
    ten = _ints(attrs.get("ten", ""))
    win = WinRecord(
        who,
        source,
        int(attrs["paoWho"]) if "paoWho" in attrs else None,
        _deltas(attrs, players),
        ten[0] if ten else None,
        ten[1] if len(ten) > 1 else None,
        LIMITS.get(ten[2]) if len(ten) > 2 else None,
    )
    pairs = _ints(attrs.get("yaku", ""))
    win.yaku = [(MJLOG_YAKU[pairs[i]], pairs[i + 1]) for i in range(0, len(pairs) - 1, 2)]
    win.yaku += [(MJLOG_YAKU[y], 13) for y in _ints(attrs.get("yakuman", ""))]
    win.dora = _tiles(attrs.get("doraHai", ""), reds)
    win.ura = _tiles(attrs.get("doraHaiUra", ""), reds)
    win.hand = _tiles(attrs.get("hai", ""), reds)
    hand.result = "和了"
    hand.wins.append(win)
    hand.deltas = [a + b for a, b in zip(hand.deltas or [0] * players, win.deltas or [0] * players, strict=True)]
    hand.ura = win.ura or hand.ura
    hand.moves.append(Move(who, "tsumo" if who == source else "ron", source=source, raw=f"<AGARI who={who}>"))
    _owari(attrs, game)


def _mjlog_draw(hand: HandRecord, attrs: dict, game: GameRecord) -> None:
    kind = attrs.get("type")
    hand.result = MJLOG_DRAWS.get(kind, "流局") if kind else "流局"
    hand.deltas = _deltas(attrs, game.players)
    hand.tenpai = [s for s in range(game.players) if f"hai{s}" in attrs]
    if kind == "yao9" and hand.moves:
        hand.moves.append(Move(hand.moves[-1].seat, "kyuushu", raw="<RYUUKYOKU type=yao9>"))
    _owari(attrs, game)
