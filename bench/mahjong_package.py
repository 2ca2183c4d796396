"""The ``mahjong`` package's side of the scoring rows: its hand value of a hand given as a user of
the package writes it, in-process, and a whole process that does so for a file of hands.

    python -m bench.mahjong_package HANDS.json

The process imports the package and nothing of melds (this module imports nothing of it; the
``bench`` package's own import is a docstring), reads the hands (a JSON list of
:func:`bench.mahjong.package_notation` items, read at once) and scores each, then prints one line:
how many hands it scored and how many of them the package found no win in. Timed from outside as a
whole process, it is the package's counterpart of one ``melds score --batch`` process: its start,
its import and every hand from the first.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

# The package's options as gensou-mahjong plays: open tanyao, red fives, no double yakuman, no
# rounding up of 7,700 points, no fu for an open pinfu shape.
PACKAGE_OPTIONS = {
    "has_open_tanyao": True,
    "has_aka_dora": True,
    "has_double_yakuman": False,
    "kiriage": False,
    "fu_for_open_pinfu": False,
}


def package_scorer() -> tuple[Callable[[Any], tuple | None], Any]:
    """``(score, options)``: ``score(item)`` parses one package-notation item (tile strings, a
    (type, tiles, opened) per meld, the win, the dora indicators, the HandConfig's facts) with the
    package's TilesConverter and scores it — ``(han, fu, main, additional)``, or None when the
    package finds no win; ``options`` is the package's OptionalRules used."""
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
    from mahjong.meld import Meld
    from mahjong.tile import TilesConverter

    options = OptionalRules(**PACKAGE_OPTIONS)
    calculator, parse = HandCalculator(), TilesConverter.one_line_string_to_136_array

    def score(item: Any) -> tuple | None:
        tiles, melds, win, dora, facts = item
        r = calculator.estimate_hand_value(
            parse(tiles, True),
            parse(win, True)[0],
            melds=[Meld(meld_type=kind, tiles=parse(text, True), opened=opened) for kind, text, opened in melds]
            or None,
            dora_indicators=parse(dora, True) or None,
            config=HandConfig(options=options, **facts),
        )
        if r.error or r.cost is None:
            return None
        return r.han, r.fu, r.cost["main"], r.cost["additional"]

    return score, options


def main(path: str) -> None:
    score = package_scorer()[0]
    with open(path, encoding="utf-8") as stream:
        items = json.load(stream)
    no_win = sum(score(item) is None for item in items)
    print(f"{len(items)} {no_win}")


if __name__ == "__main__":
    main(sys.argv[1])
