"""An independent plain-Python checker for melds: brute force over every wild assignment.

It reads the same ruleset data as the engine (what the roles are, which kinds exist) but shares
none of its code: no SAT, no selectors. For a kind it tries every placement the shape allows —
every meld rank for a group, every window (start, first suit, direction) for a sequence — and,
for each, every combination of the roles and identities the cards could take there, checking
each rule directly. Tests compare the SAT verdicts with it and re-check every reading the SAT
engine returns with :func:`reading_problems`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import product

from solver.ruleset import Face, MeldKind, Ruleset


@dataclass(frozen=True)
class Option:
    face: Face
    role_entry: object  # KindRole
    suit: str
    rank: str
    position: int | None = None  # index into the order, for sequences


def step(ruleset: Ruleset, kind: MeldKind, suit: str, direction: str, k: int) -> str:
    """The suit k steps along the kind's cycle, computed from the cycle list (no NetworkX)."""
    if kind.suit_step.cycle is None:
        return suit
    cycle = list(ruleset.cycles[kind.suit_step.cycle])
    shift = k if direction == "forward" else -k
    return cycle[(cycle.index(suit) + shift) % len(cycle)]


def card_options(kind: MeldKind, face: Face) -> list[tuple]:
    """(entry, suit, rank) a card could take in the kind, before any rule but the role's own."""
    out = []
    for entry in kind.roles:
        if not entry.applies(face):
            continue
        role = entry.role
        suits = [face.suit] if role.suits is None else list(role.suits)
        ranks = [face.rank] if role.ranks is None else list(role.ranks)
        out.extend((entry, s, r) for s in suits if s in kind.suits for r in ranks)
    return out


def condition_problems(kind: MeldKind, chosen: list[Option], n: int) -> set[str]:
    """Rules other than the shape: length, short form, role sizes and requirements, wilds."""
    problems = set()
    if not kind.size_min <= n <= kind.size_max:
        if kind.short_form and n == kind.short_form.size:
            if any(o.role_entry.role.id not in kind.short_form.roles for o in chosen):
                problems.add("short-form")
        else:
            problems.add("size")
    for i, o in enumerate(chosen):
        entry = o.role_entry
        if entry.sizes is not None and n not in entry.sizes:
            problems.add("role-size")
        req = entry.role.requires_in_meld
        if req and not any(other.face.cls in req.classes for j, other in enumerate(chosen) if j != i):
            problems.add("requires")
    wilds = sum(o.role_entry.role.wild for o in chosen)
    if kind.wilds:
        lo, hi, _ = kind.wilds
        if (lo is not None and wilds < lo) or (hi is not None and wilds > hi):
            problems.add("wilds")
    return problems


def distinguished(kind: MeldKind, chosen: list[Option]) -> bool:
    dg = kind.distinguish
    if dg is None:
        return True
    suits = {o.suit for o in chosen if o.role_entry.role.suits is None or len(o.role_entry.role.suits) == 1}
    ranks = {o.rank for o in chosen if o.role_entry.role.ranks is None or len(o.role_entry.role.ranks) == 1}
    return len(suits) >= dg.fixed_suits and len(ranks) >= dg.fixed_ranks


def readings(ruleset: Ruleset, kind: MeldKind, faces: list[Face], ordered: bool = False,
             ) -> tuple[list[list[Option]], bool]:
    """All readings of ``faces`` as ``kind`` satisfying every rule, and whether the kind has
    readings that fail only its ``distinguish`` rule (a veto)."""
    n = len(faces)
    options = [card_options(kind, f) for f in faces]
    good: list[list[Option]] = []
    vetoed = False

    def consider(chosen: list[Option]) -> None:
        nonlocal vetoed
        if condition_problems(kind, chosen, n):
            return
        if distinguished(kind, chosen):
            good.append(chosen)
        else:
            vetoed = True

    if kind.shape in ("group", "identical"):
        for rank in kind.ranks:
            for suit in (kind.suits if kind.shape == "identical" else [None]):
                per_card = [[Option(f, e, s, r) for e, s, r in opts if r == rank and suit in (None, s)]
                            for f, opts in zip(faces, options)]
                for chosen in product(*per_card):
                    if kind.shape == "group" and kind.distinct:
                        if len({o.suit for o in chosen}) != n:
                            continue
                    consider(list(chosen))
    else:
        by_identity = []
        for opts in options:
            table: dict = {}
            for e, s, r in opts:
                table.setdefault((s, r), []).append(e)
            by_identity.append(table)
        order = kind.order.ranks
        length = len(order)
        if kind.order.cyclic:
            starts = [0] if n >= length else range(length)
        else:
            starts = range(length - n + 1)
        if n > length:
            starts = []
        for start in starts:
            for direction, _ in kind.suit_step.directions:
                for first_suit in kind.suits:
                    window = []
                    for i in range(n):
                        q = (start + i) % length
                        window.append((step(ruleset, kind, first_suit, direction, i), order[q], q))
                    if any(s not in kind.suits for s, _, _ in window):
                        continue
                    # each card takes one slot of the window whose identity its role allows
                    per_card = []
                    for f, by_id in zip(faces, by_identity):
                        per_card.append([(slot, Option(f, e, *window[slot][:2], window[slot][2]))
                                         for slot in range(n) for e in by_id.get(window[slot][:2], ())])
                    for combo in product(*per_card):
                        slots = [slot for slot, _ in combo]
                        if len(set(slots)) != n:
                            continue
                        if ordered and slots != list(range(n)) and slots != list(range(n))[::-1]:
                            continue
                        consider([o for _, o in combo])
    return good, vetoed


