"""One meld judged: each meld kind compiled into CNF (:mod:`.encode`), the checker that asks it
(:mod:`.checker`) and what it settles without a SAT call (:mod:`.ruleholds`, :mod:`.layouts`
along a kind's :mod:`.lines`), why a meld is illegal (:mod:`.reasons`), the candidate melds of a
pool of cards (:mod:`.candidates`), suit cycles (:mod:`.cycles`) and a meld's points
(:mod:`.points`). Nothing here knows of a turn or a table."""
