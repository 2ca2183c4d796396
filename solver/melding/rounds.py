"""Settling a finished round, by each scoring system the ruleset names (``round_scoring:``).

Methods (generic; the ruleset says which apply and with what bonus):

* ``losers-pay-hand-points`` — each player who did not go out pays the winner the card points
  left in hand (罰点, a rummy winner's score);
* ``collect-own-meld-points`` — every player receives the points of their own melds from each
  other player (出来役加点; cards others laid off on a meld count for its owner);
* ``record-hand-points`` — only the losers' hand points are written down;
* ``knock`` — the knocker's count against each other player's after lay-offs, with the gin, big
  gin and undercut bonuses (:mod:`solver.melding.knock`);
* ``each-player`` — each player's own score, the sum of the system's terms: the points of the
  cards they melded or laid off (``melded_points``, each card at its value in the meld where it
  lies) and of the cards left in their hand (``hand_points``), added or subtracted (Rummy 500).

A ``one_go`` bonus applies when the winner went out in one go with no earlier meld: it doubles
(the losers' payments, or the winner's meld points) or adds a fixed amount.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from solver.core.deck import Face
from solver.core.errors import MeldsError
from solver.core.notation import Notation
from solver.core.rules import MeldFilter, RoundScoring
from solver.core.ruleset import Ruleset
from solver.melding.knock import settle_knock
from solver.melding.meld.checker import MeldChecker
from solver.melding.meld.points import (
    card_values_of,
    hand_breakdown,
    hand_points,
    in_table_order,
    meld_breakdown,
    meld_points,
    verified,
)
from solver.melding.table.operations import TableMeld


@dataclass(frozen=True)
class Round:
    ruleset: Ruleset
    players: tuple[str, ...]
    winner: str
    one_go: bool
    melds: tuple[TableMeld, ...]  # every meld on the table at the end, with its owner
    hands: Mapping[str, tuple[Face, ...]]  # the cards left in each player's hand
    # beside each meld, the cards of it other players laid off, by player (empty: not known)
    laid_off: tuple[Mapping[str, tuple[Face, ...]], ...] = ()


def score_round(rnd: Round, checker: MeldChecker) -> list[dict]:
    rs = rnd.ruleset
    fmt = checker.notation
    systems = []
    for system in rs.scoring_systems():
        bonus = rs.one_go_bonus(system) if rnd.one_go else None
        factor = 2 if bonus and bonus.double else 1
        payments = {p: 0 for p in rnd.players}
        details: dict = {}
        if system.method in ("losers-pay-hand-points", "record-hand-points"):
            for player in rnd.players:
                if player == rnd.winner:
                    continue
                hand = rnd.hands.get(player, ())
                points = hand_points(rs, hand) * factor
                details[player] = {
                    "hand": [fmt.format(f) for f in hand],
                    "points": points,
                    "breakdown": hand_breakdown(rs, hand, fmt),
                }
                if system.method == "losers-pay-hand-points":
                    payments[player] -= points
                    payments[rnd.winner] += points
                else:
                    payments[player] = -points
            if bonus and bonus.add and system.method == "losers-pay-hand-points":
                payments[rnd.winner] += bonus.add
        elif system.method == "each-player":
            payments, details = settle_each_player(rnd, system, checker)
        elif system.method == "knock":
            payments, details = settle_knock(rs, rnd.players, rnd.winner, rnd.melds, rnd.hands, system, checker)
        elif system.method == "collect-own-meld-points":
            totals = {p: 0 for p in rnd.players}
            melds_of: dict = {p: [] for p in rnd.players}
            for meld in rnd.melds:
                verdict = checker.check(meld.faces, ordered=True, explain=False)
                if not verdict.legal:
                    raise MeldsError(f"a meld of {meld.owner} is not legal: {fmt.format_many(meld.faces)}")
                reading = verified(verdict.reading)
                points = meld_points(reading)
                totals[meld.owner] += points
                melds_of[meld.owner].append(
                    {
                        "cards": [fmt.format(f) for f in meld.faces],
                        "kind": reading.kind.id,
                        "points": points,
                        "breakdown": meld_breakdown(reading, fmt),
                    }
                )
            if factor > 1:
                totals[rnd.winner] *= factor
            n = len(rnd.players)
            total = sum(totals.values())
            for p in rnd.players:
                payments[p] = n * totals[p] - total  # (n-1)·own − others'
                details[p] = {"meld_points": totals[p], "melds": melds_of[p]}
        systems.append(
            {
                "id": system.id,
                "name": system.name,
                "method": system.method,
                "payments": payments,
                "one_go_bonus": None if bonus is None else ({"double": True} if bonus.double else {"add": bonus.add}),
                "details": details,
                "source": system.source.to_json() if system.source else None,
            }
        )
    return systems


def settle_each_player(rnd: Round, system: RoundScoring, checker: MeldChecker) -> tuple[dict, dict]:
    """Method each-player: (each player's score, what it counts). A meld's cards count for its
    owner but those another player laid off on it (``laid_off``), which count for that player."""
    if len(rnd.laid_off) != len(rnd.melds):  # a game's state keeps each meld whole, not who laid what
        raise MeldsError(
            f"{system.id} counts each card for the player who laid it: settle the round from a round file "
            "whose melds say who laid off which cards (laid_off:)"
        )
    fmt = checker.notation
    melded: dict[str, list[dict]] = {p: [] for p in rnd.players}
    counted = any(t.measure == "melded_points" for t in system.terms)  # else no kind need score its cards
    for number, meld in enumerate(rnd.melds, 1):
        priced = _card_values(meld, checker, counted)
        for player, faces in rnd.laid_off[number - 1].items():
            taken = [priced.pop(next(i for i, (f, _) in enumerate(priced) if f == face)) for face in faces]
            melded[player].append(_laid(number, taken, fmt))
        if priced:
            melded[meld.owner].append(_laid(number, priced, fmt))
    payments, details = {}, {}
    for player in rnd.players:
        hand = rnd.hands.get(player, ())
        measures = {
            "melded_points": sum(m["points"] for m in melded[player]),
            "hand_points": hand_points(rnd.ruleset, hand),
        }
        bonuses = _bonuses(rnd, system, checker, player)
        measured = [t for t in system.terms if t.measure in measures]
        payments[player] = sum(t.sign * measures[t.measure] for t in measured) + sum(b["points"] for b in bonuses)
        details[player] = {
            **measures,
            "bonuses": bonuses,
            "melded": melded[player],
            "hand": [fmt.format(f) for f in hand],
            "breakdown": hand_breakdown(rnd.ruleset, hand, fmt),
        }
    return payments, details


def _bonuses(rnd: Round, system: RoundScoring, checker: MeldChecker, player: str) -> list[dict]:
    """The bonus terms a player earns: so many points for each of their melds a term counts
    (``per_meld``), for going out (``winner``)."""
    out = []
    for term in system.terms:
        if term.measure == "winner" and player == rnd.winner:
            if term.kept_none and rnd.hands.get(player):
                continue
            said = "going out with every card melded" if term.kept_none else "going out"
            out.append({"for": said, "count": 1, "points": term.sign * term.points})
        elif term.measure == "per_meld" and term.per_meld is not None:
            counted = sum(_counts(term.per_meld, m, checker) for m in rnd.melds if m.owner == player)
            if counted:
                out.append(
                    {"for": _filter_text(term.per_meld), "count": counted, "points": term.sign * term.points * counted}
                )
    return out


def _counts(wanted: MeldFilter, meld: TableMeld, checker: MeldChecker) -> bool:
    """Is the meld one the bonus counts: its kind, its size, whether a card acts as a wild in it?"""
    reading = verified(checker.check(meld.faces, ordered=True, explain=False).reading)
    least, most = wanted.sizes or (0, None)
    return (
        (wanted.kinds is None or reading.kind.id in wanted.kinds)
        and least <= len(meld.faces) <= (most if most is not None else len(meld.faces))
        and (wanted.wilds is None or (reading.wilds > 0) == (wanted.wilds == "some"))
    )


def _filter_text(wanted: MeldFilter) -> str:
    """The melds a bonus counts, in words: "melds of 7 or more cards with no wild"."""
    text = "melds" + (f" of {' or '.join(sorted(wanted.kinds))}" if wanted.kinds else "")
    if wanted.sizes is not None:
        least, most = wanted.sizes
        many = f"{least}" if most == least else f"{least} or more" if most is None else f"{least} to {most}"
        text += f" of {many} cards"
    return text + {"none": " with no wild", "some": " with a wild", None: ""}[wanted.wilds]


def _laid(number: int, cards: list[tuple[Face, int]], fmt: Notation) -> dict:
    """The cards a player laid on table meld ``number``, with their points."""
    return {"meld": number, "cards": [fmt.format(f) for f, _ in cards], "points": sum(v for _, v in cards)}


def _card_values(meld: TableMeld, checker: MeldChecker, priced: bool = True) -> list[tuple[Face, int]]:
    """Each card of a table meld with its card points as it stands in the meld (0 each where no term
    counts them: ``priced`` False)."""
    verdict = checker.check(meld.faces, ordered=True, explain=False)
    if not verdict.legal:
        raise MeldsError(f"a meld of {meld.owner} is not legal: {checker.notation.format_many(meld.faces)}")
    reading = verified(verdict.reading)
    if not priced:
        return [(p.face, 0) for p in in_table_order(reading)]
    values = reading.kind.score.card_values if reading.kind.score is not None else None
    if values is None:
        raise MeldsError(
            f"{reading.kind.id} melds do not score their cards' values: "
            f"a card of {checker.notation.format_many(meld.faces)} has no points of its own"
        )
    return [(p.face, v) for p, v in zip(in_table_order(reading), card_values_of(reading, values), strict=True)]
