"""What a turn's single-card operations can make of each table meld: its *forms*.

A table meld changes one card at a time (:mod:`solver.melding.table.operations`), each step leaving a legal
meld. Melds change independently of each other, so what a turn can do to one meld is the set of
layouts reachable from it by operations with cards the turn may have — its forms — each with the
cards it takes in (``played``) and gives out (``taken``), fixed by the layout alone, and one path
of operations that reaches it. The turn model (:mod:`solver.melding.turn.model`) chooses one form
per table meld together with the new melds, in one SAT model.

The cards a turn may have are the hand's and those an operation can take from the table; which
those are depends on the cards at hand, so :func:`table_forms` grows the set to a fixpoint: the
cards taken by the forms of the cards known so far, until no form takes a new one (asking each
meld, round by round, only about its cards not known to be takeable yet: a *probe*), and then
walks each meld whole once.
"""

from __future__ import annotations

import os
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from solver.core import forked
from solver.core.deck import Face
from solver.core.ruleset import Ruleset
from solver.melding.meld.encode import Reading
from solver.melding.meld.points import meld_points
from solver.melding.table.operations import Move, Operation, Table, TableMeld
from solver.sat.budget import Budget

# Layouts one meld may reach in one turn: a guard against a pathological table when the query has no
# deadline (with one, the share of the time bounds the search, and the guard does not apply: it
# would end a search that had time left). Past it the search stops as
# the share does (:func:`table_forms`), the answer undecided with the best turn found. Measured:
# of 325 bench turns, the most any meld reached was 5,644 (four wilds among 40 table cards); a
# meld of five wilds against a hand of twelve 陰陽 reaches this guard in 25 s and 430 MB.
MAX_LAYOUTS = 20_000
# Cards a form may play that another meld's form takes (a wild taken by 差し札 played into a
# second meld by 抜き札, say): each one multiplies a meld's layouts by the table's wilds, so a
# turn's forms play at most this many per meld; the hand's own cards are never limited.
EXTRA_CAP = 1
# The last round's whole walks shared with a forked child on another core (see _walked_beside);
# table_forms' ``beside`` overrides it. Every such round, however short: on the bench's 75 turns
# at 10 s, 26 took 50 ms or more less and none 50 ms more; forking only once a round had run
# 0.1 s (two of them 50 ms more, 19 less) lost more of the rounds of a few tenths than it saved
WALK_BESIDE = True


@dataclass(frozen=True)
class Form:
    """One table meld after the turn: its layout and reading, what it takes in and gives out, the
    operations that make it, and what it adds to the owner's meld points."""

    table: int  # which table meld
    meld: TableMeld  # the layout after the turn
    reading: Reading
    path: tuple[Move, ...]  # the single-card operations from the meld as it stood (empty: unchanged)
    played: tuple[Face, ...]  # cards the form holds that the meld did not (from the hand or the table)
    taken: tuple[Face, ...]  # cards the meld held that the form does not (into the hand)
    gain: int  # meld points the owner gains (negative: loses); 0 for another player's meld
    restricted: frozenset[str]  # the operations' restrictions before one's own meld on this path

    @property
    def unchanged(self) -> bool:
        return not self.path

    def borrows(self, hand: Counter) -> set[Face]:
        """The cards the path plays at some step beyond what ``hand`` and its own earlier steps
        have given: a card it gives back later (a wild played by 抜き札 and taken again by 差し札)
        is not among what it plays in all, yet at that step it must come from another meld's
        operations. Each step needs its played card before its taken ones come."""
        balance = Counter(hand)
        short: set[Face] = set()
        for move in self.path:
            for f in move.played:
                balance[f] -= 1
                if balance[f] < 0:
                    short.add(f)
            for f in move.taken:
                balance[f] += 1
        return short

    @property
    def passes(self) -> frozenset[Face]:
        """Every card some step of the path takes into the hand (if only for a while)."""
        return frozenset(f for move in self.path for f in move.taken)


