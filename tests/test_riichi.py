"""幻想麻雀 scoring: yaku, fu, points, payments, 青天井 — the document's rules and the mahjong package.

The package (test-only, MIT) is the oracle wherever its rules and the document's coincide
(kuitan on, no 切上げ満貫, single yakuman, 食い平和形 20 fu); where the document differs, the
difference is a test of its own below.
"""

from __future__ import annotations

import random

import mahjong_oracle as oracle
import pytest
from riichi_package import random_deal, tenhou

from solver.core.errors import MeldsError
from solver.core.ruleset import load_ruleset
from solver.games.mahjong.hands import Hand
from solver.games.mahjong.scoring import NotAWin, Scorer, Win


@pytest.fixture(scope="module")
def sc() -> Scorer:
    return Scorer.for_ruleset(load_ruleset("gensou-mahjong"))


@pytest.fixture(scope="module")
def sc3() -> Scorer:
    return Scorer.for_ruleset(load_ruleset("gensou-mahjong-3p"))


@pytest.fixture(scope="module")
def ao() -> Scorer:
    return Scorer.for_ruleset(load_ruleset("gensou-mahjong", {"aotenjou": True}))


def score(scorer: Scorer, hand: str, win: str, **facts):
    facts.setdefault("seat", "S")
    for key in ("dora_indicators", "ura_indicators"):
        if key in facts:
            facts[key] = tuple(scorer.mj.identity(f) for f in scorer.mj.parse_tiles(facts[key]))
    return scorer.score(scorer.mj.parse_hand(hand), Win(scorer.tile(win), **facts))


def names(s) -> list[str]:
    return [y.name for y in s.yaku]


# -- an independent check of every score: the reading is a partition of the hand -------------------


def assert_partition(scorer: Scorer, hand_text: str, s) -> None:
    hand = scorer.mj.parse_hand(hand_text)
    held = sorted(scorer.mj.index[scorer.mj.identity(f)] for f in hand.tiles)
    used = sorted(i for p in s.parts for i in (p.tiles[:3] if p.kind == "kan" else p.tiles))
    kans = [p for p in s.parts if p.kind == "kan"]
    assert sorted(used + [p.tiles[0] for p in kans]) == held


def test_every_yaku_cites_the_document_or_an_assumption(sc):
    known = {a.id for a in sc.rs.assumptions}
    for y in sc.ms.yaku:
        assert y.source and (y.source.quote or y.source.assumption in known), y.id


# -- fu and points ----------------------------------------------------------------------------------


def test_pinfu_tsumo_is_twenty_fu(sc):
    s = score(sc, "234m 567p 345678s 22p", "8s", tsumo=True, riichi=True)
    assert names(s) == ["立直", "門前清模和", "平和", "断ヤオ九"] and (s.han, s.fu) == (4, 20)
    assert s.points.payments == {"E": 2600, "W": 1300, "N": 1300} and s.points.total == 5200
    assert_partition(sc, "234m 567p 345678s 22p", s)


def test_double_wind_pair_is_four_fu(sc):
    """連風牌(東場の東家の東、南場の南家の南)は4符として計算する。"""
    east = score(sc, "234m 567p 345s 789s 東東", "4s", seat="E", round_wind="E", riichi=True)
    south = score(sc, "234m 567p 345s 789s 東東", "4s", seat="S", round_wind="E", riichi=True)
    assert ("double wind pair (連風牌)", 4) in east.fu_details
    assert ("value pair (wind)", 2) in south.fu_details
    assert "平和" not in names(east) + names(south)  # a value pair is no pinfu
    assert sc.ms.sources["double_wind_pair_source"].quote.startswith("連風牌")


def test_open_pinfu_shape_is_twenty_fu(sc):
    """食い平和形は20符。よって、食い平和のタンヤオなどは1翻20符となる場合がある。"""
    s = score(sc, "234m 567p 345s 66s [678p]", "2m")
    assert names(s) == ["断ヤオ九"] and (s.han, s.fu) == (1, 20) and s.points.total == 700


