"""Presenting meld verdicts and turns: the stable JSON shapes and the readable, coloured text.

JSON shapes are contracts (documented in docs/json-output.md); keys are only ever added. Text
uses the documents' own card notation.
"""

from __future__ import annotations

from typing import Any

import click

from solver.core.idmemo import IdentityMemo
from solver.core.ruleset import Ruleset
from solver.melding.figures import figures_text
from solver.melding.meld.checker import MeldChecker, Verdict
from solver.melding.turn.problem import Answer, Problem
from solver.melding.turn.routes import requirement_json
from solver.present.text import coloured, display_width, head, quote_line


def _card_json(checker: MeldChecker, placement, could_be=None) -> dict:
    fmt = checker.notation
    out = {
        "card": fmt.format(placement.face),
        "as": fmt.format_identity(placement.identity),
        "role": placement.role,
        "wild": placement.wild,
    }
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
        cards = [_card_json(checker, p, verdict.could_be.get(i)) for i, p in enumerate(reading.placements)]
    else:  # no reading: each card stands for itself
        cards = [{"card": fmt.format(f), "as": fmt.format(f), "role": None, "wild": None} for f in verdict.faces]
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
    if reading is not None and reading.kind.going_out_only:
        out["going_out_only"] = True
    if len(verdict.readings) > 1 or (not verdict.legal and verdict.readings):
        out["readings"] = [
            {
                "kind": r.kind.id,
                "family": r.kind.family,
                "direction": r.direction,
                "cards": [_card_json(checker, p) for p in r.placements],
            }
            for r in verdict.readings
        ]
    return out


def style_card(checker: MeldChecker, text: str, face_or_suit) -> str:
    return coloured(text, checker.notation.color_of(face_or_suit))


def verdict_text(verdict: Verdict, checker: MeldChecker) -> str:
    fmt = checker.notation
    phases = {p.id: p.name for p in checker.ruleset.phases}
    lines = []
    reading = verdict.reading
    if verdict.legal and reading is not None:  # (a legal verdict has its reading)
        first = f"{head('legal', True)}: {reading.kind.label}"
        if reading.direction:
            first += f", {reading.direction}"
        first += f" of {len(reading.placements)} cards"
        if verdict.phase_required:
            first += f" (only in {phases.get(verdict.phase_required, verdict.phase_required)})"
        if reading.kind.going_out_only:
            first += " (only in a turn that goes out)"
        lines.append(first)
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
        lines.append(f"{head('illegal', False)}: {shown}")
        for reason in verdict.reasons:
            lines.append(f"  {click.style(reason.code, fg='red')}: {reason.message}")
            quote = quote_line(reason.source)
            if quote:
                lines.append(f"    {click.style(quote, dim=True)}")
    return "\n".join(lines)


# -- solve ------------------------------------------------------------------------------------


SPELLED_KEPT = 4096  # readings whose cards' values are kept (a batch shows the same melds again and again)
_SPELLED: IdentityMemo[list[tuple]] = IdentityMemo(SPELLED_KEPT)  # a reading's cards' values, by reading and notation


def _reading_cards(checker: MeldChecker, reading) -> list[dict]:
    """A reading's cards as the answer shows them: ``{"card", "as", "role", "wild"}`` each."""
    fmt = checker.notation

    def spell() -> list[tuple]:
        spelled, spell_identity = fmt.canonical, fmt.format_identity
        return [(spelled[p.face], spell_identity(p.identity), p.role, p.wild) for p in reading.placements]

    rows = _SPELLED.get((reading, fmt), None, spell)
    return [{"card": card, "as": shown, "role": role, "wild": wild} for card, shown, role, wild in rows]


