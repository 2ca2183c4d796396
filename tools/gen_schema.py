"""Write rulesets/ruleset.schema.json (kept as a script so the schema's shape is reviewable code).

Run: python tools/gen_schema.py. A test checks that the committed file equals this output.
"""

import json
import sys
from pathlib import Path

# the building blocks live beside this script (run as a script or by runpy: its folder first)
sys.path.insert(0, str(Path(__file__).resolve().parent))
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
    MAHJONG_GAME,
    MAHJONG_SCORING,
    MOVES,
    NAMES,
    PHASE_ID,
    RANGE_OR_ITEM,
    ROLE_CONDITIONS,
    SOURCE,
    STANDS_FOR,
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
    "$defs": {
        "win_flag": {
            "enum": [
                "riichi",
                "double-riichi",
                "ippatsu",
                "tsumo",
                "ron",
                "haitei",
                "houtei",
                "rinshan",
                "chankan",
                "tenhou",
                "chiihou",
                "renhou",
            ]
        },
        "source": obj(
            {
                "doc": {**TEXT, "description": "document file name; default: the ruleset's document"},
                "quote": {**TEXT, "description": "a short verbatim quote (whitespace may differ)"},
                "note": TEXT,
            },
            required=["quote"],
        ),
        "ranks": {
            "type": "array",
            "minItems": 1,
            "items": RANGE_OR_ITEM,
            "description": "rank ids; 'a..b' stands for every rank from a to b",
        },
        "option_ref": obj({"option": ID}, required=["option"]),
        "copies": {
            "anyOf": [
                {"type": "integer", "minimum": 0},
                obj(
                    {
                        "option": ID,
                        "map": {
                            "type": "object",
                            "additionalProperties": {"type": "integer", "minimum": 0},
                            "description": "option value -> copies",
                        },
                    },
                    required=["option"],
                ),
            ],
            "formMessage": "a number of copies, or {option: id} / {option: id, map: {value: n}}",
        },
        "condition": {
            "type": "object",
            "minProperties": 1,
            "additionalProperties": {
                "anyOf": [
                    {"type": ["string", "integer", "boolean"]},
                    {"type": "array", "minItems": 1, "items": {"type": ["string", "integer", "boolean"]}},
                ],
                "formMessage": "a value, or a list of values (any of them)",
            },
            "description": "option id: required value (or a list: any of them)",
        },
        "size": obj(
            {"min": {"type": "integer", "minimum": 1}, "max": {"type": "integer", "minimum": 1}},
            required=["min", "max"],
        ),
        "kind_role": {
            "anyOf": [
                ID,
                obj(
                    {
                        "role": ID,
                        "classes": LIST_OF_IDS,
                        "sizes": {"type": "array", "minItems": 1, "items": RANGE_OR_ITEM},
                        **ROLE_CONDITIONS,
                        **COMMON,
                    },
                    required=["role"],
                ),
            ],
            "formMessage": "a role id, or {role: id, classes: [...], sizes: [...]}",
        },
        "card_points": obj(
            {
                "classes": LIST_OF_IDS,
                "suits": LIST_OF_IDS,
                "ranks": {"$ref": "#/$defs/ranks"},
                "points": {
                    "anyOf": [{"type": "integer"}, {"const": "rank"}, {"$ref": "#/$defs/option_ref"}],
                    "formMessage": "an integer, 'rank' for the rank's value, or {option: id}",
                },
                "if_chosen": {**LIST_OF_IDS, "description": "only cards in one of these relations to a chosen card"},
                "name": {**TEXT, "description": "how a hand's breakdown names the cards the entry prices"},
                "run_end": {
                    "enum": ["low", "high"],
                    "description": "only a melded card standing at a sequence's low end as its order's first rank "
                    "(an ace in A-2-3), or at its high end as the last",
                },
                **COMMON,
            },
            required=["points"],
        ),
    },
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
            "deck": obj(
                {
                    "identity": {
                        **TEXT,
                        "description": "how the identity a wild stands for is written, e.g. '{suit}{rank}'",
                    },
                    "copies": {"$ref": "#/$defs/copies"},
                    "suits": {
                        "type": "array",
                        "minItems": 1,
                        "items": obj(
                            {
                                "id": ID,
                                "names": NAMES,
                                "color": {
                                    "enum": ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]
                                },
                            },
                            required=["id"],
                        ),
                    },
                    "ranks": {
                        "type": "array",
                        "minItems": 1,
                        "items": {
                            "anyOf": [
                                {
                                    "type": "string",
                                    "pattern": r"^-?\d+\.\.-?\d+$",
                                    "patternMessage": "a rank range is written 'a..b'",
                                },
                                obj(
                                    {
                                        "id": {"anyOf": [ID, {"type": "integer"}]},
                                        "names": NAMES,
                                        "value": {"type": "integer"},
                                    },
                                    required=["id"],
                                ),
                            ],
                            "formMessage": "a rank is {id: ..., names: [...], value: n} or a range 'a..b'",
                        },
                    },
                    "classes": {
                        "type": "array",
                        "minItems": 1,
                        "items": obj(
                            {
                                "id": ID,
                                "name_en": TEXT,
                                "suits": LIST_OF_IDS,
                                "ranks": {"$ref": "#/$defs/ranks"},
                                "spell": {
                                    "type": "array",
                                    "minItems": 1,
                                    "items": TEXT,
                                    "description": "spellings; {suit} and {rank} stand for any of their names",
                                },
                                "copies": {"$ref": "#/$defs/copies"},
                                "rank_copies": {
                                    "type": "object",
                                    "additionalProperties": {"$ref": "#/$defs/copies"},
                                    "description": "copies of some ranks, overriding the class's",
                                },
                                "exclude": {
                                    "type": "array",
                                    "items": obj(
                                        {"suit": ID, "ranks": {"$ref": "#/$defs/ranks"}, **COMMON},
                                        required=["suit", "ranks"],
                                    ),
                                    "description": "faces the deck does not have",
                                },
                                **COMMON,
                            },
                            required=["id", "spell"],
                        ),
                    },
                }
            ),
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
            "roles": {
                "type": "array",
                "minItems": 1,
                "items": obj(
                    {
                        "id": ID,
                        "name": TEXT,
                        "classes": LIST_OF_IDS,
                        "wild": {"type": "boolean"},
                        "suit": {
                            "anyOf": [{"const": "own"}, LIST_OF_IDS],
                            "formMessage": "'own' or a list of suit ids",
                        },
                        "rank": {
                            "anyOf": [{"const": "own"}, {"$ref": "#/$defs/ranks"}],
                            "formMessage": "'own' or a list of rank ids",
                        },
                        "requires_in_meld": obj({"classes": LIST_OF_IDS, **COMMON}, required=["classes"]),
                        **ROLE_CONDITIONS,
                        **STANDS_FOR,
                        **COMMON,
                    },
                    required=["id", "classes"],
                ),
            },
            "melds": {
                "type": "array",
                "minItems": 1,
                "items": obj(
                    {
                        "id": ID,
                        "name": TEXT,
                        "name_en": TEXT,
                        "family": ID,
                        "shape": {"enum": ["group", "sequence", "identical", "flush"]},
                        "size": {"$ref": "#/$defs/size"},
                        "short_form": obj(
                            {"size": {"type": "integer", "minimum": 1}, "roles": LIST_OF_IDS, **COMMON},
                            required=["size", "roles"],
                        ),
                        "suits": LIST_OF_IDS,
                        "ranks": {"$ref": "#/$defs/ranks"},
                        "order": obj(
                            {"ranks": {"$ref": "#/$defs/ranks"}, "cyclic": {"type": "boolean"}, **COMMON},
                            required=["ranks"],
                        ),
                        "suit_step": {
                            "anyOf": [
                                {"enum": ["same", "any"]},
                                obj(
                                    {
                                        "cycle": ID,
                                        "directions": obj({"forward": TEXT, "backward": TEXT}),
                                    },
                                    required=["cycle", "directions"],
                                ),
                            ],
                            "formMessage": "'same', 'any' or {cycle: id, directions: {...}}",
                        },
                        "roles": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/kind_role"}},
                        "wilds": obj(
                            {
                                "min": {"type": "integer", "minimum": 0},
                                "max": {"type": "integer", "minimum": 0},
                                "naturals_min": {
                                    "type": "integer",
                                    "minimum": 0,
                                    "description": "at least so many cards of the meld act as themselves",
                                },
                                "versus_naturals": {
                                    "enum": ["at-most", "fewer"],
                                    "description": "no more wilds than naturals in the meld (at-most), or fewer",
                                },
                                "apart": {
                                    "type": "boolean",
                                    "description": "no two wild cards side by side (a sequence's neighbouring places)",
                                },
                                **COMMON,
                            }
                        ),
                        "distinct": {"anyOf": [{"type": "boolean"}, obj({**COMMON})]},
                        "distinguish": obj(
                            {
                                "fixed_suits": {"type": "integer", "minimum": 1},
                                "fixed_ranks": {"type": "integer", "minimum": 1},
                                **COMMON,
                            }
                        ),
                        "phase": ID,
                        "going_out_only": {"type": "boolean", "description": "melded only in a turn that goes out"},
                        "going_out_only_source": SOURCE,
                        "enabled_if": {"$ref": "#/$defs/condition"},
                        "score": obj(
                            {
                                "counts": {
                                    "type": "array",
                                    "minItems": 1,
                                    "items": {"type": "integer", "minimum": 0},
                                    "description": "numbers of counted cards (the table's 枚数 row)",
                                },
                                "points": {
                                    "type": "array",
                                    "minItems": 1,
                                    "items": {"type": "integer"},
                                    "description": "points for each count; counts not listed score 0",
                                },
                                "count": {
                                    "enum": ["naturals", "cards", "card_points"],
                                    "description": "card_points: the meld scores the card points of its cards, "
                                    "each the card it stands for (no counts, no points)",
                                },
                                "segments": {
                                    "type": "boolean",
                                    "description": "a sequence split by wilds scores each run of naturals apart",
                                },
                                **COMMON,
                            },
                        ),
                        **COMMON,
                    },
                    required=["id", "name", "shape", "size", "roles"],
                ),
            },
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
                                        "const": True,
                                        "description": "the bonus goes to the player who went out",
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

