"""Forms of a table meld that another form of the same meld does at least as well as, for the first
level of an objective that pays meld points: dropping them keeps that level's optimum.

A form *d* stands in for a form *f* of the same meld when, in every turn that lays out with *f*,
putting *d* in its place still lays out and earns as many meld points. For a player who has
melded, with no claimed card to meld first, a turn is laid out by interleaving the forms' paths
(every move holding the cards it plays when it comes) and making the new melds last from what is
left in the hand (:func:`~solver.melding.turn.layout.lay_out`); so *d* stands in for *f* when

* it gains at least as much (``gain``), and
* its moves can be slotted in among *f*'s, a run of them at the time of each of *f*'s moves, so
  that

  - after each of *f*'s moves, *d*'s moves so far have left the hand no poorer in any card than
    *f*'s had (taken less played, counted per card): every other move, and the new melds and the
    discard at the end, find at least what they found before;
  - each of *d*'s moves holds what it plays, knowing only that the hand held what *f*'s move at
    that time played, beyond what *f* had given it before.

A form that plays fewer cards in all but needs one for a while in the middle (played by one move,
taken back by the next) fails the second condition unless *f* needed it then too: kept in its
place by a test of the cards played in all alone, such a form can lose the best turn a meld point.

Fewer cards played leaves more in the hand, which may cost the levels below (hand points): the
forms are dropped only to settle the first level, and a turn found without them stands only when
every level below it is at its floor (see ``TableTurn._stand_ins``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from solver.melding.table.forms import Form


def undominated(forms: Sequence[Form]) -> list[Form]:
    """The forms of one table meld that no other form of it stands in for, in their order. Forms
    are taken fewest cards played first (a form's stand-in plays no card it does not), and one is
    dropped only for a form kept: every form dropped has a stand-in among those returned."""
    cards = sorted({face for form in forms for move in form.path for face in move.played + move.taken})
    lanes = {face: i for i, face in enumerate(cards)}
    guards = sum(_GUARD << (_LANE * i) for i in range(len(cards)))
    biases = sum(_BIAS << (_LANE * i) for i in range(len(cards)))
    prepared = [_Prepared(form, k, lanes, biases) for k, form in enumerate(forms)]
    kept: list[_Prepared] = []
    for f in sorted(prepared, key=lambda p: (p.count, -p.gain, p.order)):
        if not any(
            d.gain >= f.gain and _at_least(f.played, d.played, guards) and _stands_in(d, f, guards) for d in kept
        ):
            kept.append(f)
    return [p.form for p in sorted(kept, key=lambda p: p.order)]


# Counts of cards packed in one integer, a lane of bits per card (the meld's forms' cards), so that
# "no fewer of any card" is one subtraction (_at_least) — the test runs tens of thousands of times
# on a meld of wilds. A lane holds a count plus _BIAS (a net count may be negative) and, above it,
# a guard bit that a lane below the other's borrows.
_LANE = 16
_BIAS = 1 << 12
_GUARD = 1 << (_LANE - 1)


def _packed(counts: Counter, lanes: dict, biases: int) -> int:
    """``biases``: the bias of every lane, packed (or 0)."""
    return biases + sum(n << (_LANE * lanes[face]) for face, n in counts.items() if n)


def _at_least(a: int, b: int, guards: int) -> bool:
    """a >= b in every lane (lanes below the guard bit)."""
    return ((a | guards) - b) & guards == guards


class _Prepared:
    """A form's path as the test reads it, packed: per move what it plays, and the hand's net
    change after each prefix (biased); the cards played in all."""

    __slots__ = ("form", "order", "gain", "count", "played", "plays", "nets")

    def __init__(self, form: Form, order: int, lanes: dict, biases: int):
        self.form, self.order, self.gain, self.count = form, order, form.gain, len(form.played)
        self.played = _packed(Counter(form.played), lanes, 0)
        self.plays: list[int] = []
        self.nets: list[int] = [biases]  # after 0, 1, ... moves
        net: Counter = Counter()
        for move in form.path:
            self.plays.append(_packed(Counter(move.played), lanes, 0))
            net.subtract(move.played)
            net.update(move.taken)
            self.nets.append(_packed(net, lanes, biases))


def _stands_in(d: _Prepared, f: _Prepared, guards: int) -> bool:
    """Can ``d``'s moves be slotted in among ``f``'s (see the module's docstring)? A walk over how
    many of d's moves are done after each of f's, a run of them made at the time of each of f's.
    At f's s-th move the hand held what it played, beyond what f had given it before (f's net
    after s - 1 moves): d's r-th move then holds what it plays when that, with d's net after r
    moves, covers it — f.plays[s-1] - f.nets[s-1] + d.nets[r] >= d.plays[r], the biases of the
    two nets cancelling."""
    k, j = len(f.plays), len(d.plays)
    if not _at_least(d.nets[j], f.nets[k], guards):
        return False
    reach = {0}  # d's moves done, after s moves of f
    for s in range(1, k + 1):
        known, before, after_f = f.plays[s - 1], f.nets[s - 1], f.nets[s]
        after: set[int] = set()
        for r in sorted(reach):
            while True:
                if _at_least(d.nets[r], after_f, guards):
                    after.add(r)
                if r == j or not _at_least(known + d.nets[r], d.plays[r] + before, guards):
                    break
                r += 1
        reach = after
        if not reach:
            return False
    return j in reach
