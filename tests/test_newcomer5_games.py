"""Chinchón, Scala 40 and Okey 101, written from docs/ruleset-format.md alone by a fifth newcomer
(tests/data/rulesets/, their rules restated in chinchon.md, scala-40.md and okey-101.md): the
hand-worked queries, what the language grew for them (a first meld of so many melds,
``initial_meld.melds``; a winner's bonus only with no card kept, ``winner: {kept: none}``; a round
counted without pricing the melds), then all three against the independent brute force of
tests/newcomer5_brute.py on meld-built and dealt hands.

The default run deals a few hands a game; ``pytest -m slow`` deals hundreds.
"""

from __future__ import annotations

import json
import random

import newcomer5_brute as oracle
import pytest
from clirun import ROOT, batch, melded, run
from test_keys_everywhere import play, state

RULESETS = ROOT / "tests" / "data" / "rulesets"
CHINCHON = str(RULESETS / "chinchon.yaml")
SCALA = str(RULESETS / "scala-40.yaml")
OKEY = str(RULESETS / "okey-101.yaml")


# ---- Chinchón, worked by hand

CHINCHON_CHECKS = [
    # (cards, legal), with a joker in the deck: chinchon.md 4-6
    ("O7 O10 O11", True),  # the seven and the sota are neighbours
    ("O11 O12 O1", False),  # the rey is high only
    ("C5 E5 B5 O5", True),
    ("C5 E5 O6", False),
    ("O1 JK O3", True),  # JK as O2
    ("O12 JK JK", False),  # one joker in a deck of one
]

CHINCHON_TURNS = [
    # (eight cards, options, route or None, chinchón, least points kept): chinchon.md 9-12
    ("O1 O2 O3 O4 O5 O6 O7 C3", {}, "all-melded", True, 0),
    ("O4 O5 O6 O7 O10 O11 O12 C3", {}, "all-melded", True, 0),  # a chinchón through 7 and 10
    ("O1 O2 JK O4 O5 O6 O7 C3", {"jokers": 1}, "all-melded", False, 0),  # a joker: no chinchón
    ("O1 O2 O3 C4 E4 B4 C1 E12", {}, "close", False, 1),
    ("O1 O2 O3 C4 E4 B4 C5 E12", {}, "close", False, 5),  # five points kept: still closes
    ("O1 O2 O3 C4 E4 B4 C6 E12", {}, None, False, 6),  # six points kept: no close
    ("O1 C1 E1 B1 O2 C2 E2 B12", {}, "all-melded", False, 0),
    ("C10 E10 B10 O11 C11 E11 O2 O3", {}, "close", False, 2),
]


def test_chinchon_worked(tmp_path):
    checks = batch(tmp_path, "check", CHINCHON, [{"cards": c} for c, _ in CHINCHON_CHECKS], "-o", "jokers=1")
    assert [c.get("legal") for c in checks[:-1]] == [legal for _, legal in CHINCHON_CHECKS[:-1]]
    assert "error" in checks[-1] and "JK" in checks[-1]["error"]["message"]  # more jokers than the deck has
    unknown = run("check", "-r", CHINCHON, "O7", "O8", "O10")  # chinchon.md 1: no eights
    assert unknown.exit_code == 2 and "O8" in unknown.output
    lines = [{"hand": h, "options": o} for h, o, *_ in CHINCHON_TURNS]
    answers = batch(tmp_path, "solve", CHINCHON, lines)
    best = batch(tmp_path, "solve", CHINCHON, [{**line, "question": "best"} for line in lines])
    for (hand, _, route, chinchon, least), answer, turn in zip(CHINCHON_TURNS, answers, best, strict=True):
        brute = oracle.chinchon_turn(hand.split())
        assert (answer["route"] if answer["solvable"] else None) == route, hand
        assert answer["chinchon"] is chinchon is brute["chinchon"], hand
        assert answer["can_close"] is (route is not None) is brute["can_close"], hand
        assert turn["score"]["hand_points"] == least == brute["least"], hand
    far = json.loads(run("solve", "-r", CHINCHON, "--hand", CHINCHON_TURNS[5][0], "--distance", "--json").stdout)
    assert far["distance"] == 1  # C6 for C1 (or for C5): five points or fewer kept


