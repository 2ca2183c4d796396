"""A Rummikub turn as JSON and as text: the tiles placed and the whole table after the turn."""

from __future__ import annotations

from typing import Any

from solver.core.notation import Notation
from solver.core.source import source_json
from solver.games.rummikub.arrange import Arrangement, TileSet
from solver.games.rummikub.rules import RummikubRules
from solver.present.text import bold, dim, head


def set_json(tile_set: TileSet, notation: Notation) -> dict[str, Any]:
    """A set as ``melds solve`` shows a meld: kind, value, each tile with what it stands for."""
    return {
        "kind": tile_set.kind.id,
        "kind_name": tile_set.kind.name,
        "points": tile_set.value,
        "direction": None,
        "cards": [
            {
                "card": notation.format(f),
                "as": notation.format_identity(ident),
                "role": "joker" if f.rank is None else "natural",
                "wild": f.rank is None,
            }
            for f, ident in zip(tile_set.faces, tile_set.stands_for, strict=True)
        ],
    }


def turn_json(
    answer: Arrangement, rules: RummikubRules, notation: Notation, ruleset_id: str, stats: bool = True
) -> dict[str, Any]:
    fmt = notation.format
    out: dict[str, Any] = {
        "solvable": answer.found,
        "question": answer.question,
        "placed": [fmt(f) for f in answer.placed],
        "table": [[fmt(f) for f in s.faces] for s in answer.table],
        "kept": [fmt(f) for f in answer.kept],
        "melds": [set_json(s, notation) for s in answer.new_sets],
        "layoffs": [],
        "discard": None,
        "score": {"tiles_placed": len(answer.placed), "value_placed": answer.value_placed},
        "initial_meld": (
            {
                "needed": rules.initial_meld,
                "value": answer.initial_value,
                "source": source_json(rules.sources.get("initial_meld")),
            }
            if answer.initial
            else None
        ),
        "ruleset": ruleset_id,
    }
    if answer.found is None:
        out["undecided"] = True
        out["bounds"] = bounds_json(answer)
    if stats:
        out["stats"] = {"seconds": answer.seconds, "sat_calls": answer.sat_calls, "candidates": answer.candidates}
    return out


def bounds_json(answer: Arrangement) -> dict[str, Any] | None:
    """What an undecided best turn knows of the optimum: rack tiles and value placed, each
    ``{"at_least", "at_most"}`` (value null until the number of tiles is settled); the answer's
    ``placed`` and ``table`` are the best arrangement found so far."""
    bounds = answer.bounds
    if bounds is None:
        return None
    value = None if bounds.value is None else {"at_least": bounds.value[0], "at_most": bounds.value[1]}
    return {"tiles_placed": {"at_least": bounds.tiles[0], "at_most": bounds.tiles[1]}, "value_placed": value}


def turn_text(answer: Arrangement, rules: RummikubRules, notation: Notation, stats: bool = False) -> str:
    fmt = notation.format
    lines = []
    if answer.found is None:
        lines.append(head("undecided", None) + ": the time ran out before an answer (raise --max-seconds)")
        bounds = answer.bounds
        if bounds is None:
            return lines[0]
        low, high = bounds.tiles
        known = (
            f"at least {low} tile{'s' * (low != 1)} placed, at most {high}"
            if low < high
            else f"{low} tile{'s' * (low != 1)} placed"
        )
        if bounds.value is not None:
            known += f", value at least {bounds.value[0]}, at most {bounds.value[1]}"
        lines.append(dim(f"known so far: {known}"))
        if answer.placed:
            lines.append(
                f"the best found: places {' '.join(fmt(f) for f in answer.placed)} (value {answer.value_placed})"
            )
    elif answer.question == "go-out":
        lines.append(head("goes out", True) if answer.found else head("cannot go out", False))
    elif answer.placed:
        out = ", and goes out" if answer.found else ""
        lines.append(
            head(f"places {len(answer.placed)} tile{'s' * (len(answer.placed) != 1)}", True)
            + f": {' '.join(fmt(f) for f in answer.placed)} (value {answer.value_placed}){out}"
        )
    else:
        lines.append(head("no placement", False) + ": draw a tile")
    if answer.initial:
        reached = f"the new sets are worth {answer.initial_value}" if answer.placed else "no sets of the rack reach it"
        lines.append(dim(f"initial meld: {rules.initial_meld} points needed from the rack alone; {reached}"))
    if answer.placed:
        lines.append(bold("table after the turn:"))
        for s in answer.table:
            tiles = " ".join(
                fmt(f) if f.rank is not None else f"{fmt(f)}={notation.format_identity(i)}"
                for f, i in zip(s.faces, s.stands_for, strict=True)
            )
            lines.append(f"  [{tiles}]  {s.kind.name} ({s.value})")
    if answer.kept:
        lines.append(f"kept: {' '.join(fmt(f) for f in answer.kept)}")
    if stats:
        lines.append(dim(f"{answer.seconds:.3f} s, {answer.sat_calls} SAT calls, {answer.candidates} candidate sets"))
    return "\n".join(lines)
