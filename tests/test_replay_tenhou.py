"""melds replay on real Tenhou game records (tests/data/tenhou, sources in its README): every hand
agrees with the record's own score changes, the games end and place as the records say, and
damaged copies are reported at the action that breaks a rule (or the hand whose payment differs)."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest
from clirun import run

from solver.core.logs import read_text, replay_file, replay_text
from solver.games.mahjong.mjlog import read_mjlog
from solver.games.mahjong.tenhou import read_json

DATA = Path(__file__).parent / "data" / "tenhou"
LONG = {
    "2010112714gm-00a9-0000-d497e395.mjlog.gz",
    "2016052515gm-00a9-0000-c4d72066.mjlog.gz",
    "2020052221gm-00a9-0000-6f0524c7.mjlog.gz",
    "2020060723gm-00a9-0000-58807e27.mjlog.gz",
}  # ½ s each
RECORDS = [
    pytest.param(p, marks=pytest.mark.slow) if p.name in LONG else p
    for p in sorted(DATA.iterdir())
    if p.name != "README.md"
]
EXCERPTS = {"chankan.json"}  # one hand from the start of a game, no final standings: the game would go on
WHOLE = {
    "2019082700gm-00a9-0000-63d1f136.mjlog.gz": "流し満貫",
    "2020052221gm-00a9-0000-6f0524c7.mjlog.gz": "四風連打",
    "2018040923gm-00a9-0000-1833afca.mjlog.gz": "四家立直",
    "2016052515gm-00a9-0000-c4d72066.mjlog.gz": "四槓散了",
    "2010112714gm-00a9-0000-d497e395.mjlog.gz": "九種九牌",
}


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: getattr(p, "name", ""))
def test_every_hand_of_a_real_record_agrees_with_the_record(path):
    reports = replay_file(str(path))
    assert reports and all(r.error is None for r in reports), reports[0].error
    for report in reports:
        assert report.hands
        for hand in report.hands:
            assert hand.status == "agree", (hand.round, hand.illegal, hand.mismatches)
            assert hand.deltas == hand.expected
        assert report.problems == []  # an excerpt (no final standings) is not expected to end
        if path.name in EXCERPTS:
            assert report.final is None


def test_a_whole_game_cut_short_is_reported_where_it_stops():
    """A record that gives the game's final standings claims the whole game: when its hands stop
    before the game can end, that is a problem of the record (and exit 1), not an excerpt."""
    data = json.loads((DATA / "2019021004gm-00a9-0000-e2f6516d.json").read_text(encoding="utf-8"))
    data["log"] = data["log"][:3]
    (report,) = replay_text("x.json", json.dumps(data))
    assert all(h.status == "agree" for h in report.hands)
    assert [p["what"] for p in report.problems] == ["end"] and report.problems[0]["hand"] == 3
    excerpt = {k: v for k, v in data.items() if k not in ("sc", "owari")}
    assert replay_text("x.json", json.dumps(excerpt))[0].problems == []


@pytest.mark.slow
def test_whole_games_end_and_place_as_the_records_say():
    """The final scores and points (uma, oka, 五捨六入, sticks to the top) equal the record's."""
    for name, draw in WHOLE.items():
        (report,) = replay_file(str(DATA / name))
        assert report.final["scores"] == report.final["expected_scores"]
        assert report.final["points"] == pytest.approx(report.final["expected_points"])
        assert any(h.result.get("draw") for h in report.hands), draw


def test_liability_and_a_player_below_zero():
    (pao,) = replay_file(str(DATA / "pao-tsumo.mjlog.gz"))
    assert min(pao.final["scores"]) < 0 and pao.final["scores"] == pao.final["expected_scores"]  # 飛び
    wins = [w for h in pao.hands for w in h.result.get("wins", []) if w["liable"] is not None]
    assert wins and {y["name"] for y in wins[0]["yaku"]} == {"大三元"}


def test_the_two_formats_read_the_same_game_alike():
    (mjlog,) = read_mjlog(read_text(DATA / "2017040900gm-00a9-0000-af5434e3.mjlog.gz"), "a")
    (tenhou6,) = read_json(read_text(DATA / "2017040900gm-00a9-0000-af5434e3.mjscore.json"), "b")
    for a, b in zip(mjlog.hands, tenhou6.hands, strict=True):
        assert [(m.seat, m.verb, m.tile) for m in a.moves] == [(m.seat, m.verb, m.tile) for m in b.moves]
        assert (a.deltas, a.scores, a.dora) == (b.deltas, b.scores, b.dora)


# -- damaged copies ----------------------------------------------------------------------------------


def _mjlog() -> str:
    return read_text(DATA / "2019082700gm-00a9-0000-63d1f136.mjlog.gz")


