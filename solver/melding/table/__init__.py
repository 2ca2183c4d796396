"""The table: melds laid out with owners and buried wilds, and the single-card operations on them
(:mod:`.operations`); what a turn's operations can make of each table meld, its *forms*
(:mod:`.forms`), and the forms that stand in for others (:mod:`.standins`). Built on
:mod:`solver.melding.meld`; knows nothing of the turn that chooses among the forms."""
