"""The building blocks of the ruleset schema (tools/gen_schema.py): value types, and the sections
of single games (mahjong scoring, word games), turn rules and worked-example claims."""

ID = {"type": "string", "pattern": r"^[^\s]+$", "minLength": 1, "patternMessage": "an id is one word without spaces"}
PHASE_ID = {**ID, "description": "a phase of the ruleset's phases: (Fesca: yang, yin), or none"}
TEXT = {"type": "string", "minLength": 1}
RANGE_OR_ITEM = {"anyOf": [{"type": "string", "minLength": 1}, {"type": "integer"}]}
NAMES = {"type": "array", "items": {"anyOf": [TEXT, {"type": "integer"}]}}
LIST_OF_IDS = {"type": "array", "items": ID, "minItems": 1}


def obj(props, required=(), **extra):
    out = {"type": "object", "properties": props, "additionalProperties": False}
    if required:
        out["required"] = list(required)
    out.update(extra)
    return out


COMMON = {  # every rule element may cite its source and say it is an assumption
    "source": {"$ref": "#/$defs/source"},
    "assumption": ID,
    "description": TEXT,
}

SOURCE = {"$ref": "#/$defs/source"}
POINTS = {"type": "integer", "minimum": 0}

WORD_TILES = obj(
    {
        "tiles": {**TEXT, "description": "tile kinds, one character each"},
        "mark": {
            "type": "boolean",
            "description": "the ゛ and ゜ mark tiles: voiced kana decompose into a base tile and a mark",
        },
        "if": {"$ref": "#/$defs/condition"},
        **COMMON,
    },
    required=["tiles"],
)
SMALL_KANA = obj(
    {
        "tiles": TEXT,
        "small": {**TEXT, "description": "the small kana, in the order of tiles"},
        "if": {"$ref": "#/$defs/condition"},
        **COMMON,
    },
    required=["tiles", "small"],
)
RULE = obj({**COMMON})
LENGTH = obj({"tiles": {"type": "integer", "minimum": 1}, **COMMON}, required=["tiles"])
WORDS = obj(
    {  # a word game (solver/words.py): tiles, dictionary, turn and scoring rules
        "tiles": {"type": "array", "minItems": 1, "items": WORD_TILES},
        "copies": {"$ref": "#/$defs/copies"},
        "small_kana": {"type": "array", "items": SMALL_KANA},
        "hand_size": {
            "type": "array",
            "items": obj(
                {
                    "players": {
                        "type": "array",
                        "minItems": 2,
                        "maxItems": 2,
                        "items": {"type": "integer", "minimum": 1},
                    },
                    "tiles": {"type": "integer", "minimum": 1},
                    **COMMON,
                },
                required=["players", "tiles"],
            ),
        },
        "min_length": obj(
            {"word": LENGTH, "table": LENGTH, "last_lap": LENGTH, "bonus": LENGTH},
            required=["word", "table", "last_lap", "bonus"],
        ),
        "turn": obj(
            {
                "first_word": RULE,
                "arrange_after_first_word": RULE,
                "hand_tiles_in_arranging": RULE,
                "words_from_hand": obj({"max": {"type": "integer", "minimum": 0}, **COMMON}, required=["max"]),
                "relief": obj(
                    {
                        "discard": {"type": "integer", "minimum": 1},
                        "draw": {"type": "integer", "minimum": 0},
                        "per_turn": {"type": "integer", "minimum": 0},
                        **COMMON,
                    },
                    required=["discard", "draw", "per_turn"],
                ),
                "no_word": obj({"draw": {"type": "integer", "minimum": 0}, **COMMON}, required=["draw"]),
                "timeout": obj({"draw": {"type": "integer", "minimum": 0}, **COMMON}, required=["draw"]),
                "going_out": RULE,
            },
            required=["words_from_hand"],
        ),
        "scoring": obj(
            {
                "left_in_hand": obj({"points": {"type": "integer"}, **COMMON}, required=["points"]),
                "bonus_tile": obj({"points": {"type": "integer"}, **COMMON}, required=["points"]),
            },
            required=["left_in_hand", "bonus_tile"],
        ),
        "dictionary": obj(
            {"file": {**TEXT, "description": "path relative to the ruleset"}, "name": TEXT, "licence": TEXT, **COMMON},
            required=["file", "name"],
        ),
        **COMMON,
    },
    required=["tiles", "min_length", "turn", "scoring", "dictionary"],
)

