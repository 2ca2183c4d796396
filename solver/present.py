"""Presenting results: the stable JSON shapes and the readable, coloured text form.

JSON shapes are contracts (documented in docs/json-output.md); keys are only ever added.
Text uses the documents' own card notation; colour is added with click's styles, which
``click.echo`` strips when the output is not a terminal.
"""

from __future__ import annotations

import unicodedata
from typing import Any

import click

from .meld import MeldChecker, Verdict
from .ruleset import Ruleset, Source


def display_width(text: str) -> int:
    """Terminal columns: East Asian wide and full-width characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _card_json(checker: MeldChecker, placement, could_be=None) -> dict:
    fmt = checker.notation
    out = {"card": fmt.format(placement.face), "as": fmt.format_identity(placement.identity),
           "role": placement.role, "wild": placement.wild}
    if placement.offset is not None:
        out["position"] = placement.offset
    if could_be:
        out["could_be"] = [fmt.format_identity(i) for i in could_be]
    return out


def verdict_json(verdict: Verdict, checker: MeldChecker) -> dict[str, Any]:
    """``{"legal", "kind", "cards": [{"card", "as"}], "reasons": [...]}`` plus extra keys."""
    fmt = checker.notation
    reading = verdict.reading
    if reading is not None:
        cards = [_card_json(checker, p, verdict.could_be.get(i))
                 for i, p in enumerate(reading.placements)]
    else:  # no reading: each card stands for itself
        cards = [{"card": fmt.format(f), "as": fmt.format(f), "role": None, "wild": None}
                 for f in verdict.faces]
    out: dict[str, Any] = {
        "legal": verdict.legal,
        "kind": reading.kind.id if reading else None,
        "cards": cards,
        "reasons": [r.to_json() for r in verdict.reasons],
        "ruleset": checker.ruleset.id,
        "kind_name": reading.kind.name if reading else None,
        "family": reading.kind.family if reading else None,
        "direction": reading.direction if reading else None,
        "phase": verdict.phase_required,
    }
    if len(verdict.readings) > 1 or (not verdict.legal and verdict.readings):
        out["readings"] = [{"kind": r.kind.id, "family": r.kind.family, "direction": r.direction,
                            "cards": [_card_json(checker, p) for p in r.placements]}
                           for r in verdict.readings]
    return out


def style_card(checker: MeldChecker, text: str, face_or_suit) -> str:
    color = checker.notation.color_of(face_or_suit)
    return click.style(text, fg=color, bold=True) if color else click.style(text, bold=True)


def quote_line(source: Source | None) -> str | None:
    if source is None:
        return None
    if source.quote:
        return f"「{' '.join(source.quote.split())}」 — {source.doc}"
    if source.assumption:
        return f"(assumption {source.assumption})"
    return None


def verdict_text(verdict: Verdict, checker: MeldChecker) -> str:
    fmt = checker.notation
    phases = {p.id: p.name for p in checker.ruleset.phases}
    lines = []
    if verdict.legal:
        reading = verdict.reading
        head = f"{click.style('legal', fg='green', bold=True)}: {reading.kind.label}"
        if reading.direction:
            head += f", {reading.direction}"
        head += f" of {len(reading.placements)} cards"
        if verdict.phase_required:
            head += f" (only in {phases.get(verdict.phase_required, verdict.phase_required)})"
        lines.append(head)
        width = max(display_width(fmt.format(p.face)) for p in reading.placements)
        for i, p in enumerate(reading.placements):
            name = fmt.format(p.face)
            card = style_card(checker, name, p.face) + " " * (width - display_width(name))
            if p.wild:
                ident = fmt.format_identity(p.identity)
                line = f"  {card}  as {style_card(checker, ident, p.identity[0])} ({p.role})"
                others = verdict.could_be.get(i)
                if others:
                    line += " — could also be " + ", ".join(fmt.format_identity(o) for o in others)
            elif fmt.format_identity(p.identity) != name:
                line = f"  {card}  as {fmt.format_identity(p.identity)} ({p.role})"
            else:
                line = f"  {style_card(checker, name, p.face)}"  # no padding after the last column
            lines.append(line)
    else:
        shown = " ".join(style_card(checker, fmt.format(f), f) for f in verdict.faces)
        lines.append(f"{click.style('illegal', fg='red', bold=True)}: {shown}")
        for reason in verdict.reasons:
            lines.append(f"  {click.style(reason.code, fg='red')}: {reason.message}")
            quote = quote_line(reason.source)
            if quote:
                lines.append(f"    {click.style(quote, dim=True)}")
    return "\n".join(lines)


def ruleset_json(ruleset: Ruleset) -> dict[str, Any]:
    return {
        "id": ruleset.id,
        "name": ruleset.name,
        "name_en": ruleset.name_en,
        "document": ruleset.document,
        "path": ruleset.path,
        "kinds": [{"id": k.id, "name": k.name, "family": k.family, "enabled": k in ruleset.kinds}
                  for k in ruleset.all_kinds],
        "options": {o.id: {"type": o.type, "default": o.default, "value": ruleset.option_values[o.id],
                           "description": o.description} for o in ruleset.options.values()},
        "assumptions": len(ruleset.assumptions),
        "deck_size": ruleset.deck.size,
    }
