"""Can this hand go out this turn? The best turn, the number of ways, and why not.

A turn is a partition of the hand into new melds, lay-offs onto table melds, at most one final
discard (as the ruleset's turn rule says) and the cards kept. The model, over candidate melds
(:mod:`solver.melding.meld.candidates`):

* ``x[m]`` — candidate new meld ``m`` is made; ``y[t, e]`` — extension ``e`` is laid off onto
  table meld ``t`` (at most one per table meld); ``d[f]`` — a card of face ``f`` is discarded;
* per face ``f`` of the hand, the copies used by chosen melds, lay-offs and the discard are at
  most the copies held; ``acc[f, k]`` — at least ``k`` copies of ``f`` are accounted for;
* the turn rule: the discard is required, optional (made exactly when a card would otherwise be
  left) or none; a claimed discard may have to go into a new meld, or may not be discarded;
  lay-offs may need a meld of the player's own.

Going out is "every copy accounted for". The objective (``objective:`` in the ruleset) becomes
weighted soft clauses for RC2, lexicographic by scaling: meld points paid to the cards of the
melds made (:mod:`solver.melding.turn.shares`: "some meld paying this card t or more is made"), hand
points on ``acc``.

The model is built once per problem and every question is asked of its live solvers
(:mod:`solver.melding.turn.model`): going out, counting and seeing as assumptions on one SAT
solver, the best turn as one MaxSAT optimiser driven through all its rounds. Candidates are
structural, so each option a solver picks is verified lazily with :class:`MeldChecker` and what
that teaches is added to the live solvers; a fully verified optimum is optimal. Out of budget,
the best verified turn found so far is the answer, with its bound (exit 3 all the same).
"""

from __future__ import annotations

from collections import Counter

from solver.core.errors import MeldsError, Undecided
from solver.melding.meld.points import hand_points, verified
from solver.melding.turn.model import TurnModel
from solver.melding.turn.objective import Optimiser

# the turn's types, re-exported
from solver.melding.turn.problem import Answer, Play, Problem, validate_problem  # noqa: F401
from solver.sat.solvers import MaxSat, TrueLiterals


