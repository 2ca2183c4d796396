"""The ruleset schema's cards: the deck, the wild roles and the meld kinds."""

from schema_parts import COMMON, ID, LIST_OF_IDS, NAMES, ROLE_CONDITIONS, SOURCE, STANDS_FOR, TEXT, obj

DECK = obj(
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
                    "color": {"enum": ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]},
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
)

ROLES = {
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
}

MELDS = {
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
}
