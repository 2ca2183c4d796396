"""A batch line's keys checked (solver.core.requests): values their check passes as they are skip the
call, and every other value is still checked, refused or renamed as before."""

from __future__ import annotations

import pytest

from solver.core import limits
from solver.core.errors import BadRequest, TooLarge
from solver.core.game import OptionSpec
from solver.core.requests import request_checker

SPECS = (
    OptionSpec("--win", "The winning tile."),
    OptionSpec("--tsumo", "Self-draw.", flag=True),
    OptionSpec("--seat", "The seat.", choices=("E", "S", "W", "N")),
    OptionSpec("--from", "The discarder.", key="discarder", choices=("E", "S", "W", "N")),
    OptionSpec("--honba", "Honba.", type="int", minimum=0),
    OptionSpec("--dora", "Dora.", multiple=True),
)


def test_plain_values_come_back_as_they_are():
    line = {"hand": "123m", "cards": ["1m", "2m"], "win": "1m", "tsumo": True, "seat": "S", "honba": 2, "x": 5}
    assert request_checker(SPECS)(line) == line


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ({"tsumo": "yes"}, '"tsumo": expected true or false'),
        ({"win": 5}, '"win": expected a string'),
        ({"hand": ["1m", 2]}, '"hand[1]": expected a string'),
        ({"seat": "X"}, '"seat": expected one of E, S, W, N'),
        ({"honba": -1}, '"honba": expected an integer of at least 0'),
        ({"ordered": 1}, '"ordered": expected true or false'),
    ],
)
def test_a_wrong_value_is_still_refused(line, message):
    with pytest.raises(BadRequest, match=message.replace("[", r"\[").replace("]", r"\]")):
        request_checker(SPECS)(line)


def test_a_string_past_the_limit_is_refused_even_where_strings_pass():
    with pytest.raises(TooLarge):
        request_checker(SPECS)({"hand": "1m" * limits.REQUEST_TEXT})


def test_an_option_named_as_typed_reaches_its_key_and_a_lone_string_becomes_a_list():
    checked = request_checker(SPECS)({"from": "W", "dora": "5m"})
    assert checked == {"discarder": "W", "dora": ["5m"]}
