"""Fesca's go-out verdict (``melds solve -r fesca``), ``--distance`` and ``--discards`` against the
independent oracle of tests/fesca_oracle.py (no table, a normal turn), on dealt hands in 陽場 and
陰場: hands of 五行 cards, and hands whose melds have wild cards in them (陰陽 as SW, 空無 as RW or
ZAT, 太極 as GW) beside wilds dealt loose. Every hand melds says goes out is re-checked: its melds
are legal to the oracle, and with the discard they are the hand. A distance is bounded both ways
(tests/test_distance.py's check): the target melds shows goes out by the oracle, and no swap of
fewer cards does, tried to one swap (every draw of the 78-card deck); a discard table's rows of
distance 1 are the oracle's, draw for draw, and no other row's discard lets one draw go out."""

from __future__ import annotations

import json
import random
from collections import Counter

import distance_oracle
import fesca_oracle
import pytest
from clirun import run
from test_distance import recheck_target

SUITS = fesca_oracle.SUITS
DECK = [s + str(r) for s in SUITS for r in range(1, 13)]


def _meld(rng: random.Random, phase: str) -> list[str]:
    """A random set, run or chain (in either phase's cycle: the other phase's are near misses)."""
    rank = rng.randint(1, 10)
    kind = rng.choice(["set", "run", "chain"])
    if kind == "set":
        return [s + str(rank) for s in rng.sample(SUITS, rng.choice([3, 4]))]
    size = rng.choice([3, 4])
    if kind == "run":
        suit = rng.choice(SUITS)
        return [suit + str(r) for r in range(rank, min(rank + size, 13))]
    cycle = fesca_oracle.CYCLES[rng.choice(["yang", "yin"])]
    step, at = rng.choice([1, -1]), rng.randrange(5)
    return [cycle[(at + step * i) % 5] + str(rank + i) for i in range(size) if rank + i <= 12]


def _deals(hands: int, seed: int) -> list[dict]:
    """Hands of two or three random melds and a card, half of them with one card swapped for another."""
    rng = random.Random(seed)
    lines: list[dict] = []
    while len(lines) < hands:
        phase = rng.choice(["yang", "yin"])
        cards = [c for _ in range(rng.choice([2, 3])) for c in _meld(rng, phase)] + [rng.choice(DECK)]
        if rng.random() < 0.5:
            cards[rng.randrange(len(cards))] = rng.choice(DECK)
        if len(set(cards)) == len(cards):  # one copy of each card
            lines.append({"hand": " ".join(cards), "phase": phase})
    return lines


def _wild_meld(rng: random.Random) -> list[str]:
    """A random set, run (through ZAT, 空無, now and then), chain or 陰陽 run, its cards natural."""
    kind, rank, size = rng.choice(["set", "run", "chain", "yinyang"]), rng.randint(1, 10), rng.choice([3, 4, 5])
    if kind == "set":
        return [s + str(rank) for s in rng.sample(SUITS, size)]
    if kind == "yinyang":
        return ["陰陽" + str(r) for r in range(rank, min(rank + size - 1, 13))]
    order = fesca_oracle.CYCLES[rng.choice(["yang", "yin"])] if kind == "chain" else (rng.choice(SUITS),) * 5
    step, at, start = rng.choice([1, -1]), rng.randrange(5), rng.randint(0, 12)
    places = [((start + i) % 13, order[(at + step * i) % 5]) for i in range(size)]
    return [suit + str(place) if place else "空無" + suit for place, suit in places]


def _wild_for(text: str, rng: random.Random) -> str:
    """A wild that may stand for the card: 太極, or the 陰陽 of its rank, or the 空無 of its suit."""
    c = fesca_oracle.card(text)
    return rng.choice(["太極", f"陰陽{c.rank}", f"空無{c.suit}"] if c.cls == fesca_oracle.GOGYO else ["太極"])


