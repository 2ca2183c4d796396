"""The ruleset schema's mahjong sections: the scoring (yaku, limits, fu) and the game around a hand
(seats, rounds, payments)."""

from schema_parts import COMMON, ID, POINTS, SOURCE, TEXT, obj

TILE_NAMES = {"type": "array", "minItems": 1, "items": TEXT}
TILE_GROUP = {
    "anyOf": [{"enum": ["winds", "dragons"]}, TILE_NAMES],
    "formMessage": "winds, dragons, or a list of tiles",
}
YAKU_PATTERN = obj(
    {  # one hand-pattern primitive (solver/riichi.py), with its parameters
        "flag": {
            "anyOf": [
                {"$ref": "#/$defs/win_flag"},
                {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/win_flag"}},
            ],
            "description": "a fact of the win given on the command line (ron: won on a discard), or a "
            "list of facts that must all hold",
        },
        "pinfu": {"const": True, "description": "four runs, a pair of no value, an open (two-sided) wait"},
        "identical_runs": {"type": "integer", "minimum": 1, "description": "pairs of identical runs (closed)"},
        "tiles_only": {"enum": ["simples", "yaochu", "terminals", "honours", "green"]},
        "triplet_of": {**TEXT, "description": "a tile, seat-wind or round-wind: a triplet or kan of it"},
        "three_suits": {"enum": ["run", "triplet"], "description": "the same run / triplet in the three number suits"},
        "straight": {"const": True, "description": "123, 456, 789 of one suit"},
        "every_part": {
            "enum": ["yaochu", "terminal"],
            "description": "every meld and the pair hold a terminal or honour (yaochu) or a "
            "terminal (terminal), with at least one run",
        },
        "concealed_triplets": {"type": "integer", "minimum": 1},
        "triplets": {"type": "integer", "minimum": 1, "description": "triplets and kans"},
        "kans": {"type": "integer", "minimum": 1},
        "consecutive_triplets": {
            "type": "integer",
            "minimum": 2,
            "description": "triplets of consecutive ranks in one suit",
        },
        "honour_set": obj(
            {"tiles": TILE_GROUP, "triplets": {"type": "integer", "minimum": 1}, "pair": {"type": "boolean"}},
            required=["tiles", "triplets"],
        ),
        "one_suit": {"enum": ["with-honours", "without-honours"]},
        "shape": {"type": "string", "description": "a hand shape id (chiitoitsu, kokushi)"},
        "nine_gates": {"const": True, "description": "1112345678999 of one suit plus one tile, closed"},
        "wait": {
            "enum": ["tanki", "thirteen", "nine"],
            "description": "the hand waited on its pair tile / all thirteen orphans / all nine tiles",
        },
        "dealer_streak": {"type": "integer", "minimum": 1, "description": "the dealer's consecutive wins"},
    },
    minProperties=1,
)
YAKU = obj(
    {
        "name": TEXT,
        "han": {"type": "integer", "minimum": 1, "description": "han with a closed hand"},
        "open": {
            "anyOf": [{"type": "integer", "minimum": 1}, {"type": "boolean"}],
            "description": "han with open melds (食い下がり); for yakuman: true; absent: closed only (門前役)",
        },
        "open_if": {"$ref": "#/$defs/condition"},
        "yakuman": {"type": "integer", "minimum": 1},
        "fixed": {
            "enum": ["満貫", "跳満", "倍満", "三倍満"],
            "description": "a fixed limit hand, not combined with other yaku (except in 青天井)",
        },
        "aotenjou_han": {"type": "integer", "minimum": 1},
        "pattern": YAKU_PATTERN,
        "excludes": {"type": "array", "items": ID, "description": "lower yaku this one replaces"},
        "if": {"$ref": "#/$defs/condition", "description": "the yaku counts only under these option values"},
        **COMMON,
    },
    required=["name", "pattern"],
)
MAHJONG_SCORING = obj(
    {
        "winds": TILE_NAMES,
        "dragons": TILE_NAMES,
        "green": TILE_NAMES,
        "dora": obj(
            {
                "honour_cycles": {"type": "array", "items": TILE_NAMES},
                "red_fives": {"type": "integer", "minimum": 0},
                **COMMON,
            }
        ),
        "fu": obj(
            {
                "base": POINTS,
                "closed_ron": POINTS,
                "tsumo": POINTS,
                "chiitoitsu": POINTS,
                "open_pinfu": POINTS,
                "open_pinfu_source": SOURCE,
                "value_pair": POINTS,
                "double_wind_pair": POINTS,
                "double_wind_pair_source": SOURCE,
                "wait": POINTS,
                "triplet": obj(
                    {"simple": POINTS, "yaochu": POINTS, "closed": POINTS, "kan": POINTS},
                    required=["simple", "yaochu", "closed", "kan"],
                ),
                "round_to": {"type": "integer", "minimum": 1},
                **COMMON,
            },
            required=["base", "triplet"],
        ),
        "points": obj(
            {
                "limits": {
                    "type": "array",
                    "items": obj({"han": POINTS, "basic": POINTS, "name": TEXT}, required=["han", "basic", "name"]),
                },
                "mangan_basic": POINTS,
                "yakuman_basic": POINTS,
                "kiriage": {"type": "boolean"},
                "kiriage_source": SOURCE,
                "ron": obj({"dealer": POINTS, "other": POINTS}, required=["dealer", "other"]),
                "tsumo": obj({"dealer": POINTS, "other": POINTS}, required=["dealer", "other"]),
                "round_to": {"type": "integer", "minimum": 1},
                **COMMON,
            },
            required=["limits", "mangan_basic", "yakuman_basic", "ron", "tsumo"],
        ),
        "honba": obj({"points": POINTS, **COMMON}, required=["points"]),
        "riichi_stick": obj({"points": POINTS, **COMMON}, required=["points"]),
        "noten_penalty": obj({"points": POINTS, **COMMON}, required=["points"]),
        "nagashi_mangan": obj(
            {"dealer": POINTS, "other": POINTS, "combined": SOURCE, **COMMON}, required=["dealer", "other"]
        ),
        "shibari": obj(
            {"honba": POINTS, "han": POINTS, "if": {"$ref": "#/$defs/condition"}, **COMMON}, required=["honba", "han"]
        ),
        "sticks_to": obj({"rule": {"enum": ["nearest-winner"]}, **COMMON}, required=["rule"]),
        "multiple_ron": obj({**COMMON}),
        "three_player_tsumo": obj({"rule": {"enum": ["split-north"]}, **COMMON}, required=["rule"]),
        "yakuman": obj({"combine": {"type": "boolean"}, "combine_source": SOURCE, "single": SOURCE}),
        "aotenjou": obj(
            {
                "if": {"$ref": "#/$defs/condition"},
                "yakuman_han": POINTS,
                "cap_basic": POINTS,
                "cap_basic_4n": POINTS,
                "cap_source": SOURCE,
                "lower_yaku": SOURCE,
                "kokushi_fu": obj({**COMMON}),
                **COMMON,
            },
            required=["yakuman_han", "cap_basic"],
        ),
        "yaku": {"type": "object", "additionalProperties": YAKU, "description": "yaku id -> yaku"},
        **COMMON,
    }
)  # fu, points and yaku are required after 'extends:' is merged (checked by the loader)

COUNT_OR_OPTION = {"$ref": "#/$defs/copies"}  # a number, or an option's value (mapped)
MAHJONG_GAME = obj(
    {  # a whole game's flow, for replaying game records (solver/games/mahjong/flow.py)
        "points": obj(
            {"start": POINTS, "return": POINTS, **COMMON},
            required=["start", "return"],
            description="the points each player starts with, and the base of the final points (返し)",
        ),
        "uma": obj(
            {"places": {"type": "array", "items": {"type": "integer"}, "minItems": 2}, **COMMON},
            required=["places"],
            description="points by final place, in thousands",
        ),
        "oka": obj({**COMMON}, description="the top takes (return - start) x players"),
        "winds": obj(
            {"count": COUNT_OR_OPTION, **COMMON},
            required=["count"],
            description="round winds played: 1 (東風), 2 (東南)",
        ),
        "extension": obj(
            {"winds": POINTS, **COMMON},
            required=["winds"],
            description="winds more while nobody has the return points (sudden death)",
        ),
        "renchan": obj(
            {
                "dealer_win": {"type": "boolean"},
                "dealer_tenpai": {"type": "array", "items": {"enum": ["E", "S", "W", "N"]}},
                **COMMON,
            },
            description="who keeps the deal: a dealer who wins; a dealer in tenpai at a "
            "draw, in the round winds listed",
        ),
        "abortive": obj(
            {
                k: obj({"renchan": {"type": "boolean"}, **COMMON})
                for k in ("nine-terminals", "four-winds", "four-kans", "four-riichi", "triple-ron")
            },
            description="the draws that abort a hand, and whether the dealer keeps the deal",
        ),
        "end": obj(
            {
                "below": {"type": "integer"},
                "last_dealer": obj({"win": {"type": "boolean"}, "tenpai": {"type": "boolean"}, **COMMON}),
                **COMMON,
            },
            description="a score below 'below' ends the game; the last dealer who wins (or "
            "is in tenpai) on top ends it",
        ),
        "leftover_sticks": obj({"to": {"enum": ["top", "none"]}, **COMMON}, required=["to"]),
        "tie": obj({"order": {"enum": ["seat"]}, **COMMON}, required=["order"]),
        "pao": obj(
            {"yaku": {"type": "array", "items": ID}, **COMMON},
            required=["yaku"],
            description="yaku whose feeder is liable (包): pays a tsumo whole, half a ron",
        ),
        "tenpai": obj(
            {"all_copies_held": {"type": "boolean"}, **COMMON},
            description="false: a wait on a tile whose every copy is in the hand is no tenpai at a draw",
        ),
        "chankan": obj({"closed_kan": {"type": "boolean"}, **COMMON}),
        **COMMON,
    },
    required=["points"],
)
