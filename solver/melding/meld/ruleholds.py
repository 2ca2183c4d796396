"""What the meld checker settles without a SAT call, always as the solver would.

The checker's diagnosis (``MeldChecker._diagnose``) looks for the fewest rules to blame: it relaxes
a kind's rules and re-enables them one at a time, asking the solver each time whether the cards
still read as the kind. Three plain looks spare most of those calls:

* :func:`certainly_broken`: rules no reading can keep, seen from what each card could be (no rank
  or suit they could all share, fixed ranks no window holds, fixed suits no step fits, two fixed
  cards on one place, a size no form allows) — enabling one is unsatisfiable;
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

from solver.core.rules import WildLimit
from solver.melding.meld.encode import KindModel, Reading, Values


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


def never_holds(model: KindModel, key: str) -> bool:
    """Enabling ``key`` is unsatisfiable for any cards (its selector is refuted by a unit clause)."""
    return key == "size"


def rule_holds(a: Assignment, key: str) -> bool:
    """The assignment keeps rule ``key`` (up to the rule's own auxiliary variables); False when
    unsure."""
    return rule_test(a.model, key)(a)


def rule_test(model: KindModel, key: str) -> Callable[[Assignment], bool]:
    """:func:`rule_holds` for rule ``key`` of ``model``, as a test of an assignment: the rule is
    read once, and a search that tries many assignments (:func:`plain_model`) calls the test."""
    tests = model.__dict__.setdefault("_rule_tests", {})
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


def certainly_broken(model: KindModel, indices: Sequence[int]) -> set[str]:
    """The rules no reading of these cards as the kind can keep, seen from what each card could be
    (the union over its role entries of the suits and ranks they allow): enabling one of them is
    unsatisfiable, so the diagnosis need not ask. Only sure cases are named."""
    kind = model.kind
    rules = model.rules
    broken = {key for key in rules if never_holds(model, key)}
    if model.degenerate:
        return broken
    looks = [_card_looks(model, c) for c in indices]
    suits = ranks = -1  # the suits (ranks) every card could take, a bit each
    for look in looks:
        suits &= look.suits
        ranks &= look.ranks
    if kind.shape in ("group", "identical") and "same-rank" in rules and not ranks:
        broken.add("same-rank")
    if kind.shape in ("group", "flush") and "distinct" in rules:
        forced = [x.suit if kind.shape == "group" else x.rank for x in looks]
        forced = [f for f in forced if f is not None]
        if len(forced) != len(set(forced)):
            broken.add("distinct")
    same_suit = "same-suit" if kind.shape != "sequence" or not kind.suit_step.cycle else None
    if same_suit is not None and same_suit in rules and not suits:
        broken.add(same_suit)
    if kind.shape == "sequence":
        order = kind.run_order.ranks
        if len(set(order)) != len(order):
            return broken  # a rank twice in the order: positions are not fixed by ranks
        places = [x.place for x in looks if x.place is not None]
        if "consecutive" in rules and not _window_fits(model, places):
            broken.add("consecutive")
        step_key = "suit-step" if kind.suit_step.cycle else "same-suit"
        # cards whose suit and position are both fixed
        fixed = [(x.suit, x.place) for x in looks if x.suit is not None and x.place is not None]
        if step_key in rules and not _steps_fit(model, fixed):
            broken.add(step_key)
        if "distinct" in rules and model.n <= len(order) and len(places) != len(set(places)):
            broken.add("distinct")  # one offset a position (given the start): two cards on one
    return broken


@dataclass(frozen=True)
class _Looks:
    """What a card could be in a kind, for :func:`certainly_broken`: its suits and ranks (a bit
    each, over the kind's suits and its ranks or order), the suit and rank it must take when it has
    one only (else None), and then its position in a sequence's order."""

    suits: int
    ranks: int
    suit: str | None
    rank: str | None
    place: int | None


def _card_looks(model: KindModel, c: int) -> _Looks:
    """Card ``c``'s :class:`_Looks` in the model: once a model."""
    memo = model.__dict__.setdefault("_card_looks", {})
    found = memo.get(c)
    if found is None:
        kind = model.kind
        suits, ranks, _ = _card_options(model, c)
        order = kind.run_order.ranks if kind.shape == "sequence" else kind.ranks
        suit = next(iter(suits)) if len(suits) == 1 else None
        rank = next(iter(ranks)) if len(ranks) == 1 else None
        place = order.index(rank) if rank is not None and kind.shape == "sequence" else None
        found = memo[c] = _Looks(_bits(kind.suits, suits), _bits(order, ranks), suit, rank, place)
    return found


def _bits(values: Sequence[str], chosen: set[str]) -> int:
    """``chosen`` among ``values`` as bits (one per distinct value, at its first index)."""
    return sum(1 << values.index(v) for v in chosen)


def _steps_fit(model: KindModel, fixed: list[tuple[str, int]]) -> bool:
    """Some start, first suit and direction give each fixed card its suit at an offset that puts
    it at its position (offsets up to the model's width, as with 'consecutive' relaxed)."""
    common, holders = _step_holders(model)
    for pair in fixed:
        common &= holders.get(pair, 0)
        if not common:
            return False
    return bool(common)


def _step_holders(model: KindModel) -> tuple[int, dict[tuple[str, int], int]]:
    """Every (start, first suit, direction) of the model, a bit each; and for each (suit,
    position) pair the bits of those that let a card take it (its suit stepped to an offset that
    puts it at that position): once a model."""
    found = model.__dict__.get("_step_holders")
    if found is None:
        kind = model.kind
        length = len(kind.run_order.ranks)
        width = max(length, model.n)
        along = [
            [model.steps.step(s0, d, i) if model.steps else s0 for i in range(width)]
            for s0 in kind.suits
            for d in model.directions
        ]
        holders: dict[tuple[str, int], int] = {}
        at = 0
        for p in model.starts():
            reach = width if kind.run_order.cyclic else min(width, length - p)
            for suits in along:
                for i in range(reach):
                    pair = (suits[i], (p + i) % length)
                    holders[pair] = holders.get(pair, 0) | 1 << at
                at += 1
        found = model.__dict__["_step_holders"] = ((1 << at) - 1, holders)
    return found


def _card_options(model: KindModel, c: int) -> tuple[set, set, list]:
    """Card ``c``'s suits, its ranks, and its (entry, suit index, rank index) options — rank
    indices into the kind's order for a sequence, into its ranks for a group; once a model."""
    memo = model.__dict__.setdefault("_card_options", {})
    if c not in memo:
        face = model.cards[c][0]
        kind = model.kind
        order = kind.run_order.ranks if kind.shape == "sequence" else kind.ranks
        options = [
            (k, j, q)
            for k, (_, entry) in enumerate(model.entries[c])
            for j, suit in enumerate(kind.suits)
            if suit in entry.role.suits_for(face)
            for q, rank in enumerate(order)
            if rank in entry.role.ranks_for(face)
        ]
        suits: set[str] = set()
        ranks: set[str] = set()
        for _, entry in model.entries[c]:
            suits.update(v for v in entry.role.suits_for(face) if v in kind.suits)
            ranks.update(v for v in entry.role.ranks_for(face) if v in order)
        memo[c] = (suits, ranks, options)
    return memo[c]


def _window_fits(model: KindModel, places: list[int]) -> bool:
    """Some window of n consecutive positions (the model's starts) holds every card whose position
    in the order is fixed (``places``)."""
    every, holding = _window_masks(model)
    starts = every  # the starts whose window holds the fixed cards so far, a bit each
    for place in places:
        starts &= holding[place]
    return starts != 0


def _window_masks(model: KindModel) -> tuple[int, list[int]]:
    """Every start of the model (a bit each, in its order), and per position of the order the
    starts whose window of n holds it: once a model."""
    found = model.__dict__.get("_window_masks")
    if found is None:
        order = model.kind.run_order
        length, n = len(order.ranks), model.n
        holding = [0] * length
        starts = model.starts()
        for at, p in enumerate(starts):
            for i in range(n):
                if order.cyclic or p + i < length:
                    holding[(p + i) % length] |= 1 << at
        found = model.__dict__["_window_masks"] = ((1 << len(starts)) - 1, holding)
    return found


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
    kind = model.kind
    if model.degenerate or any(model.gate.conditional(kind, i) for c in indices for i, _ in model.entries[c]):
        return None
    if kind.shape == "flush":
        return None  # its options are written for groups and sequences: the solver is asked
    sequence = kind.shape == "sequence"
    length = len(kind.run_order.ranks) if sequence else 0
    if sequence and (len(set(kind.run_order.ranks)) != length or model.n >= length):
        return None  # a rank twice, or a window around the whole order (a canonical start)
    options = [_card_options(model, c)[2] for c in indices]
    fixed = [o[0] for o in options if len(o) == 1]
    keys = sorted(enabled, key=_cost)
    tests = [rule_test(model, key) for key in keys if not _idle(model, key, indices)]
    starts: Sequence[int | None] = model.starts() if sequence else [None]
    if sequence and not kind.suit_step.cycle and "consecutive" not in keys:
        starts = starts[:1]  # offsets then matter only as places (distinct): any start will do
    tries = PLAIN_TRIES
    for p in starts:
        # a sequence's places, counted from its start p
        place = partial(_from_start, start=p, length=length, cyclic=kind.run_order.cyclic) if p is not None else None
        if place is not None and not _start_fits(model, [place(q) for _, _, q in fixed], keys):
            continue
        choices = [
            o if len(o) == 1 else _likely(model, c, o, fixed, keys, place)
            for c, o in zip(indices, options, strict=True)
        ]
        for combo in product(*choices):
            tries -= 1
            if tries < 0:
                return None
            found = _assigned(model, indices, combo, p, place)
            if found is not None and all(test(found) for test in tests):
                return found
    return None


def _idle(model: KindModel, key: str, indices: Sequence[int]) -> bool:
    """Rule ``key``'s test (:func:`rule_test`) passes whatever the cards play: no card present has
    the role entry whose sizes it bounds, nor a role of the name whose needs it states."""
    if key.startswith("role-size:"):
        at = int(key.split(":", 1)[1])
        return all(i != at for c in indices for i, _ in model.entries[c])
    if key.startswith("requires:"):
        role = key.split(":", 1)[1]
        return all(e.role.id != role or e.role.requires_in_meld is None for c in indices for _, e in model.entries[c])
    return False


def _from_start(q: int, start: int, length: int, cyclic: bool) -> int:
    """Place ``q`` of the order counted from a window starting at ``start``."""
    return (q - start) % length if cyclic else q - start


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
    out = []
    if place is None:  # a group
        ranks = {q for _, _, q in fixed}
        suits = {j for _, j, _ in fixed}
        for k, j, q in options:
            if "same-rank" in enabled and ranks and (len(ranks) > 1 or q not in ranks):
                continue
            if "distinct" in enabled and j in suits:
                continue
            out.append((k, j, q))
    else:
        taken = {place(q) for _, _, q in fixed}
        for k, j, q in options:
            i = place(q)
            if i < 0 or ("consecutive" in enabled and i >= model.n) or ("distinct" in enabled and i in taken):
                continue
            out.append((k, j, q))
    return sorted(out, key=lambda o: model.entries[c][o[0]][1].role.wild)


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
    first (kept if at all possible), then lengths, role conditions, wild counts, distinctness."""
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
