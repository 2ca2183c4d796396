"""Ways to go out other than "every card melded": routes and requirements counted in melds.

A *route* is a way to go out: melds of some kinds only, either every card but the discard or a
number of melds (the rest may stay in hand), perhaps with a first requirement (so many melds of
some kinds). A *requirement* asks a hand to show so many melds of some kinds (to earn a right,
such as seeing a chosen card). The turn solver (:mod:`solver.melding.turn.solver`) counts both in its
model; the game that has them reads them from its ruleset sections.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.core.reader import RuleReader
from solver.core.source import Source


@dataclass(frozen=True)
class GoOutRoute:
    """A way to go out: melds of these kinds; all cards but the discard melded, or a number of
    melds (the rest may stay in hand); a first requirement (count of some kinds) to meet."""

    id: str
    name: str
    kinds: tuple[str, ...]
    all_cards: bool
    melds: int | None
    first_kinds: frozenset[str] | None
    first_count: int
    source: Source | None
    first_source: Source | None


@dataclass(frozen=True)
class Requirement:
    """Show ``count`` melds of these kinds (melds already shown count)."""

    kinds: frozenset[str]
    count: int
    source: Source | None


def read_routes(reader: RuleReader, raw: list) -> tuple[GoOutRoute, ...]:
    out = []
    for i, r in enumerate(raw):
        reader.check_ids(r["kinds"], reader.kind_ids, "meld kind", f"going_out[{i}].kinds")
        first = r.get("first")
        if first:
            reader.check_ids(first["kinds"], reader.kind_ids, "meld kind", f"going_out[{i}].first.kinds")
        out.append(
            GoOutRoute(
                r["id"],
                r.get("name", r["id"]),
                tuple(r["kinds"]),
                bool(r.get("all_cards", True)),
                r.get("melds"),
                frozenset(first["kinds"]) if first else None,
                first["count"] if first else 0,
                reader.source(r),
                reader.source({"source": r["first_source"]}) if "first_source" in r else None,
            )
        )
    return tuple(out)
