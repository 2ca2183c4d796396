"""The knock as an action (``melds move`` / ``melds moves``) of Gin Rummy, against the brute force
of tests/gin_brute.py: every discard after which the least deadwood is within the knock limit is
listed as a knock, the knock lays that least deadwood (gin when 0), and a knock laid as written is
legal exactly when its melds are melds and what it keeps is within the limit."""

from __future__ import annotations

import random
from pathlib import Path

import gin_brute
import pytest

from solver.core.files import file_ruleset
from solver.core.registry import load_game
from solver.core.schema import validate
from solver.core.state import GameState, state_from_data

DECK = [s + r for s in "SHDC" for r in gin_brute.RANKS]


def state(hand: list[str], **options) -> GameState:
    data = {
        "format": 1,
        "ruleset": "gin-rummy",
        "options": options,
        "players": ["A", "B"],
        "turn": "A",
        "step": "play",
        "hands": {"A": " ".join(hand), "B": 10},
        "discards": "",
        "stock": 20,
    }
    validate(data, "state.schema.json", "<test>")
    return state_from_data(data, Path("<test>"), file_ruleset(Path("<test>"), data))


def near_hand(rng: random.Random) -> list[str]:
    """Eleven cards, most of them in runs and sets: many hands knock, some go gin."""
    hand: list[str] = []
    while len(hand) < 9:
        if rng.random() < 0.5:
            suit, start = rng.choice("SHDC"), rng.randrange(11)
            meld = [suit + r for r in gin_brute.RANKS[start : start + rng.randint(3, 4)]]
        else:
            rank = rng.choice(gin_brute.RANKS)
            meld = [s + rank for s in rng.sample("SHDC", 3)]
        if len(hand) + len(meld) <= 11 and not set(meld) & set(hand):
            hand += meld
    hand += rng.sample([c for c in DECK if c not in hand], 11 - len(hand))
    return hand


def moves_of(s: GameState):
    return load_game(s.ruleset).moves()


@pytest.mark.parametrize("limit", [10, 4])
def test_moves_lists_each_knock_the_brute_force_finds(limit):
    rng = random.Random(45 + limit)
    for _ in range(25):
        hand = near_hand(rng)
        s = state(hand, **{"knock-limit": limit})
        moves = moves_of(s)
        knocks = [a for a in moves.legal_actions(s) if a.startswith("knock")]
        least = {c: gin_brute.min_deadwood([d for d in hand if d != c]) for c in hand}
        assert {a.split()[1] for a in knocks} == {c for c, points in least.items() if points <= limit}, hand
        for action in knocks:
            card = action.split()[1]
            after = moves.judge(s, action).state
            assert after is not None and after.step == "over" and after.facts["winner"] == "A"
            kept = after.hands["A"].split()
            assert sum(gin_brute.value(c) for c in kept) == least[card], (hand, action)
            laid = [frozenset(t.cards.split()) for t in after.table]
            assert all(meld in gin_brute.melds(hand) for meld in laid)
            assert sorted([*kept, card, *(c for m in laid for c in m)]) == sorted(hand)
            route = "gin" if least[card] == 0 else "knock"
            assert after.facts["result"] == f"A goes out by {route}: deadwood {least[card]}"


def test_a_knock_laid_as_written_is_judged_by_its_deadwood():
    rng = random.Random(46)
    judged = {True: 0, False: 0}
    for _ in range(80):
        hand = near_hand(rng)
        card = rng.choice(hand)
        rest = [c for c in hand if c != card]
        laid: list[frozenset[str]] = []
        for meld in rng.sample(gin_brute.melds(rest), len(gin_brute.melds(rest))):
            if not any(meld & m for m in laid) and rng.random() < 0.8:
                laid.append(meld)
        kept = [c for c in rest if not any(c in m for m in laid)]
        action = f"knock {card} |" + " | ".join(" ".join(sorted(m)) for m in laid)  # "knock C |": no melds
        s = state(hand)
        verdict = moves_of(s).judge(s, action)
        legal = sum(gin_brute.value(c) for c in kept) <= 10
        assert verdict.legal is legal, (hand, action, verdict.reasons)
        if not legal:
            assert [r["code"] for r in verdict.reasons] == ["going-out"]
        judged[legal] += 1
    assert min(judged.values()) >= 8  # both answers were asked


def test_a_knock_with_a_pair_or_a_card_not_held_is_refused():
    s = state(["H4", "H5", "H6", "S7", "S8", "S9", "D2", "H2", "C2", "SA", "C9"])
    moves = moves_of(s)
    assert [r["code"] for r in moves.judge(s, "knock C9 | H4 H5 H6 | S7 S8 S9 | D2 H2").reasons] == ["not-a-meld"]
    assert [r["code"] for r in moves.judge(s, "knock SK").reasons] == ["not-in-hand"]
    assert [r["code"] for r in moves.judge(s, "knock C9 | H4 H5 H6 | H4 H5 H6").reasons] == ["not-in-hand"]


def test_a_gin_played_is_settled_with_the_defenders_least_deadwood():
    """After a knock that keeps nothing, the hand's settlement (the round's method knock) pays the
    knocker the defender's least deadwood and the gin bonus: no lay-offs on a gin."""
    rng = random.Random(47)
    knocker = ["SA", "S2", "S3", "S4", "H9", "D9", "C9", "C10", "CJ", "CQ", "CK"]
    for _ in range(5):
        defender = rng.sample([c for c in DECK if c not in knocker], 10)
        s = state(knocker)
        s = state_from_data(
            {**s.to_json(), "format": 1, "hands": {"A": " ".join(knocker), "B": " ".join(defender)}},
            Path("<test>"),
            s.ruleset,
        )
        game = load_game(s.ruleset)
        after = game.moves().judge(s, "knock C10").state
        assert after is not None
        settled = game.settle_hand(after, s)
        gain = gin_brute.min_deadwood(defender) + 25
        assert settled.deltas == {"A": gain, "B": -gain}