def _canonical(meld: TableMeld, reading: Reading) -> TableMeld:
    """A group's layout in one order (its cards' order says nothing: 3 cards laid off one at a
    time at either end reach one group, not eight layouts of it); a sequence's in one of its two
    directions (a meld on the table is read left to right or right to left, and every operation
    is the same at either end: seen from across the table it is the same meld, with the same
    operations open to it, mirrored)."""
    if reading.kind.shape == "sequence":
        ahead = [(f.index, b.index if b else -1) for f, b in zip(meld.faces, meld.buried, strict=True)]
        if ahead[::-1] < ahead:
            return TableMeld(meld.owner, meld.faces[::-1], meld.mine, meld.buried[::-1])
        return meld
    pairs = sorted(
        zip(meld.faces, meld.buried, strict=True), key=lambda fb: (fb[0].index, fb[1].index if fb[1] else -1)
    )
    return TableMeld(meld.owner, tuple(f for f, _ in pairs), meld.mine, tuple(b for _, b in pairs))


class _Cut(Exception):
    """The search of the forms stops short (see :func:`table_forms`): it took its share of the
    turn's time (``limit`` "time"), or a meld reached more than :data:`MAX_LAYOUTS` ("layouts")."""

    def __init__(self, limit: str):
        super().__init__(limit)
        self.limit = limit


