"""Facts of a mahjong position that cannot be: the game's hooks of the shared validator
(:mod:`solver.core.validate`).

A win's facts (the flags the tiles do not show) must fit the win and each other — 海底撈月 is a
self-draw on the last tile, so ``--haitei`` on a ron is no position at all, not a hand without
that yaku. Each refusal names the yaku whose definition it contradicts and quotes the ruleset's
source for it; the rulings themselves (which yaku, how many han) stay in the scorer.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from operator import attrgetter
from typing import Any

from solver.core.errors import Location, MeldsError
from solver.core.source import Source
from solver.core.validate import Impossible, copies_problems, count_problems, state_location
from solver.games.mahjong.hands import Hand, Mahjong
from solver.games.mahjong.win import SEATS, WIN_FACT_FLAGS, WIN_FACT_TILES, Win

MAX_INDICATORS = 5  # the dora indicator and up to four kan dora (四開槓 ends the hand)
NO_RIICHI_WINS = ("tenhou", "chiihou", "renhou")  # first-turn wins: no riichi, no meld before them
_special = attrgetter(*WIN_FACT_FLAGS)  # the flags a win's facts are checked for


def _yaku_source(mj: Mahjong, flag: str) -> Source | None:
    scoring = mj.rules.mahjong_scoring
    for yaku in scoring.yaku if scoring else ():
        if yaku.pattern.get("flag") == flag:
            return yaku.source
    return None


def _yaku_name(mj: Mahjong, flag: str) -> str:
    scoring = mj.rules.mahjong_scoring
    for yaku in scoring.yaku if scoring else ():
        if yaku.pattern.get("flag") == flag:
            return f"{yaku.name} (--{flag})"
    return f"--{flag}"


def win_problems(
    mj: Mahjong, hand: Hand, win: Win, facts: Mapping[str, Any] | None = None, where: Location | None = None
) -> list[Impossible]:
    """What is impossible about a win: its flags against the way it was won (tsumo or ron), the
    seat, riichi and the hand's declared melds; its dora indicators; its tiles against the set."""
    out: list[Impossible] = []

    def refuse(flag: str, why: str) -> None:
        out.append(Impossible(f"{_yaku_name(mj, flag)} {why}", f"win-{flag}", _yaku_source(mj, flag), where))

    if win.players not in (3, 4):
        out.append(Impossible(f"{win.players} players: mahjong is played by 3 or 4", "players", None, where))
    if any(_special(win)):  # most wins raise none of these flags: nothing to check
        _flag_problems(mj, hand, win, refuse)
        if len([f for f in NO_RIICHI_WINS if getattr(win, f)]) > 1:
            out.append(Impossible("天和, 地和 and 人和 exclude one another", "win-first-turn", None, where))
    out += _indicator_problems(mj, hand, win, facts, where)
    return out  # (the hand alone was checked as it was read)


