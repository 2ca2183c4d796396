"""Gin Rummy (rulesets/gin-rummy.yaml, no Python of its own) against OpenSpiel's utilities
(tests/gin_oracle.py): the minimum deadwood of ten cards, the best discard of eleven, can knock,
gin, every meld of the answer re-checked; a knock settled with the defender's lay-offs; the
JSON's figures and the round's text."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

gin_oracle = pytest.importorskip("gin_oracle", exc_type=ImportError)  # the test extra's open_spiel

from clirun import run  # noqa: E402

from solver.core.registry import load_game  # noqa: E402
from solver.core.ruleset import load_ruleset  # noqa: E402


def hands(seed: int, count: int) -> list[list[str]]:
    """Random and meld-built hands of ten and eleven cards."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        size = 10 + i % 2
        out.append(gin_oracle.meld_built(rng, size) if i % 3 else rng.sample(gin_oracle.DECK, size))
    return out


def agrees(data: dict, hand: list[str], limit: int = 10) -> None:
    """melds' answer for a hand against OpenSpiel's: the deadwood, the discard, the figures."""
    if len(hand) == 11:
        least, discards = gin_oracle.best_discards(hand)
        assert data["discard"] in discards, (hand, data["discard"], discards)
    else:
        least = gin_oracle.min_deadwood(hand)
        assert data["discard"] is None
    assert data["deadwood"] == least, (hand, data["deadwood"], least)
    assert data["can_knock"] == (least <= limit) and data["gin"] == (least == 0)
    assert data["solvable"] == (least <= limit)
    melds = [[c["card"] for c in m["cards"]] for m in data["melds"]]
    assert all(gin_oracle.is_meld(m) for m in melds), melds
    assert sum(gin_oracle.value(c) for c in data["kept"]) == least
    used = sorted([c for m in melds for c in m] + data["kept"] + ([data["discard"]] if data["discard"] else []))
    assert used == sorted(hand)


def test_deadwood_and_discard_against_openspiel():
    game = load_game(load_ruleset("gin-rummy"))
    for hand in hands(46, 300):
        agrees(game.solve({"hand": " ".join(hand)}).data, hand)


@pytest.mark.slow
def test_deadwood_and_discard_against_openspiel_many():
    game = load_game(load_ruleset("gin-rummy"))
    for hand in hands(4646, 12000):
        agrees(game.solve({"hand": " ".join(hand)}).data, hand)


def test_a_lower_knock_limit_through_the_batch(tmp_path):
    lines = [{"hand": " ".join(h), "options": {"knock-limit": 5}} for h in hands(7, 40)]
    path = tmp_path / "hands.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    out = run("solve", "-r", "gin-rummy", "--batch", str(path))
    answers = [json.loads(line) for line in out.output.splitlines() if line.startswith("{")]
    assert len(answers) == len(lines)
    for line, data in zip(lines, answers, strict=True):
        agrees(data, line["hand"].split(), limit=5)


def _knock(rng: random.Random) -> tuple[list[list[str]], list[str], list[str]] | None:
    """A knock: the knocker's melds and deadwood (10 or less), and the defender's ten cards."""
    cards = list(gin_oracle.DECK)
    rng.shuffle(cards)
    knocker = gin_oracle.meld_built(rng, 10)
    melds = gin_oracle.best_melds(knocker)
    kept = [c for c in knocker if not any(c in m for m in melds)]
    if not melds or sum(gin_oracle.value(c) for c in kept) > 10:
        return None
    defender = [c for c in cards if c not in knocker][:10]
    return melds, kept, defender


def _round(tmp_path: Path, melds: list[list[str]], kept: list[str], defender: list[str]) -> Path:
    laid = "".join(f"    - {{owner: K, cards: {' '.join(_table_order(m))}}}\n" for m in melds)
    path = tmp_path / "knock.yaml"
    path.write_text(
        "format: 1\nruleset: gin-rummy\ntitle: a knock\nquestion: round\nround:\n  winner: K\n"
        f'  players: [K, D]\n  melds:\n{laid}  hands:\n    K: "{" ".join(kept)}"\n    D: {" ".join(defender)}\n',
        encoding="utf-8",
    )
    return path


def _table_order(meld: list[str]) -> list[str]:
    return sorted(meld, key=lambda c: (gin_oracle.RANKS.index(c[1:]), c[0]))


def test_knocks_settled_with_the_defenders_lay_offs(tmp_path):
    """The defender's count after the best melds and lay-offs on the knocker's melds equals the
    oracle's (OpenSpiel's lay-off functions, chained); the payments follow the rules' 6.1–6.3."""
    rng = random.Random(46)
    settled = undercuts = laid_off = 0
    while settled < 30:
        knock = _knock(rng)
        if knock is None:
            continue
        melds, kept, defender = knock
        out = run("score", "-r", "gin-rummy", "--round", str(_round(tmp_path, melds, kept, defender)), "--json")
        system = json.loads(out.output)["systems"][0]
        theirs = system["details"]["D"]
        mine = sum(gin_oracle.value(c) for c in kept)
        expected = gin_oracle.layoff_deadwood(melds, defender) if mine else gin_oracle.min_deadwood(defender)
        assert theirs["deadwood"] == expected, (melds, kept, defender)
        if mine == 0:
            assert system["payments"]["K"] == expected + 25 and not theirs["layoffs"]
        elif expected <= mine:
            assert system["payments"]["D"] == mine - expected + 25
            undercuts += 1
        else:
            assert system["payments"]["K"] == expected - mine
        laid_off += bool(theirs["layoffs"])
        settled += 1
    assert laid_off and undercuts >= 0


