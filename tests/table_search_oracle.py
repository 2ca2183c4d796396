"""A turn with table operations: the best order of single-card operations and new melds.

Operations change one table meld by one card, and what they allow depends on the moment: before
a player has a meld of their own, 付け札 and 埋め潰し are forbidden and an exchange (差し札, 抜き
札, 発掘, 付け抜き札) is allowed only if what it takes is melded at once; a 鳴き turn melds the
claimed card first; a 相順 is touched only in its phase. So the turn is a search over states —
(hand, table, has an own meld, cards that must be melded next, claimed card still to meld) —
whose moves are the operations (:mod:`solver.melding.table.operations`) and, where the rules need one, a new meld.
Every state may end the turn: the rest of the hand is then partitioned into new melds and the
discard by :class:`~solver.melding.turn.solver.TurnSolver` (SAT/MaxSAT), which also gives the state's value.

Values follow the ruleset's objective: meld points are what the turn adds to the player's own
melds (new melds, and the gain of own table melds), hand points those of the cards kept. The
search keeps the best value overall and the best among turns that go out.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from solver.core.deck import Face
from solver.core.errors import MeldsError, Undecided
from solver.melding.meld.candidates import candidates
from solver.melding.meld.checker import MeldChecker
from solver.melding.meld.points import hand_points, meld_points
from solver.melding.table.operations import Move, Operation, Table, TableMeld
from solver.melding.turn.layout import Step
from solver.melding.turn.solver import Problem, TurnSolver


@dataclass
class _Best:
    """The best way to finish from a state: value (objective tuple), steps, the finishing answer."""

    value: tuple
    steps: list | tuple  # the steps; while searching, the (state, points made) key they end at
    finish: object  # the TurnSolver answer for the rest of the hand (or None for an empty hand)
    meld_points: int
    hand_points: int


@dataclass
class _Node:
    any: _Best | None = None
    out: _Best | None = None


@dataclass(frozen=True)
class _State:
    hand: tuple  # sorted faces
    table: tuple  # TableMeld per original table meld
    own: bool
    pending: tuple  # cards an exchange took, to be melded next
    claim: Face | None  # the claimed card, to be in the first meld


class TableTurnSolver:
    """Searches the turn of a problem with table melds under a ruleset with operations."""

    def __init__(self, problem: Problem, checker: MeldChecker, budget, sat_counter, operations: Sequence[Operation]):
        self.problem = problem
        self.rs = problem.ruleset
        self.checker = checker
        self.table = Table(checker)
        self.budget = budget
        self.count_calls = sat_counter
        self.rule = self.rs.turn_rule(problem.turn)
        self.phase = problem.phase
        self.ops = tuple(
            op for op in operations if op.effect != "recall" and (op.turns is None or problem.turn in op.turns)
        )
        self.finishes: dict = {}
        self.meld_options: dict = {}
        self.max_states = 200_000
        for i, meld in enumerate(problem.table):
            if self.table.reading(meld) is None:
                raise MeldsError(f"table meld {i + 1} is not a legal meld in its layout")

    # -- values -----------------------------------------------------------------------------

    def value(self, meld_pts: int, hand_pts: int) -> tuple:
        return tuple(meld_pts if g.measure == "meld_points" else -hand_pts for g in self.rs.objective)

    def finish(self, hand: tuple, own: bool):
        """(best any, best going out) for ending the turn now with this hand: new melds, discard."""
        key = (hand, own)
        if key not in self.finishes:
            if not hand:
                ok = self.rule.discard != "required"
                best = _Best(self.value(0, 0), [], None, 0, 0) if ok else None
                self.finishes[key] = (best, best)
            else:
                problem = Problem(self.rs, hand, (), self.problem.turn, None, own, self.phase)
                with TurnSolver(problem, self.checker, self.budget, claim_met=True) as solver:
                    try:
                        best_any = solver.best()
                    except MeldsError:  # no way to end the turn from here
                        best_any = None
                    self.count_calls(solver)
                    outs = None
                    if best_any is not None and best_any.solvable is not None:
                        outs = best_any if best_any.solvable else solver.go_out()
                        self.count_calls(solver)
                self.finishes[key] = (self._wrap(best_any), self._wrap(outs, going_out=True))
        return self.finishes[key]

    def _wrap(self, answer, going_out: bool = False) -> _Best | None:
        if answer is None or answer.solvable is None:
            if answer is not None and answer.solvable is None:
                raise Undecided
            return None
        if going_out and not answer.solvable:
            return None
        mp = sum(p.points for p in answer.plays)
        hp = hand_points(self.rs, answer.kept)
        return _Best(self.value(mp, hp), [], answer, mp, hp)

    # -- moves ------------------------------------------------------------------------------

    def new_melds(self, hand: tuple) -> list:
        """Legal new melds of the hand now: (faces, reading, points)."""
        if hand not in self.meld_options:
            kinds = [k for k in self.rs.kinds if self.phase is None or k.phase in (None, self.phase)]
            found = []
            for cand in candidates(self.rs, list(hand), kinds, gate=self.checker.gate):
                faces = tuple(hand[i] for i in cand.cards)
                verdict, points = self.checker.best_points(faces, phase=self.phase)
                if verdict.legal:
                    found.append((faces, verdict.reading, points))
            self.meld_options[hand] = found
        return self.meld_options[hand]

    def op_points(self, move: Move) -> int:
        """What an operation adds to the player's own melds."""
        meld = self.problem.table[move.table]
        if not meld.mine:
            return 0
        return meld_points(move.reading) - self._standing_points(self._current[move.table])

    def moves(self, state: _State):
        """(step, next state) pairs."""
        hand = state.hand
        if state.claim is not None or state.pending:
            must = {state.claim} if state.claim is not None else set(state.pending)
            for faces, reading, points in self.new_melds(hand):
                if must & set(faces):
                    rest = _remove(hand, faces)
                    pending = list(state.pending)
                    for f in faces:
                        if f in pending:
                            pending.remove(f)
                    yield (
                        Step("meld", None, None, faces, (), reading, None, points),
                        _State(rest, state.table, True, tuple(sorted(pending)), None),
                    )
            return
        self._current = state.table
        for move in self.table.moves(state.table, hand, self.phase, self.ops):
            op = move.op
            if not state.own and op.before_own_meld == "forbidden":
                continue
            owed: tuple = ()
            if not state.own and op.before_own_meld == "meld-taken-at-once" and move.taken:
                owed = tuple(sorted(move.taken))
            table = state.table[: move.table] + (move.result,) + state.table[move.table + 1 :]
            new_hand = tuple(sorted(_remove(hand, move.played) + move.taken))
            step = Step(op.id, op, move.table, move.played, move.taken, move.reading, move.result, self.op_points(move))
            yield step, _State(new_hand, table, state.own, owed, None)
        if not state.own:  # a meld of one's own first, to open the restricted operations
            for faces, reading, points in self.new_melds(hand):
                yield (
                    Step("meld", None, None, faces, (), reading, None, points),
                    _State(_remove(hand, faces), state.table, True, (), None),
                )

    # -- the search -------------------------------------------------------------------------

    def own_points(self, table: tuple) -> int:
        """Meld points of the player's own table melds as they stand."""
        return sum(self._standing_points(m) for m, orig in zip(table, self.problem.table, strict=True) if orig.mine)

    def _standing_points(self, meld: TableMeld) -> int:
        """Meld points of a table meld as it stands (every table meld is legal, before and after)."""
        reading = self.table.reading(meld)
        assert reading is not None, meld
        return meld_points(reading)

    def solve(self) -> _Node:
        """Every state reachable this turn, once each; the best place to end the turn.

        An operation's points are the change of the player's own melds, so they telescope: the
        value of ending at a state is the points its own table melds gained since the start,
        plus the melds made on the way, plus the finish. A cycle of operations gains nothing,
        so visiting each (state, points of melds made) once is exact.
        """
        p = self.problem
        claim = p.claimed if p.turn == "claimed" and self.rule.claimed_in_new_meld else None
        start = (_State(tuple(sorted(p.hand)), tuple(p.table), p.has_melded, (), claim), 0)
        base = self.own_points(start[0].table)
        parent: dict = {start: None}
        queue = deque([start])
        node = _Node()
        while queue:
            key = queue.popleft()
            state, made = key
            self.budget.check()
            if len(parent) > self.max_states:
                raise Undecided
            if state.claim is None and not state.pending:
                gained = made + self.own_points(state.table) - base
                for which, fin in zip(("any", "out"), self.finish(state.hand, state.own), strict=True):
                    if fin is None:
                        continue
                    mp = gained + fin.meld_points
                    value = self.value(mp, fin.hand_points)
                    current = getattr(node, which)
                    if current is None or value > current.value:
                        setattr(node, which, _Best(value, key, fin.finish, mp, fin.hand_points))
            for step, nxt in self.moves(state):
                child = (nxt, made + (step.points if step.action == "meld" else 0))
                if child not in parent:
                    parent[child] = (key, step)
                    queue.append(child)
        for which in ("any", "out"):
            best = getattr(node, which)
            if best is not None:
                steps = []
                key = best.steps
                while parent[key] is not None:
                    key, step = parent[key]
                    steps.append(step)
                best.steps = steps[::-1]
        return node


def _remove(hand: Sequence[Face], faces: Sequence[Face]) -> tuple:
    out = list(hand)
    for f in faces:
        out.remove(f)
    return tuple(out)