def forms_of(
    table: Table,
    t: int,
    meld: TableMeld,
    available: Sequence[Face],
    phase: str | None,
    ops: tuple[Operation, ...],
    budget: Budget,
    mine: bool,
    hand: Sequence[Face] = (),
    extra_cap: int = 0,
    stop_at: float | None = None,
    probe: set[Face] | None = None,
) -> Walk:
    """Every layout reachable from ``meld`` by operations whose played cards are the hand's, cards
    the path took from this meld before, or, at most ``extra_cap`` of them, other ``available``
    kinds (cards taken from other melds): a breadth-first walk, each layout by a shortest path —
    of those, the one that borrows the fewest cards from other melds (a wild of the hand may serve
    for a while where one of the table would need its meld to give it first), then, of those that
    play and take the same cards, the one that gives the hand its cards earliest
    (:func:`_lending`): melds in a ring, each waiting for a card another gives, may be laid out in
    one order only (a set that takes 空無金 by 差し札 before its lay-offs feeds the ring; after them,
    it waits on it). ``stop_at``: a clock time (perf_counter) past which the walk stops
    (:class:`_Cut`). ``probe``: cards of the meld whose taking is all the caller asks: the walk
    stops once some layout it reached lacks each of them (the forms so far, ``whole`` False)."""
    start = table.reading(meld)
    base_points = meld_points(start) if mine else 0
    in_hand = Counter(hand)
    # the walk's tallies count cards by face index: a face's own hash is a Python call, and the
    # walk tallies some 10^5 layouts' cards on a meld of wilds
    hand_n = Counter(f.index for f in hand)
    origin_n = Counter(f.index for f in meld.all_cards)
    first = _canonical(meld, start)
    seen: dict[TableMeld, tuple[Move, ...]] = {first: ()}  # path by canonical layout
    # per layout, of its path: the cards it borrows from other melds (a step that plays a card the hand
    # and the path's own takings do not hold) and its lending (see _lending)
    standing: dict[TableMeld, tuple[int, int]] = {first: (0, 0)}
    queue = deque([first])  # canonical layouts to walk from, breadth first
    from_table = {f.index for f in available}  # cards other melds' operations may take
    kinds = sorted(set(available) | set(hand) | set(meld.all_cards))
    by_index = {f.index: f for f in kinds}
    copies = {f.index: n for f, n in table.checker.ruleset.deck.copies.items()}
    wanted = {f.index for f in probe} if probe else None  # the probe's cards no layout reached lacks yet
    while queue:
        budget.check()
        if stop_at is not None and time.perf_counter() > stop_at:
            raise _Cut("time")
        key = queue.popleft()
        path = seen[key]
        current = path[-1].result if path else meld  # the layout as its path leaves it
        if not table.touchable(current, phase):
            continue
        short, area = standing[key]
        held = Counter(f.index for f in current.all_cards)
        played = Counter(f.index for m in path for f in m.played)
        took = Counter(f.index for m in path for f in m.taken)
        balance = sum(took.values()) - sum(played.values())  # cards the path has given the hand, net
        # what the path took from this meld is in the hand after it: it may be played again (a
        # card laid off, taken back by a later operation, and buried under a wild)
        extras = sum(max(0, n - hand_n[i] - took[i]) for i, n in played.items())
        legal = table.legal_with(current, phase, ops)
        may_play = legal.faces
        for face in kinds:
            i = face.index
            if not may_play >> i & 1:
                continue  # no operation plays it here (most cards, for most layouts)
            if held[i] >= copies.get(i, 0):  # every copy of it is in the meld already
                continue
            borrowed = played[i] >= hand_n[i] + took[i]
            if borrowed and (extras >= extra_cap or i not in from_table):
                continue  # no more of it in the hand, and no more cards from the table
            for op, played_now, taken, result, reading in legal(face):
                canonical = _canonical(result, reading)
                now = (short + borrowed, area + balance + len(taken) - len(played_now))
                other = seen.get(canonical)
                if other is not None:
                    # another shortest path to it (its layout not walked yet, breadth first, so
                    # what follows it follows the path kept): kept if it borrows fewer cards from
                    # other melds (the hand's own may do, for a while: a wild of the hand played
                    # by 抜き札 and taken back by 差し札), or, the same cards played and taken in
                    # another order, if it gives the hand its cards earlier
                    was = standing[canonical]
                    if len(other) == len(path) + 1 and (
                        now[0] < was[0]
                        or now[0] == was[0]
                        and now[1] > was[1]
                        and _same_cards(
                            other, played + Counter(f.index for f in played_now), took + Counter(f.index for f in taken)
                        )
                    ):
                        seen[canonical] = path + (Move(op, t, played_now, taken, result, reading),)
                        standing[canonical] = now
                    continue
                seen[canonical] = path + (Move(op, t, played_now, taken, result, reading),)
                standing[canonical] = now
                queue.append(canonical)
                if budget.deadline is None and len(seen) > MAX_LAYOUTS:
                    raise _Cut("layouts")  # under a deadline its share of the time bounds the walk
                if wanted and any(f.index in wanted for f in taken):
                    # the first layout of a path to lack a card is the one whose step took it
                    wanted -= {
                        f.index for f in taken if sum(g.index == f.index for g in result.all_cards) < origin_n[f.index]
                    }
                    if not wanted:
                        queue.clear()  # every card asked about is taken by some form: the probe is done
                        break
            if wanted is not None and not wanted:
                break
    # by what a form takes in and gives out: the form kept, and its rank once another met it (most never are)
    best: dict[tuple, tuple[Form, tuple | None]] = {}
    for path in seen.values():
        result = path[-1].result if path else meld
        after = Counter(f.index for f in result.all_cards)
        reading = path[-1].reading if path else start
        gain = meld_points(reading) - base_points if mine else 0
        form = Form(
            t,
            result,
            reading,
            path,
            tuple(by_index[i] for i in sorted((after - origin_n).elements())),
            tuple(by_index[i] for i in sorted((origin_n - after).elements())),
            gain,
            frozenset(m.op.before_own_meld for m in path),
        )
        key = (form.played, form.taken)
        kept = best.get(key)
        if kept is None:
            best[key] = (form, None)
            continue
        rank, kept_rank = _rank(form, in_hand), kept[1] or _rank(kept[0], in_hand)
        best[key] = (form, rank) if rank > kept_rank else (kept[0], kept_rank)
    return Walk([form for form, _ in best.values()], wanted is None or bool(wanted))


