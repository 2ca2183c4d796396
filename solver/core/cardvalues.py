"""Card values counted in melds: a kind scored by its cards' card points (``score: {count:
card_points}``) and a first meld's minimum counted from them (``initial_meld: {counts: ...}``).

Both read the ruleset's ``card_points:`` entries as :class:`~solver.core.rules.CardValues`: a
melded card is valued as the card it stands for, so a wild counts what it represents unless an
entry for its class comes first, and ``run_end`` entries price a card by the end of a sequence it
stands at (an ace low in A-2-3).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from solver.core.reader import RuleReader
from solver.core.rules import CardPoints, CardValues, ScoreTable

EVERY_CARD_ITS_RANK = CardPoints(None, None, None, "rank", None)


def card_values(reader: RuleReader, entries: tuple[CardPoints, ...]) -> CardValues:
    """The ruleset's card points as melded cards count them; a rank's value is its ``value`` in
    ``deck.ranks``, else the number it is written as."""
    ranks = {
        r.id: r.value if r.value is not None else int(r.id)
        for r in reader.deck.ranks
        if r.value is not None or r.id.isdigit()
    }
    return CardValues(entries, ranks)


def read_score(reader: RuleReader, raw: Mapping[str, Any], path: str, values: CardValues) -> ScoreTable:
    """A kind's ``score:``: a table of points by counted cards, or (``count: card_points``) the
    card points of its cards, which needs ``card_points:`` entries and takes no table."""
    count = raw.get("count", "naturals")
    if count == "card_points":
        if not values.entries:
            reader.fail(raw, "count", "score counts card_points, but the ruleset has no card_points:", f"{path}.score")
        for key in ("counts", "points", "segments"):
            if key in raw:
                reader.fail(raw, key, f"a score of count card_points takes no {key}", f"{path}.score.{key}")
        if reader.data.get("operations"):
            reader.fail(
                raw,
                "count",
                "a score of count card_points is counted on turns without single-card operations (operations:)",
                f"{path}.score",
            )
        return ScoreTable({}, count, False, reader.source(raw), values)
    for key in ("counts", "points"):
        if key not in raw:
            reader.fail(raw, "count", f"score needs {key} (or count: card_points)", f"{path}.score.{key}")
    if len(raw["counts"]) != len(raw["points"]):
        reader.fail(raw, "points", "score.points needs one value per count", f"{path}.score.points")
    return ScoreTable(
        dict(zip(raw["counts"], raw["points"], strict=True)),
        count,
        bool(raw.get("segments", False)),
        reader.source(raw),
    )


def initial_values(reader: RuleReader, raw: Mapping[str, Any], values: CardValues) -> CardValues:
    """How ``initial_meld:`` counts a card: ``rank`` the value of the rank it stands for,
    ``card_points`` its card points as a melded card (which needs ``card_points:``)."""
    if raw.get("counts", "rank") == "rank":
        return CardValues((EVERY_CARD_ITS_RANK,), values.rank_values)
    if not values.entries:
        reader.fail(
            raw, "counts", "initial_meld counts card_points, but the ruleset has no card_points:", "initial_meld"
        )
    return values
