"""Why a meld is illegal, in words: a :class:`Reason` (code, message, the sentence behind it) and
the message for each rule a kind's model encodes (:func:`rule_reason`), shown on the reading
that breaks only that rule (:meth:`~solver.melding.meld.checker.MeldChecker._diagnose` finds it)."""

from __future__ import annotations

from dataclasses import dataclass

from solver.core.deck import rank_order
from solver.core.notation import Notation
from solver.core.rules import MeldKind
from solver.core.ruleset import Ruleset
from solver.core.source import Source
from solver.melding.meld.encode import KindModel, Placement, Reading, Rule


@dataclass(frozen=True)
class Reason:
    code: str
    message: str
    source: Source | None = None
    kind: str | None = None

    def to_json(self) -> dict:
        out = {"code": self.code, "message": self.message, "source": self.source.to_json() if self.source else None}
        if self.kind:
            out["kind"] = self.kind
        return out


def with_article(label: str) -> str:
    """A kind's name after "a" or "an" by its first letter ("a set", "an escala", "a 組")."""
    return f"{'an' if label[:1].lower() in 'aeiou' else 'a'} {label}"


def rule_reason(
    notation: Notation, ruleset: Ruleset, model: KindModel, rule: Rule, witness: Reading | None, cards: list
) -> Reason:
    """The reason a meld breaks ``rule`` of the model's kind, in words, shown on ``witness`` (the
    reading that keeps every other rule the diagnosis kept)."""
    kind, n = model.kind, model.n
    fmt = notation.format
    label = kind.label
    a_label = with_article(label)
    shown = " ".join(fmt(face) for face, _ in cards)

    def reason(message: str) -> Reason:
        return Reason(rule.code, message, rule.source, kind.id)

    if rule.key == "size":
        if n < kind.size_min:
            return reason(f"{a_label} needs at least {kind.size_min} cards, {n} given")
        return reason(f"{a_label} has at most {kind.size_max} cards, {n} given")
    if witness is None:  # a degenerate model: only its size rule has a reading to show
        return reason(f"breaks the rule {rule.key} of {a_label}")
    if rule.key == "short-form" and kind.short_form is not None:
        short = kind.short_form.roles
        allowed = ", ".join(sorted(short))
        bad = [p for p in witness.placements if p.role not in short]
        who = " and ".join(f"{fmt(p.face)} (as {p.role})" for p in bad)
        return reason(
            f"{a_label} of {n} cards may hold only cards playing {allowed}"
            + (f"; {who} needs a longer meld" if who else "")
        )
    if rule.key == "distinct":
        return reason(_duplicates(notation, kind, witness))
    requires = rule.entry.role.requires_in_meld if rule.entry is not None else None
    if rule.key.startswith("requires:") and rule.entry is not None and requires is not None:
        role = rule.entry.role
        need = " or ".join(sorted(requires.classes))
        users = " and ".join(fmt(p.face) for p in witness.placements if p.role == role.id)
        return reason(
            f"as {a_label}, {users or 'a card'} would act as {role.id} ({role.name}), "
            f"which needs a {need} card beside it"
        )
    if rule.key.startswith("role-size:") and rule.entry is not None and rule.entry.sizes is not None:
        entry = rule.entry
        sizes = ", ".join(str(s) for s in sorted(rule.entry.sizes))
        classes = " or ".join(sorted(entry.classes or entry.role.classes))
        return reason(f"in {a_label}, {classes} cards act as {entry.role.id} only in melds of {sizes} cards, not {n}")
    if rule.key == "wilds":
        limits = kind.wilds.describe(n) if kind.wilds else f"0 to {n} wild cards"
        return reason(f"{a_label} of {n} cards holds {limits}, here {witness.wilds} wilds")
    if rule.key == "wilds-apart":
        wild = sorted((p.offset, fmt(p.face)) for p in witness.placements if p.wild and p.offset is not None)
        pair = next((f"{a} and {b}" for (i, a), (j, b) in zip(wild, wild[1:], strict=False) if j == i + 1), "two wilds")
        return reason(f"in {a_label} no two wild cards may stand side by side; here {pair} would")
    if rule.key == "same-rank":
        ranks = sorted({p.identity[1] for p in witness.placements if not p.wild}, key=rank_order)
        return reason(f"{a_label} needs one rank; {shown} show ranks {', '.join(ranks)}")
    if rule.key == "same-suit":
        suits = list(dict.fromkeys(p.identity[0] for p in witness.placements if not p.wild))
        return reason(f"{a_label} needs one suit; {shown} show suits {', '.join(suits)}")
    if rule.key == "suit-step" and kind.suit_step.cycle is not None:
        cycle = kind.suit_step.cycle
        path = "→".join(ruleset.cycles[cycle])
        return reason(f"in {a_label} the suits step along {cycle} ({path}); {shown} do not")
    if rule.key == "consecutive":
        order = kind.run_order.ranks
        ends = " ".join(order) if len(order) <= 5 else f"{order[0]} {order[1]} … {order[-2]} {order[-1]}"
        ends += ", round again" if kind.run_order.cyclic else ""
        return reason(f"{a_label} needs consecutive ranks in the order {ends}; {shown} are not")
    return reason(f"breaks the rule {rule.key} of {a_label}")


def _duplicates(notation: Notation, kind: MeldKind, witness: Reading) -> str:
    """What the distinctness rule forbids in the witness: two cards of one identity; in a group,
    whose cards must each have a suit of their own, two cards of one suit; in a sequence, two
    cards on one place. (The witness may break another rule too, when the diagnosis blames both:
    H4 S7 H6 is no group for its ranks and for its two hearts.)"""
    fmt = notation.format
    fmt_id = notation.format_identity
    by_identity: dict[tuple, list[Placement]] = {}
    for p in witness.placements:
        by_identity.setdefault(p.identity, []).append(p)
    parts = []
    for identity, group in by_identity.items():
        if len(group) < 2:
            continue
        natural = [p for p in group if not p.wild]
        wilds = [p for p in group if p.wild]
        if natural and wilds:
            parts.append(
                f"{' and '.join(fmt(p.face) for p in wilds)} would have to stand for "
                f"{fmt_id(identity)}, which is already in the meld"
            )
        else:
            every = "both" if len(group) == 2 else "all"
            parts.append(f"{' and '.join(fmt(p.face) for p in group)} would {every} be {fmt_id(identity)}")
    if parts:
        return f"as {with_article(kind.label)}: {'; '.join(parts)}"
    if kind.shape == "group":
        shared = _sharing(witness, lambda p: p.identity[0])
        return f"{with_article(kind.label)} needs a different suit for each card; " + "; ".join(
            f"{_cards(notation, group)} {'are both' if len(group) == 2 else 'are all'} {suit}" for suit, group in shared
        )
    shared = _sharing(witness, lambda p: p.offset)
    return f"{with_article(kind.label)} has one card in each place; " + "; ".join(
        f"{_cards(notation, group)} would stand in one place ({' / '.join(fmt_id(p.identity) for p in group)})"
        for _, group in shared
    )


def _sharing(witness: Reading, key) -> list[tuple[object, list[Placement]]]:
    """The placements that share a value of ``key``, grouped."""
    groups: dict[object, list[Placement]] = {}
    for p in witness.placements:
        groups.setdefault(key(p), []).append(p)
    return [(value, group) for value, group in groups.items() if len(group) > 1 and value is not None]


def _cards(notation: Notation, placements: list[Placement]) -> str:
    return " and ".join(notation.format(p.face) for p in placements)