class Walk(NamedTuple):
    """What :func:`forms_of` found: the meld's forms, and whether the walk went to its end
    (False: a probe stopped early, the forms of the layouts it had reached)."""

    forms: list[Form]
    whole: bool


def _lending(path: tuple[Move, ...]) -> int:
    """How early a path gives the hand cards: over its steps, the sum of the cards it has taken out
    so far less those it has played in (the more, the earlier it gives and the later it asks)."""
    balance = area = 0
    for move in path:
        balance += len(move.taken) - len(move.played)
        area += balance
    return area


def _same_cards(path: tuple[Move, ...], played: Counter, taken: Counter) -> bool:
    """Does ``path`` play and take, over all its steps, these cards (counted by face index)?"""
    return (
        Counter(f.index for m in path for f in m.played) == played
        and Counter(f.index for m in path for f in m.taken) == taken
    )


def _rank(form: Form, hand: Counter) -> tuple:
    """Of forms that take in and give out the same cards, the model needs only the highest ranked
    (choosing another could never do better, but for what its steps need of the other melds, and
    when): the one worth more to the player, then the one with fewer restrictions before one's own
    meld, then the one whose path borrows fewer cards from other melds, then the shorter path,
    then the path that gives the hand its cards earlier."""
    return (
        form.gain,
        -len(form.restricted - {"allowed"}),
        -len(form.borrows(hand)),
        -len(form.path),
        _lending(form.path),
    )


def search_bounds(forms: int | None, cut: str | None, deadline: bool) -> dict[str, Any]:
    """The bounds a table turn's answer is the best within (``"search"`` in its JSON): each table
    meld changes by single-card operations, every layout it can reach by one shortest path (so a
    turn that needs a longer path to some layout is not seen), its forms playing at most
    :data:`EXTRA_CAP` cards that other melds' operations take; without a deadline a meld reaches at
    most :data:`MAX_LAYOUTS` layouts. ``forms``: how many forms the turn chose among (None: the
    search of them did not end); ``cut``: the limit that ended that search early, if one did."""
    return {
        "operations": "single-card",
        "paths": "shortest",
        "cards_from_other_melds": EXTRA_CAP,
        "layouts_per_meld": None if deadline else MAX_LAYOUTS,
        "forms": forms,
        "forms_complete": forms is not None and cut is None,
    }


class TableForms(NamedTuple):
    """What :func:`table_forms` found."""

    forms: list[list[Form]]  # per table meld, its forms
    extra: list[Face]  # the cards operations may take from the table (beyond the hand's)
    cut: str | None  # None: the search finished; else the limit that cut it ("time", "layouts")
    # per round of the search before the last, its (forms, extra): the forms of fewer cards — those
    # whose paths borrow only cards taken rounds before (a cut search: each meld's latest walk then) —
    # each a real form, smaller models (see tableturn's rungs)
    earlier: list[tuple[list[list[Form]], list[Face]]]


