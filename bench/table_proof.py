"""The cost of a bench table turn's proof of its best, apart from its search of forms.

    python -m bench.table_proof 13:4 [--points N] [--stand-ins] [--oracle g42] [--data FILE] [--classes]

The turn's forms are found first, in full (no budget; forks on, as a query's are), and timed. Then
one question is asked of one SAT solver over the turn's model: is there a turn of at least
``--points`` meld points (the first level of the ruleset's objective)? The meld-points level's
soft clauses, each true unless "violated", bound the weight they leave unmet (the level's total
less the points asked for), a capped running sum asserted by assumption; the model's borrowing
clauses (``TableTurn._borrow_clauses``) are in it from the start. Every model the solver offers is
verified and laid out as the optimiser's are (``TableTurn._learn``: what fails teaches clauses,
an option worth less than its bound raises the unmet weight it costs) until one stands — a turn
of that many points — or the solver says no: a proof that none has. The solver's own counts
(conflicts, propagations) are printed after its time: on a shared machine they tell two
encodings apart where seconds do not. Asked for one point more
than the turn's best, this is the proof the optimiser owes beyond finding the best: what an
incumbent given for free would still cost (docs/performance.md, the table turn's proof).
``--stand-ins``: over the forms that stand in for the rest (the race's second model); without
``--points``, the best is first found by the turn's own optimiser (RC2, timed too), and the
question asked is one point more. ``--classes``: instead, each table meld's walk at the search's
fixpoint, walked again: the layouts it reaches, its forms (one per exchange with the rest of the
turn: the cards it plays in and takes out), how many sets of cards played and taken those are, and
how many of the forms stand in for the rest.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from bench.table_sweep import DATA, problem_of
from solver.melding.turn.objective import Optimiser
from solver.sat.search import weight_reached
from solver.sat.solvers import SatSolver


class _Bound:
    """The question's solver, standing where the turn's optimisers stand, so that what verifying a
    model teaches (``add_hard``, ``add_soft``: a verified option worth less than its bound) reaches
    it as it reaches them."""

    def __init__(self, turn, oracle: str, points: int):
        self.turn = turn
        turn._borrowing_known = True
        clauses = turn._build()
        clauses += turn._borrow_clauses()
        soft, self.given, levels = turn._objective("any")
        self.levels = levels
        level = levels[0]
        if level.measure != "meld_points":
            raise SystemExit("the ruleset's first objective is not meld points")
        self.scale = level.scale
        self.allowed = level.total - (points - level.offset)  # the unmet weight a turn of the points leaves at most
        self.items: list[tuple[int, int]] = []  # (violated literal, weight)
        extra: list[list[int]] = []
        for clause, weight in soft:
            if weight >= self.scale:  # the meld-points level's (every level below weighs less than one unit)
                self.items.append((self._violated(clause, extra), weight // self.scale))
        self.solver = SatSolver(clauses + extra, oracle)
        self.assumed = self._bounded()

    @property
    def maxsat(self) -> _Bound:
        return self  # what the turn's Optimiser holds: the solver's side

    @property
    def meld_scale(self) -> int:
        return self.scale

    def _violated(self, clause: list[int], into: list[list[int]]) -> int:
        if len(clause) == 1:
            return -clause[0]
        out = self.turn.pool.new()
        into.append([out, *clause])
        return out

    def _bounded(self) -> list[int] | None:
        """The assumptions for "the unmet weight is at most the allowed" (none: no turn leaves more;
        None: out of reach, more points than the level can pay)."""
        if self.allowed < 0:
            return None
        clauses: list[list[int]] = []
        reached = weight_reached(self.items, self.allowed + 1, self.turn.pool, clauses)
        self.solver.extend(clauses)
        over = reached[self.allowed + 1]
        return [] if over is None else [-over]

    def add_hard(self, clause) -> None:
        self.solver.add(clause)

    def add_soft(self, clause, weight: int) -> None:
        extra: list[list[int]] = []
        self.items.append((self._violated(list(clause), extra), weight // self.scale))
        self.solver.extend(extra)
        self.assumed = self._bounded()  # a new sum; the old one, no longer assumed, constrains nothing

    def ask(self):
        """A verified turn of the points asked for, or None: none has (proved)."""
        self.turn._optimisers["bound"] = Optimiser(self, self.given, self.levels)
        while True:
            if self.assumed is None or not self.solver.solve(self.assumed):
                return None
            model = self.solver.model()
            if not self.turn._learn(model, True):
                return self.turn._decode(model, "best")


def proof(turn, points: int, oracle: str | None = None):
    """Is there a turn of at least ``points`` meld points, over the table turn ``turn``'s forms? The
    verified turn (an :class:`~solver.melding.turn.problem.Answer`), or None: none has (proved);
    and the solver calls asked. ``oracle``: the SAT solver (default: the table turn's optimiser's)."""
    found, calls, _ = counted_proof(turn, points, oracle)
    return found, calls


def counted_proof(turn, points: int, oracle: str | None = None):
    """:func:`proof`, and the solver's own counts of the search (conflicts, propagations, ...)."""
    bound = _Bound(turn, oracle or turn.oracle, points)
    return bound.ask(), bound.solver.calls, bound.solver.stats()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("turn", help="SEED:TURN, a turn of the data file")
    parser.add_argument("--points", type=int, help="the meld points asked for (default: one more than the best)")
    parser.add_argument("--stand-ins", action="store_true", help="over the forms that stand in for the rest")
    parser.add_argument("--oracle", help="the SAT solver (default: the table turn's optimiser oracle)")
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--classes", action="store_true", help="each meld's layouts, forms and their exchanges")
    args = parser.parse_args()

    seed, number = (int(x) for x in args.turn.split(":"))
    wall, cpu = time.perf_counter(), time.process_time()
    turn = table_turn(seed, number, args.data)
    print(f"forms: {sum(map(len, turn.forms))}, {_since(wall, cpu)}")
    if args.classes:
        for row in classes(turn):
            print(row)
        return
    if args.stand_ins:
        turn = over_stand_ins(turn)
        print(f"stand-ins: {sum(map(len, turn.forms))}")
    points = args.points
    if points is None:
        wall, cpu = time.perf_counter(), time.process_time()
        best = best_of(turn)
        print(f"the optimiser's best: {best.score}, {_since(wall, cpu)}")
        points = best.score["meld_points"] + 1
    wall, cpu = time.perf_counter(), time.process_time()
    found, calls, stats = counted_proof(turn, points, args.oracle)
    verdict = f"a turn of {found.score}" if found is not None else "none (proved)"
    print(f"at least {points} meld points: {verdict}; {calls} solver calls, {_since(wall, cpu)}")
    print("the solver's counts: " + ", ".join(f"{n:,} {what}" for what, n in stats.items()))