def _flag_problems(mj: Mahjong, hand: Hand, win: Win, refuse: Callable[[str, str], None]) -> None:
    """A win's flags (haitei, rinshan, chankan, ippatsu, tenhou ...) against the way it was won,
    the seat, riichi and the declared melds: each problem ``refuse(flag, why)``."""
    riichi = win.riichi or win.double_riichi
    kans = [m for m in hand.melds if len(m.faces) == 4]  # a kan is a declared quad, whatever its kind is called
    opened = [m for m in hand.melds if m.open]
    if win.haitei and not win.tsumo:
        refuse("haitei", "is a self-draw of the last tile: it goes with --tsumo, not with a ron")
    if win.houtei and win.tsumo:
        refuse("houtei", "is a ron on the last discard: it cannot go with --tsumo")
    if win.rinshan and not win.tsumo:
        refuse("rinshan", "is a self-draw of a kan's replacement tile: it goes with --tsumo, not with a ron")
    elif win.rinshan and not kans and not win.nuki:
        refuse("rinshan", "wins on the replacement tile after a kan (or 北抜き), and the hand declares no kan")
    if win.chankan and win.tsumo:
        refuse("chankan", "is a ron on a tile added to a kan: it cannot go with --tsumo")
    for other in ("haitei", "houtei", "rinshan"):
        if win.chankan and getattr(win, other):
            refuse(
                "chankan",
                f"robs a kan's tile, which is neither the last tile nor a replacement: not with --{other}",
            )
    if win.haitei and win.rinshan:
        refuse("haitei", "is the last tile of the wall, not a kan's replacement tile: not with --rinshan")
    if win.ippatsu and not riichi:
        refuse("ippatsu", "is a win within one go-around of riichi: it needs --riichi")
    if riichi and opened:
        refuse(
            "double-riichi" if win.double_riichi else "riichi",
            f"is declared with a closed hand, and this one has called {opened[0].kind} "
            f"{mj.format_tiles(opened[0].faces)}",
        )
    if win.tenhou and not win.dealer:
        refuse("tenhou", f"is the dealer's win on the first draw: the dealer sits E, the winner {win.seat}")
    if win.chiihou and win.dealer:
        refuse("chiihou", "is a non-dealer's win on the first draw: the dealer's is 天和 (--tenhou)")
    if win.renhou and win.dealer:
        refuse("renhou", "is a non-dealer's ron before their first draw: the dealer has drawn already")
    for flag, tsumo in (("tenhou", True), ("chiihou", True), ("renhou", False)):
        if not getattr(win, flag):
            continue
        if win.tsumo != tsumo:
            refuse(flag, "is won by self-draw: it goes with --tsumo" if tsumo else "is won by ron: not with --tsumo")
        if hand.melds:
            refuse(flag, "comes before any call or kan, and this hand declares a meld")
        if riichi:
            refuse(flag, "comes before anyone could declare riichi")


def _indicator_problems(
    mj: Mahjong, hand: Hand, win: Win, facts: Mapping[str, Any] | None, where: Location | None
) -> list[Impossible]:
    """A win's dora and ura dora indicators: ura only with riichi, no more than the dead wall
    shows, no more ura than dora, no more copies of a tile than the set holds."""
    riichi = win.riichi or win.double_riichi
    out: list[Impossible] = []
    if win.ura_indicators and not riichi:
        out.append(
            Impossible(
                "ura dora are turned only for a riichi hand: --ura-indicators needs --riichi", "win-ura", None, where
            )
        )
    if len(win.dora_indicators) > MAX_INDICATORS:
        out.append(
            Impossible(
                f"{len(win.dora_indicators)} dora indicators: the dead wall shows at most "
                f"{MAX_INDICATORS} (one and four kan dora)",
                "dora-indicators",
                None,
                where,
            )
        )
    if len(win.ura_indicators) > len(win.dora_indicators):
        out.append(
            Impossible(
                "more ura dora indicators than dora indicators: each lies under one", "dora-indicators", None, where
            )
        )
    out.extend(_nuki_problems(mj, hand, win, where))
    facts = facts or {}
    places = {}
    for key, label in (("dora_indicators", "the dora indicators"), ("ura_indicators", "the ura dora indicators")):
        if facts.get(key):
            places[label] = tuple(
                mj.parse_tiles(" ".join(facts[key]) if isinstance(facts[key], list) else str(facts[key]))
            )
    if places and mj.over_copies_with(hand, sum(places.values(), ())):
        places = {"the hand": hand.tiles, **places}
        out.extend(copies_problems(mj.rs.deck, places, lambda f: mj.format_tiles([f]), lambda _: where))
    return out


def check_win(
    mj: Mahjong, hand: Hand, win: Win, facts: Mapping[str, Any] | None = None, where: Location | None = None
) -> None:
    """Raise the first problem of a win (exit 2), or return."""
    problems = win_problems(mj, hand, win, facts, where)
    if problems:
        raise problems[0]