def test_chinchon_scores(tmp_path):
    penalty = run("score", "-r", CHINCHON, "-o", "jokers=1", "--penalty", "C12", "E1", "O7", "JK", "--json")
    assert json.loads(penalty.stdout)["points"] == 10 + 1 + 7 + 25  # chinchon.md 12
    rounds = []
    for winner_hand, first in (("", "O1 O2 O3 O4"), ("C1", "O2 O3 O4")):
        path = tmp_path / f"round-{len(rounds)}.yaml"
        path.write_text(
            f"format: 1\nruleset: {CHINCHON}\nquestion: round\nround:\n  winner: A\n  players: [A, B]\n"
            f"  melds:\n    - {{owner: A, cards: {first}}}\n    - {{owner: A, cards: C5 E5 B5}}\n"
            f'  hands: {{A: "{winner_hand}", B: C12 E1 O7}}\n',
            encoding="utf-8",
        )
        rounds.append(json.loads(run("score", "-r", CHINCHON, "--round", str(path), "--json").stdout))
    # chinchon.md 10, 13: minus ten for closing with every card melded, each negated as a score
    assert [r["systems"][0]["payments"] for r in rounds] == [{"A": 10, "B": -18}, {"A": -1, "B": -18}]


# ---- Scala 40, worked by hand

SCALA_CHECKS = [
    # (cards, legal): scala-40.md 3-6
    ("SQ SK SA", True),
    ("SK SA S2", False),  # not round the corner
    ("SA S2 S3", True),
    ("S5 H5 S5", False),  # a set may not repeat a suit
    ("S5 H5 JK", True),
    ("S5 S6 JK JK", False),  # one joker a meld
    ("S5 H5 D5 C5 JK", False),  # a set of four at most
]

LOW_OPENING = "S2 S3 S4 H2 D2 C2 S2 H3 D3 C3 D4 C4 H4 HK"  # 9 + 8 + 9 + 12 = 38, HK discarded
SCALA_TURNS = [
    # (fourteen cards, has opened, goes out): scala-40.md 8, 9, 11
    ("SA S2 S3 H5 D5 C5 S9 S10 SJ DK CK HK H2 C7", False, False),  # H2 and C7 left: one discard only
    (LOW_OPENING, False, False),  # 38 points: no apertura
    (LOW_OPENING, True, True),
    ("SQ SK SA HQ HK HA DQ DK DA CQ CK CA JK S5", False, True),  # the joker as a jack
    ("SA S2 S3 S4 HA H2 H3 D2 D3 D4 C2 C3 JK H9", False, False),  # 10 + 6 + 9 + 9 (the joker as C4): 34
    ("S2 S3 S4 H2 H3 H4 D2 D3 D4 C2 C3 C4 JK HK", False, True),  # 36, and the joker as a five: 41
    ("SA HA DA CA S2 S3 JK H2 H3 H4 D5 D6 D7 H9", False, True),  # 44 for the aces as a set
    ("S4 S5 JK JK S8 H9 D9 C9 HQ DQ CQ SK HK DK", False, True),  # a joker each: S4 S5 JK, H9 D9 C9 JK
]


def test_scala_worked(tmp_path):
    checks = batch(tmp_path, "check", SCALA, [{"cards": c} for c, _ in SCALA_CHECKS])
    for (cards, legal), answer in zip(SCALA_CHECKS, checks, strict=True):
        assert answer["legal"] is legal is oracle.scala_meld(cards.split()), cards
    lines = [{"hand": h, "has_melded": opened} for h, opened, _ in SCALA_TURNS]
    answers = batch(tmp_path, "solve", SCALA, lines)
    for (hand, opened, out), answer in zip(SCALA_TURNS, answers, strict=True):
        assert answer["solvable"] is out is oracle.scala_goes_out(hand.split(), opened), hand
    assert answers[1]["why"]["first_meld"]["points"] == 40  # fails only the apertura's minimum
    penalty = json.loads(run("score", "-r", SCALA, "--penalty", "JK", "SA", "SK", "S7", "--json").stdout)
    assert penalty["points"] == 25 + 11 + 10 + 7  # scala-40.md 12
    far = json.loads(run("solve", "-r", SCALA, "--hand", SCALA_TURNS[0][0], "--distance", "--json").stdout)
    assert far["distance"] == 1  # H2 or C7 for a card that melds it


# ---- Okey 101, worked by hand

OKEY_CHECKS = [
    # (tiles, opening, legal), the indicator k5: the okey k6; okey-101.md 4-7, 10
    ("r12 r13 r1", "melds", False),  # no 12 13 1 in Okey 101
    ("r11 r12 r13", "melds", True),
    ("FJ k7 k8", "melds", True),  # the false joker as k6
    ("k6 r9 r10", "melds", True),  # the okey wild
    ("r5 y5 r5", "melds", False),
    ("r5 r5", "melds", False),  # no pairs on the sets-and-runs opening
    ("r5 r5", "pairs", True),
    ("r5 r6", "pairs", False),
    ("FJ k6", "pairs", True),  # the false joker is the tile k6
    ("r5 y5 b5", "pairs", False),  # a pairs opener lays only pairs
]

