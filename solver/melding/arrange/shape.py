"""What the compact slot model (:mod:`solver.melding.arrange.slots`) needs of a ruleset, and
whether the ruleset has it: one group kind and one run kind, natural cards of one suit and rank
each, and at most one wild card that stands for any card of either kind (with another card in the
meld). Rulesets of other shapes (more kinds, wild limits, rank orders with repeats, runs shorter
than their order, a card both natural and wild) are answered by the candidate model instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from solver.core.deck import Face
from solver.core.rules import MeldKind, Order, Role
from solver.core.ruleset import Ruleset


def rank_values(ruleset: Ruleset) -> dict[str, int]:
    """Each rank's value (what a card standing for it counts in a meld's value; 0 when the deck
    gives it none)."""
    return {r.id: r.value if r.value is not None else 0 for r in ruleset.deck.ranks}


@dataclass(frozen=True, eq=False)
class Shape:
    """The ruleset's group and run kinds, the natural cards by (suit, rank), the wild card and
    its copies, every face's copies, and the ranks' values."""

    group: MeldKind | None
    run: MeldKind | None
    naturals: Mapping[tuple[str | None, str | None], Face]  # by (suit, rank)
    wild: Face | None
    wilds: int
    copies: Mapping[Face, int]
    values: Mapping[str, int]

    @property
    def run_kind(self) -> MeldKind:
        """The run kind (asked only of a ruleset that has one)."""
        if self.run is None:
            raise AssertionError("the ruleset has no run kind")
        return self.run

    @property
    def order(self) -> Order:
        """The run kind's rank order."""
        order = self.run_kind.order
        if order is None:
            raise AssertionError("a run kind has an order")
        return order

    @property
    def group_kind(self) -> MeldKind:
        """The group kind (asked only of a ruleset that has one)."""
        if self.group is None:
            raise AssertionError("the ruleset has no group kind")
        return self.group

    @property
    def group_max(self) -> int:
        """A group's most cards: the kind's, and no more than its suits (a wild takes a suit
        no natural of the group has)."""
        return min(self.group.size_max, len(self.group.suits)) if self.group else 0


def _plain(kind: MeldKind) -> bool:
    """A kind with no rule the slot model leaves out."""
    return not (
        kind.short_form
        or kind.wilds
        or kind.distinguish
        or kind.phase
        or kind.suit_step.cycle
        or kind.size_min < 1
        or not kind.distinct
    )


def _roles(kinds: list[MeldKind]) -> tuple[set[Role], set[str]] | None:
    """The wild roles and the classes of natural cards, when every role is one the slot model
    reads: a natural at its own suit and rank, or a wild for any card of its kind that needs
    another card in the meld."""
    wild_roles: set[Role] = set()
    natural_classes: set[str] = set()
    for kind in kinds:
        for kind_role in kind.roles:
            role = kind_role.role
            if kind_role.classes is not None or kind_role.sizes is not None:
                return None
            if role.wild:
                ranks = kind.order.ranks if kind.order else kind.ranks
                covers = set(role.suits or ()) >= set(kind.suits) and set(role.ranks or ()) >= set(ranks)
                if not covers or role.requires_in_meld is None:
                    return None
                wild_roles.add(role)
            elif role.suits is None and role.ranks is None and role.requires_in_meld is None:
                natural_classes |= role.classes
            else:
                return None
    return wild_roles, natural_classes


def shape_of(ruleset: Ruleset) -> Shape | None:
    """The ruleset's kinds as the compact model reads them, or None when they are of another shape
    (then the candidate model answers)."""
    kinds = list(ruleset.kinds)
    groups = [k for k in kinds if k.shape == "group"]
    runs = [k for k in kinds if k.shape == "sequence"]
    if len(groups) > 1 or len(runs) > 1 or len(groups) + len(runs) != len(kinds) or not kinds:
        return None
    roles = _roles(kinds) if all(_plain(k) for k in kinds) else None
    if roles is None:
        return None
    wild_roles, natural_classes = roles
    run = runs[0] if runs else None
    if run is not None:
        ranks = run.order.ranks if run.order else ()
        if not ranks or len(set(ranks)) != len(ranks) or run.size_max < len(ranks):
            return None
    cyclic = run is not None and run.order is not None and run.order.cyclic
    if len(wild_roles) > 1:
        return None
    wild_role = next(iter(wild_roles), None)
    if wild_role is not None:
        needs = wild_role.requires_in_meld
        if needs is None or not needs.classes <= natural_classes or wild_role.classes & natural_classes:
            return None
    naturals: dict[tuple[str | None, str | None], Face] = {}
    wild, wilds = None, 0
    for face, copies in ruleset.deck.copies.items():
        if face.cls in natural_classes:
            if face.suit is None or face.rank is None:
                return None
            naturals[(face.suit, face.rank)] = face
        elif wild_role is not None and face.cls in wild_role.classes:
            if wild is not None:
                return None
            wild, wilds = face, copies
    if cyclic and wilds >= len(ranks):
        return None  # a whole circle of wilds would need its own rule
    group = groups[0] if groups else None
    return Shape(group, run, naturals, wild, wilds, dict(ruleset.deck.copies), rank_values(ruleset))
