"""The riichi-mahjong scorer and hand reader against the ``mahjong`` package, a test-only peer:
agari verdicts, waits, and han, fu and points on thousands of random hands where the two rule sets
coincide. The package's own tests are here alone, so that without it only these are skipped (the
rest of tests/test_mahjong.py and tests/test_riichi.py need nothing of it)."""

from __future__ import annotations

import random

import mahjong_oracle as oracle
import pytest
from riichi_package import package_waits, random_deal, tenhou
from test_mahjong import from34
from test_riichi import ALLOWED, assert_partition, names

from solver.core.registry import load_game
from solver.core.ruleset import load_ruleset
from solver.games.mahjong.hands import Mahjong
from solver.games.mahjong.scoring import NotAWin, Scorer, Win

package = pytest.importorskip("mahjong.hand_calculating.hand")
agari = pytest.importorskip("mahjong.agari")


@pytest.fixture(scope="module")
def sc() -> Scorer:
    return Scorer.for_ruleset(load_ruleset("gensou-mahjong"))


@pytest.fixture(scope="module")
def mj() -> Mahjong:
    return Mahjong(load_ruleset("gensou-mahjong"))


def test_scores_equal_the_mahjong_package_where_the_rules_coincide(sc):
    """Han, fu and total points on thousands of random winning hands, closed and open, tsumo and
    ron, every seat and round wind, with dora and red fives. The one difference met on random
    hands — 三連刻/四連刻, which the package does not know — is counted and tested on its own."""
    from mahjong.hand_calculating.hand_config import OptionalRules
    from riichi_package import package_inputs

    calculator = package.HandCalculator()
    options = OptionalRules(
        has_open_tanyao=True, has_aka_dora=True, has_double_yakuman=False, kiriage=False, fu_for_open_pinfu=False
    )
    rng = random.Random(2026)
    compared = open_hands = tsumo = renkou = yakuman = 0
    for n in range(3000):
        deal = random_deal(rng, allowed=ALLOWED[n % len(ALLOWED)])
        hand_text = deal.hand_string()
        hand = sc.mj.parse_hand(hand_text)
        win = Win(
            sc.tile(tenhou(deal.win)),
            tsumo=deal.tsumo,
            riichi=deal.riichi,
            seat=deal.seat,
            round_wind=deal.round_wind,
            dora_indicators=tuple(sc.tile(tenhou(t)) for t in deal.dora),
        )
        args, kwargs, total = package_inputs(deal, options)
        theirs = calculator.estimate_hand_value(*args, **kwargs)
        try:
            ours = sc.score(hand, win)
        except NotAWin:
            ours = None
        if ours is not None and {"sanrenkou", "suurenkou"} & {y.id for y in ours.yaku}:
            renkou += 1  # the document's yaku, unknown to the package
            continue
        assert (ours is None) == bool(theirs.error), (hand_text, theirs.error, ours and names(ours))
        if ours is None:
            continue
        assert_partition(sc, hand_text, ours)
        assert (ours.han, ours.fu, ours.points.total) == (theirs.han, theirs.fu, total(theirs.cost)), (
            hand_text,
            tenhou(deal.win),
            deal,
            names(ours),
            theirs.yaku,
        )
        compared += 1
        open_hands += not deal.closed
        tsumo += deal.tsumo
        yakuman += bool(ours.yakuman)
    assert compared >= 2000 and open_hands > 300 and tsumo > 800 and yakuman > 20 and renkou > 5


def _request(deal) -> dict:
    """A deal as a ``melds score --batch`` line: its hand in notation, its win's facts."""
    win = tenhou(deal.win, deal.win in deal.red and deal.concealed.count(deal.win) == 1)
    request = {
        "hand": deal.hand_string(),
        "win": win,
        "seat": deal.seat,
        "round": deal.round_wind,
        "dora_indicators": " ".join(tenhou(t) for t in deal.dora),
    }
    return {**request, **({"tsumo": True} if deal.tsumo else {}), **({"riichi": True} if deal.riichi else {})}


def _requests_agree_with_the_package(count: int, seed: int) -> int:
    from mahjong.hand_calculating.hand_config import OptionalRules
    from riichi_package import package_inputs

    game = load_game(load_ruleset("gensou-mahjong"))
    calculator = package.HandCalculator()
    options = OptionalRules(
        has_open_tanyao=True, has_aka_dora=True, has_double_yakuman=False, kiriage=False, fu_for_open_pinfu=False
    )
    rng, compared = random.Random(seed), 0
    for _ in range(count):
        deal = random_deal(rng)
        data = game.score(_request(deal)).data
        args, kwargs, total = package_inputs(deal, options)
        theirs = calculator.estimate_hand_value(*args, **kwargs)
        if {"sanrenkou", "suurenkou"} & {y["id"] for y in data["yaku"]}:
            continue  # the document's yaku, unknown to the package
        if data.get("winning") is False:  # no win, or no yaku
            assert theirs.error, (data["hand"], theirs.yaku)
            continue
        assert not theirs.error, (data["hand"], theirs.error)
        assert (data["han"], data["fu"], data["points"]["total"]) == (theirs.han, theirs.fu, total(theirs.cost)), (
            data["hand"],
            data["win"],
            [y["id"] for y in data["yaku"]],
            theirs.yaku,
        )
        compared += 1
    return compared


def test_requests_score_as_the_package_does():
    """Hands given as a batch line gives them — the hand in notation, the win's facts as keys —
    scored through the game's request path: the JSON's han, fu and points equal the package's."""
    assert _requests_agree_with_the_package(300, seed=41) > 150


@pytest.mark.slow
def test_requests_score_as_the_package_does_on_many_hands():
    assert _requests_agree_with_the_package(20000, seed=42) > 12000


def test_agari_verdicts_equal_the_mahjong_package(mj):
    rng = random.Random(64)
    checker = agari.Agari()
    checked = wins = 0
    for n in range(5000):
        counts = oracle.random_complete(rng) if n % 2 else oracle.random_hand(rng, 14)
        ours = mj.winning_counts(from34(mj, counts))
        assert ours == checker.is_agari(counts), counts
        checked += 1
        wins += ours
    assert checked == 5000 and 2500 <= wins < 5000


def test_agari_with_declared_melds_equals_the_mahjong_package(mj):
    rng = random.Random(65)
    checker = agari.Agari()
    for n in range(2000):
        declared = rng.choice([1, 2, 3, 4])
        counts = (
            oracle.random_complete(rng, melds=4 - declared) if n % 2 else oracle.random_hand(rng, 14 - 3 * declared)
        )
        assert mj.winning_counts(from34(mj, counts), declared) == checker.is_agari(counts), counts


def test_waits_equal_the_mahjong_package(mj):
    """Waits agree with 34 is_agari calls wherever the rules coincide: the package knows
    nothing of a fifth copy, so formal tenpai on a tile held four times is compared with the
    oracle instead."""
    rng = random.Random(66)
    checker = agari.Agari()
    tenpai = 0
    for n in range(3000):
        counts = oracle.near_complete(rng) if n % 2 else oracle.random_hand(rng, 13)
        ours = [oracle.index_of(*mj.identities[i]) for i in mj.waits_counts(from34(mj, counts))]
        theirs = package_waits(checker, counts)
        assert [t for t in ours if counts[t] < 4] == theirs, counts
        assert [t for t in ours if counts[t] == 4] == [t for t in oracle.waits(counts) if counts[t] == 4]
        tenpai += bool(ours)
    assert tenpai > 1000


# -- closed kans after riichi: the document's examples, decided by the tool -----------------------
