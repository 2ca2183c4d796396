"""A turn that rearranges the table (``table: {rearrange: free}``): the whole table and some cards
of the hand laid out again into legal melds, and the initial meld counted from the hand alone
(``initial_meld:``). Any ruleset with those sections plays it, with no code of its own.

:mod:`~solver.melding.arrange.solve` chooses the model: the compact slot model
(:mod:`~solver.melding.arrange.slots`, asked by :mod:`~solver.melding.arrange.slotturns`) for
rulesets of its shape (:mod:`~solver.melding.arrange.shape`), the candidate model
(:mod:`~solver.melding.arrange.bycandidates`) for any other. :mod:`~solver.melding.arrange.laid`
reads melds as laid out and the turn's answer; :mod:`~solver.melding.arrange.moves` judges plays
written as the table they leave; :mod:`~solver.melding.arrange.present` shows the answer.
"""