def test_no_kiriage_mangan(sc):
    """切上げ満貫(3翻60符、4翻30符)は無し。"""
    s = score(sc, "234m 234m 567p 345s 99s", "7p", seat="S", riichi=True, dora_indicators="4p")
    assert (s.han, s.fu) == (4, 30) and s.points.total == 7700 and s.points.limit is None
    dealer = score(sc, "234m 234m 567p 345s 99s", "7p", seat="E", riichi=True, dora_indicators="4p")
    assert dealer.points.total == 11600


def test_honba_and_riichi_sticks_are_listed_apart(sc, sc3):
    s = score(sc, "234m 567p 345678s 22p", "8s", tsumo=True, riichi=True, honba=2, riichi_sticks=1)
    assert s.points.total == 5200 and s.points.honba == {"E": 200, "W": 200, "N": 200}
    assert s.points.riichi_sticks == 1000 and s.points.received == 5200 + 600 + 1000
    ron = score(sc, "234m 567p 345678s 22p", "8s", riichi=True, honba=3, discarder="W")
    assert ron.points.payments == {"W": ron.points.total} and ron.points.honba == {"W": 900}
    three = score(sc3, "234p 567p 345678s 22p", "8s", riichi=True, honba=1, players=3, discarder="W")
    assert three.points.honba == {"W": 1000}


def test_two_han_minimum_from_the_fifth_honba(sc):
    """5本場以降は二翻縛り (the two han from yaku; dora do not count)."""
    hand, win = "234m 567p 345s 66s [678p]", "2m"
    assert score(sc, hand, win, honba=4).han == 1
    with pytest.raises(NotAWin, match="役が不足しています"):
        score(sc, hand, win, honba=5, dora_indicators="1m")
    assert score(sc, "234m 567p 345678s 22p", "8s", honba=5, riichi=True).han == 3
    off = Scorer.for_ruleset(load_ruleset("gensou-mahjong", {"ryanhan-shibari": False}))
    assert score(off, hand, win, honba=5).han == 1


def test_kuitan_per_table(sc):
    """但し、4Nの霧雨魔法店、妖怪の山、無縁塚はクイタン無し。"""
    no_kuitan = Scorer.for_ruleset(load_ruleset("gensou-mahjong", {"kuitan": False}))
    with pytest.raises(NotAWin, match="no yaku"):
        score(no_kuitan, "234m 567p 345s 66s [678p]", "2m")
    assert names(score(no_kuitan, "234m 567p 345678s 22p", "8s", riichi=True)) == ["立直", "平和", "断ヤオ九"]


def test_no_yaku_is_not_a_win(sc):
    with pytest.raises(NotAWin, match="no yaku"):
        score(sc, "123m 567p 345s 99s [789p]", "1m", dora_indicators="8p")


# -- yaku the document names ------------------------------------------------------------------------


def test_sanrenkou_and_suurenkou(sc):
    """八連荘、人和、三連刻、四連刻が採用されている。"""
    s = score(sc, "111p 222p 333p 99s [789m]", "9s")
    assert next(y.han for y in s.yaku if y.name == "三連刻") == 2 and "三暗刻" in names(s)
    four = score(sc, "111p 222p 333p 444p 55s", "5s")
    assert "四連刻" in names(four)


def test_green_without_hatsu(sc):
    """緑一色は発無しも認められる。"""
    assert names(score(sc, "223344666888s 44s", "8s")) == ["緑一色"]
    assert names(score(sc, "223344s 666s 發發發 88s", "8s")) == ["緑一色"]


def test_nine_gates_in_any_suit(sc):
    """九蓮宝燈は萬子以外でも成立する。"""
    assert names(score(sc, "1112345678999p 7p", "7p")) == ["純正九蓮宝燈"]
    assert names(score(sc, "1112345678999s 7s", "2s")) == ["九蓮宝燈"]


