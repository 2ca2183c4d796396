"""A win read once apart from its situation (Scorer.read_win) and scored under another situation
(Scorer.score_read) is scored as Scorer.score scores the win in that situation: the replay judges a
win with no dora, honba or sticks and settles it with the record's."""

from __future__ import annotations

import pytest

from solver.core.ruleset import load_ruleset
from solver.games.mahjong.scoring import NotAWin, Scorer, Win

# (hand, winning tile, tsumo): most with several readings (triplets or runs, seven pairs or runs)
HANDS = [
    ("222333444m 567p 99s", "4m", True),
    ("222333444m 567p 99s", "9s", False),
    ("112233m 123p 789s 55z", "3m", False),
    ("234m 234m 234p 234s 88s", "8s", True),
    ("11223344556677p", "7p", False),
    ("123456789m 111z 22z", "2z", False),
]
# (dora indicators, ura indicators, honba, riichi sticks)
SITUATIONS = [((), (), 0, 0), (("1m",), ("3m",), 2, 1), (("1m", "3m", "8s"), (), 5, 0), (("1z", "4p"), ("1m",), 7, 3)]


def _score_or_reason(call):
    try:
        score = call()
    except NotAWin as exc:
        return str(exc)
    return score, score.explain


@pytest.mark.parametrize("ruleset", ["tenhou", "gensou-mahjong"])
def test_read_once_scored_in_any_situation_as_score(ruleset: str) -> None:
    scorer = Scorer.for_ruleset(load_ruleset(ruleset))
    checked = 0
    for text, tile, tsumo in HANDS:
        hand = scorer.mj.parse_hand(text)
        judged = Win(scorer.tile(tile), tsumo=tsumo, riichi=True, seat="S", discarder=None if tsumo else "E")
        try:
            read = scorer.read_win(hand, judged)
        except NotAWin:
            continue
        for dora, ura, honba, sticks in SITUATIONS:
            settled = judged.but(
                dora_indicators=scorer.tiles(" ".join(dora)),
                ura_indicators=scorer.tiles(" ".join(ura)),
                honba=honba,
                riichi_sticks=sticks,
            )
            expected = _score_or_reason(lambda: scorer.score(hand, settled))  # noqa: B023 - called at once
            assert _score_or_reason(lambda: scorer.score_read(read, settled)) == expected  # noqa: B023
            checked += 1
    assert checked >= 20
