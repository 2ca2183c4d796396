"""A Rummikub turn over candidate sets: the model for rulesets the compact slot model does not
cover (:func:`solver.games.rummikub.slots.shape_of` is None: more kinds, wild limits, repeated
ranks in a run's order…), and the tests' second opinion on the slot model.

Over the candidate sets of the tiles in play (:func:`solver.melding.meld.candidates.candidates`, each
verified by the :class:`~solver.melding.meld.checker.MeldChecker`, the same rules as ``melds check``):

* ``x[c, k]`` — candidate set ``c`` is on the table at least ``k`` times (identical sets may
  stand twice: the tiles come in copies); ``x[c, k+1] → x[c, k]`` keeps the copies in order;
* per tile, the copies the chosen sets use are at least those on the table (no table tile goes
  back to a rack) and at most those on the table and the rack together;
* the objective: the most rack tiles placed, then the most value placed — one soft clause per rack
  tile, on its face's count "at least k copies of this face on the table" (RC2, stratified).

Before the initial meld the candidates are the rack's own, and the sets chosen must reach the
initial meld's points (:func:`~solver.sat.search.weight_at_least`). Going out asks that every
rack tile be placed, a plain SAT question on the same clauses.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from solver.core.deck import Face
from solver.games.rummikub.sets import Arrangement, SetCatalogue, TileSet, printed_value, settle
from solver.melding.meld.candidates import candidates
from solver.sat.budget import Budget
from solver.sat.encodings import exact_counter
from solver.sat.pool import VarPool
from solver.sat.search import weight_at_least
from solver.sat.solvers import MaxSat, SatSolver

SIZE_WEIGHT = 10_000  # one more tile placed outweighs any difference of value (106 tiles × 13 < 10,000)


class TurnModel:
    """One turn's clauses: candidate sets, copies, tile counts; asked for the best turn or going
    out (see the module docstring)."""

    def __init__(
        self,
        catalogue: SetCatalogue,
        hand: Sequence[Face],
        before: Sequence[TileSet],
        has_melded: bool,
        initial_points: int,
    ):
        self.catalogue, self.ruleset = catalogue, catalogue.ruleset
        self.hand, self.before = list(hand), list(before)
        self.initial = not has_melded
        self.initial_points = initial_points
        on_table = Counter(f for s in before for f in s.faces) if not self.initial else Counter()
        self.must = on_table  # copies that must stay on the table
        self.avail = on_table + Counter(self.hand)  # copies that may be placed
        self.pool = VarPool()
        self.clauses: list[list[int]] = []
        self.sets: list[tuple[TileSet, int, int]] = []  # (set, copy k, variable)
        self._build()

    def _build(self) -> None:
        faces = self.ruleset.deck.faces
        by_index = {f.index: f for f in faces}
        distinct = [f for f in self.avail if f.rank is not None]
        jokers = [f for f in self.avail for _ in range(self.avail[f]) if f.rank is None]
        found = candidates(self.ruleset, distinct + jokers)
        self.candidate_count = len(found)
        uses: dict[Face, list[int]] = {f: [] for f in self.avail}
        for cand in found:
            tiles = [by_index[i] for i in cand.key]
            tile_set = self.catalogue.lookup(tiles)
            if tile_set is None:
                continue
            need = Counter(tiles)
            copies = min(self.avail[f] // n for f, n in need.items())
            previous = None
            for k in range(1, copies + 1):
                x = self.pool.new()
                self.sets.append((tile_set, k, x))
                if previous is not None:
                    self.clauses.append([-x, previous])
                previous = x
                for f, n in need.items():
                    uses[f] += [x] * n
        self.counters: dict[Face, list] = {}
        for f, lits in uses.items():
            top = self.avail[f] + 1
            ge = self.counters[f] = exact_counter(lits, top, self.pool, self.clauses)
            if self.must[f]:
                at_least = ge[self.must[f]]
                self.clauses.append([at_least] if at_least is not None else [])
            if ge[top] is not None:
                self.clauses.append([-ge[top]])
        if self.initial:
            self.threshold = weight_at_least(
                [(x, s.value) for s, _, x in self.sets], self.initial_points, self.pool, self.clauses
            )

    # -- questions ----------------------------------------------------------------------------------

    def _hard(self) -> list[list[int]] | None:
        """The turn's clauses, with the initial meld's points when it is one (None: out of reach)."""
        if not self.initial:
            return list(self.clauses)
        if self.threshold is None:
            return None
        return self.clauses + ([[self.threshold]] if self.threshold else [])

    def _satisfy(self, clauses: list[list[int]], question: str, budget: Budget) -> Arrangement:
        with SatSolver(clauses) as solver:
            if not solver.solve(budget=budget):
                return self.none(question)
            return self._decode(solver.true(), question)

    def best(self, budget: Budget) -> Arrangement:
        clauses = self._hard()
        if clauses is None:
            return self.none("best")
        soft = []
        for f, held in Counter(self.hand).items():  # the k-th copy of a rack face placed
            ge = self.counters[f]
            soft += [
                ([ge[self.must[f] + k]], SIZE_WEIGHT + printed_value(f))
                for k in range(1, held + 1)
                if ge[self.must[f] + k] is not None
            ]
        if not soft:  # no rack tile can go down anywhere: the table as it may stand, unchanged or not
            return self._satisfy(clauses, "best", budget)
        with MaxSat(clauses, soft, top=self.pool.top) as maxsat:
            model = maxsat.optimum(budget)
        if model is None:
            return self.none("best")
        return self._decode(set(lit for lit in model if lit > 0), "best")

    def go_out(self, budget: Budget) -> Arrangement:
        clauses = self._hard()
        if clauses is None:
            return self.none("go-out")
        for f in Counter(self.hand):  # every copy of the rack's faces placed: the counter's top cell
            every = self.counters[f][self.avail[f]]
            clauses.append([every] if every is not None else [])
        return self._satisfy(clauses, "go-out", budget)

    def none(self, question: str) -> Arrangement:
        answer = Arrangement(False, question, self.initial, list(self.before), [], [], list(self.hand))
        answer.candidates = self.candidate_count
        return answer

    def _decode(self, true: set[int], question: str) -> Arrangement:
        chosen = [s for s, _, x in self.sets if x in true]
        answer = settle(question, self.hand, self.before, chosen, self.initial, self.must)
        answer.candidates = self.candidate_count
        return answer


def solve_by_sets(
    catalogue: SetCatalogue,
    hand: Sequence[Face],
    before: Sequence[TileSet],
    has_melded: bool,
    initial_points: int,
    question: str,
    budget: Budget,
) -> Arrangement:
    """The best turn or going out, over candidate sets (may raise Undecided)."""
    model = TurnModel(catalogue, hand, before, has_melded, initial_points)
    return model.go_out(budget) if question == "go-out" else model.best(budget)
