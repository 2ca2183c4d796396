"""Two parts of a turn's model (:class:`~solver.melding.turn.model.TurnModel`) that depend only on
its options: the turn rule's clauses (``turns:``, ``layoff:``) and, for a question that shows melds
instead of going out, each requirement's clauses under a selector of its own."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from solver.core.deck import Face
from solver.core.rules import LayoffRule, TurnRule
from solver.melding.turn.problem import Problem
from solver.melding.turn.routes import Requirement
from solver.sat import encodings
from solver.sat.pool import VarPool


class Play(Protocol):
    """What these clauses read of an option: its literal, the table meld it extends (None: a new
    meld) and the hand cards it plays."""

    var: int
    table: int | None
    hand_faces: tuple[Face, ...]


P = TypeVar("P", bound=Play)


def turn_rule_clauses(
    problem: Problem,
    rules: tuple[TurnRule, LayoffRule | None],
    live: Sequence[Play],
    discards: tuple[dict[Face, int], Counter],
    new_meld_uses: dict[Face, list[int]],
    pool: VarPool,
) -> list[list[int]]:
    """The turn rule and the lay-off rule over the ``live`` options: how many discards (``discards``:
    each face's discard literal, and the hand's count of each face), the claimed card's fate (a new
    meld of it among the options or ``new_meld_uses``, the slots' uses of each face), new melds a
    turn, one extension per table meld, lay-offs before one's own meld."""
    (rule, layoff_rule), (discard, count) = rules, discards
    d_lits = list(discard.values())
    clauses: list[list[int]] = []
    if rule.discard == "none":
        clauses += [[-d] for d in d_lits]
    else:
        clauses += encodings.at_most(d_lits, 1, pool)
        if rule.discard == "required":
            clauses.append(d_lits)
    if problem.turn == "claimed" and problem.claimed is not None:
        if rule.claimed_not_discarded and count[problem.claimed] == 1:
            clauses.append([-discard[problem.claimed]])
        if rule.claimed_in_new_meld:
            clauses.append(
                [o.var for o in live if o.table is None and problem.claimed in o.hand_faces]
                + new_meld_uses.get(problem.claimed, [])
            )
    if rule.max_new_melds is not None:
        clauses += encodings.at_most([o.var for o in live if o.table is None], rule.max_new_melds, pool)
    for t in range(len(problem.table)):  # one extension per table meld
        exts = [o.var for o in live if o.table == t]
        if len(exts) > 1:
            clauses += encodings.at_most(exts, 1, pool)
    if layoff_rule is not None and layoff_rule.requires_own_meld and not problem.has_melded:
        own = [o.var for o in live if o.table is None or problem.table[o.table].mine]
        for o in live:
            if o.table is not None and not problem.table[o.table].mine:
                clauses.append([-o.var] + own)
    return clauses


@dataclass
class Shown:
    """The requirements' clauses (:func:`requirement_clauses`): each requirement's selector, in
    order, and per option the (requirement, member literal) pairs it counts in."""

    clauses: list[list[int]] = field(default_factory=list)
    selectors: list[int] = field(default_factory=list)
    members: dict[int, list[tuple[int, int]]] = field(default_factory=dict)


def requirement_clauses(
    requirements: Sequence[Requirement],
    live: Sequence[P],
    kinds_of: Callable[[P], frozenset],
    shown_kinds: Sequence[str],
    pool: VarPool,
) -> Shown:
    """Each requirement under its selector: exactly the melds it asks for are shown (less those of
    ``shown_kinds`` already on the table), and nothing else."""
    shown = Shown()
    for i, req in enumerate(requirements):
        select = pool.new()
        shown.selectors.append(select)
        need = max(0, req.count - sum(k in req.kinds for k in shown_kinds))
        members = []
        for o in live:
            if kinds_of(o) & req.kinds:
                member = pool.new()
                shown.members.setdefault(o.var, []).append((i, member))
                shown.clauses += [[-member, o.var], [-select, -o.var, member]]
                members.append(member)
            else:
                shown.clauses.append([-select, -o.var])
        if need > len(members):
            shown.clauses.append([-select])  # not enough candidate melds
        elif need == 0:
            shown.clauses += [[-select, -m] for m in members]
        else:
            shown.clauses += [[-select] + c for c in encodings.exactly(members, need, pool)]
    return shown
