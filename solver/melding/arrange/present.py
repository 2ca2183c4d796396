"""A rearranging turn as JSON and as text: the cards placed and the whole table after the turn.

The text calls the cards, the hand and the melds what the game calls them (:class:`Nouns`: a game
of tiles on a rack says so); the JSON is the same for every game (docs/json-output.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solver.core.notation import Notation
from solver.core.ruleset import Ruleset
from solver.core.source import source_json
from solver.melding.arrange.laid import Arrangement, Cards, LaidMeld
from solver.present.text import bold, dim, head


@dataclass(frozen=True)
class Nouns:
    """What the text calls a card, the hand, a meld and the stock."""

    card: str = "card"
    hand: str = "hand"
    meld: str = "meld"
    stock: str = "stock"

    def cards(self, n: int) -> str:
        return f"{n} {self.card}{'s' * (n != 1)}"


def laid_json(laid: LaidMeld, notation: Notation, cards: Cards) -> dict[str, Any]:
    """A meld as ``melds solve`` shows a meld: kind, value, each card with what it stands for."""
    out = []
    for f, ident in zip(laid.faces, laid.stands_for, strict=True):
        wild = cards.stands_in(f, ident)
        out.append(
            {
                "card": notation.format(f),
                "as": notation.format_identity(ident),
                "role": cards.role(laid.kind, f, wild),
                "wild": wild,
            }
        )
    return {"kind": laid.kind.id, "kind_name": laid.kind.name, "points": laid.value, "direction": None, "cards": out}


def turn_json(
    answer: Arrangement, ruleset: Ruleset, notation: Notation, cards: Cards, stats: bool = True
) -> dict[str, Any]:
    fmt = notation.format
    rule = ruleset.initial_meld
    out: dict[str, Any] = {
        "solvable": answer.found,
        "question": answer.question,
        "placed": [fmt(f) for f in answer.placed],
        "table": [[fmt(f) for f in s.faces] for s in answer.table],
        "kept": [fmt(f) for f in answer.kept],
        "melds": [laid_json(s, notation, cards) for s in answer.new_melds],
        "layoffs": [],
        "discard": None,
        "score": {"tiles_placed": len(answer.placed), "value_placed": answer.value_placed},
        "initial_meld": (
            {"needed": rule.points, "value": answer.initial_value, "source": source_json(rule.source)}
            if answer.initial and rule is not None
            else None
        ),
        "ruleset": ruleset.id,
    }
    if answer.found is None:
        out["undecided"] = True
        out["bounds"] = bounds_json(answer)
    if stats:
        out["stats"] = {"seconds": answer.seconds, "sat_calls": answer.sat_calls, "candidates": answer.candidates}
    return out


def bounds_json(answer: Arrangement) -> dict[str, Any] | None:
    """What an undecided best turn knows of the optimum: hand cards and value placed, each
    ``{"at_least", "at_most"}`` (value null until the number of cards is settled); the answer's
    ``placed`` and ``table`` are the best arrangement found so far."""
    bounds = answer.bounds
    if bounds is None:
        return None
    value = None if bounds.value is None else {"at_least": bounds.value[0], "at_most": bounds.value[1]}
    return {"tiles_placed": {"at_least": bounds.cards[0], "at_most": bounds.cards[1]}, "value_placed": value}


def _undecided_lines(answer: Arrangement, nouns: Nouns, fmt: Any) -> list[str]:
    lines = [head("undecided", None) + ": the time ran out before an answer (raise --max-seconds)"]
    bounds = answer.bounds
    if bounds is None:
        return lines
    low, high = bounds.cards
    known = f"at least {nouns.cards(low)} placed, at most {high}" if low < high else f"{nouns.cards(low)} placed"
    if bounds.value is not None:
        known += f", value at least {bounds.value[0]}, at most {bounds.value[1]}"
    lines.append(dim(f"known so far: {known}"))
    if answer.placed:
        lines.append(f"the best found: places {' '.join(fmt(f) for f in answer.placed)} (value {answer.value_placed})")
    return lines


def turn_text(
    answer: Arrangement, ruleset: Ruleset, notation: Notation, cards: Cards, nouns: Nouns, stats: bool = False
) -> str:
    fmt = notation.format
    if answer.found is None:
        lines = _undecided_lines(answer, nouns, fmt)
        if answer.bounds is None:
            return lines[0]
    elif answer.question == "go-out":
        lines = [head("goes out", True) if answer.found else head("cannot go out", False)]
    elif answer.placed:
        out = ", and goes out" if answer.found else ""
        lines = [
            head(f"places {nouns.cards(len(answer.placed))}", True)
            + f": {' '.join(fmt(f) for f in answer.placed)} (value {answer.value_placed}){out}"
        ]
    else:
        lines = [head("no placement", False) + f": draw a {nouns.card}"]
    rule = ruleset.initial_meld
    if answer.initial and rule is not None:
        reached = (
            f"the new {nouns.meld}s are worth {answer.initial_value}"
            if answer.placed
            else f"no {nouns.meld}s of the {nouns.hand} reach it"
        )
        lines.append(dim(f"initial meld: {rule.points} points needed from the {nouns.hand} alone; {reached}"))
    if answer.placed:
        lines.append(bold("table after the turn:"))
        for s in answer.table:
            shown = " ".join(
                f"{fmt(f)}={notation.format_identity(i)}" if cards.stands_in(f, i) else fmt(f)
                for f, i in zip(s.faces, s.stands_for, strict=True)
            )
            lines.append(f"  [{shown}]  {s.kind.name} ({s.value})")
    if answer.kept:
        lines.append(f"kept: {' '.join(fmt(f) for f in answer.kept)}")
    if stats:
        lines.append(
            dim(f"{answer.seconds:.3f} s, {answer.sat_calls} SAT calls, {answer.candidates} candidate {nouns.meld}s")
        )
    return "\n".join(lines)


def mismatches(expect: dict[str, Any], answer: Arrangement) -> list[str]:
    """Where an answer differs from a puzzle's ``expect``: ``solvable``, ``placed`` (how many hand
    cards the turn places) and ``score`` (``tiles_placed``, ``value_placed``)."""
    got: dict[str, Any] = {
        "solvable": answer.found,
        "placed": len(answer.placed),
        "score": {"tiles_placed": len(answer.placed), "value_placed": answer.value_placed},
    }
    out = []
    for key, want in expect.items():
        if key not in got:
            out.append(f"{key}: a puzzle of a turn that rearranges the table expects solvable, placed or score")
        elif key == "score":
            out += [
                f"score.{k}: expected {v}, got {got['score'].get(k)}"
                for k, v in want.items()
                if got["score"].get(k) != v
            ]
        elif got[key] != want:
            out.append(f"{key}: expected {want}, got {got[key]}")
    return out