def table_forms(
    table: Table,
    melds: Sequence[TableMeld],
    hand: Sequence[Face],
    phase: str | None,
    ops: tuple[Operation, ...],
    budget: Budget,
    extra_cap: int | None = None,
    share: float | None = None,
    beside: bool | None = None,
) -> TableForms:
    """The forms of every table meld, the cards operations may take from the table (beyond the
    hand's), and None when the search finished, else the limit that cut it ("time": the share;
    "layouts": a meld past :data:`MAX_LAYOUTS`), with the rounds finished before the last.

    The cards that may be taken grow to a fixpoint in rounds of *probes*: the hand's cards first,
    then — while that finds new cards to take — up to ``extra_cap`` of the cards taken from other
    melds. A round asks each meld only which of its cards, not known to be takeable yet, some
    form takes: its walk stops once each is taken (a meld of wilds gives every card within a few
    steps; its whole walk reaches thousands of layouts), and a meld with none left to find is not
    walked. Only at the fixpoint is each meld walked whole, once (or not again, when its last
    probe went to its end with the same cards). The forms are those of whole rounds walked to the
    fixpoint (each round's cards taken are the same: a probe stops only once it has found all a
    whole walk could add), at a fraction of the walks: on the bench's three slowest turns the
    search took 5.7–7.1 s instead of 6.8–9.4 s (the later rounds walked every meld whole again).

    ``share``: of a query with a deadline, the part of the time left the search may take. Past it
    (or past the layouts), each meld keeps the forms of its latest walk that ended (a probe's, or
    its whole walk's; a meld not yet walked stays unchanged): each is a real form, reached by real
    operations, so every turn the model makes of them is a real turn — the turn is still answered,
    undecided, with the best found. ``earlier``: per round before the last, the forms of fewer
    cards (real forms, smaller models: tableturn's rungs) — those of the whole search whose paths
    borrow only cards taken in the rounds before it (:func:`_rungs`), or, of a search cut short,
    every meld's latest forms after that round. ``beside``: the last round's whole walks shared
    with a forked child (:func:`_walked_beside`; None: :data:`WALK_BESIDE`)."""
    extra_cap = EXTRA_CAP if extra_cap is None else extra_cap
    # the share of the time left (the budget may count from the command's start: its start-up is spent)
    stop_at = None if share is None or budget.deadline is None else time.perf_counter() + share * max(budget.left(), 0)
    in_hand = set(hand)
    latest: list[list[Form] | None] = [None] * len(melds)  # per meld, the forms of its latest walk
    whole_at: list[frozenset | None] = [None] * len(melds)  # the cards a meld's latest walk went to its end with
    finished: list[tuple[list[list[Form]], list[Face]]] = []  # after each round of probes: (forms, cards taken)
    extras: set[Face] = set()

    def walk(t: int, probe: set[Face] | None, within: Budget = budget) -> None:
        cap = extra_cap if extras else 0
        found = forms_of(
            table, t, melds[t], sorted(extras), phase, ops, within, melds[t].mine, hand, cap, stop_at, probe
        )
        latest[t] = found.forms
        whole_at[t] = frozenset(extras) if found.whole else None

    def now() -> list[list[Form]]:
        return [
            forms if forms is not None else [_unchanged(table, t, meld)]
            for t, (meld, forms) in enumerate(zip(melds, latest, strict=True))
        ]

    def taken_by(forms: list[list[Form]]) -> set[Face]:
        return {f for per_meld in forms for form in per_meld for f in form.taken} - in_hand

    try:
        while extra_cap:  # rounds of probes (no cards from other melds: none, one whole walk each)
            found: set[Face] = set()  # this round's cards taken (another meld need not find them again)
            for t, meld in enumerate(melds):
                probe = set(meld.all_cards) - in_hand - extras - found
                if probe:
                    walk(t, probe)
                    found |= taken_by([latest[t]])
            if found <= extras:
                break
            extras |= found
            finished.append((now(), sorted(extras)))
        todo = [t for t in range(len(melds)) if whole_at[t] != extras]
        if beside is None:
            beside = WALK_BESIDE
        if beside and forked.AVAILABLE and 2 <= len(todo) < 256:
            # the likeliest longest first (their probes found the most forms), so that the two
            # processes start on the two of them
            todo.sort(key=lambda t: -len(latest[t] or ()))
            for t, found in _walked_beside(
                todo, lambda t, within: walk(t, None, within) or latest[t], budget, table, ops
            ).items():
                latest[t], whole_at[t] = found, frozenset(extras)
        else:
            for t in todo:
                walk(t, None)
    except _Cut as cut:
        forms = now()
        return TableForms(forms, sorted(extras | taken_by(forms)), cut.limit, finished)
    forms = now()
    return TableForms(forms, sorted(extras), None, _rungs(table, melds, forms, [cards for _, cards in finished], hand))


