"""Under 青天井 a yakuman is scored with the other yaku of its hand, but not with the lower yaku it
replaces. The rule document (rulesets/documents/002_*.txt, 青天井ルール) lists the yaku that some
yakuman always carry:

    以下の役満は必ず複合する役が有る。
    四暗刻……対々和+門前清模和(単騎待ちではない場合)  大三元……役牌3(白、發、中)
    小四喜……字一色or混一色  大四喜……対々和+役牌2+字一色or混一色  清老頭……対々和
    緑一色……清一色or混一色  九蓮宝燈……清一色  四連刻……三連刻+対々和
    字一色……対々和or七対子  四槓子……対々和  天和、地和……門前清模和

That list is the oracle here, written from the document (nothing is taken from the ruleset or the
scorer): each yakuman is scored on the plainest hand that makes it (no dora, no riichi, no
incidental run, pair or wait that brings a yaku of its own), and what it carries besides must be
one of the document's alternatives; a yakuman the list does not name (国士無双, 八連荘) carries
nothing on such a hand. 混老頭 beside 国士無双 was such a yaku that no document line allows.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from clirun import run

RULESET = Path(__file__).resolve().parent.parent / "rulesets" / "gensou-mahjong.yaml"

# The document's list: yakuman -> the alternatives of what it always carries (each a set of yaku
# names). 四暗刻単騎待ち is 四暗刻 won on its pair: the 門前清模和 the document names for the other
# wait comes from the tsumo that keeps the last triplet concealed, so a ron on the pair carries
# 対々和 alone; 純正九蓮宝燈 is 九蓮宝燈's pure wait; 国士無双 in either wait and 八連荘 are not listed.
CARRIES: dict[str, list[set[str]]] = {
    "四暗刻": [{"対々和", "門前清模和"}],
    "四暗刻単騎待ち": [{"対々和"}],
    "大三元": [{"役牌 白", "役牌 發", "役牌 中"}],
    "小四喜": [{"字一色"}, {"混一色"}],
    "大四喜": [{"対々和", "役牌 自風", "役牌 場風", "字一色"}, {"対々和", "役牌 自風", "役牌 場風", "混一色"}],
    "清老頭": [{"対々和"}],
    "緑一色": [{"清一色"}, {"混一色"}],
    "九蓮宝燈": [{"清一色"}],
    "純正九蓮宝燈": [{"清一色"}],
    "四連刻": [{"三連刻", "対々和"}],
    "字一色": [{"対々和"}, {"七対子"}],
    "四槓子": [{"対々和"}],
    "天和": [{"門前清模和"}],
    "地和": [{"門前清模和"}],
    "国士無双": [set()],
    "国士無双十三面待ち": [set()],
    "八連荘": [set()],
}

# The plainest hand of each yakuman: its tiles (open melds in brackets) and the facts of the win.
# Seat and round are 東 unless given; a ron completes a triplet where that keeps 三暗刻 away.
HANDS: dict[str, tuple[str, ...]] = {
    "四暗刻": ("222m444p666s888s99m", "--win", "2m", "--tsumo"),
    "四暗刻単騎待ち": ("222m444p666s888s99m", "--win", "9m"),
    "大三元": ("555z666z777z234m99p", "--win", "5z"),
    "小四喜": ("222z333z444z11z234m", "--win", "2z"),
    "大四喜": ("333z444z55m [111z] [222z]", "--win", "4z"),
    "清老頭": ("999p111p99s [111m] [999m]", "--win", "9p"),
    "緑一色": ("234s666s888s66z [234s]", "--win", "8s"),
    "九蓮宝燈": ("11123455678999m", "--win", "2m"),
    "純正九蓮宝燈": ("11123455678999m", "--win", "5m"),
    "四連刻": ("444m555m99p [222m] [333m]", "--win", "5m", "-o", "local-yaku=true"),
    "字一色": ("11223344556677z", "--win", "7z"),
    "四槓子": ("99m [2222m] [4444p] [6666s] [8888s]", "--win", "9m"),
    "天和": ("123m456p789s234s55p", "--win", "3s", "--tsumo", "--tenhou"),
    "地和": ("123m456p789s234s55p", "--win", "3s", "--tsumo", "--chiihou", "--seat", "S"),
    "国士無双": ("119m19p19s1234567z", "--win", "7z"),
    "国士無双十三面待ち": ("19m19p119s1234567z", "--win", "1s"),
    "八連荘": ("123m456p789s234s55p", "--win", "3s", "--dealer-streak", "8", "-o", "local-yaku=true"),
}


def test_every_yakuman_of_the_ruleset_is_scored_here():
    """The ruleset's yakuman (read from its YAML as data) are the ones this test scores."""
    yaku = yaml.safe_load(RULESET.read_text(encoding="utf-8"))["mahjong_scoring"]["yaku"]
    assert {y["name"] for y in yaku.values() if y.get("yakuman")} == set(HANDS) == set(CARRIES)


@pytest.mark.parametrize("yakuman", sorted(HANDS))
def test_a_yakuman_under_aotenjou_carries_what_the_document_lists(yakuman):
    hand, *facts = HANDS[yakuman]
    out = run("score", "-r", "gensou-mahjong", *hand.split(), *facts, "--aotenjou", "--json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert [y["name"] for y in data["yaku"] if y.get("yakuman")] == [yakuman]
    carried = {y["name"] for y in data["yaku"] if not y.get("yakuman")}
    assert carried in CARRIES[yakuman], f"{yakuman} carries {sorted(carried)}"
    assert data["han"] == 13 + sum(y["han"] for y in data["yaku"] if not y.get("yakuman"))


def test_kokushi_thirteen_wait_under_aotenjou_is_13_han():
    """The peer's case, 国士無双十三面待ち on a dealer's ron: 13 han (it was 15, 混老頭 beside it).
    Its points follow the 青天井 formula, 6 × fu × 2^(han + 2) rounded up to 100, with the fu the
    ruleset's assumption aotenjou-kokushi-fu gives (a closed hand on a single wait: 20 + 10 for the
    closed ron + 2 for the wait, rounded up to 40; the document gives 国士無双 none). The `mahjong`
    package's own test names 7,864,400."""
    out = run("score", "-r", "gensou-mahjong", "19m19p119s1234567z", "--win", "1s", "--aotenjou", "--json")
    data = json.loads(out.output)
    assert (data["han"], data["fu"]) == (13, 40)
    assert data["points"]["total"] == -(-6 * 40 * 2 ** (13 + 2) // 100) * 100 == 7_864_400


def test_kokushi_tsumo_under_aotenjou_takes_30_fu():
    """By tsumo the same hand takes 20 + 2 for tsumo + 2 for the wait, rounded up: 30 fu (and carries
    門前清模和, which the document's list allows beside a yakuman)."""
    out = run("score", "-r", "gensou-mahjong", "19m19p119s1234567z", "--win", "1s", "--tsumo", "--aotenjou", "--json")
    data = json.loads(out.output)
    assert (data["han"], data["fu"]) == (14, 30)
