"""melds move / melds moves: the example states of each game, the rules one by one, and the
property that every listed action is legal and leads to a valid state."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from clirun import ROOT, run, subprocess_run
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples

from solver.core.errors import MeldsError
from solver.core.files import file_ruleset
from solver.core.moves import UNKNOWN
from solver.core.registry import load_game
from solver.core.ruleset import load_ruleset
from solver.core.schema import validate
from solver.core.state import GameState, load_state, state_from_data
from solver.core.yamlload import load_file

STATES = sorted(ROOT.glob("puzzles/*/moves/*.yaml"))
MOVES: dict = {}


def moves(ruleset):
    if id(ruleset) not in MOVES:
        MOVES[id(ruleset)] = load_game(ruleset).moves()
    return MOVES[id(ruleset)]


def test_at_least_ten_example_states_per_game_with_moves():
    by_game: dict = {}
    for p in STATES:
        by_game.setdefault(p.parent.parent.name, []).append(p)
    for game in ("basic-rummy", "marriage", "word-rummy", "gensou-mahjong", "fesca"):
        assert len(by_game.get(game, [])) >= 10, game


@pytest.mark.parametrize("path", STATES, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_example_state_verdicts(path):
    data = load_file(path)
    assert data.get("notes") and data.get("expect")
    state = load_state(path)
    for action, legal in data["expect"].items():
        judgement = moves(state.ruleset).judge(state, action)
        assert judgement.legal is legal, (action, judgement.reasons)
        if legal:
            assert_valid_successor(state, judgement.state)
        else:
            assert judgement.reasons and all(r["code"] and r["message"] for r in judgement.reasons)
            assert any(r["source"] for r in judgement.reasons), "an illegal action names the rule that forbids it"


# -- the rules, one by one ---------------------------------------------------------------------------


def state(ruleset: str, **kw) -> GameState:
    data = {"format": 1, "ruleset": ruleset, "players": ["A", "B", "C"], "turn": "A", "stock": 20, **kw}
    validate(data, "state.schema.json", "<test>")
    return state_from_data(data, Path("<test>"), file_ruleset(Path("<test>"), data))


def reasons(s: GameState, action: str) -> list[str]:
    return [r["code"] for r in moves(s.ruleset).judge(s, action).reasons]


def test_rules_are_data_quoted_from_the_documents():
    s = state("basic-rummy", step="play", hands={"A": "H2 C7", "B": 3, "C": 3}, taken="H2")
    j = moves(s.ruleset).judge(s, "discard H2")
    (reason,) = j.reasons
    assert reason["code"] == "taken-not-discarded" and reason["source"]["assumption"] == "taken-discard"
    m = state(
        "marriage",
        step="draw",
        hands={"A": 21, "B": 21, "C": 21},
        discards="S9",
        tiplu="S10",
        discarded_by="C",
        flags={"A": {"seen": True}},
    )
    (reason,) = moves(m.ruleset).judge(m, "draw discard").reasons
    assert reason["code"] == "wild-to-seen-player" and "ワイルドカードを捨て札した場合" in reason["source"]["quote"]


def test_an_action_the_ruleset_does_not_have_is_bad_input():
    m = state("marriage", step="play", hands={"A": "S3 S4 S5", "B": 21, "C": 21})
    with pytest.raises(MeldsError, match="marriage has no action 'meld'"):
        moves(m.ruleset).judge(m, "meld S3 S4 S5")
    with pytest.raises(MeldsError, match="unknown action 'fly'"):
        moves(m.ruleset).judge(m, "fly away")


def test_discard_passes_the_turn_and_an_empty_hand_ends_the_game():
    s = state("basic-rummy", step="play", hands={"A": "C7 H2", "B": 3, "C": 3}, discards="D9")
    after = moves(s.ruleset).judge(s, "discard C7").state
    assert (after.turn, after.step, after.discards[-1], after.hands["A"]) == ("B", "draw", "C7", "H2")
    last = state("basic-rummy", step="play", hands={"A": "C7", "B": 3, "C": 3})
    assert moves(last.ruleset).judge(last, "discard C7").state.step == "over"
    assert reasons(moves(last.ruleset).judge(last, "discard C7").state, "draw stock") == ["game-over"]


def test_show_sets_seen_and_dublee_flags():
    m = state("marriage", step="play", hands={"A": "S3 S3 H7 H7 D10 D10 C2 C2 C9 C9 SK SK HA HA C4", "B": 21, "C": 21})
    after = moves(m.ruleset).judge(m, "show S3 S3 | H7 H7 | D10 D10 | C2 C2 | C9 C9 | SK SK | HA HA").state
    assert after.flag("A", "seen") and after.flag("A", "dublee") and after.hands["A"] == "C4"
    assert len(after.table) == 7


def test_word_turn_flow():
    w = state(
        "word-rummy",
        step="play",
        hands={"A": "たぬきや", "B": 12, "C": 12},
        table=[{"owner": "B", "cards": "さかな"}],
        flags={"A": {"has_word": True}},
    )
    mv = moves(w.ruleset)
    after = mv.judge(w, "word たぬき").state
    assert after.flag("A", "word_this_turn") and after.hands["A"] == "や"
    after = mv.judge(after, "arrange さかなや | たぬき").state
    assert after.hands["A"] == "" and after.step == "over"
    # before a first word: no arranging, and the turn's draw passes the turn
    fresh = state(
        "word-rummy", step="play", hands={"A": "ぬぬを", "B": 12, "C": 12}, table=[{"owner": "B", "cards": "さかな"}]
    )
    assert reasons(fresh, "arrange さかなぬ") and "first-word-before-arranging" in reasons(fresh, "arrange さかなぬ")
    drawn = mv.judge(fresh, "draw").state
    assert drawn.turn == "B" and drawn.hands["A"] == "ぬぬを" + UNKNOWN and drawn.stock == 19


def test_mahjong_calls_move_the_discard_into_the_hand():
    m = state(
        "gensou-mahjong",
        players=["E", "S", "W", "N"],
        turn="E",
        step="call",
        discards=["5p"],
        discarded_by="E",
        hands={"E": 13, "S": "34p123m456s789s11z", "W": "55p123m456s789s1z", "N": 13},
    )
    after = moves(m.ruleset).judge(m, "W: pon").state
    assert after.turn == "W" and after.step == "discard" and after.discards == ()
    assert after.hands["W"].endswith("[555p]") and after.flag("W", "called") == "pon 5p"
    chi = moves(m.ruleset).judge(m, "S: chi 34p").state
    assert chi.hands["S"].endswith("[345p]")
    with pytest.raises(MeldsError, match="'X' is not one of the players"):
        moves(m.ruleset).judge(m, "X: pon")


def test_fesca_claim_and_return_to_the_normal_order():
    f = state(
        "fesca",
        players=["A", "B", "C", "D"],
        turn="A",
        step="call",
        discards=["水3"],
        discarded_by="A",
        hands={"A": 8, "B": 9, "C": "水1 水2 木5 木6 木7", "D": 9},
    )
    mv = moves(f.ruleset)
    claimed = mv.judge(f, "C: claim").state
    assert (claimed.turn, claimed.step, claimed.facts["claimed_turn"]) == ("C", "play", "水3")
    melded = mv.judge(claimed, "meld 水1 水2 水3").state
    back = mv.judge(melded, "end").state
    assert (back.turn, back.step) == ("B", "draw")  # the order resumes after A; C's turn is not skipped ahead
    passed = mv.judge(f, "pass").state
    assert (passed.turn, passed.step) == ("B", "draw")


def test_fesca_phase_changes_on_a_yinyang_discard():
    f = state(
        "fesca", players=["A", "B"], turn="A", step="play", hands={"A": "陰陽4 木1", "B": 9}, facts={"phase": "yang"}
    )
    after = moves(f.ruleset).judge(f, "discard 陰陽4").state
    assert after.facts["phase"] == "yin" and after.step == "call"


def test_a_game_without_moves_says_so(tmp_path):
    bare = tmp_path / "bare.yaml"
    text = (ROOT / "rulesets" / "basic-rummy.yaml").read_text(encoding="utf-8")
    bare.write_text(text[: text.index("\nmoves:")] + "\n", encoding="utf-8")
    with pytest.raises(MeldsError, match="has no moves: section"):
        load_game(load_ruleset(str(bare))).moves()


# -- every listed action is legal and leads to a valid state ----------------------------------------


def assert_valid_successor(before: GameState, after: GameState) -> None:
    """The state after an action: the same cards in play, a valid file when written out."""

    def size(s: GameState) -> int:
        def hand(h):
            return h if isinstance(h, int) else len(_tokens(s, h))

        return (
            sum(hand(h) for h in s.hands.values())
            + sum(len(_tokens(s, t.cards)) for t in s.table)
            + len(s.discards)
            + s.stock
            + len(_tokens(s, s.loose))
        )

    assert size(after) == size(before)
    assert after.turn in after.players and after.step in ("draw", "play", "discard", "call", "over")
    data = moves(after.ruleset).state_file(after)
    validate(json.loads(json.dumps(data)), "state.schema.json", "<after>")
    again = state_from_data(data, Path(before.path), file_ruleset(Path(before.path), data))
    assert again.hands == after.hands and again.table == after.table and again.turn == after.turn


def assert_listed_actions_stand(s: GameState) -> list[str]:
    """Every action melds moves lists is judged legal, and leads to a valid state."""
    mv = moves(s.ruleset)
    listed = mv.legal_actions(s)
    for action in listed:
        judgement = mv.judge(s, action)
        assert judgement.legal, (action, judgement.reasons)
        assert_valid_successor(s, judgement.state)
    return listed


def _tokens(s: GameState, text: str) -> list[str]:
    if s.ruleset.game == "words":
        return [c for c in text if c not in " "]
    if s.ruleset.game == "mahjong":
        return list(moves(s.ruleset).mj.parse_hand(text).tiles) if text.strip() else []
    return text.split() + ["buried"] * text.count("(")  # 木5(太極): two cards


DECK = [f"{s}{r}" for s in "SHDC" for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]]


@st.composite
def rummy_states(draw):
    rng = random.Random(draw(st.integers(0, 10**6)))
    ruleset = draw(st.sampled_from(["basic-rummy", "marriage"]))
    cards = DECK * (3 if ruleset == "marriage" else 1)
    rng.shuffle(cards)
    n = draw(st.integers(1, 9))
    hand, rest = cards[:n], cards[n:]
    table = []
    if ruleset == "basic-rummy" and draw(st.booleans()):
        suit = rng.choice("SHDC")
        start = rng.randrange(1, 10)
        run_ = [
            f"{suit}{r}" for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"][start : start + 3]
        ]
        if not set(run_) & set(hand):
            table.append({"owner": "B", "cards": " ".join(run_)})
    step = draw(st.sampled_from(["draw", "play"]))
    discards = rest[: draw(st.integers(0, 3))]
    flags = {}
    if ruleset == "marriage" and draw(st.booleans()):
        flags = {"A": {"seen": True}}
    taken = rng.choice(hand) if step == "play" and draw(st.booleans()) else None
    kw = {
        "step": step,
        "hands": {"A": " ".join(hand), "B": 7, "C": 7},
        "table": table,
        "discards": discards,
        "taken": taken,
        "flags": flags,
        "discarded_by": "C",
    }
    if ruleset == "marriage":
        kw["tiplu"] = rng.choice(DECK)
    return state(ruleset, **kw)


@settings(max_examples=examples(40), deadline=None)
@given(rummy_states())
def test_every_listed_rummy_action_is_legal_and_valid(s):
    assert_listed_actions_stand(s)


@settings(max_examples=examples(15), deadline=None)
@given(
    st.lists(st.sampled_from(list("たぬきつねさかないやこう")), min_size=3, max_size=8), st.booleans(), st.booleans()
)
def test_every_listed_word_action_is_legal_and_valid(hand, has_word, loose):
    s = state(
        "word-rummy",
        step="play",
        hands={"A": "".join(hand), "B": 12, "C": 12},
        table=[{"owner": "B", "cards": "さかな"}],
        loose="ね" if loose else "",
        flags={"A": {"has_word": has_word}},
    )
    assert "draw" in assert_listed_actions_stand(s)


MJ_TILES = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)]


@st.composite
def mahjong_states(draw):
    rng = random.Random(draw(st.integers(0, 10**6)))
    wall = MJ_TILES * 4
    rng.shuffle(wall)
    step = draw(st.sampled_from(["discard", "call"]))
    hands = {"E": 13, "S": 13, "W": 13, "N": 13}
    kw: dict = {"players": ["E", "S", "W", "N"], "stock": 60}
    if step == "discard":
        hands["E"] = "".join(wall[:14])
        kw.update(turn="E", step="discard", flags={"E": {"points": 25000}})
    else:
        hands["S"], hands["W"] = "".join(wall[:13]), "".join(wall[13:26])
        kw.update(turn="E", step="call", discards=[wall[26]], discarded_by="E")
    return state("gensou-mahjong", hands=hands, **kw)


@settings(max_examples=examples(25), deadline=None)
@given(mahjong_states())
def test_every_listed_mahjong_action_is_legal_and_valid(s):
    assert assert_listed_actions_stand(s)


FESCA = [
    "木1",
    "木2",
    "木3",
    "木4",
    "火4",
    "土4",
    "金6",
    "金7",
    "金8",
    "金12",
    "水3",
    "陰陽3",
    "陰陽4",
    "空無木",
    "太極",
]


@st.composite
def fesca_states(draw):
    hand = draw(st.lists(st.sampled_from(FESCA), min_size=1, max_size=6, unique=True))  # one copy of each
    melded = draw(st.booleans())
    table = [{"owner": "B", "cards": "金9 金10 金11"}]
    if melded:
        table.append({"owner": "A", "cards": "水5 水6 水7"})
    return state(
        "fesca",
        players=["A", "B", "C"],
        step="play",
        hands={"A": " ".join(hand), "B": 9, "C": 9},
        table=table,
        flags={"A": {"melded": melded}},
        facts={"phase": draw(st.sampled_from(["yang", "yin"]))},
    )


@settings(max_examples=examples(25), deadline=None)
@given(fesca_states())
def test_every_listed_fesca_action_is_legal_and_valid(s):
    assert_listed_actions_stand(s)


# -- the command line --------------------------------------------------------------------------------


def test_cli_move_text_json_and_exit_codes():
    path = str(ROOT / "puzzles" / "marriage" / "moves" / "m02-wild-to-seen-player.yaml")
    result = run("move", "-r", "marriage", path, "draw", "discard")
    assert result.exit_code == 1
    assert "illegal: draw discard" in result.output and "wild-to-seen-player" in result.output
    data = json.loads(run("move", path, "draw", "stock", "--json").output)
    assert data["legal"] is True and data["action"] == "draw stock" and data["reasons"] == []
    assert data["state"]["step"] == "play" and data["state"]["stock"] == 79
    assert run("move", "-r", "basic-rummy", path, "draw", "stock").exit_code == 2  # not a basic-rummy state
    assert run("move", path, "meld", "S9").exit_code == 2  # marriage has no meld action
    assert run("move", "/no/such/state.yaml", "draw", "stock").exit_code == 2


def test_cli_moves_lists_the_legal_actions():
    path = str(ROOT / "puzzles" / "basic-rummy" / "moves" / "m04-melds.yaml")
    data = json.loads(run("moves", path, "--json").output)
    assert "meld S9 S10 SJ" in data["actions"] and "discard D4" in data["actions"]
    assert not any(a.startswith("meld HQ") for a in data["actions"])
    assert "partial" not in data and "undecided" not in data  # the whole listing, judged
    proc = subprocess_run("moves", path)
    assert proc.returncode == 0 and "legal actions" in proc.stdout


def test_bad_state_file_is_a_schema_error(tmp_path):
    bad = tmp_path / "s.yaml"
    bad.write_text(
        "format: 1\nruleset: basic-rummy\nplayers: [A, B]\nturn: Z\nhands: {A: S9, B: 3}\n", encoding="utf-8"
    )
    result = run("move", str(bad), "draw", "stock")
    assert result.exit_code == 2 and "turn: 'Z' is not one of the players" in result.output


def test_a_refusal_resting_on_an_assumption_says_whose_it_is(tmp_path):
    """Fesca's deck list is lost from its document: a state holding a card twice is refused by the
    ruleset's assumption (deck-list), and the message says so beside the nearest quote."""
    path = tmp_path / "twice.yaml"
    path.write_text(
        "format: 1\nruleset: fesca\nplayers: [A, B]\nturn: A\nstep: play\n"
        "hands: {A: 火4 木3, B: 3}\ntable:\n- {owner: B, cards: 火4 火5 火6}\n",
        encoding="utf-8",
    )
    out = subprocess_run("moves", str(path), "--json")
    assert out.returncode == 2
    error = json.loads(out.stdout)["error"]
    assert error["rule"] == "deck-copies" and error["source"]["assumption"] == "deck-list"
    assert "火4 is there 2 times" in error["message"] and "the ruleset's assumption deck-list" in error["message"]
