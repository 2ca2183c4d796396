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
from itertools import combinations, product

from solver.core.deck import Face
from solver.core.rules import KindRole, MeldKind, WildLimit
from solver.core.ruleset import Ruleset


@dataclass(frozen=True)
class Option:
    face: Face
    role_entry: KindRole
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
    out: list[tuple] = []
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
    if kind.wilds and wild_limit_broken(kind.wilds, chosen):
        problems.add("wilds")
    return problems


def wild_limit_broken(limit: WildLimit, chosen: list[Option]) -> bool:
    """The kind's wild limit read straight from its fields: the least and the most wilds, the
    naturals it needs, and the wilds against the naturals (at-most: no more; fewer: fewer)."""
    if limit.apart:
        raise NotImplementedError("the oracle does not read wilds: {apart: true}")
    wilds = sum(o.role_entry.role.wild for o in chosen)
    naturals = len(chosen) - wilds
    return (
        wilds < limit.least
        or (limit.most is not None and wilds > limit.most)
        or naturals < limit.naturals_min
        or (limit.versus_naturals == "at-most" and wilds > naturals)
        or (limit.versus_naturals == "fewer" and wilds >= naturals)
    )


def distinguished(kind: MeldKind, chosen: list[Option]) -> bool:
    dg = kind.distinguish
    if dg is None:
        return True
    suits = {o.suit for o in chosen if o.role_entry.role.suits is None or len(o.role_entry.role.suits) == 1}
    ranks = {o.rank for o in chosen if o.role_entry.role.ranks is None or len(o.role_entry.role.ranks) == 1}
    return len(suits) >= dg.fixed_suits and len(ranks) >= dg.fixed_ranks


