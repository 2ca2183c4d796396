"""The JSON text every command prints: the same text as the standard library's encoder writes with
melds' settings (no ASCII escapes, ", " and ": "), whichever encoder render.json_text uses."""

from __future__ import annotations

import json
import math

import pytest

from solver.present import render

SAMPLES = [
    {"line": 1, "hand": "11m [678s]", "yaku": [{"id": "hatsu", "name": "役牌 發", "han": 1}], "points": None},
    {"error": {"code": "bad-json", "message": 'not JSON: "\\x00\n\t" ☃ \U0001f004'}, "ok": False, "n": -3},
    {"nested": [[[]], {}, [{"a": [1, 2.5, True, None]}]], "big": 10**30, "float": 1e-7, "tuple": (1, "2")},
    "a lone string 牌",
    [],
    0,
    {"nan": math.nan, "inf": -math.inf},
]


@pytest.mark.parametrize("value", SAMPLES)
def test_the_text_is_the_standard_encoders(value):
    assert render.json_text(value) == json.dumps(value, ensure_ascii=False)


def test_an_object_json_cannot_write_is_refused_as_before():
    with pytest.raises(TypeError):
        render.json_text({"set": {1, 2}})


def test_without_the_c_encoder_the_text_is_the_same(monkeypatch):
    monkeypatch.setattr(render, "_C_ENCODE", None)
    for value in SAMPLES:
        assert render.json_text(value) == json.dumps(value, ensure_ascii=False)