POINTS_OR_OPTION = {
    "anyOf": [{"type": "integer", "minimum": 0}, {"$ref": "#/$defs/option_number"}],
    "formMessage": "a number of points, or {option: id} / {option: id, map: {value: n}}",
}
TABLE = obj(
    {  # how the table's melds change in a turn (solver/melding/arrange): free rearrangement
        "rearrange": {
            "enum": ["free", "none"],
            "description": "free: every turn the whole table and the hand are laid out again into legal melds, no "
            "table card going back to a hand; none (the default): only by lay-offs and operations",
        },
        "stays_source": {"$ref": "#/$defs/source", "description": "the rule that no table card goes back to a hand"},
        **COMMON,
    },
    required=["rearrange"],
)

INITIAL_MELD = obj(
    {  # what a player's first meld must be worth
        "points": {**POINTS_OR_OPTION, "description": "what the new melds of the first meld must be worth together"},
        "melds": {
            **POINTS_OR_OPTION,
            "formMessage": "a number of melds, or {option: id} / {option: id, map: {value: n}}",
            "description": "how many new melds the first meld must lay at least (0: any)",
        },
        "from": {
            "enum": ["hand"],
            "description": "hand: made of the hand's cards alone, the table untouched until then",
        },
        "counts": {
            "enum": ["rank", "card_points"],
            "description": "rank: each card counts the value of the rank it stands for; card_points: the card "
            "points of the card it stands for (card_points:, as a meld kind's score: {count: card_points} counts)",
        },
        "from_source": {"$ref": "#/$defs/source"},
        "counts_source": {"$ref": "#/$defs/source"},
        "melds_source": {"$ref": "#/$defs/source"},
        **COMMON,
    },
)

MOVES = obj(
    {  # turn rules (solver/moves.py): the actions with their sources, the checks on them
        "actions": {
            "type": "object",
            "additionalProperties": obj({**COMMON}),
            "description": "action id -> its source (draw-stock, draw-discard, meld, layoff, discard, "
            "knock, show; word, arrange, relief, draw, end)",
        },
        "checks": {
            "type": "array",
            "items": obj(
                {
                    "check": {**ID, "description": "a restriction the game's moves know (solver/moves.py CHECKS)"},
                    "order": {
                        "type": "array",
                        "items": {"anyOf": [ID, LIST_OF_IDS]},
                        "description": "call-priority: the calls from first to last, equals in a list",
                    },
                    "count": {"type": "integer", "minimum": 1, "description": "kyuushu-kinds: the kinds needed"},
                    "shapes": {
                        **LIST_OF_IDS,
                        "description": "chankan-closed-kan: the hand shapes that may rob a closed kan",
                    },
                    "if": {"$ref": "#/$defs/condition"},
                    **COMMON,
                },
                required=["check"],
            ),
        },
        **COMMON,
    },
    required=["actions"],
)

CARDS_OR_TEXT = {"anyOf": [TEXT, {"type": "array", "items": TEXT}]}

CLAIM = obj(
    {  # a worked example or number of the document, as the document states it (solver/audit.py)
        "id": ID,
        "kind": {
            "enum": [
                "meld",
                "meld-points",
                "hand-points",
                "penalty-total",
                "wild",
                "move",
                "draw",
                "score",
                "waits",
                "riichi-kan",
                "payment",
                "word",
                "lost",
            ],
            "description": "lost: an example whose picture or symbols are gone (listed as a gap)",
        },
        "win": {"type": "object", "description": "score: the facts of the win, as a puzzle's win: section"},
        "options": {"type": "object", "additionalProperties": {"type": ["string", "integer", "boolean"]}},
        "han": {"type": "integer"},
        "fu": {"type": "integer"},
        "total": {"type": "integer"},
        "wins": {"type": "boolean", "description": "score: whether the hand may win at all"},
        "state": {"type": "object", "description": "move: a position, as in a state file (without format and ruleset)"},
        "action": TEXT,
        "honba": {"type": "integer", "minimum": 0},
        "from": {"enum": ["E", "S", "W", "N"]},
        "tenpai": {"type": "array", "items": {"enum": ["E", "S", "W", "N"]}},
        "nagashi": {"type": "array", "items": {"enum": ["E", "S", "W", "N"]}},
        "wild": {"type": "boolean"},
        "double": {"type": "boolean"},
        "hands": {"type": "object", "additionalProperties": CARDS_OR_TEXT},
        "cards": CARDS_OR_TEXT,
        "legal": {"type": "boolean"},
        "as": ID,
        "phase": PHASE_ID,
        "ordered": {"type": "boolean"},
        "tiplu": TEXT,
        "indicator": TEXT,
        "points": {"type": "integer"},
        "hand": TEXT,
        "waits": {"type": "array", "items": TEXT},
        "draw": TEXT,
        "kan": TEXT,
        "document_rule": {"type": "boolean"},
        "general_rule": {"type": "boolean"},
        "basic": {"type": "integer"},
        "seat": {"enum": ["E", "S", "W", "N"]},
        "tsumo": {"type": "boolean"},
        "players": {"type": "integer"},
        "payments": {"type": "object", "additionalProperties": {"type": "integer"}},
        "word": TEXT,
        "note": TEXT,
        "undefined": {
            "type": "array",
            "items": ID,
            "description": "fields of the claim about a rule the document names but never defines: a "
            "disagreement confined to them is an assumption (undefined-rule), not a contradiction",
        },
        **COMMON,
    },
    required=["id", "kind"],
)

