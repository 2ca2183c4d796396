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

# The tuned settings of the search of forms (the measurements behind them: docs/performance.md)
# layouts one meld may reach in a turn without a deadline (with one, the share of the time bounds the
# walk): a pathological table's time and memory against walks cut short (undecided, "layouts")
MAX_LAYOUTS = 20_000
# cards a form may play that other melds' operations take (the hand's own are never limited): turns
# that pass several cards between melds against forms multiplied by the table's wilds for each
EXTRA_CAP = 1
# the last round's whole walks shared with a forked child on another core (_walked_beside), every such
# round however short: a second core against a fork's cost; table_forms' ``beside`` overrides it
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


def _layout_key(meld: TableMeld, sequence: bool) -> tuple[tuple[int, int], ...]:
    """A layout as a walk tells layouts apart (:func:`_pairs_key` of its cards and buried wilds)."""
    return _pairs_key(meld.faces, meld.buried, sequence)


def _pairs_key(faces: tuple[Face, ...], buried: tuple, sequence: bool) -> tuple[tuple[int, int], ...]:
    """The key of a layout of ``faces`` with ``buried`` wilds, by face index (a card's own hash is a
    Python call): a group's (face, buried wild) pairs in one order (its cards' order says nothing:
    3 cards laid off one at a time at either end reach one group, not eight layouts of it); a
    sequence's in one of its two directions (a meld on the table is read left to right or right to
    left, and every operation is the same at either end: seen from across the table it is the same
    meld, with the same operations open to it, mirrored)."""
    pairs = [(f.index, -1 if b is None else b.index) for f, b in zip(faces, buried, strict=True)]
    if sequence:
        back = pairs[::-1]
        return tuple(back if back < pairs else pairs)
    pairs.sort()
    return tuple(pairs)


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
    walk = _MeldWalk(table, t, meld, available, hand, extra_cap, probe)
    while walk.queue:
        budget.check()
        if stop_at is not None and time.perf_counter() > stop_at:
            raise _Cut("time")
        walk.expand(walk.queue.popleft(), phase, ops, budget.deadline is None)
    return Walk(walk.forms(mine), walk.wanted is None or bool(walk.wanted), len(walk.seen))