def table_turn(seed: int, number: int, data: Path = DATA):
    """The bench turn ``seed:number`` of ``data`` as a table turn, its forms found in full (no budget)."""
    from solver.core.registry import load_game
    from solver.core.ruleset import load_ruleset
    from solver.melding.turn.tableturn import TableTurn
    from solver.sat.budget import Budget

    game = load_game(load_ruleset("fesca"))
    turns = json.loads(data.read_text(encoding="utf-8"))["turns"]
    row = next(t for t in turns if (t["seed"], t["turn"]) == (seed, number))
    return TableTurn(problem_of(game.ruleset, row), game.checker, Budget(None), game.rules.operations)


def classes(turn) -> list[str]:
    """Per table meld of ``turn`` (its forms found), its whole walk at the search's fixpoint again:
    layouts reached, forms, the distinct cards played and taken among them, and the stand-ins."""
    from solver.melding.table.forms import EXTRA_CAP, forms_of
    from solver.melding.table.standins import undominated
    from solver.sat.budget import Budget

    problem, rows = turn.problem, []
    for t, meld in enumerate(problem.table):
        cap = EXTRA_CAP if turn.extra else 0
        walk = forms_of(
            turn.table_judge, t, meld, turn.extra, problem.phase, turn.ops, Budget(None), meld.mine, problem.hand, cap
        )
        assert len(walk.forms) == len(turn.forms[t]), "the search's forms are the whole walk's at its fixpoint"
        cards = turn.checker.notation.format_many(meld.faces)
        rows.append(
            f"meld {t} ({meld.owner}: {cards}): {walk.layouts} layouts, {len(walk.forms)} forms, "
            f"{len({f.played for f in walk.forms})} sets played, {len({f.taken for f in walk.forms})} taken, "
            f"{len(undominated(walk.forms))} stand-ins"
        )
    return rows


def over_stand_ins(turn):
    """The same turn over the forms that stand in for the rest (the race's second model)."""
    from solver.melding.table.standins import undominated
    from solver.sat.budget import Budget

    return turn.over([undominated(per_meld) for per_meld in turn.forms], turn.extra, Budget(None))


def best_of(turn):
    """The turn's best by its own optimiser (RC2), on a model of its own (no budget)."""
    from solver.sat.budget import Budget

    with turn.over(turn.forms, turn.extra, Budget(None)) as optimiser:
        return optimiser.best()


def _since(wall: float, cpu: float) -> str:
    return f"{time.perf_counter() - wall:.2f} s wall, {time.process_time() - cpu:.2f} s CPU (this process)"


if __name__ == "__main__":
    main()
