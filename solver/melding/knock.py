"""A knock settled (round scoring ``method: knock``): the knocker's count against each other
player's, after that player's best melds and lay-offs on the knocker's melds.

The round gives the knocker's melds as laid down and the cards left beside them (the deadwood),
and each other player's hand. Each other player's count is the least card points their hand can
keep: its own melds, and — unless the knocker kept no card (gin) — cards laid off on the
knocker's melds as the ruleset's ``layoff:`` allows, a run extended at either end, again and
again. That is one turn of the hand at rest (no discard), solved by the turn solver with the
knocker's melds on the table; the ruleset's objective must minimise hand points.

Then: a knocker who kept no card scores the other's count and the ``gin`` bonus (``big_gin``
when every card was melded and none discarded: more melded cards than the deal gives); else the
lower count wins the difference, and a player whose count is the knocker's or less undercuts
(the ``undercut`` bonus).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from solver.core.deck import Face
from solver.core.errors import BadOption, MeldsError
from solver.core.rules import Bonus, RoundScoring
from solver.core.ruleset import Ruleset
from solver.melding.meld.checker import MeldChecker
from solver.melding.meld.points import hand_breakdown, hand_points
from solver.melding.table.operations import TableMeld
from solver.melding.turn.problem import Answer, Problem
from solver.melding.turn.solve import solve_turn


def settle_knock(
    rs: Ruleset,
    players: Sequence[str],
    knocker: str,
    melds: Sequence[TableMeld],
    hands: Mapping[str, tuple[Face, ...]],
    system: RoundScoring,
    checker: MeldChecker,
) -> tuple[dict[str, int], dict[str, Any]]:
    """The payments (points each player gains) and their details, for one knock."""
    fmt = checker.notation
    laid = tuple(replace(m, mine=False) for m in melds if m.owner == knocker)
    for meld in laid:
        verdict = checker.check(meld.faces, ordered=True, explain=False)
        if not verdict.legal:
            raise MeldsError(f"a meld of {knocker} is not legal: {fmt.format_many(meld.faces)}")
    kept = hands.get(knocker, ())
    count = hand_points(rs, kept)
    outcome = "knock" if count else "big-gin" if _without_discard(rs, len(players), laid) else "gin"
    bonus = _chosen(rs, system.gin)
    if outcome == "big-gin":
        bonus = _chosen(rs, system.big_gin) or bonus
    payments = {p: 0 for p in players}
    details: dict[str, Any] = {
        knocker: {"outcome": outcome, "deadwood": count, "kept": [fmt.format(f) for f in kept]},
    }
    for player in players:
        if player == knocker:
            continue
        answer = least_count(rs, checker, hands.get(player, ()), laid if outcome == "knock" else ())
        theirs = answer.score["hand_points"]
        if outcome != "knock":
            gain = with_bonus(theirs, bonus)
        elif theirs <= count:
            gain = -with_bonus(count - theirs, _chosen(rs, system.undercut))
        else:
            gain = theirs - count
        payments[knocker] += gain
        payments[player] -= gain
        details[player] = _defender(rs, checker, answer, theirs, outcome == "knock" and theirs <= count)
    return payments, details


def with_bonus(points: int, bonus: Bonus | None) -> int:
    """The points won with a bonus entry: doubled (``double``) or with ``add`` added."""
    if bonus is None:
        return points
    return points * 2 if bonus.double else points + bonus.add


def least_count(
    rs: Ruleset,
    checker: MeldChecker,
    hand: Sequence[Face],
    table: tuple = (),
    params: Mapping[str, Any] | None = None,
) -> Answer:
    """A hand at rest (no discard): its best melds and lay-offs on ``table``, keeping the least card
    points (the defender's count of a knock; the melds a knock lays)."""
    if not hand:
        return Answer(solvable=True, question="best", score={"hand_points": 0})
    answer = solve_turn(Problem(rs, tuple(hand), table, params=params, at_rest=True), checker, "best")
    if answer.solvable is None:
        raise MeldsError("the least deadwood of the hand was not found within the budget")
    return answer


def _without_discard(rs: Ruleset, players: int, laid: tuple) -> bool:
    """The knocker melded more cards than the deal gives: every card, and no discard."""
    try:
        dealt = rs.hand_size(players)
    except BadOption:
        return False
    return sum(len(m.faces) for m in laid) > dealt


def _chosen(rs: Ruleset, bonuses: tuple[Bonus, ...]) -> Bonus | None:
    """The first bonus entry whose condition holds."""
    return next((b for b in bonuses if rs.holds(b.condition)), None)


def _defender(rs: Ruleset, checker: MeldChecker, answer: Answer, count: int, undercut: bool) -> Mapping[str, Any]:
    fmt = checker.notation
    return {
        "deadwood": count,
        "undercut": undercut,
        "melds": [[fmt.format(f) for f in p.faces] for p in answer.melds],
        "layoffs": [
            {"table": None if p.table is None else p.table + 1, "added": [fmt.format(f) for f in p.faces]}
            for p in answer.layoffs
        ],
        "kept": [fmt.format(f) for f in answer.kept],
        "breakdown": hand_breakdown(rs, answer.kept, fmt),
    }
