"""A going-out route's requirements in the turn's model: each under a selector literal that going
out implies, so that a question can leave one out (which requirement does a hand fail?).

* A count of melds (:class:`~solver.melding.turn.routes.MeldCount`): each new meld that may count
  has a *count literal*, true when the meld is made and counts. Whether it counts is known only
  once it is verified (the kind it is read as, whether a card acts as a wild in that reading), so
  an option that may or may not count gets a *match literal* the solver may set either way until
  verification fixes it (:meth:`RouteCounts.learn`); one that surely counts is counted by its own
  literal. At least / at most so many count literals are true, less the melds already shown that
  count.
* A limit on the hand's value (:class:`~solver.melding.turn.routes.HandLimit`): the copies kept —
  there, and not accounted for (:mod:`solver.melding.turn.accounting`) — weighed by their card
  points in a running sum (:func:`~solver.sat.search.weight_reached`) that may not reach the
  limit plus one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from solver.core.deck import Face
from solver.melding.meld.checker import MeldChecker
from solver.melding.meld.encode import Reading
from solver.melding.table.operations import TableMeld
from solver.melding.turn.accounting import CardAccounting
from solver.melding.turn.routes import GoOutRoute, HandLimit, MeldCount, RouteRequirement
from solver.sat import encodings
from solver.sat.encodings import TRUE
from solver.sat.pool import VarPool
from solver.sat.search import weight_reached
from solver.sat.solvers import TrueLiterals

Clause = list[int]


@dataclass(frozen=True)
class Countable:
    """A new meld the turn may make: its literal, the kinds that read it structurally, its size,
    and its reading once verified."""

    var: int
    kinds: frozenset[str]
    size: int
    reading: Reading | None
    also: tuple[Reading, ...] = ()  # other kinds that read it too (the player says which it is)


@dataclass(frozen=True)
class Shown:
    """A meld of the player's already on the table: its kind, size and wild cards."""

    kind: str
    size: int
    wilds: int


def shown_counts(
    shown: Sequence[Sequence[Face]], checker: MeldChecker, params: Mapping[str, Any] | None
) -> list[Shown]:
    """The player's melds already on the table, as the route's counts see them."""
    verdicts = [checker.check(faces, explain=False, params=params) for faces in shown]
    return [Shown(v.reading.kind.id, len(v.faces), v.reading.wilds) for v in verdicts if v.legal and v.reading]


def own_melds(
    table: Sequence[TableMeld],
    extended: Mapping[int, list[int]],
    checker: MeldChecker,
    params: Mapping[str, Any] | None,
    pool: VarPool,
) -> tuple[list[Countable], list[tuple[Face, ...]], list[Clause]]:
    """The player's own melds on the table, as a route counts them: one that no lay-off may extend
    counts as it stands (returned with the shown melds); one that may be extended (``extended``:
    table meld -> its lay-offs' literals, at most one of them made) counts either as it stands,
    under a literal true when no lay-off is made on it, or as the lay-off makes it (the lay-offs
    are counted as new melds are). Returns those literals' countables, the melds that stand, and
    the literals' clauses."""
    countables: list[Countable] = []
    standing: list[tuple[Face, ...]] = []
    clauses: list[Clause] = []
    for t, lays in extended.items():
        faces = table[t].faces
        if not lays:
            standing.append(faces)
            continue
        verdict = checker.check(faces, explain=False, params=params)
        if not verdict.legal or verdict.reading is None:
            continue
        stays = pool.new()  # the meld is left as it stands
        clauses += [[stays, *lays]] + [[-stays, -lay] for lay in lays]
        kinds = frozenset(r.kind.id for r in verdict.every_reading)
        countables.append(Countable(stays, kinds, len(faces), verdict.reading, verdict.also))
    return countables, standing, clauses