def _nuki_problems(mj: Mahjong, hand: Hand, win: Win, where: Location | None) -> list[Impossible]:
    """Tiles set aside (北抜き): only under a ruleset that has it, and no more than the set holds
    beside those in the hand."""
    if not win.nuki:
        return []
    rule = mj.rules.nuki_dora
    if rule is None:
        return [Impossible(f"{mj.rs.id} sets no tile aside: --nuki needs a ruleset with 北抜き", "nuki", None, where)]
    kind = mj.identity(mj.parse_tiles(rule.tile)[0])
    held = sum(1 for f in hand.tiles if mj.identity(f) == kind)
    copies = sum(mj.rs.deck.copies.get(f, 0) for f in mj.rs.deck.faces if mj.identity(f) == kind)
    if held + win.nuki > copies:
        return [
            Impossible(
                f"{win.nuki} {rule.tile} set aside and {held} in the hand: the set holds {copies}",
                "nuki",
                rule.source,
                where,
            )
        ]
    return []


def _nuki_places(mj: Mahjong, state: Any) -> dict[str, tuple]:
    """The tiles each seat has set aside (北抜き), as places whose tiles the set must hold."""
    rule = mj.rules.nuki_dora
    out = {}
    for seat, flags in state.flags.items():
        count = flags.get("nuki")
        if rule is not None and isinstance(count, int) and not isinstance(count, bool) and count > 0:
            out[f"{seat}'s 北抜き"] = tuple(mj.parse_tiles(rule.tile)) * count
    return out


def _nuki_flag_problems(mj: Mahjong, state: Any) -> list[Impossible]:
    """``flags.nuki``: a whole number of tiles set aside, under a ruleset that has 北抜き."""
    out = []
    for p, flags in state.flags.items():
        if "nuki" not in flags:
            continue
        where = state_location(state, "flags", p, "nuki")
        out.extend(count_problems([(f"{p}'s nuki (tiles set aside)", flags["nuki"], None, where)]))
        if flags["nuki"] and mj.rules.nuki_dora is None:
            out.append(Impossible(f"{mj.rs.id} sets no tile aside (no 北抜き): {p}'s nuki", "nuki", None, where))
    return out


def state_problems(mj: Mahjong, state: Any) -> list[Impossible]:
    """A mahjong state: seats are winds in order, the round a wind, every tile seen (hands, melds,
    discards) within the set's copies, points and counters whole numbers."""
    out: list[Impossible] = []
    seats = SEATS[: len(state.players)]
    if tuple(state.players) != seats:
        out.append(
            Impossible(
                f"mahjong players are the seats {', '.join(seats)} in turn order, not {', '.join(state.players)}",
                "seats",
                None,
                state_location(state, "players"),
            )
        )
    round_wind = state.facts.get("round", "E")
    if round_wind not in SEATS:
        out.append(
            Impossible(
                f"round wind {round_wind!r}: give E, S, W or N", "round", None, state_location(state, "facts", "round")
            )
        )
    for p, flags in state.flags.items():
        points = flags.get("points")
        if points is not None and (not isinstance(points, int) or isinstance(points, bool)):
            out.append(
                Impossible(
                    f"{p}'s points must be a whole number (negative for a debt), not {points!r}",
                    "count",
                    None,
                    state_location(state, "flags", p, "points"),
                )
            )
    for key in ("honba", "riichi_sticks"):
        out.extend(count_problems([(key, state.facts.get(key), None, state_location(state, "facts", key))]))
    out.extend(_nuki_flag_problems(mj, state))
    places: dict[str, tuple] = _nuki_places(mj, state)
    most = mj.winning_size  # a state may list less (the tiles that matter), never more
    for seat, text in state.hands.items():
        if isinstance(text, str):
            hand = mj.parse_hand(text.replace("?", " "))
            places[f"{seat}'s hand"] = hand.tiles
            size = mj.size(hand) + text.count("?")
            if size > most:
                out.append(
                    Impossible(
                        f"{seat}'s hand holds {size} tiles (a declared kan counts as 3): a hand holds "
                        f"{most - 1}, or {most} between its draw and its discard",
                        "hand-size",
                        None,
                        state_location(state, "hands", seat),
                    )
                )
    if state.discards:
        places["the discards"] = tuple(mj.parse_tiles(" ".join(d for d in state.discards if d != "?")))
    out.extend(
        copies_problems(
            mj.rs.deck,
            places,
            lambda f: mj.format_tiles([f]),
            lambda place: (
                state_location(state, "hands", place.split("'")[0])
                if "'s hand" in place
                else state_location(state, "discards")
            ),
        )
    )
    return out + table_fact_problems(mj, state)