HIGH = "r13 y13 b13 k13 r12 y12 b12 r11 y11 b11 r10 y10 b10 r1 r2 r3 y1 y2 y3 b4 b5 b6"
LOW = "r1 r2 r3 y1 y2 y3 b1 b2 b3 k1 k2 k3 r4 r5 r6 y4 y5 y6 b4 b5 b6 k9"  # 69 points
PAIRS5 = "r1 r1 y2 y2 b3 b3 k4 k4 r9 r9 y11 b12 k13 r7 y8 b9 k10 r12 y13 b1 b2 k2"
PAIRS4 = "r1 r1 y2 y2 b3 b3 k4 k4 y11 b12 k13 r7 y8 b9 k10 r12 y13 b1 b2 k2 r3 r2"
PAIRS4_OKEY = "r1 r1 y2 y2 b3 b3 k4 k4 y11 b12 k13 r7 y8 b9 k10 r12 y13 b1 b2 k2 r3 k6"  # k6: a fifth pair


def test_a_repeated_suit_quotes_the_sets_rule():
    """A set of two S5s fails its distinct suits; the kind names no source for distinct:, so the
    reason quotes the set's own sentence (scala-40.md: a set may not hold two cards of one suit)."""
    data = json.loads(run("check", "-r", SCALA, "S5", "H5", "S5", "--json").output)
    (reason,) = data["reasons"]
    assert reason["code"] == "duplicate-identity" and "two cards of one suit" in reason["source"]["quote"]


def test_okey_101_worked(tmp_path):
    for opening in ("melds", "pairs"):
        rows = [(c, legal) for c, o, legal in OKEY_CHECKS if o == opening]
        lines = [{"cards": c, "indicator": "k5"} for c, _ in rows]
        checks = batch(tmp_path, "check", OKEY, lines, "-o", f"opening={opening}")
        assert [c["legal"] for c in checks] == [legal for _, legal in rows], opening
    turns = [(HIGH, False, True), (LOW, False, False), (LOW, True, True)]
    answers = batch(tmp_path, "solve", OKEY, [{"hand": h, "has_melded": m, "indicator": "k5"} for h, m, _ in turns])
    for (hand, opened, out), answer in zip(turns, answers, strict=True):
        assert answer["solvable"] is out is oracle.okey_opens(hand.split(), "k5", opened), hand
    assert answers[1]["why"]["first_meld"]["points"] == 101  # okey-101.md 9
    pairs = [PAIRS5, PAIRS4, PAIRS4_OKEY]
    best = batch(
        tmp_path,
        "solve",
        OKEY,
        [{"hand": h, "indicator": "k5", "question": "best", "options": {"opening": "pairs"}} for h in pairs],
    )
    for hand, answer in zip(pairs, best, strict=True):
        most = oracle.okey_most_pairs(hand.split(), "k5")
        assert len(answer["melds"]) == (most if most >= 5 else 0), hand  # okey-101.md 10: five pairs to open
    assert [len(a["melds"]) for a in best] == [5, 0, 5]


def test_okey_101_pairs_opening_moves():
    """melds move holds the first meld to five pairs, and names the rule it cites."""
    hand = PAIRS5
    s = state(OKEY, hand, hands={"A": hand, "B": 21}, indicator="k5", options={"opening": "pairs"})
    four = ["meld r1 r1", "meld y2 y2", "meld b3 b3", "meld k4 k4", "discard k13"]
    _, reasons, _ = play(s, four)
    assert [r["code"] for r in reasons] == ["initial-meld"] and "5 melds" in reasons[0]["message"]
    after, reasons, _ = play(s, [*four[:4], "meld r9 r9", "discard k13"])
    assert reasons == [] and after.flag("A", "melded")


@pytest.mark.parametrize("ruleset, claims", [(CHINCHON, 2), (SCALA, 3), (OKEY, 1)])
def test_audit_is_clean(ruleset, claims):
    data = json.loads(run("audit", ruleset, "--json").stdout)
    (audited,) = data["rulesets"]
    assert audited["claims_checked"] == audited["claims_agreeing"] == claims and data["findings"] == []
    (document,) = json.loads(run("audit", ruleset, "--coverage", "--json").stdout)["documents"]
    assert document["coverage"] == 1.0  # every rule-bearing sentence cited


