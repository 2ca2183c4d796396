"""Can this hand go out this turn? The best turn, the number of ways, and why not.

A turn is a partition of the hand into new melds, lay-offs onto table melds, at most one final
discard (as the ruleset's turn rule says) and the cards kept. The model, over candidate melds
(:mod:`solver.melding.candidates`):

* ``x[m]`` — candidate new meld ``m`` is made; ``y[t, e]`` — extension ``e`` is laid off onto
  table meld ``t`` (at most one per table meld); ``d[f]`` — a card of face ``f`` is discarded;
* per face ``f`` of the hand, the copies used by chosen melds, lay-offs and the discard are at
  most the copies held; ``acc[f, k]`` — at least ``k`` copies of ``f`` are accounted for;
* the turn rule: the discard is required, optional (made exactly when a card would otherwise be
  left) or none; a claimed discard may have to go into a new meld, or may not be discarded;
  lay-offs may need a meld of the player's own.

Going out is "every copy accounted for". The objective (``objective:`` in the ruleset) becomes
weighted soft clauses for RC2, lexicographic by scaling: meld points on ``x[m]``, hand points on
``acc``.

Candidates are structural, so the answer is verified *lazily*: each meld the solver picks is
judged by :class:`MeldChecker` — the same rules as ``melds check``, ambiguity included — and its
true points computed. An illegal candidate is forbidden and the solver asked again; a candidate
whose true points are below its bound gets its true weight. Bounds only ever fall to the truth,
so the final, fully verified answer is optimal.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from solver.core.deck import Face
from solver.core.errors import MeldsError, Undecided
from solver.core.ruleset import Ruleset
from solver.melding.candidates import Candidate, candidates
from solver.melding.checker import NO_PHASE, MeldChecker
from solver.melding.encode import Reading
from solver.melding.points import hand_points
from solver.melding.routes import GoOutRoute, Requirement
from solver.melding.table import TableMeld
from solver.sat import encodings
from solver.sat.budget import Budget
from solver.sat.encodings import TRUE, exact_counter
from solver.sat.pool import VarPool
from solver.sat.solvers import MaxSat, SatSolver


@dataclass(frozen=True)
class Problem:
    """A hand and the turn it is played in."""

    ruleset: Ruleset
    hand: tuple[Face, ...]
    table: tuple[TableMeld, ...] = ()
    turn: str = "normal"  # normal | claimed (a discard was claimed: it is in the hand)
    claimed: Face | None = None
    has_melded: bool = False  # the player has a meld of their own on the table already
    phase: str | None = None
    params: Mapping[str, Any] | None = None  # query parameters (a chosen card that makes wilds)
    shown: tuple = ()  # the player's melds already on the table (face tuples), for routes


@dataclass(frozen=True)
class Play:
    """A meld made, or an extension laid off onto table meld ``table``."""

    faces: tuple[Face, ...]  # the hand cards played
    reading: Reading  # the whole meld's reading (table cards included for a lay-off)
    points: int
    table: int | None = None


@dataclass
class Answer:
    solvable: bool | None  # None: undecided within the budget
    question: str
    plays: list[Play] = field(default_factory=list)
    discard: Face | None = None
    kept: list[Face] = field(default_factory=list)
    score: dict = field(default_factory=dict)
    why: dict | None = None
    solutions: int | None = None
    solutions_capped: bool = False
    seconds: float = 0.0
    sat_calls: int = 0
    steps: list = field(default_factory=list)  # table turns: every play in order
    phase_after: str | None = None  # the field phase after the discard
    counted: bool = True  # False when --all cannot count (turns with table operations)
    route: str | None = None  # the going-out route taken (when the game has several)
    found: list = field(default_factory=list)  # a question over many queries: the cards that answered yes

    @property
    def melds(self) -> list[Play]:
        return [p for p in self.plays if p.table is None]

    @property
    def layoffs(self) -> list[Play]:
        return [p for p in self.plays if p.table is not None]


def validate_problem(p: "Problem", checker: MeldChecker, claim_met: bool = False) -> None:
    """Input a turn cannot be played from: an error that says what is wrong."""
    notation = checker.notation
    if not p.hand:
        raise MeldsError("the hand is empty")
    notation.check_copies(list(p.hand) + [f for t in p.table for f in t.all_cards])
    if p.turn == "claimed" and not claim_met:
        if p.claimed is None:
            raise MeldsError("a claimed turn needs the claimed card")
        if p.claimed not in p.hand:
            raise MeldsError(f"the claimed card {notation.format(p.claimed)} is not in the hand")
    if p.phase is not None and p.phase not in {ph.id for ph in p.ruleset.phases} | {NO_PHASE}:
        raise MeldsError(f"unknown phase {p.phase!r} for {p.ruleset.id}")
    for i, t in enumerate(p.table):
        verdict = checker.check(t.faces, ordered=True, explain=False)
        if not verdict.legal:
            raise MeldsError(f"table meld {i + 1} ({notation.format_many(t.faces)}) is not a "
                             f"legal meld: {verdict.reasons[0].message}")
        buried = [b for b in t.buried if b is not None]
        roles = {r.id for r in p.ruleset.roles.values() if r.wild}
        if buried and not all(any(c in r.classes for r in p.ruleset.roles.values() if r.id in roles)
                              for c in (b.cls for b in buried)):
            raise MeldsError(f"table meld {i + 1}: only a wild card can be buried")


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
    first: bool = False  # counts toward the route's first requirement (Marriage: pure melds)
    twin_of: "_Option | None" = None  # the same meld made once more: used only after its twin


class TurnSolver:
    """Solves one problem; build once, then ask go_out / best / count."""

    def __init__(self, problem: Problem, checker: MeldChecker | None = None,
                 budget: Budget | None = None, claim_met: bool = False, route: GoOutRoute | None = None,
                 requirements: Sequence[Requirement] = ()):
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
        self.rule = rs.turn_rule(problem.turn)
        self.layoff_rule = rs.layoff_rule()
        self._validate()
        self.count = Counter(problem.hand)
        self.faces = sorted(self.count)
        self.pool = VarPool()
        self.options: list[_Option] = []
        self.forbidden: set[int] = set()
        self._table_cache: dict[int, int] = {}
        self._collect_options()

    def close(self) -> None:
        if self.own_checker:
            self.checker.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- set-up -----------------------------------------------------------------------------

    def _validate(self) -> None:
        validate_problem(self.problem, self.checker, self.claim_met)

    def _kinds(self):
        phase = self.problem.phase
        allowed = self._route_kinds()
        return [k for k in self.rs.kinds if (phase is None or k.phase in (None, phase))
                and (allowed is None or k.id in allowed)]

    def _route_kinds(self) -> set | None:
        if self.seeing:
            return {k for req in self.requirements for k in req.kinds}
        return set(self.route.kinds) if self.route is not None else None

    def _first_kinds(self) -> frozenset:
        return self.route.first_kinds if self.route is not None and self.route.first_kinds else frozenset()

    def _collect_options(self) -> None:
        hand = list(self.problem.hand)
        kinds = self._kinds()
        gate = self.checker.gate
        for cand in candidates(self.rs, hand, kinds, params=self.problem.params, gate=gate):
            faces = tuple(hand[i] for i in cand.cards)
            self._add_option(cand, faces, None, faces)
        if self.layoff_rule is None:
            return
        for t_index, table in enumerate(self.problem.table):
            pool = list(table.faces) + hand
            required = range(len(table.faces))
            for cand in candidates(self.rs, pool, kinds, required=required, params=self.problem.params, gate=gate):
                played = tuple(pool[i] for i in cand.cards if i >= len(table.faces))
                self._add_option(cand, played, t_index, tuple(pool[i] for i in cand.cards))

    def _add_option(self, cand: Candidate, hand_faces, table, all_faces) -> None:
        """One option per time the meld can be made: with several copies of its cards (two or three
        decks) the same meld may be made twice. Later copies need the earlier ones."""
        need = Counter(hand_faces)
        times = 1 if table is not None else min(self.count[f] // k for f, k in need.items())
        previous = None
        for _ in range(times):
            var = self.pool.id(("opt", len(self.options)))
            option = _Option(var, cand, hand_faces, table, all_faces, cand.bound,
                             first=bool(cand.kinds & self._first_kinds()), twin_of=previous)
            self.options.append(option)
            previous = option

    # -- verification -----------------------------------------------------------------------

    def _verify(self, opt: _Option) -> bool:
        """Judge an option with the checker; record its true points. False if illegal."""
        if opt.twin_of is not None and not opt.verified:
            legal = self._verify(opt.twin_of)
            twin = opt.twin_of
            opt.verified, opt.reading, opt.weight, opt.first = True, twin.reading, twin.weight, twin.first
            if not legal:
                self.forbidden.add(opt.var)
            return legal
        if not opt.verified:
            self.budget.check()
            verdict, points = self.checker.best_points(opt.all_faces, phase=self.problem.phase,
                                                       params=self.problem.params)
            opt.verified = True
            allowed = self._route_kinds()
            if not verdict.legal or (allowed is not None and verdict.reading.kind.id not in allowed):
                self.forbidden.add(opt.var)
                opt.reading = None
                return False
            opt.reading = verdict.reading
            opt.first = verdict.reading.kind.id in self._first_kinds()
            if opt.table is None:
                opt.weight = points
            elif self.problem.table[opt.table].mine:  # what the lay-off adds to one's own meld
                opt.weight = max(0, points - self._table_points(opt.table))
            else:  # points of others' melds are theirs
                opt.weight = 0
        return opt.var not in self.forbidden

    def _table_points(self, t: int) -> int:
        if t not in self._table_cache:
            self._table_cache[t] = self.checker.best_points(self.problem.table[t].faces,
                                                            phase=self.problem.phase)[1]
        return self._table_cache[t]

    # -- the model --------------------------------------------------------------------------

    def _hard(self, go_out: bool) -> tuple[list[list[int]], dict, list[int]]:
        """Hard clauses; the 'accounted' literals per copy of each face; the discard literals."""
        p, rule, pool = self.problem, self.rule, self.pool
        clauses: list[list[int]] = [[-o.var] for o in self.options if o.var in self.forbidden]
        live = [o for o in self.options if o.var not in self.forbidden]
        clauses += [[-o.var, o.twin_of.var] for o in live if o.twin_of is not None]
        discard = {f: pool.id(("discard", f.index)) for f in self.faces}
        d_lits = list(discard.values())
        accounted: dict[Face, list[int]] = {}
        all_melded: dict[Face, int | None] = {}
        for face in self.faces:
            held = self.count[face]
            uses = [o.var for o in live for _ in range(o.hand_faces.count(face))]
            melded = exact_counter(uses, held + 1, pool, clauses)  # melded[k]: >= k copies melded
            d = discard[face]
            if melded[held + 1] is not None:
                clauses.append([-melded[held + 1]])  # no more copies than held
            if melded[held] is not None:
                clauses.append([-d, -melded[held]])  # a discard needs a copy not melded
            acc = []
            for k in range(1, held + 1):
                # copy k is accounted for: k copies melded, or k-1 melded and one discarded
                either = [] if melded[k] is None else [melded[k]]
                prev = melded[k - 1]
                if prev is TRUE:
                    either.append(d)
                elif prev is not None:
                    both = pool.id(("acc-d", face.index, k))
                    clauses += [[-both, d], [-both, prev], [both, -d, -prev]]
                    either.append(both)
                a = pool.id(("acc", face.index, k))
                clauses.append([-a] + either)
                clauses += [[a, -lit] for lit in either]
                acc.append(a)
            accounted[face] = acc
            all_melded[face] = melded[held]
        if rule.discard == "none":
            clauses += [[-d] for d in d_lits]
        else:
            clauses += encodings.at_most(d_lits, 1, pool)
            if rule.discard == "required":
                clauses.append(d_lits)
            else:  # optional: a discard exactly when some copy would otherwise stay in hand
                for face in self.faces:
                    full = all_melded[face]
                    clauses.append(d_lits + ([] if full is None else [full]))
        if p.turn == "claimed" and p.claimed is not None:
            if rule.claimed_not_discarded and self.count[p.claimed] == 1:
                clauses.append([-discard[p.claimed]])
            if rule.claimed_in_new_meld:
                clauses.append([o.var for o in live if o.table is None and p.claimed in o.hand_faces])
        if rule.max_new_melds is not None:
            new = [o.var for o in live if o.table is None]
            clauses += encodings.at_most(new, rule.max_new_melds, pool)
        for t in range(len(p.table)):  # one extension per table meld
            exts = [o.var for o in live if o.table == t]
            if len(exts) > 1:
                clauses += encodings.at_most(exts, 1, pool)
        if self.layoff_rule is not None and self.layoff_rule.requires_own_meld and not p.has_melded:
            own = [o.var for o in live if o.table is None or p.table[o.table].mine]
            for o in live:
                if o.table is not None and not p.table[o.table].mine:
                    clauses.append([-o.var] + own)
        clauses += self._count_clauses(live, go_out)
        if go_out and (self.route is None or self.route.all_cards) and not self.seeing:
            clauses += [[a] for acc in accounted.values() for a in acc]
        return clauses, accounted, d_lits

    def _count_clauses(self, live, go_out: bool) -> list:
        """Route and seeing requirements: at least so many melds (of some kinds), counting the
        player's melds already shown."""
        shown_kinds = [self._shown_kind(m) for m in self.problem.shown]
        needs = []  # (option vars, already shown, at least)
        if self.seeing:
            req = self.seeing_requirement
            need = max(0, req.count - sum(k in req.kinds for k in shown_kinds))
            lits = [o.var for o in live if self._kinds_of(o) & req.kinds]
            others = [o.var for o in live if not self._kinds_of(o) & req.kinds]
            if need > len(lits):
                return [[]]  # not enough candidate melds: unsatisfiable
            if need == 0:
                exact = [[-v] for v in lits]
            else:
                exact = encodings.exactly(lits, need, self.pool)
            return exact + [[-v] for v in others]  # show exactly what the requirement asks
        route = self.route
        if route is not None and go_out:
            if route.melds:
                needs.append(([o.var for o in live], len(shown_kinds), route.melds))
            if route.first_kinds:
                needs.append(([o.var for o in live if o.first],
                              sum(k in route.first_kinds for k in shown_kinds), route.first_count))
        clauses = []
        for lits, shown, need in needs:
            clauses += self._at_least(lits, need - shown)
        return clauses

    def _at_least(self, lits, k: int, guard: int | None = None) -> list:
        if k <= 0:
            return []
        if len(lits) < k:
            return [[-guard]] if guard else [[]]
        enc = encodings.at_least(lits, k, self.pool)
        return [([-guard] if guard else []) + c for c in enc]

    def _kinds_of(self, o: _Option) -> frozenset:
        """The kinds an option is read as: the verdict's once verified, else structural."""
        return frozenset([o.reading.kind.id]) if o.reading is not None else o.candidate.kinds

    def _shown_kind(self, faces) -> str | None:
        verdict = self.checker.check(faces, explain=False, params=self.problem.params)
        return verdict.reading.kind.id if verdict.legal else None

    def _objective(self, accounted: dict) -> list[tuple[list[int], int]]:
        """Soft clauses (clause, weight), lexicographic over the ruleset's objective levels."""
        levels = []
        for goal in self.rs.objective:
            if goal.measure == "meld_points":
                levels.append([([o.var], o.weight) for o in self.options
                               if o.var not in self.forbidden and o.weight > 0])
            elif goal.measure == "hand_points":
                levels.append([([a], self.rs.points(face)) for face, acc in accounted.items()
                               for a in acc if self.rs.points(face) > 0])
            elif goal.measure == "melds":
                levels.append([([o.var], 1) for o in self.options if o.var not in self.forbidden])
        soft = []
        scale = 1
        for level in reversed(levels):
            soft += [(clause, w * scale) for clause, w in level]
            scale *= sum(w for _, w in level) + 1
        return soft

    # -- asking -----------------------------------------------------------------------------

    def _decide(self, clauses, assumptions=()) -> list[int] | None:
        with SatSolver(clauses) as solver:
            self.sat_calls += 1
            return solver.model() if solver.solve(assumptions, self.budget) else None

    def _optimise(self, clauses, soft) -> list[int] | None:
        if not soft:  # nothing to weigh (RC2 does not take an empty objective): any model
            return self._decide(clauses)
        with MaxSat(clauses, soft) as maxsat:
            return maxsat.optimum(self.budget)

    def _chosen(self, model: list[int]) -> list[_Option]:
        true = set(lit for lit in model if lit > 0)
        return [o for o in self.options if o.var in true]

    def _settle(self, find) -> list[int] | None:
        """Ask ``find`` until every option it picks is verified legal at its true weight."""
        while True:
            model = find()
            if model is None:
                return None
            changed = False
            for o in self._chosen(model):
                before = (o.weight, o.first, self._kinds_of(o))
                if not self._verify(o) or (o.weight, o.first, self._kinds_of(o)) != before:
                    changed = True
            if not changed:
                return model

    def go_out(self) -> Answer:
        """Can the hand go out? If so the best way; if not, why, and the best turn instead."""
        try:
            model = self._settle(lambda: self._decide(self._hard(go_out=True)[0]))
            if model is None:
                answer = self.best(question="go-out")
                answer.solvable = False
                answer.why = self._why()
                return answer
            answer = self._best_answer(go_out=True, question="go-out")
            answer.solvable = True
            return answer
        except Undecided:
            return self._undecided("go-out")

    def best(self, question: str = "best") -> Answer:
        """The optimum of the ruleset's objective over every turn the rules allow."""
        try:
            return self._best_answer(go_out=False, question=question)
        except Undecided:
            return self._undecided(question)

    def _best_answer(self, go_out: bool, question: str) -> Answer:
        def find():
            clauses, accounted, _ = self._hard(go_out)
            return self._optimise(clauses, self._objective(accounted))

        model = self._settle(find)
        if model is None:
            raise MeldsError(self._no_turn_message())
        answer = self._decode(model, question)
        answer.solvable = not answer.kept
        return answer

    def _no_turn_message(self) -> str:
        p, fmt = self.problem, self.checker.notation
        if p.turn == "claimed" and self.rule.claimed_in_new_meld:
            return (f"impossible state: the claimed card {fmt.format(p.claimed)} fits no new meld "
                    f"with this hand, so it could not be claimed")
        return "impossible state: no turn is possible under the rules"

    def see(self) -> Answer:
        """Can the hand meet one of the requirements it was built with (so many melds of some kinds,
        counting those shown) this turn? Exactly the melds to show."""
        try:
            for req in self.requirements:
                self.seeing_requirement = req
                model = self._settle(lambda: self._decide(self._hard(go_out=False)[0]))
                if model is not None:
                    answer = self._decode(model, "see")
                    answer.solvable = True
                    answer.route = "+".join(sorted(req.kinds))
                    return answer
            answer = self._stamp(Answer(solvable=False, question="see"))
            return answer
        except Undecided:
            return self._undecided("see")

    def count_solutions(self, limit: int) -> tuple[int, bool]:
        """Distinct ways to go out (set of melds, lay-offs, discard), up to ``limit``."""
        try:
            clauses, _, d_lits = self._hard(go_out=True)
            found = 0
            with SatSolver(clauses) as solver:
                while found < limit:
                    self.sat_calls += 1
                    if not solver.solve((), self.budget):
                        return found, False
                    model = solver.model()
                    chosen = self._chosen(model)
                    illegal = [o for o in chosen if not self._verify(o)]
                    for o in illegal:
                        solver.add([-o.var])
                    if illegal:
                        continue
                    found += 1
                    true = set(lit for lit in model if lit > 0)
                    decision = [o.var for o in self.options if o.var not in self.forbidden] + d_lits
                    solver.add([-v if v in true else v for v in decision])
            return found, True
        except Undecided:
            return -1, True

    # -- answers ----------------------------------------------------------------------------

    def _decode(self, model: list[int], question: str) -> Answer:
        true = set(lit for lit in model if lit > 0)
        plays = []
        for o in self._chosen(model):
            plays.append(Play(o.hand_faces, o.reading, o.weight, o.table))
        discard = next((f for f in self.faces if self.pool.id(("discard", f.index)) in true), None)
        used = Counter(f for p in plays for f in p.faces)
        if discard is not None:
            used[discard] += 1
        kept = sorted((self.count - used).elements())
        plays.sort(key=lambda p: (p.table is not None, p.table or 0, sorted(p.faces)))
        answer = Answer(solvable=None, question=question, plays=plays, discard=discard, kept=kept)
        answer.score = self._score(plays, kept)
        answer.phase_after = self.problem.phase  # a game whose discards change the phase says after
        return self._stamp(answer)

    def _score(self, plays, kept) -> dict:
        score = {"meld_points": sum(p.points for p in plays),
                 "hand_points": hand_points(self.rs, kept), "melds": len(plays)}
        return {goal.measure: score[goal.measure] for goal in self.rs.objective} or score

    def _stamp(self, answer: Answer) -> Answer:
        answer.seconds = self.budget.elapsed
        answer.sat_calls = (self.sat_calls + self.checker.sat_calls - self.calls0
                            + MaxSat.calls - self.maxsat_calls0)
        return answer

    def _undecided(self, question: str) -> Answer:
        return self._stamp(Answer(solvable=None, question=question))

    def _why(self) -> dict:
        """Cards that fit no legal meld, and a small set of cards that cannot all be placed."""
        hand_faces = set(self.problem.hand)
        fits = set()
        for o in sorted(self.options, key=lambda o: len(o.hand_faces)):
            new = set(o.hand_faces) - fits
            if new and self._verify(o):
                fits |= set(o.hand_faces)
        lonely = sorted(hand_faces - fits)
        clauses, accounted, _ = self._hard(go_out=False)
        units = [(face, a) for face, acc in accounted.items() for a in acc]
        core = None
        with SatSolver(clauses) as solver:
            assumptions = [a for _, a in units]
            self.sat_calls += 1
            if not solver.solve(assumptions):
                core = set(solver.core() or assumptions)
                for lit in sorted(core):  # deletion-based minimisation
                    trial = [a for a in assumptions if a in core and a != lit]
                    self.sat_calls += 1
                    if not solver.solve(trial):
                        core = set(solver.core() or trial)
        core_faces = sorted(face for face, a in units if core and a in core)
        return {"no_meld": lonely, "core": core_faces}

