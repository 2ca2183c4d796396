"""Marriage (001_*.txt): maal, the combinations, going out, seeing the tiplu, settlement."""

from __future__ import annotations

import functools
import random
from pathlib import Path

import marriage_oracle as mo
import pytest
from gameapi import checker, solve
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from profiles import examples

from solver.core.deck import Face
from solver.core.files import load_document
from solver.core.registry import load_game
from solver.core.ruleset import load_ruleset
from solver.games.marriage.settle import PlayerResult, RoundResult, pairwise, settle
from solver.melding.turn.problem import Problem

RS = load_ruleset("marriage")
CHECKER = checker(RS)  # the game's checker: the tiplu's maal are wild through its gate
N = CHECKER.notation


def T(card):
    return {"tiplu": N.parse(card)} if card else None


def kind(cards, tiplu=None):
    v = CHECKER.check_text(cards, params=T(tiplu))
    return v.reading.kind.id if v.legal else None


# -- maal ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "tiplu,card,expected",
    [
        ("S10", "S10", "tiplu"),
        ("S10", "SJ", "poplu"),
        ("S10", "S9", "jhiplu"),
        ("S10", "H10", "joker"),
        ("S10", "D10", "joker"),
        ("S10", "C10", "joker"),
        ("S10", "H9", None),
        ("SK", "SA", "poplu"),
        ("SK", "SQ", "jhiplu"),  # K → A
        ("SA", "S2", "poplu"),
        ("SA", "SK", "jhiplu"),  # A → 2, A ← K
        ("S2", "SA", "jhiplu"),
        ("S2", "S3", "poplu"),  # 2 ← A
        ("HQ", "HK", "poplu"),
        ("HA", "HA", "tiplu"),
        ("HA", "CA", "joker"),
    ],
)
def test_maal_kinds_at_the_edges(tiplu, card, expected):
    """ティプル / ポプル (KならA、Aなら2) / ジプル (2ならA、AならK) / 普通のワイルドカード"""
    assert RS.rules.maal_kind(N.parse(card), N.parse(tiplu)) == expected


def test_document_example_ten():
    """たとえば10が選ばれたカードならば、10、10、10、10、9、Jがワイルドカードです。"""
    tiplu = N.parse("H10")
    wild = [f for f in RS.deck.faces if RS.rules.maal_kind(f, tiplu)]
    assert sorted(N.format(f) for f in wild) == sorted(["S10", "H10", "D10", "C10", "H9", "HJ"])


def test_alter_option():
    rs = load_ruleset("marriage", {"alter": True})
    assert rs.rules.maal_kind(N.parse("D10"), N.parse("H10")) == "alter"
    assert rs.rules.maal_kind(N.parse("S10"), N.parse("H10")) == "joker"


def test_no_wilds_before_the_tiplu():
    assert kind("S4 S6 D7") is None
    assert kind("S4 S6 D7", "D7") == "dirty-sequence"


# -- combinations ------------------------------------------------------------------------------


def test_tunnela():
    """同一のカード(同じスートで同じランクのカード)の3枚です。例えば、K、K、Kです。"""
    assert kind("SK SK SK") == "tunnela"
    assert kind("SK SK HK") is None


@pytest.mark.parametrize("cards", ["S10 SJ SQ", "HA H2 H3", "HQ HK HA"])
def test_pure_sequences(cards):
    """10、J、Q … A-2-3 … Q-K-A"""
    assert kind(cards) == "pure-sequence"


def test_king_ace_two_is_no_sequence():
    """しかし、K-A-2というようにはつながりません。"""
    assert kind("HK HA H2") is None
    assert kind("HK HA H2", "C9") is None


def test_wild_cards_count_as_themselves_in_pure_combinations():
    """ただし、ワイルドカードとなっているカードでも、本来のスートとランクとして使うことはできます。"""
    assert kind("S4 S5 S6", "S5") in ("pure-sequence", "marriage")
    assert kind("H9 S9 D9", "C9") == "triplet"


def test_marriage_is_jhiplu_tiplu_poplu():
    """ピュア・シークエンスのカードが、ジプル、ティプル、ポプルの3枚であったときは、マリッジ"""
    assert kind("S9 S10 SJ", "S10") == "marriage"
    assert kind("SQ SK SA", "SK") == "marriage"
    assert kind("S9 S10 SJ", "H10") == "pure-sequence"


