"""Write rulesets/ruleset.schema.json, puzzle.schema.json and state.schema.json (kept as a script so
the schemas' shape is reviewable code): the ruleset's top level here, its parts beside it
(schema_defs: the shared definitions; schema_kinds: deck, roles, meld kinds; schema_mahjong; the rest
in schema_parts) and the puzzle's and state's in schema_documents.

Run: python tools/gen_schema.py. A test checks that the committed files equal this output.
"""

import json
import sys
from pathlib import Path

# the building blocks live beside this script (run as a script or by runpy: its folder first), and
# the names they share with the code (the win's flags) in this checkout's solver/
sys.path[:0] = [str(Path(__file__).resolve().parent), str(Path(__file__).resolve().parent.parent)]
from schema_defs import DEFS  # noqa: E402
from schema_documents import puzzle_schema, state_schema  # noqa: E402
from schema_kinds import DECK, MELDS, ROLES  # noqa: E402
from schema_mahjong import MAHJONG_GAME, MAHJONG_SCORING  # noqa: E402
from schema_parts import (  # noqa: E402
    AUDIT,
    BONUS,
    CHOSEN_CARD,
    CLAIM,
    COMMON,
    FIGURES,
    GOING_OUT,
    ID,
    INITIAL_MELD,
    LIST_OF_IDS,
    MOVES,
    RANGE_OR_ITEM,
    SOURCE,
    TABLE,
    TEXT,
    WORDS,
    obj,
)

TERM_VALUE = {  # a measure of the player's round, or a bonus's points (a number or an option's value)
    "anyOf": [{"enum": ["melded_points", "hand_points"]}, {"type": "integer"}, {"$ref": "#/$defs/option_ref"}],
    "formMessage": "a measure, melded_points or hand_points, or a bonus's points (with per_meld or winner)",
}