CARDS = {
    "anyOf": [
        {"type": "string", "minLength": 1},
        {"type": "array", "minItems": 1, "items": {"type": "string", "minLength": 1}},
    ],
    "formMessage": "cards as one string ('S9 S10 SJ') or a list of strings",
}

puzzle_schema = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://melds.invalid/puzzle.schema.json",
    "title": "melds puzzle",
    "description": "A hand, its turn and table, a question and the expected answer. See docs/puzzle-format.md.",
    **obj(
        {
            "format": {"const": 1},
            "ruleset": {**TEXT, "description": "ruleset id, or a path relative to the puzzle file"},
            "options": {"type": "object", "additionalProperties": {"type": ["string", "integer", "boolean"]}},
            "title": TEXT,
            "notes": {**TEXT, "description": "how the expected answer was worked out"},
            "question": {
                "enum": [
                    "go-out",
                    "best",
                    "round",
                    "see",
                    "which-tiplu",
                    "waits",
                    "best-discard",
                    "discards",
                    "distance",
                    "score",
                    "word-turn",
                    "word-bonus",
                    "word-check",
                ]
            },
            "words": {"type": "array", "minItems": 1, "items": TEXT, "description": "word games: words to check"},
            "loose": {"type": "string", "description": "word games: loose tiles on the table (relief discards)"},
            "last_lap": {"type": "boolean", "description": "word games: the last lap after the stock ran out"},
            "dictionary": obj(
                {
                    "files": {"type": "array", "items": TEXT, "description": "word lists, relative to the puzzle file"},
                    "default": {"type": "boolean", "description": "use the ruleset's dictionary too"},
                    "exclude": {"type": "array", "items": TEXT},
                },
                description="word games: the dictionary the puzzle is set with",
            ),
            "win": obj(
                {  # mahjong: the facts of the win for question: score
                    "tile": TEXT,
                    "tsumo": {"type": "boolean"},
                    "riichi": {"type": "boolean"},
                    "double_riichi": {"type": "boolean"},
                    "ippatsu": {"type": "boolean"},
                    "haitei": {"type": "boolean"},
                    "houtei": {"type": "boolean"},
                    "rinshan": {"type": "boolean"},
                    "chankan": {"type": "boolean"},
                    "tenhou": {"type": "boolean"},
                    "chiihou": {"type": "boolean"},
                    "renhou": {"type": "boolean"},
                    "seat": {"enum": ["E", "S", "W", "N"]},
                    "round": {"enum": ["E", "S", "W", "N"]},
                    "from": {"enum": ["E", "S", "W", "N"]},
                    "dora_indicators": TEXT,
                    "ura_indicators": TEXT,
                    "honba": {"type": "integer", "minimum": 0},
                    "riichi_sticks": {"type": "integer", "minimum": 0},
                    "dealer_streak": {"type": "integer", "minimum": 0},
                    "players": {"type": "integer", "minimum": 3, "maximum": 4},
                    "river": {**CARDS, "description": "the winner's own discards (振聴: no ron on a wait among them)"},
                    "furiten": {
                        "type": "boolean",
                        "description": "the winner let a winning tile go by (temporary or riichi furiten)",
                    },
                    "nuki": {"type": "integer", "minimum": 0, "description": "北 the winner set aside (北抜き)"},
                },
                required=["tile"],
            ),
            "round": obj(
                {
                    "winner": TEXT,
                    "players": {"type": "array", "minItems": 2, "items": TEXT},
                    "one_go": {"type": "boolean", "description": "the winner went out in one go, with no earlier meld"},
                    "melds": {
                        "type": "array",
                        "items": obj(
                            {
                                "owner": TEXT,
                                "cards": CARDS,
                                "laid_off": {
                                    "type": "object",
                                    "additionalProperties": CARDS,
                                    "description": "the meld's cards another player laid off on it, by player",
                                },
                            },
                            required=["owner", "cards"],
                        ),
                    },
                    "hands": {
                        "type": "object",
                        "additionalProperties": {
                            "anyOf": [CARDS, {"type": "array", "maxItems": 0}, {"type": "string", "maxLength": 0}]
                        },
                    },
                },
                required=["winner", "hands"],
            ),
            "visible": {
                **CARDS,
                "description": "distance and discards: cards seen outside the hand and table (rivers, melds)",
            },
            "dora_indicators": {**TEXT, "description": "mahjong discards: the dora indicators (seen tiles)"},
            "count": {"type": "boolean", "description": "also count the distinct ways to go out"},
            "hand": CARDS,
            "tiplu": {**TEXT, "description": "Marriage: the tiplu, when it is known"},
            "indicator": {**TEXT, "description": "the chosen card (a cut joker, an indicator); none: not yet"},
            "shown": {
                "type": "array",
                "items": CARDS,
                "description": "the player's melds already on the table (a dealt tunnela, the first three)",
            },
            "turn": obj(
                {
                    "kind": {"enum": ["normal", "claimed"]},
                    "claimed": TEXT,
                    "has_melded": {"type": "boolean"},
                    "phase": PHASE_ID,
                }
            ),
            "table": {"type": "array", "items": obj({"owner": TEXT, "cards": CARDS}, required=["owner", "cards"])},
            "settle": obj(
                {
                    "tiplu": TEXT,
                    "winner": TEXT,
                    "dublee_win": {"type": "boolean"},
                    "players": {
                        "type": "object",
                        "minProperties": 2,
                        "additionalProperties": obj(
                            {
                                "seen": {"type": "boolean"},
                                "cards": {"anyOf": [CARDS, {"type": "string", "maxLength": 0}]},
                                "marriages": {"type": "integer", "minimum": 0},
                                "dealt_tunnelas": {"type": "array", "items": CARDS},
                                "maal": {"type": "integer", "description": "maal points given directly"},
                            },
                            required=["seen"],
                        ),
                    },
                },
                required=["tiplu", "winner", "players"],
            ),
            "expect": obj(
                {
                    "solvable": {"type": "boolean"},
                    "discard": {"type": ["string", "null"]},
                    "melds": {"type": "array", "items": CARDS},
                    "layoffs": {
                        "type": "array",
                        "items": obj(
                            {"table": {"type": "integer", "minimum": 1}, "cards": CARDS}, required=["table", "cards"]
                        ),
                    },
                    "kept": {"anyOf": [CARDS, {"type": "array", "maxItems": 0}]},
                    "score": {"type": "object", "additionalProperties": {"type": "integer"}},
                    "solutions": {"type": "integer", "minimum": 0},
                    "no_meld": {"anyOf": [CARDS, {"type": "array", "maxItems": 0}]},
                    "payments": {
                        "type": "object",
                        "additionalProperties": {
                            "anyOf": [
                                {"type": "object", "additionalProperties": {"type": "integer"}},
                                {"type": "integer"},
                            ]
                        },
                        "description": "rounds: scoring system id -> player -> points received (negative: "
                        "paid); a Marriage settlement: player -> points received",
                    },
                    "maal": {"type": "object", "additionalProperties": {"type": "integer"}},
                    "tiplus": CARDS,
                    "tenpai": {"type": "boolean"},
                    "waits": {"type": "array", "items": TEXT, "description": "mahjong: the winning tiles (tenhou)"},
                    "best_discard": {
                        "type": "array",
                        "items": TEXT,
                        "description": "mahjong: the discards that leave the most winning tiles",
                    },
                    "shanten": {"type": "integer", "minimum": -1, "description": "mahjong discards: the hand's"},
                    "distance": {
                        "type": ["integer", "null"],
                        "minimum": 0,
                        "description": "rummies: the fewest swaps before the hand goes out (null: never)",
                    },
                    "discards": {
                        "type": "array",
                        "items": {
                            "anyOf": [
                                obj(
                                    {
                                        "discard": TEXT,
                                        "shanten": {"type": "integer", "minimum": -1},
                                        "ukeire_total": {"type": "integer", "minimum": 0},
                                        "ukeire": {
                                            "type": "object",
                                            "additionalProperties": {"type": "integer", "minimum": 0},
                                            "description": "each tile whose draw lowers the shanten -> its copies left",
                                        },
                                    },
                                    required=["discard", "shanten", "ukeire_total", "ukeire"],
                                ),
                                obj(
                                    {
                                        "discard": TEXT,
                                        "distance": {"type": ["integer", "null"], "minimum": 1},
                                        "draws_total": {"type": "integer", "minimum": 0},
                                        "draws": {
                                            "type": "object",
                                            "additionalProperties": {"type": "integer", "minimum": 0},
                                            "description": "each card whose draw helps -> copies left",
                                        },
                                    },
                                    required=["discard", "distance", "draws_total", "draws"],
                                ),
                            ]
                        },
                        "description": "the discard table (mahjong: shanten and ukeire; rummies: distance and draws)",
                    },
                    "han": {"type": "integer"},
                    "fu": {"type": "integer"},
                    "total": {"type": "integer"},
                    "wins": {"type": "boolean", "description": "score: whether the hand may win at all"},
                    "yaku": {"type": "array", "items": TEXT, "description": "mahjong: yaku names, any order"},
                    "limit": {"type": ["string", "null"]},
                    "goes_out": {"type": "boolean", "description": "word games: the hand empties this turn"},
                    "placed": {"type": "integer", "minimum": 0, "description": "word games: hand tiles put down"},
                    "tiles_in_words": {
                        "type": "integer",
                        "minimum": 0,
                        "description": "word games: bonus tiles in words",
                    },
                    "points": {"type": "integer", "description": "word games: the loser's points after the bonus"},
                    "legal": {"type": "array", "items": {"type": "boolean"}, "description": "word games: per word"},
                }
            ),
        },
        required=["format", "ruleset"],
        anyOf=[{"required": ["hand"]}, {"required": ["round"]}, {"required": ["settle"]}, {"required": ["words"]}],
        formMessage="a puzzle needs a hand (go-out, best, see, which-tiplu), a round or a settlement",
    ),
}

