"""The model of one turn, built once: candidate melds as options, their cards counted per face,
the turn rule, going out and each requirement under a literal of its own; live solvers over it,
and what verification of the options they choose teaches them.

Candidates are structural (:mod:`solver.melding.meld.candidates`), so each option a solver picks is
judged by :class:`MeldChecker` — the same rules as ``melds check``, ambiguity included — and its
true points computed (:meth:`TurnModel._learn`). An illegal option is forbidden, a reading of
another kind is recorded, an option worth less than its bound takes the difference back through
a soft clause: all added to every live solver, whose search goes on from where it stood. Bounds
only ever fall to the truth, so a fully verified optimum is optimal. TurnSolver asks the questions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import compress
from operator import itemgetter

from solver.core.deck import Face
from solver.melding.meld.candidates import Candidate, merged
from solver.melding.meld.checker import MeldChecker
from solver.melding.meld.encode import Reading
from solver.melding.meld.points import cards_score, verified
from solver.melding.table.forms import Form
from solver.melding.table.takings import Takings
from solver.melding.turn.accounting import account_cards
from solver.melding.turn.firstmeld import first_meld_clauses, first_meld_due
from solver.melding.turn.hooks import SwapHooks
from solver.melding.turn.objective import Optimiser, objective
from solver.melding.turn.problem import Problem, validate_problem
from solver.melding.turn.routecount import Countable, RouteCounts, own_melds, shown_counts
from solver.melding.turn.routes import GoOutRoute, Requirement
from solver.melding.turn.ruleclauses import requirement_clauses, turn_rule_clauses
from solver.melding.turn.shares import Level, Soft, one_of_pays
from solver.melding.turn.slots import LaidOut, expressible
from solver.sat import encodings
from solver.sat.budget import Budget
from solver.sat.lazymaxsat import ORACLE, LazyMaxSat
from solver.sat.pool import VarPool
from solver.sat.solvers import MaxSat, SatSolver, TrueLiterals


@dataclass
class _Option:
    """A way to play some hand cards: a new meld or a lay-off (an extension of a table meld)."""

    var: int
    candidate: Candidate
    hand_faces: tuple[Face, ...]
    table: int | None
    all_faces: tuple[Face, ...]
    weight: int  # current meld-points bound
    verified: bool = False
    reading: Reading | None = None
    twin_of: _Option | None = None  # the same meld made once more: used only after its twin
    also: tuple[Reading, ...] = ()  # other kinds that read it too, when the ruleset lets the player say


class TurnModel(SwapHooks):
    """One problem's model and its live solvers: one SAT solver for the yes/no questions (going out,
    counting, why not, seeing), asked with assumptions, and one MaxSAT optimiser per objective
    question, driven through all its rounds; nothing is rebuilt."""

    shares = True  # meld points paid to the cards (shares.py); False: one soft clause a candidate
    slot_limit = 2000  # with ``compact``, sequence kinds with more candidates than this are laid out (lines.py)
    oracle = ORACLE  # the optimiser's SAT solver (TableTurn chooses its own for its larger models)

    def __init__(
        self,
        problem: Problem,
        checker: MeldChecker | None = None,
        budget: Budget | None = None,
        claim_met: bool = False,
        route: GoOutRoute | None = None,
        requirements: Sequence[Requirement] = (),
        forms: Sequence[Sequence[Form]] = (),
        extra: Sequence[Face] = (),
        compact: bool = False,
    ):
        """``forms``: with table operations, what each table meld may become
        (:func:`~solver.melding.table.forms.table_forms`), one chosen per meld; ``extra``: the cards
        those forms may take from the table, beyond the hand's. ``compact``: sequence kinds whose
        candidates would be too many may be laid out in slots (no counting of the ways then: a
        way laid out in other slots is the same way)."""
        self.compact = compact
        self.forms = [list(per_meld) for per_meld in forms]
        self.claim_met = claim_met  # a claimed turn whose claimed card is already melded
        self.route = route  # a way to go out, or None: every kind, every card
        self.requirements = tuple(requirements)  # melds to show instead of going out (see())
        self.seeing = bool(self.requirements)
        self.problem = problem
        rs = problem.ruleset
        self.rs = rs
        self.checker = checker or MeldChecker(rs)
        self.own_checker = checker is None
        self.budget = budget or Budget()
        self.calls0 = self.checker.sat_calls
        self.maxsat_calls0 = MaxSat.calls
        self.sat_calls = 0
        self.rule = problem.turn_rule()
        self.layoff_rule = rs.layoff_rule()
        self._validate()
        self.count = Counter(problem.hand)
        self.takings = Takings.of(self.forms)  # which forms of each table meld take which cards
        # the most copies of each card the turn may hold: the hand's, what the forms may take, what more it may draw
        self.supply_top = self.count + self.takings.most() + self._drawable()
        self.faces = sorted(set(self.count) | set(extra) | set(self.supply_top))
        # with forms, whether the turn can hold some cards at once (one form per table meld gives them)
        self.holdable = self.takings.holdable(problem.hand) if self.forms else None
        self.pool = VarPool()
        self.goal = self.pool.new()  # assumed (or asserted) when the question is going out
        self.options: list[_Option] = []
        self._option_index: tuple[int, int, Callable | None] | None = None  # (options indexed, top var, getter)
        self._chosen_last: tuple[list[int], list[_Option]] | None = None  # (model, its options)
        self.forbidden: set[int] = set()
        self._table_cache: dict[int, int] = {}
        self.laid: LaidOut | None = None  # the kinds laid out in slots, if any
        self._collect_options()
        self.clauses: list[list[int]] | None = None  # the model, built on the first question
        self._sat: SatSolver | None = None
        self._optimisers: dict[str, Optimiser] = {}
        self.way_out: list[int] | None = None  # a verified model that goes out, once one is found

    def close(self) -> None:
        if self._sat is not None:
            self._sat.close()
        for opt in self._optimisers.values():
            opt.maxsat.close()
        if self.own_checker:
            self.checker.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _validate(self) -> None:
        validate_problem(self.problem, self.checker, self.claim_met)

    def _kinds(self):
        phase = self.problem.phase
        allowed = self._route_kinds()
        return [
            k
            for k in self.rs.kinds
            if (phase is None or k.phase in (None, phase)) and (allowed is None or k.id in allowed)
        ]

    def _route_kinds(self) -> set | None:
        if self.seeing:
            return {k for req in self.requirements for k in req.kinds}
        return set(self.route.kinds) if self.route is not None else None

    def _collect_options(self) -> None:
        hand = [f for f in self.faces for _ in range(self.supply_top[f])]  # the table's cards too
        self._top_of = {f.index: n for f, n in self.supply_top.items()}  # copies of each face, by number
        kinds = self._kinds()
        found: list[Candidate] | None = []
        if self._may_lay_out():
            lined = [k for k in kinds if expressible(k)]
            found = self._candidates(hand, lined, limit=self.slot_limit)
            if found is None:  # too many to name: laid out in slots instead
                self.laid, found = LaidOut(lined), []
            kinds = [k for k in kinds if k not in lined]
        for cand in merged(found or [], self._candidates(hand, kinds) or []):
            faces = tuple(map(hand.__getitem__, cand.cards))
            if self.holdable is None or self.holdable(faces):  # else no turn could make it
                self._add_option(cand, faces, None, faces)
        if self.layoff_rule is None or self.forms:  # with operations, a lay-off is a form
            return
        for t_index, table in enumerate(self.problem.table):
            self.budget.check()
            pool = list(table.faces) + hand
            for cand in self._candidates(pool, kinds, required=range(len(table.faces))) or []:
                played = tuple(pool[i] for i in cand.cards if i >= len(table.faces))
                self._add_option(cand, played, t_index, tuple(pool[i] for i in cand.cards))

    def _may_lay_out(self) -> bool:
        """Slots hold a plain turn: no lay-offs (table melds change by forms, if at all), no route
        or requirements, every card once (the table's too), an objective of meld and hand points."""
        return (
            self.compact
            and (not self.problem.table or bool(self.forms))
            and self.route is None
            and not self.seeing
            and self.rule.max_new_melds is None
            and max(self.supply_top.values()) == 1
            and {g.measure for g in self.rs.objective} <= {"meld_points", "hand_points"}
            and first_meld_due(self.problem) is None
        )

    def _add_option(self, cand: Candidate, hand_faces, table, all_faces) -> None:
        """One option per time the meld can be made: with several copies of its cards (two or three
        decks) the same meld may be made twice. Later copies need the earlier ones (so copies
        of one meld are interchangeable in one order only: the symmetry is broken)."""
        times = 1 if table is not None else cand.times(self._top_of)
        bound = cand.bound
        if table is not None:  # a lay-off earns what it adds to one's own meld (or its cards' points)
            bound = max(0, bound - self._table_points(table)) if self._earns(table) else 0
        previous = None
        for _ in range(times):
            option = _Option(
                self.pool.new(),
                cand,
                hand_faces,
                table,
                all_faces,
                bound,
                twin_of=previous,
            )
            self.options.append(option)
            previous = option

    def _verify(self, opt: _Option) -> bool:
        """Judge an option with the checker; record its true points. False if illegal."""
        if opt.twin_of is not None and not opt.verified:
            legal = self._verify(opt.twin_of)
            twin = opt.twin_of
            opt.verified, opt.reading, opt.also, opt.weight = True, twin.reading, twin.also, twin.weight
            if not legal:
                self.forbidden.add(opt.var)
            return legal
        if not opt.verified:
            self.budget.check()
            verdict, points = self.checker.best_points(
                opt.all_faces, phase=self.problem.phase, params=self.problem.params
            )
            opt.verified = True
            allowed = self._route_kinds()
            readings = [r for r in verdict.every_reading if allowed is None or r.kind.id in allowed]
            if not verdict.legal or not readings:
                self.forbidden.add(opt.var)
                opt.reading = None
                return False
            opt.reading, opt.also = readings[0], tuple(readings[1:])
            if opt.table is None:
                opt.weight = points
            elif self._earns(opt.table):  # what the lay-off adds to one's own meld
                opt.weight = max(0, points - self._table_points(opt.table))
            else:  # points of others' melds are theirs
                opt.weight = 0
        return opt.var not in self.forbidden

    def _earns(self, t: int) -> bool:
        return self.problem.table[t].mine or cards_score(self.rs)

    def _table_points(self, t: int) -> int:
        if t not in self._table_cache:
            self._table_cache[t] = self.checker.best_points(self.problem.table[t].faces, phase=self.problem.phase)[1]
        return self._table_cache[t]

    def _learn(self, model: list[int], weights_matter: bool) -> bool:
        """Verify the options a model chose; tell every live solver what that taught. True when
        the model no longer stands (an option was illegal, or read as another kind than the
        model counted it; with ``weights_matter``, worth less than its bound)."""
        true = TrueLiterals(model)
        changed = False
        for o in self._chosen(model):
            if o.verified:
                continue
            bound = o.weight
            if not self._verify(o):
                self._add_hard([-o.var])
                changed = True
                continue
            if o.weight < bound:
                self._lowered(o)
                changed |= weights_matter
            changed |= self._learn_counts(o, true)
            needs = verified(o.reading).kind.phase
            if needs is not None and needs in self.phase_lit:
                self._add_hard([-o.var, self.phase_lit[needs]])
                changed |= self.phase_lit[needs] not in true
            if all(r.kind.going_out_only for r in (verified(o.reading), *o.also)):  # only a way out makes it
                self._add_hard([-o.var, self.goal])
                changed |= self.goal not in true
            for i, member in self._members.get(o.var, ()):
                if verified(o.reading).kind.id not in self.requirements[i].kinds:
                    self._add_hard([-member])
                    changed |= member in true
        if self.laid is not None:
            changed |= self.laid.learn(self, true, weights_matter)
        return changed

    def _add_hard(self, clause: list[int]) -> None:
        """A clause learnt after the build: into the model and every live solver."""
        self._build().append(clause)
        if self._sat is not None:
            self._sat.add(clause)
        for opt in self._optimisers.values():
            opt.maxsat.add_hard(clause)

    def _lowered(self, o: _Option) -> None:
        """An option's true weight is below the bound its soft clause was given: a soft clause on
        its negation takes the difference back (choosing it now gains only its true weight)."""
        for opt in self._optimisers.values():
            given = opt.given.get(o.var)
            if given is not None and given > o.weight:
                opt.maxsat.add_soft([-o.var], (given - o.weight) * opt.meld_scale)
                opt.given[o.var] = o.weight

    def _build(self) -> list[list[int]]:
        """The turn's clauses, once: every option (its card uses counted per face), the discard
        and the turn rule; going out guarded by ``self.goal`` and each requirement by its
        selector, so that every question is a set of assumptions on the same clauses."""
        if self.clauses is not None:
            return self.clauses
        rule, pool = self.rule, self.pool
        options = self.options
        clauses: list[list[int]] = [[-o.var] for o in options if o.var in self.forbidden]
        clauses += [[-o.var, o.twin_of.var] for o in options if o.twin_of is not None]
        discard = self.discard_lit = {f: pool.new() for f in self.faces}
        self.d_lits = list(discard.values())
        uses: dict[Face, list[int]] = {f: [] for f in self.faces}
        for o in options:
            if o.var not in self.forbidden:
                for f in o.hand_faces:
                    uses[f].append(o.var)
        self.phase_lit = self._phase_literals()
        if self.laid is not None:
            self.laid.build(self, clauses, uses)
        releases = self._form_clauses(clauses, uses)
        self._swap_clauses(clauses, uses, releases)
        accounting = account_cards(
            self.faces,
            self.count,
            self.supply_top,
            uses,
            releases,
            discard,
            rule.discard == "optional",
            pool,
            clauses,
            self.budget.check,
        )
        self.accounting = accounting
        self.supply, self.accounted = accounting.supply, accounting.accounted
        live = [o for o in options if o.var not in self.forbidden]
        slot_uses = self.laid.built.uses if self.laid is not None else {}
        rules = (rule, self.layoff_rule)
        clauses += turn_rule_clauses(self.problem, rules, live, (discard, self.count), slot_uses, pool)
        clauses += first_meld_clauses(self.problem, live, self._verify, self.checker, self.pool)
        self.placed = self._placed_literal(clauses)
        if self._all_cards() and not self.seeing:
            clauses += accounting.going_out(self.placed)
        clauses += self._phase_clauses(live)
        self.route_counts: RouteCounts | None = None
        self._members: dict[int, list[tuple[int, int]]] = {}
        self.requirement_lits: list[int] = []
        if self.seeing:
            p = self.problem
            shown_kinds = [shown.kind for shown in shown_counts(p.shown, self.checker, p.params)]
            shown = requirement_clauses(self.requirements, live, self._kinds_of, shown_kinds, pool)
            clauses += shown.clauses
            self.requirement_lits, self._members = shown.selectors, shown.members
        elif self.route is not None:
            clauses += self._route_clauses(live, self.route)
        self.clauses = clauses
        return clauses

    def _form_clauses(self, clauses: list[list[int]], uses: dict[Face, list[int]]) -> dict[Face, list[int]]:
        """One form per table meld (its literal in ``self.form_lits``); the cards a form plays
        join ``uses``; the cards it takes are returned per face (they add to the hand). Before
        the player's own first meld, a form whose operations need one needs a new meld this turn
        (made first; the order is checked when the turn is laid out)."""
        releases: dict[Face, list[int]] = {}
        self.form_lits: list[list[tuple[Form, int]]] = []
        new_melds = [o.var for o in self.options if o.table is None and o.var not in self.forbidden] + (
            self.laid.built.passing() if self.laid is not None else []
        )
        for per_meld in self.forms:
            lits = [(form, self.pool.new()) for form in per_meld]
            self.form_lits.append(lits)
            clauses.append([lit for _, lit in lits])
            clauses += encodings.at_most_one([lit for _, lit in lits], self.pool)
            # counted a meld at a time, not a form: a meld of wilds has a thousand forms taking a wild,
            # and a counter over them would be most of the model (docs/performance.md)
            holders: dict[int, int] = {}
            for face, steps in encodings.choice_counts(
                [(lit, form.played) for form, lit in lits], self.pool, clauses, holders
            ).items():
                uses[face] += steps
            for face, steps in encodings.choice_counts(
                [(lit, form.taken) for form, lit in lits], self.pool, clauses, holders
            ).items():
                releases.setdefault(face, []).extend(steps)
            # what the form chosen plays, takes and gains (steps above the least), related directly: a
            # proof's conflicts were two melds of wilds trading cards, form by form (docs/performance.md)
            least = min(form.gain for form, _ in lits)
            gains = [(lit, [None] * (form.gain - least)) for form, lit in lits]
            encodings.choice_counts(gains, self.pool, clauses, holders)
            clauses += encodings.choice_implied(holders, len(lits))
            for form, lit in lits:
                if not self.problem.has_melded and form.restricted - {"allowed"}:
                    clauses.append([-lit] + new_melds)
        return releases

    def _all_cards(self) -> bool:
        """Going out places every card (else the route says which)."""
        return self.route is None or self.route.all_cards

    def _phase_literals(self) -> dict[str, int]:
        """With the field's phase not given: a literal for each phase some kind is bound to."""
        if self.problem.phase is not None:
            return {}
        return {phase: self.pool.new() for phase in sorted({k.phase for k in self.rs.kinds if k.phase is not None})}

    def _phase_clauses(self, live: list[_Option]) -> list[list[int]]:
        """With the field's phase not given, a turn still happens in one phase: melds bound to a
        phase (相生 chains in 陽場, 相克 in 陰場) need its literal, and at most one is true. An
        option readable both ways learns its phase when verified."""
        if not self.phase_lit:
            return []
        bound = {k.id: k.phase for k in self.rs.kinds if k.phase is not None}
        clauses = encodings.at_most_one(list(self.phase_lit.values()), self.pool)
        for o in live:
            kinds = self._kinds_of(o)
            if all(k in bound for k in kinds):  # every reading is phase-bound
                clauses.append([-o.var] + [self.phase_lit[ph] for ph in sorted({bound[k] for k in kinds})])
        return clauses

    def phase_of(self, model: list[int]) -> str | None:
        """The phase a model's turn was played in (None: it needs none)."""
        true = TrueLiterals(model)
        return next((ph for ph, lit in self.phase_lit.items() if lit in true), None)

    def _placed_literal(self, clauses: list[list[int]]) -> int:
        """The literal of "every card placed": going out itself, or — for a route with requirements,
        each under a literal of its own — one that going out implies (the why of a hand that places
        every card but fails a requirement leaves a requirement out, not the cards)."""
        if self.route is None or not self.route.checks:
            return self.goal
        placed = self.pool.new()
        clauses.append([-self.goal, placed])
        return placed

    def _route_clauses(self, live: list[_Option], route: GoOutRoute) -> list[list[int]]:
        """The route's requirements when going out (:mod:`~solver.melding.turn.routecount`): so many
        melds of some kinds (counting the player's melds already shown), the hand's value."""
        self.route_counts = RouteCounts(route, self.pool)
        mine = [o for o in live if o.table is None or self.problem.table[o.table].mine]  # a lay-off: made anew
        melds = [Countable(o.var, self._kinds_of(o), len(o.all_faces), o.reading, o.also) for o in mine]
        extended = {t: [o.var for o in live if o.table == t] for t, m in enumerate(self.problem.table) if m.mine}
        own, standing, clauses = own_melds(self.problem.table, extended, self.checker, self.problem.params, self.pool)
        counted = shown_counts([*self.problem.shown, *standing], self.checker, self.problem.params)
        clauses += [] if route.discards else [[-self.goal, -d] for d in self.d_lits]  # the way out discards nothing
        return clauses + self.route_counts.clauses(
            self.goal, melds + own, counted, self.accounting, self.problem.card_points
        )

    def _learn_counts(self, o: _Option, true: TrueLiterals) -> bool:
        """A verified meld fixes whether it counts toward the route's requirements; True when the
        model counted it otherwise."""
        if self.route_counts is None or (o.table is not None and not self.problem.table[o.table].mine):
            return False
        changed = False
        for clause in self.route_counts.learn(o.var, (verified(o.reading), *o.also), len(o.all_faces)):
            self._add_hard(clause)
            changed |= not any(lit in true for lit in clause)
        return changed

    def reading_of(self, o: _Option, true: TrueLiterals) -> Reading | None:
        """The reading an option is made as: of the kinds that read it, the one the route counted."""
        if not o.also or self.route_counts is None:
            return o.reading
        return (o.reading, *o.also)[self.route_counts.chosen(o.var, true)]

    def _kinds_of(self, o: _Option) -> frozenset:
        """The kinds an option is read as: the verdict's once verified, else structural."""
        if o.reading is None:
            return o.candidate.kinds
        return frozenset([o.reading.kind.id, *(r.kind.id for r in o.also)])

    def _objective(self, mode: str = "any") -> tuple[list[Soft], dict[int, int], list[Level]]:
        """The objective's soft clauses, the weight each option was given at the meld-points level,
        and per level its :class:`Level` (:func:`~solver.melding.turn.objective.objective`).
        ``mode``: "any" turn or going "out"."""
        live = [o for o in self.options if o.var not in self.forbidden]
        once = {f for f, top in self.supply_top.items() if top == 1} if self.shares else set()
        return objective(
            self.rs,
            [(o.var, o.weight, [f for f in o.hand_faces if f in once]) for o in live if o.weight > 0],
            [o.var for o in live],
            self.laid,
            self._form_gains(),
            self.accounting,
            keeps_no_card=mode == "out" and self._all_cards(),
            points=self.problem.card_points,
        )

    def _form_gains(self) -> tuple[list[Soft], int]:
        """Meld points the forms add to (or take from) the player's own melds, as soft clauses,
        and the offset that makes their satisfied weight the points (one form per table meld)."""
        return one_of_pays([[(lit, form.gain) for form, lit in per_meld] for per_meld in self.form_lits])

    def _live(self) -> SatSolver:
        """The live SAT solver over the model."""
        clauses = self._build()
        if self._sat is None:
            self._sat = SatSolver(clauses, ORACLE)  # finds a way out faster than Glucose 3 (docs/performance.md)
        return self._sat

    def _satisfy(self, assumptions: Sequence[int] = ()) -> list[int] | None:
        """A model under ``assumptions`` whose every option is verified legal, or None."""
        solver = self._live()
        while True:
            self.sat_calls += 1
            if not solver.solve(assumptions, self.budget):
                return None
            model = solver.model()
            if not self._learn(model, weights_matter=False):
                return model

    def _chosen(self, model: list[int]) -> list[_Option]:
        """The options a model makes. Asked a few times per verification round of the same model,
        over tens of thousands of options in a large table turn: read from the model by index in
        C (itemgetter, compress) and kept for the model last asked."""
        if self._chosen_last is not None and self._chosen_last[0] is model:
            return self._chosen_last[1]
        options = self.options
        if self._option_index is None or self._option_index[0] != len(options):
            self._option_index = (
                len(options),
                max((o.var for o in options), default=0),
                itemgetter(*(o.var - 1 for o in options)) if len(options) >= 2 else None,
            )
        _, top, getter = self._option_index
        if (
            getter is None
            or top > len(model)
            or any(model[o.var - 1] != o.var and model[o.var - 1] != -o.var for o in (options[0], options[-1]))
        ):
            true = TrueLiterals(model)
            chosen = [o for o in options if o.var in true]
        else:
            chosen = list(compress(options, map((0).__lt__, getter(model))))
        self._chosen_last = (model, chosen)
        return chosen

    def _optimiser(self, mode: str) -> Optimiser | None:
        """The live optimiser of a mode ("any" turn, or going "out"); None: nothing to weigh."""
        clauses = self._build()
        if mode not in self._optimisers:
            soft, given, levels = self._objective(mode)
            if not soft:  # nothing to weigh (RC2 does not take an empty objective): any model
                return None
            hard = clauses + ([[self.goal]] if mode == "out" else [])
            maxsat = LazyMaxSat(hard, soft, self.pool.top, lambda model: self._learn(model, True), self.oracle)
            self._optimisers[mode] = Optimiser(maxsat, given, levels)
        return self._optimisers[mode]
