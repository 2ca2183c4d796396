"""Ways to go out other than "every card melded": routes, and what each requires of a way out.

A *route* (``going_out:``) is a way to go out: melds of some kinds only (all of them by default),
either every card but the discard or only some (the rest stay in hand), and *requirements* that
must all hold of the way out:

* a count of melds (:class:`MeldCount`): at least, at most or exactly so many melds of some
  kinds (any kind by default), perhaps only *pure* ones (no card acting as a wild) or only of
  some sizes — the player's melds already shown count;
* a limit on the hand's value (:class:`HandLimit`): the cards kept weigh at most so many card
  points (a knock: the deadwood left is 10 or less).

A route or a requirement may hold only under some option values (``enabled_if``). The older form
``first: {kinds, count}`` is read as the requirement "at least ``count`` melds of ``kinds``".

A :class:`Requirement` (a game's own sections use it: a right earned by showing melds) asks a hand to
show exactly so many melds of some kinds. The turn solver (:mod:`solver.melding.turn.solver`)
counts both in its model (:mod:`solver.melding.turn.routecount`); the game that has them reads
them from its ruleset sections.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from solver.core.reader import RuleReader
from solver.core.rules import MeldKind
from solver.core.source import Source


@dataclass(frozen=True)
class MeldCount:
    """A way out makes between ``at_least`` and ``at_most`` (None: no most) melds that count:
    of ``kinds`` (None: any kind), of ``sizes`` (None: any size), pure when ``pure`` (no card acts
    as a wild in the meld's reading)."""

    kinds: frozenset[str] | None
    at_least: int
    at_most: int | None
    pure: bool
    sizes: frozenset[int] | None
    source: Source | None
    label: str = ""  # the kinds' names, for messages

    def counts(self, kind: str, size: int, wilds: int) -> bool:
        """Does a meld of this kind, size and wild cards count toward the requirement?"""
        return (
            (self.kinds is None or kind in self.kinds)
            and (self.sizes is None or size in self.sizes)
            and (not self.pure or wilds == 0)
        )

    def allows(self, counted: int) -> bool:
        """Does a turn with ``counted`` melds that count toward the requirement meet it?"""
        return self.at_least <= counted and (self.at_most is None or counted <= self.at_most)

    def describe(self) -> str:
        """The requirement in words: "at least 1 pure meld of sequence"."""
        if self.at_most is None:
            many, top = f"at least {self.at_least}", self.at_least
        elif self.at_most == self.at_least:
            many, top = f"exactly {self.at_least}", self.at_least
        elif self.at_least == 0:
            many, top = f"at most {self.at_most}", self.at_most
        else:
            many, top = f"{self.at_least} to {self.at_most}", self.at_most
        what = ("pure " if self.pure else "") + ("meld" if top == 1 else "melds")
        if self.label:
            what += f" of {self.label}"
        if self.sizes is not None:
            what += f" of {_sizes_text(self.sizes)} cards"
        return f"{many} {what}"


@dataclass(frozen=True)
class HandLimit:
    """The cards a way out keeps (neither melded, laid off nor discarded) weigh at most
    ``at_most`` card points (``card_points:``)."""

    at_most: int
    source: Source | None

    def describe(self) -> str:
        return f"the cards kept weigh at most {self.at_most} points"


RouteRequirement = MeldCount | HandLimit


@dataclass(frozen=True)
class GoOutRoute:
    """A way to go out: melds of these kinds; all cards but the discard melded, or not; a number
    of melds (``melds``: at least that many, counting those shown); requirements that must all
    hold."""

    id: str
    name: str
    kinds: tuple[str, ...]
    all_cards: bool
    melds: int | None
    requires: tuple[RouteRequirement, ...]
    source: Source | None
    discards: bool = True  # False (``discard: none``): going out this way melds every card, discarding none

    @cached_property
    def kind_set(self) -> frozenset[str]:
        return frozenset(self.kinds)

    @cached_property
    def counts(self) -> tuple[MeldCount, ...]:
        """The counts of melds a way out must meet: ``melds`` (as many melds at least) and the
        requirements'."""
        total = (MeldCount(None, self.melds, None, False, None, self.source),) if self.melds else ()
        return total + tuple(r for r in self.requires if isinstance(r, MeldCount))

    @cached_property
    def checks(self) -> tuple[RouteRequirement, ...]:
        """Everything a way out must meet: the counts of melds, then the limits on the hand."""
        return self.counts + tuple(r for r in self.requires if isinstance(r, HandLimit))


@dataclass(frozen=True)
class Requirement:
    """Show ``count`` melds of these kinds (melds already shown count)."""

    kinds: frozenset[str]
    count: int
    source: Source | None


def read_routes(reader: RuleReader, raw: list) -> tuple[GoOutRoute, ...]:
    """The routes of ``going_out:`` that the options enable, each checked: kinds the deck has and
    the options enable, requirements some allowed kind can meet."""
    enabled = _enabled_kinds(reader)
    out = []
    seen: set[str] = set()
    for i, r in enumerate(raw):
        path = f"going_out[{i}]"
        if r["id"] in seen:
            reader.fail(raw, i, f"duplicate route id {r['id']!r}", path)
        seen.add(r["id"])
        if not reader.enabled(r, path, key="enabled_if"):
            continue
        kinds = _route_kinds(reader, r, path, enabled)
        requires: list[RouteRequirement] = [_first(reader, r, path, enabled)] if "first" in r else []
        for j, q in enumerate(r.get("requires", [])):
            where = f"{path}.requires[{j}]"
            if reader.enabled(q, where, key="enabled_if"):
                requires.append(_requirement(reader, q, where, enabled, kinds))
        out.append(
            GoOutRoute(
                r["id"],
                r.get("name", r["id"]),
                tuple(k.id for k in kinds),
                bool(r.get("all_cards", True)),
                r.get("melds"),
                tuple(requires),
                reader.source(r),
                r.get("discard") != "none",
            )
        )
    return tuple(out)


def _enabled_kinds(reader: RuleReader) -> dict[str, MeldKind]:
    """The meld kinds the options enable, by id."""
    raw = reader.data.get("melds", [])
    return {k.id: k for k, r in zip(reader.kinds, raw, strict=True) if reader.holds(r.get("enabled_if", {}))}


def _kinds_named(reader: RuleReader, items: list[str], path: str, enabled: Mapping[str, MeldKind]) -> list[MeldKind]:
    """Kinds a route or requirement names: each one the ruleset has, and enabled by the options."""
    reader.check_ids(items, reader.kind_ids, "meld kind", path)
    for i, kind_id in enumerate(items):
        if kind_id not in enabled:
            reader.fail(
                items,
                i,
                f"meld kind {kind_id!r} is disabled under these options (its enabled_if does not hold): "
                f"give this entry an enabled_if of its own, or leave the kind out",
                f"{path}[{i}]",
            )
    return [enabled[k] for k in items]


def _route_kinds(reader: RuleReader, r: Mapping, path: str, enabled: Mapping[str, MeldKind]) -> list[MeldKind]:
    if "kinds" not in r:
        return list(enabled.values())
    return _kinds_named(reader, r["kinds"], f"{path}.kinds", enabled)


def _first(reader: RuleReader, r: Mapping, path: str, enabled: Mapping[str, MeldKind]) -> MeldCount:
    """``first: {kinds, count}`` (with ``first_source``): at least ``count`` melds of ``kinds``."""
    first = r["first"]
    kinds = _kinds_named(reader, first["kinds"], f"{path}.first.kinds", enabled)
    source = reader.source({"source": r["first_source"]}) if "first_source" in r else reader.source(first)
    return MeldCount(frozenset(k.id for k in kinds), first["count"], None, False, None, source, _label(kinds))


def _requirement(
    reader: RuleReader, q: Mapping, path: str, enabled: Mapping[str, MeldKind], allowed: list[MeldKind]
) -> RouteRequirement:
    """One entry of a route's ``requires:``, refused when no kind the route allows can meet it."""
    if "hand_points" in q:
        limit = q["hand_points"]
        most = reader.option_value(limit["at_most"], 0)
        reader.bound(limit, "at_most", most, 10**6, "card points", f"{path}.hand_points.at_most")
        return HandLimit(most, reader.source(q))
    kinds = _kinds_named(reader, q["kinds"], f"{path}.kinds", enabled) if "kinds" in q else None
    at_least, at_most = _bounds(reader, q, path)
    sizes = _sizes(reader, q, path, max((k.largest for k in allowed), default=0))
    pure = bool(q.get("pure", False))
    ids = {k.id for k in allowed}
    meeting = [k for k in (kinds if kinds is not None else allowed) if k.id in ids]
    if kinds is not None and not meeting:
        reader.fail(q, "kinds", "the route allows none of these kinds: no meld could count here", f"{path}.kinds")
    if sizes is not None:
        meeting = [k for k in meeting if any(k.size_ok(n) for n in sizes)]
        if not meeting:
            reader.fail(q, "size", "no kind counted here has a meld of this size", f"{path}.size")
    if pure:
        meeting = [k for k in meeting if _may_be_pure(k)]
        if not meeting:
            reader.fail(q, "pure", "no kind counted here has a meld without a wild", f"{path}.pure")
    if at_least > 0 and not meeting:
        reader.fail(q, "at_least", "no kind counted here can meet this", path)
    label = _label(kinds) if kinds is not None else ""
    return MeldCount(
        frozenset(k.id for k in kinds) if kinds is not None else None,
        at_least,
        at_most,
        pure,
        sizes,
        reader.source(q),
        label,
    )


def _bounds(reader: RuleReader, q: Mapping, path: str) -> tuple[int, int | None]:
    """``at_least``, ``at_most`` or ``exactly`` (each a number or an option's value)."""
    given = [key for key in ("at_least", "at_most", "exactly") if key in q]
    if not given:
        reader.fail(q, "kinds" if "kinds" in q else "pure", "say how many: at_least, at_most or exactly", path)
    if "exactly" in q and len(given) > 1:
        reader.fail(q, "exactly", "exactly says it all: no at_least or at_most beside it", f"{path}.exactly")
    values = {key: reader.option_value(q[key], 0) for key in given}
    for key, value in values.items():
        reader.bound(q, key, value, 1000, "melds", f"{path}.{key}")
    if "exactly" in values:
        return values["exactly"], values["exactly"]
    at_least, at_most = values.get("at_least", 0), values.get("at_most")
    if at_most is not None and at_least > at_most:
        reader.fail(q, "at_least", f"at_least {at_least} is more than at_most {at_most}", f"{path}.at_least")
    return at_least, at_most


def _sizes(reader: RuleReader, q: Mapping, path: str, largest: int) -> frozenset[int] | None:
    """``size``: a number of cards, or ``{min, max}``; ``max`` left out reaches the largest meld of
    the kinds the route allows (``largest``)."""
    if "size" not in q:
        return None
    size = q["size"]
    if isinstance(size, int):
        return frozenset([size])
    most = size.get("max", max(largest, size["min"]))
    if size["min"] > most:
        reader.fail(q, "size", "size.min is larger than size.max", f"{path}.size")
    reader.bound(q, "size", most, 1000, "cards in a meld", f"{path}.size.max")
    return frozenset(range(size["min"], most + 1))


def _may_be_pure(kind: MeldKind) -> bool:
    """A meld of this kind may have no card acting as a wild: it allows a role that is no wild and
    asks for no wild."""
    least = kind.wilds.least if kind.wilds is not None else None
    return any(not entry.role.wild for entry in kind.roles) and not least


def _label(kinds: Sequence[MeldKind]) -> str:
    return " or ".join(k.name_en or k.name for k in kinds)


def _sizes_text(sizes: frozenset[int]) -> str:
    ordered = sorted(sizes)
    if ordered == list(range(ordered[0], ordered[-1] + 1)) and len(ordered) > 1:
        return f"{ordered[0]} to {ordered[-1]}"
    return ", ".join(map(str, ordered))


def requirement_json(route: GoOutRoute, requirement: RouteRequirement) -> dict[str, Any]:
    """A requirement a way out failed, as the answer's ``why`` names it."""
    return {
        "route": route.id,
        "requirement": requirement.describe(),
        "source": requirement.source.to_json() if requirement.source is not None else None,
    }