def _walked_beside(
    todo: list[int], walk: Callable[[int, Budget], list[Form]], budget: Budget, table: Table, ops: tuple[Operation, ...]
) -> dict[int, list[Form]]:
    """The whole walks of the melds ``todo`` (``walk(t, budget)``: meld t's forms), shared with a
    forked child on another core (under :meth:`~solver.sat.budget.Budget.in_child`): each process
    takes the next meld not yet taken until none is left (a pipe holds them, a byte each: a read
    of one byte takes it for one reader alone), and the child sends back its melds' forms: the
    heaviest walks of a turn are a few melds of wilds, each long enough to be worth a core
    (docs/performance.md). Returns the forms of every meld of ``todo``. A walk cut short (the
    share of the time, the layouts) ends the search as it would here; a child that fails leaves
    its melds to this process."""
    read, write = os.pipe()
    os.write(write, bytes(todo))
    os.close(write)

    def take() -> Iterator[int]:
        while byte := os.read(read, 1):
            yield byte[0]

    def in_child() -> tuple[str, object]:
        within = budget.in_child()
        try:
            return "ok", {t: walk(t, within) for t in take()}
        except _Cut as cut:
            return "cut", cut.limit

    found: dict[int, list[Form]] = {}
    try:
        with forked.Forked(in_child, shared_objects(table.checker.ruleset, ops)) as child:
            for t in take():
                found[t] = walk(t, budget)
            status, value = child.result(None) or ("failed", child.error)
    finally:
        os.close(read)
    if status == "cut":
        raise _Cut(value)
    if status == "ok":
        found.update(value)
    for t in todo:  # a child that failed: its melds walked here
        if t not in found:
            found[t] = walk(t, budget)
    return found


def shared_objects(rs: Ruleset, ops: tuple[Operation, ...]) -> list[tuple[tuple, object]]:
    """What forms and answers sent back by a forked child (:mod:`solver.core.forked`) refer to,
    by key: the ruleset's cards, kinds and operations arrive as this process's own objects."""
    shared: list[tuple[tuple, object]] = [(("face", face.index), face) for face in rs.deck.faces]
    shared += [(("kind", kind.id), kind) for kind in rs.kinds]
    return shared + [(("op", op.id), op) for op in ops]


def _rungs(
    table: Table, melds: Sequence[TableMeld], forms: list[list[Form]], grown: list[list[Face]], hand: Sequence[Face]
) -> list[tuple[list[list[Form]], list[Face]]]:
    """The rounds' forms, as a search that walked each round whole would have had them: after the
    round that grew the cards taken from the table to ``grown[j]``, the forms whose paths borrow
    from other melds only cards taken before it (none, after the first). Each is a form of the
    whole search, so a real one. A meld none of whose forms qualifies keeps its unchanged form
    (the whole search may have kept, for the same cards, another layout of more points whose path
    borrows a card and gives it back)."""
    held = Counter(hand)
    borrowed = [[frozenset(form.borrows(held)) for form in per_meld] for per_meld in forms]
    rungs = []
    for j, cards in enumerate(grown):
        before = frozenset(grown[j - 1]) if j else frozenset()
        rungs.append(
            (
                [
                    [form for form, short in zip(per_meld, shorts, strict=True) if short <= before]
                    or [_unchanged(table, t, melds[t])]
                    for t, (per_meld, shorts) in enumerate(zip(forms, borrowed, strict=True))
                ],
                cards,
            )
        )
    return rungs


