"""The ruleset schema's shared definitions (``$defs``): a winning flag, a source, ranks, an option's
value, copies, a condition, a size, a kind's role, a card's points."""

from schema_parts import COMMON, ID, LIST_OF_IDS, RANGE_OR_ITEM, ROLE_CONDITIONS, TEXT, obj

from solver.games.mahjong.win import PATTERN_FLAGS

DEFS = {
    "win_flag": {"enum": list(PATTERN_FLAGS)},  # a pattern's flag: the scorer's own list
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
    "option_number": obj(  # a number read from an option's value, as is or mapped
        {
            "option": ID,
            "map": {
                "type": "object",
                "additionalProperties": {"type": "integer", "minimum": 0},
                "description": "option value -> number",
            },
        },
        required=["option"],
    ),
    "copies": {
        "anyOf": [{"type": "integer", "minimum": 0}, {"$ref": "#/$defs/option_number"}],
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
}