def test_double_yakuman_hands_count_single(sc):
    """大四喜、四暗刻単騎待ち、国士無双十三面待ち、純正九蓮宝燈はシングル役満。"""
    assert score(sc, "19m19p19s1234567z 中", "中").yakuman == 1
    assert names(score(sc, "19m19p19s1234567z 中", "中")) == ["国士無双十三面待ち"]
    assert score(sc, "111m 333p 555s 777s 99p", "9p", tsumo=True).yakuman == 1
    assert score(sc, "1112345678999p 5p", "5p").yakuman == 1
    big = score(sc, "東東東 南南南 西西西 北北北 11p", "1p")
    assert "大四喜" in names(big)
    # 役満の複合はあり: two different yakuman (大四喜, 四暗刻単騎待ち) are two, each single
    assert big.yakuman == 2 and big.points.total == 64000
    two = score(sc, "白白白 發發發 中中中 東東東 南南", "南")
    assert sorted(names(two)) == sorted(["大三元", "字一色", "四暗刻単騎待ち"]) and two.yakuman == 3


def test_renhou_is_a_fixed_baiman_unless_more_without_it(sc):
    """人和は倍満となり、青天井以外では他の役との複合はない。よって人和無しで三倍満になる場合は
    そちらが優先される。"""
    s = score(sc, "123m 456m 789m 123p 55s", "5s", renhou=True)
    assert names(s) == ["人和"] and s.points.limit == "倍満" and s.points.total == 16000
    more = score(sc, "123m 123m 456m 456m 99m", "9m", renhou=True, riichi=True, dora_indicators="8m")
    assert "人和" not in names(more) and more.points.limit == "三倍満"


def test_paarenchan_needs_the_eighth_dealer_win(sc):
    assert names(score(sc, "123m 567p 99s [東東東] [白白白]", "9s", seat="E", dealer_streak=8)) == ["八連荘"]
    assert "八連荘" not in names(score(sc, "123m 567p 99s [東東東] [白白白]", "9s", seat="E", dealer_streak=7))


# -- 青天井 ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "hand, win, facts, yakuman, with_",
    [
        ("111m 333p 555s 777s 99p", "3p", {"tsumo": True}, "四暗刻", [["対々和"], ["門前清模和"]]),
        ("白白白 發發發 中中中 123m 55p", "5p", {}, "大三元", [["役牌 白"], ["役牌 發"], ["役牌 中"]]),
        ("東東東 南南南 西西西 北北 白白白", "北", {}, "小四喜", [["字一色", "混一色"]]),
        (
            "東東東 南南南 西西西 北北北 99p",
            "9p",
            {"seat": "E"},
            "大四喜",
            [["対々和"], ["役牌 自風"], ["役牌 場風"], ["字一色", "混一色"]],
        ),
        ("111m 999m 111p 999p 11s", "1s", {}, "清老頭", [["対々和"]]),
        ("223344666888s 44s", "8s", {}, "緑一色", [["清一色", "混一色"]]),
        ("1112345678999p 5p", "5p", {}, "純正九蓮宝燈", [["清一色"]]),
        ("111222333444p 55s", "5s", {}, "四連刻", [["三連刻"], ["対々和"]]),
        ("東東南南西西北北白白發發中中", "中", {}, "字一色", [["対々和", "七対子"]]),
        ("(1111m) (9999p) (1111s) (東東東東) 白白", "白", {"tsumo": True}, "四槓子", [["対々和"]]),
        ("123m 456m 789m 123p 55s", "5s", {"seat": "E", "tenhou": True, "tsumo": True}, "天和", [["門前清模和"]]),
    ],
)
def test_aotenjou_yakuman_carry_the_yaku_the_document_lists(ao, hand, win, facts, yakuman, with_):
    """以下の役満は必ず複合する役が有る。 — and each yakuman counts 13 han."""
    s = score(ao, hand, win, **facts)
    got = names(s)
    assert yakuman in got and s.aotenjou
    for alternatives in with_:
        assert any(a in got for a in alternatives), (alternatives, got)
    assert s.han == sum(y.han for y in s.yaku) + s.dora
    assert next(y for y in s.yaku if y.name == yakuman).han == 13 * next(y for y in s.yaku if y.name == yakuman).yakuman


