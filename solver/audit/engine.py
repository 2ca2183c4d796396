"""melds audit: the contradictions, gaps and assumptions of a rule document, through its ruleset.

Four sources of findings:

* **claims** (``claims:`` in a ruleset) — the document's worked examples and numbers, transcribed
  as the document states them, each checked with the real solver (``melds check``'s meld checker,
  the mahjong waits and scorer, the word dictionary); a disagreement is a *contradiction*, with
  the claimed and the computed value side by side;
* **rules that never apply** — for every meld kind and every size its rule allows, a SAT search
  for a legal meld (the kind's model with "exactly n cards present" added); none is a *warning*
  that the size (or the kind) is dead letter; so is a points table that lists counts no meld
  reaches, and a table that breaks its own growth pattern is a contradiction;
* **rules that disagree** — without an ``ambiguity:`` rule, a SAT search on two kinds' models
  joined on the cards present finds a card set both read (a *gap*: nothing decides it);
* **deals** — the cards a deal hands out, for every player count and deal option, against the
  deck: a deal that cannot be made is a *contradiction*, a deck the document never sizes a *gap*;
* **assumptions** — every assumption of the ruleset, with the quote that shows the gap.

Exit status of ``melds audit``: 0 when no finding is a contradiction, 1 otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from solver.core.errors import MeldsError
from solver.core.ruleset import Ruleset

SEVERITIES = ("contradiction", "gap", "warning", "assumption")


@dataclass
class Finding:
    id: str
    severity: str
    ruleset: str
    source: dict
    message: str
    claimed: Any = None
    computed: Any = None
    witness: Any = None

    def to_json(self) -> dict:
        return {"id": self.id, "severity": self.severity, "ruleset": self.ruleset, "source": self.source,
                "message": self.message, "claimed": self.claimed, "computed": self.computed,
                "witness": self.witness}


@dataclass
class Audit:
    ruleset: Ruleset
    findings: list[Finding] = field(default_factory=list)
    claims_checked: int = 0
    claims_agreeing: int = 0
    kinds_searched: int = 0

    @property
    def contradictions(self) -> int:
        return sum(f.severity == "contradiction" for f in self.findings)


def _source(ruleset: Ruleset, src) -> dict:
    if src is None:
        return {"doc": ruleset.document, "quote": None}
    return {"doc": src.doc, "quote": src.quote, **({"assumption": src.assumption} if src.assumption else {})}


# -- claims -------------------------------------------------------------------------------------------


ClaimCheck = Callable[["_Context", dict], tuple[Any, Any, Any]]  # -> (claimed, computed, witness)


class _Context:
    """What the claim checks share for one ruleset: its checker, mahjong tables, dictionary."""

    def __init__(self, ruleset: Ruleset):
        self.rs = ruleset
        self._checker = None
        self._mj = None
        self._words = None

    @property
    def checker(self):
        if self._checker is None:
            from solver.melding.checker import MeldChecker

            self._checker = MeldChecker(self.rs)
        return self._checker

    @property
    def mj(self):
        if self._mj is None:
            from solver.games.mahjong.hands import Mahjong

            self._mj = Mahjong(self.rs)
        return self._mj

    @property
    def words(self):
        if self._words is None:
            from solver.games.words.session import WordSession

            self._words = WordSession(self.rs)
        return self._words

    def close(self) -> None:
        if self._checker is not None:
            self._checker.close()


def _meld_claim(ctx: _Context, claim: dict):
    params = None
    if claim.get("tiplu"):
        params = {"tiplu": ctx.checker.notation.parse(claim["tiplu"])}
    verdict = ctx.checker.check(ctx.checker.notation.parse_many(claim["cards"]), phase=claim.get("phase"),
                                ordered=bool(claim.get("ordered")), params=params)
    claimed = {"legal": claim["legal"], **({"kind": claim["as"]} if "as" in claim else {})}
    computed = {"legal": verdict.legal, **({"kind": verdict.kind.id if verdict.legal else None} if "as" in claim else {})}
    why = [r.message for r in verdict.reasons]
    return claimed, computed, {"cards": claim["cards"], **({"reasons": why} if why else {})}


def _meld_points_claim(ctx: _Context, claim: dict):
    from solver.melding.points import meld_points

    verdict = ctx.checker.check(ctx.checker.notation.parse_many(claim["cards"]), phase=claim.get("phase"),
                                ordered=True)
    computed = meld_points(verdict.reading) if verdict.legal else None
    return claim["points"], computed, claim["cards"]


def _hand_points_claim(ctx: _Context, claim: dict):
    from solver.melding.points import hand_points

    points = hand_points(ctx.rs, ctx.checker.notation.parse_many(claim["cards"]))
    return claim["points"], points * (2 if claim.get("double") else 1), claim["cards"]


def _penalty_total_claim(ctx: _Context, claim: dict):
    from solver.melding.points import hand_points

    factor = 2 if claim.get("double") else 1
    each = {who: hand_points(ctx.rs, ctx.checker.notation.parse_many(cards)) * factor
            for who, cards in claim["hands"].items()}
    return claim["points"], sum(each.values()), each


def _wild_claim(ctx: _Context, claim: dict):
    notation = ctx.checker.notation
    tiplu = notation.parse(claim["tiplu"])
    cards = notation.parse_many(claim["cards"])
    computed = [notation.format(f) for f in cards if ctx.rs.maal_kind(f, tiplu) is not None] \
        if claim["wild"] else [notation.format(f) for f in cards if ctx.rs.maal_kind(f, tiplu) is None]
    return [notation.format(f) for f in cards], computed, {"tiplu": claim["tiplu"]}


def _move_claim(ctx: _Context, claim: dict):
    """An action in a position (an inline state, as in state files) is legal or not."""
    from pathlib import Path

    from solver.melding.moves import moves_for
    from solver.core.schema import validate
    from solver.core.state import state_from_data

    data = {"format": 1, "ruleset": ctx.rs.id, **claim["state"]}
    validate(data, "state.schema.json", f"{ctx.rs.path} (claim state)")
    state = state_from_data(data, Path(ctx.rs.path), ruleset=ctx.rs)
    judgement = moves_for(ctx.rs).judge(state, claim["action"])
    return claim["legal"], judgement.legal, {"action": claim["action"],
                                             "reasons": [r["message"] for r in judgement.reasons]}


def _draw_claim(ctx: _Context, claim: dict):
    """An exhaustive draw settled (不聴罰符, 流し満貫): seat -> points received."""
    from solver.games.mahjong.scoring import Scorer

    got = Scorer(ctx.mj).settle_draw(claim.get("players", 4), claim.get("tenpai", []), claim.get("nagashi", []))
    return claim["payments"], got, {"tenpai": claim.get("tenpai", []), "nagashi": claim.get("nagashi", [])}


def _score_claim(ctx: _Context, claim: dict):
    """A winning mahjong hand scores what the document says (han, fu, points), under options."""
    from solver.games.mahjong.hands import Mahjong
    from solver.games.mahjong.scoring import Scorer, win_from_facts
    from solver.core.ruleset import with_options

    rs = with_options(ctx.rs, claim.get("options") or {}) if claim.get("options") else ctx.rs
    scorer = Scorer(Mahjong(rs) if rs is not ctx.rs else ctx.mj)
    facts = dict(claim["win"])
    win = win_from_facts(scorer, facts.pop("tile"), facts, int(facts.get("players", 4)))
    if "wins" in claim:  # the claim is that the hand may (or may not) win at all
        from solver.games.mahjong.scoring import NotAWin

        try:
            scorer.score(scorer.mj.parse_hand(claim["hand"]), win)
            return claim["wins"], True, {"hand": claim["hand"]}
        except NotAWin as exc:
            return claim["wins"], False, {"hand": claim["hand"], "why": str(exc)}
    score = scorer.score(scorer.mj.parse_hand(claim["hand"]), win)
    got = {"han": score.han, "fu": score.fu, "total": score.points.total}
    claimed = {k: claim[k] for k in ("han", "fu", "total") if k in claim}
    return claimed, {k: got[k] for k in claimed}, {"hand": claim["hand"], "yaku": [y.name for y in score.yaku]}


def _waits_claim(ctx: _Context, claim: dict):
    hand = ctx.mj.parse_hand(claim["hand"])
    ctx.mj.require_size(hand, ctx.mj.winning_size - 1, "a waiting hand", "")
    waits = [ctx.mj.tile_text(w) for w in ctx.mj.waits(hand)]
    return sorted(claim["waits"]), sorted(waits), claim["hand"]


def _riichi_kan_claim(ctx: _Context, claim: dict):
    hand = ctx.mj.parse_hand(claim["hand"])
    drawn = ctx.mj.parse_tiles(claim["draw"])[0]
    ident = ctx.mj.identity(ctx.mj.parse_tiles(claim["kan"])[0])
    verdicts = {v.tile: v for v in ctx.mj.riichi_kans(hand, drawn)}
    v = verdicts.get(ident)
    computed = {"document_rule": v.doc_allowed if v else False, "general_rule": v.general_allowed if v else False}
    claimed = {k: claim[k] for k in ("document_rule", "general_rule") if k in claim}
    return claimed, {k: computed[k] for k in claimed}, f"{claim['hand']} draws {claim['draw']}, kan {claim['kan']}"


def _payment_claim(ctx: _Context, claim: dict):
    from solver.games.mahjong.scoring import Scorer, Win

    scorer = Scorer(ctx.mj)
    win = Win(tile=(), tsumo=claim.get("tsumo", True), seat=claim["seat"], players=claim.get("players", 4),
              honba=claim.get("honba", 0), discarder=claim.get("from"))
    points = scorer.payments(claim["basic"], win)
    got = dict(points.payments) if "honba" not in claim else {s: points.payments[s] + points.honba.get(s, 0)
                                                              for s in points.payments}
    return claim["payments"], got, f"basic {claim['basic']}, {claim['seat']} wins by " \
        f"{'tsumo' if win.tsumo else 'ron'}, {win.players} players" + \
        (f", {claim['honba']} honba" if claim.get("honba") else "")


def _word_claim(ctx: _Context, claim: dict):
    got = ctx.words.check(claim["word"])
    return claim["legal"], got["legal"], claim["word"]


CLAIMS: dict[str, ClaimCheck] = {
    "meld": _meld_claim, "meld-points": _meld_points_claim, "hand-points": _hand_points_claim,
    "penalty-total": _penalty_total_claim, "wild": _wild_claim, "move": _move_claim, "draw": _draw_claim,
    "score": _score_claim,
    "waits": _waits_claim,
    "riichi-kan": _riichi_kan_claim, "payment": _payment_claim, "word": _word_claim,
}


def _check_claims(audit: Audit, ctx: _Context) -> None:
    for claim in audit.ruleset.claims:
        check = CLAIMS.get(claim.kind)
        if check is None and claim.kind != "lost":
            raise MeldsError(f"{audit.ruleset.path}: claim {claim.id}: unknown kind {claim.kind!r} "
                             f"(kinds: {', '.join(CLAIMS)})")
        if claim.kind == "lost":  # an example whose picture or symbols are gone: listed, not checkable
            audit.findings.append(Finding(
                f"{audit.ruleset.id}/lost/{claim.id}", "gap", audit.ruleset.id, _source(audit.ruleset, claim.source),
                claim.note or "the example's picture is lost; nothing is left to check"))
            continue
        audit.claims_checked += 1
        try:
            claimed, computed, witness = check(ctx, dict(claim.data))
        except MeldsError as exc:
            claimed, computed, witness = claim.data.get("legal", claim.data), f"error: {exc}", None
        if claimed == computed:
            audit.claims_agreeing += 1
            continue
        audit.findings.append(Finding(
            f"{audit.ruleset.id}/claim/{claim.id}", "contradiction", audit.ruleset.id,
            _source(audit.ruleset, claim.source),
            claim.note or f"the document's {claim.kind} example does not hold under its own rules",
            claimed, computed, witness))


# -- rules that never apply ------------------------------------------------------------------------


def _dead_sizes(audit: Audit, ctx: _Context) -> None:
    """For each meld kind and size, is there any legal meld at all? A SAT search per (kind, size)."""
    from pysat.card import CardEnc, EncType

    from solver.melding.encode import KindModel

    rs = audit.ruleset
    for kind in rs.kinds:
        largest = min(kind.largest, sum(rs.deck.copies.values()))
        dead = []
        for n in range(kind.size_min, largest + 1):
            audit.kinds_searched += 1
            model = KindModel(rs, kind, n, ctx.checker.steps(kind)).build()
            try:
                cardinality = CardEnc.equals(model.pres, n, vpool=model.pool, encoding=EncType.seqcounter)
                model.solver.append_formula(cardinality.clauses)
                found = model.solver.solve(assumptions=model.selectors())
                if not found:
                    dead.append(n)
            finally:
                model.close()
        _score_table(audit, kind, largest, dead)
        if dead:
            sizes = _ranges(dead)
            whole = len(dead) == largest - kind.size_min + 1
            audit.findings.append(Finding(
                f"{rs.id}/dead/{kind.id}", "warning", rs.id, _source(rs, kind.source),
                (f"no meld of kind {kind.name} ({kind.id}) can ever be legal" if whole else
                 f"{kind.name} ({kind.id}) allows {kind.size_min}–{largest} cards, but no legal meld has {sizes}"),
                {"sizes": [kind.size_min, largest]}, {"impossible_sizes": dead}))


def _score_table(audit: Audit, kind, largest: int, dead: list[int]) -> None:
    """A score table against the melds the kind allows (a count no meld reaches is dead letter)
    and against its own pattern (the document's tables grow by a constant factor — ×2, ×3 — and
    elide their middle with "...": every filled-in value must keep that factor)."""
    table = kind.score
    if table is None:
        return
    rs = audit.ruleset
    unreachable = [n for n in sorted(table.points_by_count) if n > largest or n in dead]
    if unreachable:
        audit.findings.append(Finding(
            f"{rs.id}/score-table/{kind.id}", "warning", rs.id, _source(rs, table.source),
            f"the points table of {kind.name} ({kind.id}) lists {_ranges(unreachable)}, but no legal "
            f"{kind.name} has that many (at most {largest})", {"counts": sorted(table.points_by_count)},
            {"unreachable": unreachable}))
    counts = sorted(table.points_by_count)
    points = table.points_by_count
    if len(counts) >= 3 and points[counts[0]]:
        factor = points[counts[1]] / points[counts[0]]
        broken = [b for a, b in zip(counts, counts[1:]) if b == a + 1 and points[b] != factor * points[a]]
        if broken:
            audit.findings.append(Finding(
                f"{rs.id}/score-pattern/{kind.id}", "contradiction", rs.id, _source(rs, table.source),
                f"the points table of {kind.name} grows ×{factor:g} but breaks the pattern at {broken[0]} cards",
                {"points": dict(points)}, {"factor": factor, "breaks_at": broken[0]}))


def _ranges(values: list[int]) -> str:
    out, start = [], values[0]
    for a, b in zip(values, values[1:] + [None]):
        if b != a + 1:
            out.append(f"{start}" if start == a else f"{start}–{a}")
            start = b
    return ", ".join(out) + " cards"


# -- melds that read as two kinds ----------------------------------------------------------------------


def _ambiguity(audit: Audit, ctx: _Context) -> None:
    """Without an ``ambiguity:`` rule, a card set that two kinds both read is a gap the ruleset
    leaves to a default. Searched with SAT: the two kinds' models joined on the cards present."""
    rs = audit.ruleset
    if rs.ambiguity_source is not None:
        return  # the ruleset says how such melds are judged
    from pysat.card import CardEnc, EncType
    from pysat.formula import IDPool
    from pysat.solvers import Solver

    from solver.melding.encode import SOLVER_NAME, KindModel

    kinds = list(rs.kinds)
    for i, a in enumerate(kinds):
        for b in kinds[i + 1:]:
            if a.family == b.family:
                continue
            for n in range(max(a.size_min, b.size_min), min(a.largest, b.largest) + 1):
                ma = KindModel(rs, a, n, ctx.checker.steps(a)).build(keep_clauses=True)
                offset = ma.pool.top
                mb = KindModel(rs, b, n, ctx.checker.steps(b), pool=IDPool(start_from=offset + 1)).build(keep_clauses=True)
                try:
                    clauses = ma.formula + mb.formula
                    for card, c in ma.index.items():  # the same cards are present in both readings
                        other = mb.index.get(card)
                        clauses += [[-ma.pres[c], mb.pres[other]], [ma.pres[c], -mb.pres[other]]] if other is not None \
                            else [[-ma.pres[c]]]
                    for card, c in mb.index.items():
                        if card not in ma.index:
                            clauses.append([-mb.pres[c]])
                    top = mb.pool.top
                    clauses += CardEnc.equals(ma.pres, n, top_id=top, encoding=EncType.seqcounter).clauses
                    with Solver(name=SOLVER_NAME, bootstrap_with=clauses) as joint:
                        if not joint.solve(assumptions=ma.selectors() + mb.selectors()):
                            continue
                        model = set(lit for lit in joint.get_model() if lit > 0)
                    cards = [ma.cards[c] for c in range(len(ma.cards)) if ma.pres[c] in model]
                    shown = ctx.checker.notation.format_many(face for face, _ in cards)
                    audit.findings.append(Finding(
                        f"{rs.id}/ambiguous/{a.id}+{b.id}", "gap", rs.id, _source(rs, a.source),
                        f"{shown} reads as a {a.name} and as a {b.name}, and the ruleset has no ambiguity: rule "
                        f"to decide (it falls back to refusing such melds)", None, None, shown))
                    break
                finally:
                    ma.close()
                    mb.close()