def readings(
    ruleset: Ruleset,
    kind: MeldKind,
    faces: list[Face],
    ordered: bool = False,
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
            for suit in kind.suits if kind.shape == "identical" else [None]:
                per_card = [
                    [Option(f, e, s, r) for e, s, r in opts if r == rank and suit in (None, s)]
                    for f, opts in zip(faces, options, strict=True)
                ]
                for chosen in product(*per_card):
                    if kind.shape == "group" and kind.distinct and len({o.suit for o in chosen}) != n:
                        continue
                    consider(list(chosen))
    else:
        by_identity = []
        for opts in options:
            table: dict = {}
            for e, s, r in opts:
                table.setdefault((s, r), []).append(e)
            by_identity.append(table)
        assert kind.order is not None  # a sequence kind has an order
        order = kind.order.ranks
        length = len(order)
        starts = ([0] if n >= length else range(length)) if kind.order.cyclic else range(length - n + 1)
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
                    slots_per_card: list[list[tuple[int, Option]]] = []
                    for f, by_id in zip(faces, by_identity, strict=True):
                        slots_per_card.append(
                            [
                                (slot, Option(f, e, *window[slot][:2], window[slot][2]))
                                for slot in range(n)
                                for e in by_id.get(window[slot][:2], ())
                            ]
                        )
                    for combo in product(*slots_per_card):
                        slots = [slot for slot, _ in combo]
                        if len(set(slots)) != n:
                            continue
                        if ordered and slots != list(range(n)) and slots != list(range(n))[::-1]:
                            continue
                        consider([o for _, o in sorted(combo, key=lambda so: so[0])])  # table order
    return good, vetoed


@dataclass(frozen=True)
class OracleVerdict:
    legal: bool
    families: frozenset
    kinds: frozenset  # kinds with a reading, phase aside
    vetoed: bool
    phase_blocked: bool
    min_wilds: int | None  # fewest wilds among readings of the playable kinds


def verdict(ruleset: Ruleset, faces: list[Face], phase: str | None = None, ordered: bool = False) -> OracleVerdict:
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
    playable = {k: v for k, v in found.items() if phase is None or ruleset.kind(k).phase in (None, phase)}
    legal = not vetoed and len(families) == 1 and bool(playable)
    min_wilds = min((sum(o.role_entry.role.wild for o in r) for rs in playable.values() for r in rs), default=None)
    return OracleVerdict(
        legal,
        families,
        frozenset(found),
        vetoed,
        bool(found) and not playable and len(families) == 1 and not vetoed,
        min_wilds if legal else None,
    )


def reading_problems(ruleset: Ruleset, reading, ordered_faces: list[Face] | None = None) -> list[str]:
    """Re-check one reading returned by the engine against the rules, card by card."""
    kind = reading.kind
    problems = []
    chosen = []
    for p in reading.placements:
        entry = next(
            (
                e
                for e in kind.roles
                if e.applies(p.face)
                and e.role.id == p.role
                and (p.identity[0], p.identity[1]) in {(s, r) for e2, s, r in card_options(kind, p.face) if e2 is e}
            ),
            None,
        )
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
                first = dict(zip(offsets, ids, strict=True))[0][0]
                expected = [(step(ruleset, kind, first, direction, i), order[(start + i) % length]) for i in range(n)]
                if Counter(expected) == Counter(ids) and all(
                    expected[p.offset] == p.identity for p in reading.placements
                ):
                    ok = True
        if not ok:
            problems.append("not a window of the order")
    return problems


# -- scoring and whole turns --------------------------------------------------------------------


def reading_points(kind: MeldKind, chosen: list[Option]) -> int:
    """Meld points straight from the document's rule: count the natural cards, a sequence split
    by wilds counting each run of naturals apart (chosen is in table order for sequences)."""
    score = kind.score
    if score is None:
        return 0
    naturals = [not o.role_entry.role.wild for o in chosen]
    if score.count == "cards":
        lengths = [len(naturals)]
    elif score.segments and kind.shape == "sequence":
        lengths, run = [], 0
        for natural in naturals + [False]:
            if natural:
                run += 1
            elif run:
                lengths.append(run)
                run = 0
    else:
        lengths = [sum(naturals)]
    return sum(score.points_by_count.get(n, 0) for n in lengths)


def meld_value(ruleset: Ruleset, faces: list[Face], phase: str | None, cache: dict) -> int | None:
    """None if the cards are not a legal meld (in this phase), else their best meld points."""
    key = (tuple(sorted(f.index for f in faces)), phase)
    if key not in cache:
        v = verdict(ruleset, faces, phase=phase)
        if not v.legal:
            cache[key] = None
        else:
            family = next(iter(v.families))
            best = 0
            for kind in ruleset.kinds:
                if kind.family != family or (phase is not None and kind.phase not in (None, phase)):
                    continue
                for chosen in readings(ruleset, kind, faces)[0]:
                    best = max(best, reading_points(kind, chosen))
            cache[key] = best
    return cache[key]


def _objective(ruleset: Ruleset, plays_points: int, kept: list[Face]) -> tuple:
    """A turn's objective, as a tuple to maximise: each level's measure in order (the hand's
    points negated)."""
    values = []
    for goal in ruleset.objective:
        if goal.measure == "meld_points":
            values.append(plays_points)
        else:
            values.append(-sum(ruleset.points(f) for f in kept))
    return tuple(values)


def _turn_allowed(ruleset: Ruleset, turn: str, table, has_melded: bool, claimed_index, plays) -> bool:
    """Does the turn rule allow a turn of ``plays`` (melds, lay-offs, discard, kept cards: hand
    indices)? The new melds' limit, the discard rule, a claimed card's rules and lay-offs on
    others' melds before one's own."""
    melds, layoffs, discard, kept = plays
    rule = ruleset.turn_rule(turn)
    layoff = ruleset.layoff_rule()
    not_melded = len(kept) + (1 if discard is not None else 0)
    if rule.max_new_melds is not None and len(melds) > rule.max_new_melds:
        return False
    if rule.discard == "none" and discard is not None:
        return False
    if rule.discard == "required" and discard is None:
        return False
    if rule.discard == "optional" and (discard is not None) != (not_melded > 0):
        return False
    if turn == "claimed":
        if rule.claimed_not_discarded and discard == claimed_index:
            return False
        if rule.claimed_in_new_meld and not any(claimed_index in m for m in melds):
            return False
    if layoff is not None and layoff.requires_own_meld and not has_melded:
        foreign = [t for t, _ in layoffs if not table[t].mine]
        own = bool(melds) or any(table[t].mine for t, _ in layoffs)
        if foreign and not own:
            return False
    return True


def best_turns(
    ruleset: Ruleset,
    hand: list[Face],
    table=(),
    turn: str = "normal",
    claimed=None,
    has_melded: bool = False,
    phase: str | None = None,
    cache: dict | None = None,
    on_go_out=None,
):
    """Brute force over every turn: each card is kept, discarded, or in one block that is a new
    meld or a lay-off onto one table meld. Returns (go-out possible, best go-out objective,
    best objective), objectives as tuples to maximise (meld points, -hand points)."""
    cache = {} if cache is None else cache
    layoff = ruleset.layoff_rule()
    n = len(hand)
    best_any = None
    best_out = None

    def finish(state):
        nonlocal best_any, best_out
        melds, layoffs, discard, kept, points = state
        if not _turn_allowed(ruleset, turn, table, has_melded, claimed_index, (melds, layoffs, discard, kept)):
            return
        value = _objective(ruleset, points, [hand[i] for i in kept])
        best_any = value if best_any is None or value > best_any else best_any
        if not kept:
            best_out = value if best_out is None or value > best_out else best_out
            if on_go_out is not None:
                on_go_out(melds, layoffs, discard)

    # the claimed card is the first copy of its face in the hand
    claimed_index = hand.index(claimed) if claimed is not None else None

    def walk(rest, melds, layoffs, used_tables, discard, kept, points):
        if not rest:
            finish((melds, layoffs, discard, kept, points))
            return
        first, others = rest[0], rest[1:]
        walk(others, melds, layoffs, used_tables, discard, kept + [first], points)
        if discard is None:
            walk(others, melds, layoffs, used_tables, first, kept, points)
        for size in range(0, len(others) + 1):
            for combo in combinations(others, size):
                block = [first, *combo]
                faces = [hand[i] for i in block]
                remaining = [i for i in others if i not in combo]
                value = meld_value(ruleset, faces, phase, cache) if size >= 1 else None
                if value is not None:
                    walk(remaining, melds + [tuple(block)], layoffs, used_tables, discard, kept, points + value)
                if layoff is None:
                    continue
                for t, meld in enumerate(table):
                    if t in used_tables:
                        continue
                    ext = meld_value(ruleset, list(meld.faces) + faces, phase, cache)
                    if ext is not None:
                        base = meld_value(ruleset, list(meld.faces), phase, cache) or 0
                        gain = max(0, ext - base) if meld.mine else 0
                        walk(
                            remaining,
                            melds,
                            layoffs + [(t, tuple(block))],
                            used_tables | {t},
                            discard,
                            kept,
                            points + gain,
                        )

    walk(list(range(n)), [], [], frozenset(), None, [], 0)
    return best_out is not None, best_out, best_any


def go_out_ways(ruleset: Ruleset, hand: list[Face], **turn) -> int:
    """Distinct ways to go out: (melds as face multisets, lay-offs, discarded face)."""
    found = []

    def record(melds, layoffs, discard):
        key = (
            tuple(sorted(tuple(sorted(hand[i].index for i in m)) for m in melds)),
            tuple(sorted((t, tuple(sorted(hand[i].index for i in b))) for t, b in layoffs)),
            hand[discard].index if discard is not None else None,
        )
        found.append(key)

    best_turns(ruleset, hand, on_go_out=record, **turn)
    return len(set(found))


def unmeldable(ruleset: Ruleset, hand: list[Face], phase: str | None = None) -> list[Face]:
    """Cards of the hand that are in no legal meld made of the hand's cards."""
    cache: dict = {}
    out = []
    for i, face in enumerate(hand):
        others = [j for j in range(len(hand)) if j != i]
        if not any(
            meld_value(ruleset, [face] + [hand[j] for j in combo], phase, cache) is not None
            for size in range(1, len(others) + 1)
            for combo in combinations(others, size)
        ):
            out.append(face)
    return out
