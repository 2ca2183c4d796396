"""A rearranging turn over candidate melds: the model for rulesets the compact slot model does not
cover (:func:`solver.melding.arrange.shape.shape_of` is None: more kinds, wild limits, repeated
ranks in a run's order…), and the tests' second opinion on the slot model.

Over the candidate melds of the cards in play (:func:`solver.melding.meld.candidates.candidates`,
each verified by the :class:`~solver.melding.meld.checker.MeldChecker`, the same rules as
``melds check``):

* ``x[c, k]`` — candidate meld ``c`` is on the table at least ``k`` times (identical melds may
  stand twice: the cards come in copies); ``x[c, k+1] → x[c, k]`` keeps the copies in order;
* per card, the copies the chosen melds use are at least those on the table (no table card goes
  back to a hand) and at most those on the table and in the hand together;
* the objective: the most hand cards placed, then the most value placed — one soft clause per hand
  card, on its face's count "at least k copies of this face on the table" (RC2, stratified).

Before the initial meld the candidates are the hand's own, and the melds chosen must reach the
initial meld's points (:func:`~solver.sat.search.weight_at_least`). Going out asks that every
hand card be placed, a plain SAT question on the same clauses.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from solver.core.deck import Face
from solver.melding.arrange.laid import Arrangement, LaidMeld, MeldCatalogue, settle
from solver.melding.meld.candidates import candidates
from solver.sat.budget import Budget
from solver.sat.encodings import exact_counter
from solver.sat.pool import VarPool
from solver.sat.search import weight_at_least
from solver.sat.solvers import MaxSat, SatSolver


class TurnModel:
    """One turn's clauses: candidate melds, copies, card counts; asked for the best turn or going
    out (see the module docstring)."""

    def __init__(
        self,
        catalogue: MeldCatalogue,
        hand: Sequence[Face],
        before: Sequence[LaidMeld],
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
        self.melds: list[tuple[LaidMeld, int, int]] = []  # (meld, copy k, variable)
        self._build()

    def _build(self) -> None:
        faces = self.ruleset.deck.faces
        by_index = {f.index: f for f in faces}
        found = candidates(self.ruleset, self._pool()) or []  # no limit: never None
        self.candidate_count = len(found)
        uses: dict[Face, list[int]] = {f: [] for f in self.avail}
        for cand in found:
            cards = [by_index[i] for i in cand.key]
            laid = self.catalogue.lookup(cards)
            if laid is None:
                continue
            need = Counter(cards)
            copies = min(self.avail[f] // n for f, n in need.items())
            previous = None
            for k in range(1, copies + 1):
                x = self.pool.new()
                self.melds.append((laid, k, x))
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
            over = ge[top]
            if over is not None:
                self.clauses.append([-over])
        if self.initial:
            self.threshold = weight_at_least(
                [(x, s.value) for s, _, x in self.melds], self.initial_points, self.pool, self.clauses
            )

    def _pool(self) -> list[Face]:
        """The cards candidates are made of: a card that may be wild in as many copies as are in
        play; a natural once when every kind holds distinct cards (a meld never holds two)."""
        distinct = all(k.distinct for k in self.ruleset.kinds)
        wild = self.catalogue.cards.wild_only | self.catalogue.cards.dual
        return [f for f, n in self.avail.items() for _ in range(n if f in wild or not distinct else 1)]

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
        printed = self.catalogue.cards.printed
        size_weight = 1 + sum(printed(f) for f in self.hand)  # one more card placed outweighs any value
        soft = []
        for f, held in Counter(self.hand).items():  # the k-th copy of a hand face placed
            ge = self.counters[f]
            soft += [
                ([ge[self.must[f] + k]], size_weight + printed(f))
                for k in range(1, held + 1)
                if ge[self.must[f] + k] is not None
            ]
        if not soft:  # no hand card can go down anywhere: the table as it may stand, unchanged or not
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
        for f in Counter(self.hand):  # every copy of the hand's faces placed: the counter's top cell
            every = self.counters[f][self.avail[f]]
            clauses.append([every] if every is not None else [])
        return self._satisfy(clauses, "go-out", budget)

    def none(self, question: str) -> Arrangement:
        answer = Arrangement(False, question, self.initial, list(self.before), [], [], list(self.hand))
        answer.candidates = self.candidate_count
        return answer

    def _decode(self, true: set[int], question: str) -> Arrangement:
        chosen = [s for s, _, x in self.melds if x in true]
        answer = settle(question, self.hand, self.before, chosen, self.initial, self.must, self.catalogue.cards)
        answer.candidates = self.candidate_count
        return answer


def solve_by_candidates(
    catalogue: MeldCatalogue,
    hand: Sequence[Face],
    before: Sequence[LaidMeld],
    has_melded: bool,
    initial_points: int,
    question: str,
    budget: Budget,
) -> Arrangement:
    """The best turn or going out, over candidate melds (may raise Undecided)."""
    model = TurnModel(catalogue, hand, before, has_melded, initial_points)
    return model.go_out(budget) if question == "go-out" else model.best(budget)