class _MeldWalk:
    """The state of one meld's breadth-first walk (:func:`forms_of`): the layouts reached, each by
    its path, and the layouts still to walk from. Its tallies count cards by face index: a face's
    own hash is a Python call, and a walk tallies some 10^5 layouts' cards on a meld of wilds."""

    def __init__(
        self,
        table: Table,
        t: int,
        meld: TableMeld,
        available: Sequence[Face],
        hand: Sequence[Face],
        extra_cap: int,
        probe: set[Face] | None,
    ):
        self.table, self.t, self.meld, self.hand, self.extra_cap = table, t, meld, hand, extra_cap
        self.start = table.legal_reading(meld)
        self.hand_n = Counter(f.index for f in hand)
        self.origin_n = Counter(f.index for f in meld.all_cards)
        first = _layout_key(meld, self.start.kind.shape == "sequence")
        self.seen: dict[tuple, tuple[Move, ...]] = {first: ()}  # path by layout (_layout_key)
        # per layout, of its path: the cards it borrows from other melds (a step that plays a card the
        # hand and the path's own takings do not hold) and its lending (see _lending)
        self.standing: dict[tuple, tuple[int, int]] = {first: (0, 0)}
        self.queue = deque([first])  # layouts to walk from, breadth first
        self.from_table = {f.index for f in available}  # cards other melds' operations may take
        self.kinds = sorted(set(available) | set(hand) | set(meld.all_cards))
        self.by_index = {f.index: f for f in self.kinds}
        self.copies = {f.index: n for f, n in table.checker.ruleset.deck.copies.items()}
        # the probe's cards no layout reached lacks yet
        self.wanted: set[int] | None = {f.index for f in probe} if probe else None

    def expand(self, key: tuple, phase: str | None, ops: tuple[Operation, ...], guarded: bool) -> None:
        """Every layout one operation makes of ``key``'s, each new one queued with its path, and a
        shorter-borrowing or earlier-lending path kept for one reached already at this depth.
        ``guarded``: a meld past :data:`MAX_LAYOUTS` layouts ends the walk (:class:`_Cut`)."""
        seen, standing, hand_n, wanted = self.seen, self.standing, self.hand_n, self.wanted
        path = seen[key]
        current = path[-1].result if path else self.meld  # the layout as its path leaves it
        if not self.table.touchable(current, phase):
            return
        short, area = standing[key]
        held = Counter(f.index for f in current.all_cards)
        played = Counter(f.index for m in path for f in m.played)
        took = Counter(f.index for m in path for f in m.taken)
        balance = sum(took.values()) - sum(played.values())  # cards the path has given the hand, net
        # what the path took from this meld is in the hand after it: it may be played again (a
        # card laid off, taken back by a later operation, and buried under a wild)
        extras = sum(max(0, n - hand_n[i] - took[i]) for i, n in played.items())
        legal = self.table.legal_with(current, phase, ops)
        may_play = legal.faces
        for face in self.kinds:
            i = face.index
            if not may_play >> i & 1:
                continue  # no operation plays it here (most cards, for most layouts)
            if held[i] >= self.copies.get(i, 0):  # every copy of it is in the meld already
                continue
            borrowed = played[i] >= hand_n[i] + took[i]
            if borrowed and (extras >= self.extra_cap or i not in self.from_table):
                continue  # no more of it in the hand, and no more cards from the table
            for n, candidate in enumerate(legal.candidates(face)):
                moved = len(candidate.taken) - 1  # cards the step gives the hand, net (it plays one)
                now = (short + borrowed, area + balance + moved)
                sequence = candidate.sequence
                if sequence is None and not self.table.may_read_as_sequence(candidate.faces):
                    sequence = False  # a kind may change (付け札 on one's own meld), but only to a group's
                if sequence is not None:
                    # the layout's key is known before its reading: reached already (by a path no
                    # longer than this one's next step, or by one as long that this would not
                    # replace), the checker need not be asked of it
                    known = _pairs_key(candidate.faces, candidate.buried, sequence)
                    if known in seen and not self._replaces(known, path, now, face, candidate.taken):
                        continue
                move = legal.judged(face, n)
                if move is None:
                    continue
                op, played_now, taken, result, reading = move
                reached = _layout_key(result, reading.kind.shape == "sequence")
                if reached in seen:
                    # another shortest path to it (its layout not walked yet, breadth first, so
                    # what follows it follows the path kept): kept if it replaces the path kept
                    if self._replaces(reached, path, now, face, taken):
                        seen[reached] = path + (Move(op, self.t, played_now, taken, result, reading),)
                        standing[reached] = now
                    continue
                seen[reached] = path + (Move(op, self.t, played_now, taken, result, reading),)
                standing[reached] = now
                self.queue.append(reached)
                if guarded and len(seen) > MAX_LAYOUTS:
                    raise _Cut("layouts")  # under a deadline its share of the time bounds the walk
                if wanted and any(f.index in wanted for f in taken):
                    # the first layout of a path to lack a card is the one whose step took it
                    wanted -= {
                        f.index
                        for f in taken
                        if sum(g.index == f.index for g in result.all_cards) < self.origin_n[f.index]
                    }
                    if not wanted:
                        self.queue.clear()  # every card asked about is taken by some form: the probe is done
                        return

    def _replaces(self, key: tuple, path: tuple[Move, ...], now: tuple[int, int], face: Face, taken: tuple) -> bool:
        """Does ``path`` and one step more (playing ``face``, taking ``taken``; its standing
        ``now``) replace the path kept to the layout ``key``, reached before? Only as short a path
        may: one that borrows fewer cards from other melds (the hand's own may do, for a while: a
        wild of the hand played by 抜き札 and taken back by 差し札), or, the same cards played and
        taken in another order, one that gives the hand its cards earlier."""
        other, was = self.seen[key], self.standing[key]
        if len(other) != len(path) + 1:
            return False
        if now[0] != was[0]:
            return now[0] < was[0]
        if now[1] <= was[1]:
            return False
        played = Counter(f.index for m in path for f in m.played)
        played[face.index] += 1
        took = Counter(f.index for m in path for f in m.taken) + Counter(f.index for f in taken)
        return _same_cards(other, played, took)

    def forms(self, mine: bool) -> list[Form]:
        """The forms of the layouts reached: of those that take in and give out the same cards, the
        highest ranked (:func:`_rank`; most never meet another)."""
        base_points = meld_points(self.start) if mine else 0
        in_hand = Counter(self.hand)
        best: dict[tuple, tuple[Form, tuple | None]] = {}  # the form kept, and its rank once another met it
        for path in self.seen.values():
            result = path[-1].result if path else self.meld
            after = Counter(f.index for f in result.all_cards)
            reading = path[-1].reading if path else self.start
            gain = meld_points(reading) - base_points if mine else 0
            form = Form(
                self.t,
                result,
                reading,
                path,
                tuple(self.by_index[i] for i in sorted((after - self.origin_n).elements())),
                tuple(self.by_index[i] for i in sorted((self.origin_n - after).elements())),
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
        return [form for form, _ in best.values()]


class Walk(NamedTuple):
    """What :func:`forms_of` found: the meld's forms, whether the walk went to its end (False: a
    probe stopped early, the forms of the layouts it had reached), and how many layouts it reached
    (more than its forms: layouts of the same cards, differently arranged, are one form)."""

    forms: list[Form]
    whole: bool
    layouts: int


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
    whole walk could add), at a fraction of the walks (docs/performance.md).

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
    left = budget.left()  # (None: no deadline)
    stop_at = None if share is None or left is None else time.perf_counter() + share * max(left, 0)
    search = _FormSearch(table, melds, hand, phase, ops, budget, extra_cap, stop_at)
    try:
        search.probe_rounds()
        search.walk_whole(WALK_BESIDE if beside is None else beside)
    except _Cut as cut:
        forms = search.now()
        return TableForms(forms, sorted(search.extras | search.taken_by(forms)), cut.limit, search.finished)
    forms = search.now()
    grown = [cards for _, cards in search.finished]
    return TableForms(forms, sorted(search.extras), None, _rungs(table, melds, forms, grown, hand))


