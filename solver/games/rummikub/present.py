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
    return {"kind": tile_set.kind.id, "kind_name": tile_set.kind.name, "points": tile_set.value, "direction": None,
            "cards": [{"card": notation.format(f), "as": notation.format_identity(ident),
                       "role": "joker" if f.rank is None else "natural", "wild": f.rank is None}
                      for f, ident in zip(tile_set.faces, tile_set.stands_for)]}


def turn_json(answer: Arrangement, rules: RummikubRules, notation: Notation, ruleset_id: str,
              stats: bool = True) -> dict[str, Any]:
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
        "initial_meld": ({"needed": rules.initial_meld, "value": answer.initial_value,
                          "source": source_json(rules.sources.get("initial_meld"))} if answer.initial else None),
        "ruleset": ruleset_id,
    }
    if answer.found is None:
        out["undecided"] = True
    if stats:
        out["stats"] = {"seconds": answer.seconds, "sat_calls": answer.sat_calls, "candidates": answer.candidates}
    return out


def turn_text(answer: Arrangement, rules: RummikubRules, notation: Notation, stats: bool = False) -> str:
    fmt = notation.format
    if answer.found is None:
        return head("undecided", None) + ": the time ran out before an answer (raise --max-seconds)"
    lines = []
    if answer.question == "go-out":
        lines.append(head("goes out", True) if answer.found else head("cannot go out", False))
    elif answer.placed:
        out = ", and goes out" if answer.found else ""
        lines.append(head(f"places {len(answer.placed)} tile{'s' * (len(answer.placed) != 1)}", True)
                     + f": {' '.join(fmt(f) for f in answer.placed)} (value {answer.value_placed}){out}")
    else:
        lines.append(head("no placement", False) + ": draw a tile")
    if answer.initial:
        reached = f"the new sets are worth {answer.initial_value}" if answer.placed else "no sets of the rack reach it"
        lines.append(dim(f"initial meld: {rules.initial_meld} points needed from the rack alone; {reached}"))
    if answer.placed:
        lines.append(bold("table after the turn:"))
        for s in answer.table:
            tiles = " ".join(fmt(f) if f.rank is not None else f"{fmt(f)}={notation.format_identity(i)}"
                             for f, i in zip(s.faces, s.stands_for))
            lines.append(f"  [{tiles}]  {s.kind.name} ({s.value})")
    if answer.kept:
        lines.append(f"kept: {' '.join(fmt(f) for f in answer.kept)}")
    if stats:
        lines.append(dim(f"{answer.seconds:.3f} s, {answer.sat_calls} SAT calls, {answer.candidates} candidate sets"))
    return "\n".join(lines)
