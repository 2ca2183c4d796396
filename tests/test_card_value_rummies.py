"""Two rummies written from docs/ruleset-format.md alone, whose melds count card values
(tests/data/rulesets/): Rummy 500 (``score: {count: card_points}``, an ace 1 at a run's low end)
and Kalooki (``initial_meld: {counts: card_points}`` on a turn that does not rearrange the table).
Hand-worked queries first, then both against the independent brute force of
tests/cardvalue_brute.py on dealt and meld-built hands: every verdict and figure equal, and every
meld melds shows re-checked by the brute force's own reading of it.

The default run deals a dozen hands a game; ``pytest -m slow`` deals hundreds.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import cardvalue_brute as oracle
import pytest
from clirun import ROOT, run

RULESETS = ROOT / "tests" / "data" / "rulesets"
RUMMY_500 = str(RULESETS / "rummy-500.yaml")
KALOOKI = str(RULESETS / "kalooki.yaml")
DEFAULT, SLOW = 6, 300
CARDS = [s + r for s in oracle.SUITS for r in oracle.RANKS]


def batch(tmp_path, ruleset: str, lines: list[dict], name: str) -> list[dict]:
    path = tmp_path / f"{name}.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    result = run("solve", "-r", ruleset, "--batch", str(path))
    answers = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert len(answers) == len(lines)
    return answers


# ---- hand-worked queries (one batch a game)

RUMMY_500_WORKED = [
    # (hand, meld points, hand points): worked out card by card from rummy-500.md 7 and 8
    ("SA S2 S3 HQ HK HA D5 C5 H5 S9 C9 D9 H2 C7", 83, 2),  # 1+2+3, 10+10+15, 15, 27; keep H2, discard C7
    ("SA S2 S3 HA DA C9", 45, 5),  # three aces (45) beat A 2 3 (6): keep S2 S3, discard C9
    ("SQ SK SA D4", 35, 0),  # Q K A: the ace high counts 15
    ("H7 H8 H9 H10 C2 C3", 34, 2),  # one run of four; C2 kept, C3 discarded
    ("S5 D5 H5 C5 SK", 20, 0),  # a set of four, the king discarded
]


def test_rummy_500_worked(tmp_path):
    lines = [{"hand": hand, "best": True} for hand, _, _ in RUMMY_500_WORKED]
    for (hand, melded, kept), answer in zip(RUMMY_500_WORKED, batch(tmp_path, RUMMY_500, lines, "r500"), strict=True):
        assert (answer["score"]["meld_points"], answer["score"]["hand_points"]) == (melded, kept), hand


def test_rummy_500_lay_off_earns_on_anyones_meld(tmp_path):
    line = {"hand": "D9 D10 C4", "table": ["them: D6 D7 D8"], "best": True}
    [answer] = batch(tmp_path, RUMMY_500, [line], "layoff")
    assert answer["solvable"] and answer["score"]["meld_points"] == 19  # D9 and D10 laid off: 9 + 10
    assert answer["layoffs"][0]["added"] == ["D9", "D10"]


KALOOKI_WORKED = [
    # (hand, table, has melded, goes out): the first meld counted from rummy-500.md's Kalooki 7 and 8
    ("S4 S5 S6 H9 D9 C9 C2", [], False, True),  # 15 + 27 = 42
    ("S4 S5 S6 H3 D3 C3 C2", [], False, False),  # 15 + 9 = 24 < 40
    ("S4 S5 S6 H3 D3 C3 C2", [], True, True),  # melded already: no minimum
    ("S9 S10 JK H4 D4 C4 C2", [], False, True),  # the joker as SJ: 29 + 12 = 41 (as S8 only 39)
    ("S9 S10 JK H3 D3 C3 C2", [], False, False),  # 29 + 9 = 38
    ("SA S2 S3 HA DA CA C2", [], False, False),  # A 2 3 counts 6 (the ace low): 6 + 33 = 39
    ("HQ HK HA SJ DJ CJ C2", [], False, True),  # Q K A with the ace high: 31 + 30
    ("S3 S4 S5 C2", ["them: H7 H8 H9"], True, True),
    ("HJ H10 C2", ["them: H7 H8 H9"], False, False),  # no lay-off before one's own melds
    ("HJ H10 C2", ["them: H7 H8 H9", "me: S5 S6 S7"], False, True),  # a meld of one's own: melded
    ("S4 S5 S7 H3 D3 C9 C2", [], False, False),
]


def test_kalooki_worked(tmp_path):
    lines = [{"hand": h, "table": t, "has_melded": m} for h, t, m, _ in KALOOKI_WORKED]
    answers = batch(tmp_path, KALOOKI, lines, "kalooki")
    for (hand, _, _, out), answer in zip(KALOOKI_WORKED, answers, strict=True):
        assert answer["solvable"] is out, hand
    why = answers[4]["why"]  # the joker counts 10 at most: 38, the first meld's minimum is what fails
    assert why["first_meld"]["points"] == 40 and why["first_meld"]["counts"] == "card_points"
    assert "first_meld" in answers[1]["why"]  # 24: melded already, the hand goes out (answers[2])
    assert "first_meld" not in answers[-1]["why"]  # no melds at all: the minimum is not what fails


# ---- against the brute force


def _built(rng: random.Random, left: list[str], jokers: int) -> list[str]:
    """A set or a run taken from the cards left, a card of it perhaps a joker."""
    if rng.random() < 0.5:
        rank = rng.choice(oracle.RANKS)
        meld = [s + rank for s in rng.sample(oracle.SUITS, rng.choice((3, 3, 4)))]
    else:
        size, suit = rng.choice((3, 3, 4)), rng.choice(oracle.SUITS)
        start = rng.randrange(0, len(oracle.ORDER) - size + 1)
        meld = [suit + r for r in oracle.ORDER[start : start + size]]
    if jokers and rng.random() < 0.5:
        meld[rng.randrange(len(meld))] = "JK"
    return meld


def hands(seed: int, count: int, size: int, deck: list[str], jokers: int) -> list[list[str]]:
    rng = random.Random(seed)
    out = []
    for i in range(count):
        left = list(deck)
        rng.shuffle(left)
        hand: list[str] = []
        while i % 3 and len(hand) < size - 2:
            meld = _built(rng, left, jokers - Counter(hand)["JK"])
            if all(Counter(left)[c] >= k for c, k in Counter(meld).items()):
                for c in meld:
                    left.remove(c)
                hand += meld
        hand = hand[: size - 1]
        while len(hand) < size:
            card = left.pop()
            if card != "JK" or Counter(hand)["JK"] < jokers:
                hand.append(card)
        out.append(hand)
    return out


def check_rummy_500(tmp_path, count: int, seed: int) -> None:
    dealt = hands(seed, count, 8, CARDS, 0)
    answers = batch(tmp_path, RUMMY_500, [{"hand": " ".join(h), "best": True} for h in dealt], "r500-brute")
    for hand, answer in zip(dealt, answers, strict=True):
        figures = (answer["score"]["meld_points"], answer["score"]["hand_points"])
        assert figures == oracle.rummy500_best(hand), hand
        melded = [[c["card"] for c in m["cards"]] for m in answer["melds"]]
        worth = [oracle.meld_worth(tuple(sorted(m)), 15) for m in melded]
        assert None not in worth and sum(w or 0 for w in worth) == figures[0], (hand, melded)
        used = Counter(c for m in melded for c in m) + Counter([answer["discard"]] if answer["discard"] else [])
        assert not used - Counter(hand), hand


def check_kalooki(tmp_path, count: int, seed: int) -> None:
    deck = CARDS * 2 + ["JK"] * 4
    dealt = hands(seed, count, 8, deck, 2)
    answers = batch(tmp_path, KALOOKI, [{"hand": " ".join(h)} for h in dealt], "kalooki-brute")
    for hand, answer in zip(dealt, answers, strict=True):
        assert answer["solvable"] is oracle.kalooki_goes_out(hand), hand
        if answer["solvable"]:
            melded = [[c["card"] for c in m["cards"]] for m in answer["melds"]]
            worth = [oracle.kalooki_meld_ok(m) for m in melded]
            assert None not in worth and sum(w or 0 for w in worth) >= 40, (hand, melded)
            assert Counter(c for m in melded for c in m) + Counter([answer["discard"]]) == Counter(hand), hand


@pytest.mark.parametrize(
    "check,count,seed",
    [
        (check_rummy_500, DEFAULT, 1),
        (check_kalooki, DEFAULT, 2),
        pytest.param(check_rummy_500, SLOW, 11, marks=pytest.mark.slow),
        pytest.param(check_kalooki, SLOW, 12, marks=pytest.mark.slow),
    ],
    ids=["rummy-500", "kalooki", "rummy-500-many", "kalooki-many"],
)
def test_against_brute_force(tmp_path, check, count, seed):
    check(tmp_path, count, seed)


# ---- two more rummies written as a newcomer: what they say is answered, what they cannot is refused

TONK = str(RULESETS / "tonk.yaml")
OKLAHOMA = str(RULESETS / "oklahoma-gin.yaml")


def test_tonk_and_oklahoma_gin_worked(tmp_path):
    tonk = [
        ({"hand": "H4 H5 H6 D6", "table": ["them: C7 D7 S7"]}, True),  # a run, D6 discarded
        ({"hand": "SA S2 S3 H7 D9 C4"}, False),  # A 2 3 melds; three cards left
        ({"hand": "SQ SK SA D4"}, False),  # the ace is low only
        ({"hand": "H9 H10 C2", "table": ["them: H6 H7 H8"]}, True),  # both hit the run, C2 discarded
    ]
    lines = [q for q, _ in tonk] + [{"hand": "SK HK C2 D5 H9 S4", "best": True}]
    *answers, best = batch(tmp_path, TONK, lines, "tonk")
    for (line, out), answer in zip(tonk, answers, strict=True):
        assert answer["solvable"] is out, line
    assert best["score"]["hand_points"] == 30 and best["discard"] == "SK"  # 10 + 2 + 5 + 9 + 4
    ten = "S2 S3 S4 H5 H6 H7 D9 C9 S9 C3"  # deadwood C3: 3
    oklahoma = [({"hand": ten, "options": {"knock-limit": n}}, n >= 3) for n in (0, 2, 3, 7)]
    answers = batch(tmp_path, OKLAHOMA, [q for q, _ in oklahoma], "oklahoma")
    for (line, out), answer in zip(oklahoma, answers, strict=True):
        assert answer["solvable"] is out and answer["deadwood"] == 3, line


def refusal(tmp_path, base: str, body: str) -> dict:
    """The error JSON of a check under a variant of ``base`` with ``body`` laid over it (exit 2)."""
    path = tmp_path / "variant.yaml"
    path.write_text(f"format: 1\nextends: {base}\nid: variant\nname: variant\n" + body, encoding="utf-8")
    result = run("check", "-r", str(path), "SA", "S2", "S3", "--json")
    assert result.exit_code == 2, result.output
    return json.loads(result.stdout)["error"]


@pytest.mark.parametrize(
    "base,body,key",
    [
        (  # Tonk's instant win on a dealt 49 or 50: a hand's value has an upper limit only
            "tonk.yaml",
            "going_out:\n  - id: instant\n    all_cards: false\n    requires:\n      - hand_points: {at_least: 49}\n",
            "hand_points",
        ),
        (  # Oklahoma Gin's knock limit as the upcard itself: a number is an option's, not a chosen card's
            "oklahoma-gin.yaml",
            "going_out:\n  - id: knock\n    all_cards: false\n    requires:\n"
            "      - hand_points: {at_most: {chosen: upcard}}\n",
            "at_most",
        ),
        (  # the spade upcard's doubling of every hand: only the gin and undercut bonuses double
            "oklahoma-gin.yaml",
            "round_scoring:\n  - id: knock\n    name: knock\n    method: knock\n    double: {if: {spade: true}}\n",
            "double",
        ),
        (  # card values need card points (named at the first meld's line, in the base)
            "kalooki.yaml",
            "card_points: []\n",
            "initial_meld",
        ),
        (  # a table of points per count beside card values
            "rummy-500.yaml",
            "melds:\n  - {id: set, name: set, shape: group, size: {min: 3, max: 4}, roles: [natural],\n"
            "     score: {count: card_points, counts: [3], points: [1]}}\n",
            "counts",
        ),
    ],
    ids=[
        "tonk-instant-win",
        "oklahoma-upcard-limit",
        "oklahoma-spade-double",
        "first-meld-without-card-points",
        "card-points-with-a-table",
    ],
)
def test_what_the_newcomer_could_not_say_is_refused(tmp_path, base, body, key):
    error = refusal(tmp_path, str(RULESETS / base), body)
    where = base if key == "initial_meld" else "variant.yaml"
    assert error["file"].endswith(where) and error["line"] >= 5 and key in error["path"], error


def test_a_knock_bonus_that_doubles_doubles(tmp_path):
    """``double: true`` in a knock's bonus (docs/ruleset-format.md: "the count doubled instead")
    doubles the count; it was read and left unused."""
    variant = tmp_path / "doubled.yaml"
    variant.write_text(
        "format: 1\nextends: gin-rummy\nid: doubled\nname: doubled\nround_scoring:\n"
        "  - {id: knock, name: knock, method: knock, big_gin: [{double: true}]}\n",
        encoding="utf-8",
    )
    path = tmp_path / "round.yaml"
    path.write_text(
        f"format: 1\nruleset: {variant}\ntitle: big gin\nquestion: round\nround:\n  winner: K\n  players: [K, D]\n"
        "  melds:\n    - {owner: K, cards: SA S2 S3 S4}\n    - {owner: K, cards: H7 D7 C7}\n"
        "    - {owner: K, cards: D10 DJ DQ DK}\n"
        '  hands:\n    K: ""\n    D: SK HK CK S5 S6 H2 H3 D4 CA C2\n',
        encoding="utf-8",
    )
    result = run("score", "-r", str(variant), "-o", "big-gin=true", "--round", str(path), "--json")
    assert json.loads(result.output)["systems"][0]["payments"]["K"] == 23 * 2  # D's 23 left, doubled


def test_an_extending_ruleset_cites_each_entry_from_its_own_files_document():
    """Oklahoma Gin extends gin-rummy and names its own document: the entries gin-rummy.yaml gives
    quote gin-rummy.md (found there, with a line), the options Oklahoma Gin adds quote its own."""
    result = run("audit", OKLAHOMA, "--json")
    audit = json.loads(result.stdout)
    sides = {f["id"]: f["sides"] for f in audit["findings"]}
    assert sides, "the audit lists the inherited assumptions"
    for fid, found in sides.items():
        for side in found:
            assert side["doc"] == "gin-rummy.md", fid
            assert side["line"] is not None, f"{fid}: the quote is found in gin-rummy.md"
    (document,) = json.loads(run("audit", OKLAHOMA, "--coverage", "--json").stdout)["documents"]
    assert document["doc"] == "oklahoma-gin.md"
    cited = {entry for sentence in document["sentences"] for entry in sentence["cited_by"]}
    assert cited == {"oklahoma-gin/options/knock-limit"}, "only its own entry cites oklahoma-gin.md"


# ---- Rummy 500's round settled as data (round_scoring: method each-player, its terms)

ROUNDS = ROOT / "tests" / "data" / "rounds"


def test_rummy_500_round_settles_each_players_cards(tmp_path):
    """The worked round (tests/data/rounds/): every card counts for whoever laid it, as it lies."""
    result = run("score", "-r", RUMMY_500, "--round", str(ROUNDS / "rummy-500-lay-offs.yaml"), "--json")
    assert result.exit_code == 0, result.output
    [system] = json.loads(result.stdout)["systems"]
    assert system["method"] == "each-player" and system["payments"] == {"A": 48, "B": -2, "C": 38}
    assert system["details"]["B"]["melded"] == [
        {"meld": 1, "cards": ["S4"], "points": 4},
        {"meld": 3, "cards": ["D7", "C7"], "points": 14},
    ]


def dealt_round(rng: random.Random) -> tuple[list, dict[str, list[str]]]:
    """A finished round of three players: legal melds of one deck (sets of three or four, runs of
    three to six, an ace low or high), each owned by a player, the cards beyond a meld's first
    three laid off by others now and then; a few cards left in each loser's hand."""
    players = ["A", "B", "C"]
    left = set(CARDS)
    melds: list = []
    for _ in range(rng.randint(1, 6)):
        if rng.random() < 0.5:
            rank = rng.choice(oracle.RANKS)
            suits = [s for s in oracle.SUITS if s + rank in left]
            if len(suits) < 3:
                continue
            cards = [s + rank for s in rng.sample(suits, rng.randint(3, len(suits)))]
        else:
            suit, size = rng.choice(oracle.SUITS), rng.randint(3, 6)
            start = rng.randint(0, 14 - size)
            cards = [suit + r for r in oracle.ORDER[start : start + size]]
            if not set(cards) <= left or len(set(cards)) < size:
                continue
        left -= set(cards)
        owner = rng.choice(players)
        extra = cards[3:]
        laid: dict[str, list[str]] = {}
        for card in extra:
            if rng.random() < 0.6:
                laid.setdefault(rng.choice([p for p in players if p != owner]), []).append(card)
        melds.append((owner, cards, laid))
    rest = sorted(left)
    rng.shuffle(rest)
    hands = {"A": [], "B": rest[: rng.randint(0, 5)], "C": rest[5 : 5 + rng.randint(0, 5)]}
    return melds, hands