@dataclass(frozen=True)
class OracleVerdict:
    legal: bool
    families: frozenset
    kinds: frozenset  # kinds with a reading, phase aside
    vetoed: bool
    phase_blocked: bool
    min_wilds: int | None  # fewest wilds among readings of the playable kinds


def verdict(ruleset: Ruleset, faces: list[Face], phase: str | None = None,
            ordered: bool = False) -> OracleVerdict:
    found = {}
    vetoed = False
    for kind in ruleset.kinds:
        good, veto = readings(ruleset, kind, faces, ordered)
        if veto and not good:
            vetoed = True
            continue
        if good:
            found[kind.id] = good
    families = frozenset(ruleset.kind(k).family for k in found)
    playable = {k: v for k, v in found.items()
                if phase is None or ruleset.kind(k).phase in (None, phase)}
    legal = not vetoed and len(families) == 1 and bool(playable)
    min_wilds = min((sum(o.role_entry.role.wild for o in r) for rs in playable.values() for r in rs),
                    default=None)
    return OracleVerdict(legal, families, frozenset(found), vetoed,
                         bool(found) and not playable and len(families) == 1 and not vetoed,
                         min_wilds if legal else None)


def reading_problems(ruleset: Ruleset, reading, ordered_faces: list[Face] | None = None) -> list[str]:
    """Re-check one reading returned by the engine against the rules, card by card."""
    kind = reading.kind
    problems = []
    chosen = []
    for p in reading.placements:
        entry = next((e for e in kind.roles if e.applies(p.face) and e.role.id == p.role
                      and (p.identity[0], p.identity[1]) in
                      {(s, r) for e2, s, r in card_options(kind, p.face) if e2 is e}), None)
        if entry is None:
            problems.append(f"{p.face} cannot be {p.identity} as {p.role} in {kind.id}")
            continue
        if entry.role.wild != p.wild:
            problems.append(f"{p.face}: wild flag wrong")
        chosen.append(Option(p.face, entry, p.identity[0], p.identity[1]))
    if problems:
        return problems
    n = len(chosen)
    problems.extend(sorted(condition_problems(kind, chosen, n)))
    if not distinguished(kind, chosen):
        problems.append("distinguish")
    ids = [(o.suit, o.rank) for o in chosen]
    if kind.shape == "group":
        if len({r for _, r in ids}) != 1:
            problems.append("ranks differ")
        if kind.distinct and len({s for s, _ in ids}) != n:
            problems.append("suits repeat")
    elif kind.shape == "identical":
        if len(set(ids)) != 1:
            problems.append("not identical")
    else:
        offsets = [p.offset for p in reading.placements]
        if sorted(offsets) != list(range(n)):
            problems.append("offsets are not 0..n-1")
        order = kind.order.ranks
        length = len(order)
        ok = False
        for start in range(length):
            if not kind.order.cyclic and start + n > length:
                continue
            for direction, _ in kind.suit_step.directions:
                first = dict(zip(offsets, ids))[0][0]
                expected = [(step(ruleset, kind, first, direction, i), order[(start + i) % length])
                            for i in range(n)]
                if Counter(expected) == Counter(ids) and all(
                        expected[p.offset] == p.identity for p in reading.placements):
                    ok = True
        if not ok:
            problems.append("not a window of the order")
    return problems
