"""What the meld checker settles without a SAT call, always as the solver would.

The checker's diagnosis (``MeldChecker._diagnose``) looks for the fewest rules to blame: it relaxes
a kind's rules and re-enables them one at a time, asking the solver each time whether the cards
still read as the kind. Three plain looks spare most of those calls:

* :func:`~solver.melding.meld.looks.certainly_broken`: rules no reading can keep, seen from what
  each card could be (:mod:`solver.melding.meld.looks`) — enabling one is unsatisfiable;
* :func:`rule_holds`: the last model already keeps a rule (with at most the rule's own auxiliary
  variables — a meld's common rank, a window's first suit and direction, a cardinality encoding's
  counters — set anew), so enabling it is satisfiable;
* :func:`plain_model`: a model with every rule but the broken ones, written out: each card given
  its only option, or one of a few likely ones for a wild, at each start, checked rule by rule.

Each answers only when sure (False, or None, otherwise, and the solver is asked), following the
clauses ``encode.py`` writes under each rule's selector; so the rules blamed are the solver's
answers (tests/test_checker_shortcuts.py confirms every shortcut with the solver).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import product
from math import prod

from solver.core.rules import WildLimit
from solver.melding.meld.encode import KindModel, Reading, Values
from solver.melding.meld.looks import card_options


class Assignment:
    """The values a satisfying assignment gives the present cards of one query."""

    def __init__(self, model: KindModel, indices: Sequence[int], values: Values):
        self.model = model
        self.indices = list(indices)
        self._values = values

    @property
    def values(self) -> Values:
        return self._values

    def first(self, lits: Sequence[int]) -> int:
        return next(j for j, lit in enumerate(lits) if self._values[lit - 1] > 0)

    def entry(self, c: int):
        """(entry index, KindRole) card ``c`` plays."""
        return self.model.entries[c][self.first(self.model.role_lits[c])]

    def suit(self, c: int) -> int:
        return self.first(self.model.xs[c])

    def rank(self, c: int) -> int:
        return self.first(self.model.xr[c])

    def offset(self, c: int) -> int:
        return self.first(self.model.rel[c])

    def reading(self) -> Reading | None:
        """The reading these values give the present cards (:meth:`KindModel.reading`)."""
        return self.model.reading(self.indices, self.values)


def rule_holds(a: Assignment, key: str) -> bool:
    """The assignment keeps rule ``key`` (up to the rule's own auxiliary variables); False when
    unsure."""
    return rule_test(a.model, key)(a)


def rule_test(model: KindModel, key: str) -> Callable[[Assignment], bool]:
    """:func:`rule_holds` for rule ``key`` of ``model``, as a test of an assignment: the rule is
    read once, and a search that tries many assignments (:func:`plain_model`) calls the test."""
    tests = model.__dict__.get("_rule_tests")
    if tests is None:
        tests = model.__dict__["_rule_tests"] = {}
    test = tests.get(key)
    if test is None:
        test = tests[key] = _rule_test(model, key)
    return test


def _rule_test(model: KindModel, key: str) -> Callable[[Assignment], bool]:
    kind = model.kind
    shape = kind.shape
    if model.degenerate:
        return _unsure
    if key == "same-rank" and shape in ("group", "identical"):
        return lambda a: len({a.rank(c) for c in a.indices}) <= 1
    if key == "same-suit" and shape in ("identical", "flush"):
        return lambda a: len({a.suit(c) for c in a.indices}) <= 1
    if key == "distinct" and shape == "group":
        return lambda a: _all_differ([a.suit(c) for c in a.indices])
    if key == "distinct" and shape == "flush":
        return lambda a: _all_differ([a.rank(c) for c in a.indices])
    if shape == "sequence":
        if key == "consecutive":
            return lambda a: all(a.offset(c) < model.n for c in a.indices)
        if key in ("same-suit", "suit-step") and key == ("suit-step" if kind.suit_step.cycle else "same-suit"):
            return _steps_hold
        if key == "distinct":
            order = kind.run_order.ranks
            if len(set(order)) != len(order):
                return _unsure  # a rank twice in the order adds clauses not followed here
            return lambda a: _all_differ([a.offset(c) for c in a.indices])
    if key == "short-form" and kind.short_form is not None:
        roles = kind.short_form.roles
        return lambda a: all(a.entry(c)[1].role.id in roles for c in a.indices)
    if key.startswith("role-size:"):
        entry = int(key.split(":", 1)[1])
        return lambda a: all(a.entry(c)[0] != entry for c in a.indices)
    if key.startswith("requires:"):
        role_id = key.split(":", 1)[1]
        needy = frozenset(  # the cards that may play the role with a need: only they are looked at
            c
            for c, entries in enumerate(model.entries)
            if any(e.role.id == role_id and e.role.requires_in_meld is not None for _, e in entries)
        )
        return partial(_requirements_hold, role_id=role_id, needy=needy)
    if key == "wilds" and kind.wilds:
        return partial(_wilds_within, limit=kind.wilds)
    return _unsure


def _unsure(a: Assignment) -> bool:
    return False


def _all_differ(values: list[int]) -> bool:
    """No two present cards share a value (a group's suits, a flush's ranks, a sequence's places)."""
    return len(set(values)) == len(values)


def _wilds_within(a: Assignment, limit: WildLimit) -> bool:
    lo, hi = limit.bounds(len(a.indices))
    wilds = sum(a.entry(c)[1].role.wild for c in a.indices)
    return lo <= wilds <= hi


def _steps_hold(a: Assignment) -> bool:
    """Some first suit and direction give every present card its suit at its offset (the
    window's first suit and direction appear in no other rule)."""
    return _direction(a, None) is not None


def _direction(a: Assignment, otherwise: str | None = "") -> str | None:
    """The first direction in which some first suit gives every present card its suit at its
    offset; ``otherwise`` (the model's first direction when not given) if none does."""
    every, masks = _along_masks(a.model)
    along = every  # the (direction, first suit) entries of _suits_along still open, a bit each
    for c in a.indices:
        along &= masks.get((a.offset(c), a.suit(c)), 0)
        if not along:
            return a.model.directions[0] if otherwise == "" else otherwise
    if not along:  # (no direction at all)
        return a.model.directions[0] if otherwise == "" else otherwise
    return _suits_along(a.model)[(along & -along).bit_length() - 1][0]


def _along_masks(model: KindModel) -> tuple[int, dict[tuple[int, int], int]]:
    """Every entry of :func:`_suits_along` (a bit each, in its order), and per (offset, suit
    index) the entries that put that suit at that offset: once a model."""
    found = model.__dict__.get("_along_masks")
    if found is None:
        table = _suits_along(model)
        masks: dict[tuple[int, int], int] = {}
        for at, (_, along) in enumerate(table):
            for i, j in enumerate(along):
                if j >= 0:
                    masks[(i, j)] = masks.get((i, j), 0) | 1 << at
        found = model.__dict__["_along_masks"] = ((1 << len(table)) - 1, masks)
    return found


def _suits_along(model: KindModel) -> list[tuple[str, list]]:
    """(direction, the suit index at each offset) for every direction and first suit, directions
    in the model's order: once a model."""
    table = model.__dict__.get("_suits_along")
    if table is None:
        suits = model.kind.suits
        width = max(len(model.kind.run_order.ranks), model.n)
        table = []
        for d in model.directions:
            for s0 in suits:
                steps = [model.steps.step(s0, d, i) if model.steps else s0 for i in range(width)]
                table.append((d, [suits.index(x) if x in suits else -1 for x in steps]))
        model.__dict__["_suits_along"] = table
    return table


def _requirements_hold(a: Assignment, role_id: str, needy: frozenset[int]) -> bool:
    """Every present card playing ``role_id`` has a card of a required class beside it (``needy``:
    the cards with an entry of that role that needs one)."""
    model = a.model
    for c in a.indices:
        if c not in needy:
            continue
        _, entry = a.entry(c)
        if entry.role.id != role_id:
            continue
        needed = entry.role.requires_in_meld
        if needed is None:
            continue
        if not any(o != c and model.cards[o][0].cls in needed.classes for o in a.indices):
            return False
    return True


class _Placed(Assignment):
    """An assignment the checker wrote itself: each card's entry, suit, rank and offset known."""

    def __init__(self, model: KindModel, indices: list[int], placed: dict, combo: tuple, start: int | None):
        self.model = model
        self.indices = indices  # the query's own list, read only
        self.placed = placed  # card -> (entry index, KindRole, suit index, rank index, offset)
        self.combo = combo  # each card's (entry, suit, rank) option
        self.start = start  # a sequence's start (None for a group)

    def entry(self, c: int):
        return self.placed[c][:2]

    def suit(self, c: int) -> int:
        return self.placed[c][2]

    def rank(self, c: int) -> int:
        return self.placed[c][3]

    def offset(self, c: int) -> int:
        return self.placed[c][4]

    @property
    def values(self) -> _Chosen:
        """The model's variables this assignment makes true, as a solver's model would list them."""
        model, true = self.model, set[int]()
        for c, (k, j, q) in zip(self.indices, self.combo, strict=True):
            true.update((model.pres[c], model.role_lits[c][k], model.xs[c][j]))
            if self.start is None:
                true.add(model.xr[c][q])
            else:
                true.update((model.pos[c][q], model.rel[c][self.placed[c][4]]))
        if self.start is not None:
            true.update((model.st[self.start], model.v("dir", _direction(self))))  # the reading names it
        return _Chosen(true)

    def reading(self) -> Reading | None:
        """The reading of :attr:`values`, composed from the options chosen (no variable looked up)."""
        model = self.model
        kind = model.kind
        if self.start is None:
            ranks, direction = kind.ranks, None
        else:
            ranks, direction = kind.run_order.ranks, _direction(self)
        return model.composed(
            (
                (c, self.placed[c][1], j, ranks[q], self.placed[c][4])
                for c, (_, j, q) in zip(self.indices, self.combo, strict=True)
            ),
            direction,
        )


class _Chosen:
    """A model's values as a list would give them (``values[var - 1] > 0``), for an assignment the
    checker chose itself: the variables in ``true`` are true, every other false."""

    def __init__(self, true: set[int]):
        self.true = true

    def __getitem__(self, index: int) -> int:
        return 1 if index + 1 in self.true else -1


def plain_model(model: KindModel, indices: list[int], enabled: set[str]) -> Assignment | None:
    """A model with the rules ``enabled``, written without the solver: each card given one of
    its options (role entry, suit and rank of the kind) — the only one for a five-element card, a
    few likely ones for a wild — at each start of a sequence, kept when every enabled rule holds
    (:func:`rule_holds`). None when nothing tried keeps them all, or a role hangs on the query's
    parameters: the solver is then asked as before. Unordered queries only."""
    prep = _plain_prep(model)
    if prep is None or not prep.conditional.isdisjoint(indices):
        return None
    options = [card_options(model, c)[2] for c in indices]
    fixed = [o[0] for o in options if len(o) == 1]
    keys = sorted(enabled, key=_cost)
    tests = [rule_test(model, key) for key in keys if not _idle(model, key, indices)]
    starts: Sequence[int | None] = prep.starts
    if prep.sequence and not model.kind.suit_step.cycle and "consecutive" not in keys:
        starts = starts[:1]  # offsets then matter only as places (distinct): any start will do
    # the suit steps' test (a sequence's, kept), read on the cards without a choice at each start
    steps = _along_masks(model) if prep.step_key in keys else None
    tries = PLAIN_TRIES
    for p in starts:
        place = prep.places[p].__getitem__ if p is not None else None  # a sequence's places from its start p
        if place is not None and not _start_fits(model, [place(q) for _, _, q in fixed], keys):
            continue
        choices = [
            o if len(o) == 1 else _likely(model, c, o, fixed, keys, place)
            for c, o in zip(indices, options, strict=True)
        ]
        if place is not None and steps is not None and not _steps_may_hold(steps, fixed, place):
            tries -= prod(len(choice) for choice in choices)  # each candidate breaks the steps: a try all the same
            if tries < 0:
                return None
            continue
        for combo in product(*choices):
            tries -= 1
            if tries < 0:
                return None
            if place is not None and steps is not None and not _steps_may_hold(steps, combo, place):
                continue  # the steps' test would fail (the other tests are read only when all pass)
            found = _assigned(model, indices, combo, p, place)
            if found is not None and all(test(found) for test in tests):
                return found
    return None


@dataclass(frozen=True)
class _PlainPrep:
    """What :func:`plain_model` reads of a model at every call, read once: the cards with a role
    entry that hangs on the query's parameters, the starts, and (a sequence) each start's place of
    every position of the order."""

    conditional: frozenset[int]
    sequence: bool
    starts: Sequence[int | None]
    places: dict[int, list[int]]
    step_key: str | None = None  # the rule a sequence's suit steps are tested by (_steps_hold)


def _plain_prep(model: KindModel) -> _PlainPrep | None:
    """The model's :class:`_PlainPrep`; None when :func:`plain_model` writes no model of it (a
    degenerate model, a flush, an order with a rank twice or a window around the whole order)."""
    memo = model.__dict__
    if "_plain_prep" not in memo:
        memo["_plain_prep"] = _prepared(model)
    prep: _PlainPrep | None = memo["_plain_prep"]
    return prep


def _prepared(model: KindModel) -> _PlainPrep | None:
    kind = model.kind
    if model.degenerate or kind.shape == "flush":
        return None  # a flush's options are written for groups and sequences: the solver is asked
    conditional = frozenset(
        c for c, entries in enumerate(model.entries) if any(model.gate.conditional(kind, i) for i, _ in entries)
    )
    if kind.shape != "sequence":
        return _PlainPrep(conditional, False, [None], {})
    order = kind.run_order
    length = len(order.ranks)
    if len(set(order.ranks)) != length or model.n >= length:
        return None  # a rank twice, or a window around the whole order (a canonical start)
    starts = model.starts()
    places = {p: [(q - p) % length if order.cyclic else q - p for q in range(length)] for p in starts}
    return _PlainPrep(conditional, True, starts, places, "suit-step" if kind.suit_step.cycle else "same-suit")


def _steps_may_hold(
    steps: tuple[int, dict[tuple[int, int], int]], chosen: Sequence, place: Callable[[int], int]
) -> bool:
    """Some first suit and direction give each card of ``chosen`` (its option) its suit at its place
    (``place``: from the start tried), as :func:`_steps_hold` reads them (``steps``:
    :func:`_along_masks`): else that test fails whatever the other cards play."""
    along, masks = steps
    for _, j, q in chosen:
        along &= masks.get((place(q), j), 0)
        if not along:
            return False
    return True


def _idle(model: KindModel, key: str, indices: Sequence[int]) -> bool:
    """Rule ``key``'s test (:func:`rule_test`) passes whatever the cards play: no card present has
    the role entry whose sizes it bounds, nor a role of the name whose needs it states."""
    active = _test_cards(model).get(key)
    return active is not None and active.isdisjoint(indices)


def _test_cards(model: KindModel) -> dict[str, frozenset[int]]:
    """Per rule about one role entry's sizes or one role's needs, the cards whose play its test
    reads (those with that entry, or with an entry of that role that needs a card beside it):
    once a model."""
    found: dict[str, frozenset[int]] | None = model.__dict__.get("_test_cards")
    if found is None:
        found = {}
        for key in model.rules:
            if key.startswith("role-size:"):
                at = int(key.split(":", 1)[1])
                found[key] = frozenset(c for c, entries in enumerate(model.entries) if any(i == at for i, _ in entries))
            elif key.startswith("requires:"):
                role = key.split(":", 1)[1]
                found[key] = frozenset(
                    c
                    for c, entries in enumerate(model.entries)
                    if any(e.role.id == role and e.role.requires_in_meld is not None for _, e in entries)
                )
        model.__dict__["_test_cards"] = found
    return found


def _cost(key: str) -> int:
    """Rules that a start decides first (they fail most), those of roles next, suit steps last."""
    return 2 if key in ("suit-step", "same-suit") else 1 if ":" in key else 0


def _start_fits(model: KindModel, offsets: list[int], enabled: list[str]) -> bool:
    """The cards without a choice have offsets the start allows (inside the window when
    'consecutive' is kept, one a place when 'distinct' is)."""
    if any(i < 0 for i in offsets):
        return False
    if "consecutive" in enabled and any(i >= model.n for i in offsets):
        return False
    return "distinct" not in enabled or len(set(offsets)) == len(offsets)


PLAIN_TRIES = 40  # candidates tried (options and starts) before the solver is asked: a SAT call's worth


def _likely(model: KindModel, c: int, options: list, fixed: list, enabled: Sequence[str], place) -> list:
    """The options of a card with a choice that the enabled rules leave open beside the cards
    without one (the same rank, another suit, a free offset inside the window); natural roles
    first."""
    ordered = _natural_first(model, c, options)
    if place is None:  # a group
        ranks = {q for _, _, q in fixed}
        suits = {j for _, j, _ in fixed}
        one_rank = "same-rank" in enabled and bool(ranks)
        distinct = "distinct" in enabled
        return [
            o
            for o in ordered
            if not (one_rank and (len(ranks) > 1 or o[2] not in ranks)) and not (distinct and o[1] in suits)
        ]
    taken = {place(q) for _, _, q in fixed}
    width = model.n if "consecutive" in enabled else len(model.kind.run_order.ranks)  # (a place is below it)
    distinct = "distinct" in enabled
    out = []
    for o in ordered:
        i = place(o[2])
        if i < 0 or i >= width or (distinct and i in taken):
            continue
        out.append(o)
    return out


def _natural_first(model: KindModel, c: int, options: list) -> list:
    """Card ``c``'s ``options`` (:func:`card_options`), those of natural roles first (a stable
    order: otherwise as given): once a model."""
    memo = model.__dict__.get("_natural_first")
    if memo is None:
        memo = model.__dict__["_natural_first"] = {}
    found = memo.get(c)
    if found is None:
        entries = model.entries[c]
        found = memo[c] = sorted(options, key=lambda o: entries[o[0]][1].role.wild)
    return found


def _assigned(model: KindModel, indices: list[int], combo, p, place) -> _Placed | None:
    """The cards given the options in ``combo`` (at start ``p`` of a sequence); None when an
    option falls before the start."""
    placed = {}
    for c, (k, j, q) in zip(indices, combo, strict=True):
        if place is None:
            placed[c] = model.entries[c][k] + (j, q, None)
            continue
        i = place(q)
        if i < 0:
            return None
        placed[c] = model.entries[c][k] + (j, None, i)
    return _Placed(model, indices, placed, combo, p)


def vacuous(model: KindModel, key: str, indices: Sequence[int]) -> bool:
    """A rule about one role entry (its sizes, what it requires in the meld) says nothing when no
    card present can take that entry: relaxing it or not gives the same models."""
    rule = model.rules[key][1]
    if rule.entry is None or not key.startswith(("role-size:", "requires:")):
        return False
    return not any(entry is rule.entry for c in indices for _, entry in model.entries[c])


def rule_priority(keys: Iterable[str]) -> list[str]:
    """The order in which rules are re-enabled when looking for the fewest to blame: shape rules
    first (kept if at all possible), then lengths, role conditions, wild counts, distinctness, wilds side by side."""
    rank = {
        "same-rank": 0,
        "same-suit": 0,
        "suit-step": 0,
        "consecutive": 0,
        "size": 1,
        "short-form": 1,
        "role-size": 2,
        "requires": 2,
        "wilds": 3,
        "distinct": 4,
        "wilds-apart": 5,  # blamed before a duplicate that only a wild beside another could make
    }
    return sorted(keys, key=lambda k: (rank.get(k.split(":")[0], 2), k))


def keeps_all_but(
    model: KindModel, indices: list[int], layouts: list, enabled: set[str], satisfiable, last: list
) -> bool:
    """Can the cards read as the kind with ``enabled`` rules kept (the others relaxed)? Cards
    with one option each are placed without the solver (:func:`plain_model`); ``last[0]``
    becomes the model found (the diagnosis' ``satisfiable`` asks the solver otherwise)."""
    if layouts == [[]]:
        plain = plain_model(model, indices, enabled)
        if plain is not None:
            last[0] = plain
            return True
    return satisfiable(set(model.rules) - enabled - {"distinguish"}) is not None