def table_fact_problems(mj: Mahjong, state: Any) -> list[Impossible]:
    """The table's facts a turn rule reads: the kan on offer (``kan``, or the first design's
    ``robbable``), the tile just drawn, the seat drawing a replacement, and ``win_facts``."""
    out: list[Impossible] = []
    facts, seats = state.facts, set(state.players)

    def refuse(message: str, rule: str, *keys: str) -> None:
        out.append(Impossible(f"facts.{'.'.join(keys)}: {message}", rule, None, state_location(state, "facts", *keys)))

    def one_tile(value: Any, *keys: str):
        try:
            faces = mj.parse_tiles(" ".join(map(str, value)) if isinstance(value, list) else str(value))
        except MeldsError as exc:
            return refuse(str(exc), "tile", *keys)
        if len(faces) != 1:
            return refuse(f"{value!r} is not one tile", "tile", *keys)
        return faces[0]

    def known_hand(seat: str):
        text = state.hands.get(seat)
        return mj.parse_hand(text.replace("?", " ")) if isinstance(text, str) else None

    kan = facts.get("kan")
    if kan is not None:
        if (
            not isinstance(kan, Mapping)
            or "tile" not in kan
            or kan.get("kind") not in ("ankan", "kakan", "nuki")
            or kan.get("by") not in seats
        ):
            refuse("a kan on offer is {tile, kind: ankan, kakan or nuki, by: its seat}", "kan", "kan")
        elif kan["kind"] == "nuki":
            if not state.flag(kan["by"], "nuki"):
                refuse(f"{kan['by']} has set no tile aside (flags.nuki) to offer", "kan", "kan")
        else:
            face, hand = one_tile(kan["tile"], "kan", "tile"), known_hand(kan["by"])
            closed = kan["kind"] == "ankan"
            if (
                face is not None
                and hand is not None
                and not any(
                    len(m.faces) == 4 and m.open != closed and mj.identity(m.faces[0]) == mj.identity(face)
                    for m in hand.melds
                )
            ):
                refuse(
                    f"{kan['by']}'s hand declares no {'closed' if closed else 'added'} kan of {kan['tile']}",
                    "kan",
                    "kan",
                )
    if facts.get("robbable") is not None:
        one_tile(facts["robbable"], "robbable")
    if facts.get("drawn") is not None:
        face, hand = one_tile(facts["drawn"], "drawn"), known_hand(state.turn)
        if face is not None and hand is not None and all(mj.identity(f) != mj.identity(face) for f in hand.concealed):
            refuse(f"{state.turn} drew {facts['drawn']}, which is not in their hand", "drawn", "drawn")
    if facts.get("rinshan") is not None and facts["rinshan"] not in seats:
        refuse(f"{facts['rinshan']!r} is not a seat at the table", "seat", "rinshan")
    given = facts.get("win_facts")
    if given is not None and not isinstance(given, Mapping):
        refuse("seat -> the facts of a win the state cannot show", "win-facts", "win_facts")
    for seat, known in (given or {}).items() if isinstance(given, Mapping) else ():
        if seat not in seats or not isinstance(known, Mapping):
            refuse(f"{seat!r}: a seat at the table, with the facts of its win", "win-facts", "win_facts")
            continue
        for key, value in known.items():
            if key in WIN_FACT_TILES:
                for tile in value if isinstance(value, list) else str(value).split():
                    one_tile(tile, "win_facts", str(seat), key)
            elif key not in WIN_FACT_FLAGS or not isinstance(value, bool):
                refuse(
                    f"{key!r}: a win's facts are {', '.join(WIN_FACT_FLAGS)} (true or false) and "
                    f"{' and '.join(WIN_FACT_TILES)} (tiles)",
                    "win-facts",
                    "win_facts",
                    str(seat),
                )
    return out
