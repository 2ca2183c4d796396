"""幻想麻雀 scoring's plumbing: its bounded caches, and a request's win facts (a batch line's keys)
read into the same win and score as the scorer's own classes make (tests/test_riichi.py has the
document's rules)."""

from __future__ import annotations

import random

import pytest
from riichi_package import random_deal, tenhou

from solver.core.errors import MeldsError
from solver.core.ruleset import load_ruleset
from solver.games.mahjong.scoring import WIN_FLAGS as WIN_FLAG_NAMES
from solver.games.mahjong.scoring import NotAWin, Scorer, Win


@pytest.fixture(scope="module")
def sc() -> Scorer:
    return Scorer.for_ruleset(load_ruleset("gensou-mahjong"))


def test_a_full_cache_starts_afresh_with_the_same_scores(monkeypatch):
    """The scorer's caches are bounded: emptied when full, they give the same answers."""
    import solver.games.mahjong.win as riichi_cache

    rng = random.Random(3)
    deals = [random_deal(rng) for _ in range(60)]

    def scores(scorer):
        out = []
        for d in deals:
            win = Win(scorer.tile(tenhou(d.win)), tsumo=d.tsumo, riichi=d.riichi, seat=d.seat, round_wind=d.round_wind)
            try:
                s = scorer.score(scorer.mj.parse_hand(d.hand_string()), win)
                out.append((s.han, s.fu, s.points.total, [y.id for y in s.yaku]))
            except NotAWin:
                out.append(None)
        return out

    want = scores(Scorer.for_ruleset(load_ruleset("gensou-mahjong")))
    monkeypatch.setattr(riichi_cache, "CACHE_LIMIT", 3)
    small = Scorer.for_ruleset(load_ruleset("gensou-mahjong"))
    assert scores(small) == want and any(want)
    assert all(len(cache) <= 3 for cache in small._suits)


# -- the request path: notation in, JSON out (what a batch line does) ----------------------------------


def test_a_win_from_a_request_is_the_win_the_class_makes(sc):
    """win_from_facts makes its Win without the dataclass's __init__ (for speed): it is the same
    Win, flags and all."""
    from solver.games.mahjong.scoring import win_from_facts

    made = win_from_facts(
        sc,
        "3p",
        {"tsumo": True, "double-riichi": 1, "seat": "S", "round": "S", "dora_indicators": "1m 東", "honba": "2"},
        4,
    )
    assert made == Win(
        sc.tile("3p"),
        tsumo=True,
        double_riichi=True,
        seat="S",
        round_wind="S",
        dora_indicators=(sc.tile("1m"), sc.tile("東")),
        honba=2,
    )
    assert made.flags == frozenset({"tsumo", "double-riichi"}) and not made.dealer


def _plain_win(sc, tile: str, facts: dict, players: int) -> Win:
    """The reading of a request's win facts, written out key by key through Win's own __init__."""
    seats = ["E", "S", "W", "N"][:players]
    for key in ("seat", "from", "discarder"):
        if facts.get(key) and facts[key] not in seats:
            raise MeldsError(f"--{key}")
    if str(facts.get("round", "E")) not in ("E", "S", "W", "N"):
        raise MeldsError("round")
    flags = {name: True for name in WIN_FLAG_NAMES if facts.get(name) or facts.get(name.replace("_", "-"))}
    win = Win(
        sc.tile(tile),
        seat=facts.get("seat") or "E",
        round_wind=facts.get("round") or "E",
        dora_indicators=sc.tiles(facts.get("dora_indicators")),
        ura_indicators=sc.tiles(facts.get("ura_indicators")),
        honba=int(facts.get("honba") or 0),
        riichi_sticks=int(facts.get("riichi_sticks") or 0),
        dealer_streak=int(facts.get("dealer_streak") or 0),
        players=players,
        discarder=facts.get("discarder") or facts.get("from"),
        river=sc.tiles(facts.get("river")),
        furiten=bool(facts.get("furiten")),
        **flags,
    )
    if (win.tsumo and win.discarder) or win.discarder == win.seat:
        raise MeldsError("discarder")
    return win


