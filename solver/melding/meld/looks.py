"""What each card could be in a kind, and the rules no reading of the cards can keep.

A card's *looks* in a kind model are the suits and ranks its role entries allow it there (a bit
each), and the suit, rank and place it must take when it has one only. From the looks of a query's
cards, :func:`certainly_broken` names the rules no reading keeps (no rank or suit they could all
share, fixed ranks no window holds, fixed suits no step fits, two fixed cards on one place, a size
no form allows): enabling one of them is unsatisfiable, so the checker need not ask the solver
(:mod:`solver.melding.meld.ruleholds` settles what else it can without it). Only sure cases are
named, each following the clauses ``encode.py`` writes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from solver.melding.meld.encode import KindModel


def never_holds(model: KindModel, key: str) -> bool:
    """Enabling ``key`` is unsatisfiable for any cards (its selector is refuted by a unit clause)."""
    return key == "size"


def certainly_broken(model: KindModel, indices: Sequence[int]) -> set[str]:
    """The rules no reading of these cards as the kind can keep, seen from what each card could be
    (the union over its role entries of the suits and ranks they allow): enabling one of them is
    unsatisfiable, so the diagnosis need not ask. Only sure cases are named."""
    kind = model.kind
    rules = model.rules
    never = model.__dict__.get("_never_kept")
    if never is None:  # once a model
        never = model.__dict__["_never_kept"] = frozenset(key for key in rules if never_holds(model, key))
    broken = set(never)
    if model.degenerate:
        return broken
    known = model.__dict__.get("_card_looks") or {}
    looks = [known.get(c) or _card_looks(model, c) for c in indices]
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
    memo = model.__dict__.get("_card_looks")
    if memo is None:
        memo = model.__dict__["_card_looks"] = {}
    found = memo.get(c)
    if found is None:
        kind = model.kind
        suits, ranks, _ = card_options(model, c)
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


def card_options(model: KindModel, c: int) -> tuple[set, set, list]:
    """Card ``c``'s suits, its ranks, and its (entry, suit index, rank index) options — rank
    indices into the kind's order for a sequence, into its ranks for a group; once a model."""
    memo = model.__dict__.get("card_options")
    if memo is None:
        memo = model.__dict__["card_options"] = {}
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
