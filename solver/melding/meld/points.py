"""Points: what a meld earns (出来役加点) and what cards left in hand cost (deadwood, 罰点).

Both come from ruleset data: a kind's ``score`` table and the ruleset's ``card_points``. A meld
counts its natural cards (cards acting as wilds are not counted, "ワイルド扱いの札は枚数に含まれ
ない"); with ``segments`` a sequence split by a wild scores each run of naturals apart
("ワイルドにより分断された順は、連長を別々に計算する"). A kind scored by ``count: card_points`` earns
the card points of its cards, each valued as the card it stands for.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from solver.core.deck import Face, rank_order
from solver.core.rules import CardValues, MeldKind
from solver.core.ruleset import Ruleset
from solver.melding.meld.encode import Placement, Reading, sequence_place


def verified(reading: Reading | None) -> Reading:
    """The reading of a meld verified already (a legal verdict, a chosen option, a table meld)."""
    if reading is None:
        raise ValueError("a verified meld has its reading")
    return reading


def in_table_order(reading: Reading) -> list[Placement]:
    """A meld's placements as it lies on the table: a sequence's from its low end."""
    placements = list(reading.placements)
    if reading.kind.shape == "sequence":
        placements.sort(key=sequence_place)
    return placements


def run_end(reading: Reading, at: int, placements: Sequence[Placement]) -> str | None:
    """``low`` when the card at ``at`` (of the placements in sequence order) stands at the meld's
    low end as its order's first rank (an ace in A-2-3), ``high`` at its high end as the last."""
    if reading.kind.shape != "sequence" or len(placements) < 2:
        return None
    ranks, rank = reading.kind.run_order.ranks, placements[at].identity[1]
    if at == 0 and rank == ranks[0] and placements[1].identity[1] == ranks[1]:
        return "low"
    if at == len(placements) - 1 and rank == ranks[-1] and placements[at - 1].identity[1] == ranks[-2]:
        return "high"
    return None


def card_values_of(reading: Reading, values: CardValues) -> list[int]:
    """Each card's card points as it stands in the meld (in table order: :func:`in_table_order`)."""
    placements = in_table_order(reading)
    return [
        values.value(p.face.cls, p.identity[0], p.identity[1], run_end(reading, i, placements))
        for i, p in enumerate(placements)
    ]


def cards_score(ruleset: Ruleset) -> bool:
    """Whether melds score their cards' card points: then a card laid off on anyone's meld earns
    its points for the player who lays it off."""
    return any(k.score is not None and k.score.card_values is not None for k in ruleset.kinds)


def counted_runs(kind: MeldKind, naturals: Sequence[bool]) -> list[int]:
    """The lengths that are looked up in the table: one per segment of naturals, or one in all."""
    score = kind.score
    if score is None:
        raise ValueError(f"meld kind {kind.id} has no score table")
    if score.count == "cards":
        return [len(naturals)]
    if not (score.segments and kind.shape == "sequence"):
        return [sum(naturals)]
    runs, current = [], 0
    for natural in naturals:
        if natural:
            current += 1
        else:
            runs.append(current)
            current = 0
    runs.append(current)
    return [r for r in runs if r]


def points_for(kind: MeldKind, naturals: Sequence[bool]) -> int:
    """Meld points of a kind whose cards, in table order, are natural (True) or wild (False)."""
    if kind.score is None:
        return 0
    if kind.score.card_values is not None:  # not known from the naturals: the most its cards may count
        return len(naturals) * kind.score.card_values.most
    return sum(kind.score.points(n) for n in counted_runs(kind, naturals))


def meld_points(reading: Reading) -> int:
    score = reading.kind.score
    if score is not None and score.card_values is not None:
        return sum(card_values_of(reading, score.card_values))
    return points_for(reading.kind, [not p.wild for p in in_table_order(reading)])


def hand_points(ruleset: Ruleset, faces: Iterable[Face], params: Mapping[str, Any] | None = None) -> int:
    """Card points of cards left in a hand: deadwood, 罰点 (``params``: the query's chosen cards)."""
    return sum(ruleset.points(f, params) for f in faces)


def meld_breakdown(reading: Reading, notation) -> list[dict]:
    """What each part of a meld counts: runs of naturals with their points, wilds not counted."""
    kind = reading.kind
    placements = in_table_order(reading)
    fmt = notation.format
    if kind.score is None:
        return [
            {
                "cards": [fmt(p.face) for p in placements],
                "counted": 0,
                "points": 0,
                "note": f"a {kind.label} scores no meld points",
            }
        ]
    if kind.score.card_values is not None:
        values = card_values_of(reading, kind.score.card_values)
        return [{"cards": [fmt(p.face)], "counted": 1, "points": v} for p, v in zip(placements, values, strict=True)]
    if kind.score.count == "cards":
        n = len(placements)
        return [{"cards": [fmt(p.face) for p in placements], "counted": n, "points": kind.score.points(n)}]
    parts: list[dict] = []
    segments = kind.score.segments and kind.shape == "sequence"
    naturals = [p for p in placements if not p.wild]
    if not segments:
        n = len(naturals)
        parts.append({"cards": [fmt(p.face) for p in naturals], "counted": n, "points": kind.score.points(n)})
    else:
        run: list = []
        for p in placements + [None]:
            if p is not None and not p.wild:
                run.append(p)
                continue
            if run:
                parts.append(
                    {"cards": [fmt(q.face) for q in run], "counted": len(run), "points": kind.score.points(len(run))}
                )
                run = []
    wilds = [p for p in placements if p.wild]
    if wilds:
        inside = segments and any(
            p.wild and any(not q.wild for q in placements[:i]) and any(not q.wild for q in placements[i + 1 :])
            for i, p in enumerate(placements)
        )
        parts.append(
            {
                "cards": [fmt(p.face) for p in wilds],
                "counted": 0,
                "points": 0,
                "note": "acting as wilds: not counted" + ("; a wild inside splits the run" if inside else ""),
            }
        )
    return parts


def hand_breakdown(
    ruleset: Ruleset, faces: Iterable[Face], notation, params: Mapping[str, Any] | None = None
) -> list[dict]:
    """Card points of a hand, grouped by the ruleset's card-point entries."""
    groups: dict = {}
    deck_order = {rank.id: i for i, rank in enumerate(ruleset.deck.ranks)}  # a label lists ranks as the deck does
    for face in faces:
        related = ruleset.relations(face, params)
        entry = next((e for e in ruleset.card_points if e.matches(face, related)), None)
        key = id(entry)
        if key not in groups:
            label = (
                entry.name
                if entry and entry.name
                else ", ".join(sorted(entry.if_chosen))
                if entry and entry.if_chosen
                else ", ".join(sorted(entry.classes))
                if entry and entry.classes
                else ", ".join(sorted(entry.ranks, key=lambda r: (deck_order.get(r, len(deck_order)), rank_order(r))))
                if entry and entry.ranks
                else "other"
            )
            groups[key] = {"group": label, "cards": [], "points": 0}
        groups[key]["cards"].append(notation.format(face))
        groups[key]["points"] += ruleset.points(face, params)
    return list(groups.values())
