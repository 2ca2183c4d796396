"""The sections every ruleset may have, read into :mod:`solver.core.rules` elements.

Options and assumptions, the deck, suit cycles, phases, roles and meld kinds, the deal, card
points, turn and lay-off rules, the objective, round scoring, query parameters, move rules and
claims. Each function takes the :class:`~solver.core.reader.RuleReader` (which reports errors by
file and line) and the raw section.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from solver.core import limits
from solver.core.cardvalues import card_values, initial_values, read_score
from solver.core.chosen import read_kind_roles, read_parameters, relation_ids, role_conditions, stood_for
from solver.core.deck import CardClass, Deck, Face, Rank, Suit
from solver.core.kindlimits import check_run_lengths, check_wilds
from solver.core.notation import Notation
from solver.core.reader import RuleReader, condition_problem
from solver.core.round_sections import read_round_scoring
from solver.core.rules import (
    TURN_FIELDS,
    Assumption,
    CardPoints,
    CardValues,
    Claim,
    Deal,
    Distinguish,
    Goal,
    HandSize,
    InitialMeld,
    LayoffRule,
    MeldKind,
    MoveCheck,
    MoveRules,
    Order,
    Phase,
    Requirement,
    Role,
    ShortForm,
    SuitStep,
    TableRule,
    TurnEntry,
    WildLimit,
)
from solver.core.source import Source
from solver.core.yamlload import line_of

# Keys of a claim, and of a move check, that are not its own data.
_CLAIM_KEYS = ("id", "kind", "source", "assumption", "note", "description")
_CHECK_KEYS = ("check", "if", "source", "assumption", "description")


def read_common(reader: RuleReader, given: Mapping[str, Any]) -> dict[str, Any]:
    """Every shared section, as the keyword arguments of a :class:`~solver.core.ruleset.Ruleset`
    (less its identity and the game's own rules). Leaves the reader knowing the options, deck,
    phases, roles and kinds."""
    d = reader.data
    reader.read_options(d.get("options", {}), given, d["id"])
    assumptions = read_assumptions(reader, d.get("assumptions", []))
    if "deck" in d:
        reader.deck = read_deck(reader, d["deck"])
    reader.chosen = read_parameters(reader, d.get("parameters", {}))
    cycles = read_cycles(reader, d.get("cycles", {}))
    reader.phases = tuple(Phase(p["id"], p.get("name", p["id"]), reader.source(p)) for p in d.get("phases", []))
    reader.roles = read_roles(reader, d.get("roles", []))
    points = read_points(reader, d.get("card_points", []))
    values = card_values(reader, points)
    kinds = tuple(read_kind(reader, k, i, cycles, values) for i, k in enumerate(d.get("melds", [])))
    seen: set[str] = set()
    for i, kind in enumerate(kinds):
        if kind.id in seen:
            reader.fail(d["melds"], i, f"duplicate meld kind id {kind.id!r}", f"melds[{i}].id")
        seen.add(kind.id)
    reader.kinds = kinds
    check_wilds(reader, d.get("melds", []), kinds)
    check_run_lengths(reader, d.get("melds", []), kinds)
    enabled = tuple(
        k for k, raw in zip(kinds, d.get("melds", []), strict=True) if reader.holds(raw.get("enabled_if", {}))
    )
    check_assumption_refs(reader, d, {a.id for a in assumptions}, "")
    players = d.get("players")
    ambiguity = d.get("ambiguity")
    return dict(
        players=(players["min"], players["max"]) if players else None,
        options=dict(reader.options),
        option_values=dict(reader.values),
        assumptions=assumptions,
        deck=reader.deck,
        cycles=cycles,
        phases=reader.phases,
        roles=reader.roles,
        all_kinds=kinds,
        kinds=enabled,
        ambiguity_source=reader.source(ambiguity),
        ambiguity_rule=(ambiguity or {}).get("rule", "reject"),
        ambiguity_stated=ambiguity is not None,
        deal=read_deal(reader, d.get("deal")),
        card_points=points,
        turn_entries=tuple(
            TurnEntry(
                frozenset([t["kind"]] if isinstance(t["kind"], str) else t["kind"]),
                {f: t[f] for f in TURN_FIELDS if f in t},
                reader.condition(t, f"turns[{i}]"),
                reader.source(t),
                reader.expand_ints(t["in_hand"], f"turns[{i}].in_hand") if "in_hand" in t else None,
            )
            for i, t in enumerate(d.get("turns", []))
        ),
        layoff_rules=tuple(
            LayoffRule(r["requires_own_meld"], reader.condition(r, f"layoff[{i}]"), reader.source(r))
            for i, r in enumerate(d.get("layoff", []))
        ),
        objective=read_objective(reader, d, kinds),
        round_scorings=read_round_scoring(reader, d.get("round_scoring", [])),
        parameters=dict(reader.chosen),
        moves=read_moves(reader, d.get("moves")),
        claims=read_claims(reader, d.get("claims", [])),
        table=read_table(reader, d.get("table")),
        initial_meld=read_initial_meld(reader, d.get("initial_meld"), enabled, values),
    )


def read_assumptions(reader: RuleReader, raw: list[Any]) -> tuple[Assumption, ...]:
    out = []
    ids: set[str] = set()
    for i, a in enumerate(raw):
        if a["id"] in ids:
            reader.fail(raw, i, f"duplicate assumption id {a['id']!r}", f"assumptions[{i}]")
        ids.add(a["id"])
        if a.get("option") and a["option"] not in reader.options:
            reader.fail(a, "option", f"unknown option {a['option']!r}", f"assumptions[{i}].option")
        src = a.get("source")
        out.append(
            Assumption(
                a["id"],
                a["text"],
                a["reason"],
                Source(src.get("doc") or reader.document_of(src), src["quote"]) if src else None,
                a.get("option"),
                getattr(a, "line", None),
            )
        )
    return tuple(out)


def check_assumption_refs(reader: RuleReader, node: Any, known: set[str], path: str) -> None:
    """Every ``assumption: id`` must name an assumption of the ruleset."""
    if isinstance(node, Mapping):
        for key, value in node.items():
            if key == "assumption" and value not in known:
                reader.fail(
                    node,
                    key,
                    f"unknown assumption {value!r} (declared: {', '.join(sorted(known)) or 'none'})",
                    f"{path}.{key}",
                )
            if key != "assumptions":
                check_assumption_refs(reader, value, known, f"{path}.{key}" if path else key)
    elif isinstance(node, list):
        for i, item in enumerate(node):
            check_assumption_refs(reader, item, known, f"{path}[{i}]")


def read_deck(reader: RuleReader, raw: Mapping[str, Any]) -> Deck:
    if "suits" not in raw or "classes" not in raw:
        reader.fail(raw, "suits", "the deck needs suits and classes", "deck")
    suits = [Suit(str(s["id"]), tuple(str(n) for n in s.get("names", [])), s.get("color")) for s in raw["suits"]]
    suit_ids = [s.id for s in suits]
    if len(set(suit_ids)) != len(suit_ids):
        reader.fail(raw, "suits", "duplicate suit id", "deck.suits")
    ranks: dict[str, Rank] = {}
    for i, r in enumerate(raw.get("ranks", [])):
        if isinstance(r, str):
            lo, hi = (int(x) for x in r.split(".."))
            reader.bound(raw["ranks"], i, hi - lo + 1, limits.DECK_FACES, "ranks in a range", f"deck.ranks[{i}]")
            new = [Rank(str(v), (), v) for v in range(lo, hi + 1)]
        else:
            rid = str(r["id"])
            value = r.get("value", int(rid) if re.fullmatch(r"-?\d+", rid) else None)
            new = [Rank(rid, tuple(str(n) for n in r.get("names", [])), value)]
        for declared in new:
            if declared.id in ranks:
                reader.fail(raw["ranks"], i, f"duplicate rank id {declared.id!r}", f"deck.ranks[{i}]")
            ranks[declared.id] = declared
    deck_copies = reader.option_value(raw.get("copies"), 1)
    classes = []
    faces: list[Face] = []
    copies: dict[Face, int] = {}
    for i, c in enumerate(raw["classes"]):
        path = f"deck.classes[{i}]"
        csuits = reader.check_ids(c.get("suits", []), suit_ids, "suit", f"{path}.suits")
        cranks = reader.expand_ranks(c.get("ranks", []), f"{path}.ranks", ranks)
        for t_i, template in enumerate(c["spell"]):
            if "{suit}" in template and not csuits:
                reader.fail(c["spell"], t_i, "spelling uses {suit} but the class has no suits", f"{path}.spell[{t_i}]")
            if "{rank}" in template and not cranks:
                reader.fail(c["spell"], t_i, "spelling uses {rank} but the class has no ranks", f"{path}.spell[{t_i}]")
        n_copies = reader.option_value(c.get("copies"), deck_copies)
        spec = c.get("copies", raw.get("copies"))
        by_option = f" (option {spec['option']})" if isinstance(spec, Mapping) and "option" in spec else ""
        reader.bound(
            c if "copies" in c else raw,
            "copies",
            n_copies,
            limits.DECK_COPIES,
            "copies of a card" + by_option,
            f"{path}.copies" if "copies" in c else "deck.copies",
        )
        by_rank = {str(r): reader.option_value(spec, n_copies) for r, spec in c.get("rank_copies", {}).items()}
        for r, count in by_rank.items():
            reader.bound(c["rank_copies"], r, count, limits.DECK_COPIES, "copies of a card", f"{path}.rank_copies.{r}")
        excluded = set()
        for j, ex in enumerate(c.get("exclude", [])):
            for excluded_rank in reader.expand_ranks(ex["ranks"], f"{path}.exclude[{j}].ranks", ranks):
                excluded.add((ex["suit"], excluded_rank))
        cls = CardClass(c["id"], c.get("name_en"), csuits, cranks, tuple(c["spell"]), n_copies, reader.source(c))
        classes.append(cls)
        for suit in csuits or (None,):
            for rank in cranks or (None,):
                count = n_copies if rank is None else by_rank.get(rank, n_copies)
                if (suit, rank) in excluded or count == 0:
                    continue  # this face is not in the deck (under these options)
                face = Face(len(faces), cls.id, suit, rank)
                faces.append(face)
                copies[face] = count
                reader.bound(raw, "classes", len(faces), limits.DECK_FACES, "distinct cards", "deck.classes")
    class_ids = [c.id for c in classes]
    if len(set(class_ids)) != len(class_ids):
        reader.fail(raw, "classes", "duplicate card class id", "deck.classes")
    reader.bound(raw, "classes", sum(copies.values()), limits.DECK_CARDS, "cards in the deck", "deck")
    if not faces:
        where = "copies" if "copies" in raw else "classes"
        reader.fail(
            raw, where, "the deck holds no card (0 copies of every card, or no class with a face)", f"deck.{where}"
        )
    deck = Deck(
        tuple(suits), tuple(ranks.values()), tuple(classes), tuple(faces), copies, raw.get("identity", "{suit}{rank}")
    )
    try:
        Notation.for_deck(deck)
    except ValueError as exc:
        reader.fail(raw, "classes", str(exc), "deck.classes")
    return deck


def read_cycles(reader: RuleReader, raw: Mapping[str, Any]) -> dict[str, tuple[str, ...]]:
    out = {}
    suit_ids = [s.id for s in reader.deck.suits]
    for name, c in raw.items():
        suits = reader.check_ids(c["suits"], suit_ids, "suit", f"cycles.{name}.suits")
        if len(set(suits)) != len(suits):
            reader.fail(c, "suits", "a cycle lists each suit once", f"cycles.{name}.suits")
        out[name] = suits
    return out


def read_roles(reader: RuleReader, raw: list[Any]) -> dict[str, Role]:
    out: dict[str, Role] = {}
    deck = reader.deck
    suit_ids = [s.id for s in deck.suits]
    for i, r in enumerate(raw):
        path = f"roles[{i}]"
        if r["id"] in out:
            reader.fail(raw, i, f"duplicate role id {r['id']!r}", path)
        classes = reader.check_ids(r["classes"], reader.class_ids, "card class", f"{path}.classes")
        conditions = role_conditions(reader, r, path)
        if not reader.enabled(r, path, key="enabled_if"):
            reader.disabled_roles.add(r["id"])
        suits: tuple[str, ...] | None
        ranks: tuple[str, ...] | None
        if "stands_for" in conditions:
            suits, ranks = stood_for(reader, conditions["stands_for"])
        else:
            suits = None if r["suit"] == "own" else reader.check_ids(r["suit"], suit_ids, "suit", f"{path}.suit")
            ranks = None if r["rank"] == "own" else reader.expand_ranks(r["rank"], f"{path}.rank")
        for cid in classes:
            cls = deck.card_class(cid)
            if suits is None and not cls.suits:
                reader.fail(r, "suit", f"suit 'own', but cards of class {cid} have no suit", f"{path}.suit")
            if ranks is None and not cls.ranks:
                reader.fail(r, "rank", f"rank 'own', but cards of class {cid} have no rank", f"{path}.rank")
        req = None
        if "requires_in_meld" in r:
            q = r["requires_in_meld"]
            reader.check_ids(q["classes"], reader.class_ids, "card class", f"{path}.requires_in_meld.classes")
            req = Requirement(frozenset(q["classes"]), reader.source(q))
        out[r["id"]] = Role(
            r["id"],
            r.get("name", r["id"]),
            frozenset(classes),
            bool(r.get("wild", False)),
            suits,
            ranks,
            req,
            reader.source(r),
            **conditions,
        )
    return out


def read_kind(
    reader: RuleReader, k: Mapping[str, Any], index: int, cycles: Mapping[str, tuple[str, ...]], values: CardValues
) -> MeldKind:
    path = f"melds[{index}]"
    suit_ids = [s.id for s in reader.deck.suits]
    size = k["size"]
    if size["min"] > size["max"]:
        reader.fail(k, "size", "size.min is larger than size.max", f"{path}.size")
    reader.bound(k, "size", size["max"], limits.MELD_CARDS, "cards in a meld", f"{path}.size.max")
    kind_roles, listed = read_kind_roles(reader, k, path)
    shape = k["shape"]
    order, step = read_order(reader, k, path, cycles)
    suits = reader.check_ids(k.get("suits", suit_ids), suit_ids, "suit", f"{path}.suits")
    ranks = reader.expand_ranks(k["ranks"], f"{path}.ranks") if "ranks" in k else tuple(r.id for r in reader.deck.ranks)
    short = None
    if "short_form" in k:
        sf = k["short_form"]
        reader.check_ids(sf["roles"], listed, "role of this kind", f"{path}.short_form.roles")
        short = ShortForm(sf["size"], frozenset(sf["roles"]), reader.source(sf))
    wilds = None
    if "wilds" in k:
        w = k["wilds"]
        wilds = WildLimit(
            w.get("min", 0),
            w.get("max"),
            w.get("naturals_min", 0),
            w.get("versus_naturals"),
            reader.source(w),
            apart=bool(w.get("apart", False)),
        )
    distinct_raw = k.get("distinct", True)
    distinguish = None
    if "distinguish" in k:
        dg = k["distinguish"]
        distinguish = Distinguish(dg.get("fixed_suits", 0), dg.get("fixed_ranks", 0), reader.source(dg))
    phase = k.get("phase")
    if phase is not None and phase not in [p.id for p in reader.phases]:
        reader.fail(
            k,
            "phase",
            f"unknown phase {phase!r} (phases: {', '.join(p.id for p in reader.phases) or 'none'})",
            f"{path}.phase",
        )
    for oid, value in k.get("enabled_if", {}).items():
        if oid not in reader.options:
            reader.fail(k["enabled_if"], oid, f"unknown option {oid!r}", f"{path}.enabled_if")
        problem = condition_problem(reader.options[oid], value)
        if problem:
            reader.fail(k["enabled_if"], oid, problem, f"{path}.enabled_if.{oid}")
    return MeldKind(
        score=read_score(reader, k["score"], path, values) if "score" in k else None,
        id=k["id"],
        name=k["name"],
        name_en=k.get("name_en"),
        family=k.get("family", k["id"]),
        shape=shape,
        size_min=size["min"],
        size_max=size["max"],
        short_form=short,
        suits=suits,
        ranks=ranks,
        order=order,
        suit_step=step,
        roles=tuple(kind_roles),
        wilds=wilds,
        distinct=distinct_raw is not False,
        distinct_source=reader.source(distinct_raw) if isinstance(distinct_raw, Mapping) else None,
        distinguish=distinguish,
        phase=phase,
        source=reader.source(k),
        going_out_only=bool(k.get("going_out_only", False)),
        going_out_only_source=_source_of(reader, k, "going_out_only_source"),
    )


def read_order(
    reader: RuleReader, k: Mapping[str, Any], path: str, cycles: Mapping[str, Any]
) -> tuple[Order | None, SuitStep]:
    """A sequence's rank order and how its suit steps from card to card (the same suit, any suit
    — a run of any colours —, or one place along a cycle)."""
    order = None
    if k["shape"] == "sequence":
        if "order" not in k:
            reader.fail(k, "shape", "a sequence needs an 'order' of ranks", f"{path}.order")
        o = k["order"]
        order = Order(
            reader.expand_ranks(o["ranks"], f"{path}.order.ranks"), bool(o.get("cyclic", False)), reader.source(o)
        )
    elif "order" in k or "suit_step" in k:
        key = "order" if "order" in k else "suit_step"
        reader.fail(k, key, f"'{key}' only applies to sequences", f"{path}.{key}")
    step_raw = k.get("suit_step", "same")
    if step_raw in ("same", "any"):
        return order, SuitStep(None, (("forward", ""),), free=step_raw == "any")
    if step_raw["cycle"] not in cycles:
        reader.fail(
            step_raw,
            "cycle",
            f"unknown cycle {step_raw['cycle']!r} (cycles: {', '.join(cycles) or 'none'})",
            f"{path}.suit_step.cycle",
        )
    if not step_raw["directions"]:
        reader.fail(step_raw, "directions", "name at least one direction", f"{path}.suit_step.directions")
    return order, SuitStep(step_raw["cycle"], tuple(step_raw["directions"].items()))


def read_objective(reader: RuleReader, d: Mapping[str, Any], kinds: tuple[MeldKind, ...]) -> tuple[Goal, ...]:
    """``objective:`` (or its default); meld points asked of a ruleset none of whose kinds scores
    any (``score:`` on a kind) are refused: every turn would weigh 0."""
    raw = d.get("objective", default_objective(d))
    for i, g in enumerate(raw):
        if g.get("maximize") == "meld_points" and kinds and not any(k.score for k in kinds):
            reader.fail(
                raw,
                i,
                "maximize meld_points, but no meld kind scores meld points (score: on a kind); "
                "a meld's card values are not meld points",
                f"objective[{i}]",
            )
    return tuple(
        Goal("maximize" if "maximize" in g else "minimize", g.get("maximize") or g.get("minimize"), reader.source(g))
        for g in raw
    )


def default_objective(d: Mapping[str, Any]) -> list[dict[str, str]]:
    """What ``melds solve --best`` (and a hand that cannot go out) optimises when a ruleset says
    nothing: the least card points kept when cards have points (``card_points:``), else the most
    melds; so the best turn shown is never an arbitrary one."""
    if not d.get("deck") or d.get("table"):  # no cards to meld, or the whole table laid out again
        return []
    return [{"minimize": "hand_points"}] if d.get("card_points") else [{"maximize": "melds"}]


def read_deal(reader: RuleReader, raw: Mapping[str, Any] | None) -> Deal | None:
    """``deal:``: cards dealt per player count; an entry for no player count the game has
    (``players:``) is refused."""
    if raw is None:
        return None
    players = reader.data.get("players")
    sizes = []
    for i, h in enumerate(raw["hand_size"]):
        cond = reader.condition(h, f"deal.hand_size[{i}]")
        reader.bound(h, "cards", h["cards"], limits.DECK_CARDS, "cards dealt to a player", f"deal.hand_size[{i}].cards")
        counts = reader.expand_ints(h["players"], f"deal.hand_size[{i}].players")
        if players and not any(players["min"] <= n <= players["max"] for n in counts):
            reader.fail(
                h,
                "players",
                f"a deal for {', '.join(map(str, sorted(counts)))} players, but the game is played by "
                f"{players['min']} to {players['max']} (players:)",
                f"deal.hand_size[{i}].players",
            )
        sizes.append(HandSize(counts, h["cards"], cond, reader.source(h), line_of(h, "cards")))
    draws = raw.get("draws", 1)
    return Deal(tuple(sizes), raw.get("starter_discard", 0), reader.source(raw), None if draws == "pile" else draws)


def read_points(reader: RuleReader, raw: list[Any]) -> tuple[CardPoints, ...]:
    out = []
    for i, p in enumerate(raw):
        path = f"card_points[{i}]"
        classes = p.get("classes")
        if classes:
            reader.check_ids(classes, reader.class_ids, "card class", f"{path}.classes")
        suits = p.get("suits")
        if suits:
            reader.check_ids(suits, [s.id for s in reader.deck.suits], "suit", f"{path}.suits")
        ranks = reader.expand_ranks(p["ranks"], f"{path}.ranks") if "ranks" in p else None
        needs = relation_ids(reader, p["if_chosen"], f"{path}.if_chosen") if "if_chosen" in p else None
        out.append(
            CardPoints(
                frozenset(classes) if classes else None,
                frozenset(suits) if suits else None,
                frozenset(ranks) if ranks else None,
                reader.option_value(p["points"], 0) if isinstance(p["points"], Mapping) else p["points"],
                reader.source(p),
                frozenset(needs) if needs is not None else None,
                p.get("name"),
                p.get("run_end"),
            )
        )
    return tuple(out)


def read_claims(reader: RuleReader, raw: list[Any]) -> tuple[Claim, ...]:
    out, seen = [], set()
    for i, c in enumerate(raw):
        if c["id"] in seen:
            reader.fail(raw, i, f"duplicate claim id {c['id']!r}", f"claims[{i}]")
        seen.add(c["id"])
        data = {k: v for k, v in c.items() if k not in _CLAIM_KEYS}
        out.append(Claim(c["id"], c["kind"], data, reader.source(c), c.get("note")))
    return tuple(out)


def read_moves(reader: RuleReader, raw: Mapping[str, Any] | None) -> MoveRules | None:
    if raw is None:
        return None
    checks = []
    for i, c in enumerate(raw.get("checks", [])):
        if reader.enabled(c, f"moves.checks[{i}]"):
            checks.append(MoveCheck(c["check"], reader.source(c), {k: v for k, v in c.items() if k not in _CHECK_KEYS}))
    return MoveRules(reader.sources(raw["actions"]), tuple(checks))


def read_table(reader: RuleReader, raw: Mapping[str, Any] | None) -> TableRule | None:
    """``table:``: how the table's melds may change in a turn. A table rearranged freely is a turn
    of its own (the whole table and the hand laid out again, no discard): the ruleset's single-card
    operations, routes of going out and discards would be rules no turn of it applies."""
    if raw is None:
        return None
    rearrange = raw.get("rearrange", "none")
    if rearrange == "free":
        data = reader.data
        for key, what in (("operations", "single-card operations"), ("going_out", "routes of going out")):
            if data.get(key):
                reader.fail(raw, "rearrange", f"a table rearranged freely takes no {what} ({key}:)", "table.rearrange")
        for i, entry in enumerate(data.get("turns", [])):
            if entry.get("discard", "none") != "none":
                reader.fail(
                    entry,
                    "discard",
                    "a turn that rearranges the table ends without a discard (discard: none)",
                    f"turns[{i}].discard",
                )
    return TableRule(rearrange, reader.source(raw), _source_of(reader, raw, "stays_source"))


def read_initial_meld(
    reader: RuleReader, raw: Mapping[str, Any] | None, kinds: tuple[MeldKind, ...], values: CardValues
) -> InitialMeld | None:
    """``initial_meld:``: what a player's first meld must be worth, counted by the values of the
    ranks the cards stand for (every rank a meld kind may hold needs a value) or by their card
    points (``counts: card_points``); on a turn that rearranges the table or on a plain one."""
    if raw is None:
        return None
    if raw.get("counts") == "card_points" and (reader.data.get("table") or {}).get("rearrange") == "free":
        reader.fail(
            raw,
            "counts",
            "a turn that rearranges the table counts the first meld by rank (counts: rank)",
            "initial_meld",
        )
    valued = {r.id for r in reader.deck.ranks if r.value is not None}
    for kind in kinds if raw.get("counts", "rank") == "rank" and "points" in raw else ():
        missing = [r for r in (*kind.ranks, *(kind.order.ranks if kind.order else ())) if r not in valued]
        if missing:
            reader.fail(
                raw,
                "counts",
                f"initial_meld counts the ranks' values, and rank {missing[0]!r} (meld kind {kind.id}) has none: "
                "give it a value in deck.ranks",
                "initial_meld.counts",
            )
    points, melds = reader.option_value(raw.get("points"), 0), reader.option_value(raw.get("melds"), 0)
    if "points" not in raw and "melds" not in raw:
        reader.fail(raw, "points", "say what a first meld must reach: points: N, melds: N or both", "initial_meld")
    if melds and (reader.data.get("table") or {}).get("rearrange") == "free":
        reader.fail(raw, "melds", "a turn that rearranges the table counts a first meld by points only", "initial_meld")
    return InitialMeld(
        points,
        raw.get("from", "hand"),
        raw.get("counts", "rank"),
        reader.source(raw),
        _source_of(reader, raw, "from_source"),
        _source_of(reader, raw, "counts_source"),
        initial_values(reader, raw, values),
        melds,
        _source_of(reader, raw, "melds_source"),
    )


def _source_of(reader: RuleReader, raw: Mapping[str, Any], key: str) -> Source | None:
    """The source a rule cites for one of its choices (``KEY_source:`` beside ``source:``)."""
    return reader.source({"source": raw[key]}) if key in raw else None
