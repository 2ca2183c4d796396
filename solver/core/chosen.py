"""Reading a chosen card (``parameters:``) and what roles say of it: the relations of other cards to
a card chosen during the game, the roles open only to related cards (``if_chosen``), the roles
whose card stands for a related card (``stands_for``), and roles and role entries that only some
option values enable (``enabled_if``).

A chosen card is a query parameter: ``--indicator CARD`` on the command line (or the ruleset's own
name for it, ``--tiplu``), ``"indicator"`` in a batch line or a state. Its relations are compiled
into the roles every kind's model already has: a role open only to related cards hangs on a
literal the query sets, and a card that stands for a related card has its suit and rank narrowed
the same way (:mod:`solver.melding.meld.chosen`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from solver.core.deck import Face
from solver.core.errors import BadRequest, UnknownCard
from solver.core.notation import Notation
from solver.core.reader import RuleReader
from solver.core.rules import SUIT_RELATIONS, ChosenCard, KindRole, Relation

# The request key that names a ruleset's chosen card whatever the ruleset calls it.
INDICATOR = "indicator"


def read_parameters(reader: RuleReader, raw: Mapping[str, Any]) -> dict[str, ChosenCard]:
    """Each chosen card of ``parameters:``, with the relations the options enable."""
    out: dict[str, ChosenCard] = {}
    deck = reader.deck
    seen: dict[str, str] = {}  # relation id -> the parameter declaring it
    for name, p in raw.items():
        path = f"parameters.{name}"
        counts_as = dict(p.get("counts_as", {}))
        reader.check_ids(list(counts_as), reader.class_ids, "card class", f"{path}.counts_as")
        for cid, rank in counts_as.items():
            reader.expand_ranks([rank], f"{path}.counts_as.{cid}")
        default = [c.id for c in deck.classes if c.ranks or c.id in counts_as]
        classes = reader.check_ids(p.get("classes", default), reader.class_ids, "card class", f"{path}.classes")
        for i, cid in enumerate(classes):
            if not (deck.card_class(cid).ranks or cid in counts_as):
                reader.fail(p["classes"], i, f"cards of class {cid} have no rank to relate to (counts_as)", path)
        cycle = (
            reader.expand_ranks(p["rank_cycle"], f"{path}.rank_cycle")
            if "rank_cycle" in p
            else tuple(r.id for r in deck.ranks)
        )
        if len(set(cycle)) != len(cycle):
            reader.fail(p, "rank_cycle", "a rank cycle lists each rank once", f"{path}.rank_cycle")
        relations = []
        for i, r in enumerate(p.get("relations", [])):
            where = f"{path}.relations[{i}]"
            if r["id"] in seen:
                reader.fail(p["relations"], i, f"relation {r['id']!r} is declared twice", where)
            seen[r["id"]] = name
            if "offset" in r and r.get("rank") == "any":
                reader.fail(r, "rank", "a relation gives an offset or 'rank: any', not both", f"{where}.rank")
            if not reader.enabled(r, where, key="enabled_if"):
                continue
            suit = r.get("suit", "any")
            if suit not in SUIT_RELATIONS:
                reader.fail(r, "suit", f"unknown suit relation {suit!r} ({', '.join(SUIT_RELATIONS)})", f"{where}.suit")
            offset = None if r.get("rank") == "any" else int(r.get("offset", 0))
            relations.append(Relation(r["id"], r.get("name", r["id"]), suit, offset, reader.source(r)))
        colours = {s.id: s.color for s in deck.suits}
        out[name] = ChosenCard(
            name,
            p.get("name", name),
            frozenset(classes),
            bool(p.get("required", False)),
            cycle,
            colours,
            tuple(relations),
            p.get("description", ""),
            reader.source(p),
            {cid: str(rank) for cid, rank in counts_as.items()},
        )
    reader.relations = seen
    return out


def role_conditions(reader: RuleReader, r: Mapping[str, Any], path: str) -> dict[str, Any]:
    """A role's ``if_chosen`` and ``stands_for``, checked against the declared relations: the
    keyword arguments they add to its :class:`~solver.core.rules.Role`."""
    out: dict[str, Any] = {}
    if "if_chosen" in r:
        out["if_chosen"] = frozenset(relation_ids(reader, r["if_chosen"], f"{path}.if_chosen"))
    if "stands_for" in r:
        relation_ids(reader, [r["stands_for"]], f"{path}.stands_for")
        for key in ("suit", "rank"):
            if key in r:
                reader.fail(r, key, "a role that stands for a related card takes its suit and rank from it", path)
        out["stands_for"] = r["stands_for"]
    elif "suit" not in r or "rank" not in r:
        reader.fail(r, "id", "a role needs a suit and a rank (or stands_for: a relation to a chosen card)", path)
    return out


def stood_for(reader: RuleReader, relation_id: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Every suit and rank a card standing for ``relation_id`` may take, whatever card is chosen
    (the query narrows them to the related card's)."""
    chosen = reader.chosen[reader.relations[relation_id]]
    relation = chosen.relation(relation_id)
    suits = tuple(s.id for s in reader.deck.suits)
    ranks = chosen.cycle if relation is None or relation.offset is not None else tuple(r.id for r in reader.deck.ranks)
    return suits, ranks