def answer_json(answer: Answer, problem: Problem, checker: MeldChecker) -> dict[str, Any]:
    """``{"solvable", "melds", "discard", "score", "stats"}`` plus extra keys."""
    fmt = checker.notation
    melds = (
        [
            {
                "kind": p.reading.kind.id,
                "kind_name": p.reading.kind.name,
                "cards": _reading_cards(checker, p.reading),
                "points": p.points,
                "direction": p.reading.direction,
            }
            for p in answer.plays
            if p.table is None
        ]
        if answer.plays
        else []
    )
    layoffs = []
    for p in () if answer.steps else answer.plays:
        if p.table is None:  # a meld, or a lay-off that names no table meld
            continue
        table = problem.table[p.table]
        layoffs.append(
            {
                "table": p.table + 1,
                "owner": table.owner,
                "kind": p.reading.kind.id,
                "added": [fmt.format(f) for f in p.faces],
                "cards": _reading_cards(checker, p.reading),
                "points": p.points,
            }
        )
    out: dict[str, Any] = {
        "solvable": answer.solvable,
        "melds": melds,
        "discard": fmt.by_index[answer.discard.index] if answer.discard else None,
        "score": answer.score,
        "stats": {"seconds": round(answer.seconds, 4), "sat_calls": answer.sat_calls},
        "question": answer.question,
        "layoffs": layoffs,
        "kept": fmt.spell_all(answer.kept),
        "ruleset": checker.ruleset.id,
    }
    if answer.steps:
        out["steps"] = [_step_json(checker, problem, i, step) for i, step in enumerate(answer.steps, 1)]
    if answer.phase_after is not None or checker.ruleset.phases:
        out["phase_after"] = answer.phase_after
    if answer.phase_needed is not None:
        out["phase_needed"] = answer.phase_needed
    if answer.solvable is None:
        out["undecided"] = {"limit": answer.limit or "time"}
    if answer.partial:
        out["partial"] = True
        out["bound"] = answer.bound
    if answer.route is not None:
        out["route"] = answer.route
    if answer.search is not None:
        out["search"] = answer.search
    if answer.why is not None:
        why: dict[str, Any] = {}
        for key, value in answer.why.items():  # why_json for the rules; the cards spelled here
            why[key] = why_json(key, value, fmt) if key in _WHY_RULES else fmt.spell_all(value)
        out["why"] = why
    if answer.solutions is not None:
        out["solutions"] = answer.solutions
        out["solutions_capped"] = answer.solutions_capped
    elif answer.solutions_at_least is not None:
        out["solutions"] = None
        out["solutions_at_least"] = answer.solutions_at_least
    elif not answer.counted:
        out["solutions"] = None
    return out


def _step_json(checker: MeldChecker, problem, number: int, step) -> dict:
    fmt = checker.notation
    out = {
        "step": number,
        "action": step.action,
        "name": step.op.name if step.op else "メルド公開",
        "table": step.table + 1 if step.table is not None else None,
        "owner": problem.table[step.table].owner if step.table is not None else None,
        "played": [fmt.format(f) for f in step.played],
        "taken": [fmt.format(f) for f in step.taken],
        "meld": {
            "kind": step.reading.kind.id,
            "direction": step.reading.direction,
            "cards": _reading_cards(checker, step.reading),
        },
        "points": step.points,
    }
    if step.result is not None and any(step.result.buried):
        out["buried"] = {
            fmt.format(f): fmt.format(b)
            for f, b in zip(step.result.faces, step.result.buried, strict=True)
            if b is not None
        }
    return out


def _step_text(checker: MeldChecker, problem, number: int, step) -> str:
    fmt = checker.notation
    meld = _play_line(checker, step.reading, set(step.played))
    kind = step.reading.kind.label + (f", {step.reading.direction}" if step.reading.direction else "")
    if step.op is None:
        return f"  {number}. meld  {meld}   {kind}" + (f", {step.points} pt" if step.reading.kind.score else "")
    table = problem.table[step.table]
    played = " ".join(fmt.format(f) for f in step.played)
    taken = " and ".join(fmt.format(f) for f in step.taken)
    what = f"play {played}" + (f", take {taken}" if taken else "")
    gain = f" ({step.points:+d} pt)" if step.points else ""
    return (
        f"  {number}. {step.op.name} ({step.op.id}) on table meld {step.table + 1} "
        f"({table.owner}): {what} → {meld}{gain}"
    )


