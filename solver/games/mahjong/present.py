"""Presenting mahjong answers: hands, decompositions, waits and closed kans, as JSON and text.

Tiles are written in tenhou notation in JSON (``"2p"``, ``"0m"`` for a red five, honours as
``"1z"``–``"7z"``) and, in text, also as the document's kanji for honours and as Unicode tiles.
The shapes are documented in docs/json-output.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

from solver.core.deck import Face
from solver.games.mahjong.hands import Decomposition, Hand, KanVerdict, Mahjong
from solver.games.mahjong.shanten import DiscardTable, Shanten

_SUIT_COLORS: dict[str | None, str | None] = {"m": "red", "p": "blue", "s": "green", "z": None}


def ident_json(mj: Mahjong, ident: tuple) -> str:
    """An identity in tenhou notation: 2p, 1z."""
    suit, rank = ident
    return f"{mj.suit_ranks[suit].index(rank) + 1}z" if suit == "z" else f"{rank}{suit}"


def decomposition_json(mj: Mahjong, d: Decomposition) -> dict[str, Any]:
    shape = next(s for s in mj.rules.hand_shapes if s.id == d.shape)
    return {
        "shape": d.shape,
        "shape_name": shape.name,
        "parts": [
            {
                "kind": p.kind,
                "name": mj.rs.kind(p.kind).name,
                "tiles": mj.format_tiles(p.faces),
                "declared": p.declared,
                "open": _is_open(mj, p.declared),
            }
            for p in d.parts
        ],
    }


def _is_open(mj: Mahjong, declared: str | None) -> bool:
    return declared is not None and any(m.id == declared and m.open for m in mj.rules.declared_melds)


def hand_json(mj: Mahjong, hand: Hand) -> dict[str, Any]:
    return {
        "hand": mj.format_hand(hand),
        "tiles": mj.size(hand),
        "melds": [{"declared": m.kind, "tiles": mj.meld_text(m, brackets=False), "open": m.open} for m in hand.melds],
    }


def check_json(
    mj: Mahjong, hand: Hand, decompositions: list[Decomposition], discards: list[tuple[tuple, list[tuple]]]
) -> dict[str, Any]:
    """``{"winning", "legal", "decompositions", "tenpai_discards", "hand", ...}``."""
    winning = bool(decompositions)
    return {
        "ruleset": mj.rs.id,
        **hand_json(mj, hand),
        "winning": winning,
        "legal": winning,
        "decompositions": [decomposition_json(mj, d) for d in decompositions],
        "tenpai_discards": [
            {"discard": ident_json(mj, t), "waits": [ident_json(mj, w) for w in ws]} for t, ws in discards
        ],
    }


def waits_json(
    mj: Mahjong, hand: Hand, waits: list[tuple], by_wait: dict[tuple, list[Decomposition]]
) -> dict[str, Any]:
    """``{"tenpai", "waits", "decompositions", "formal", ...}``; each decomposition names its wait."""
    held = mj.counts(hand.tiles)
    return {
        "ruleset": mj.rs.id,
        **hand_json(mj, hand),
        "tenpai": bool(waits),
        "waits": [ident_json(mj, w) for w in waits],
        "formal": [ident_json(mj, w) for w in waits if held[mj.index[w]] >= _copies(mj, w)],
        "decompositions": [
            {"wait": ident_json(mj, w), **decomposition_json(mj, d)} for w in waits for d in by_wait.get(w, [])
        ],
    }


def _copies(mj: Mahjong, ident: tuple) -> int:
    return sum(n for f, n in mj.rs.deck.copies.items() if mj.identity(f) == ident)


def kans_json(mj: Mahjong, hand: Hand, drawn: Face, verdicts: list[KanVerdict]) -> dict[str, Any]:
    waits = verdicts[0].waits_before if verdicts else tuple(mj.waits(hand))
    return {
        "ruleset": mj.rs.id,
        **hand_json(mj, hand),
        "draw": mj.format_tiles([drawn]),
        "waits": [ident_json(mj, w) for w in waits],
        "kans": [
            {
                "tile": ident_json(mj, v.tile),
                "okuri": v.okuri,
                "waits_after": None if v.waits_after is None else [ident_json(mj, w) for w in v.waits_after],
                "document": {"allowed": v.doc_allowed, "reason": v.reason_doc},
                "general": {"allowed": v.general_allowed, "reason": v.reason_general},
            }
            for v in verdicts
        ],
    }


# -- text ---------------------------------------------------------------------------------------


def styled_tiles(mj: Mahjong, faces: Sequence[Face]) -> str:
    """Tenhou groups, each coloured by suit, then the Unicode tiles: 123m 🀇🀈🀉."""
    groups: dict[str, list[Face]] = {}
    for f in faces:
        suit, _ = mj.identity(f)
        groups.setdefault(suit, []).append(f)
    out = [
        click.style(mj.format_tiles(fs, kanji=True), fg=_SUIT_COLORS.get(suit), bold=True)
        for suit, fs in sorted(groups.items(), key=lambda kv: mj.suits.index(kv[0]))
    ]
    pictures = "".join(mj.tile_unicode(mj.identity(f)) for f in sorted(faces, key=lambda f: mj.index[mj.identity(f)]))
    return " ".join(out) + " " + pictures


def _ident_text(mj: Mahjong, ident: tuple) -> str:
    label = ident[1] if ident[0] == "z" else ident_json(mj, ident)
    return click.style(label, fg=_SUIT_COLORS.get(ident[0]), bold=True) + mj.tile_unicode(ident)


def hand_text(mj: Mahjong, hand: Hand) -> str:
    parts = [styled_tiles(mj, hand.concealed)] if hand.concealed else []
    for m in hand.melds:
        body = styled_tiles(mj, m.faces)
        parts.append(f"[{body}]" if m.open else f"({body})")
    return "  ".join(parts)


def decomposition_text(mj: Mahjong, d: Decomposition) -> str:
    shape = next(s for s in mj.rules.hand_shapes if s.id == d.shape)
    parts = []
    for p in d.parts:
        body = mj.format_tiles(p.faces, kanji=True)
        body = click.style(body, fg=_SUIT_COLORS.get(p.faces[0].suit), bold=True)
        if p.declared:
            body = f"[{body}]" if _is_open(mj, p.declared) else f"({body})"
        parts.append(body)
    return f"{shape.name}: {' '.join(parts)}"


def check_text(
    mj: Mahjong,
    result: dict,
    hand: Hand,
    decompositions: list[Decomposition],
    discards: list[tuple[tuple, list[tuple]]],
) -> str:
    lines = [hand_text(mj, hand)]
    if decompositions:
        n = len(decompositions)
        lines.append(click.style("winning", fg="green", bold=True) + f": {n} decomposition{'s' if n > 1 else ''}")
        lines += [f"  {decomposition_text(mj, d)}" for d in decompositions]
    else:
        lines.append(
            click.style("not winning", fg="red", bold=True)
            + ": no winning shape ("
            + ", ".join(s.name for s in mj.rules.hand_shapes)
            + ") fits"
        )
        if discards:
            lines.append("  tenpai after discarding:")
            for tile, waits in discards:
                lines.append(f"    {_ident_text(mj, tile)} → waits on " + " ".join(_ident_text(mj, w) for w in waits))
    return "\n".join(lines)


def waits_text(
    mj: Mahjong, result: dict, hand: Hand, waits: list[tuple], by_wait: dict[tuple, list[Decomposition]]
) -> str:
    lines = [hand_text(mj, hand)]
    if not waits:
        lines.append(click.style("not tenpai", fg="red", bold=True) + ": no tile completes the hand")
        return "\n".join(lines)
    lines.append(
        click.style("tenpai", fg="green", bold=True) + ": waits on " + " ".join(_ident_text(mj, w) for w in waits)
    )
    formal = set(result["formal"])
    for w in waits:
        note = click.style("  (形式聴牌: every copy is in the hand)", dim=True) if ident_json(mj, w) in formal else ""
        lines.append(f"  {_ident_text(mj, w)}{note}")
        lines += [f"    {decomposition_text(mj, d)}" for d in by_wait.get(w, [])]
    return "\n".join(lines)


def kans_text(mj: Mahjong, hand: Hand, drawn: Face, verdicts: list[KanVerdict]) -> str:
    waits = verdicts[0].waits_before if verdicts else tuple(mj.waits(hand))
    lines = [
        hand_text(mj, hand) + "  draws " + styled_tiles(mj, [drawn]),
        "waits: " + (" ".join(_ident_text(mj, w) for w in waits) or "none (not tenpai)"),
    ]
    if not verdicts:
        lines.append("no closed kan is possible: the hand and the drawn tile hold no four of a kind")
    for v in verdicts:
        lines.append(f"closed kan of {_ident_text(mj, v.tile)}:")
        for label, allowed, reason in (
            ("document rule", v.doc_allowed, v.reason_doc),
            ("general rule", v.general_allowed, v.reason_general),
        ):
            word = click.style("allowed" if allowed else "not allowed", fg="green" if allowed else "red", bold=True)
            lines.append(f"  {label:14} {word}: {reason}")
    return "\n".join(lines)


# -- shanten and discards -------------------------------------------------------------------------


def shanten_json(mj: Mahjong, hand: Hand, shanten: Shanten) -> dict[str, Any]:
    """``{"shanten", "by_shape": {shape id: int | null}, "shapes", ...}``."""
    return {
        "ruleset": mj.rs.id,
        **hand_json(mj, hand),
        "shanten": shanten.value,
        "by_shape": dict(shanten.by_shape),
        "shapes": list(shanten.best_shapes),
    }


def shanten_words(n: int) -> str:
    """-1 complete, 0 tenpai, else n向聴."""
    if n < 0:
        return "complete (和了形, shanten -1)"
    return "tenpai (聴牌, shanten 0)" if n == 0 else f"{n}向聴 (shanten {n})"


def shanten_text(mj: Mahjong, hand: Hand, shanten: Shanten) -> str:
    names = {s.id: s.name for s in mj.rules.hand_shapes}
    shapes = ", ".join(
        f"{names[shape]} {n}" if n is not None else f"{names[shape]} — (not with melds declared)"
        for shape, n in shanten.by_shape
    )
    color = "green" if shanten.value <= 0 else None
    return f"{hand_text(mj, hand)}\n{click.style(shanten_words(shanten.value), fg=color, bold=True)}: {shapes}"


def discards_json(mj: Mahjong, table: DiscardTable) -> dict[str, Any]:
    """``{"shanten", "discards": [{"discard", "shanten", "ukeire": [{"tile", "left"}], "ukeire_total"}], ...}``."""
    idents = mj.identities
    return {
        "ruleset": mj.rs.id,
        **hand_json(mj, table.hand),
        "shanten": table.shanten.value,
        "visible": mj.format_tiles(table.visible),
        "dora_indicators": mj.format_tiles(table.indicators),
        "discards": [
            {
                "discard": ident_json(mj, idents[row.discard]),
                "shanten": row.shanten,
                "ukeire": [{"tile": ident_json(mj, idents[t]), "left": left} for t, left in row.ukeire],
                "ukeire_total": row.total,
            }
            for row in table.rows
        ],
    }


def discards_text(mj: Mahjong, table: DiscardTable) -> str:
    idents = mj.identities
    lines = [hand_text(mj, table.hand)]
    seen = [f"visible {styled_tiles(mj, table.visible)}"] if table.visible else []
    seen += [f"dora indicators {styled_tiles(mj, table.indicators)}"] if table.indicators else []
    if seen:
        lines.append("seen: " + ", ".join(seen))
    lines.append(f"{shanten_words(table.shanten.value)} with {mj.winning_size} tiles; each discard, best first:")
    for row in table.rows:
        draws = " ".join(f"{_ident_text(mj, idents[t])}×{left}" for t, left in row.ukeire) or "none"
        after = "tenpai" if row.shanten == 0 else f"{row.shanten}向聴"
        lines.append(f"  discard {_ident_text(mj, idents[row.discard])} → {after}, {row.total} tiles to draw: {draws}")
    return "\n".join(lines)


# -- scores -------------------------------------------------------------------------------------


def score_json(scorer, hand: Hand, win, score) -> dict[str, Any]:
    """A scored win: ``{"han", "fu", "yaku": [{"name", "han"}], "points": {"total", "payments"}, ...}``."""
    mj = scorer.mj
    p = score.points
    return {
        "ruleset": mj.rs.id,
        **hand_json(mj, hand),
        "win": ident_json(mj, win.tile),
        "winning": True,
        "tsumo": win.tsumo,
        "seat": win.seat,
        "round": win.round_wind,
        "players": win.players,
        **({"nuki": win.nuki} if win.nuki else {}),
        "han": score.han,
        "fu": score.fu,
        "yaku": [
            {"id": y.id, "name": y.name, "han": y.han, **({"yakuman": y.yakuman} if y.yakuman else {})}
            for y in score.yaku
        ],
        "dora": score.dora,
        "yakuman": score.yakuman,
        "limit": p.limit,
        "aotenjou": score.aotenjou,
        "fu_details": [{"reason": why, "fu": fu} for why, fu in score.fu_details],
        "points": {
            "total": p.total,
            "payments": p.payments,
            "honba": p.honba,
            "riichi_sticks": p.riichi_sticks,
            "received": p.received,
            "basic": p.basic,
        },
        "shape": score.shape,
        "wait": score.wait,
        "parts": [
            {"kind": part.kind, "tiles": mj.identities_text(part.tiles), "declared": part.declared, "open": part.open}
            for part in score.parts
        ],
    }


def score_text(scorer, hand: Hand, win, score, result: dict) -> str:
    mj = scorer.mj
    how = "tsumo" if win.tsumo else f"ron from {win.discarder}" if win.discarder else "ron"
    lines = [
        f"{hand_text(mj, hand)}  wins on {_ident_text(mj, win.tile)} ({how}), "
        f"seat {win.seat}, round {win.round_wind}, {win.players} players" + (f", 北抜き {win.nuki}" if win.nuki else "")
    ]
    for y in score.yaku:
        value = (
            f"{'役満' if y.yakuman == 1 else f'{y.yakuman}倍役満'}"
            if y.yakuman and not score.aotenjou
            else f"{y.han} han"
        )
        lines.append(f"  {_pad(y.name, 14)} {value}")
    if score.dora:
        lines.append(f"  {_pad('ドラ', 14)} {score.dora} han")
    p = score.points
    limit = f" {p.limit}" if p.limit else ""
    head = f"{score.han} han {score.fu} fu" if not score.yakuman or score.aotenjou else f"{score.yakuman}× yakuman"
    lines.append(click.style(f"{head}{limit}: {p.total:,} points", bold=True))
    if score.fu_details and not (score.yakuman and not score.aotenjou):
        lines.append("  fu: " + ", ".join(f"{why} {fu}" for why, fu in score.fu_details))
    lines.append("  paid by: " + ", ".join(f"{seat} {amount:,}" for seat, amount in p.payments.items()))
    if p.honba:
        lines.append("  honba: " + ", ".join(f"{seat} {amount:,}" for seat, amount in p.honba.items()))
    if p.riichi_sticks:
        lines.append(f"  riichi sticks: {p.riichi_sticks:,}")
    if p.honba or p.riichi_sticks:
        lines.append(f"  received in all: {p.received:,}")
    return "\n".join(lines)


def _pad(text: str, width: int) -> str:
    """Left-justify by display width: a CJK character takes two columns."""
    import unicodedata

    used = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)
    return text + " " * max(0, width - used)


def draw_text(result: dict) -> str:
    what = "流し満貫" if result["nagashi"] else "不聴罰符"
    lines = [
        f"exhaustive draw ({what}): tenpai {' '.join(result['tenpai']) or 'none'}"
        + (f", 流し満貫 {' '.join(result['nagashi'])}" if result["nagashi"] else "")
    ]
    lines += [f"  {seat}: {amount:+,}" for seat, amount in result["payments"].items()]
    return "\n".join(lines)
