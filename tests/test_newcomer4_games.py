"""Conquian and Continental, written from docs/ruleset-format.md alone by a fourth newcomer
(tests/data/rulesets/, their rules restated from Pagat.com in conquian.md and continental.md): the
hand-worked queries, `melds move` along their rules, the audit of their claims, then both against
the independent brute force of tests/newcomer4_brute.py on meld-built and dealt hands — every
verdict equal, every way out melds shows re-checked by the brute force's own reading.

The default run deals a few hands a game; ``pytest -m slow`` deals hundreds.
"""

from __future__ import annotations

import json
import random

import newcomer4_brute as oracle
import pytest
from clirun import ROOT, batch, melded, run
from test_keys_everywhere import play, state

RULESETS = ROOT / "tests" / "data" / "rulesets"
CONQUIAN = str(RULESETS / "conquian.yaml")
CONTINENTAL = str(RULESETS / "continental.yaml")


# ---- hand-worked queries

CONQUIAN_TURNS = [
    # (ten cards in hand, the card taken, goes out): conquian.md 3, 4, 6, 7
    ("SA S2 S3 H4 D4 C4 S5 S6 S7 SJ", "SQ", True),  # 3 + 3 + 5: eleven melded
    ("H5 H6 H7 SA S2 S3 CK DK HK SK", "HJ", True),  # H5 H6 H7 HJ: the seven and the jack in a row
    ("SA S2 S3 H4 D4 C4 S5 S6 S7 HK", "SJ", False),  # ten melded and HK discarded: no way out
    ("SQ SK H4 D4 C4 D5 D6 D7 H2 H3", "SA", None),  # Q K A is no sequence: SA could not be taken
]


def test_conquian_worked(tmp_path):
    lines = [{"hand": f"{hand} {taken}", "claimed": taken} for hand, taken, _ in CONQUIAN_TURNS]
    answers = batch(tmp_path, "solve", CONQUIAN, lines)
    for (hand, taken, out), answer in zip(CONQUIAN_TURNS, answers, strict=True):
        assert answer.get("solvable") is out, hand
        assert bool(out) is oracle.conquian_goes_out(hand.split(), taken)
        if out:
            assert answer["discard"] is None and answer["route"] == "eleven"
    checks = batch(tmp_path, "check", CONQUIAN, [{"cards": c} for c in ("S6 S7 SJ", "SQ SK SA", "S7 S8 S9")])
    assert [c.get("legal") for c in checks] == [True, False, None]  # no eight in the deck: bad input
    assert "S8" in checks[2]["error"]["message"]


