"""The one place that talks to python-sat: variables, encodings, solvers, budgets.

Everything above (the meld models, the turn solvers, the games) builds clauses with
:mod:`solver.sat.encodings` over a :class:`~solver.sat.pool.VarPool` and asks a
:class:`~solver.sat.solvers.SatSolver` or :class:`~solver.sat.solvers.MaxSat`, within a
:class:`~solver.sat.budget.Budget`.
"""