def wild_deals(
    hands: int, seed: int, melds: tuple[int, ...] = (2, 3), phases: tuple[str | None, ...] = ("yang", "yin")
) -> list[dict]:
    """Hands of random melds with one or two cards made wild and a loose card (any of the 78), half
    of them with one card swapped for another; a phase of ``phases`` each (None: no phase given)."""
    rng = random.Random(seed)
    lines: list[dict] = []
    while len(lines) < hands:
        cards = [c for _ in range(rng.choice(melds)) for c in _wild_meld(rng)]
        for _ in range(rng.choice([1, 2])):
            at = rng.randrange(len(cards))
            cards[at] = _wild_for(cards[at], rng)
        cards.append(rng.choice(fesca_oracle.DECK))
        if rng.random() < 0.5:
            cards[rng.randrange(len(cards))] = rng.choice(fesca_oracle.DECK)
        if len(set(cards)) == len(cards):  # one copy of each card
            phase = rng.choice(phases)
            lines.append({"hand": " ".join(cards), **({"phase": phase} if phase else {})})
    return lines


def _answers(lines: list[dict]) -> list[dict]:
    result = run("solve", "-r", "fesca", "--batch", "-", input="\n".join(json.dumps(line) for line in lines))
    answers = [json.loads(text) for text in result.stdout.splitlines() if text.startswith("{")]
    assert len(answers) == len(lines) and all("error" not in a for a in answers), result.output
    return answers


def check_verdicts(lines: list[dict]) -> Counter[bool]:
    """melds' verdict on each hand is the oracle's; the verdicts seen. A hand with no phase given
    goes out with its melds all legal in one phase."""
    seen: Counter[bool] = Counter()
    for line, answer in zip(lines, _answers(lines), strict=True):
        hand = line["hand"].split()
        expected = fesca_oracle.goes_out(hand, line.get("phase"))
        assert answer["solvable"] is expected, (line, answer)
        seen[expected] += 1
        if expected:
            placed = [c["card"] for meld in answer["melds"] for c in meld["cards"]] + [answer["discard"]]
            assert Counter(placed) == Counter(hand), (line, answer)
            melds = [[c["card"] for c in meld["cards"]] for meld in answer["melds"]]
            phases = [line["phase"]] if "phase" in line else list(fesca_oracle.CYCLES)
            assert any(all(fesca_oracle.meld_problem(m, p) is None for m in melds) for p in phases), (line, answer)
    return seen


def test_go_out_against_the_oracle() -> None:
    seen = check_verdicts(_deals(8, 47))
    assert seen[True] and seen[False]


def test_go_out_with_wilds_against_the_oracle() -> None:
    seen = check_verdicts(wild_deals(10, 4701))
    assert seen[True] and seen[False]


@pytest.mark.slow
def test_go_out_against_the_oracle_many() -> None:
    seen = check_verdicts(_deals(2000, 4747))
    assert seen[True] >= 100 and seen[False] >= 100


@pytest.mark.slow
def test_go_out_with_wilds_against_the_oracle_many() -> None:
    seen = check_verdicts(wild_deals(2000, 474701, phases=("yang", "yin", "none", None)))
    assert seen[True] >= 100 and seen[False] >= 100


def _wild_groups(count: int, seed: int) -> list[dict]:
    """Groups of cards to judge as one meld: wilds alone, six of a rank (陰陽 among them), long runs
    through ZAT, and random melds with one to three cards made wild, a wild added or a card left out."""
    rng = random.Random(seed)
    wilds = [c for c in fesca_oracle.DECK if fesca_oracle.card(c).cls != fesca_oracle.GOGYO]
    lines: list[dict] = []
    while len(lines) < count:
        mode = rng.random()
        if mode < 0.15:
            cards = rng.sample(wilds, rng.randint(2, 4))
        elif mode < 0.3:
            rank = rng.randint(1, 12)
            cards = [s + str(rank) for s in SUITS] + [f"陰陽{rank}"]
            for _ in range(rng.randint(0, 2)):
                cards[rng.randrange(6)] = rng.choice(["太極"] + [f"空無{s}" for s in SUITS])
        else:
            cards = _wild_meld(rng)
            for _ in range(rng.randint(1, 3)):
                at = rng.randrange(len(cards))
                cards[at] = _wild_for(cards[at], rng) if not cards[at].startswith("空無") else cards[at]
            if rng.random() < 0.2:
                cards.append(rng.choice(wilds))
            if rng.random() < 0.2:
                cards.pop(rng.randrange(len(cards)))
        if len(set(cards)) == len(cards) >= 2:
            lines.append({"cards": " ".join(cards), "phase": rng.choice(["yang", "yin"])})
    return lines


