"""Write rulesets/ruleset.schema.json (kept as a script so the schema's shape is reviewable code).

Run: python tools/gen_schema.py. A test checks that the committed file equals this output.
"""
import json
from pathlib import Path

ID = {"type": "string", "pattern": r"^[^\s]+$", "minLength": 1,
      "patternMessage": "an id is one word without spaces"}
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

schema = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://melds.invalid/ruleset.schema.json",
    "title": "melds ruleset",
    "description": "A game's rules as data: deck, notation, wild roles, meld kinds, options, "
                   "assumptions. See docs/ruleset-format.md.",
    "$defs": {
        "source": obj({
            "doc": {**TEXT, "description": "document file name; default: the ruleset's document"},
            "quote": {**TEXT, "description": "a short verbatim quote (whitespace may differ)"},
            "note": TEXT,
        }, required=["quote"]),
        "ranks": {"type": "array", "minItems": 1, "items": RANGE_OR_ITEM,
                  "description": "rank ids; 'a..b' stands for every rank from a to b"},
        "option_ref": obj({"option": ID}, required=["option"]),
        "condition": {"type": "object", "minProperties": 1,
                      "additionalProperties": {"type": ["string", "integer", "boolean"]},
                      "description": "option id: required value"},
        "size": obj({"min": {"type": "integer", "minimum": 1},
                     "max": {"type": "integer", "minimum": 1}}, required=["min", "max"]),
        "kind_role": {"anyOf": [ID, obj({
            "role": ID,
            "classes": LIST_OF_IDS,
            "sizes": {"type": "array", "minItems": 1, "items": RANGE_OR_ITEM},
            **COMMON,
        }, required=["role"])], "formMessage": "a role id, or {role: id, classes: [...], sizes: [...]}"},
        "card_points": obj({
            "classes": LIST_OF_IDS,
            "suits": LIST_OF_IDS,
            "ranks": {"$ref": "#/$defs/ranks"},
            "points": {"anyOf": [{"type": "integer"}, {"const": "rank"}],
                       "formMessage": "an integer, or 'rank' for the rank's value"},
            **COMMON,
        }, required=["points"]),
    },
    **obj({
        "format": {"const": 1, "description": "format version"},
        "id": {"type": "string", "pattern": r"^[a-z][a-z0-9-]*$",
               "patternMessage": "a ruleset id is lower-case letters, digits and '-'"},
        "name": TEXT,
        "name_en": TEXT,
        "document": obj({"file": TEXT, "title": TEXT, "language": TEXT, "notes": TEXT},
                        required=["file"]),
        "players": obj({"min": {"type": "integer", "minimum": 1},
                        "max": {"type": "integer", "minimum": 1}, **COMMON},
                       required=["min", "max"]),
        "options": {"type": "object", "additionalProperties": obj({
            "type": {"enum": ["boolean", "integer", "string"]},
            "default": {"type": ["boolean", "integer", "string"]},
            "choices": {"type": "array", "minItems": 1, "items": {"type": ["string", "integer"]}},
            "minimum": {"type": "integer"},
            "maximum": {"type": "integer"},
            **COMMON,
        }, required=["type", "default", "description"])},
        "assumptions": {"type": "array", "items": obj({
            "id": ID, "text": TEXT, "reason": TEXT,
            "source": {"$ref": "#/$defs/source"},
            "option": ID,
        }, required=["id", "text", "reason"])},
        "deck": obj({
            "identity": {**TEXT, "description": "how the identity a wild stands for is written, "
                                                "e.g. '{suit}{rank}'"},
            "copies": {"anyOf": [{"type": "integer", "minimum": 1}, {"$ref": "#/$defs/option_ref"}]},
            "suits": {"type": "array", "minItems": 1, "items": obj({
                "id": ID, "names": NAMES,
                "color": {"enum": ["black", "red", "green", "yellow", "blue", "magenta", "cyan",
                                   "white"]},
            }, required=["id"])},
            "ranks": {"type": "array", "minItems": 1, "items": {"anyOf": [
                {"type": "string", "pattern": r"^-?\d+\.\.-?\d+$",
                 "patternMessage": "a rank range is written 'a..b'"},
                obj({"id": {"anyOf": [ID, {"type": "integer"}]}, "names": NAMES,
                     "value": {"type": "integer"}}, required=["id"]),
            ], "formMessage": "a rank is {id: ..., names: [...], value: n} or a range 'a..b'"}},
            "classes": {"type": "array", "minItems": 1, "items": obj({
                "id": ID, "name_en": TEXT,
                "suits": LIST_OF_IDS,
                "ranks": {"$ref": "#/$defs/ranks"},
                "spell": {"type": "array", "minItems": 1, "items": TEXT,
                          "description": "spellings; {suit} and {rank} stand for any of their names"},
                "copies": {"anyOf": [{"type": "integer", "minimum": 1},
                                     {"$ref": "#/$defs/option_ref"}]},
                **COMMON,
            }, required=["id", "spell"])},
        }, required=["suits", "classes"]),
        "cycles": {"type": "object", "additionalProperties": obj({
            "suits": {"type": "array", "minItems": 2, "items": ID}, **COMMON,
        }, required=["suits"])},
        "phases": {"type": "array", "items": obj({"id": ID, "name": TEXT, **COMMON},
                                                  required=["id"])},
        "roles": {"type": "array", "minItems": 1, "items": obj({
            "id": ID, "name": TEXT,
            "classes": LIST_OF_IDS,
            "wild": {"type": "boolean"},
            "suit": {"anyOf": [{"const": "own"}, LIST_OF_IDS],
                     "formMessage": "'own' or a list of suit ids"},
            "rank": {"anyOf": [{"const": "own"}, {"$ref": "#/$defs/ranks"}],
                     "formMessage": "'own' or a list of rank ids"},
            "requires_in_meld": obj({"classes": LIST_OF_IDS, **COMMON}, required=["classes"]),
            **COMMON,
        }, required=["id", "classes", "suit", "rank"])},
        "melds": {"type": "array", "minItems": 1, "items": obj({
            "id": ID, "name": TEXT, "name_en": TEXT,
            "family": ID,
            "shape": {"enum": ["group", "sequence", "identical"]},
            "size": {"$ref": "#/$defs/size"},
            "short_form": obj({"size": {"type": "integer", "minimum": 1},
                               "roles": LIST_OF_IDS, **COMMON}, required=["size", "roles"]),
            "suits": LIST_OF_IDS,
            "ranks": {"$ref": "#/$defs/ranks"},
            "order": obj({"ranks": {"$ref": "#/$defs/ranks"}, "cyclic": {"type": "boolean"},
                          **COMMON}, required=["ranks"]),
            "suit_step": {"anyOf": [{"const": "same"}, obj({
                "cycle": ID,
                "directions": obj({"forward": TEXT, "backward": TEXT}),
            }, required=["cycle", "directions"])], "formMessage": "'same' or {cycle: id, directions: {...}}"},
            "roles": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/kind_role"}},
            "wilds": obj({"min": {"type": "integer", "minimum": 0},
                          "max": {"type": "integer", "minimum": 0}, **COMMON}),
            "distinct": {"anyOf": [{"type": "boolean"}, obj({**COMMON})]},
            "distinguish": obj({"fixed_suits": {"type": "integer", "minimum": 1},
                                "fixed_ranks": {"type": "integer", "minimum": 1}, **COMMON}),
            "phase": ID,
            "enabled_if": {"$ref": "#/$defs/condition"},
            **COMMON,
        }, required=["id", "name", "shape", "size", "roles"])},
        "ambiguity": obj({**COMMON}),
        "deal": obj({
            "hand_size": {"type": "array", "minItems": 1, "items": obj({
                "players": {"type": "array", "minItems": 1, "items": RANGE_OR_ITEM},
                "cards": {"type": "integer", "minimum": 0},
                "if": {"$ref": "#/$defs/condition"},
                **COMMON,
            }, required=["players", "cards"])},
            "starter_discard": {"type": "integer", "minimum": 0},
            **COMMON,
        }, required=["hand_size"]),
        "card_points": {"type": "array", "items": {"$ref": "#/$defs/card_points"}},
    }, required=["format", "id", "name", "document", "deck", "roles", "melds"]),
}

if __name__ == "__main__":
    out = Path(__file__).resolve().parent.parent / "rulesets" / "ruleset.schema.json"
    out.write_text(json.dumps(schema, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {out}")