class _FormSearch:
    """The state the rounds of :func:`table_forms` share: per meld, the forms of its latest walk and
    the cards that walk went to its end with; the cards taken from the table so far; the forms and
    cards after each round of probes."""

    def __init__(
        self,
        table: Table,
        melds: Sequence[TableMeld],
        hand: Sequence[Face],
        phase: str | None,
        ops: tuple[Operation, ...],
        budget: Budget,
        extra_cap: int,
        stop_at: float | None,
    ):
        self.table, self.melds, self.hand, self.phase, self.ops = table, melds, hand, phase, ops
        self.budget, self.extra_cap, self.stop_at = budget, extra_cap, stop_at
        self.in_hand = set(hand)
        self.latest: list[list[Form] | None] = [None] * len(melds)  # per meld, the forms of its latest walk
        self.whole_at: list[frozenset[Face] | None] = [None] * len(melds)  # the cards it went to its end with
        self.finished: list[tuple[list[list[Form]], list[Face]]] = []  # per round of probes: (forms, cards taken)
        self.extras: set[Face] = set()

    def walk(self, t: int, probe: set[Face] | None, within: Budget | None = None) -> list[Form]:
        """Meld t walked (whole, or as far as ``probe`` asks), its forms kept as its latest."""
        cap = self.extra_cap if self.extras else 0
        meld = self.melds[t]
        found = forms_of(
            self.table,
            t,
            meld,
            sorted(self.extras),
            self.phase,
            self.ops,
            within or self.budget,
            meld.mine,
            self.hand,
            cap,
            self.stop_at,
            probe,
        )
        self.latest[t] = found.forms
        self.whole_at[t] = frozenset(self.extras) if found.whole else None
        return found.forms

    def now(self) -> list[list[Form]]:
        """Every meld's latest forms (a meld not walked yet: unchanged)."""
        return [
            forms if forms is not None else [_unchanged(self.table, t, meld)]
            for t, (meld, forms) in enumerate(zip(self.melds, self.latest, strict=True))
        ]

    def taken_by(self, forms: list[list[Form]]) -> set[Face]:
        return {f for per_meld in forms for form in per_meld for f in form.taken} - self.in_hand

    def probe_rounds(self) -> None:
        """The cards that may be taken from the table, grown to a fixpoint by rounds of probes (no
        cards from other melds allowed: none, one whole walk each)."""
        while self.extra_cap:
            found: set[Face] = set()  # this round's cards taken (another meld need not find them again)
            for t, meld in enumerate(self.melds):
                probe = set(meld.all_cards) - self.in_hand - self.extras - found
                if probe:
                    found |= self.taken_by([self.walk(t, probe)])
            if found <= self.extras:
                return
            self.extras |= found
            self.finished.append((self.now(), sorted(self.extras)))

    def walk_whole(self, beside: bool) -> None:
        """Each meld walked whole at the fixpoint, unless its last probe went to its end with the
        same cards; ``beside``: the walks shared with a forked child (:func:`_walked_beside`)."""
        extras = frozenset(self.extras)
        todo = [t for t in range(len(self.melds)) if self.whole_at[t] != extras]
        if beside and forked.AVAILABLE and 2 <= len(todo) < 256:
            # the likeliest longest first (their probes found the most forms), so that the two
            # processes start on the two of them
            todo.sort(key=lambda t: -len(self.latest[t] or ()))
            walked = _walked_beside(
                todo, lambda t, within: self.walk(t, None, within), self.budget, self.table, self.ops
            )
            for t, found in walked.items():
                self.latest[t], self.whole_at[t] = found, frozenset(self.extras)
        else:
            for t in todo:
                self.walk(t, None)


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
            outcome: tuple[str, Any] = child.result(None) or ("failed", child.error)
            status, value = outcome
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


def _unchanged(table: Table, t: int, meld: TableMeld) -> Form:
    """A table meld's form that leaves it as it is."""
    return Form(t, meld, table.legal_reading(meld), (), (), (), 0, frozenset())
