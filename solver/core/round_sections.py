"""The ``round_scoring:`` section read: how a finished round is settled, and its bonuses (``one_go``;
method knock's ``gin``, ``big_gin`` and ``undercut``)."""

from __future__ import annotations

from typing import Any

from solver.core.reader import RuleReader
from solver.core.rules import Bonus, RoundScoring


def read_round_scoring(reader: RuleReader, raw: list[Any]) -> tuple[RoundScoring, ...]:
    out: list[RoundScoring] = []
    for i, r in enumerate(raw):
        path = f"round_scoring[{i}]"
        bonuses = {key: read_bonuses(reader, r.get(key, []), f"{path}.{key}") for key in KNOCK_BONUSES}
        if r["method"] != "knock":
            for key in KNOCK_BONUSES:
                if key in r:
                    reader.fail(r, key, f"{key} is a bonus of method knock, not {r['method']}", f"{path}.{key}")
        elif problem := knock_unsaid(r):
            reader.fail(r, problem[0], problem[1], f"{path}.{problem[0]}")
        elif (reader.data.get("objective") or [{}])[0].get("minimize") != "hand_points":
            reader.fail(
                r,
                "method",
                "a knock counts each hand's least deadwood: the objective must minimize hand_points first",
                path,
            )
        out.append(
            RoundScoring(
                r["id"],
                r["name"],
                r["method"],
                read_bonuses(reader, r.get("one_go", []), f"{path}.one_go"),
                reader.condition(r, path),
                reader.source(r),
                reader.source(r.get("counts")),
                **bonuses,
            )
        )
    return tuple(out)


KNOCK_BONUSES = ("gin", "big_gin", "undercut")


def knock_unsaid(raw: dict[str, Any]) -> tuple[str, str] | None:
    """(key, message) for what method knock would not count: a one-go bonus (a knock settles
    every hand alike)."""
    if raw.get("one_go"):
        return "one_go", "method knock has no one-go bonus: its bonuses are gin, big_gin and undercut"
    return None


def read_bonuses(reader: RuleReader, raw: list[Any], path: str) -> tuple[Bonus, ...]:
    """Bonus entries (the first whose ``if`` holds applies): ``double``, or ``add`` a number (an
    option's value)."""
    return tuple(
        Bonus(
            bool(b.get("double")),
            reader.option_value(b.get("add"), 0),
            reader.condition(b, f"{path}[{j}]"),
            reader.source(b),
        )
        for j, b in enumerate(raw)
    )
