"""One turn solved: the question and its answer (:mod:`.problem`), the ways to go out
(:mod:`.routes`), the turn as one model of candidate melds and slots (:mod:`.model`,
:mod:`.slots`) whose objective shares meld points among the cards (:mod:`.shares`), the live
solvers that answer it (:mod:`.solver`), the turn that also changes the table's melds
(:mod:`.tableturn`), and the entry that picks between them (:mod:`.solve`)."""
