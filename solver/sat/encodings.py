"""Cardinality encodings: at most / at least / exactly k of some literals, and counters.

Each function returns (or appends) clauses over variables taken from a
:class:`~solver.sat.pool.VarPool`; the sequential counter of python-sat is used where a bound is
fixed, and :func:`counter` where the count itself is wanted as literals.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from itertools import combinations
from typing import TypeVar

from pysat.card import CardEnc, EncType, ITotalizer

from solver.sat.pool import VarPool

Item = TypeVar("Item", bound=Hashable)  # what choice_counts counts (a card face, ...)

Clause = list[int]

TRUE = 0  # marks a constant-true position in a counter's output

# choice_implied seeks clauses of three among at most this many literals (a bench turn's meld of
# wilds has 40, and its search takes 16 ms; it grows as the cube)
IMPLIED_THREES_UPTO = 64


def at_most(lits: Sequence[int], k: int, pool: VarPool) -> list[Clause]:
    if k >= len(lits):
        return []
    enc = CardEnc.atmost(list(lits), k, top_id=pool.top, encoding=EncType.seqcounter)
    pool.reserve(enc.nv)
    clauses: list[Clause] = enc.clauses
    return clauses


def at_least(lits: Sequence[int], k: int, pool: VarPool) -> list[Clause]:
    if k <= 0:
        return []
    if k > len(lits):
        return [[]]
    enc = CardEnc.atleast(list(lits), k, top_id=pool.top, encoding=EncType.seqcounter)
    pool.reserve(enc.nv)
    clauses: list[Clause] = enc.clauses
    return clauses


def exactly(lits: Sequence[int], k: int, pool: VarPool) -> list[Clause]:
    if k > len(lits) or k < 0:
        return [[]]
    if not lits:
        return []
    enc = CardEnc.equals(list(lits), k, top_id=pool.top, encoding=EncType.seqcounter)
    pool.reserve(enc.nv)
    clauses: list[Clause] = enc.clauses
    return clauses


def at_most_one(lits: Sequence[int], pool: VarPool) -> list[Clause]:
    """Pairwise for a few literals, a sequential counter beyond."""
    if len(lits) <= 1:
        return []
    if len(lits) <= 6:
        return [[-a, -b] for a, b in combinations(lits, 2)]
    return at_most(lits, 1, pool)


class Totalizer:
    """An incremental totalizer over ``lits``: ``rhs[k]`` is true when more than k of them are
    (assume ``-rhs[k]`` for "at most k")."""

    def __init__(self, lits: Sequence[int], bound: int, pool: VarPool):
        tot = ITotalizer(lits=list(lits), ubound=bound, top_id=pool.top)
        pool.reserve(tot.top_id)
        self.rhs = list(tot.rhs)
        self.clauses = [list(c) for c in tot.cnf.clauses]
        tot.delete()


def counter(lits: Sequence[int], top: int, new: Callable[[], int], clauses: list[Clause]) -> list[int | None]:
    """Literals ``ge[k]`` (k = 0..top), true exactly when at least k of ``lits`` are true (a
    literal given twice counts twice). A sequential counter in both directions — the outputs may
    be used positively, so an upward-only encoding would let a solver claim counts it has not
    made — four clauses a cell: ``ge'[k] ⇔ ge[k] ∨ (ge[k-1] ∧ x)``. ``ge[0]`` is :data:`TRUE`;
    None marks a count not reached."""
    ge: list[int | None] = [TRUE, *[None] * top]
    for x in lits:
        nxt: list[int | None] = [TRUE]
        for k in range(1, top + 1):
            keep, step = ge[k], ge[k - 1]
            if step is None:
                nxt.append(keep)  # ge[k] cannot change: ge[k-1] is false
                continue
            out = new()
            if step is TRUE:
                clauses.append([-x, out])
                clauses.append([-out, x] + ([keep] if keep is not None else []))
            else:
                clauses.append([-step, -x, out])
                clauses.append([-out, step] + ([keep] if keep is not None else []))
                clauses.append([-out, x] + ([keep] if keep is not None else []))
            if keep is not None:
                clauses.append([-keep, out])
            nxt.append(out)
        ge = nxt
    return ge


def exact_counter(lits: Sequence[int], top: int, pool: VarPool, clauses: list[Clause]) -> list[int | None]:
    """:func:`counter` with its cells taken from ``pool``."""
    return counter(lits, top, pool.new, clauses)


def choice_counts(
    options: Sequence[tuple[int, Iterable[Item]]],
    pool: VarPool,
    clauses: list[Clause],
    holders: dict[int, int] | None = None,
) -> dict[Item, list[int]]:
    """Of options one of which is chosen — (literal, the items it holds, an item once per copy) —
    per item, literals ``at[k-1]``: "the option chosen holds k copies of it or more", each the OR
    of the options that do (an option's own literal when it is the only one), each implying the
    one below. A counter of the items over several choices then counts these, a few a choice,
    instead of every option's literal: it need not learn that the options exclude each other.
    ``holders``: filled with each step's options, a bit mask by their index (for
    :func:`choice_implied`)."""
    by_count: dict[Item, dict[int, list[int]]] = {}
    masks: dict[Item, dict[int, int]] = {}
    for index, (lit, items) in enumerate(options):
        for item, n in Counter(items).items():
            at = by_count.setdefault(item, {})
            held = masks.setdefault(item, {})
            for k in range(1, n + 1):
                at.setdefault(k, []).append(lit)
                if holders is not None:
                    held[k] = held.get(k, 0) | 1 << index
    steps: dict[Item, list[int]] = {}
    for item, at in by_count.items():
        below = None
        for k in sorted(at):
            holding = at[k]
            if len(holding) == 1:
                step = holding[0]
            else:
                step = pool.new()
                clauses.append([-step] + holding)
                clauses += [[-lit, step] for lit in holding]
            if holders is not None:
                holders[step] = masks[item][k]
            if below is not None and below != step:  # one option alone holding k copies and k - 1
                clauses.append([-step, below])
            below = step
            steps.setdefault(item, []).append(step)
    return steps


def choice_implied(holders: dict[int, int], options: int) -> list[Clause]:
    """Of ``options`` options one of which is chosen, literals each true exactly when the chosen
    one is among some of them (``holders``: literal -> those options, a bit mask by index, as
    :func:`choice_counts` fills it): the clauses of one, two or three of these literals or their
    negations that every option satisfies and none of their parts does. Each is implied by the
    choice, but a solver finds it only through a search of the options: with them, what the
    option chosen holds of one item propagates to the others directly, and what a solver learns
    of a choice of hundreds of options it learns over these few literals. Clauses of three only
    among at most :data:`IMPLIED_THREES_UPTO` distinct literals (their search grows as the cube)."""
    full = (1 << options) - 1
    clauses: list[Clause] = []
    first: dict[int, int] = {}  # a set of options -> the first literal true for exactly those
    for lit, mask in holders.items():
        if mask in (0, full):
            clauses.append([lit if mask else -lit])
        elif mask in first:
            clauses += [[-lit, first[mask]], [lit, -first[mask]]]
        else:
            first[mask] = lit
    signed = [(lit, mask) for mask, lit in first.items()] + [(-lit, full ^ mask) for mask, lit in first.items()]
    clauses += [[x, y] for (x, mx), (y, my) in combinations(signed, 2) if x != -y and mx | my == full]
    if len(first) > IMPLIED_THREES_UPTO:
        return clauses
    for i, (x, mx) in enumerate(signed):
        for j in range(i + 1, len(signed)):
            y, my = signed[j]
            lacking = full & ~(mx | my)
            if x == -y or not lacking:
                continue
            clauses += [
                [x, y, z]
                for z, mz in signed[j + 1 :]
                if not lacking & ~mz and z not in (-x, -y) and mx | mz != full and my | mz != full
            ]
    return clauses