def round_file(path, melds: list, hands: dict[str, list[str]]) -> None:
    lines = [f"format: 1\nruleset: {RUMMY_500}\ntitle: dealt\nquestion: round\nround:\n  winner: A\n"]
    lines.append("  players: [A, B, C]\n  melds:\n" if melds else "  players: [A, B, C]\n  melds: []\n")
    for owner, cards, laid in melds:
        off = ", ".join(f"{p}: {' '.join(c)}" for p, c in laid.items())
        lines.append(f"    - {{owner: {owner}, cards: {' '.join(cards)}, laid_off: {{{off}}}}}\n")
    lines.append("  hands:\n" + "".join(f'    {p}: "{" ".join(c)}"\n' for p, c in hands.items()))
    path.write_text("".join(lines), encoding="utf-8")


@pytest.mark.parametrize("count,seed", [(8, 3), pytest.param(300, 13, marks=pytest.mark.slow)], ids=["few", "many"])
def test_rummy_500_rounds_against_brute_force(tmp_path, count, seed):
    rng = random.Random(seed)
    rounds = [dealt_round(rng) for _ in range(count)]
    for i, (melds, hands) in enumerate(rounds):
        round_file(tmp_path / f"round{i}.yaml", melds, hands)
    lines = tmp_path / "rounds.jsonl"
    lines.write_text("".join(json.dumps({"round": str(tmp_path / f"round{i}.yaml")}) + "\n" for i in range(count)))
    result = run("score", "-r", RUMMY_500, "--batch", str(lines))
    answers = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert len(answers) == count
    for (melds, hands), answer in zip(rounds, answers, strict=True):
        [system] = answer["systems"]
        assert system["payments"] == oracle.round_scores(melds, hands), (melds, hands)


