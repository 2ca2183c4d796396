"""A turn with single-card table operations, as one model.

What the turn can do to each table meld is a set of *forms* (:mod:`solver.melding.table.forms`);
the turn model (:class:`~solver.melding.turn.model.TurnModel`) chooses one form per table meld,
the new melds (of the hand and of the cards the forms take) and the discard, in one SAT/MaxSAT
model under one budget. The model counts cards, not order, so every turn it settles on is laid
out as single steps in an order the rules allow (:func:`~solver.melding.turn.layout.lay_out`). A
choice no order realises is forbidden as a whole and the solvers go on — part of verification,
like an illegal candidate meld.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Sequence

from solver.core import forked
from solver.core.deck import Face
from solver.core.errors import MeldsError, Undecided
from solver.melding.meld.checker import MeldChecker
from solver.melding.meld.points import hand_points, meld_points
from solver.melding.table.forms import Form, TableForms, shared_objects, table_forms
from solver.melding.table.operations import Operation, Table
from solver.melding.table.standins import undominated
from solver.melding.turn.layout import NewMeld, Step, lay_out, most_lent
from solver.melding.turn.problem import Answer, Play, Problem
from solver.melding.turn.solver import TurnSolver, verified
from solver.sat.budget import Budget
from solver.sat.encodings import TRUE
from solver.sat.solvers import TrueLiterals

# The tuned settings of a table turn (the measurements behind them: docs/performance.md)
# of a turn's time, the most the search of the table's forms takes: more forms against time for the model
FORMS_SHARE = 0.6
# under a deadline, a turn of more forms than this is first solved over the search's earlier rounds (its
# rungs, see TableTurn._climb): an answer where the whole model would not settle, against time taken from it
RUNGS_FROM = 2000
# of the time left, what each rung may take
RUNG_SHARE = 0.5
# the rungs only with this many seconds left once the forms are found: on less the whole model needs them
RUNGS_LEFT = 10.0
# a turn of more forms than this, for a player who has melded, is raced against the forms that stand in
# for the rest (TableTurn._raced), on two cores: two forks against a search of half the forms
STAND_INS_FROM = 2500


def _alone(turn: TableTurn, question: str) -> Answer:
    """(Run in a forked child, see ``TableTurn._raced``.) The turn's answer over every form, under
    a budget of its own, guarded as a query is (the parent's watchdog threads are not in the
    child; a watchdog of one solver call interrupts it once, and the calls after it would run)."""
    turn.budget = turn.budget.in_child()
    with turn.budget.guarding():
        try:
            return turn._answer(question)
        except Undecided:  # the guard's, from Python work between two solver calls
            return turn._undecided(question)


def _over_stand_ins(turn: TableTurn) -> Answer | None:
    """(Run in a forked child, see ``TableTurn._raced``.) The turn's best over the forms that stand
    in for the rest, when that settles the question: the first level's optimum is the whole
    model's (:mod:`solver.melding.table.standins`), and every level below is at its floor, 0 — the
    stand-ins may leave more cards in the hand, so a turn that keeps some might be bettered. None
    otherwise, or when no form was dropped (the same model as the parent's)."""
    stand_ins = [undominated(per_meld) for per_meld in turn.forms]
    if sum(map(len, stand_ins)) == sum(map(len, turn.forms)):
        return None
    budget = turn.budget.in_child()  # a budget of its own, guarded (see _alone)
    with budget.guarding(), turn.over(stand_ins, turn.extra, budget) as fewer:
        found = fewer.best()
    if found.solvable is None or any(found.score.get(goal.measure, 0) != 0 for goal in turn.rs.objective[1:]):
        return None
    return found


class TableTurn(TurnSolver):
    """The turn of a problem with table melds under a ruleset with operations (one model)."""

    # Glucose 4.2 as the optimiser's oracle: faster than MiniSat on large table models, slower to heed
    # an interrupt (only at a restart; still within the budgets' 10 % + 0.5 s). Hands without a table
    # keep MiniSat. Both settle on equal turns (tests/test_table_forms.py; docs/performance.md)
    oracle = "g42"

    def __init__(
        self,
        problem: Problem,
        checker: MeldChecker,
        budget: Budget,
        operations: Sequence[Operation],
        found: TableForms | None = None,
    ):
        """``found``: the table's forms, when they are known (a rung's, see :meth:`answer`)."""
        self.table_judge = Table(checker)
        for i, meld in enumerate(problem.table):
            if self.table_judge.reading(meld) is None:
                raise MeldsError(f"table meld {i + 1} is not a legal meld in its layout")
        ops = tuple(op for op in operations if op.effect != "recall" and (op.turns is None or problem.turn in op.turns))
        self.ops = ops
        if found is None:
            found = table_forms(
                self.table_judge, problem.table, problem.hand, problem.phase, ops, budget, share=FORMS_SHARE
            )
        self.forms_cut, self.earlier, self.extra = found.cut, found.earlier, found.extra
        super().__init__(problem, checker, budget, forms=found.forms, extra=found.extra, compact=True)
        rule = self.rule
        self.claim = problem.claimed if problem.turn == "claimed" and rule.claimed_in_new_meld else None
        self._laid: dict = {}
        self._lent: list[Counter] | None = None  # per table meld, the most it lends the hand (see _deadlock)
        self._borrowing_known = False  # see _learn

    def over(self, forms: list[list[Form]], extra: Sequence[Face], budget: Budget) -> TableTurn:
        """The same turn over fewer forms, all found (a rung's, the stand-ins'): a smaller model."""
        return TableTurn(self.problem, self.checker, budget, self.ops, TableForms(forms, list(extra), None, []))

    def _build(self) -> None:
        """The turn model's clauses, and those of the cards it cannot take at once."""
        if self.clauses is not None:
            return
        super()._build()
        assert self.clauses is not None, "the model is built"
        self.clauses += self._apart_clauses()

    def _apart_clauses(self) -> list[list[int]]:
        """Cards no turn can take from the table at once (:meth:`Takings.apart`), as binary clauses on the
        counts of the cards the hand has. The model implies them, but only through a search of
        the one meld's forms: a core that needs two such cards at once, which the optimiser must
        prove out of reach, cost it that search each time (docs/performance.md)."""
        held = Counter(self.problem.hand)
        clauses = []
        for (a, ka), (b, kb) in self.takings.apart():
            first, second = self.supply[a][held[a] + ka], self.supply[b][held[b] + kb]
            if first not in (None, TRUE) and second not in (None, TRUE):
                clauses.append([-first, -second])
        return clauses

    def answer(self, question: str) -> Answer:
        """The ``best`` turn or ``go-out`` (:meth:`_answer`); a large turn's best raced against the
        best over the forms that stand in for the rest (:meth:`_raced`)."""
        if not self._races(question):
            return self._answer(question)
        return self._raced(question)

    def _races(self, question: str) -> bool:
        """Is the turn raced against its stand-ins? The ``best`` turn of a player who has melded,
        with no claimed card to meld first (the stand-ins' condition, see
        :mod:`solver.melding.table.standins`), of more than :data:`STAND_INS_FROM` forms all found,
        under an objective of meld points first and, below them, only measures minimised (their
        floor, 0, is what lets the stand-ins' answer stand)."""
        goals = self.rs.objective
        return (
            question == "best"
            and forked.AVAILABLE
            and self.problem.has_melded
            and self.claim is None
            and self.forms_cut is None
            and sum(map(len, self.forms)) > STAND_INS_FROM
            and bool(goals)
            and goals[0].measure == "meld_points"
            and goals[0].sense == "maximize"
            and all(goal.sense == "minimize" for goal in goals[1:])
        )

    def _raced(self, question: str) -> Answer:
        """Two searches at once, each in a forked child, on two cores: the whole model
        (:meth:`_answer`) and the stand-ins' (:func:`_over_stand_ins`). The first answer that
        settles the question is taken and the other child killed — at once: a solver told to
        stop may take a second or more to heed it (Glucose looks only when it restarts), a
        killed child none. The whole model's answer is the answer unless the stand-ins' settles
        first; a whole-model child that fails leaves the search to this process. Past the
        deadline the children's own budgets end them (the whole model's with the best turn it
        found), as the search would end here; past what ``--max-seconds`` promises
        (:meth:`~solver.sat.budget.Budget.grace`) this process answers undecided without it."""
        settled = threading.Event()
        standing: list[Answer] = []

        def stands(found: Answer | None) -> None:
            if found is not None:
                standing.append(found)
                settled.set()

        shared = shared_objects(self.rs, self.ops)
        with (
            forked.Forked(lambda: _over_stand_ins(self), shared, stands),
            forked.Forked(lambda: _alone(self, question), shared, lambda _: settled.set()) as whole,
        ):
            while not whole.done and not standing:
                try:
                    settled.wait(0.5)
                except Undecided:  # the query's guard, past the deadline: the child ends itself
                    if not whole.result(self.budget.grace()):
                        raise
            answer = standing[0] if standing else whole.result(0.0)
        if answer is None:  # the child failed (whole.error): the search here, if there is time
            self.budget.check()
            return self._answer(question)
        answer.seconds = self.budget.elapsed
        return answer

    def _answer(self, question: str) -> Answer:
        """The ``best`` turn or ``go-out`` over every form. Under a deadline, a turn of many forms
        (more than :data:`RUNGS_FROM`) is solved first over the forms of the search's earlier rounds, the
        rungs (:meth:`_climb`). Each rung's forms are real forms, fewer of them — a smaller model,
        often solved in a fraction of the time — so a turn the whole model cannot settle in time
        is answered, undecided, with the better of what it found and the rungs' best, not with
        whatever the optimiser held when the time ran out. An answer the whole model settles stands."""
        found = self._climb(question)
        answer = self.best() if question == "best" else self.go_out()
        if answer.solvable is not None or found is None or self._ranked(found) <= self._ranked(answer):
            return answer
        # the rung's turn, with the whole model's standing: undecided, its proved bound kept
        if not (question == "go-out" and found.solvable):  # a way out is one, found on any rung
            found.solvable, found.partial, found.why = None, True, None
            found.limit = answer.limit or self.budget.spent or "time"
            measure = answer.bound["measure"] if answer.bound else None
            found.bound = {**answer.bound, "found": found.score.get(measure)} if answer.bound else None
        found.seconds = self.budget.elapsed
        found.sat_calls = (found.sat_calls or 0) + (answer.sat_calls or 0)
        return found

    def _climb(self, question: str) -> Answer | None:
        """The best answer of the rungs: the earlier rounds' forms of at most half as many forms
        as the whole (a rung near the whole's size costs near its time), smallest first, each
        under :data:`RUNG_SHARE` of the time left, until one is left undecided (a larger one
        would be too). None when the turn has few forms or no deadline (the whole model is
        solved in time, or given all the time there is), or less than :data:`RUNGS_LEFT` seconds
        are left (the whole model needs them more)."""
        total = sum(map(len, self.forms))
        left = self.budget.left()  # (None: no deadline)
        if left is None or total <= RUNGS_FROM or left < RUNGS_LEFT:
            return None
        best = None
        for forms, extra in self.earlier:
            if 2 * sum(map(len, forms)) > total:
                break
            try:
                with self.over(forms, extra, self.budget.part(RUNG_SHARE)) as rung:
                    found = rung.best() if question == "best" else rung.go_out()
            except (Undecided, MeldsError):
                break
            if best is None or self._ranked(found) > self._ranked(best):
                best = found
            if found.solvable is None:
                break
        return best

    def _ranked(self, answer: Answer) -> tuple:
        """An answer's turn, ranked by the ruleset's objective (higher is better; no turn: lowest)."""
        if not answer.score:
            return (0,)
        return (1,) + tuple(
            answer.score.get(g.measure, 0) * (1 if g.sense == "maximize" else -1) for g in self.rs.objective
        )

    def go_out(self, why_cards: bool = True) -> Answer:
        return self._as_found(super().go_out(why_cards))

    def best(self, question: str = "best") -> Answer:
        return self._as_found(super().best(question))

    def _as_found(self, answer: Answer) -> Answer:
        """An answer over the forms of an unfinished search (:func:`table_forms` past its share of
        the time, or a meld past the layouts it follows) is the best turn found, not a proven one:
        undecided, its bound unknown, the limit the search met named — but a way out it found
        answers going out (yes, by that way, perhaps not the best)."""
        if self.forms_cut is None or answer.solvable is None and not answer.partial:
            return answer
        if answer.question == "go-out" and answer.solvable:
            return answer
        answer.solvable, answer.partial, answer.bound, answer.why = None, True, None, None
        answer.limit = self.budget.spent or self.forms_cut
        return answer

    def _chosen_forms(self, model: list[int], unchanged: bool = False) -> list[tuple[Form, int]]:
        """The forms a model chooses (those that change their meld; ``unchanged``: every meld's)."""
        true = TrueLiterals(model)
        return [
            (form, lit)
            for per_meld in self.form_lits
            for form, lit in per_meld
            if (unchanged or not form.unchanged) and lit in true
        ]

    def _learn(self, model: list[int], weights_matter: bool) -> bool:
        """Verification, and then the order: a choice no order of steps realises is forbidden.
        At the first such choice, every form's need of cards it borrows from other melds is added
        too (:meth:`_borrow_clauses`)."""
        if super()._learn(model, weights_matter):
            return True
        if self._steps(model) is None:
            if not self._borrowing_known:
                self._borrowing_known = True
                for clause in self._borrow_clauses():
                    self._add_hard(clause)
            self._add_hard(self._failed_order(model))
            return True
        return False

    def _borrow_clauses(self) -> list[list[int]]:
        """A form whose path plays, at some step, a card neither the hand nor its own earlier
        steps hold needs a form of another meld whose path takes that card. The cards counted
        (played against taken) miss it when the form gives the card back later, and only laying
        the turn out finds it: on one table the optimiser offered hundreds of such forms, each
        refused in turn. Added only once a turn has failed to be laid out (:meth:`_learn`): on the
        turns that never do, these clauses only slowed the optimiser.

        A card that many forms of a meld borrow and many forms of the others pass goes through a
        literal, "a meld other than this one passes it", so each borrowing form needs one binary
        clause: listing the givers in every borrowing form's clause makes such clauses millions of
        literals long on a large table, and adding them cost more than using them."""
        hand = Counter(self.problem.hand)
        passing: list[dict[Face, list[int]]] = []  # per table meld: card -> its forms whose path takes it
        for per_meld in self.form_lits:
            by_card: dict[Face, list[int]] = {}
            for form, lit in per_meld:
                for face in form.passes:
                    by_card.setdefault(face, []).append(lit)
            passing.append(by_card)
        clauses = []
        for t, per_meld in enumerate(self.form_lits):
            needing: dict[Face, list[int]] = {}  # card -> the meld's forms that borrow it
            for form, lit in per_meld:
                for face in form.borrows(hand):
                    needing.setdefault(face, []).append(lit)
            for face, lits in needing.items():
                givers = [other for u, by_card in enumerate(passing) if u != t for other in by_card.get(face, ())]
                if len(lits) * len(givers) <= len(givers) + 2 * len(lits):  # as short written out
                    clauses += [[-lit] + givers for lit in lits]
                    continue
                elsewhere = self.pool.new()  # a meld other than t passes the card
                clauses.append([-elsewhere] + givers)
                clauses += [[-lit, elsewhere] for lit in lits]
        return clauses

    def _failed_order(self, model: list[int]) -> list[int]:
        """The nogood of a model no order lays out, as general as is sound.

        After one's own meld, with no claimed card to meld first, new melds are made last from
        what the forms leave in the hand — which the model's counts already guarantee — so only
        the forms' interleaving can fail, and the nogood is a few forms (:meth:`_deadlock`).
        Else the new melds matter: the whole choice is forbidden, every meld's form in it (a
        form of a meld left unchanged could supply a card), and, before one's own meld, every
        other new meld too (a turn with one meld more, made first, may be laid out)."""
        every = self._chosen_forms(model, unchanged=True)
        if self.problem.has_melded and self.claim is None:
            return [-lit for lit in self._deadlock(every)]
        true = TrueLiterals(model)
        chosen = {o.var for o in self._chosen(model)}
        clause = [-lit for _, lit in every] + [-var for var in chosen]
        if self.laid is not None:
            clause += self.laid.nogood(true)
        if not self.problem.has_melded:
            clause += [
                o.var for o in self.options if o.table is None and o.var not in chosen and o.var not in self.forbidden
            ]
            if self.laid is not None:
                clause += [p for p in self.laid.built.passing() if p not in true]
        return clause

    def _deadlock(self, every: list[tuple[Form, int]]) -> list[int]:
        """Of a model's forms (one per table meld, unchanged ones included) that no order lays
        out, a few that no model can lay out together: the nogood of a failed order made
        general. Forbidding only the whole combination let the optimiser offer the same deadlock
        again with one form more or less, hundreds of times (cards traded around a ring of table
        melds).

        Sound for a player who has melded, with no claimed card to meld first: then new melds go
        last and only the forms' interleaving can fail. A meld whose form is left out of the
        nogood may have any form in another model, which can only add, to what the kept forms
        hold at any moment, what its path has taken so far less what it has played
        (:func:`~solver.melding.turn.layout.most_lent`); so kept forms that cannot be laid out even
        holding all those cards from the start fail in every model that has them. Forms are dropped one at a time
        while that stays so: unchanged melds first (each pinned only if its cards were needed),
        then the changed."""
        table = self.problem.table
        if self._lent is None:
            self._lent = [most_lent(per_meld) for per_meld in self.forms]
        lent = self._lent

        def fails(subset: list[tuple[Form, int]]) -> bool:
            self.budget.check()
            kept = {form.table for form, _ in subset}
            supply = sum((lent[i] for i in range(len(table)) if i not in kept), Counter())
            forms = [form for form, _ in subset if not form.unchanged]
            return lay_out(self.problem, None, forms, [], self._start_points(forms), supply) is None

        changed = [item for item in every if not item[0].unchanged]
        if changed and fails(changed):
            core = changed  # no unchanged meld's cards would help
        else:
            core = [item for item in every if not item[0].unchanged or lent[item[0].table]]
            for item in [item for item in core if item[0].unchanged]:
                rest = [c for c in core if c is not item]
                if fails(rest):
                    core = rest
        for item in [item for item in core if not item[0].unchanged]:
            if len(core) > 1:
                rest = [c for c in core if c is not item]
                if fails(rest):
                    core = rest
        return [lit for _, lit in core]

    def _steps(self, model: list[int]) -> list[Step] | None:
        forms = [form for form, _ in self._chosen_forms(model)]
        true = TrueLiterals(model)
        melds = [NewMeld(o.hand_faces, verified(self.reading_of(o, true)), o.weight) for o in self._chosen(model)]
        laid = self.laid.melds(TrueLiterals(model)) if self.laid is not None else []
        melds += [NewMeld(faces, reading, points) for faces, reading, points in laid]
        key = (
            tuple(id(f) for f in forms),
            tuple(sorted(o.var for o in self._chosen(model))),
            tuple(sorted(tuple(f.index for f in faces) for faces, _, _ in laid)),
        )
        if key not in self._laid:
            self._laid[key] = lay_out(self.problem, self.claim, forms, melds, self._start_points(forms))
        return self._laid[key]

    def _start_points(self, forms: Sequence[Form]) -> list[int]:
        """The meld points each form's table meld had before the turn (what its steps add to)."""
        return [meld_points(verified(self.table_judge.reading(self.problem.table[f.table]))) for f in forms]

    def _decode(self, model: list[int], question: str) -> Answer:
        steps = self._steps(model) or []
        true = TrueLiterals(model)
        discard = next((f for f in self.faces if self.discard_lit[f] in true), None)
        hand = Counter(self.problem.hand)
        for step in steps:
            hand = hand - Counter(step.played) + Counter(step.taken)
        if discard is not None:
            hand[discard] -= 1
        kept = sorted(hand.elements())
        plays = [Play(s.played, s.reading, s.points, None) for s in steps if s.action == "meld"]
        plays += [Play(s.played, s.reading, s.points, s.table) for s in steps if s.action == "layoff"]
        answer = Answer(solvable=not kept, question=question, plays=plays, discard=discard, kept=kept, steps=steps)
        scores = {
            "meld_points": sum(s.points for s in steps),
            "hand_points": hand_points(self.rs, kept, self.problem.params),
            "melds": sum(s.action == "meld" for s in steps),
        }
        answer.score = {g.measure: scores[g.measure] for g in self.rs.objective} or scores
        answer.phase_after = self.problem.phase
        return self._stamp(answer)

    def _why(self, cards: bool = True) -> dict:
        """Cards that fit no new meld and no operation on the table (asked with ``cards`` or not:
        a table turn's why is its cards)."""
        hand = set(self.problem.hand)
        fits = self.laid.built.fits() if self.laid is not None else set()  # structurally, for slots
        fits |= {f for o in self.options if set(o.hand_faces) & hand and self._verify(o) for f in o.hand_faces}
        fits |= {f for per_meld in self.forms for form in per_meld for f in form.played}
        return {"no_meld": sorted(hand - fits), "core": []}
