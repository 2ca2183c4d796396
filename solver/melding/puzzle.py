"""Puzzle files of a rummy game: a hand, its turn and table, a question, and the expected answer;
or a finished round to settle.

The file is read by the one loader (:mod:`solver.core.files`: YAML, schema, ruleset);
:func:`read_puzzle` turns its data into a :class:`~solver.melding.turn.problem.Problem` plus the question
and the expectation, and :func:`mismatches` says where an answer differs from what the puzzle
expects. The format is documented in docs/puzzle-format.md.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from solver.core.chosen import chosen_faces, given_values
from solver.core.deck import Face
from solver.core.errors import Location, MeldsError, SchemaError
from solver.core.files import Document
from solver.core.notation import Notation
from solver.core.ruleset import Ruleset
from solver.core.validate import Impossible, copies_problems
from solver.core.yamlload import line_of
from solver.melding.rounds import Round
from solver.melding.table.operations import TableMeld
from solver.melding.turn.problem import Answer, Problem

ME = "me"  # the owner name of the player's own table melds


@dataclass(frozen=True)
class Puzzle:
    path: str
    title: str
    ruleset: Ruleset
    problem: Problem | None  # None for a round to score
    question: str
    count: bool
    expect: dict  # raw expectation, cards already parsed
    notes: str | None
    round: Round | None = None
    visible: tuple[Face, ...] = ()  # distance questions: cards seen outside the hand and the table


def parse_cards(notation: Notation, value: Any) -> tuple[Face, ...]:
    return tuple(notation.parse_many(value))


def table_meld(notation: Notation, owner: str, value: Any, parse=None) -> TableMeld:
    """A table meld from its cards in table order; ``木5(太極)`` is 木5 with 太極 buried under it."""
    parse = parse or (lambda v: parse_cards(notation, v))
    tokens = notation.split(value) if isinstance(value, str) else list(value)
    faces, buried = [], []
    for token in tokens:
        top, _, under = token.partition("(")
        faces.append(parse(top)[0])
        buried.append(parse(under.rstrip(")"))[0] if under else None)
    return TableMeld(owner, tuple(faces), owner == ME, tuple(buried))


def _chosen(document: Document, notation: Notation) -> dict[str, Face]:
    """The chosen cards a puzzle names (``indicator:``, or a chosen card's own name), refused with
    the file and line of the key."""
    rs, data = document.ruleset, document.data
    try:
        return chosen_faces(rs.id, rs.parameters, data, notation)
    except MeldsError as exc:
        keys = [key for key, _ in given_values(rs.parameters, data).values() if key in data]
        raise document.fail(data, keys[0] if keys else "ruleset", str(exc)) from None


def read_puzzle(document: Document, notation: Notation) -> Puzzle:
    """A hand to solve, or a round to settle, from a puzzle file of a rummy game."""
    data, path = document.data, document.path

    def cards(container, key, value):
        try:
            return parse_cards(notation, value)
        except MeldsError as exc:
            raise document.fail(container, key, str(exc)) from None

    title = document.title
    if "round" in data:
        rnd = _load_round(data["round"], document.ruleset, notation, cards)
        return Puzzle(
            str(path),
            title,
            document.ruleset,
            None,
            "round",
            False,
            dict(data.get("expect", {})),
            data.get("notes"),
            rnd,
        )
    if "hand" not in data:
        raise SchemaError("missing required key 'hand'", Location(str(path), getattr(data, "line", 1)))
    turn = data.get("turn", {})
    claimed = cards(turn, "claimed", turn["claimed"]) if "claimed" in turn else ()
    if len(claimed) > 1:
        raise SchemaError("claimed is one card", Location(str(path), line_of(turn, "claimed"), "turn.claimed"))
    table = tuple(
        table_meld(notation, t["owner"], t["cards"], lambda v, t=t: cards(t, "cards", v)) for t in data.get("table", [])
    )
    params = _chosen(document, notation)
    problem = Problem(
        ruleset=document.ruleset,
        hand=cards(data, "hand", data["hand"]),
        table=table,
        turn=turn.get("kind", "claimed" if claimed else "normal"),
        claimed=claimed[0] if claimed else None,
        has_melded=bool(turn.get("has_melded", False)) or any(m.mine for m in table),  # one's own meld is out
        phase=turn.get("phase"),
        params=params or None,
        shown=tuple(cards(data["shown"], i, m) for i, m in enumerate(data.get("shown", []))),
    )
    raw = data.get("expect", {})
    expect: dict[str, Any] = {}
    for key in ("solvable", "score", "solutions", "distance", "discards"):
        if key in raw:
            expect[key] = raw[key]
    if "discard" in raw:
        expect["discard"] = cards(raw, "discard", raw["discard"])[0] if raw["discard"] else None
    for key in ("kept", "no_meld"):
        if key in raw:
            expect[key] = cards(raw, key, raw[key]) if raw[key] else ()
    if "melds" in raw:
        expect["melds"] = sorted(tuple(sorted(cards(raw["melds"], i, m))) for i, m in enumerate(raw["melds"]))
    if "layoffs" in raw:
        expect["layoffs"] = sorted(
            (lay["table"] - 1, tuple(sorted(cards(lay, "cards", lay["cards"])))) for lay in raw["layoffs"]
        )
    return Puzzle(
        str(path),
        title,
        document.ruleset,
        problem,
        data.get("question", "go-out"),
        bool(data.get("count", False)) or "solutions" in raw,
        expect,
        data.get("notes"),
        visible=cards(data, "visible", data["visible"]) if data.get("visible") else (),
    )


def mismatches(puzzle: Puzzle, answer: Answer) -> list[str]:
    """Where the answer differs from the puzzle's expectation (empty: it matches)."""
    fmt = Notation.for_deck(puzzle.ruleset.deck)
    exp = puzzle.expect
    out = []

    def differ(what, want, got):
        out.append(f"{what}: expected {want}, got {got}")

    if answer.solvable is None:
        return ["undecided within the budget"]
    if "solvable" in exp and exp["solvable"] != answer.solvable:
        differ("solvable", exp["solvable"], answer.solvable)
    if "discard" in exp and exp["discard"] != answer.discard:
        show = lambda f: fmt.format(f) if f else "none"  # noqa: E731
        differ("discard", show(exp["discard"]), show(answer.discard))
    if "melds" in exp:
        melds = sorted(tuple(sorted(p.faces)) for p in answer.melds)
        if melds != exp["melds"]:
            differ("melds", [fmt.format_many(m) for m in exp["melds"]], [fmt.format_many(m) for m in melds])
    if "layoffs" in exp:
        layoffs = sorted((p.table, tuple(sorted(p.faces))) for p in answer.layoffs if p.table is not None)
        if layoffs != exp["layoffs"]:
            differ(
                "layoffs",
                [(t + 1, fmt.format_many(c)) for t, c in exp["layoffs"]],
                [(t + 1, fmt.format_many(c)) for t, c in layoffs],
            )
    if "kept" in exp and Counter(exp["kept"]) != Counter(answer.kept):
        differ("kept", fmt.format_many(exp["kept"]), fmt.format_many(answer.kept))
    for key, value in exp.get("score", {}).items():
        if answer.score.get(key) != value:
            differ(f"score.{key}", value, answer.score.get(key))
    if "solutions" in exp and exp["solutions"] != answer.solutions:
        differ("solutions", exp["solutions"], answer.solutions)
    if "no_meld" in exp:
        no_meld = tuple((answer.why or {}).get("no_meld", ()))
        if Counter(no_meld) != Counter(exp["no_meld"]):
            differ("no_meld", fmt.format_many(exp["no_meld"]), fmt.format_many(no_meld))
    return out


def _load_round(raw, ruleset: Ruleset, notation: Notation, cards) -> Round:
    hands = {player: cards(raw["hands"], player, value) if value else () for player, value in raw["hands"].items()}
    melds = tuple(
        table_meld(notation, m["owner"], m["cards"], lambda v, m=m: cards(m, "cards", v)) for m in raw.get("melds", [])
    )
    players = tuple(raw.get("players") or sorted({raw["winner"], *hands, *(m.owner for m in melds)}))
    _check_round(raw, players, hands, melds, notation, ruleset)
    laid_off = tuple(_laid_off(m, meld, players, cards) for m, meld in zip(raw.get("melds", []), melds, strict=True))
    return Round(ruleset, players, raw["winner"], bool(raw.get("one_go", False)), melds, hands, laid_off)


def _laid_off(raw, meld: TableMeld, players: tuple, cards) -> dict[str, tuple[Face, ...]]:
    """A round meld's ``laid_off``: the cards of it each other player laid off on it, refused (file
    and line) when the player is not one, is the meld's owner, or the cards are not the meld's."""
    out: dict[str, tuple[Face, ...]] = {}
    left = Counter(meld.faces)
    for player, value in (raw.get("laid_off") or {}).items():
        where = Location(getattr(raw, "file", None) or "<round>", line_of(raw, "laid_off"), "round.melds.laid_off")
        if player not in players or player == meld.owner:
            why = "who is not one of the players" if player not in players else "the meld's owner: its cards are theirs"
            raise Impossible(f"cards laid off by {player!r}, {why}", "round-players", None, where)
        faces = tuple(cards(raw["laid_off"], player, value))
        if Counter(faces) - left:
            raise Impossible(
                f"cards laid off by {player!r} that are not (or no more) in the meld", "round-laid-off", None, where
            )
        left -= Counter(faces)
        out[player] = faces
    return out


def _check_round(raw, players: tuple, hands: dict, melds: tuple, notation: Notation, ruleset: Ruleset) -> None:
    """A round that cannot have happened is refused (solver.core.validate): a winner, hand or meld
    of someone who is not a player, or more copies of a card than the deck holds."""

    def where(key: str) -> Location:
        return Location(getattr(raw, "file", None) or "<round>", line_of(raw, key), f"round.{key}")

    if raw["winner"] not in players:
        raise Impossible(
            f"the winner {raw['winner']!r} is not one of the players ({', '.join(map(str, players))})",
            "round-players",
            None,
            where("winner"),
        )
    for player in hands:
        if player not in players:
            raise Impossible(
                f"a hand of {player!r}, who is not one of the players", "round-players", None, where("hands")
            )
    for meld in melds:
        if meld.owner not in players:
            raise Impossible(
                f"a meld of {meld.owner!r}, who is not one of the players", "round-players", None, where("melds")
            )
    places = {f"{p}'s hand": faces for p, faces in hands.items()}
    places.update({f"table meld {i}": m.all_cards for i, m in enumerate(melds, 1)})
    problems = copies_problems(
        ruleset.deck, places, notation.format, lambda place: where("hands" if "'s hand" in place else "melds")
    )
    if problems:
        raise problems[0]


def round_mismatches(puzzle: Puzzle, systems: list[dict]) -> list[str]:
    out = []
    got = {s["id"]: s["payments"] for s in systems}
    for system, want in puzzle.expect.get("payments", {}).items():
        have = got.get(system)
        if have is None:
            out.append(f"no scoring system {system!r} under these options")
            continue
        for player, value in want.items():
            if have.get(player) != value:
                out.append(f"{system}.{player}: expected {value}, got {have.get(player)}")
    return out
