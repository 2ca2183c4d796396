"""Word games as text: words in the document's own writing (hiragana), with the tiles that spell
them, colour where the terminal has it. The JSON shapes come from :mod:`solver.games.words.session`."""

from __future__ import annotations

import click


def _tiles(tiles) -> str:
    return " ".join(tiles)


def _reasons(reasons) -> list[str]:
    out = []
    for r in reasons:
        src = r.get("source") or {}
        quote = (
            f" 「{src['quote']}」"
            if src.get("quote")
            else f" [assumption {src['assumption']}]"
            if src.get("assumption")
            else ""
        )
        out.append(f"    - {r['message']}{quote}")
    return out


def dictionary_text(info: dict) -> str:
    parts = []
    for s in info["sources"]:
        text = f"{s['name']}: {s['loaded']:,} words"
        if s["skipped"]:
            text += "; skipped " + "; ".join(
                f"{n:,} {why} (e.g. {', '.join(s['examples'].get(why, []))})" for why, n in s["skipped"].items()
            )
        parts.append(text)
    return "dictionary: " + " | ".join(parts)


def check_text(result: dict) -> str:
    lines = []
    for w in result["words"]:
        mark = click.style("✓", fg="green") if w["legal"] else click.style("✗", fg="red")
        word = click.style(w["word"] or "(nothing)", bold=True)
        spelled = not any(r["code"] in ("no-tile", "not-kana") for r in w["reasons"])
        head = f"{mark} {word}  " + (f"{w['length']} tiles: {_tiles(w['tiles'])}" if spelled else "cannot be spelled")
        if w["entry"]:
            head += f"  — {w['entries'][0]['source']} {w['entry']}"
        lines.append(head)
        lines += _reasons(w["reasons"])
    lines.append(dictionary_text(result["dictionary"]))
    return "\n".join(lines)


def _word_line(w: dict, new: bool = False) -> str:
    flag = click.style("  ← new, from the hand", fg="cyan") if new else ""
    known = (
        f"  {w['entry']}"
        if w["entry"]
        else click.style("  (not in the dictionary; accepted at the table)", fg="yellow")
    )
    return f"    {click.style(w['word'], bold=True)}  [{_tiles(w['tiles'])}]{known}{flag}"


def turn_text(result: dict) -> str:
    if result.get("undecided"):
        return "undecided within the time budget"
    hand = len(result["hand"])
    if result["goes_out"]:
        lines = [click.style(f"Goes out: all {hand} tiles put down.", fg="green", bold=True)]
    else:
        lines = [
            click.style(
                f"Cannot go out this turn; the most that can be put down is {result['placed']} of {hand} tiles.",
                fg="red",
                bold=True,
            )
        ]
    new = result["new_word"]
    lines.append(f"  word from the hand: {new['word'] if new else 'none'}")
    lines.append("  table after the turn" + (" (arranged):" if result["arranged"] else ":"))
    table = result["table"]
    for i, w in enumerate(table):  # the new word is the last on the table
        lines.append(_word_line(w, new is not None and i == len(table) - 1))
    if not result["table"]:
        lines.append("    (empty)")
    lines.append(f"  kept: {_tiles(result['kept']) or 'nothing'}")
    if result["loose_left"]:
        lines.append(f"  loose tiles left on the table: {_tiles(result['loose_left'])}")
    lines += [r[2:] for r in _reasons(result["reasons"])]
    return "\n".join(lines)


def bonus_text(result: dict) -> str:
    if result.get("undecided"):
        return "undecided within the time budget"
    lines = [
        f"Bonus words from {_tiles(result['revealed'])}: {result['tiles_in_words']} tiles in words, "
        f"{len(result['left'])} left → {result['points']} points"
    ]
    lines += [_word_line(w) for w in result["words"]]
    return "\n".join(lines)


def score_text(result: dict) -> str:
    lines = []
    if not result["legal"]:
        lines.append(click.style("The bonus words do not stand:", fg="red"))
        lines += _reasons(result["reasons"])
        return "\n".join(lines)
    b = result["breakdown"]
    lines.append(
        f"{click.style(str(result['points']), bold=True)} points: "
        f"{result['tiles_left']} tiles left × {b['left_per_tile']} = {b['left']}, "
        f"{result['tiles_in_words']} tiles in bonus words × {b['in_words_per_tile']} = {b['in_words']}"
    )
    for w in result["bonus_words"]:
        lines.append(f"    {w['word']}  [{_tiles(w['tiles'])}]  {w['entry']}")
    return "\n".join(lines)
