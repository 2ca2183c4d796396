"""A replayed game as text: one line a hand (agree, the first illegal action with its rule and
quote, or the score changes expected and computed with the yaku behind them), the game's end."""

from __future__ import annotations

from typing import Any

import click

from solver.core.replay import GameReport, HandReport, Summary
from solver.present.text import BAD, GOOD, display_width, pad

COLOURS = {"agree": GOOD, "mismatch": BAD, "illegal": BAD, "malformed": BAD}


def signed(values: list[int] | None) -> str:
    return " ".join(f"{v:+d}" if v else "0" for v in values) if values is not None else "—"


def game_header(report: GameReport) -> str:
    where = report.path + (f" (game {report.game})" if report.game > 1 else "")
    if report.error is not None:
        return f"{where}: " + click.style("malformed", fg=BAD) + f" — {report.error['message']}"
    counts: dict[str, int] = {}
    for hand in report.hands:
        counts[hand.status] = counts.get(hand.status, 0) + 1
    parts = ", ".join(f"{n} {status}" for status, n in counts.items())
    players = " ".join(f"{k}:{name}" for k, name in enumerate(report.players))
    return (
        f"{where}: "
        + click.style(report.status, fg=COLOURS.get(report.status))
        + f" — {len(report.hands)} hands ({parts}); {report.format}, -r {report.ruleset}; players {players}"
    )


def hand_lines(hand: HandReport) -> list[str]:
    status = click.style(f"{hand.status:8}", fg=COLOURS.get(hand.status))
    said = f"  {hand.result['text']}" if hand.result.get("text") else ""
    lines = [f"  {pad(hand.round, 12)} {status} [{signed(hand.deltas)}]{said}"]
    if hand.illegal is not None:
        bad = hand.illegal
        seat = "" if bad["seat"] is None else f", player {bad['seat']}"
        record = f" (record: {bad['record']})" if bad.get("record") else ""
        lines.append(f"      turn {bad['turn']}{seat}: {bad['action']}{record}")
        for reason in bad["reasons"]:
            lines.append(f"      ✗ {reason['message']} [{reason['code']}]" + _quote(reason.get("source")))
    for miss in hand.mismatches:
        lines.append(f"      {miss['what']}: expected {_value(miss['expected'])}, computed {_value(miss['computed'])}")
    if hand.status == "mismatch":
        for win in hand.result.get("wins", []):
            yaku = ", ".join(f"{y['name']} {y['han']}" for y in win["yaku"])
            lines.append(
                f"      melds: seat {win['seat']} ({win['wind']}) {yaku}; {win['han']} han {win['fu']} fu"
                + (f" {win['limit']}" if win.get("limit") else "")
                + f", {win['points']} points"
            )
            if win.get("record_yaku") is not None:
                listed = ", ".join(f"{y['name']} {y['han']}" for y in win["record_yaku"])
                recorded = win.get("record") or {}
                lines.append(f"      record: {listed}; {recorded.get('fu')} fu, {recorded.get('points')} points")
    return lines


def game_lines(report: GameReport, every_hand: bool) -> list[str]:
    lines = [game_header(report)]
    for hand in report.hands:
        if every_hand or hand.status != "agree":
            lines += hand_lines(hand)
    for problem in report.problems:
        after = f" after hand {problem['hand']}" if problem.get("hand") else ""
        lines.append(
            click.style(f"  {problem['what']}{after}", fg=BAD)
            + f": expected {_value(problem['expected'])}, computed {_value(problem['computed'])}"
        )
    if every_hand and report.final:
        final = report.final
        lines.append(
            f"  final: scores {' '.join(map(str, final['scores']))}; points "
            f"{' '.join(f'{p:+g}' for p in final['points'])}"
        )
    return lines


def summary_lines(summary: Summary) -> list[str]:
    """The summary of many games as text lines: the totals, then one row per tag (yaku), each
    column as wide as its widest cell in terminal columns."""
    totals = ["files", "games", "hands", "agree", "illegal", "mismatch", "malformed"]
    values = [str(getattr(summary, name)) for name in totals]
    widths = [max(len(a), len(b)) + 1 for a, b in zip(totals, values, strict=True)]
    lines = [
        " ".join(pad(name, w, right=True) for name, w in zip(totals, widths, strict=True)),
        " ".join(pad(value, w, right=True) for value, w in zip(values, widths, strict=True)),
    ]
    if summary.seconds > 0:
        lines.append(f"{summary.hands} hands in {summary.seconds:.2f} s: {summary.hands_per_second} hands/s")
    if summary.by_tag:
        rows = sorted(summary.by_tag.items(), key=lambda kv: (-kv[1]["hands"], kv[0]))
        first = max([24, *(display_width(tag) for tag, _ in rows)])
        counts = ["hands", "agree", "mismatch", "illegal"]
        lines.append("")
        lines.append(f"  {pad('by yaku', first)} " + " ".join(pad(c, max(7, len(c)), right=True) for c in counts))
        for tag, row in rows:
            cells = " ".join(pad(str(row[c]), max(7, len(c)), right=True) for c in counts)
            lines.append(f"  {pad(tag, first)} {cells}")
    return lines


def _quote(source: dict | None) -> str:
    if not source:
        return ""
    if source.get("quote"):
        return f"\n        「{source['quote']}」"
    if source.get("assumption"):
        return f"\n        (assumption {source['assumption']})"
    return ""


def _value(value: Any) -> str:
    if isinstance(value, list) and all(isinstance(v, int) for v in value):
        return f"[{signed(value)}]"
    return str(value)