def test_aotenjou_lower_yaku_do_not_combine_except_the_documents_two(ao):
    """一般的に下位役は複合しない(例:四暗刻と三暗刻、大三元と小三元など)が、例外がある"""
    assert "三暗刻" not in names(score(ao, "111m 333p 555s 777s 99p", "3p", tsumo=True))
    assert "小三元" not in names(score(ao, "白白白 發發發 中中中 123m 55p", "5p"))
    assert {"九蓮宝燈", "清一色"} <= set(names(score(ao, "1112345678999s 7s", "2s")))
    assert {"四連刻", "三連刻"} <= set(names(score(ao, "111222333444p 55s", "5s")))


def test_aotenjou_points_follow_the_formula_and_the_cap(ao):
    s = score(ao, "234m 234m 567p 345s 99s", "7p", riichi=True, dora_indicators="4p 4p 4p 4p")
    assert (s.han, s.fu) == (7, 30) and s.points.basic == 30 * 2**9 and s.points.limit is None
    assert s.points.total == 61500  # 30 × 2^9 × 4 = 61,440, rounded up to the 100
    capped = score(ao, "東東東 南南南 西西西 北北北 99p", "9p", seat="E")
    assert capped.points.basic == 1_000_000_000 and capped.points.total == 6_000_000_000
    four_n = Scorer.for_ruleset(load_ruleset("gensou-mahjong", {"aotenjou": True, "aotenjou-4n": True}))
    wide = score(four_n, "東東東 南南南 西西西 北北北 99p", "9p", seat="E")
    assert wide.points.basic == 10_000_000_000 < 70 * 2 ** (wide.han + 2)  # 4Nでは…基本点数100億でカンスト


def test_aotenjou_renhou_is_eight_han_and_combines(ao):
    """役満は13翻の扱い、人和は8翻の扱いとなる。"""
    s = score(ao, "123m 456m 789m 123p 55s", "5s", renhou=True)
    assert {y.name: y.han for y in s.yaku} == {"人和": 8, "一気通貫": 2}


# -- payments: the document's examples -------------------------------------------------------------


def test_three_player_dealer_mangan_tsumo(sc3):
    """親が満貫(12,000点)をツモ和了した場合、南家と西家が北家の支払い分(4,000点)を折半して支払うため、
    それぞれ4,000+2,000で6,000点の支払いとなる。"""
    s = score(sc3, "234p 567p 345678s 22p", "8s", seat="E", tsumo=True, riichi=True, dora_indicators="6p", players=3)
    assert s.points.limit == "満貫" and s.points.payments == {"S": 6000, "W": 6000} and s.points.total == 12000


def test_three_player_child_baiman_tsumo(sc3):
    """子が倍満(16,000点)をツモ和了した場合、親ともう一人が北家の支払い分(4,000点)を折半して支払うため、
    親は8,000+2,000で10,000点、子は4,000+2,000で6,000点の支払いとなる。"""
    s = score(
        sc3, "234p 567p 345678s 22p", "8s", seat="S", tsumo=True, riichi=True, dora_indicators="1p 4p 4p", players=3
    )
    assert s.points.limit == "倍満" and s.points.payments == {"E": 10000, "W": 6000}


def test_three_player_dora_after_1m_is_9m(sc3):
    """萬子がドラ表示牌の場合萬子の1ならドラは萬子の9になる。"""
    assert sc3.mj.identities[sc3.dora_next[sc3.mj.index[sc3.tile("1m")]]] == sc3.tile("9m")
    assert sc3.mj.identities[sc3.dora_next[sc3.mj.index[sc3.tile("9m")]]] == sc3.tile("1m")