def test_dirty_sequence_one_or_two_wilds():
    """ワイルドカードを1枚または2枚含んだ、同じスートの3枚の続き札 (普通のカード1枚とワイルドカード2枚の組み合わせは、
    すべてダーティー・シークエンス)"""
    assert kind("S4 S6 H9", "C9") == "dirty-sequence"
    assert kind("S4 H9 D9", "C9") == "dirty-sequence"


def test_triplet_and_dirty_triplet():
    """同じランクで異なったスートのカード3枚 / 2枚とワイルドカード1枚"""
    assert kind("S2 H2 D2") == "triplet"
    assert kind("SJ HJ D5", "C5") == "dirty-triplet"


def test_two_identical_and_a_wild_is_not_a_combination():
    """なお、同じランクで同じスートのカード2枚とワイルドカード1枚は、組み合わせとして認められません。"""
    v = CHECKER.check_text("SJ SJ D5", params=T("C5"))
    assert not v.legal and "duplicate-identity" in {r.code for r in v.reasons}


def test_any_three_wilds_combine_one_as_itself():
    """普通のカード1枚とワイルドカード2枚の組み合わせは、すべてダーティー・シークエンスになります: so three
    wild cards always combine, one standing for itself."""
    assert kind("D5 C6 C4", "C5") == "dirty-sequence"
    assert kind("D5 H5 C6", "C5") == "dirty-triplet"  # two 5s as themselves and a wild


def test_combinations_are_three_cards():
    """他のラミーゲームとは違い、3枚より多い枚数の組み合わせは認められません。"""
    assert kind("S3 S4 S5 S6") is None


def test_dublee():
    """同一(同スート同ランク)のカード2枚ずつの組み合わせ … ダブリーにワイルドカードを使うことはできません。"""
    assert kind("H8 H8") == "dublee"
    assert kind("H8 D5", "C5") is None


@settings(max_examples=examples(1500), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.sampled_from(list(RS.deck.faces)), min_size=3, max_size=3),
    st.one_of(st.none(), st.sampled_from(list(RS.deck.faces))),
)
def test_three_card_kinds_equal_the_hand_written_rules(faces, tiplu):
    v = CHECKER.check(faces, params={"tiplu": tiplu} if tiplu else None, explain=False)
    want = mo.combination([mo.card(f) for f in faces], mo.card(tiplu) if tiplu else None)
    assert (v.reading.kind.id if v.legal else None) == want


# -- going out and seeing the tiplu ------------------------------------------------------------


def problem(hand, tiplu=None, shown=()):
    return Problem(RS, tuple(N.parse_many(hand)), params=T(tiplu), shown=tuple(tuple(N.parse_many(m)) for m in shown))


GOOD = "SA S2 S3 H5 H6 H7 D9 D9 D9 CJ CQ CK S8 H8 D8 C4 C4 C4 HK SK DK S7"


def test_seven_combinations_and_a_discard():
    """最初の3組を出しているプレイヤーが、そのあと4組の組み合わせを作ってテーブルに出し、1枚を捨て札して手札がなくなれば"""
    a = solve(problem(GOOD))
    assert a.solvable and len(a.melds) == 7 and a.discard is not None
    assert sum(p.reading.kind.id in mo.PURE for p in a.melds) >= 3


def test_first_three_must_be_pure():
    """手札でツネラまたはピュア・シークエンスが3組できていたら (最初の3組)"""
    hand = "S8 H8 D8 HK SK DK C2 D2 H2 S5 H5 D5 C9 H9 S9 D4 S4 C4 H3 H4 HJ CQ"
    assert not mo.can_go_out(N.parse_many(hand), None)
    assert not solve(problem(hand)).solvable


def test_dealt_tunnela_counts_for_the_first_three():
    """プレイ開始前にツネラをテーブルに出していたら、それも3組のうちに数えることができます。"""
    hand = "S8 H8 D8 HK SK DK C2 C3 C4 S5 S6 S7 C9 H9 S9 D4 S4 H4 H3"  # 6 combos (2 pure) + H3
    assert not solve(problem(hand)).solvable
    a = solve(problem(hand, shown=["DJ DJ DJ"]))
    assert a.solvable and len(a.melds) == 6


def test_dublee_route():
    """8組のダブリーを作って出せば、上がることができます(捨て札した後、手札が残っていますが、かまいません)。"""
    hand = "SA SA S2 S2 H5 H5 H6 H6 D9 D9 CJ CJ CK CK S8 S8 H8 H8 C4 C3 HK SK"
    a = solve(problem(hand))
    assert a.solvable and a.route == "dublees" and len(a.melds) >= 8 and a.kept


