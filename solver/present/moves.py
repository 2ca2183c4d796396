"""Judgements of actions as text: legal or not, each reason with its quote, the state after."""

from __future__ import annotations

import click

from solver.melding.moves import Judgement


def state_text(state) -> str:
    lines = [f"  turn: {state.turn} ({state.step}); stock {state.stock}; discards "
             f"{' '.join(state.discards) or '—'}"]
    for p in state.players:
        hand = state.hands[p]
        shown = f"{hand} cards (hidden)" if isinstance(hand, int) else (hand or "—")
        flags = ", ".join(k for k, v in state.flags.get(p, {}).items() if v is True)
        lines.append(f"  {p}: {shown}" + (f"  [{flags}]" if flags else ""))
    for n, t in enumerate(state.table, 1):
        lines.append(f"  table {n} ({t.owner}): {t.cards}")
    if getattr(state, "loose", ""):
        lines.append(f"  loose: {state.loose}")
    return "\n".join(lines)


def judgement_text(j: Judgement) -> str:
    if j.legal:
        head = click.style(f"legal: {j.action}", fg="green", bold=True)
        return f"{head}\nafter it:\n{state_text(j.state)}"
    lines = [click.style(f"illegal: {j.action}", fg="red", bold=True)]
    for r in j.reasons:
        src = r.get("source") or {}
        quote = f"\n    「{src['quote']}」 — {src['doc']}" if src.get("quote") else \
            f"\n    [assumption {src['assumption']}]" if src.get("assumption") else ""
        lines.append(f"  {r['code']}: {r['message']}{quote}")
    return "\n".join(lines)