class RouteCounts:
    """The clauses of one route's requirements, and what verifying a meld teaches them."""

    def __init__(self, route: GoOutRoute, pool: VarPool):
        self.route = route
        self.pool = pool
        self.selectors: list[tuple[RouteRequirement, int]] = []  # each requirement, its literal
        self._matches: dict[int, list[tuple[MeldCount, int]]] = {}  # option -> (requirement, match literal)
        self._choices: dict[int, list[int]] = {}  # option read by several kinds -> "it is made as reading i"

    def clauses(
        self,
        goal: int,
        melds: Sequence[Countable],
        shown: Sequence[Shown],
        accounting: CardAccounting,
        points: Callable[[Face], int],
    ) -> list[Clause]:
        """Every requirement of the route under its selector, and going out (``goal``) implying
        each selector."""
        clauses: list[Clause] = []
        for requirement in self.route.checks:
            select = self.pool.new()
            self.selectors.append((requirement, select))
            clauses.append([-goal, select])
            if isinstance(requirement, HandLimit):
                body = self._limit(requirement, accounting, points, clauses)
            else:
                body = self._count(requirement, melds, shown, clauses)
            clauses += [[-select, *clause] for clause in body]
        return clauses

    def _count(
        self, requirement: MeldCount, melds: Sequence[Countable], shown: Sequence[Shown], clauses: list[Clause]
    ) -> list[Clause]:
        """At least / at most so many of the melds made count (the shown ones that count taken
        off); the count literals' own definitions go to ``clauses``, the bounds are returned."""
        counted = [lit for meld in melds if (lit := self._counted(requirement, meld, clauses)) is not None]
        already = sum(requirement.counts(m.kind, m.size, m.wilds) for m in shown)
        body = encodings.at_least(counted, requirement.at_least - already, self.pool)
        if requirement.at_most is not None:
            most = requirement.at_most - already
            body += [[]] if most < 0 else encodings.at_most(counted, most, self.pool)
        return body

    def _counted(self, requirement: MeldCount, meld: Countable, clauses: list[Clause]) -> int | None:
        """The literal that says a meld is made and counts (None: it never counts)."""
        if requirement.sizes is not None and meld.size not in requirement.sizes:
            return None
        if meld.reading is not None:
            readings = (meld.reading, *meld.also)
            counts = [requirement.counts(r.kind.id, meld.size, r.wilds) for r in readings]
            if all(counts) or not any(counts):
                return meld.var if counts[0] else None
            match, count = self.pool.new(), self.pool.new()
            clauses += [[-count, meld.var], [-count, match], [count, -meld.var, -match]]
            clauses += self._chosen_clauses(meld.var, match, counts)
            return count
        wanted = requirement.kinds
        if wanted is not None and not meld.kinds & wanted:
            return None
        if not requirement.pure and (wanted is None or meld.kinds <= wanted):
            return meld.var  # whatever it is read as, it counts
        match, count = self.pool.new(), self.pool.new()
        clauses += [[-count, meld.var], [-count, match], [count, -meld.var, -match]]
        self._matches.setdefault(meld.var, []).append((requirement, match))
        return count

    def _limit(
        self, limit: HandLimit, accounting: CardAccounting, points: Callable[[Face], int], clauses: list[Clause]
    ) -> list[Clause]:
        """The copies kept weigh at most the limit: a running sum that may not reach limit + 1."""
        items = []
        for face, accounted in accounting.accounted.items():
            value = points(face)
            if value <= 0:
                continue
            for k, copy_accounted in enumerate(accounted, 1):
                there = accounting.supply[face][k]
                if there is None:
                    continue
                if there is TRUE:
                    items.append((-copy_accounted, value))
                else:  # a copy the turn may take from the table: kept when there and not accounted
                    kept = self.pool.new()
                    clauses.append([-there, copy_accounted, kept])
                    items.append((kept, value))
        reached = weight_reached(items, limit.at_most + 1, self.pool, clauses)
        over = reached[limit.at_most + 1]
        return [] if over is None else [[-over]]

    def learn(self, var: int, readings: Sequence[Reading], size: int) -> list[Clause]:
        """A meld verified: the clauses that fix whether it counts toward each requirement that was
        left open for it. Read by several kinds (a ruleset whose ambiguity rule prefers one, where a
        player says which), it counts as the one it is made as: one of them, the same for every
        requirement."""
        out: list[Clause] = []
        for requirement, match in self._matches.get(var, ()):
            counts = [requirement.counts(r.kind.id, size, r.wilds) for r in readings]
            if all(counts) or not any(counts):
                out.append([match if counts[0] else -match])
            else:
                out += self._chosen_clauses(var, match, counts)
        return out

    def _chosen_clauses(self, var: int, match: int, counts: Sequence[bool]) -> list[Clause]:
        """``match`` holds when the meld is made as one of the readings that count."""
        clauses: list[Clause] = []
        choice = self._choices.get(var)
        if choice is None:
            choice = self._choices[var] = [self.pool.new() for _ in counts]
            clauses += [list(choice)] + encodings.at_most_one(choice, self.pool)
        clauses.append([-match, *(c for c, yes in zip(choice, counts, strict=True) if yes)])
        clauses += [[-c, match] if yes else [-c, -match] for c, yes in zip(choice, counts, strict=True)]
        return clauses

    def chosen(self, var: int, true: TrueLiterals) -> int:
        """Which of its readings a meld read by several kinds is made as (0: the first)."""
        choice = self._choices.get(var, ())
        return next((i for i, c in enumerate(choice) if c in true), 0)

    def blamed(self, placed: int | None, satisfied: Callable[[list[int]], bool]) -> list[RouteRequirement]:
        """The requirements a hand fails: each one without which it goes out (``placed``: the
        literal of every card placed, for a route that asks it). When no single one is to blame but
        the hand goes out without any, all of them (they cannot hold together)."""
        base = [placed] if placed is not None else []
        lits = [select for _, select in self.selectors]
        blamed = [
            requirement
            for requirement, select in self.selectors
            if satisfied(base + [lit for lit in lits if lit != select])
        ]
        if not blamed and len(self.selectors) > 1 and satisfied(base):
            blamed = [requirement for requirement, _ in self.selectors]
        return blamed


def meets_route(
    route: GoOutRoute, made: Sequence[Reading], shown: Sequence[Shown], kept_points: int, kept: bool
) -> bool:
    """Does a turn that makes these new melds (``made``, read as shown), keeps cards (``kept``)
    weighing ``kept_points``, with the player's melds already shown, meet the route: every card
    placed where it asks so, and each requirement held? A meld counts as the kind it is read as."""
    if route.all_cards and kept:
        return False
    melds = [Shown(r.kind.id, len(r.placements), r.wilds) for r in made] + list(shown)
    for requirement in route.checks:
        if isinstance(requirement, HandLimit):
            if kept_points > requirement.at_most:
                return False
            continue
        counted = sum(requirement.counts(m.kind, m.size, m.wilds) for m in melds)
        if not requirement.allows(counted):
            return False
    return True
