"""``melds solve --distance`` and ``--discards`` for the rummy games: how many swaps (draw one
card, let one go) a hand is from going out, one target hand the swaps reach and its way out, and
what each discard leaves (:mod:`solver.melding.turn.distance`), with the copies of each card left
to draw: the deck's, less the hand's, the ``--visible`` cards' and the table's."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from solver.core.deck import Face
from solver.core.errors import ExitCode, MeldsError, TooManyCopies, Undecided
from solver.core.game import Request
from solver.core.gcpause import no_full_collections
from solver.core.notation import Notation
from solver.core.result import PuzzleResult, Result, Summary
from solver.melding.meld.checker import MeldChecker
from solver.melding.present import _reading_cards
from solver.melding.turn.distance import DiscardRow, DistanceSearch, Target
from solver.melding.turn.problem import Problem
from solver.melding.turn.routes import GoOutRoute
from solver.present.text import bold, head, question_puzzle_text
from solver.sat.budget import Budget


def copies_left(checker: MeldChecker, problem: Problem, visible: Sequence[Face]) -> Counter[Face]:
    """The copies of each card not seen: the deck's, less the hand, the visible cards and the table."""
    seen = Counter(problem.hand) + Counter(visible) + Counter(f for m in problem.table for f in m.all_cards)
    fmt = checker.notation
    left: Counter[Face] = Counter()
    for face, copies in checker.ruleset.deck.copies.items():
        if seen[face] > copies:
            where = "hand, --visible and table"
            raise TooManyCopies(f"{fmt.format(face)} is seen {seen[face]} times ({where}), but the deck holds {copies}")
        left[face] = copies - seen[face]
    return +left


def answer(
    checker: MeldChecker,
    problem: Problem,
    routes: Sequence[GoOutRoute],
    question: str,
    request: Request,
) -> Result:
    """The answer to ``--distance`` or ``--discards`` for a problem (its routes: the ruleset's ways
    to go out)."""
    if problem.turn == "claimed":
        raise MeldsError("--distance and --discards ask of a hand in its own turn (no --claimed)")
    fmt = checker.notation
    visible = fmt.parse_many(request["visible"]) if request.get("visible") else []
    left = copies_left(checker, problem, visible)
    budget = Budget(request.get("max_seconds"))
    base = question_json(checker, problem, question, visible)
    try:
        # the search makes many small objects over a large loaded heap (the game, its models): no full
        # collection walks that heap meanwhile (solver.core.gcpause; the young ones still free its garbage)
        with budget.guarding(), no_full_collections(), DistanceSearch(problem, left, checker, budget, routes) as search:
            found = search.distance()
            rows = _rows(search, problem, found[0] if found else None) if question == "discards" else []
    except Undecided:
        data = {**base, "distance": None, "undecided": True, "stats": {"seconds": round(budget.elapsed, 4)}}
        return Result(data, ExitCode.UNDECIDED, lambda: head("undecided", None) + ": out of budget")
    data = {**base, "distance": found[0] if found else None, "stats": {"seconds": round(budget.elapsed, 4)}}
    if question == "distance":
        data["target"] = target_json(checker, problem, found[1]) if found else None
        code = ExitCode.of(found is not None and found[0] <= 1)
        return Result(data, code, lambda: distance_text(checker, data, found))
    data["discards"] = sort_rows([_row_json(fmt, row, left) for row in rows])
    code = ExitCode.of(any(row.distance == 1 for row in rows))
    return Result(data, code, lambda: discards_text(data))


def question_json(checker: MeldChecker, problem: Problem, question: str, visible: Sequence[Face]) -> dict[str, Any]:
    """The keys every distance answer starts with: the question asked of which hand."""
    fmt = checker.notation
    return {
        "ruleset": checker.ruleset.id,
        "question": question,
        "hand": fmt.format_many(problem.hand),
        "cards": len(problem.hand),
        "visible": fmt.format_many(visible),
    }


def _rows(search: DistanceSearch, problem: Problem, least: int | None) -> list[DiscardRow]:
    if least is None:
        return [DiscardRow(face, None) for face in sorted(set(problem.hand))]
    return [search.discard_row(face, least) for face in sorted(set(problem.hand))]


def _row_json(fmt: Notation, row: DiscardRow, left: Counter[Face]) -> dict[str, Any]:
    draws = [{"card": fmt.format(f), "left": left[f]} for f in row.draws]
    return {
        "discard": fmt.format(row.discard),
        "distance": row.distance,
        "draws": draws,
        "draws_total": sum(d["left"] for d in draws),
    }