state_schema = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://melds.invalid/state.schema.json",
    "title": "melds game state",
    "description": "Whose turn, hands, table, discards, stock, per-player flags. See docs/state-format.md.",
    **obj(
        {
            "format": {"const": 1},
            "ruleset": {**TEXT, "description": "ruleset id, or a path relative to the state file"},
            "options": {"type": "object", "additionalProperties": {"type": ["string", "integer", "boolean"]}},
            "title": TEXT,
            "notes": TEXT,
            "players": {
                "type": "array",
                "minItems": 2,
                "items": {"anyOf": [TEXT, {"type": "integer"}]},
                "description": "the players in turn order",
            },
            "turn": {"anyOf": [TEXT, {"type": "integer"}], "description": "whose turn it is"},
            "step": {
                "enum": ["draw", "play", "discard", "call", "over"],
                "description": "draw: the turn's draw is to come; play: drawn (mahjong: discard, then call while"
                " a discard lies); over: the game has ended",
            },
            "hands": {
                "type": "object",
                "additionalProperties": {
                    "anyOf": [{"type": "string"}, {"type": "array", "items": TEXT}, {"type": "integer", "minimum": 0}]
                },
                "description": "player -> cards (known; ? is a card drawn unseen) or a number (a hidden hand)",
            },
            "table": {
                "type": "array",
                "items": obj(
                    {"owner": {"anyOf": [TEXT, {"type": "integer"}]}, "cards": CARDS}, required=["owner", "cards"]
                ),
            },
            "discards": {
                "anyOf": [{"type": "string"}, {"type": "array", "items": TEXT}],
                "description": "the discard pile, bottom to top",
            },
            "discarded_by": TEXT,
            "stock": {"type": "integer", "minimum": 0},
            "taken": {"type": ["string", "null"], "description": "the card taken from the discard pile this turn"},
            "melds_this_turn": {"type": "integer", "minimum": 0},
            "flags": {
                "type": "object",
                "additionalProperties": {
                    "type": "object",
                    "additionalProperties": {"type": ["boolean", "integer", "string"]},
                },
                "description": "player -> flags: melded, seen, dublee, has_word, relief_used, nuki (mahjong: "
                "北 set aside), …",
            },
            "tiplu": {**TEXT, "description": "Marriage: the tiplu, once seen"},
            "indicator": {**TEXT, "description": "the ruleset's chosen card (a cut joker, an indicator), once known"},
            "loose": {"type": "string", "description": "word games: tiles left face up by relief actions"},
            "last_lap": {"type": "boolean"},
            "facts": obj(
                {
                    "round": {"enum": ["E", "S", "W", "N"]},
                    "first_go_around": {
                        "type": "boolean",
                        "description": "mahjong: no call yet and the first discards",
                    },
                    "kans": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}},
                    "claims": {
                        "type": "object",
                        "additionalProperties": {"enum": ["ron", "pon", "kan", "chi", "claim"]},
                        "description": "calls other players have declared on the discard (mahjong: ron pon kan "
                        "chi; Fesca: claim)",
                    },
                    "phase": {
                        **PHASE_ID,
                        "description": "the field phase, for a ruleset with phases: (Fesca: yang or yin; none: no "
                        "陰陽 discard yet)",
                    },
                    "claimed_turn": {**TEXT, "description": "Fesca: the discard this claimed turn took"},
                    "resume": {**TEXT, "description": "Fesca: who discarded it (the normal order resumes after them)"},
                    "must_meld": {
                        "type": "array",
                        "items": TEXT,
                        "description": "Fesca: cards taken before one's own meld, to be melded at once",
                    },
                    "recalled": {"type": "array", "items": TEXT, "description": "Fesca: melds recalled this turn"},
                    "rivers": {
                        "type": "object",
                        "additionalProperties": CARDS,
                        "description": "mahjong: seat -> its own discards in order, called ones included (振聴)",
                    },
                    "drawn": {**TEXT, "description": "mahjong: the tile the turn's player just drew"},
                    "kan": obj(
                        {"tile": TEXT, "kind": {"enum": ["ankan", "kakan", "nuki"]}, "by": TEXT},
                        required=["tile", "kind", "by"],
                        description="mahjong: a kan just declared, which 槍槓 may rob before the replacement draw "
                        "(nuki: a tile set aside by 北抜き, which a ron may take)",
                    ),
                    "rinshan": {
                        **TEXT,
                        "description": "mahjong: the seat whose draw is a kan's replacement (嶺上開花)",
                    },
                    "turn_start": obj(
                        {
                            "table": {
                                "type": "array",
                                "items": obj({"owner": TEXT, "cards": TEXT}, required=["owner", "cards"]),
                            },
                            "loose": {"type": "string"},
                        },
                        description="Word Rummy: the table and loose tiles as the turn began",
                    ),
                    "last_lap_ends": {
                        **TEXT,
                        "description": "Word Rummy: the player whose turn ends the last lap (who emptied the stock)",
                    },
                    "recalled_melds": {
                        "type": "object",
                        "additionalProperties": {"type": "array", "items": TEXT},
                        "description": "Fesca: player -> melds they recalled in earlier turns "
                        "(never melded again in that state)",
                    },
                    "four_kans_pending": {"type": "boolean"},
                    "robbable": {
                        **TEXT,
                        "description": "mahjong, the first form of an added kan on offer (step call): "
                        "read as kan {tile, kind: kakan, by: discarded_by}",
                    },
                    "win_facts": {
                        "type": "object",
                        "additionalProperties": obj(
                            {
                                **{
                                    flag: {"type": "boolean"}
                                    for flag in (
                                        "riichi",
                                        "double_riichi",
                                        "ippatsu",
                                        "haitei",
                                        "houtei",
                                        "rinshan",
                                        "chankan",
                                        "tenhou",
                                        "chiihou",
                                        "renhou",
                                    )
                                },
                                "dora_indicators": CARDS,
                                "ura_indicators": CARDS,
                            }
                        ),
                        "description": "mahjong: seat -> facts of its win laid over what the state shows "
                        "(flags, dora and ura indicators)",
                    },
                    "result": TEXT,
                    "winner": {**TEXT, "description": "Rummikub: the player who emptied the rack"},
                    "passes": {
                        "type": "integer",
                        "minimum": 0,
                        "description": "Rummikub: players who have passed in a row with the pool empty",
                    },
                },
                description="game-level facts",
            ),
            "expect": {
                "type": "object",
                "additionalProperties": {"type": "boolean"},
                "description": "example states: action -> legal?",
            },
        },
        required=["format", "ruleset", "players", "turn", "hands"],
    ),
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
