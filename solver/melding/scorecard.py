"""Scoring cards: a meld's points (出来役加点), a hand left at the end (deadwood, 罰点), a finished
round under each of the ruleset's scoring systems — as JSON and as text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import click

from solver.core.deck import Face
from solver.core.errors import ExitCode
from solver.core.rules import Bonus
from solver.core.ruleset import Ruleset
from solver.melding.meld.checker import MeldChecker
from solver.melding.meld.points import hand_breakdown, hand_points, meld_breakdown, meld_points, verified
from solver.melding.present import verdict_json
from solver.present.text import BAD, GOOD, bold, head

HAND_METHODS = ("losers-pay-hand-points", "record-hand-points")


def one_go_bonus(ruleset: Ruleset) -> Bonus | None:
    """The bonus for going out in one go that a hand left at the end pays under: the one of the
    first scoring system in force that charges hand points."""
    for system in ruleset.scoring_systems():
        if system.method in HAND_METHODS:
            return ruleset.one_go_bonus(system)
    return None


def penalty(
    ruleset: Ruleset,
    checker: MeldChecker,
    faces: Sequence[Face],
    one_go: bool,
    params: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Card points of a hand left at the end; ``one_go``: the winner went out in one go, and the
    ruleset's bonus for it applies (×2, or +10 where a variant adds instead); ``params``: the
    chosen cards the query names."""
    fmt = checker.notation
    checker.notation.check_copies(faces)
    points = hand_points(ruleset, faces, params)
    bonus = one_go_bonus(ruleset) if one_go else None
    if bonus is not None:
        points = points * 2 if bonus.double else points + bonus.add
    return {
        "points": points,
        "breakdown": hand_breakdown(ruleset, faces, fmt, params),
        "doubled": bool(bonus and bonus.double),
        "cards": [fmt.format(f) for f in faces],
        "mode": "penalty",
        "ruleset": ruleset.id,
        "one_go_bonus": _bonus_json(bonus),
        "one_go": one_go,
    }


def meld(
    checker: MeldChecker,
    faces: Sequence[Face],
    ordered: bool,
    phase: str | None,
    params: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A meld's points: as laid out (``ordered``), else its best reading (``params``: the chosen
    cards the query names)."""
    fmt = checker.notation
    if ordered:
        verdict = checker.check(faces, phase=phase, ordered=True, params=params)
        reading = verdict.reading
        points = meld_points(verified(reading)) if verdict.legal else None
    else:
        verdict, points, reading = checker.best_reading(faces, phase=phase, params=params)
        if not verdict.legal:
            verdict = checker.check(faces, phase=phase, params=params)  # with the reasons
            points = None
    shown = verified(reading) if verdict.legal else None
    out = {
        "points": points,
        "breakdown": meld_breakdown(shown, fmt) if shown is not None else [],
        "mode": "meld",
        "legal": verdict.legal,
        "kind": shown.kind.id if shown is not None else None,
        "cards": verdict_json(verdict, checker)["cards"] if verdict.legal else [fmt.format(f) for f in faces],
        "reasons": [r.to_json() for r in verdict.reasons],
        "ruleset": checker.ruleset.id,
    }
    if shown is not None:
        out["cards"] = [
            {"card": fmt.format(p.face), "as": fmt.format_identity(p.identity), "role": p.role, "wild": p.wild}
            for p in shown.placements
        ]
    return out


def code(result: dict) -> ExitCode:
    return ExitCode.YES if result["mode"] == "penalty" or result["legal"] else ExitCode.NO


def text(result: dict) -> str:
    if result["mode"] == "penalty":
        bonus = result.get("one_go_bonus")
        note = (
            "" if not bonus else " (doubled)" if bonus.get("double") else f" (+{bonus['add']} for going out in one go)"
        )
        if result.get("one_go") and not bonus:
            note = " (no bonus for going out in one go under these options)"
        lines = [f"hand points: {result['points']}{note}"]
        for part in result["breakdown"]:
            lines.append(f"  {part['group']:8} {' '.join(part['cards'])}: {part['points']}")
        return "\n".join(lines)
    if not result["legal"]:
        lines = [head("not a legal meld", False) + ": no points"]
        lines += [f"  {r['code']}: {r['message']}" for r in result["reasons"]]
        return "\n".join(lines)
    cards = " ".join(c["card"] + (f"={c['as']}" if c["wild"] else "") for c in result["cards"])
    lines = [f"{result['points']} point{'s' * (result['points'] != 1)}: {cards} ({result['kind']})"]
    for part in result["breakdown"]:
        note = f" — {part['note']}" if part.get("note") else ""
        lines.append(f"  {' '.join(part['cards'])}: {part['counted']} counted, {part['points']} pt{note}")
    return "\n".join(lines)


def payments_lines(payments: dict, problems: list | None, what: str) -> list[str]:
    """Points received per player, then whether they match the puzzle's expectation."""
    lines = [f"  {name:6} {value:+d}" for name, value in payments.items()]
    if problems is not None:
        lines.append(
            click.style(f"matches the expected {what}", fg=GOOD)
            if not problems
            else click.style("differs: " + "; ".join(problems), fg=BAD)
        )
    return lines