def test_double_nagashi_mangan_three_players(sc3):
    """三人麻雀で子2人が同時に成立させた場合は、親10000払い、子は5000ずつの収入"""
    assert sc3.settle_draw(3, nagashi=["S", "W"]) == {"E": -10000, "S": 5000, "W": 5000}


def test_nagashi_mangan_is_fixed(sc):
    assert sc.settle_draw(4, nagashi=["S"]) == {"E": -4000, "S": 8000, "W": -2000, "N": -2000}
    assert sc.settle_draw(4, nagashi=["E"]) == {"E": 12000, "S": -4000, "W": -4000, "N": -4000}


@pytest.mark.parametrize(
    "tenpai, expected",
    [
        (["E"], {"E": 3000, "S": -1000, "W": -1000, "N": -1000}),
        (["E", "S"], {"E": 1500, "S": 1500, "W": -1500, "N": -1500}),
        (["E", "S", "W"], {"E": 1000, "S": 1000, "W": 1000, "N": -3000}),
        ([], {"E": 0, "S": 0, "W": 0, "N": 0}),
        (["E", "S", "W", "N"], {"E": 0, "S": 0, "W": 0, "N": 0}),
    ],
)
def test_noten_penalty_is_3000(sc, tenpai, expected):
    """不聴罰符は3,000点。"""
    assert sc.settle_draw(4, tenpai=tenpai) == expected


def test_double_ron_sticks_go_to_the_nearest_winner(sc):
    """ダブロン、トリロンあり。 供託料(リーチ棒)や積み棒は上家取り。"""
    south = score(sc, "234m 567p 345678s 22p", "8s", riichi=True, seat="S", discarder="E").points.total
    north = score(sc, "123m 456p 789s 東東東 99s", "9s", seat="N", discarder="E").points.total
    paid = sc.settle_rons([("S", south), ("N", north)], "E", 4, honba=2, riichi_sticks=1)
    assert paid == {"E": -(south + north + 600), "S": south + 600 + 1000, "W": 0, "N": north}
    later = sc.settle_rons([("S", south), ("N", north)], "W", 4, honba=1)
    assert later["N"] == north + 300 and later["S"] == south  # after W comes N, then E, then S


def test_bad_seats_are_errors(sc3):
    with pytest.raises(MeldsError, match="unknown seat"):
        sc3.settle_draw(3, tenpai=["N"])


# -- the scorer's decompositions and yaku against their references ---------------------------------


