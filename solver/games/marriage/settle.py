"""Settling a Marriage round: maal points and the payments between players.

Every player (the winner too) scores maal points: a tunnela shown at the deal, marriages shown,
and the maal cards they hold beyond those, by the ruleset's ``settlement.maal_points`` table.
These are exchanged between all players (each receives from each other the difference of their
points); the winner also receives a game payment from each other player (more from those who
have not seen the tiplu, and a bonus for going out with dublees). The document settles it all
between the winner and each player: a player pays the winner

    上がり支払 + 総計点数 − (個人点数 × 人数)

(game payment + everyone's maal points − the player's own × the number of players), which nets
to the same as settling every pair; :func:`pairwise` computes that for comparison.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from solver.core.deck import Face
from solver.core.errors import MeldsError
from solver.core.ruleset import Ruleset


@dataclass(frozen=True)
class PlayerResult:
    name: str
    seen: bool
    cards: tuple[Face, ...] = ()  # every card the player holds at the end, in hand or on the table
    marriages: int = 0  # marriages shown on the table
    dealt_tunnelas: tuple[tuple[Face, ...], ...] = ()  # tunnelas shown before play
    points: int | None = None  # maal points given directly (instead of from the cards)


@dataclass(frozen=True)
class RoundResult:
    ruleset: Ruleset
    tiplu: Face
    winner: str
    players: tuple[PlayerResult, ...]
    dublee_win: bool = False


def maal_points(rs: Ruleset, player: PlayerResult, tiplu: Face) -> tuple[int, list[dict]]:
    """A player's maal points and what they are made of."""
    table = rs.rules.settlement
    if player.points is not None:
        return player.points, [{"what": "given", "points": player.points}]
    parts = []
    cards = Counter(player.cards)
    for tunnela in player.dealt_tunnelas:
        if len(set(tunnela)) != 1 or len(tunnela) != 3:
            raise MeldsError(f"{player.name}: a dealt tunnela is three identical cards")
        kind = rs.rules.maal_kind(tunnela[0], tiplu) or "plain"
        value = table.dealt_tunnela.get(kind, table.dealt_tunnela.get("plain", 0))
        parts.append({"what": f"tunnela shown at the deal ({kind})", "points": value})
        cards -= Counter(tunnela)
    by_kind: dict[str, list[Face]] = {}
    for face in cards.elements():
        kind = rs.rules.maal_kind(face, tiplu)
        if kind is not None:
            by_kind.setdefault(kind, []).append(face)
    for _ in range(player.marriages):
        for kind in ("jhiplu", "tiplu", "poplu"):
            if not by_kind.get(kind):
                raise MeldsError(f"{player.name}: a marriage needs a {kind}, and none is left among the cards")
            by_kind[kind].pop()
        parts.append({"what": "marriage", "points": table.marriage})
    for kind, faces in by_kind.items():
        values = table.card_points.get(kind)
        if not values or not faces:
            continue
        value = values[min(len(faces), len(values)) - 1]
        parts.append({"what": f"{len(faces)} {kind}", "points": value})
    return sum(p["points"] for p in parts), parts


def settle(result: RoundResult) -> dict:
    """What each player receives (negative: pays), by the document's formula."""
    rs = result.ruleset
    table = rs.rules.settlement
    if table is None:
        raise MeldsError(f"{rs.id} has no settlement rules")
    names = [p.name for p in result.players]
    if result.winner not in names:
        raise MeldsError(f"the winner {result.winner!r} is not among the players {names}")
    maal = {}
    details = {}
    for p in result.players:
        maal[p.name], details[p.name] = maal_points(rs, p, result.tiplu)
    total = sum(maal.values())
    n = len(result.players)
    payments = {name: 0 for name in names}
    pays = {}
    for p in result.players:
        if p.name == result.winner:
            continue
        game = (table.seen if p.seen else table.unseen) + (table.dublee_bonus if result.dublee_win else 0)
        amount = game + total - maal[p.name] * n
        pays[p.name] = {"game": game, "total": total, "own": maal[p.name], "players": n, "pays": amount}
        payments[p.name] -= amount
        payments[result.winner] += amount
    return {"maal": maal, "maal_details": details, "total": total, "payments": payments, "per_player": pays}


def pairwise(result: RoundResult) -> dict:
    """The same settlement done between every pair: the maal difference both ways, and each
    player's game payment to the winner."""
    rs = result.ruleset
    table = rs.rules.settlement
    maal = {p.name: maal_points(rs, p, result.tiplu)[0] for p in result.players}
    net = {name: 0 for name in maal}
    for a in maal:
        for b in maal:
            if a != b:
                net[a] += maal[a] - maal[b]
    for p in result.players:
        if p.name != result.winner:
            game = (table.seen if p.seen else table.unseen) + (table.dublee_bonus if result.dublee_win else 0)
            net[p.name] -= game
            net[result.winner] += game
    return net