def test_conquian_distance_counts_swaps_to_eleven_cards_melded():
    """A way out with no discard: the target after the swaps melds all eleven cards (rule 7). HK and
    DQ fit no meld, and no one swap melds all eleven (every single swap tried here); two do."""
    hand = "SA S2 S3 H4 D4 C4 S5 S6 S7 HK DQ"
    result = run("solve", "-r", CONQUIAN, "--hand", hand, "--distance", "--json")
    answer = json.loads(result.stdout)
    target = answer["target"]
    assert result.exit_code == 1 and answer["distance"] == 2 == len(target["drawn"]) and target["discard"] is None
    new = target["hand"].split()
    assert oracle.conquian_goes_out(new[1:], new[0])
    cards = hand.split()
    deck = [s + r for s in "SHDC" for r in ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K")]
    swaps = [(out, inn) for out in cards for inn in deck if inn not in cards]
    assert not any(oracle.conquian_goes_out([c for c in cards if c != out], inn) for out, inn in swaps)
    refused = run("solve", "-r", CONQUIAN, "--hand", hand, "--claimed", "SQ", "--distance")
    assert refused.exit_code == 2 and "--claimed" in refused.output


CONTINENTAL_TURNS = [
    # (sixteen cards, the group of runs it goes out by, or None): continental.md 3, 4, 6, 7
    ("S3 S4 S5 H3 H4 H5 D3 D4 D5 C3 C4 C5 S9 S10 SJ HK", "threes"),
    ("S3 S4 S5 S6 H3 H4 H5 H6 D3 D4 D5 D6 C9 C10 CJ HK", "fours"),
    ("S3 S4 S5 S6 S7 H3 H4 H5 H6 H7 D3 D4 D5 D6 D7 HK", "fives"),
    ("S3 S4 S5 S6 H3 H4 H5 H6 H7 D3 D4 D5 D6 D7 D8 HK", None),  # runs of 4, 5, 6: no group
    ("S3 C2 S5 H3 H4 H5 D3 D4 D5 C3 C4 C5 S9 JK SJ HK", "threes"),  # a two and a joker wild
    ("H3 H4 H5 D3 D4 D5 C3 C4 C5 S9 S10 SJ S7 H7 D7 HK", None),  # S7 H7 D7 is no run
    ("SQ SK SA H3 H4 H5 D3 D4 D5 C3 C4 C5 S9 S10 SJ HK", "threes"),  # the ace high
]


def test_continental_worked(tmp_path):
    answers = batch(tmp_path, "solve", CONTINENTAL, [{"hand": h} for h, _ in CONTINENTAL_TURNS])
    for (hand, route), answer in zip(CONTINENTAL_TURNS, answers, strict=True):
        assert (answer.get("route") if answer["solvable"] else None) == route, hand
        assert (oracle.continental_goes_out(hand.split()) is not None) is (route is not None), hand
    best = batch(tmp_path, "solve", CONTINENTAL, [{"hand": CONTINENTAL_TURNS[3][0], "question": "best"}])[0]
    assert best["melds"] == []  # continental.md 6: nothing is melded but by the turn that goes out


def test_continental_hands_of_many_wilds_that_cannot_go_out(tmp_path):
    """Sixteen cards with four to six wilds: the answer agrees with the brute force on going out;
    a hand that cannot go out melds nothing (continental.md 6: nothing is melded but by the turn
    that goes out) and keeps every card but one discard; with two wilds or more every card fits a
    legal run (a natural and two wilds), so none is named as fitting no meld."""
    rng = random.Random(45)
    deck = [s + r for s in "SHDC" for r in ("A", *map(str, range(3, 11)), "J", "Q", "K")] * 2
    wilds = [s + "2" for s in "SHDC"] * 2 + ["JK", "JK"]
    hands = [rng.sample(wilds, rng.randint(4, 6)) for _ in range(6)]
    hands = [rng.sample(deck, 16 - len(w)) + w for w in hands]
    answers = batch(tmp_path, "solve", CONTINENTAL, [{"hand": " ".join(h)} for h in hands])
    for hand, answer in zip(hands, answers, strict=True):
        assert answer["solvable"] is (oracle.continental_goes_out(hand) is not None), hand
        if not answer["solvable"]:
            assert answer["melds"] == [] and answer["why"]["no_meld"] == [], hand
            assert sorted([*answer["kept"], answer["discard"]]) == sorted(hand)


def test_moves_along_their_rules():
    """`melds move` keeps the rules these rulesets state by their sections alone."""
    hand = "SA S2 S3 H4 D4 C4 S5 S6 S7 SJ SQ"  # Conquian: eleven melded, then no discard is left
    s = state(CONQUIAN, hand, hands={"A": hand, "B": 10}, taken="SQ")
    after, reasons, _ = play(s, ["meld SA S2 S3", "meld H4 D4 C4", "meld S5 S6 S7 SJ SQ"])
    assert reasons == [] and after.step == "over"
    _, reasons, _ = play(s, ["meld SA S2 S3", "meld H4 D4 C4", "meld S5 S6 S7 SJ", "discard SQ"])
    assert [r["code"] for r in reasons] == ["claimed-in-new-meld"]
    hand = "S3 S4 S5 H3 H4 H5 D3 D4 D5 C3 C4 C5 S9 S10 SJ HK"  # Continental: all at once, or nothing
    s = state(CONTINENTAL, hand, hands={"A": hand, "B": 15})
    _, reasons, _ = play(s, ["meld S3 S4 S5", "discard HK"])
    assert [r["code"] for r in reasons] == ["going-out-only"]
    melds = ["meld S3 S4 S5", "meld H3 H4 H5", "meld D3 D4 D5", "meld C3 C4 C5", "meld S9 S10 SJ", "discard HK"]
    after, reasons, _ = play(s, melds)
    assert reasons == [] and after.step == "over"


@pytest.mark.parametrize("ruleset", [CONQUIAN, pytest.param(CONTINENTAL, marks=pytest.mark.slow)])  # runs of 13: 3 s
def test_their_claims_agree(ruleset):
    data = json.loads(run("audit", ruleset, "--json").stdout)
    (audited,) = data["rulesets"]
    assert audited["claims_checked"] == audited["claims_agreeing"] == 2 and data["findings"] == []


# ---- against the brute force


def conquian_hand(rng: random.Random, built: bool) -> tuple[list[str], str]:
    """Eleven cards of the forty: dealt, or built of melds (and then one card changed, half the time)."""
    if not built:
        cards = rng.sample(oracle.CONQUIAN_DECK, 11)
    else:
        cards = []
        while len(cards) != 11:
            cards = []
            for size in rng.choice([(3, 3, 5), (3, 4, 4), (5, 6), (3, 8), (4, 7)]):
                if size <= 4 and rng.random() < 0.5:
                    rank = rng.choice(oracle.CONQUIAN_RANKS)
                    meld = [s + rank for s in rng.sample(oracle.SUITS, size)]
                else:
                    start, suit = rng.randrange(len(oracle.CONQUIAN_RANKS) - size + 1), rng.choice(oracle.SUITS)
                    meld = [suit + r for r in oracle.CONQUIAN_RANKS[start : start + size]]
                if set(meld) & set(cards):
                    break
                cards += meld
        if rng.random() < 0.5:
            cards[rng.randrange(11)] = rng.choice([c for c in oracle.CONQUIAN_DECK if c not in cards])
    taken = rng.choice(cards)
    hand = list(cards)
    hand.remove(taken)
    return hand, taken


def continental_hand(rng: random.Random, built: bool) -> list[str]:
    """Sixteen cards of the two decks: dealt, or a group of runs (some places wild) and one card more,
    one card then changed half the time."""
    deck = list(oracle.CONTINENTAL_DECK)
    if not built:
        return rng.sample(deck, 16)
    cards: list[str] = []
    for size in rng.choice(oracle.PATTERNS):
        start, suit = rng.randrange(len(oracle.ORDER) - size + 1), rng.choice(oracle.SUITS)
        for rank in oracle.ORDER[start : start + size]:
            wild = [c for c in deck if oracle.is_wild(c)]
            card = rng.choice(wild) if rng.random() < 0.1 and wild else suit + rank
            card = card if card in deck else rng.choice(deck)
            deck.remove(card)
            cards.append(card)
    cards.append(deck.pop(rng.randrange(len(deck))))
    if rng.random() < 0.5:
        cards[rng.randrange(16)] = deck.pop(rng.randrange(len(deck)))
    return cards


def conquian_against_brute(tmp_path, rng: random.Random, count: int) -> None:
    hands = [conquian_hand(rng, built=i % 3 != 0) for i in range(count)]
    answers = batch(tmp_path, "solve", CONQUIAN, [{"hand": " ".join([*h, t]), "claimed": t} for h, t in hands])
    for (hand, taken), answer in zip(hands, answers, strict=True):
        expected = oracle.conquian_goes_out(hand, taken)
        if "error" in answer:  # the card taken fits no meld with the hand: it could not be taken
            assert "could not be claimed" in answer["error"]["message"] and not expected, (hand, taken)
            continue
        assert answer["solvable"] is expected, (hand, taken)
        if expected:  # every card in a meld the brute force reads as one, none discarded
            assert answer["discard"] is None and all(oracle.conquian_meld(m) for m in melded(answer))
            assert sorted(c for m in melded(answer) for c in m) == sorted([*hand, taken])


def continental_against_brute(tmp_path, rng: random.Random, count: int) -> None:
    hands = [continental_hand(rng, built=i % 3 != 0) for i in range(count)]
    answers = batch(tmp_path, "solve", CONTINENTAL, [{"hand": " ".join(h)} for h in hands])
    for hand, answer in zip(hands, answers, strict=True):
        expected = oracle.continental_goes_out(hand)
        assert answer["solvable"] is (expected is not None), hand
        if expected:
            runs = melded(answer)
            assert all(oracle.continental_run(r) for r in runs), runs
            assert sorted(len(r) for r in runs) in [sorted(p) for p in oracle.PATTERNS]
            assert sorted([*(c for r in runs for c in r), answer["discard"]]) == sorted(hand)


@pytest.mark.parametrize("game", [conquian_against_brute, continental_against_brute])
def test_against_brute_force(tmp_path, game):
    game(tmp_path, random.Random(46), 6)


@pytest.mark.slow
@pytest.mark.parametrize("game, count", [(conquian_against_brute, 300), (continental_against_brute, 150)])
def test_against_brute_force_more(tmp_path, game, count):
    game(tmp_path, random.Random(4646), count)