def test_big_gin_and_the_bonuses_by_option(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_text(
        "format: 1\nruleset: gin-rummy\ntitle: big gin\nquestion: round\nround:\n  winner: K\n  players: [K, D]\n"
        "  melds:\n    - {owner: K, cards: SA S2 S3 S4}\n    - {owner: K, cards: H7 D7 C7}\n"
        "    - {owner: K, cards: D10 DJ DQ DK}\n"
        '  hands:\n    K: ""\n    D: SK HK CK S5 S6 H2 H3 D4 CA C2\n',
        encoding="utf-8",
    )
    # the defender: SK HK CK melded (no lay-offs on a gin), 5 + 6 + 2 + 3 + 4 + 1 + 2 = 23 left
    gin = json.loads(run("score", "-r", "gin-rummy", "--round", str(path), "--json").output)["systems"][0]
    assert gin["details"]["K"]["outcome"] == "big-gin" and gin["payments"]["K"] == 23 + 25  # unplayed: gin's bonus
    big = run("score", "-r", "gin-rummy", "-o", "big-gin=true", "--round", str(path), "--json")
    assert json.loads(big.output)["systems"][0]["payments"]["K"] == 23 + 31
    text = run("score", "-r", "gin-rummy", "-o", "big-gin=true", "--round", str(path)).output
    assert "K goes big gin with deadwood 0" in text and "D: melds SK HK CK" in text


def test_eleven_cards_end_with_a_discard_unless_big_gin_is_played():
    hand = "SA S2 S3 S4 H7 D7 C7 DJ DQ DK C9"
    for options in ({}, {"big-gin": True}):  # C9 fits no meld: discarded, gin either way
        data = load_game(load_ruleset("gin-rummy", options)).solve({"hand": hand}).data
        assert data["gin"] and data["discard"] == "C9"
    eleven = "SA S2 S3 S4 H7 D7 C7 DJ DQ DK S5"
    plain = load_game(load_ruleset("gin-rummy")).solve({"hand": eleven}).data
    assert plain["gin"] and plain["discard"] in ("SA", "S5")  # a discard from the run of five
    assert load_ruleset("gin-rummy").turn_rule("normal", 11).discard == "required"
    assert load_ruleset("gin-rummy", {"big-gin": True}).turn_rule("normal", 11).discard == "optional"
    assert load_ruleset("gin-rummy").turn_rule("normal", 10).discard == "none"


def test_figures_in_json_and_text():
    out = run("solve", "-r", "gin-rummy", "--hand", "SA S2 S3 HK DK CK H5 C9 D10 DJ DQ", "--json")
    data = json.loads(out.output)
    assert (data["deadwood"], data["discard"], data["can_knock"], data["gin"], data["route"]) == (
        5,
        "C9",
        True,
        False,
        "knock",
    )
    text = run("solve", "-r", "gin-rummy", "--hand", "SA S2 S3 HK DK CK H5 C9 D4 DJ DQ").output
    assert "deadwood: 28\ncan knock: no\ngin: no" in text
    assert "why: going out by knock needs: the cards kept weigh at most 10 points" in text


def test_a_knock_settled_from_the_two_hands():
    """melds score --knock CARDS --against CARDS (a batch): the knocker's hand laid down by its
    least deadwood (OpenSpiel's, after the best discard), the defender's count after lay-offs on
    the melds it shows (the oracle's chained lay-offs), the payments of 6.1-6.3."""
    knocks_settled_from_hands(4646, 25)


@pytest.mark.slow
def test_many_knocks_settled_from_the_two_hands():
    knocks_settled_from_hands(464646, 1000)


def knocks_settled_from_hands(seed: int, count: int) -> None:
    rng = random.Random(seed)
    lines: list[dict] = []
    while len(lines) < count:
        knocker = gin_oracle.meld_built(rng, 11)
        if gin_oracle.best_discards(knocker)[0] <= 10:
            rest = [c for c in gin_oracle.DECK if c not in knocker]
            lines.append({"knock": " ".join(knocker), "against": " ".join(rng.sample(rest, 10))})
    text = "".join(json.dumps(line) + "\n" for line in lines)
    out = run("score", "-r", "gin-rummy", "--batch", "-", input=text)
    answers = [json.loads(line) for line in out.output.splitlines() if line.startswith("{")]
    assert len(answers) == len(lines)
    for line, data in zip(lines, answers, strict=True):
        system = data["systems"][0]
        mine = system["details"]["knocker"]["deadwood"]
        least, discards = gin_oracle.best_discards(line["knock"].split())
        assert mine == least and data["knock"]["discard"] in discards
        melds = data["knock"]["melds"]
        assert all(gin_oracle.is_meld(m) for m in melds)
        defender = line["against"].split()
        theirs = gin_oracle.layoff_deadwood(melds, defender) if mine else gin_oracle.min_deadwood(defender)
        assert system["details"]["defender"]["deadwood"] == theirs, line
        gain = theirs + 25 if mine == 0 else theirs - mine if theirs > mine else -(mine - theirs + 25)
        assert system["payments"] == {"knocker": gain, "defender": -gain}