@pytest.mark.parametrize(
    "body,key,message",
    [
        ("    method: each-player\n", "round_scoring", "give terms"),
        ("    method: losers-pay-hand-points\n    terms: [{add: hand_points}]\n", "terms", "each-player"),
        ("    method: each-player\n    terms: [{add: hand_points, subtract: hand_points}]\n", "terms", "one measure"),
        ("    method: each-player\n    terms: [{add: meld_points}]\n", "add", "melded_points"),
        (
            "    method: each-player\n    one_go: [{double: true}]\n    terms: [{add: hand_points}]\n",
            "one_go",
            "one-go",
        ),
    ],
    ids=["no-terms", "terms-elsewhere", "two-measures", "unknown-measure", "one-go"],
)
def test_what_a_round_of_terms_cannot_say_is_refused(tmp_path, body, key, message):
    """Refused with the file and line of the key: what method each-player cannot count."""
    error = refusal(tmp_path, RUMMY_500, "round_scoring:\n  - id: r\n    name: r\n" + body)
    assert error["file"].endswith("variant.yaml") and error["line"] >= 7 and key in error["path"], error
    assert message in error["message"], error


def test_melded_points_need_every_kind_to_score_its_cards(tmp_path):
    """A kind scored by a table of counts gives a laid-off card no points of its own: refused."""
    error = refusal(
        tmp_path,
        RUMMY_500,
        "melds:\n  - {id: set, name: set, shape: group, size: {min: 3, max: 4}, roles: [natural],\n"
        "     score: {counts: [3, 4], points: [1, 2]}}\n",
    )
    assert "does not score its cards' values" in error["message"], error
    assert "round_scoring[0].terms[0]" in error["path"], error


def test_a_lay_off_not_of_the_meld_is_refused(tmp_path):
    path = tmp_path / "round.yaml"
    round_file(path, [("A", ["S5", "S6", "S7"], {"B": ["S8"]})], {"A": [], "B": ["C2"], "C": []})
    result = run("score", "-r", RUMMY_500, "--round", str(path), "--json")
    error = json.loads(result.stdout)["error"]
    assert result.exit_code == 2 and "not (or no more) in the meld" in error["message"], error
