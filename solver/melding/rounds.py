"""Settling a finished round, by each scoring system the ruleset names (``round_scoring:``).

Methods (generic; the ruleset says which apply and with what bonus):

* ``losers-pay-hand-points`` — each player who did not go out pays the winner the card points
  left in hand (罰点, a rummy winner's score);
* ``collect-own-meld-points`` — every player receives the points of their own melds from each
  other player (出来役加点; cards others laid off on a meld count for its owner);
* ``record-hand-points`` — only the losers' hand points are written down;
* ``knock`` — the knocker's count against each other player's after lay-offs, with the gin, big
  gin and undercut bonuses (:mod:`solver.melding.knock`).

A ``one_go`` bonus applies when the winner went out in one go with no earlier meld: it doubles
(the losers' payments, or the winner's meld points) or adds a fixed amount.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from solver.core.deck import Face
from solver.core.errors import MeldsError
from solver.core.ruleset import Ruleset
from solver.melding.knock import settle_knock
from solver.melding.meld.checker import MeldChecker
from solver.melding.meld.points import hand_breakdown, hand_points, meld_breakdown, meld_points
from solver.melding.table.operations import TableMeld


@dataclass(frozen=True)
class Round:
    ruleset: Ruleset
    players: tuple[str, ...]
    winner: str
    one_go: bool
    melds: tuple[TableMeld, ...]  # every meld on the table at the end, with its owner
    hands: Mapping[str, tuple[Face, ...]]  # the cards left in each player's hand


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
        elif system.method == "knock":
            payments, details = settle_knock(rs, rnd.players, rnd.winner, rnd.melds, rnd.hands, system, checker)
        elif system.method == "collect-own-meld-points":
            totals = {p: 0 for p in rnd.players}
            melds_of: dict = {p: [] for p in rnd.players}
            for meld in rnd.melds:
                verdict = checker.check(meld.faces, ordered=True, explain=False)
                if not verdict.legal:
                    raise MeldsError(f"a meld of {meld.owner} is not legal: {fmt.format_many(meld.faces)}")
                points = meld_points(verdict.reading)
                totals[meld.owner] += points
                melds_of[meld.owner].append(
                    {
                        "cards": [fmt.format(f) for f in meld.faces],
                        "kind": verdict.reading.kind.id,
                        "points": points,
                        "breakdown": meld_breakdown(verdict.reading, fmt),
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
