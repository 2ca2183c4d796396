"""Judgements of actions as text: legal or not, each reason with its quote, the state after."""

from __future__ import annotations

import click

from solver.core.moves import Judgement
from solver.present.text import BAD, GOOD


def judgement_text(j: Judgement) -> str:
    if j.legal:
        head = click.style(f"legal: {j.action}", fg=GOOD, bold=True)
        return f"{head}\nafter it:\n" + "\n".join(j.state_lines)
    lines = [click.style(f"illegal: {j.action}", fg=BAD, bold=True)]
    for r in j.reasons:
        src = r.get("source") or {}
        quote = (
            f"\n    「{src['quote']}」 — {src['doc']}"
            if src.get("quote")
            else f"\n    [assumption {src['assumption']}]"
            if src.get("assumption")
            else ""
        )
        lines.append(f"  {r['code']}: {r['message']}{quote}")
    return "\n".join(lines)