schema = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://melds.invalid/ruleset.schema.json",
    "title": "melds ruleset",
    "description": "A game's rules as data: deck, notation, wild roles, meld kinds, options, "
    "assumptions. See docs/ruleset-format.md.",
    "$defs": DEFS,
    **obj(
        {
            "format": {"const": 1, "description": "format version"},
            "extends": {
                **TEXT,
                "description": "a ruleset (id or path) this one builds on: mappings merge "
                "key by key, lists are replaced",
            },
            "id": {
                "type": "string",
                "pattern": r"^[a-z][a-z0-9-]*$",
                "patternMessage": "a ruleset id is lower-case letters, digits and '-'",
            },
            "game": {
                "type": "string",
                "pattern": r"^[a-z][a-z0-9_]*$",
                "patternMessage": "a game is named by one lower-case word (a package of solver/games)",
                "description": "the game family that reads this ruleset (the registry name of a package "
                "under solver/games/); a ruleset that extends another inherits it; default rummy",
            },
            "name": TEXT,
            "name_en": TEXT,
            "document": obj({"file": TEXT, "title": TEXT, "language": TEXT, "notes": TEXT}, required=["file"]),
            "players": obj(
                {"min": {"type": "integer", "minimum": 1}, "max": {"type": "integer", "minimum": 1}, **COMMON},
                required=["min", "max"],
            ),
            "options": {
                "type": "object",
                "additionalProperties": obj(
                    {
                        "type": {"enum": ["boolean", "integer", "string"]},
                        "default": {"type": ["boolean", "integer", "string"]},
                        "choices": {"type": "array", "minItems": 1, "items": {"type": ["string", "integer"]}},
                        "minimum": {"type": "integer"},
                        "maximum": {"type": "integer"},
                        **COMMON,
                    },
                    required=["type", "default", "description"],
                ),
            },
            "assumptions": {
                "type": "array",
                "items": obj(
                    {
                        "id": ID,
                        "text": TEXT,
                        "reason": TEXT,
                        "source": {"$ref": "#/$defs/source"},
                        "option": ID,
                    },
                    required=["id", "text", "reason"],
                ),
            },
            "deck": DECK,
            "cycles": {
                "type": "object",
                "additionalProperties": obj(
                    {
                        "suits": {"type": "array", "minItems": 2, "items": ID},
                        **COMMON,
                    },
                    required=["suits"],
                ),
            },
            "phases": {"type": "array", "items": obj({"id": ID, "name": TEXT, **COMMON}, required=["id"])},
            "roles": ROLES,
            "melds": MELDS,
            "scoring": {"type": "object", "additionalProperties": obj({**COMMON})},
            "turns": {
                "type": "array",
                "minItems": 1,
                "description": "entries for a turn kind merge: the first entry (whose 'if' holds) "
                "that sets a field decides it",
                "items": obj(
                    {
                        "kind": {
                            "anyOf": [
                                {"enum": ["normal", "claimed"]},
                                {"type": "array", "minItems": 1, "items": {"enum": ["normal", "claimed"]}},
                            ],
                            "formMessage": "normal, claimed, or a list of them",
                        },
                        "discard": {
                            "enum": ["required", "optional", "none"],
                            "description": "the final discard: required, optional (only to go out "
                            "with no card left), none",
                        },
                        "claimed_in_new_meld": {"type": "boolean"},
                        "claimed_not_discarded": {"type": "boolean"},
                        "max_new_melds": {
                            "type": "integer",
                            "minimum": 0,
                            "description": "at most this many new melds in the turn",
                        },
                        "in_hand": {
                            "type": "array",
                            "minItems": 1,
                            "items": RANGE_OR_ITEM,
                            "description": "the entry speaks only of turns played from a hand of these many cards",
                        },
                        "if": {"$ref": "#/$defs/condition"},
                        **COMMON,
                    },
                    required=["kind"],
                ),
            },
            "layoff": {
                "type": "array",
                "minItems": 1,
                "items": obj(
                    {
                        "requires_own_meld": {"type": "boolean"},
                        "if": {"$ref": "#/$defs/condition"},
                        **COMMON,
                    },
                    required=["requires_own_meld"],
                ),
            },
            "phase_change": obj(
                {
                    "on_discard_classes": LIST_OF_IDS,
                    "odd": ID,
                    "even": ID,
                    "start": {"$ref": "#/$defs/option_ref"},
                    **COMMON,
                },
                required=["on_discard_classes", "odd", "even"],
            ),
            "phase_touch": obj({**COMMON}),
            "declared_melds": {
                "type": "array",
                "items": obj(
                    {
                        "id": ID,
                        "name": TEXT,
                        "kind": ID,
                        "open": {"type": "boolean"},
                        "allowed": {"type": "boolean", "description": "false: the document forbids declaring it"},
                        **COMMON,
                    },
                    required=["id", "kind", "open"],
                ),
            },
            "hand_shapes": {
                "type": "array",
                "items": obj(
                    {
                        "id": ID,
                        "name": TEXT,
                        "closed": {"type": "boolean", "description": "no declared meld allowed"},
                        "distinct": {"type": "boolean", "description": "no two parts of one identity"},
                        "parts": {
                            "type": "array",
                            "minItems": 1,
                            "items": obj(
                                {
                                    "kinds": LIST_OF_IDS,
                                    "count": {"type": "integer", "minimum": 1},
                                    "declared": {"type": "boolean", "description": "declared melds count toward these"},
                                },
                                required=["kinds", "count"],
                            ),
                        },
                        **COMMON,
                    },
                    required=["id", "parts"],
                ),
            },
            "tenpai": obj({"formal": {"type": "boolean"}, "all_copies_held": {"$ref": "#/$defs/source"}, **COMMON}),
            "riichi_kan": obj(
                {
                    "rule": {"enum": ["waits-unchanged", "decompositions-unchanged"]},
                    "general_rule": {"enum": ["waits-unchanged", "decompositions-unchanged"]},
                    "no_okuri_kan": {"type": "boolean"},
                    "examples": {"type": "array", "items": {"$ref": "#/$defs/source"}},
                    **COMMON,
                },
                required=["rule"],
            ),
            "guest_winds": {"type": "array", "items": obj({"rank": ID, **COMMON}, required=["rank"])},
            "nuki_dora": obj(
                {
                    "tile": {**ID, "description": "the rank a player may set aside on their turn (北)"},
                    "dora": {"type": "integer", "minimum": 0, "description": "dora each tile set aside counts"},
                    "ron": {"type": "boolean", "description": "another player may win on it (default true)"},
                    "chankan": {"type": "boolean", "description": "that win counts 槍槓 (default false)"},
                    "rinshan": {"type": "boolean", "description": "a tsumo on its replacement is 嶺上開花"},
                    "call": {"type": "boolean", "description": "it ends every ippatsu and the first go-around"},
                    **COMMON,
                },
                required=["tile"],
            ),
            "mahjong_scoring": MAHJONG_SCORING,
            "mahjong_game": MAHJONG_GAME,
            "words": WORDS,
            "table": TABLE,
            "initial_meld": INITIAL_MELD,
            "moves": MOVES,
            "claims": {
                "type": "array",
                "items": CLAIM,
                "description": "the document's worked examples and numbers, for melds audit",
            },
            "audit": {
                **AUDIT,
                "description": "melds audit's reading of the document: corrections to the "
                "rule-bearing heuristic, deliberate omissions, defects found by reading",
            },
            "operations": {
                "type": "array",
                "items": obj(
                    {
                        "id": ID,
                        "name": TEXT,
                        "effect": {
                            "enum": [
                                "add",
                                "replace-wild",
                                "bury-wild",
                                "replace-natural",
                                "replace-buried",
                                "add-and-take-far-end",
                                "recall",
                            ]
                        },
                        "before_own_meld": {"enum": ["forbidden", "meld-taken-at-once", "allowed"]},
                        "kind_change": {"enum": ["own", "any", "never"]},
                        "card_classes": LIST_OF_IDS,
                        "taken_classes": LIST_OF_IDS,
                        "families": LIST_OF_IDS,
                        "turns": {"type": "array", "items": {"enum": ["normal", "claimed"]}},
                        **COMMON,
                    },
                    required=["id", "name", "effect"],
                ),
            },
            "restrictions": {"type": "object", "additionalProperties": obj({**COMMON})},
            "round_scoring": {
                "type": "array",
                "items": obj(
                    {
                        "id": ID,
                        "name": TEXT,
                        "method": {
                            "enum": [
                                "losers-pay-hand-points",
                                "collect-own-meld-points",
                                "record-hand-points",
                                "knock",
                                "each-player",
                            ]
                        },
                        "terms": {
                            "type": "array",
                            "items": obj(
                                {
                                    "add": TERM_VALUE,
                                    "subtract": TERM_VALUE,
                                    "per_meld": obj(
                                        {
                                            "kinds": LIST_OF_IDS,
                                            "size": {
                                                "anyOf": [
                                                    {"type": "integer", "minimum": 1},
                                                    obj(
                                                        {
                                                            "min": {"type": "integer", "minimum": 1},
                                                            "max": {"type": "integer", "minimum": 1},
                                                        },
                                                        required=["min"],
                                                    ),
                                                ]
                                            },
                                            "wilds": {"enum": ["none", "some"]},
                                        },
                                        description="the bonus counts each of the player's melds of these kinds, "
                                        "sizes, with no wild (none) or with one (some)",
                                    ),
                                    "winner": {
                                        "anyOf": [
                                            {"const": True},
                                            obj({"kept": {"enum": ["none"]}}, required=["kept"]),
                                        ],
                                        "formMessage": "true, or {kept: none}",
                                        "description": "the bonus goes to the player who went out ({kept: none}: "
                                        "only one who kept no card in hand, every card melded)",
                                    },
                                    **COMMON,
                                }
                            ),
                            "description": "method each-player: what each player's score sums, each term "
                            "{add: MEASURE} or {subtract: MEASURE} (melded_points: the cards the player melded "
                            "or laid off, each at its value where it lies; hand_points: the cards left in hand)",
                        },
                        "one_go": {
                            "type": "array",
                            "items": BONUS,
                            "description": "bonus when the winner went out in one go with no earlier meld; "
                            "the first entry whose 'if' holds applies",
                        },
                        "gin": {
                            "type": "array",
                            "items": BONUS,
                            "description": "method knock: the bonus of a knocker who kept no card",
                        },
                        "big_gin": {
                            "type": "array",
                            "items": BONUS,
                            "description": "method knock: the bonus of a knocker who melded every card, no discard",
                        },
                        "undercut": {
                            "type": "array",
                            "items": BONUS,
                            "description": "method knock: the bonus of a player whose count is the knocker's or less",
                        },
                        "counts": obj({**COMMON}),
                        "if": {"$ref": "#/$defs/condition"},
                        **COMMON,
                    },
                    required=["id", "name", "method"],
                ),
            },
            "objective": {
                "type": "array",
                "minItems": 1,
                "items": {
                    "anyOf": [
                        obj({"maximize": {"enum": ["meld_points", "melds"]}, **COMMON}, required=["maximize"]),
                        obj({"minimize": {"enum": ["hand_points"]}, **COMMON}, required=["minimize"]),
                    ],
                    "formMessage": "{maximize: meld_points | melds} or {minimize: hand_points}",
                },
            },
            "ambiguity": obj(
                {
                    "rule": {
                        "enum": ["reject", "prefer", "any"],
                        "description": "reject: cards readable as two families are no "
                        "meld; prefer: the first kind (fewest wilds) wins; any: the meld is any kind "
                        "that reads it (the player says which, as a route counts it)",
                    },
                    **COMMON,
                }
            ),
            "parameters": {"type": "object", "additionalProperties": CHOSEN_CARD},
            "going_out": GOING_OUT,
            "figures": FIGURES,
            "seeing_tiplu": {
                "type": "array",
                "items": obj(
                    {"kinds": LIST_OF_IDS, "count": {"type": "integer", "minimum": 1}, **COMMON},
                    required=["kinds", "count"],
                ),
            },
            "settlement": obj(
                {
                    "game_payment": obj(
                        {
                            "seen": {"type": "integer"},
                            "unseen": {"type": "integer"},
                            "dublee_bonus": {"type": "integer"},
                            "dublee_source": {"$ref": "#/$defs/source"},
                            **COMMON,
                        }
                    ),
                    "formula": obj({**COMMON}),
                    "exchange": obj({**COMMON}),
                    "maal_points": obj(
                        {
                            "cards": {
                                "type": "object",
                                "additionalProperties": {"type": "array", "items": {"type": "integer"}},
                            },
                            "marriage": {"type": "integer"},
                            "dealt_tunnela": {"type": "object", "additionalProperties": {"type": "integer"}},
                            **COMMON,
                        }
                    ),
                }
            ),
            "deal": obj(
                {
                    "hand_size": {
                        "type": "array",
                        "minItems": 1,
                        "items": obj(
                            {
                                "players": {"type": "array", "minItems": 1, "items": RANGE_OR_ITEM},
                                "cards": {"type": "integer", "minimum": 0},
                                "if": {"$ref": "#/$defs/condition"},
                                **COMMON,
                            },
                            required=["players", "cards"],
                        ),
                    },
                    "starter_discard": {"type": "integer", "minimum": 0},
                    "draws": {"oneOf": [{"type": "integer", "minimum": 1}, {"const": "pile"}]},
                    "draws_source": SOURCE,
                    **COMMON,
                },
                required=["hand_size"],
            ),
            "card_points": {"type": "array", "items": {"$ref": "#/$defs/card_points"}},
        },
        required=["format", "id", "name"],
    ),
    # What else a ruleset needs (a deck and meld kinds, or a word game's tiles) is its game's to say.
    "anyOf": [{"required": ["extends"]}, {"required": ["document"]}],
    "formMessage": "a ruleset cites its rule document (document:), or extends another ruleset",
}


if __name__ == "__main__":
    here = Path(__file__).resolve().parent.parent / "rulesets"
    for name, value in (
        ("ruleset.schema.json", schema),
        ("puzzle.schema.json", puzzle_schema),
        ("state.schema.json", state_schema),
    ):
        (here / name).write_text(json.dumps(value, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {here / name}")