def test_readings_decompose_as_the_sat_reference_does(sc):
    """The scorer's per-suit decompositions equal every decomposition SAT finds."""
    mj = sc.mj
    rng = random.Random(71)
    checked = 0
    for n in range(250):
        counts34 = oracle.random_complete(rng) if n % 3 else oracle.random_hand(rng, 14, suits=1)
        faces = [
            mj.plain[(("mps"[t // 9], str(t % 9 + 1)) if t < 27 else ("z", oracle.HONOURS[t - 27]))]
            for t in range(34)
            for _ in range(counts34[t])
        ]
        ref = set()
        for d in mj.decompositions(Hand(tuple(faces))):
            ref.add(
                (
                    d.shape,
                    tuple(
                        sorted(
                            (sc.kind_shape[p.kind], tuple(sorted(mj.index[mj.identity(f)] for f in p.faces)))
                            for p in d.parts
                        )
                    ),
                )
            )
        for face in {mj.identity(f): f for f in faces}.values():  # any winning tile: every reading
            win = Win(mj.identity(face))
            ours = {
                (r.shape, tuple(sorted((p.kind, p.tiles) for p in r.parts)))
                for r in sc.readings(Hand(tuple(faces)), win)
            }
            assert ours == ref, (counts34, mj.tile_text(mj.identity(face)))
        checked += bool(ref)
    assert checked > 150


WIN_FACTS = (
    "tsumo",
    "riichi",
    "double_riichi",
    "ippatsu",
    "haitei",
    "houtei",
    "rinshan",
    "chankan",
    "tenhou",
    "chiihou",
    "renhou",
)


# hands with the rarer yaku (hand, winning tile), each also met with random facts of the win
RARE_HANDS = [
    ("123m 123p 123s 789m 55p", "3s"),
    ("123m 789m 123p 999s 11z", "1z"),
    ("123m 789p 123s 999s 11m", "1m"),
    ("112233m 112233p 55s", "5s"),
    ("111m 333m 555p 777p 22s", "2s"),
    ("555z 666z 777z 123m 22p", "2p"),
    ("19m19p19s1234567z 1m", "1m"),
    ("1112345678999m 5m", "5m"),
    ("111z 222z 333z 444z 55z", "5z"),
    ("22334466888s 666z", "6z"),
    ("111m 222m 333m 444m 55m", "5m"),
    ("123456789p 123m 44z", "4z"),
]


def test_yaku_settled_by_keys_equal_every_primitive_tested(sc, ao):
    """Most yaku are settled by a hand's and a reading's keys, the rest tested on the reading:
    on random hands with random facts of the win, that gives exactly the yaku whose every
    primitive's test passes (less the ones a higher yaku replaces)."""
    rng = random.Random(5)
    seen: set = set()
    for n in range(1500 + 10 * len(RARE_HANDS)):
        scorer = sc if n % 4 else ao
        seat, round_wind = rng.choice("ESWN"), rng.choice("ES")
        if n < 1500:
            deal = random_deal(rng, allowed=ALLOWED[n % len(ALLOWED)])
            text, tile, tsumo = deal.hand_string(), tenhou(deal.win), deal.tsumo
        else:
            (text, tile), tsumo = RARE_HANDS[n % len(RARE_HANDS)], rng.random() < 0.5
        hand = scorer.mj.parse_hand(text)
        facts = {f: rng.random() < 0.15 for f in WIN_FACTS}
        facts["tsumo"] = tsumo
        win = Win(
            scorer.tile(tile), seat=seat, round_wind=round_wind, dealer_streak=rng.choice([0, 1, 7, 8, 9]), **facts
        )
        for r in scorer.readings(hand, win):
            pool = scorer.closed_yaku if r.closed else scorer.open_yaku
            every = [c for c in pool if c.matches(r)]
            excluded = {e for c in every for e in c.excludes}
            want = [c.yaku.id for c in every if c.yaku.id not in excluded]
            got = [c.yaku.id for c in scorer.yaku_of(r)]
            assert got == want, (text, tile, facts)
            seen.update(got)
    # the keys settle flags, shapes, tile classes, one suit, triplet and kan counts, concealed
    # triplets, every-part classes and waits: these yaku must all have been met
    assert {
        "riichi",
        "pinfu",
        "tanyao",
        "chanta",
        "junchan",
        "toitoi",
        "sanankou",
        "honitsu",
        "chinitsu",
        "haku",
        "seat-wind",
        "round-wind",
        "iipeikou",
        "sanshoku",
        "ittsu",
        "chiitoitsu",
        "paarenchan",
        "tenhou",
        "renhou",
        "ryanpeikou",
        "suuankou",
        "daisangen",
        "kokushi-13",
        "junsei-chuuren",
        "daisuushii",
        "ryuuiisou",
        "suurenkou",
        "shousangen",
        "sanrenkou",
    } <= seen, sorted(seen)


# -- (the differential tests against the mahjong package: tests/test_mahjong_vs_package.py) ----------

ALLOWED = [
    range(34),
    list(range(9)) + list(range(27, 34)),
    [0, 8, 9, 17, 18, 26] + list(range(27, 34)),
    [19, 20, 21, 23, 25, 32],
    list(range(9, 18)),
]
