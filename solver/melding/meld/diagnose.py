"""Why cards are not a meld: the rules that forbid them, for the kinds that come closest.

For each kind, a *minimal correction set*: the rules that must be relaxed for the cards to read
as that kind, found by re-enabling rules one at a time (shape rules first, the ruleset's
explicit rules last, so that blame falls on an explicit rule when one suffices). The checker
(:class:`~solver.melding.meld.checker.MeldChecker`) builds each kind's query and reports the
kinds whose set holds only explicit rules, if any, else the kinds whose set is smallest
(:func:`blame`). The shortcuts of :mod:`solver.melding.meld.ruleholds` settle most steps without
a SAT call, always as the solver would.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from solver.core.notation import Notation
from solver.core.rules import MeldKind
from solver.core.ruleset import Ruleset
from solver.melding.meld.encode import KindModel, Reading
from solver.melding.meld.reasons import Reason, rule_reason
from solver.melding.meld.ruleholds import Assignment, keeps_all_but, rule_holds, rule_priority, vacuous


@dataclass(frozen=True)
class Relaxation:
    """A kind's minimal correction set: its model, the rules relaxed, and a model of the cards
    under them (decoded to a reading only for the kinds blamed)."""

    model: KindModel
    relaxed: list[str]
    found: Assignment

    @property
    def witness(self) -> Reading | None:
        return self.found.reading()

    @property
    def explicit(self) -> bool:
        """Only the ruleset's explicit rules relaxed (none of the shape's own)."""
        return not any(self.model.rules[k][1].structural for k in self.relaxed)


def minimal_relaxation(
    model: KindModel,
    indices: list[int],
    base: list[int],
    layouts: list[list[int]],
    broken: set[str],
    shortcuts: bool,
) -> Relaxation | None:
    """The rules of ``model`` that must be relaxed for the cards (``indices``, under the
    assumptions ``base`` and one of ``layouts``) to read as its kind; None when no relaxation
    makes them that kind. ``broken``: rules no reading can keep (they stay relaxed)."""
    keys = model.__dict__.get("_relaxable")
    if keys is None:  # once a model
        keys = model.__dict__["_relaxable"] = rule_priority(k for k in model.rules if k != "distinguish")
    # The last satisfying assignment: it keeps every rule enabled so far, so a rule it keeps too
    # can be enabled without asking the solver.
    last: list[Assignment | None] = [None]

    def satisfiable(relaxed: set[str]) -> list[int] | None:
        selectors = model.selectors(relaxed=relaxed | {"distinguish"})
        found = next((lay for lay in layouts if model.solve(base + selectors + lay)), None)
        if found is not None:
            last[0] = Assignment(model, indices, model.live_solver.model())
        return found

    relaxed = set(keys)
    # When a model keeps all the rules but the broken ones at once, the one-at-a-time search
    # below would enable each of them: one SAT call decides.
    if (
        shortcuts
        and broken & relaxed != relaxed
        and keeps_all_but(model, indices, layouts, relaxed - broken, satisfiable, last)
    ):
        relaxed &= broken
    elif satisfiable(relaxed) is None:
        return None  # not this kind whatever the rules say
    for key in keys:
        if key not in relaxed:
            continue
        if vacuous(model, key, indices):  # a rule of a role no card here can take holds anyway
            relaxed.discard(key)
        elif key in broken:
            continue
        elif shortcuts and last[0] is not None and rule_holds(last[0], key) or satisfiable(relaxed - {key}) is not None:
            relaxed.discard(key)
    assert last[0] is not None
    # the witness: a model of these relaxations (the last one found keeps every rule since)
    return Relaxation(model, [k for k in keys if k in relaxed], last[0])


def surely_relaxed(model: KindModel, broken: set[str]) -> tuple[bool, int]:
    """What any relaxation of the kind holds, given the rules no reading keeps (they stay relaxed,
    :func:`minimal_relaxation`): whether a rule of the shape's own, and how many rules at least."""
    keys = {k for k in broken if k in model.rules and k != "distinguish"}
    return any(model.rules[k][1].structural for k in keys), len(keys)