def test_seeing_the_tiplu():
    """7組のダブリーを作ったら、それをテーブルに出してティブル(ワイルドカード)を見ることができます。"""
    a = solve(problem(GOOD), "see")
    assert a.solvable and len(a.melds) == 3 and all(p.reading.kind.id in mo.PURE for p in a.melds)
    pairs = "SA SA S2 S2 H5 H5 H6 H6 D9 D9 CJ CJ CK CK S8 S7 H8 H2 C4 C3 HK SQ"
    a = solve(problem(pairs), "see")
    assert a.solvable and len(a.melds) == 7 and all(p.reading.kind.id == "dublee" for p in a.melds)


def test_which_tiplu():
    hand = "SA S2 S3 H5 H6 H7 D9 D9 D9 CJ CQ CK S8 H8 D8 C4 C4 C5 HK SK DK S7"
    a = solve(problem(hand), "which-tiplu")
    for face in RS.deck.faces:
        if face in (N.parse("D9"),):
            continue
        expected = mo.can_go_out(N.parse_many(hand), mo.card(face))
        assert (face in a.found) == expected, N.format(face)


def _random_22(seed: int, going_out: bool) -> list:
    """A 22-card hand built near seven combinations, then perturbed."""
    rng = random.Random(seed)
    faces = [f for f in RS.deck.faces for _ in range(3)]
    hand: list[Face] = []
    if going_out:
        while len(hand) < 21:
            base = rng.choice(RS.deck.faces)
            style = rng.choice(["tunnela", "run", "triplet"])
            if style == "tunnela":
                group = [base] * 3
            elif style == "run":
                ranks = [r.id for r in RS.deck.ranks]
                assert base.rank is not None  # every Marriage card has a rank
                i = ranks.index(base.rank) if ranks.index(base.rank) <= 10 else 10
                group = [
                    next(f for f in RS.deck.faces if f.suit == base.suit and f.rank == ranks[i + k]) for k in range(3)
                ]
            else:
                group = [
                    next(f for f in RS.deck.faces if f.rank == base.rank and f.suit == s)
                    for s in rng.sample(["S", "H", "D", "C"], 3)
                ]
            hand += group
        hand += [rng.choice(RS.deck.faces)]
        for _ in range(rng.randint(0, 2)):  # swap a card or two
            hand[rng.randrange(22)] = rng.choice(RS.deck.faces)
    else:
        hand = rng.sample(faces, 22)
    counts: dict = {}
    for f in hand:
        counts[f] = counts.get(f, 0) + 1
    if max(counts.values()) > 3:
        return _random_22(seed + 1000, going_out)
    return hand


# seed 12: melds' proof that this hand cannot go out takes ~47 s (as before the restructuring; the
# engine issue's symmetry breaking is for it), so it runs with the slow tests
@pytest.mark.parametrize("seed", [pytest.param(s, marks=pytest.mark.slow) if s == 12 else s for s in range(40)])
def test_go_out_verdicts_on_random_22_card_hands_equal_an_independent_search(seed):
    hand = _random_22(seed, going_out=seed % 4 != 3)
    rng = random.Random(seed)
    tiplu = rng.choice([None, rng.choice(RS.deck.faces)])
    answer = solve(Problem(RS, tuple(hand), params={"tiplu": tiplu} if tiplu else None))
    assert answer.solvable == mo.can_go_out(hand, mo.card(tiplu) if tiplu else None)
    if answer.solvable and answer.route == "combinations":
        for play in answer.melds:
            assert mo.combination([mo.card(f) for f in play.faces], mo.card(tiplu) if tiplu else None)


# -- settlement --------------------------------------------------------------------------------


def player(name, seen, cards="", marriages=0, tunnelas=(), maal=None):
    return PlayerResult(
        name,
        seen,
        tuple(N.parse_many(cards)) if cards else (),
        marriages,
        tuple(tuple(N.parse_many(t)) for t in tunnelas),
        maal,
    )


def test_maal_points_by_hand():
    tiplu = N.parse("H7")
    p = player("A", True, "H7 H7 H8 H6 H6 S7 C2", marriages=1)  # marriage H6 H7 H8 + H7 + H6
    total, parts = __import__("solver.games.marriage.settle", fromlist=["x"]).maal_points(RS, p, tiplu)
    # marriage 10, one more tiplu 3, one more jhiplu 2; S7 is an ordinary joker (0)
    assert total == 15