@dataclass(frozen=True)
class Takings:
    """Which forms of each table meld take which cards: what the turn model asks of the forms
    about the cards it may hold (built once, :meth:`of`). ``bits``: per table meld, per (card, k),
    its forms that take k copies of the card or more, as a bit set (a meld of four wilds has some
    1,700 forms: one AND a card, not a walk over them); ``sources``: per card, the table melds some
    form of which takes it."""

    bits: tuple[dict[tuple[Face, int], int], ...]
    sources: dict[Face, frozenset[int]]

    @classmethod
    def of(cls, forms: Sequence[Sequence[Form]]) -> Takings:
        taking: list[dict[tuple[Face, int], int]] = []
        sources: dict[Face, set[int]] = {}
        for t, per_meld in enumerate(forms):
            bits: dict[tuple[Face, int], int] = {}
            for i, form in enumerate(per_meld):
                for face, count in Counter(form.taken).items():
                    sources.setdefault(face, set()).add(t)
                    for k in range(1, count + 1):
                        bits[face, k] = bits.get((face, k), 0) | 1 << i
            taking.append(bits)
        return cls(tuple(taking), {face: frozenset(melds) for face, melds in sources.items()})

    def most(self) -> Counter:
        """Per card, the most copies the forms can take from the table at once (one form a meld)."""
        most: Counter = Counter()
        for bits in self.bits:
            top: dict[Face, int] = {}
            for face, k in bits:
                top[face] = max(top.get(face, 0), k)
            most.update(top)
        return most

    def holdable(self, hand: Sequence[Face]) -> Callable[[Sequence[Face]], bool]:
        """Whether a turn choosing one form per table meld could hold ``cards`` at once, with
        ``hand`` (a necessary condition, not a sufficient one). A copy beyond the hand's comes from
        a table meld whose form takes it, and each meld has one form: the cards only one meld can
        give must all be taken by one of its forms. A card more than one meld could give is not
        judged (which melds give it would be a matching). On the bench's table turns, a long run
        of the cards of one table run, each of which some form takes but none all, seemed within
        reach; its points, paid card by card, were most of what the optimiser had to prove out of
        reach (601 meld points of caps on a turn whose best is 10; see :mod:`solver.melding.meld.lines`)."""
        held = Counter(hand)
        taking, sources = self.bits, self.sources

        def judge(cards: Sequence[Face]) -> bool:
            left: dict[int, int] = {}  # per table meld that must give some of them, its forms that could
            for face, count in Counter(cards).items():
                short = count - held[face]
                if short <= 0:
                    continue
                melds = sources.get(face)
                if not melds:
                    return False
                if len(melds) == 1:
                    t = next(iter(melds))
                    could = left.get(t, -1) & taking[t].get((face, short), 0)
                    if not could:
                        return False
                    left[t] = could
            return True

        return judge

    def apart(self) -> list[tuple[tuple[Face, int], tuple[Face, int]]]:
        """Pairs ((card, k), (other card, j)) that no turn can take from the table at once — k
        copies of the one and j of the other — when one table meld only gives both, and none of
        its forms takes both: the model implies it (one form per meld), but only through a search
        of that meld's forms, which may be thousands (see ``TableTurn._apart_clauses``). Of the
        counts, the least only (more copies of either are apart from the other all the more)."""
        pairs = []
        for t, bits in enumerate(self.bits):
            alone = sorted(key for key in bits if self.sources[key[0]] == {t})
            for i, (a, ka) in enumerate(alone):
                for b, kb in alone[i + 1 :]:
                    if a == b or bits[a, ka] & bits[b, kb]:
                        continue
                    if ka > 1 and not bits[a, ka - 1] & bits[b, kb] or kb > 1 and not bits[a, ka] & bits[b, kb - 1]:
                        continue  # fewer copies are apart already
                    pairs.append(((a, ka), (b, kb)))
        return pairs


def _unchanged(table: Table, t: int, meld: TableMeld) -> Form:
    """A table meld's form that leaves it as it is."""
    return Form(t, meld, table.reading(meld), (), (), (), 0, frozenset())
