"""The schemas of the documents beside a ruleset: a puzzle (puzzles/*.yaml) and a game state (a
move's or a replay's state file)."""

from schema_parts import PHASE_ID, TEXT, obj

from solver.games.mahjong.win import WIN_FACT_FLAGS

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
                                **{flag: {"type": "boolean"} for flag in WIN_FACT_FLAGS},
                                "dora_indicators": CARDS,
                                "ura_indicators": CARDS,
                            }
                        ),
                        "description": "mahjong: seat -> facts of its win laid over what the state shows "
                        "(flags, dora and ura indicators)",
                    },
                    "result": TEXT,
                    "winner": {
                        **TEXT,
                        "description": "the player who went out: Rummikub's who emptied the rack, a knocker",
                    },
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