def _turn_of(text: str, tag_start: int) -> tuple[int, int]:
    """(hand, 1-based turn) of the move a tag at ``tag_start`` is, counting the hand's moves."""
    hand = text.count("<INIT", 0, tag_start)
    init = text.rfind("<INIT", 0, tag_start)
    moves = re.findall(r"<(?:[T-W]\d+|[D-G]\d+|N )", text[init:tag_start])
    return hand, len(moves) + 1


def test_a_discard_not_in_the_hand_is_caught_at_that_discard():
    text = _mjlog()
    tag = list(re.finditer(r"<D(\d+)/>", text))[20]
    hand, turn = _turn_of(text, tag.start())
    (report,) = replay_text("x.mjlog", text[: tag.start()] + "<D135/>" + text[tag.end() :])
    bad = [h for h in report.hands if h.status != "agree"]
    assert [h.number for h in bad] == [hand] and bad[0].status == "illegal"
    assert bad[0].illegal["turn"] == turn and bad[0].illegal["record"] == "D135"
    assert bad[0].illegal["reasons"][0]["code"] == "not-in-hand"
    assert all(h.status == "agree" for h in report.hands[: hand - 1])


def test_a_missing_draw_is_caught_at_the_discard_that_follows_it():
    text = _mjlog()
    tag = list(re.finditer(r"<T(\d+)/>", text))[40]
    hand, turn = _turn_of(text, tag.start())
    (report,) = replay_text("x.mjlog", text[: tag.start()] + text[tag.end() :])
    bad = report.hands[-1]
    assert bad.number == hand and bad.status == "illegal" and bad.illegal["turn"] == turn
    assert bad.illegal["reasons"][0]["code"] == "wrong-step"


def test_a_changed_delta_is_a_mismatch_of_that_hand_only():
    text = _mjlog()
    sc = list(re.finditer(r'sc="([^"]*)"', text))[3]
    values = sc.group(1).split(",")
    values[1], values[3] = str(int(values[1]) + 10), str(int(values[3]) - 10)
    (report,) = replay_text("x.mjlog", text[: sc.start()] + f'sc="{",".join(values)}"' + text[sc.end() :])
    statuses = [h.status for h in report.hands]
    assert statuses.count("mismatch") == 1 and statuses[3] == "mismatch" and statuses.count("illegal") == 0
    miss = report.hands[3].mismatches
    assert miss[-1]["what"] == "deltas" and miss[-1]["expected"] != miss[-1]["computed"]


def test_damaged_json_records_are_caught_too():
    data = json.loads((DATA / "ryukyoku.json").read_text(encoding="utf-8"))
    hand = data["log"][0]
    wrong = json.loads(json.dumps(data))
    wrong["log"][0][6][3] = 11  # seat 0's fourth discard: a 1m it does not hold
    (report,) = replay_text("x.json", json.dumps(wrong))
    assert report.hands[0].status == "illegal" and report.hands[0].illegal["record"] == "11"
    assert report.hands[0].illegal["reasons"][0]["code"] == "not-in-hand"
    short = json.loads(json.dumps(data))
    del short["log"][0][8][5]  # a draw of seat 1 is gone: its streams no longer fit
    assert replay_text("x.json", json.dumps(short))[0].hands[0].status == "illegal"
    paid = json.loads(json.dumps(data))
    paid["log"][0][16][1] = [1500, 1500, -1000, -2000]
    (report,) = replay_text("x.json", json.dumps(paid))
    assert report.hands[0].status == "mismatch" and report.hands[0].deltas == hand[16][1]


def test_a_deal_of_a_fifth_copy_is_caught_at_the_deal():
    """The deal is a position like any other: the shared validator refuses tiles the set does not
    hold, before any action is judged."""
    data = json.loads((DATA / "ryukyoku.json").read_text(encoding="utf-8"))
    hand = data["log"][0]
    tile = hand[4][0]
    held = sum(deal.count(tile) for deal in (hand[4], hand[7], hand[10], hand[13]))
    for deal in (hand[7], hand[10], hand[13]):
        spare = next(i for i, t in enumerate(deal) if t != tile)
        deal[spare] = tile
        held += 1
        if held > 4:
            break
    (report,) = replay_text("x.json", json.dumps(data))
    bad = report.hands[0]
    assert bad.status == "illegal" and bad.illegal["turn"] == 0 and bad.illegal["action"] == "(the deal)"
    assert (
        bad.illegal["reasons"][0]["code"] == "impossible-state"
        and "deck holds 4" in bad.illegal["reasons"][0]["message"]
    )


# -- the command line -----------------------------------------------------------------------------