# -- deals -------------------------------------------------------------------------------------------


def _deals(audit: Audit) -> None:
    rs = audit.ruleset
    if rs.words is not None:
        copies = rs.words.copies
        for lo, hi, tiles, src in rs.words.hand_sizes:
            for players in range(lo, hi + 1):
                need = players * tiles
                if not copies:
                    audit.findings.append(Finding(
                        f"{rs.id}/deal/{players}", "gap", rs.id, _source(rs, src),
                        f"{players} players are dealt {tiles} tiles each ({need} in all), but the document never "
                        f"says how many tiles the set holds, so whether the deal fits cannot be checked",
                        need, None))
                elif need > copies * len(rs.words.tile_kinds):
                    audit.findings.append(Finding(
                        f"{rs.id}/deal/{players}", "contradiction", rs.id, _source(rs, src),
                        f"{players} players need {need} tiles, the set holds {copies * len(rs.words.tile_kinds)}",
                        need, copies * len(rs.words.tile_kinds)))
        return
    if rs.deal is None or rs.players is None:
        return
    deck = rs.deck.size
    for players in range(rs.players[0], rs.players[1] + 1):
        try:
            hand = rs.hand_size(players)
        except MeldsError:
            audit.findings.append(Finding(
                f"{rs.id}/deal/{players}", "gap", rs.id, _source(rs, rs.deal.source),
                f"the deal says nothing for {players} players", None, None))
            continue
        need = players * hand + rs.deal.starter_discard
        if need > deck:
            audit.findings.append(Finding(
                f"{rs.id}/deal/{players}", "contradiction", rs.id, _source(rs, rs.deal.source),
                f"{players} players × {hand} cards + {rs.deal.starter_discard} turned up = {need}, "
                f"more than the {deck} cards of the deck", need, deck))


# -- assumptions -------------------------------------------------------------------------------------


def _assumptions(audit: Audit) -> None:
    rs = audit.ruleset
    for a in rs.assumptions:
        source = _source(rs, a.source) if a.source else {"doc": rs.document, "quote": None}
        audit.findings.append(Finding(
            f"{rs.id}/assumption/{a.id}", "assumption", rs.id, source,
            f"{a.text} — why: {a.reason}", witness={"option": a.option} if a.option else None))


def audit_ruleset(ruleset: Ruleset) -> Audit:
    audit = Audit(ruleset)
    ctx = _Context(ruleset)
    try:
        _check_claims(audit, ctx)
        if ruleset.kinds and not ruleset.hand_shapes:  # mahjong kinds are parts of a hand, not melds
            _dead_sizes(audit, ctx)
            _ambiguity(audit, ctx)
        _deals(audit)
        _assumptions(audit)
    finally:
        ctx.close()
    order = {s: i for i, s in enumerate(SEVERITIES)}
    audit.findings.sort(key=lambda f: order[f.severity])
    return audit