def test_every_request_reads_as_the_plain_reading_of_its_keys(sc):
    """win_from_facts reads a request's keys in one pass: on random requests (flags under either
    spelling, false values, seats out of the table, ``from`` and ``discarder`` together, no
    round) it makes the Win, or refuses, exactly as reading each key by name does."""
    from solver.games.mahjong.scoring import win_from_facts

    rng = random.Random(20)
    keys = [
        "seat",
        "from",
        "discarder",
        "round",
        "honba",
        "riichi_sticks",
        "dealer_streak",
        "furiten",
        "dora_indicators",
        "ura_indicators",
        "river",
    ] + [k for n in WIN_FLAG_NAMES for k in (n, n.replace("_", "-"))]
    values = {
        "seat": ["E", "S", "W", "N", "", None, "X"],
        "from": ["E", "S", "W", "N", "", None],
        "discarder": ["E", "S", "N", ""],
        "round": ["E", "S", "W", "N", "", None],
        "honba": [0, 2, "3", ""],
        "riichi_sticks": [0, 1, "2"],
        "dealer_streak": [0, 4],
        "furiten": [True, False, 0],
        "dora_indicators": ["1m", "1m 東", "", None],
        "ura_indicators": ["9p", ""],
        "river": ["1m 2m", ["3s"], ""],
    }
    outcomes = set()
    for _ in range(3000):
        facts = {}
        for key in rng.sample(keys, rng.randint(0, 6)):
            facts[key] = rng.choice(values.get(key, [True, False, 1, 0]))
        players = rng.choice([3, 4])
        try:
            want = _plain_win(sc, "5s", facts, players)
        except MeldsError:
            with pytest.raises(MeldsError):
                win_from_facts(sc, "5s", facts, players)
            outcomes.add("refused")
            continue
        got = win_from_facts(sc, "5s", facts, players)
        assert got == want and got.flags == want.flags, facts
        outcomes.add("made")
    assert outcomes == {"made", "refused"}


def test_a_hands_score_does_not_depend_on_the_hands_scored_before():
    """A suit's ways are worked out for a hand shape only when a hand first asks for them (an open
    hand never asks for 七対子's or 国士無双's): two fresh scorers, given the same hands in opposite
    orders, score each alike — hands that read as seven pairs or as four melds, 国士無双 after open
    hands of the same suits, hands that do not win."""
    crafted = [
        ("223344m223344p55s", "5s"),
        ("2233m4455p667788s", "8s"),
        ("19m19p19s1234567z1m", "1m"),
        ("19m19p19s123456z77z", "7z"),
        ("234m567p55s [888m] [東東東]", "5s"),
        ("11223344556677m", "7m"),
        ("123456789m12344p", "4p"),
        ("19m19p19s1234567z2m", "2m"),
    ]
    rng = random.Random(31)
    deals = [(d.hand_string(), tenhou(d.win)) for d in (random_deal(rng) for _ in range(300))]
    hands = crafted + deals

    def outcome(scorer: Scorer, hand: str, win: str):
        try:
            s = scorer.score(scorer.mj.parse_hand(hand), Win(scorer.tile(win), seat="S"))
        except NotAWin as why:
            return str(why)
        return s.han, s.fu, s.points.total, [y.id for y in s.yaku], [(p.kind, p.tiles) for p in s.parts]

    forward, backward = (Scorer.for_ruleset(load_ruleset("gensou-mahjong")) for _ in range(2))
    first = [outcome(forward, h, w) for h, w in hands]
    second = [outcome(backward, h, w) for h, w in reversed(hands)][::-1]
    assert first == second
    read = {y for o in first if not isinstance(o, str) for y in o[3]}
    assert "chiitoitsu" in read and any(y.startswith("kokushi") for y in read), read
    assert any(isinstance(o, str) for o in first) and sum(not isinstance(o, str) for o in first) > 150
