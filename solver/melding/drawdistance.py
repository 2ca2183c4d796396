"""``melds solve --distance`` of a game whose turn rearranges the table and has no discard (a turn
places cards or draws one): the fewest cards drawn after which one turn places the whole hand, the table's melds
rearranged freely (before the initial meld: the table untouched, the new melds worth its points),
with one target shown — the cards drawn, each with its copies left, and the table after the turn
(:mod:`solver.melding.arrange.distance`). The JSON keys are the other rummies'
(:mod:`solver.melding.distance`): nothing is let go (``aside`` empty, ``discard`` null).

``--discards`` is refused: with no discard there is no card to choose to let go."""

from __future__ import annotations

from collections import Counter
from typing import Any

from solver.core.errors import ExitCode, MeldsError, Undecided
from solver.core.game import Request
from solver.core.result import Result
from solver.core.source import source_json
from solver.melding.arrange.distance import Drawn, fewest_draws, game_turns
from solver.melding.arrange.laid import MeldCatalogue
from solver.melding.arrange.present import Nouns, laid_json
from solver.melding.arrange.solve import initial_points
from solver.melding.distance import copies_left, question_json
from solver.melding.meld.checker import MeldChecker
from solver.melding.turn.problem import Problem
from solver.present.text import bold, head
from solver.sat.budget import Budget


def no_discard(catalogue: MeldCatalogue, nouns: Nouns) -> MeldsError:
    """Why ``--discards`` has no answer in a game without a discard, citing its turn rule."""
    rule = catalogue.ruleset.turn_rule("normal")
    quote = next((s.quote for s in rule.sources if s is not None and s.quote), None)
    why = f' ("{quote}")' if quote else ""
    return MeldsError(
        f"--discards asks which {nouns.card} to let go, but a {catalogue.ruleset.name} turn has no discard{why}; "
        f"ask --distance: the fewest {nouns.card}s drawn before the {nouns.hand} can be played out"
    )


def answer(
    checker: MeldChecker, catalogue: MeldCatalogue, problem: Problem, question: str, request: Request, nouns: Nouns
) -> Result:
    """The answer to ``--distance`` (``--discards``: bad input, see :func:`no_discard`)."""
    if question == "discards":
        raise no_discard(catalogue, nouns)
    if problem.turn == "claimed":
        raise MeldsError(f"{catalogue.ruleset.name} has no discards to claim")
    fmt = checker.notation
    visible = fmt.parse_many(request["visible"]) if request.get("visible") else []
    fmt.check_copies(list(problem.hand) + [f for m in problem.table for f in m.faces])
    left = copies_left(checker, problem, visible)
    points = initial_points(catalogue)
    budget = Budget(request.get("max_seconds"))
    data = question_json(checker, problem, question, visible)
    try:
        with budget.guarding():
            table = [m.faces for m in problem.table]
            found = fewest_draws(game_turns(catalogue, points), problem.hand, table, problem.has_melded, left, budget)
    except Undecided:
        data.update(distance=None, undecided=True, stats={"seconds": round(budget.elapsed, 4)})
        return Result(data, ExitCode.UNDECIDED, lambda: head("undecided", None) + ": out of budget")
    data.update(distance=found.distance if found else None, stats={"seconds": round(budget.elapsed, 4)})
    data["target"] = _target_json(catalogue, found, left, points) if found else None
    code = ExitCode.of(found is not None and found.distance <= 1)
    return Result(data, code, lambda: _text(data, nouns))


def _target_json(catalogue: MeldCatalogue, found: Drawn, left: Counter, points: int) -> dict[str, Any]:
    fmt, turn = catalogue.checker.notation, found.turn
    rule = catalogue.ruleset.initial_meld
    return {
        "aside": [],
        "drawn": [fmt.format(f) for f in found.drawn],
        "draws": [{"card": fmt.format(f), "left": left[f]} for f in sorted(set(found.drawn))],
        "hand": fmt.format_many(sorted(turn.placed)),
        "melds": [laid_json(s, fmt, catalogue.cards) for s in turn.new_melds],
        "table": [[fmt.format(f) for f in s.faces] for s in turn.table],
        "discard": None,
        "initial_meld": (
            {"needed": points, "value": turn.initial_value, "source": source_json(rule.source)}
            if turn.initial and rule is not None
            else None
        ),
    }


def _text(data: dict[str, Any], nouns: Nouns) -> str:
    target, d = data["target"], data["distance"]
    if target is None:
        return head("never", False) + f": no {nouns.card}s drawn let {data['hand']} go out under {data['ruleset']}"
    if d == 0:
        lines = [head("distance 0", True) + f": the {nouns.hand} goes out now"]
    else:
        left = ", ".join(f"{x['card']} {x['left']}" for x in target["draws"])
        drawn = " ".join(target["drawn"])
        lines = [head(f"distance {d}", d <= 1) + f": {nouns.cards(d)} to draw, e.g. {drawn} (copies left: {left})"]
        lines.append(f"  {nouns.hand} then: {target['hand']}")
    initial = target["initial_meld"]
    worth = f" (initial {nouns.meld}s worth {initial['value']} of {initial['needed']})" if initial else ""
    lines.append(f"  played out{worth}; the table after the turn:")
    new = [" ".join(c["card"] for c in m["cards"]) for m in target["melds"]]
    for cards in target["table"]:
        shown = " ".join(cards)
        lines.append(f"    {bold(shown) if shown in new else shown}")
    return "\n".join(lines)