@pytest.mark.slow
def test_meld_verdicts_with_wilds_against_the_oracle_many() -> None:
    """``melds check --batch`` on groups with wilds: legal exactly when the oracle reads one meld."""
    lines = _wild_groups(2000, 4704)
    result = run("check", "-r", "fesca", "--batch", "-", input="\n".join(json.dumps(line) for line in lines))
    answers = [json.loads(text) for text in result.stdout.splitlines() if text.startswith("{")]
    assert len(answers) == len(lines), result.output
    seen: Counter[bool] = Counter()
    for line, answer in zip(lines, answers, strict=True):
        expected = fesca_oracle.meld_problem(line["cards"].split(), line["phase"]) is None
        assert answer["legal"] is expected, (line, answer)
        seen[expected] += 1
    assert seen[True] >= 500 and seen[False] >= 500


def test_the_oracle_reads_the_document_examples() -> None:
    """Cases the document states: 12 and 1 do not join; a 相生 chain in 陽場 only; five at most."""
    assert fesca_oracle.meld_problem(["木3", "木4", "木5"], "yang") is None  # 木の3連順
    assert fesca_oracle.meld_problem(["木12", "木1", "木2"], "yang") is not None
    assert fesca_oracle.meld_problem(["木1", "火2", "土3"], "yang") is None  # 相生昇順
    assert fesca_oracle.meld_problem(["土1", "火2", "木3"], "yang") is None  # 相生降順
    assert fesca_oracle.meld_problem(["木1", "火2", "土3"], "yin") is not None
    assert fesca_oracle.meld_problem(["水1", "火2", "金3", "木4", "土5"], "yin") is None  # 相克昇順
    assert fesca_oracle.meld_problem(["金1", "水2", "木3", "火4", "土5", "金6"], "yang") is not None
    assert fesca_oracle.goes_out(["木1", "火2", "土3", "金4", "水5", "土9", "金9", "水9"], "yang")


@pytest.mark.parametrize(
    ("cards", "phase", "legal"),
    [
        ("木5 火5 陰陽5", None, True),  # SWを含む 3 枚組
        ("木5 火5 空無土", None, True),  # RWを含む 3 枚組
        ("空無木 空無火", None, True),  # 空無のみは 2 枚組から可
        ("木5 火5 土5 金5 水5 陰陽5", None, True),  # 6 枚組 (陰陽札は第 6 の陰陽スート扱い)
        ("木5 火5 土5 金5 陰陽5 太極", None, True),
        ("木5 火5 空無木", None, False),  # に化けると 本物と被る!
        ("陰陽6 空無木 太極", None, False),  # 6,6,6か4,5,6か?
        ("土3 空無土 土5", None, True),  # RWを含む土の 3 連順
        ("木11 木12 空無木 木1 木2", None, True),  # ZATを介して12と1を繋ぐ
        ("木11 木12 木1", None, False),  # 12と1は繋がらない
        ("木11 木12 太極 木1", None, False),  # 太極 is no ZAT (its ranks 1-12)
        ("水1 空無水 水3 陰陽4 水5", None, True),  # SWとRWを含む水の 5 連順
        ("陰陽3 陰陽4", None, True),  # 陰陽札のみは 2 枚の順より可
        ("陰陽4 太極", None, False),  # 4,4か4,5か?
        ("陰陽3 空無木 木5", None, True),  # RWを含むとSW扱い
        ("陰陽3 太極 陰陽5", None, True),  # GWは陰陽札のRW扱い
        (" ".join([f"木{r}" for r in range(1, 13)] + ["空無木"]), None, True),  # 最長はZATを含む13連順
        ("土4 陰陽5 太極", "yang", False),  # 順と相順の区別がつかない
        ("水8 火9 陰陽10 木11 土12", "yin", True),  # 陰陽10はワイルドカード扱い
        ("陰陽9 水10 木11 火12 空無土", "yang", True),  # 空無土はRWではなくZAT扱い
        ("空無土 水1 火2 金3 木4", "yin", True),  # ZAT連結で (a 相克 chain from ZAT)
        ("空無土 水1 火2 金3 木4", "yang", False),
    ],
)
def test_the_oracle_reads_the_wild_examples(cards: str, phase: str | None, legal: bool) -> None:
    """The document's meld examples with wilds (their pictures lost: the cards of rulesets/fesca.yaml's
    claims, which fit the captions), and what the roles' ranks leave out."""
    assert (fesca_oracle.meld_problem(cards.split(), phase) is None) is legal