def test_the_command_line_json_contract_and_exit_codes(tmp_path):
    result = run("replay", str(DATA / "double_ron.json"), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    (hand,) = data["hands"]
    assert hand["status"] == "agree" and hand["deltas"] == hand["expected"] == [13000, 0, 2000, -14000]
    assert {"round", "status", "deltas", "expected", "illegal", "mismatches", "result"} <= set(hand)
    assert data["summary"]["hands"] == data["summary"]["agree"] == 1
    damaged = tmp_path / "damaged.mjlog.gz"
    text = _mjlog()
    tag = list(re.finditer(r"<D(\d+)/>", text))[20]
    damaged.write_bytes(gzip.compress((text[: tag.start()] + "<D135/>" + text[tag.end() :]).encode()))
    (tmp_path / "broken.json").write_text('{"log": [[1, 2]]}', encoding="utf-8")
    result = run("replay", str(damaged))
    assert result.exit_code == 1 and "not in the hand" in result.stdout
    result = run("replay", str(tmp_path), "--json")
    data = json.loads(result.stdout)
    assert result.exit_code == 2
    assert [g["status"] for g in data["games"]] == ["malformed", "illegal"]
    assert data["summary"]["malformed"] == 1 and data["summary"]["illegal"] == 1


@pytest.mark.slow
@pytest.mark.parametrize("how", [("--jobs", "2"), ("--dask", "--jobs", "2")], ids=["jobs", "dask"])
def test_many_logs_in_parallel_give_what_one_process_gives(how):
    if how[0] == "--dask":
        pytest.importorskip("distributed")
    serial = json.loads(run("replay", str(DATA), "--json").stdout)
    parallel = json.loads(run("replay", str(DATA), "--json", *how).stdout)
    assert [(h["file"], h["round"], h["deltas"]) for h in parallel["hands"]] == [
        (h["file"], h["round"], h["deltas"]) for h in serial["hands"]
    ]
    assert parallel["summary"]["agree"] == serial["summary"]["agree"] == serial["summary"]["hands"]


# -- three players (三麻) ----------------------------------------------------------------------------

SANMA_JSON = DATA / "2025020508gm-00b9-0000-79ddbd9d.json"


def test_three_player_records_are_read_through_tenhou_3p():
    """tenhou-3p-nuki: the JSON record's last hand is a ron on a 北 set aside (listed without 槍槓),
    its second a tsumo on the replacement after 北抜き (嶺上開花, no 一発 though the riichi was a turn
    before); its calls name the seat whose discard they take, round a table of four seats."""
    (report,) = replay_file(str(SANMA_JSON))
    assert report.ruleset == "tenhou-3p" and len(report.players) == 3
    robbed = report.hands[-1].result["wins"][0]
    assert robbed["from"] == 2 and {y["name"] for y in robbed["yaku"]} == {"立直", "七対子"}
    rinshan = report.hands[1].result["wins"][0]
    assert "嶺上開花" in {y["name"] for y in rinshan["yaku"]} and "一発" not in {y["name"] for y in rinshan["yaku"]}
    assert report.final["points"] == [4.5, 48.8, -53.3]  # to the hundred, as the record keeps them
    (record,) = read_json(read_text(SANMA_JSON), "x")
    calls = [(m, h.moves[k - 1]) for h in record.hands for k, m in enumerate(h.moves) if m.verb == "pon"]
    assert len(calls) == 8 and all(m.source == before.seat for m, before in calls)
    assert {m.raw.index("p") // 2 for m, _ in calls} == {0, 1, 2}  # from the left, across and the right
    (below,) = replay_file(str(DATA / "sanma-below-zero.mjlog.gz"))
    assert below.final["scores"][2] < 0 and below.final["points"] == [-13, 79, -66]  # -45.5 is -46


def test_a_payment_moved_in_a_three_player_record_is_a_mismatch_of_that_hand():
    data = json.loads(SANMA_JSON.read_text(encoding="utf-8"))
    deltas = data["log"][3][16][1]  # 東3局: a tsumo paid by seats 0 and 2
    deltas[0], deltas[1] = deltas[0] - 100, deltas[1] + 100
    (report,) = replay_text("x.json", json.dumps(data, ensure_ascii=False))
    assert [h.status for h in report.hands] == ["agree"] * 3 + ["mismatch"] + ["agree"] * 3
    assert report.hands[3].expected == [a + b for a, b in zip(report.hands[3].deltas, [-100, 100, 0], strict=True)]


def test_a_three_player_record_through_a_ruleset_without_a_three_player_form_is_refused(tmp_path):
    own = _write(tmp_path / "my-tenhou.yaml", "format: 1\nextends: tenhou\nid: my-tenhou\nname: my Tenhou\n")
    (report,) = replay_file(str(SANMA_JSON), str(own))
    assert report.error is not None and "3-player" in report.error["message"]


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path