QUOTE = obj(
    {"quote": TEXT, "doc": {**TEXT, "description": "default: the ruleset's document"}, "reason": TEXT},
    required=["quote"],
)

AUDIT = obj(
    {  # melds audit's own reading of the document (solver/audit/coverage.py, defects.py)
        "rule_bearing": {
            "type": "array",
            "items": QUOTE,
            "description": "sentences that state a rule though the heuristic does not see it",
        },
        "not_rule_bearing": {
            "type": "array",
            "items": QUOTE,
            "description": "sentences the heuristic takes for rules that state none (background, "
            "commentary, notation of the pictures)",
        },
        "omitted": {
            "type": "array",
            "items": obj({"quote": TEXT, "reason": TEXT}, required=["quote", "reason"]),
            "description": "rule-bearing sentences the ruleset leaves out on purpose, with the reason",
        },
        "cites": {
            "type": "array",
            "description": "further sentences an entry implements besides the one its own quote "
            "names (a rule stated twice, a table row and its prose)",
            "items": obj(
                {
                    "entry": {**TEXT, "description": "the entry by its place in the file, e.g. melds/set/roles/SW"},
                    "quote": TEXT,
                    "reason": TEXT,
                },
                required=["entry", "quote"],
            ),
        },
        "departs": {
            **TEXT,
            "description": "why this ruleset's own entries depart from the document on purpose (a "
            "variant citing what it replaces): they lend the document no coverage",
        },
        "defects": {
            "type": "array",
            "description": "defects found by reading the document",
            "items": obj(
                {
                    "id": ID,
                    "kind": {
                        "enum": [
                            "rule-conflict",
                            "faq-contradiction",
                            "worked-example",
                            "one-seat-figure",
                            "missing-values",
                            "lost-text",
                            "presupposition",
                            "stock-overdraw",
                            "undefined-rule",
                        ]
                    },
                    "severity": {"enum": ["contradiction", "gap", "warning", "assumption"]},
                    "message": TEXT,
                    "sides": {
                        "type": "array",
                        "minItems": 1,
                        "items": QUOTE,
                        "description": "the sentences on each side, the defect's own first",
                    },
                    "witness": {
                        "type": "array",
                        "minItems": 1,
                        "items": {**CLAIM, "required": ["kind"]},
                        "description": "claims on the state where the sides disagree, each stating what one side "
                        "demands; the solver answers them",
                    },
                    "found_by": {**TEXT, "description": "the id (under the ruleset) of a search finding that shows it"},
                },
                required=["id", "kind", "message", "sides"],
            ),
        },
        "annotate": {
            "type": "array",
            "description": "the other side of a finding the audit makes itself",
            "items": obj(
                {
                    "finding": {**TEXT, "description": "its id under the ruleset, e.g. claim/penalty-c"},
                    "sides": {"type": "array", "minItems": 1, "items": QUOTE},
                    "kind": TEXT,
                },
                required=["finding", "sides"],
            ),
        },
    }
)


# -- a chosen card (parameters:) and what roles say of it ---------------------------------------