def check_distances(lines: list[dict], depth: int = 1) -> Counter[int | None]:
    """melds' distance of each hand, bounded both ways to ``depth`` swaps (its target re-checked
    from above; from below, no way out with fewer swaps, looking ``depth`` deep: the floor that
    skips bounds without asking the solver must never overshoot); the distances seen."""
    seen: Counter[int | None] = Counter()
    for line, answer in zip(lines, _answers([{**line, "distance": True} for line in lines]), strict=True):
        g = distance_oracle.game("fesca", line["phase"])
        hand = line["hand"].split()
        found = answer["distance"]
        seen[found] += 1
        if found is not None:
            recheck_target(g, hand, answer)
        below = depth if found is None else min(found - 1, depth)
        assert distance_oracle.distance(g, hand, distance_oracle.left_of(g, hand), below) is None, (line, answer)
    return seen


def check_discards(lines: list[dict]) -> None:
    """melds' discard table of each hand: the rows of distance 1 are the oracle's (the discard, one
    draw, out), and no other row's discard goes out after one draw."""
    for line, answer in zip(lines, _answers([{**line, "discards": True} for line in lines]), strict=True):
        g = distance_oracle.game("fesca", line["phase"])
        hand = line["hand"].split()
        left = distance_oracle.left_of(g, hand)
        assert {row["discard"] for row in answer["discards"]} == set(hand), answer
        for row in answer["discards"]:
            expected = distance_oracle.discard_row(g, hand, left, row["discard"], 1)
            if row["distance"] == 1:
                assert expected is not None and expected[0] == 1, (line, row, expected)
                assert set(expected[1]) == {d["card"] for d in row["draws"]}, (line, row, expected)
                assert all(d["left"] == 1 for d in row["draws"]), row
            else:
                assert expected is None, (line, row, expected)


def test_distance_with_wilds_against_the_oracle() -> None:
    seen = check_distances(wild_deals(2, 4704, melds=(2,)))  # two hands of seven: out now, one swap away
    assert seen == Counter({0: 1, 1: 1})


@pytest.mark.slow
def test_distance_against_the_oracle_many() -> None:
    seen = check_distances(_deals(60, 474747))
    assert seen[0] and seen[1]


@pytest.mark.slow
def test_distance_with_wilds_against_the_oracle_many() -> None:
    seen = check_distances(wild_deals(200, 474702, melds=(2,)))
    assert seen[0] and seen[1] and seen[2]


@pytest.mark.slow
def test_discards_with_wilds_against_the_oracle() -> None:
    check_discards([{"hand": "木3 木4 陰陽5 空無火 火7 水1", "phase": "yang"}, *wild_deals(2, 4703, melds=(1,))])


@pytest.mark.slow
def test_distance_of_dealt_hands_against_the_oracle_to_two_swaps() -> None:
    """Hands of four and five cards dealt from the 78 (wilds as they come), and hands of six
    natural cards of six ranks (most of them three swaps away), both phases."""
    rng = random.Random(4747)
    lines = [
        {"hand": " ".join(rng.sample(fesca_oracle.DECK, rng.choice([4, 5]))), "phase": rng.choice(["yang", "yin"])}
        for _ in range(12)
    ]
    spread = random.Random(4748)
    for _ in range(4):
        hand = [spread.choice(SUITS) + str(rank) for rank in spread.sample(range(1, 13), 6)]
        lines.append({"hand": " ".join(hand), "phase": spread.choice(["yang", "yin"])})
    seen = check_distances(lines, depth=2)
    assert seen[1] and seen[2] and seen[3], seen
