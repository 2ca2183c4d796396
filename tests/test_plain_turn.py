"""The plain turn (solver/melding/turn/plain.py: a small hand's packings, no SAT model) against the
turn model on the same hands: with the plain path turned off, every hand is answered by the SAT
model, and the two answers agree on everything that does not depend on a choice among equals —
solvable, the objective's values (the deadwood), the route and the figures, the cards in no meld,
the requirements failed, whether some cards cannot all be placed. The melds of
both are re-checked against an independent brute force (tests/gin_brute.py), and Gin Rummy's
deadwood against its minimum. Hands of two decks and wilds (Indian Rummy, Okey, Phase 10: a card
held twice, printed jokers and the chosen card's wilds, the routes' requirements) are compared the
same way, their melds re-checked by tests/rummies_oracle.py's."""

from __future__ import annotations

import random

import gin_brute
import pytest
import rummies_oracle as oracle
from test_new_rummies import ir_hands, ok_hands, p10_hands

from solver.core.registry import load_game
from solver.core.ruleset import load_ruleset
from solver.melding.turn import plain as plain_packings
from solver.melding.turn import solve as turn_solve
from solver.melding.turn.plain import fits as plain_fits

SUITS, RANKS = "SHDC", gin_brute.RANKS
DECK = [s + r for s in SUITS for r in RANKS]


def dealt(rng: random.Random, size: int) -> list[str]:
    """Random cards, or cards built from runs and sets with a few strays (so melds compete)."""
    if rng.random() < 0.4:
        return rng.sample(DECK, size)
    cards: list[str] = []
    while len(cards) < size:
        if rng.random() < 0.5:
            suit, low = rng.choice(SUITS), rng.randrange(len(RANKS) - 2)
            new = [suit + r for r in RANKS[low : low + rng.randrange(3, 6)]]
        else:
            rank = rng.choice(RANKS)
            new = [s + rank for s in rng.sample(SUITS, rng.randrange(2, 5))]
        if rng.random() < 0.4:
            new.append(rng.choice(DECK))
        cards += [c for c in dict.fromkeys(new) if c not in cards][: size - len(cards)]
    return cards


def agreed(plain: dict, model: dict) -> dict:
    """What both answers must share."""

    def of(data: dict) -> dict:
        why = data.get("why") or {}
        return {
            "solvable": data["solvable"],
            "score": data["score"],
            "route": data.get("route"),
            "figures": {k: data.get(k) for k in ("deadwood", "can_knock", "gin")},
            "no_meld": why.get("no_meld"),
            "requirements": why.get("requirements"),
            "has_core": bool(why.get("core")),  # one minimal set each: not always the same size
        }

    return of(plain) | {"checked": of(model)}


def check_melds(data: dict, hand: list[str]) -> None:
    held = set(gin_brute.melds(hand))
    melds = [frozenset(c["card"] for c in m["cards"]) for m in data["melds"]]
    assert all(m in held for m in melds), (hand, melds)
    used = sorted([c for m in melds for c in m] + data["kept"] + ([data["discard"]] if data["discard"] else []))
    assert used == sorted(hand)


def compare(ruleset: str, seed: int, count: int, monkeypatch: pytest.MonkeyPatch) -> None:
    game = load_game(load_ruleset(ruleset))
    rng = random.Random(seed)
    plain_asked = 0
    for i in range(count):
        hand = dealt(rng, rng.choice((7, 8, 10, 11)))
        request = {"hand": " ".join(hand)}
        plain_asked += plain_fits(game.problem(request), game.checker)
        plain = game.solve(request).data
        with monkeypatch.context() as patched:
            patched.setattr(turn_solve, "plain_fits", lambda problem, checker: False)
            model = game.solve(request).data
        assert model["stats"]["sat_calls"] > 0 and plain["stats"]["sat_calls"] == 0, (i, hand)
        shared = agreed(plain, model)
        checked = shared.pop("checked")
        assert shared == checked, (i, hand, plain, model)
        for data in (plain, model):
            check_melds(data, hand)
        if ruleset == "gin-rummy":
            least = gin_brute.best_discards(hand)[0] if len(hand) == 11 else gin_brute.min_deadwood(hand)
            assert plain["deadwood"] == least, (hand, plain["deadwood"], least)
    assert plain_asked == count  # every hand went the plain way when it was on