def _play_line(checker: MeldChecker, reading, faces_played=None) -> str:
    fmt = checker.notation
    parts = []
    for p in reading.placements:
        name = fmt.format(p.face)
        text = style_card(checker, name, p.face)
        if faces_played is not None and p.face not in faces_played:
            text = click.style(name, dim=True)
        if p.wild:
            text += f"={fmt.format_identity(p.identity)}"
        parts.append(text)
    return " ".join(parts)


def undecided_text(seconds: float, limit: str | None = None) -> str:
    if limit == "memory":
        return (
            f"{head('undecided', None)}: the memory ceiling was reached before an answer"
            f" ({seconds:.2f} s; raise --max-memory)"
        )
    if limit == "layouts":
        return (
            f"{head('undecided', None)}: a table meld reaches more layouts this turn than the search "
            f"follows ({seconds:.2f} s)"
        )
    return f"{head('undecided', None)}: no answer within the budget ({seconds:.2f} s)"


def bound_text(bound: dict) -> str:
    """What a budget-cut optimum proved: "at least 7 meld points (found), at most 9"; with no
    ``best_possible`` (a table turn whose search of forms ran out of its share of the time: the
    optimum over the forms found bounds nothing), that nothing better is ruled out."""
    what = bound["measure"].replace("_", " ")
    found, best = bound["found"], bound.get("best_possible")
    minimize = bound.get("sense") == "minimize"
    text = f"bound: {what} at most {found} (found)" if minimize else f"bound: at least {found} {what} (found)"
    if best is None:
        return f"{text}; no {'lower' if minimize else 'upper'} bound proved within the budget"
    return f"{text}, at least {best}" if minimize else f"{text}, at most {best}"


def _found_only(answer: Answer, ruleset: Ruleset) -> dict | None:
    """An unbounded turn's bound as :func:`bound_text` reads it: the first objective's value found."""
    goal = ruleset.objective[0] if ruleset.objective else None
    if goal is None or goal.measure not in answer.score:
        return None
    return {"measure": goal.measure, "sense": goal.sense, "found": answer.score[goal.measure]}


def answer_heading(answer: Answer) -> str:
    """The first line of a turn's answer: go out, or the best turn."""
    if answer.question == "best":
        return "best turn" + (" — goes out" if answer.solvable else "")
    if answer.solvable:
        return f"{head('yes', True)}: the hand can go out"
    return f"{head('no', False)}: the hand cannot go out; the best turn instead"


def _route_text(checker: MeldChecker, answer: Answer) -> str:
    """How a hand that goes out goes out, in a game of several ways (``going_out:``): " by NAME"."""
    routes = getattr(checker.ruleset.rules, "going_out", ())
    if not answer.solvable or answer.route is None or not routes:
        return ""
    name = next((r.name for r in routes if r.id == answer.route), None)
    return "" if name is None else f" by {name}" + (f" ({answer.route})" if name != answer.route else "")


def search_text(search: dict[str, Any]) -> str:
    """The bounds of a table turn's search, so that a "no" is read as what it is: none within them."""
    cards = search["cards_from_other_melds"]
    forms = f"{search['forms']:,} forms" if search["forms"] is not None else "its forms not all found"
    if search["forms"] is not None and not search["forms_complete"]:
        forms += ", not all found"
    limit = f", at most {search['layouts_per_meld']:,} layouts a meld" if search["layouts_per_meld"] else ""
    return (
        f"search: {forms}; table melds changed by single-card operations along shortest paths, at most "
        f"{cards} card{'s' if cards != 1 else ''} a meld from other melds{limit}: the answer holds within these bounds"
    )


def partition_text(answer: Answer, problem: Problem, checker: MeldChecker, stats: bool, figures: dict) -> str:
    """A partition's answer as text, its figures after it."""
    return "\n".join([answer_text(answer, problem, checker, stats), *figures_text(figures)])