class TurnSolver(TurnModel):
    """Solves one problem: go out, the best turn, see, count the ways, and why not — each a
    question to the live solvers of the model (:class:`~solver.melding.turn.model.TurnModel`)."""

    goal_refuted = False  # no way out exists, as another solver has shown (the plain turn's every packing)

    def _optimum(self, mode: str) -> list[int] | None:
        opt = self._optimiser(mode)
        if opt is None:
            return self._satisfy([self.goal] if mode == "out" else [])
        return opt.maxsat.optimum(self.budget)

    def go_out(self, why_cards: bool = True) -> Answer:
        """Can the hand go out? If so the best way; if not, why (``why_cards``: the cards too, not
        only the requirements failed), and the best turn instead."""
        try:
            self.way_out = None if self.goal_refuted else self._satisfy([self.goal])
            if self.way_out is None:
                self._no_way_out()
                answer = self.best(question="go-out")
                answer.solvable = False if answer.solvable is not None else None
                if answer.solvable is False:
                    answer.why = self._why(why_cards)
                return answer
            answer = self._best_answer("out", question="go-out")
            answer.solvable = True
            return answer
        except Undecided:
            return self._undecided("go-out")

    def _no_way_out(self) -> None:
        """The goal is refuted: a meld that only a way out makes (every kind that can read it is
        ``going_out_only``) is no option. The verification would learn the same of each such meld
        the optimiser chose (¬option ∨ goal), one model at a time — a thousand rounds for a hand
        of many wilds; told to the solvers at once, the best turn instead is found straight."""
        out_only = {k.id for k in self.rs.kinds if k.going_out_only}
        if not out_only:
            return
        for o in self.options:  # not ``forbidden``: such a meld is a legal meld all the same (why's no_meld)
            kinds = o.candidate.kinds
            if o.var not in self.forbidden and kinds and kinds <= out_only:
                self._add_hard([-o.var])

    def goes_out(self) -> bool | None:
        """Does some turn go out (None: undecided within the budget)? Asked beside another
        question (the best turn's), of the same live solver."""
        try:
            return self._satisfy([self.goal]) is not None
        except Undecided:
            return None

    def best(self, question: str = "best") -> Answer:
        """The optimum of the ruleset's objective over every turn the rules allow."""
        try:
            return self._best_answer("any", question=question)
        except Undecided:
            return self._undecided(question)

    def _best_answer(self, mode: str, question: str) -> Answer:
        model = self._optimum(mode)
        if model is None:
            raise MeldsError(self._no_turn_message())
        answer = self._decode(model, question)
        answer.solvable = not answer.kept
        return answer

    def _no_turn_message(self) -> str:
        p, fmt = self.problem, self.checker.notation
        if p.turn == "claimed" and p.claimed is not None and self.rule.claimed_in_new_meld:
            return (
                f"impossible state: the claimed card {fmt.format(p.claimed)} fits no new meld "
                f"with this hand, so it could not be claimed"
            )
        return "impossible state: no turn is possible under the rules"

    def see(self) -> Answer:
        """Can the hand meet one of the requirements it was built with (so many melds of some kinds,
        counting those shown) this turn? Exactly the melds to show."""
        try:
            self._build()
            for req, select in zip(self.requirements, self.requirement_lits, strict=True):
                model = self._satisfy([select])
                if model is not None:
                    answer = self._decode(model, "see")
                    answer.solvable = True
                    answer.route = "+".join(sorted(req.kinds))
                    return answer
            return self._stamp(Answer(solvable=False, question="see"))
        except Undecided:
            return self._undecided("see")

    def count_solutions(self, limit: int) -> tuple[int, bool, bool]:
        """Distinct ways to go out (set of melds, lay-offs, discard), up to ``limit``: each way
        found is blocked on the live solver (under a selector retired afterwards, so the
        blocking clauses do not outlive the count). Returns the ways found, whether the count
        stopped at ``limit``, and whether it ran out of budget first (the ways found: a floor)."""
        assert self.laid is None, "a turn laid out in slots counts a way once a slot order"
        solver = self._live()
        block = self.pool.new()
        try:
            found = 0
            decision = [o.var for o in self.options] + self.d_lits
            while found < limit:
                model = self._satisfy([self.goal, block])
                if model is None:
                    return found, False, False
                found += 1
                true = TrueLiterals(model)
                solver.add([-block] + [-v if v in true else v for v in decision])
            return found, True, False
        except Undecided:
            return found, True, True
        finally:
            solver.add([-block])

    def _decode(self, model: list[int], question: str) -> Answer:
        true = TrueLiterals(model)
        plays = []
        for o in self._chosen(model):
            plays.append(Play(o.hand_faces, verified(self.reading_of(o, true)), o.weight, o.table))
        if self.laid is not None:
            plays += [Play(faces, reading, points) for faces, reading, points in self.laid.melds(true)]
        discard = next((f for f in self.faces if self.discard_lit[f] in true), None)
        used = Counter(f for p in plays for f in p.faces)
        if discard is not None:
            used[discard] += 1
        kept = sorted((self.count - used).elements())
        plays.sort(key=lambda p: (p.table is not None, p.table or 0, sorted(p.faces)))
        answer = Answer(solvable=None, question=question, plays=plays, discard=discard, kept=kept)
        answer.score = self._score(plays, kept)
        if any(p.reading.kind.phase for p in plays):
            answer.phase_needed = self.phase_of(model) or self.problem.phase
        answer.phase_after = self.problem.phase  # a game whose discards change the phase says after
        return self._stamp(answer)

    def _score(self, plays, kept) -> dict:
        score = {
            "meld_points": sum(p.points for p in plays),
            "hand_points": hand_points(self.rs, kept, self.problem.params),
            "melds": len(plays),
        }
        return {goal.measure: score[goal.measure] for goal in self.rs.objective} or score

    def _stamp(self, answer: Answer) -> Answer:
        answer.seconds = self.budget.elapsed
        if answer.solvable is None:
            answer.limit = self.budget.spent or "time"
        answer.sat_calls = self.sat_calls + self.checker.sat_calls - self.calls0 + MaxSat.calls - self.maxsat_calls0
        return answer

    def _undecided(self, question: str) -> Answer:
        """Out of budget: the best verified turn found so far, if any, with the bound proved on
        the ruleset's first objective (undecided all the same: exit 3). Going out, the way out
        found first stands in until the optimiser has settled on one."""
        for mode, opt in self._optimisers.items():
            model = opt.maxsat.best_model
            if model is None and mode == "out":
                model = self.way_out
            if model is None:
                continue
            answer = self._decode(model, question)
            answer.solvable = None
            answer.limit = self.budget.spent or "time"
            answer.partial = True
            answer.bound = self._bound(opt, answer)
            return answer
        return self._stamp(Answer(solvable=None, question=question))

    def _bound(self, opt: Optimiser, answer: Answer) -> dict | None:
        """The first objective's value in the turn found and the best any turn can reach, as far
        as the optimiser's cores prove: their lower bound on the weight left unmet, read at the
        first level's scale (the levels below weigh less than one unit of it)."""
        if not self.rs.objective or not opt.levels:
            return None
        goal = self.rs.objective[0]
        level = opt.levels[0]
        unmet = opt.maxsat.lower_bound // level.scale
        best = (level.total - unmet if goal.sense == "maximize" else unmet) + level.offset
        return {
            "measure": level.measure,
            "sense": goal.sense,
            "found": answer.score.get(level.measure),
            "best_possible": best,
        }

    def _why(self, cards: bool = True) -> dict:
        """Cards that fit no legal meld, a small set of cards that cannot all be placed (with
        ``cards``), and the requirements of the route the hand fails."""
        why: dict = {"no_meld": self._lonely(), "core": self._core()} if cards else {}
        if self.route_counts is not None:
            placed = self.placed if self._all_cards() else None
            blamed = self.route_counts.blamed(placed, lambda assumed: self._satisfy(assumed) is not None)
            if blamed:
                why["requirements"] = [(self.route, requirement) for requirement in blamed]
        return why

    def _lonely(self) -> list:
        """The hand's cards that fit no legal meld."""
        fits = self.laid.built.fits() if self.laid is not None else set()  # structurally, for slots
        for o in self.options:  # the options judged already first: what they cover needs no new judgement
            if o.verified and self._verify(o):
                fits |= set(o.hand_faces)
        for o in sorted(self.options, key=lambda o: len(o.hand_faces)):
            new = set(o.hand_faces) - fits
            if new and self._verify(o):
                fits |= set(o.hand_faces)
        return sorted(set(self.problem.hand) - fits)

    def _core(self) -> list:
        """A small set of cards that cannot all be placed (melded or discarded): a core of the
        copies' accounting, minimised by deletion."""
        solver = self._live()
        units = [(face, a) for face, acc in self.accounted.items() for a in acc[: self.count[face]]]
        core = None
        assumptions = [a for _, a in units]
        self.sat_calls += 1
        if not solver.solve(assumptions, self.budget):
            core = set(solver.core() or assumptions)
            for lit in sorted(core):  # deletion-based minimisation
                trial = [a for a in assumptions if a in core and a != lit]
                self.sat_calls += 1
                if not solver.solve(trial, self.budget):
                    core = set(solver.core() or trial)
        return sorted(face for face, a in units if core and a in core)