def test_dealt_tunnela_values():
    from solver.games.marriage.settle import maal_points

    tiplu = N.parse("H7")
    assert maal_points(RS, player("A", True, "S9 S9 S9", tunnelas=["S9 S9 S9"]), tiplu)[0] == 5
    assert maal_points(RS, player("A", True, "C7 C7 C7", tunnelas=["C7 C7 C7"]), tiplu)[0] == 10
    assert maal_points(RS, player("A", True, "H8 H8 H8", tunnelas=["H8 H8 H8"]), tiplu)[0] == 20


def test_settlement_worked_by_hand():
    """上がり支払 + 総計点数 − (個人点数 X 人数): A wins; B has seen (3), C has not (10).
    Maal: A 15, B 5, C 0; total 20; n = 3. B pays 3 + 20 − 15 = 8, C pays 10 + 20 − 0 = 30."""
    result = RoundResult(
        RS, N.parse("H7"), "A", (player("A", True, maal=15), player("B", True, maal=5), player("C", False, maal=0))
    )
    settled = settle(result)
    assert settled["payments"] == {"A": 38, "B": -8, "C": -30}


def test_dublee_win_adds_five_from_each():
    """8組のタブリーを作って上がったプレイヤーは、さらに各プレイヤーから5点ずつもらう"""
    result = RoundResult(
        RS, N.parse("H7"), "A", (player("A", True, maal=0), player("B", True, maal=0)), dublee_win=True
    )
    assert settle(result)["payments"] == {"A": 8, "B": -8}


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 60)), min_size=2, max_size=5), st.data(), st.booleans())
def test_settlement_is_zero_sum_and_equals_pairwise(players, data, dublee):
    names = [f"P{i}" for i in range(len(players))]
    winner = data.draw(st.sampled_from(names))
    result = RoundResult(
        RS,
        N.parse("S5"),
        winner,
        tuple(player(n, seen, maal=m) for n, (seen, m) in zip(names, players, strict=True)),
        dublee,
    )
    settled = settle(result)
    assert sum(settled["payments"].values()) == 0
    assert settled["payments"] == pairwise(result)


# -- the puzzle library, re-derived by the hand-written rules -------------------------------------


MARRIAGE_PUZZLES = sorted((Path(__file__).resolve().parent.parent / "puzzles" / "marriage").glob("m*.yaml"))


# a which-tiplu puzzle asks the hand-written search once per card of the deck (test_which_tiplu
# does the same on its own hand in the default run): it runs with the slow tests
@pytest.mark.parametrize(
    "path",
    [pytest.param(p, marks=pytest.mark.slow) if "which-tiplu" in p.stem else p for p in MARRIAGE_PUZZLES],
    ids=lambda p: p.stem,
)
def test_marriage_puzzles_agree_with_the_hand_written_rules(path):
    puzzle = load_game(RS).read(load_document(path))
    p = puzzle.problem
    tiplu = p.params["tiplu"] if p.params else None
    shown = [[mo.card(f) for f in m] for m in p.shown]
    shown_pure = sum(mo.combination(m, None) in mo.PURE for m in shown)
    if puzzle.question == "which-tiplu":
        answer = solve(p, "which-tiplu")
        held = {f: list(p.hand).count(f) for f in p.hand}
        expected = [
            f for f in RS.deck.faces if held.get(f, 0) < 3 and mo.can_go_out(p.hand, mo.card(f), shown_pure, len(shown))
        ]
        assert sorted(answer.found) == sorted(expected)
        return
    if puzzle.question == "see":
        pure = _pure_disjoint(p.hand)
        pairs = sum(v // 2 for v in __import__("collections").Counter(p.hand).values())
        assert (pure + shown_pure >= 3 or pairs >= 7) == puzzle.expect["solvable"]
        return
    if p.turn == "claimed":
        return  # the hand-written search has no claimed-card rule
    assert mo.can_go_out(p.hand, mo.card(tiplu) if tiplu else None, shown_pure, len(shown)) == puzzle.expect["solvable"]


def _pure_disjoint(hand) -> int:
    """Most disjoint tunnelas and pure sequences in a hand (small search)."""
    cards = sorted(mo.card(f) for f in hand)
    from itertools import combinations as combos

    @functools.cache
    def best(rest: tuple) -> int:
        if len(rest) < 3:
            return 0
        first, others = rest[0], rest[1:]
        top = best(others)
        for i, j in combos(range(len(others)), 2):
            if mo.combination((first, others[i], others[j]), None) in mo.PURE:
                left = others[:i] + others[i + 1 : j] + others[j + 1 :]
                top = max(top, 1 + best(left))
        return top

    return best(tuple(cards))