RELATION = obj(
    {
        "id": ID,
        "name": TEXT,
        "suit": {
            "enum": ["same", "other", "same-colour", "other-colour", "any"],
            "description": "the suit relation to the chosen card: its suit, any other, another of its "
            "colour, one of the other colour, any suit (default any)",
        },
        "offset": {
            "type": "integer",
            "description": "places along the rank cycle from the chosen card's rank, wrapping (default 0: "
            "the same rank)",
        },
        "rank": {"const": "any", "description": "any rank (instead of an offset)"},
        "enabled_if": {"$ref": "#/$defs/condition"},
        **COMMON,
    },
    required=["id"],
)
CHOSEN_CARD = obj(
    {
        "name": TEXT,
        "classes": {
            **LIST_OF_IDS,
            "description": "the classes a chosen card may be of (default: every class "
            "whose cards have a suit and a rank)",
        },
        "required": {
            "type": "boolean",
            "description": "every query names it (default false: without it no card relates to it)",
        },
        "rank_cycle": {"$ref": "#/$defs/ranks", "description": "the ranks offsets count along (default: the deck's)"},
        "counts_as": {
            "type": "object",
            "additionalProperties": {"anyOf": [TEXT, {"type": "integer"}]},
            "description": "class -> the rank a chosen card of that class counts as (a cut printed joker: A)",
        },
        "relations": {"type": "array", "items": RELATION},
        **COMMON,
    }
)
ROLE_CONDITIONS = {
    "if_chosen": {**LIST_OF_IDS, "description": "open only to cards in one of these relations to a chosen card"},
    "enabled_if": {"$ref": "#/$defs/condition"},
}
STANDS_FOR = {"stands_for": {**ID, "description": "the card counts as the card in this relation to a chosen card"}}


COUNT = {
    "anyOf": [{"type": "integer", "minimum": 0}, {"$ref": "#/$defs/option_ref"}],
    "formMessage": "a number, or {option: id}",
}
ROUTE_REQUIREMENT = {
    "anyOf": [
        obj(
            {
                "kinds": {**LIST_OF_IDS, "description": "the kinds that count (default: any kind the route allows)"},
                "at_least": COUNT,
                "at_most": COUNT,
                "exactly": COUNT,
                "pure": {"type": "boolean", "description": "only melds with no card acting as a wild count"},
                "size": {
                    "anyOf": [
                        {"type": "integer", "minimum": 1},
                        obj(
                            {"min": {"type": "integer", "minimum": 1}, "max": {"type": "integer", "minimum": 1}},
                            required=["min"],
                        ),
                    ],
                    "formMessage": "a number of cards, or {min, max} (max left out: any larger meld)",
                    "description": "only melds of these many cards count",
                },
                "enabled_if": {"$ref": "#/$defs/condition"},
                **COMMON,
            },
            description="so many melds of the way out count: of these kinds, sizes, pure",
        ),
        obj(
            {
                "hand_points": obj({"at_most": COUNT}, required=["at_most"]),
                "enabled_if": {"$ref": "#/$defs/condition"},
                **COMMON,
            },
            required=["hand_points"],
            description="the cards kept weigh at most so many card points (a knock)",
        ),
    ],
    "formMessage": "{kinds, at_least | at_most | exactly, pure, size} or {hand_points: {at_most: n}}",
}
GOING_OUT = {
    "type": "array",
    "description": "ways to go out other than every card melded, each with the requirements it must meet",
    "items": obj(
        {
            "id": ID,
            "name": TEXT,
            "kinds": {**LIST_OF_IDS, "description": "the kinds its melds may be (default: every kind)"},
            "all_cards": {"type": "boolean", "description": "every card but the discard melded (default true)"},
            "discard": {
                "enum": ["none"],
                "description": "none: going out this way discards nothing, every card melded (default: the turn rule)",
            },
            "melds": {"type": "integer", "minimum": 1, "description": "at least this many melds, counting those shown"},
            "requires": {"type": "array", "minItems": 1, "items": ROUTE_REQUIREMENT},
            "first": obj(
                {"kinds": LIST_OF_IDS, "count": {"type": "integer", "minimum": 1}},
                required=["kinds", "count"],
                description="at least count melds of kinds (the same as a requirement with at_least)",
            ),
            "first_source": {"$ref": "#/$defs/source"},
            "enabled_if": {"$ref": "#/$defs/condition"},
            **COMMON,
        },
        required=["id"],
    ),
}

FIGURES = {
    "type": "object",
    "description": "values melds solve reports under the game's own names: a measure of the turn shown, "
    "or whether the hand goes out by a route",
    "additionalProperties": {
        "anyOf": [
            obj({"measure": {"enum": ["hand_points", "meld_points", "melds"]}, **COMMON}, required=["measure"]),
            obj({"route": ID, **COMMON}, required=["route"]),
        ],
        "formMessage": "{measure: hand_points | meld_points | melds} or {route: id}",
    },
}
BONUS = obj(
    {
        "double": {"type": "boolean"},
        "add": {
            "anyOf": [{"type": "integer"}, {"$ref": "#/$defs/option_ref"}],
            "formMessage": "a number or {option: id}",
        },
        "if": {"$ref": "#/$defs/condition"},
        **COMMON,
    }
)