@pytest.mark.parametrize("ruleset", ["gin-rummy", "basic-rummy"])
def test_plain_turn_agrees_with_the_turn_model(ruleset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    compare(ruleset, 46, 120, monkeypatch)


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ["gin-rummy", "basic-rummy"])
def test_plain_turn_agrees_with_the_turn_model_many(ruleset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    compare(ruleset, 4646, 2500, monkeypatch)


def wild_requests(ruleset: str, count: int, seed: int) -> list[tuple[dict, dict]]:
    """(options, request) of hands dealt or built from melds, with repeated cards and wilds."""
    if ruleset == "indian-rummy":
        return [({}, {"hand": " ".join(h), "indicator": cut}) for h, cut in ir_hands(count, seed)]
    if ruleset == "okey":
        return [({}, {"hand": " ".join(h), "indicator": i}) for h, i in ok_hands(count, seed)]
    return [({"phase": p}, {"hand": " ".join(h)}) for h, p in p10_hands(count, seed)]


def wild_meld_problem(ruleset: str, meld: dict, options: dict, request: dict) -> str | None:
    cards, shown = [c["card"] for c in meld["cards"]], [c["as"] for c in meld["cards"]]
    if ruleset == "indian-rummy":
        wild = any(c["wild"] for c in meld["cards"])
        kind = meld["kind"] if meld["kind"] == "set" else "impure-sequence" if wild else "pure-sequence"
        return oracle.ir_meld_problem(cards, shown, kind, request["indicator"])
    if ruleset == "okey":
        return oracle.ok_meld_problem(cards, shown, meld["kind"], request["indicator"])
    return oracle.p10_meld_problem(cards, shown, meld["kind"])


def compare_wild(ruleset: str, seed: int, count: int, monkeypatch: pytest.MonkeyPatch) -> int:
    """The plain turn against the turn model on hands with repeated cards and wilds; the hands
    that held a card twice."""
    repeated = 0
    for i, (options, request) in enumerate(wild_requests(ruleset, count, seed)):
        game = load_game(load_ruleset(ruleset, options))
        hand = request["hand"].split()
        repeated += len(set(hand)) < len(hand)
        assert plain_fits(game.problem(request), game.checker), (i, request)
        plain = game.solve(request).data
        with monkeypatch.context() as patched:
            patched.setattr(turn_solve, "plain_fits", lambda problem, checker: False)
            model = game.solve(request).data
        assert model["stats"]["sat_calls"] > 0, (i, request)
        shared = agreed(plain, model)
        checked = shared.pop("checked")
        assert shared == checked, (i, request, plain, model)
        for data in (plain, model):
            placed = [c["card"] for m in data["melds"] for c in m["cards"]] + data["kept"] + [data["discard"]]
            assert sorted(placed) == sorted(hand), (i, request, data)
            for meld in data["melds"]:
                assert wild_meld_problem(ruleset, meld, options, request) is None, (i, request, meld)
    return repeated


@pytest.mark.parametrize("ruleset", ["indian-rummy", "okey", "phase-10"])
def test_plain_turn_of_copies_and_wilds_agrees_with_the_turn_model(ruleset: str, monkeypatch) -> None:
    assert compare_wild(ruleset, 46, 3, monkeypatch) > 0


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ["indian-rummy", "okey", "phase-10"])
def test_plain_turn_of_copies_and_wilds_agrees_many(ruleset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert compare_wild(ruleset, 4747, 150, monkeypatch) > 0


def _searched(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every hand's packings searched (turn/packsearch.py), none listed."""
    monkeypatch.setattr(plain_packings, "PACKINGS", -1)
    monkeypatch.setattr(plain_packings, "_PACKED", {})


@pytest.mark.parametrize("ruleset", ["indian-rummy", "okey", "phase-10"])
def test_plain_turn_searched_agrees_with_the_turn_model(ruleset: str, monkeypatch) -> None:
    _searched(monkeypatch)
    assert compare_wild(ruleset, 46, 3, monkeypatch) > 0


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ["indian-rummy", "okey", "phase-10"])
def test_plain_turn_searched_agrees_many(ruleset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    _searched(monkeypatch)
    assert compare_wild(ruleset, 4949, 100, monkeypatch) > 0


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ["gin-rummy", "basic-rummy"])
def test_plain_turn_searched_agrees_one_deck(ruleset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    _searched(monkeypatch)
    compare(ruleset, 4950, 300, monkeypatch)


@pytest.mark.parametrize("ruleset", ["gin-rummy", "indian-rummy"])
def test_a_hands_cards_among_a_mask_and_their_spellings(ruleset: str) -> None:
    """The cards a mask holds (none, one or several left out; copies of a face in two decks) and
    their spellings are those a plain filter over the hand gives."""
    notation = load_game(load_ruleset(ruleset)).checker.notation
    faces = sorted(notation.in_deck, key=lambda f: f.index)
    rng = random.Random(46)
    for size in (1, 2, 10, 14):
        hand = rng.sample(faces, size) + (rng.sample(faces, 2) if ruleset == "indian-rummy" else [])
        cards = plain_packings._Cards.of(hand)
        assert [f.index for f in cards.order] == sorted(f.index for f in hand)
        for mask in {cards.mask, 0, cards.mask & ~cards.bits[0], cards.mask & ~cards.bits[-1], rng.getrandbits(64)}:
            held = [f for f, bit in zip(cards.order, cards.bits, strict=True) if mask & bit]
            assert cards.among(mask) == held
            assert cards.among(mask, 2) == held[:2]
            assert notation.spell_all(held) == [notation.format(f) for f in held]