def outranked(surely: tuple[bool, int], found: Iterable[Relaxation]) -> bool:
    """No relaxation of the kind could be among those :func:`blame` reports beside the ``found``
    ones: an explicit set is found and this kind's cannot be explicit or as small, or its set
    cannot be explicit and is larger than one found. Its search is then skipped. ``surely``: what
    any relaxation of the kind holds (:func:`surely_relaxed`)."""
    structural, least = surely
    found = list(found)
    explicit = [len(r.relaxed) for r in found if r.explicit]
    if explicit:
        return structural or least > min(explicit)
    return structural and bool(found) and least > min(len(r.relaxed) for r in found)


def blame(notation: Notation, ruleset: Ruleset, found: Sequence[Relaxation], cards: list) -> tuple[Reason, ...]:
    """The reasons of the kinds that come closest: those whose correction set holds only the
    ruleset's explicit rules, if any, else those whose set is smallest; one family once."""
    if not found:
        return ()
    explicit = [r for r in found if r.explicit]
    pool = explicit or list(found)
    fewest = min(len(r.relaxed) for r in pool)
    reasons: list[Reason] = []
    families: set[str] = set()
    for r in pool:
        if len(r.relaxed) != fewest or r.model.kind.family in families:
            continue
        families.add(r.model.kind.family)
        witness = r.witness
        for key in r.relaxed:
            reason = rule_reason(notation, ruleset, r.model, r.model.rules[key][1], witness, cards)
            if all((reason.code, reason.message) != (x.code, x.message) for x in reasons):
                reasons.append(reason)
    return tuple(reasons)


def ambiguity_reasons(
    ruleset: Ruleset, readings: Sequence[Reading], vetoes: Sequence[Reading], describe: Callable[[Reading], str]
) -> tuple[Reason, ...]:
    """Cards read as more than one family of meld, or as a kind that cannot be told from a set or
    run (``vetoes``: readings its ``distinguish`` rule refuses)."""
    by_family: dict[str, Reading] = {}
    for r in readings:
        by_family.setdefault(r.kind.family, r)
    reasons = []
    if len(by_family) > 1:
        shown = "; ".join(f"as {r.kind.label} {describe(r)}" for r in by_family.values())
        reasons.append(
            Reason("ambiguous", f"the cards read as more than one kind of meld: {shown}", ruleset.ambiguity_source)
        )
    for family in dict.fromkeys(r.kind.family for r in vetoes):
        reading = next(r for r in vetoes if r.kind.family == family)
        kind = reading.kind
        dg = kind.distinguish
        if dg is None:  # (a veto comes from a kind that distinguishes itself)
            continue
        reasons.append(
            Reason(
                "ambiguous",
                f"as {kind.label} ({describe(reading)}) the cards show fewer than "
                f"{dg.fixed_suits} suits or {dg.fixed_ranks} ranks of their own, so it cannot be "
                f"told from a set or run",
                dg.source,
                kind.id,
            )
        )
    return tuple(reasons)


def sizes_possible(kinds: Sequence[MeldKind]) -> tuple[int, int]:
    """The fewest and most cards some kind can have (a short form counts)."""
    return min(k.short_form.size if k.short_form else k.size_min for k in kinds), max(k.size_max for k in kinds)


def not_a_meld(kinds: Sequence[MeldKind], n: int) -> Reason:
    """Why ``n`` cards are no meld when no kind's rule is to blame: too few, too many, or none."""
    lo, hi = sizes_possible(kinds)
    if n < lo:
        return Reason(
            "too-short",
            f"{n} card{'s' * (n != 1)} cannot be a meld: the shortest meld has {lo}",
            min(kinds, key=lambda k: k.size_min).source,
        )
    if n > hi:
        return Reason(
            "too-long", f"{n} cards cannot be a meld: the longest has {hi}", max(kinds, key=lambda k: k.size_max).source
        )
    names = ", ".join(k.label for k in kinds)
    return Reason("not-a-meld", f"the cards form none of: {names}")