def sort_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Best first: the fewest swaps left (a discard that never goes out last), then the most copies to draw."""
    never = 1 << 30
    return sorted(rows, key=lambda r: (never if r["distance"] is None else r["distance"], -r["draws_total"]))


def target_json(checker: MeldChecker, problem: Problem, target: Target) -> dict[str, Any]:
    fmt = checker.notation
    hand = Counter(problem.hand) - Counter(target.aside) + Counter(target.drawn)
    out: dict[str, Any] = {
        "aside": [fmt.format(f) for f in target.aside],
        "drawn": [fmt.format(f) for f in target.drawn],
        "hand": fmt.format_many(sorted(hand.elements())),
        "melds": [
            {
                "kind": p.reading.kind.id,
                "kind_name": p.reading.kind.name,
                "cards": _reading_cards(checker, p.reading),
                **({"table": p.table + 1} if p.table is not None else {}),
            }
            for p in target.answer.plays
        ],
        "discard": fmt.format(target.answer.discard) if target.answer.discard is not None else None,
    }
    if target.route is not None:
        out["route"] = target.route
    if target.answer.phase_needed is not None:
        out["phase"] = target.answer.phase_needed
    return out


def distance_text(checker: MeldChecker, data: dict[str, Any], found: tuple[int, Target] | None) -> str:
    if found is None:
        return head("never", False) + f": no swaps make {data['hand']} go out under {data['ruleset']}"
    d, target = data["distance"], data["target"]
    if d == 0:
        lines = [head("distance 0", True) + ": the hand goes out now"]
    else:
        swap = f"let go {' '.join(target['aside'])}, draw {' '.join(target['drawn'])}"
        lines = [head(f"distance {d}", d <= 1) + f": {d} swap{'s' if d > 1 else ''}, e.g. {swap}"]
        lines.append(f"  target hand: {target['hand']}")
    route = f" ({target['route']})" if "route" in target else ""
    lines.append(f"  goes out{route}:")
    for meld in target["melds"]:
        cards = " ".join(c["card"] for c in meld["cards"])
        where = f" onto table meld {meld['table']}" if "table" in meld else ""
        lines.append(f"    {bold(meld['kind_name'])}{where}: {cards}")
    if target["discard"]:
        lines.append(f"    discard {target['discard']}")
    return "\n".join(lines)


def discards_text(data: dict[str, Any]) -> str:
    rows = data["discards"]
    lines = [bold(f"{data['hand']}") + f": distance {data['distance'] if data['distance'] is not None else 'never'}"]
    width = max((len(r["discard"]) for r in rows), default=4)
    for r in rows:
        if r["distance"] is None:
            lines.append(f"  {r['discard']:{width}}  never")
            continue
        draws = " ".join(f"{d['card']}×{d['left']}" for d in r["draws"]) or "-"
        lines.append(f"  {r['discard']:{width}}  distance {r['distance']}  {r['draws_total']:3} to draw: {draws}")
    return "\n".join(lines)


def expectation_mismatches(expect: dict[str, Any], data: dict[str, Any]) -> list[str]:
    """Where a distance puzzle's answer differs from its ``expect``: the distance, and each
    discard's row of the table (its distance, the draws that lower it with their copies left)."""
    out = []
    if "distance" in expect and expect["distance"] != data["distance"]:
        out.append(f"distance: expected {expect['distance']}, got {data['distance']}")
    if "discards" in expect:
        got = {row["discard"]: _row_expectation(row) for row in data.get("discards", [])}
        want = {row["discard"]: {k: v for k, v in row.items() if k != "discard"} for row in expect["discards"]}
        for discard in sorted(set(want) | set(got)):
            if want.get(discard) != got.get(discard):
                out.append(f"discard {discard}: expected {want.get(discard)}, got {got.get(discard)}")
    return out


def _row_expectation(row: dict[str, Any]) -> dict[str, Any]:
    """A table row as a puzzle file spells it: the draws as card -> copies left."""
    draws = {d["card"]: d["left"] for d in row["draws"]}
    return {"distance": row["distance"], "draws_total": row["draws_total"], "draws": draws}


def puzzle_result(path: str, title: str, expect: dict[str, Any], result: Result) -> PuzzleResult:
    """A distance puzzle's answer, compared with what the puzzle expects."""
    problems = expectation_mismatches(expect, result.data) if expect else None
    data = {**result.data, "puzzle": path, "title": title}
    if problems is not None:
        data.update(matches=not problems, mismatches=problems)

    found = result.data["distance"]
    word = "undecided" if result.data.get("undecided") else "never" if found is None else f"distance {found}"
    seconds = result.data["stats"]["seconds"]
    summary = Summary(word, seconds, None if problems is None else not problems, tuple(problems or ()))
    folder = ExitCode.UNDECIDED if result.data.get("undecided") else ExitCode.NO if problems else ExitCode.YES
    return PuzzleResult(data, result.code, lambda: question_puzzle_text(data, result.readable()), summary, folder)