def relation_ids(reader: RuleReader, items: list[str], path: str) -> tuple[str, ...]:
    """Relation ids, each declared by a chosen card of ``parameters:``."""
    known = reader.relations
    if not known:
        reader.fail(items, 0, "no chosen card declares relations (parameters: NAME: relations:)", path)
    return reader.check_ids(items, known, "relation to a chosen card", path)


def read_kind_roles(reader: RuleReader, k: Mapping[str, Any], path: str) -> tuple[list[KindRole], list[str]]:
    """A kind's role entries that the options enable (the entry's and its role's ``enabled_if``),
    and the role ids it lists (enabled or not)."""
    roles = reader.roles
    kind_roles, listed = [], []
    for j, entry in enumerate(k["roles"]):
        entry_map = entry if isinstance(entry, Mapping) else {"role": entry}
        where = f"{path}.roles[{j}]"
        rid = entry_map["role"]
        if rid not in roles:
            reader.fail(k["roles"], j, f"unknown role {rid!r} (roles: {', '.join(roles)})", where)
        listed.append(rid)
        classes = entry_map.get("classes")
        if classes:
            reader.check_ids(classes, roles[rid].classes, f"class of role {rid}", f"{where}.classes")
        sizes = reader.expand_ints(entry_map["sizes"], f"{where}.sizes") if "sizes" in entry_map else None
        needs = entry_map.get("if_chosen")
        needs = frozenset(relation_ids(reader, needs, f"{where}.if_chosen")) if needs is not None else None
        if rid in reader.disabled_roles or not reader.enabled(entry_map, where, key="enabled_if"):
            continue
        kind_roles.append(
            KindRole(roles[rid], frozenset(classes) if classes else None, sizes, reader.source(entry_map), needs)
        )
    return kind_roles, listed


NOT_CHOSEN = "none"  # a chosen card not chosen or not seen yet: no card relates to it


def unchosen(value: Any) -> bool:
    """Is a parameter's value the word for 'not chosen yet' (``--indicator none``)?"""
    return isinstance(value, str) and value.strip().lower() == NOT_CHOSEN


def given_values(parameters: Mapping[str, ChosenCard], given: Mapping[str, Any]) -> dict[str, tuple[str, Any]]:
    """Per chosen card, the key that names it in ``given`` (a request, a puzzle, a state) and its
    value: its own name, else ``indicator`` for the first chosen card."""
    out = {}
    for k, name in enumerate(parameters):
        key = name if given.get(name) not in (None, "") or k else INDICATOR
        out[name] = (key, given.get(key))
    return out


def chosen_faces(
    ruleset_id: str, parameters: Mapping[str, ChosenCard], given: Mapping[str, Any], notation: Notation
) -> dict[str, Face]:
    """The chosen cards ``given`` names, as faces; refused with the option and key that name them:
    a card a chosen card may not be, one the deck does not hold, a required one not given, an
    indicator for a ruleset with no chosen card."""
    if not parameters:
        if given.get(INDICATOR) not in (None, ""):
            raise BadRequest(f'{ruleset_id} has no chosen card: --indicator ("{INDICATOR}") does not apply to it')
        return {}
    out = {}
    for name, (key, value) in given_values(parameters, given).items():
        chosen = parameters[name]
        option = f"--{key.replace('_', '-')}"
        if value in (None, "") or unchosen(value):
            if chosen.required:
                raise BadRequest(
                    f"{ruleset_id} needs the {chosen.name}: give {option} CARD "
                    f'("{key}" in a batch line, puzzle or state)'
                )
            continue
        if not isinstance(value, str):
            raise BadRequest(f'"{key}": expected a card, got {value!r}')
        try:
            face = notation.parse(value)
        except UnknownCard as exc:
            raise UnknownCard(f'{option} ("{key}"): {exc}') from None
        if face.cls not in chosen.classes:
            allowed = ", ".join(sorted(chosen.classes))
            raise BadRequest(
                f'{option} ("{key}"): {notation.format(face)} cannot be the {chosen.name} (a card of {allowed} can)'
            )
        out[name] = face
    return out