# ---- what the language grew, refused where it cannot be meant


def write(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_check_and_score_batch_lines_take_their_own_options(tmp_path):
    """A check or score line's own "options" are merged over the command line's and its game is
    compiled for them (chinchon.md: jokers are an option, none by default); bad ones are refused by
    name, and a line without options keeps the command line's game."""
    lines = [
        {"cards": "O1 JK O3", "options": {"jokers": 1}},
        {"cards": "O1 JK O3"},
        {"cards": "O1 O2 O3", "options": {"jokers": "x"}},
        {"cards": "O1 O2 O3", "options": [1]},
    ]
    with_joker, without, bad_value, bad_type = batch(tmp_path, "check", CHINCHON, lines)
    assert with_joker["legal"] and [c["as"] for c in with_joker["cards"]] == ["O1", "O2", "O3"]
    assert "JK" in without["error"]["message"]  # no jokers in play: JK is no card of the deck
    assert bad_value["error"]["code"] == "bad-option" and "jokers" in bad_value["error"]["message"]
    assert bad_type["error"]["code"] == "bad-request" and '"options"' in bad_type["error"]["message"]
    (scored,) = batch(tmp_path, "score", CHINCHON, [{"cards": "O1 JK O3", "options": {"jokers": 1}}])
    assert "error" not in scored, scored


TONK = str(RULESETS / "tonk.yaml")


@pytest.mark.parametrize(
    "base, section, words",
    [
        (TONK, "initial_meld: {from: hand}", "points: N, melds: N or both"),
        ("rummikub", "initial_meld: {melds: 2}", "counts a first meld by points only"),
        (TONK, "round_scoring:\n  - {id: x, method: each-player, terms: [{add: 10, winner: {kept: some}}]}", "kept"),
    ],
)
def test_new_keys_refused_where_meaningless(tmp_path, base, section, words):
    path = write(tmp_path, "bad.yaml", f"format: 1\nextends: {base}\nid: bad\nname: bad\n{section}\n")
    result = (
        run("check", "-r", path, "r5", "r6", "r7") if base == "rummikub" else run("check", "-r", path, "S5", "S6", "S7")
    )
    assert result.exit_code == 2 and "bad.yaml" in result.output and words in result.output, result.output


# ---- against the brute force


def chinchon_hand(rng: random.Random, built: bool, jokers: int) -> list[str]:
    """Eight cards: dealt, or seven built of melds and one more, one then changed half the time."""
    deck = oracle.CHINCHON_DECK + ["JK"] * jokers
    if not built:
        return rng.sample(deck, 8)
    cards: list[str] = []
    for size in rng.choice([(3, 4), (7,), (3, 3), (4,), (5,)]):
        if size <= 4 and rng.random() < 0.5:
            rank = rng.choice(oracle.CHINCHON_ORDER)
            meld = [s + rank for s in rng.sample(oracle.CHINCHON_SUITS, size)]
        else:
            start, suit = rng.randrange(len(oracle.CHINCHON_ORDER) - size + 1), rng.choice(oracle.CHINCHON_SUITS)
            meld = [suit + r for r in oracle.CHINCHON_ORDER[start : start + size]]
        cards += [c for c in meld if c not in cards]
    rest = [c for c in deck if c not in cards]
    rng.shuffle(rest)
    cards = (cards + rest)[:8]
    if rng.random() < 0.5:
        cards[rng.randrange(8)] = rest[-1]
    return cards


def chinchon_against_brute(tmp_path, rng: random.Random, count: int) -> None:
    hands = [(chinchon_hand(rng, i % 3 != 0, i % 3), i % 3) for i in range(count)]
    lines = [{"hand": " ".join(h), "options": {"jokers": j}} for h, j in hands]
    answers = batch(tmp_path, "solve", CHINCHON, lines)
    best = batch(tmp_path, "solve", CHINCHON, [{**line, "question": "best"} for line in lines])
    for (hand, _), answer, turn in zip(hands, answers, best, strict=True):
        brute = oracle.chinchon_turn(hand)
        assert answer["solvable"] is brute["can_close"], hand
        assert (answer["all_melded"], answer["chinchon"]) == (brute["all_melded"], brute["chinchon"]), hand
        assert turn["score"]["hand_points"] == brute["least"], hand
        kept = turn["kept"]
        assert sum(oracle.chinchon_points(c) for c in kept) == brute["least"], hand


def scala_hand(rng: random.Random, built: bool) -> tuple[list[str], bool]:
    """Fourteen cards of the two decks and jokers: dealt, or built of melds (a joker now and then)
    and one card more, one then changed half the time; opened or not."""
    deck = list(oracle.SCALA_DECK)
    if built:
        cards: list[str] = []
        while len(cards) < 13:
            size = rng.choice([3, 3, 4, 5])
            if size <= 4 and rng.random() < 0.5:
                rank = rng.choice(oracle.SCALA_RANKS)
                meld = [s + rank for s in rng.sample(oracle.SCALA_SUITS, size)]
            else:
                order = oracle.SCALA.order
                start, suit = rng.randrange(len(order) - size + 1), rng.choice(oracle.SCALA_SUITS)
                meld = [suit + r for r in order[start : start + size]]
            if rng.random() < 0.3:
                meld[rng.randrange(size)] = "JK"
            for card in meld[: 13 - len(cards)]:
                card = card if card in deck else rng.choice(deck)
                deck.remove(card)
                cards.append(card)
        cards.append(deck.pop(rng.randrange(len(deck))))
        if rng.random() < 0.5:
            cards[rng.randrange(14)] = deck.pop(rng.randrange(len(deck)))
    else:
        cards = rng.sample(deck, 14)
    return cards, rng.random() < 0.3


def scala_against_brute(tmp_path, rng: random.Random, count: int) -> None:
    hands = [scala_hand(rng, built=i % 4 != 0) for i in range(count)]
    answers = batch(tmp_path, "solve", SCALA, [{"hand": " ".join(h), "has_melded": m} for h, m in hands])
    for (hand, opened), answer in zip(hands, answers, strict=True):
        assert answer["solvable"] is oracle.scala_goes_out(hand, opened), (hand, opened)
        if answer["solvable"]:
            assert all(oracle.scala_meld(m) for m in melded(answer)), answer["melds"]


def okey_hand(rng: random.Random, built: bool) -> tuple[list[str], str, bool]:
    """Twenty-two tiles: dealt, or built of sets and runs (high numbers half the time, so that the
    101 is near) with one tile more, one then changed half the time; an indicator; opened or not."""
    deck = list(oracle.OKEY_DECK)
    indicator = deck.pop(rng.randrange(len(deck) - 2))
    if built:
        cards: list[str] = []
        high = rng.random() < 0.5
        while len(cards) < 21:
            size = rng.choice([3, 3, 4, 5])
            if size <= 4 and rng.random() < 0.5:
                rank = str(rng.randrange(8 if high else 1, 14))
                meld = [s + rank for s in rng.sample(oracle.OKEY_SUITS, size)]
            else:
                start, suit = rng.randrange(13 - size + 1), rng.choice(oracle.OKEY_SUITS)
                meld = [suit + str(n) for n in range(start + 1, start + size + 1)]
            for card in meld[: 21 - len(cards)]:
                card = card if card in deck else rng.choice(deck)
                deck.remove(card)
                cards.append(card)
        cards.append(deck.pop(rng.randrange(len(deck))))
        if rng.random() < 0.5:
            cards[rng.randrange(22)] = deck.pop(rng.randrange(len(deck)))
    else:
        cards = rng.sample(deck, 22)
    return cards, indicator, rng.random() < 0.3


def okey_against_brute(tmp_path, rng: random.Random, count: int) -> None:
    hands = [okey_hand(rng, built=i % 4 != 0) for i in range(count)]
    lines = [{"hand": " ".join(h), "indicator": ind, "has_melded": m} for h, ind, m in hands]
    answers = batch(tmp_path, "solve", OKEY, lines)
    pairs = batch(
        tmp_path, "solve", OKEY, [{**line, "question": "best", "options": {"opening": "pairs"}} for line in lines]
    )
    for (hand, indicator, opened), answer, paired in zip(hands, answers, pairs, strict=True):
        assert answer["solvable"] is oracle.okey_opens(hand, indicator, opened), (hand, indicator, opened)
        most = oracle.okey_most_pairs(hand, indicator)
        assert len(paired["melds"]) == (most if opened or most >= 5 else 0), (hand, indicator, opened)


GAMES = [chinchon_against_brute, scala_against_brute, okey_against_brute]


@pytest.mark.parametrize("game", GAMES)
def test_against_brute_force(tmp_path, game):
    game(tmp_path, random.Random(46), 6)


@pytest.mark.slow
@pytest.mark.parametrize(
    "game, count", [(chinchon_against_brute, 300), (scala_against_brute, 300), (okey_against_brute, 200)]
)
def test_against_brute_force_more(tmp_path, game, count):
    game(tmp_path, random.Random(4646), count)
