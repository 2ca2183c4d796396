"""A ruleset's named figures (``figures:``): values `melds solve` reports under the game's own
words, beside its answer — a measure of the turn shown (``{measure: hand_points}``: Gin Rummy's
"deadwood") or whether the hand goes out by a route (``{route: knock}``: "can_knock").

A measure is the turn's value in the answer: the objective's best turn, or the way out found.
A route's figure needs every route asked, not only the first that goes out
(:func:`~solver.melding.turn.solve.by_routes` with ``every_route``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from solver.core.reader import RuleReader
from solver.core.ruleset import Ruleset
from solver.core.source import Source
from solver.melding.meld.points import hand_points
from solver.melding.turn.problem import Answer
from solver.melding.turn.routes import GoOutRoute

MEASURES = ("hand_points", "meld_points", "melds")

# The keys melds' own answer to `solve` may hold (docs/json-output.md): a figure takes none of them.
ANSWER_KEYS = frozenset(
    {
        "solvable",
        "melds",
        "discard",
        "score",
        "stats",
        "question",
        "layoffs",
        "kept",
        "ruleset",
        "steps",
        "phase_after",
        "phase_needed",
        "undecided",
        "partial",
        "bound",
        "route",
        "why",
        "solutions",
        "solutions_capped",
        "solutions_at_least",
        "puzzle",
        "title",
        "matches",
        "mismatches",
        "error",
        "line",
        "figures",
    }
)


@dataclass(frozen=True)
class Figure:
    """One named value: a measure of the turn shown, or whether a route goes out."""

    name: str
    measure: str | None
    route: str | None
    source: Source | None

    def value(self, rs: Ruleset, answer: Answer) -> Any:
        if answer.solvable is None and not answer.partial:
            return None  # undecided, with no turn to measure
        if self.route is not None:
            return answer.routes_open.get(self.route)
        if self.measure in answer.score:
            return answer.score[self.measure]
        if self.measure == "hand_points":
            return hand_points(rs, answer.kept)
        if self.measure == "meld_points":
            return sum(p.points for p in answer.plays)
        return len(answer.plays)


def read_figures(reader: RuleReader, raw: Mapping[str, Any], routes: tuple[GoOutRoute, ...]) -> tuple[Figure, ...]:
    """``figures:``, each name free (no key of melds' own answer) and naming a measure or a route
    of the ruleset (one the options enable)."""
    known = [r.id for r in routes]
    out = []
    for name, spec in raw.items():
        path = f"figures.{name}"
        if name in ANSWER_KEYS:
            reader.fail(raw, name, f"{name!r} is a key of melds' own answer: give the figure another name", path)
        route = spec.get("route")
        if route is not None and route not in known:
            reader.fail(
                spec, "route", f"no route {route!r} under these options (routes: {', '.join(known) or 'none'})", path
            )
        out.append(Figure(name, spec.get("measure"), route, reader.source(spec)))
    return tuple(out)


def figure_values(figures: tuple[Figure, ...], rs: Ruleset, answer: Answer) -> dict[str, Any]:
    return {f.name: f.value(rs, answer) for f in figures}


def figures_text(values: Mapping[str, Any]) -> list[str]:
    """The figures as lines: "deadwood: 5", "can knock: yes"."""
    shown = {True: "yes", False: "no", None: "undecided"}
    return [
        f"{name.replace('_', ' ')}: {shown[value] if isinstance(value, bool) or value is None else value}"
        for name, value in values.items()
    ]