def round_text(title: str, winner: str, one_go: bool, systems: list[dict], problems: list | None) -> str:
    lines = [bold(title) + f" — winner {winner}" + (", in one go" if one_go else "")]
    for system in systems:
        lines.append(f"{system['name']} ({system['id']}):")
        lines += [f"  {player:6} {value:+d}" for player, value in system["payments"].items()]
        lines += _knock_lines(winner, system["details"]) if system.get("method") == "knock" else []
        lines += _each_player_lines(system["details"]) if system.get("method") == "each-player" else []
    return "\n".join(lines + payments_lines({}, problems, "payments"))


def _knock_lines(knocker: str, details: dict) -> list[str]:
    """How a knock was counted: the knocker's outcome and deadwood, each other hand's melds,
    lay-offs and deadwood."""
    mine = details[knocker]
    kept = f" ({' '.join(mine['kept'])})" if mine["kept"] else ""
    did = {"knock": "knocks", "gin": "goes gin", "big-gin": "goes big gin"}[mine["outcome"]]
    lines = [f"  {knocker} {did} with deadwood {mine['deadwood']}{kept}"]
    for player, theirs in details.items():
        if player == knocker:
            continue
        parts = [" ".join(m) for m in theirs["melds"]]
        laid = [f"{' '.join(x['added'])} on meld {x['table']}" for x in theirs["layoffs"]]
        line = f"  {player}: melds {', '.join(parts) or 'none'}"
        line += f"; lays off {', '.join(laid)}" if laid else ""
        line += f"; deadwood {theirs['deadwood']}" + (f" ({' '.join(theirs['kept'])})" if theirs["kept"] else "")
        lines.append(line + (" — undercut" if theirs["undercut"] else ""))
    return lines


def _each_player_lines(details: dict) -> list[str]:
    """What each player's score counts: the cards they melded or laid off, meld by meld, and the
    cards left in hand."""
    lines = []
    for player, theirs in details.items():
        laid = [f"{' '.join(m['cards'])} on meld {m['meld']} ({m['points']})" for m in theirs["melded"]]
        line = f"  {player}: melded {theirs['melded_points']}" + (f": {', '.join(laid)}" if laid else "")
        line += f"; in hand {theirs['hand_points']}" + (f" ({' '.join(theirs['hand'])})" if theirs["hand"] else "")
        bonuses = [
            f"{b['points']:+} for {b['for']}" + (f" ×{b['count']}" if b["count"] > 1 else "") for b in theirs["bonuses"]
        ]
        lines.append(line + (f"; bonuses {', '.join(bonuses)}" if bonuses else ""))
    return lines


def _bonus_json(bonus: Bonus | None) -> dict | None:
    if bonus is None:
        return None
    return {"double": True} if bonus.double else {"add": bonus.add}
