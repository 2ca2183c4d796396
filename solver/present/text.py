"""Helpers every game's text form uses: colour, terminal width, quotes, verdict heads.

Colour comes from click's styles, which ``click.echo`` strips when the output is not a terminal.
"""

from __future__ import annotations

import unicodedata

import click

from solver.core.source import Source

GOOD, BAD, UNSURE = "green", "red", "yellow"


def display_width(text: str) -> int:
    """Terminal columns: East Asian wide and full-width characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def pad(text: str, width: int, right: bool = False) -> str:
    """``text`` filled with spaces to ``width`` terminal columns (on the left when ``right``): a
    column of Japanese names lines up as a terminal draws it, a wide character taking two."""
    fill = " " * max(0, width - display_width(text))
    return fill + text if right else text + fill


def head(word: str, good: bool | None) -> str:
    """A verdict's first word, coloured: green yes, red no, yellow undecided."""
    colour = UNSURE if good is None else GOOD if good else BAD
    return click.style(word, fg=colour, bold=True)


def bold(text: str) -> str:
    return click.style(text, bold=True)


def dim(text: str) -> str:
    return click.style(text, dim=True)


def coloured(text: str, colour: str | None, bold: bool = True) -> str:
    return click.style(text, fg=colour, bold=bold) if colour else click.style(text, bold=bold)


def quote_line(source: Source | None) -> str | None:
    """A source as one line: 「the quote」 — document, or (assumption id)."""
    if source is None:
        return None
    if source.quote:
        return f"「{' '.join(source.quote.split())}」 — {source.doc}"
    if source.assumption:
        return f"(assumption {source.assumption})"
    return None


def reason_lines(reasons: list[dict], indent: str = "  ") -> list[str]:
    """Reasons (code, message, source as JSON) as text, each with its quote."""
    lines = []
    for r in reasons:
        lines.append(f"{indent}{click.style(r['code'], fg=BAD)}: {r['message']}")
        src = r.get("source") or {}
        if src.get("quote"):
            lines.append(f"{indent}  {dim('「' + ' '.join(src['quote'].split()) + '」 — ' + src['doc'])}")
        elif src.get("assumption"):
            lines.append(f"{indent}  {dim('(assumption ' + src['assumption'] + ')')}")
    return lines


def verdict_word(matches: bool | None, mismatches: list[str] | tuple[str, ...]) -> str:
    """How an answer fares against a puzzle's expectation."""
    if matches is None:
        return dim("no expectation")
    if matches:
        return click.style("ok", fg=GOOD)
    return click.style("MISMATCH: " + "; ".join(mismatches), fg=BAD)


def question_puzzle_text(row: dict, answer: str) -> str:
    """A puzzle that asks a question (waits, a score, a word turn): its title, the answer
    indented, and whether it matches the puzzle's expectation."""
    verdict = (
        ""
        if "matches" not in row
        else "  "
        + (
            click.style("ok", fg=GOOD)
            if row["matches"]
            else click.style("MISMATCH: " + "; ".join(row["mismatches"]), fg=BAD)
        )
    )
    return f"{row['title']}\n  {answer.replace(chr(10), chr(10) + '  ')}{verdict}"


def deck_line(ruleset) -> str:
    """What ``melds rulesets`` says of a ruleset of cards: the deck's size and its meld kinds."""
    return f"{ruleset.deck.size} cards; melds: {', '.join(k.name for k in ruleset.kinds)}"
