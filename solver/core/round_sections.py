"""The ``round_scoring:`` section read: how a finished round is settled, and its bonuses (``one_go``;
method knock's ``gin``, ``big_gin`` and ``undercut``) or terms (method each-player's ``terms``)."""

from __future__ import annotations

from typing import Any

from solver.core.reader import RuleReader
from solver.core.rules import Bonus, MeldFilter, RoundScoring, RoundTerm


def read_round_scoring(reader: RuleReader, raw: list[Any]) -> tuple[RoundScoring, ...]:
    out: list[RoundScoring] = []
    for i, r in enumerate(raw):
        path = f"round_scoring[{i}]"
        bonuses = {key: read_bonuses(reader, r.get(key, []), f"{path}.{key}") for key in KNOCK_BONUSES}
        if r["method"] != "knock":
            for key in KNOCK_BONUSES:
                if key in r:
                    reader.fail(r, key, f"{key} is a bonus of method knock, not {r['method']}", f"{path}.{key}")
        elif problem := knock_unsaid(r):
            reader.fail(r, problem[0], problem[1], f"{path}.{problem[0]}")
        elif (reader.data.get("objective") or [{}])[0].get("minimize") != "hand_points":
            reader.fail(
                r,
                "method",
                "a knock counts each hand's least deadwood: the objective must minimize hand_points first",
                path,
            )
        terms = read_terms(reader, r, path)
        out.append(
            RoundScoring(
                r["id"],
                r["name"],
                r["method"],
                read_bonuses(reader, r.get("one_go", []), f"{path}.one_go"),
                reader.condition(r, path),
                reader.source(r),
                reader.source(r.get("counts")),
                **bonuses,
                terms=terms,
            )
        )
    return tuple(out)


def read_terms(reader: RuleReader, raw: dict[str, Any], path: str) -> tuple[RoundTerm, ...]:
    """Method each-player's ``terms``: each ``{add: MEASURE}`` or ``{subtract: MEASURE}``; refused
    (naming file and line) on another method, missing or empty, beside a one-go bonus, and
    ``melded_points`` where some meld kind does not score its cards' values (a card laid off
    would then have no points of its own)."""
    each_player = raw["method"] == "each-player"
    if not each_player:
        if "terms" in raw:
            reader.fail(raw, "terms", f"terms are method each-player's, not {raw['method']}'s", f"{path}.terms")
        return ()
    if not raw.get("terms"):
        reader.fail(raw, "method", "method each-player sums its terms: give terms (add or subtract a measure)", path)
    if raw.get("one_go"):
        reader.fail(
            raw, "one_go", "method each-player has no one-go bonus: each player's score is its terms", f"{path}.one_go"
        )
    out = []
    for j, term in enumerate(raw["terms"]):
        where = f"{path}.terms[{j}]"
        signs = [key for key in ("add", "subtract") if key in term]
        if len(signs) != 1:
            reader.fail(raw["terms"], j, "a term adds or subtracts one measure: {add: M} or {subtract: M}", where)
        measure = term[signs[0]]
        if isinstance(measure, int):
            out.append(_bonus_term(reader, term, signs[0], where))
            continue
        if "per_meld" in term or "winner" in term:
            reader.fail(term, signs[0], "a bonus adds a number of points: {add: 300, per_meld: {…}}", where)
        if measure == "melded_points" and (kind := _kind_not_scoring_cards(reader)) is not None:
            reader.fail(
                term,
                signs[0],
                f"melded_points counts each card a player melded or laid off at its value, but meld kind "
                f"{kind!r} does not score its cards' values (score: {{count: card_points}})",
                where,
            )
        out.append(RoundTerm(1 if signs[0] == "add" else -1, measure, reader.source(term)))
    return tuple(out)


def _bonus_term(reader: RuleReader, term: dict[str, Any], sign: str, where: str) -> RoundTerm:
    """``{add: N, per_meld: {kinds, size, wilds}}`` (N for each of the player's melds it counts) or
    ``{add: N, winner: true}`` (N for the player who went out; ``winner: {kept: none}``: only if they
    kept no card in hand): exactly one of the two."""
    said = [key for key in ("per_meld", "winner") if key in term]
    if len(said) != 1 or term.get("winner") is False:
        reader.fail(term, sign, "a number of points is a bonus: say per_meld: {…} or winner: true", where)
    points = reader.option_value(term[sign], 0)
    if said == ["winner"]:
        winner = term["winner"]
        if winner is not True and winner != {"kept": "none"}:
            reader.fail(
                term, "winner", "a winner's bonus says winner: true, or winner: {kept: none}", f"{where}.winner"
            )
        kept_none = winner is not True
        return RoundTerm(1 if sign == "add" else -1, "winner", reader.source(term), points, kept_none=kept_none)
    raw = term["per_meld"]
    kinds = raw.get("kinds")
    if kinds is not None:
        reader.check_ids(kinds, reader.kind_ids, "meld kind", f"{where}.per_meld.kinds")
    size = raw.get("size")
    sizes = (size, size) if isinstance(size, int) else (size["min"], size.get("max")) if size else None
    kept = MeldFilter(frozenset(kinds) if kinds is not None else None, sizes, raw.get("wilds"))
    return RoundTerm(1 if sign == "add" else -1, "per_meld", reader.source(term), points, kept)


def _kind_not_scoring_cards(reader: RuleReader) -> str | None:
    """The first meld kind that does not score its cards' card points (None: every kind does)."""
    for kind in reader.data.get("melds") or []:
        score = kind.get("score") or {}
        if score.get("count") != "card_points":
            return str(kind.get("id"))
    return None


KNOCK_BONUSES = ("gin", "big_gin", "undercut")


def knock_unsaid(raw: dict[str, Any]) -> tuple[str, str] | None:
    """(key, message) for what method knock would not count: a one-go bonus (a knock settles
    every hand alike)."""
    if raw.get("one_go"):
        return "one_go", "method knock has no one-go bonus: its bonuses are gin, big_gin and undercut"
    return None


def read_bonuses(reader: RuleReader, raw: list[Any], path: str) -> tuple[Bonus, ...]:
    """Bonus entries (the first whose ``if`` holds applies): ``double``, or ``add`` a number (an
    option's value)."""
    return tuple(
        Bonus(
            bool(b.get("double")),
            reader.option_value(b.get("add"), 0),
            reader.condition(b, f"{path}[{j}]"),
            reader.source(b),
        )
        for j, b in enumerate(raw)
    )