def answer_text(
    answer: Answer, problem: Problem, checker: MeldChecker, stats: bool = False, heading: str | None = None
) -> str:
    """A turn's answer as text: the heading (a game asking its own question gives it), the steps
    or the melds, lay-offs, discard and cards kept, the score, why not, the ways to go out."""
    fmt = checker.notation
    if answer.solvable is None and not answer.partial:
        return undecided_text(answer.seconds, answer.limit)
    if answer.partial:
        lines = [undecided_text(answer.seconds, answer.limit) + "; the best turn found so far:"]
    else:
        lines = [heading or answer_heading(answer) + _route_text(checker, answer)]
    if answer.phase_needed is not None and answer.phase_needed != problem.phase:
        phases = {p.id: p.name for p in checker.ruleset.phases}
        lines.append(f"  (in {phases.get(answer.phase_needed, answer.phase_needed)}: its melds need that phase)")
    if answer.steps:
        for i, step in enumerate(answer.steps, 1):
            lines.append(_step_text(checker, problem, i, step))
    for p in [] if answer.steps else answer.melds:
        kind = p.reading.kind
        label = kind.label + (f", {p.reading.direction}" if p.reading.direction else "")
        lines.append(
            f"  meld     {_play_line(checker, p.reading)}   {label}"
            + (f", {p.points} pt" if kind.score is not None else "")
        )
    for p in [] if answer.steps else answer.layoffs:
        if p.table is None:  # (a lay-off names its table meld)
            continue
        table = problem.table[p.table]
        added = " ".join(fmt.format(f) for f in p.faces)
        lines.append(
            f"  lay off  {added} on table meld {p.table + 1} ({table.owner}) → "
            f"{_play_line(checker, p.reading, set(p.faces))}"
        )
    if answer.discard is not None:
        line = f"  discard  {style_card(checker, fmt.format(answer.discard), answer.discard)}"
        phases = {p.id: p.name for p in checker.ruleset.phases}
        if answer.phase_after in phases and answer.phase_after != problem.phase:
            line += f" — the field becomes {phases[answer.phase_after]}"
        lines.append(line)
    if answer.kept:
        lines.append(f"  keep     {' '.join(style_card(checker, fmt.format(f), f) for f in answer.kept)}")
    lines.append("score: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in answer.score.items()))
    if answer.partial:
        bound = answer.bound or _found_only(answer, checker.ruleset)
        lines.append(bound_text(bound) if bound else "bound: none proved within the budget")
    if answer.why:
        if answer.why.get("no_meld"):
            lines.append(f"why: these cards fit no legal meld: {fmt.format_many(answer.why['no_meld'])}")
        if answer.why.get("core"):
            lines.append(
                f"why: these cards cannot all be melded or discarded together: {fmt.format_many(answer.why['core'])}"
            )
        for rule in answer.why.get("first_meld", ()):
            lines.append(
                f"why: a first meld must {rule.describe()} from the hand alone; without that rule the hand would go out"
            )
            quote = quote_line(rule.source)
            if quote:
                lines.append(f"  {click.style(quote, dim=True)}")
        for route, requirement in answer.why.get("requirements", ()):
            lines.append(f"why: going out by {route.name} needs: {requirement.describe()}")
            quote = quote_line(requirement.source)
            if quote:
                lines.append(f"  {click.style(quote, dim=True)}")
    if answer.solutions is not None:
        more = "+" if answer.solutions_capped else ""
        lines.append(f"ways to go out: {answer.solutions}{more}")
    elif answer.solutions_at_least is not None:
        lines.append(f"ways to go out: at least {answer.solutions_at_least} (the count stopped there)")
    elif not answer.counted:
        lines.append("ways to go out: not counted for turns with table operations")
    if answer.search is not None:
        lines.append(search_text(answer.search))
    if stats:
        lines.append(click.style(f"({answer.seconds:.3f} s, {answer.sat_calls} SAT calls)", dim=True))
    return "\n".join(lines)


_WHY_RULES = ("requirements", "first_meld")  # the why's entries that are not cards


def why_json(key: str, value: list, fmt) -> list | dict:
    """One entry of an answer's ``why`` as JSON: cards, failed requirements, or the first meld's rule."""
    if key == "requirements":
        return [requirement_json(*failed) for failed in value]
    if key == "first_meld":
        rule = value[0]
        return {
            "points": rule.points,
            "counts": rule.counts,
            "melds": rule.melds,
            "source": rule.source.to_json() if rule.source else None,
        }
    return fmt.spell_all(value)
