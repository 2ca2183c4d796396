"""Rulings of the Marriage (001), Basic Rummy (003) and Word Rummy (004) documents through the
command line, for every command each touches. Each test names its sentence."""

from __future__ import annotations

import json

from clirun import ROOT, run
from rulings import Play, cli_json


def _replay(folder, ruleset: str, start: dict, actions: list[str], result: dict) -> dict:
    """melds replay --json of a one-hand log of the project's own format."""
    log = folder / f"{ruleset}.jsonl"
    lines = [
        {"format": 1, "log": "melds", "ruleset": ruleset, "title": "a ruling", "players": list(result)},
        {"name": "hand 1", "start": start, "actions": actions, "result": result},
    ]
    log.write_text("\n".join(json.dumps(line, ensure_ascii=False) for line in lines) + "\n", encoding="utf-8")
    code, data = cli_json("replay", str(log))
    return data["hands"][0] | {"exit": code}


# -- Marriage ---------------------------------------------------------------------------------------


def test_tiplu_none_is_a_tiplu_not_yet_seen():
    """「ゲームの途中で、あるプレイヤーがカードを1枚選びます。」: before the tiplu is chosen (or seen) no card
    is wild: --tiplu none is accepted and S10 H10 stand only for themselves."""
    code, data = cli_json("check", "-r", "marriage", "--tiplu", "none", "S9", "S10", "H10")
    assert code == 1 and not data["legal"]
    code, data = cli_json("check", "-r", "marriage", "--tiplu", "S10", "S9", "S10", "H10")
    assert code == 0 and data["legal"]
    code, data = cli_json("solve", "-r", "marriage", "--tiplu", "None", "--hand", "S3 S4 S5 H9 H9 H9 D2")
    assert code == 1 and not data["solvable"]


def test_an_ace_tiplu_makes_the_2_and_the_king_of_its_suit_wild():
    """「選ばれたカードがKならA、Aなら2となります。」「選ばれたカードが2ならA、AならKとなります。」: with the
    tiplu SA, S2 is its poplu and SK its jhiplu; and K-A-2 is never a sequence
    (「しかし、K-A-2というようにはつながりません。」), so an ace tiplu has no marriage."""
    code, data = cli_json("check", "-r", "marriage", "--tiplu", "SA", "H4", "H5", "S2")
    assert code == 0 and data["kind"] == "dirty-sequence"
    code, data = cli_json("check", "-r", "marriage", "--tiplu", "SA", "H4", "H5", "SK")
    assert code == 0 and data["kind"] == "dirty-sequence"
    code, data = cli_json("check", "-r", "marriage", "--tiplu", "SA", "SK", "SA", "S2")
    assert data["kind"] != "marriage"
    code, data = cli_json("check", "-r", "marriage", "--tiplu", "SK", "SQ", "SK", "SA")
    assert code == 0 and data["kind"] == "marriage"  # Q-K-A: the king's marriage goes round to the ace


def test_the_stock_is_made_again_over_the_tiplu(tmp_path):
    """「プレイヤーが山札の最後のカード(ティプルのカード)より1枚上のカードを取り、捨て札しても上がりにならなかった場合
    には、ディーラーが最後の捨て札以外の捨て札をすべて取り、シャッフルしてティプルの上に置いて山札とします。」"""
    game = Play(
        tmp_path,
        {
            "ruleset": "marriage",
            "players": ["A", "B", "C"],
            "turn": "A",
            "step": "draw",
            "tiplu": "S10",
            "hands": {"A": "H2 H3 H4", "B": 21, "C": 21},
            "discards": "D5 D6 D7 H9",
            "discarded_by": "C",
            "stock": 2,
            "flags": {"A": {"seen": True}},
        },
    )
    state = game.do("draw stock C9")  # the card above the tiplu
    assert state["stock"] == 1
    state = game.do("discard C9")
    assert state["stock"] == 5 and state["discards"] == ["C9"] and state["turn"] == "B"
    stuck = Play(
        tmp_path,
        {
            "ruleset": "marriage",
            "players": ["A", "B"],
            "turn": "A",
            "step": "draw",
            "tiplu": "S10",
            "hands": {"A": "H2 H3 H4", "B": 21},
            "discards": "D5",
            "stock": 1,
            "flags": {"A": {"seen": True}},
        },
    )
    verdict = stuck.judge("draw stock")
    assert not verdict["legal"] and verdict["reasons"][0]["code"] == "tiplu-stays-in-stock"
    assert "ティプル" in verdict["reasons"][0]["source"]["quote"]
    assert stuck.legal("draw discard")


def test_a_tunnela_shown_at_the_deal_counts_for_seeing_in_move_as_in_solve(tmp_path):
    """「プレイ開始前にツネラをテーブルに出していたら、それも3組のうちに数えることができます。」: with CK CK CK on
    the table since the deal, two pure sequences show the first three — `melds move` as `melds solve`."""
    game = Play(
        tmp_path,
        {
            "ruleset": "marriage",
            "players": ["A", "B"],
            "turn": "A",
            "step": "play",
            "hands": {"A": "S2 S3 S4 H5 H6 H7 D9", "B": 21},
            "table": [{"owner": "A", "cards": "CK CK CK"}],
            "stock": 50,
            "discards": "H2",
        },
    )
    assert not game.legal("show S2 S3 S4")
    assert "show S2 S3 S4 | H5 H6 H7" in game.moves()
    assert game.do("show S2 S3 S4 | H5 H6 H7")["flags"]["A"]["seen"] is True
    code, data = cli_json("solve", str(ROOT / "puzzles" / "marriage" / "m05-dealt-tunnela-counts.yaml"))
    assert code == 0 and data["solvable"]


# -- Basic Rummy --------------------------------------------------------------------------------------


BR_START = {
    "turn": "A",
    "step": "draw",
    "hands": {"A": "S9 S10 SJ H2 H3 H4 C7", "B": "SQ SK H5 H6 H7 H8 D2"},
    "discards": "C3",
    "stock": 31,
}
BR_OPENING = ["draw stock C8", "meld S9 S10 SJ", "meld H2 H3 H4", "discard C8", "draw stock DK"]


def test_going_rummy_counts_lay_offs_before_the_last_turn(tmp_path):
    """「上がったプレイヤーが、最後の自分の番より前にはメルドやレイオフを全くしていなかった場合には、ゴーイング・
    ラミー(Going Rummy)といって得点が倍になります。」 in `melds replay`: B going out by lay-offs alone in one
    turn goes rummy (A's C7 doubled: 14); B who laid off one card a turn earlier does not (7)."""
    last_turn = [
        "discard DK",
        "draw stock C9",
        "discard C9",
        "draw stock H9",
        "layoff 1 SQ",
        "layoff 1 SK",
        "layoff 2 H5",
        "layoff 2 H6",
        "layoff 2 H7",
        "layoff 2 H8",
        "layoff 2 H9",
        "discard D2",
    ]
    hand = _replay(tmp_path, "basic-rummy", BR_START, BR_OPENING + last_turn, {"A": -14, "B": 14})
    assert hand["status"] == "agree", hand
    early = [
        "layoff 1 SQ",
        "discard DK",
        "draw stock C9",
        "discard C9",
        "draw stock H9",
        "layoff 1 SK",
        "layoff 2 H5",
        "layoff 2 H6",
        "layoff 2 H7",
        "layoff 2 H8",
        "layoff 2 H9",
        "discard D2",
    ]
    hand = _replay(tmp_path, "basic-rummy", BR_START, BR_OPENING + early, {"A": -7, "B": 7})
    assert hand["status"] == "agree", hand


def test_a_reshuffled_stock_comes_before_the_next_draw(tmp_path):
    """注5「プレイヤーが山札の最後のカードを取り、プレイが終わっても上がりにならなかった場合には、ディーラーが捨て札
    をすべて取り、シャッフルして山札とします。山札の一番上のカードは表向きにして捨て札とします。」: under this
    variant the last discard is shuffled in, not taken; under the main rule a pile of one card may be
    turned over (「捨て札の山をそのままひっくり返して山札として、その一番上のカードを取ってプレイする」)."""
    state = {
        "ruleset": "basic-rummy",
        "players": ["A", "B", "C"],
        "turn": "A",
        "step": "draw",
        "hands": {"A": "S9 S10 SJ C7", "B": 5, "C": 6},
        "discards": "D9 H2 C4 S3",
        "discarded_by": "C",
        "stock": 0,
    }
    game = Play(tmp_path, {**state, "options": {"stock-exhausted": "reshuffle"}})
    verdict = game.judge("draw discard")
    assert not verdict["legal"] and verdict["reasons"][0]["code"] == "restock-before-discard-draw"
    assert game.moves() == ["restock"]
    assert game.do("restock")["stock"] == 3
    one = Play(tmp_path, {**state, "discards": "D9"})
    assert one.do("restock")["stock"] == 1 and one.legal("draw stock")


def test_going_rummy_plus_ten_by_hand_and_by_round():
    """注7「ゴーイング・ラミーの場合、得点を2倍するのでなく、10点余分に得点するというルールもあります」: 33 for
    HK SQ C3; and a round settled with -o going-rummy=plus-ten adds 10 instead of doubling."""
    code, data = cli_json(
        "score", "-r", "basic-rummy", "-o", "going-rummy=plus-ten", "--penalty", "--double", "HK", "SQ", "C3"
    )
    assert code == 0 and data["points"] == 33
    round_file = str(ROOT / "puzzles" / "basic-rummy" / "r01-going-rummy.yaml")
    code, data = cli_json("score", "-r", "basic-rummy", "--round", round_file)
    assert code == 0 and data["systems"][0]["payments"] == {"A": 50, "B": -46, "C": -4}
    code, data = cli_json("score", "-r", "basic-rummy", "-o", "going-rummy=plus-ten", "--round", round_file)
    assert data["systems"][0]["payments"] == {"A": 35, "B": -23, "C": -2}
    assert data["systems"][0]["one_go_bonus"] == {"add": 10}


# -- Word Rummy ---------------------------------------------------------------------------------------


def test_the_last_lap_and_the_no_game(tmp_path):
    """FAQ 1「場に裏向きの牌がなくなった場合は無くなった次の手番の人から1周1手番プレイしてゲーム終了となります。
    得点計算はせずにノーゲームとなります。この1周の間は場に3文字の制限がなくなり、2文字以上のワードの制限となります。」"""
    game = Play(
        tmp_path,
        {
            "ruleset": "word-rummy",
            "players": ["A", "B", "C"],
            "turn": "A",
            "step": "play",
            "hands": {"A": "いぬかさ", "B": "ねこたま", "C": 12},
            "table": [{"owner": "B", "cards": "さかな"}],
            "stock": 1,
            "flags": {"A": {"has_word": True}, "B": {"has_word": True}},
        },
    )
    assert not game.legal("word いぬ")  # the stock is not out yet: three tiles
    state = game.do("draw")  # A takes the last tile: the last lap starts with B
    assert state["last_lap"] and state["facts"]["last_lap_ends"] == "A" and state["turn"] == "B"
    assert "word ねこ" in game.moves()  # two tiles now
    game.do("word ねこ")
    game.do("end")
    assert game.legal("end") and not game.legal("draw")  # C: nothing left to draw
    game.do("end")
    state = game.do("end")  # A ends the lap: no game
    assert state["step"] == "over" and "no game" in state["facts"]["result"]


def test_time_running_out_while_arranging(tmp_path):
    """FAQ 2「場にあったワードを自分の手番開始時まで出来る限り戻し、手番で出した牌は手牌に戻します。ペナルティとし
    て場に裏向きにある牌を2枚引いて手番を終了し、次の手番のプレイヤーになります。」"""
    game = Play(
        tmp_path,
        {
            "ruleset": "word-rummy",
            "players": ["A", "B", "C"],
            "turn": "A",
            "step": "play",
            "hands": {"A": "やかさ", "B": 12, "C": 12},
            "table": [{"owner": "B", "cards": "さかな"}],
            "stock": 40,
            "flags": {"A": {"has_word": True}},
        },
    )
    game.do("arrange さかなや")
    state = game.do("timeout draws かし")
    assert state["table"] == [{"owner": "B", "cards": "さかな"}] and sorted(state["hands"]["A"]) == sorted("やかさかし")
    assert state["stock"] == 38 and state["turn"] == "B"


def test_a_turn_without_a_word_ends_by_drawing(tmp_path):
    """「制限時間内にワード(言葉)が作れない場合は場にある最初に配られなかった裏向きの牌を1枚引いて手番を終了させ次の
    プレイヤーに手番が移ります。」: a turn that puts down no hand tile — nothing played, a relief action only,
    or the table regrouped without a hand tile — does not simply end: the player draws."""
    game = Play(
        tmp_path,
        {
            "ruleset": "word-rummy",
            "players": ["A", "B", "C"],
            "turn": "A",
            "step": "play",
            "hands": {"A": "いぬかさや", "B": 12, "C": 12},
            "table": [{"owner": "B", "cards": "さかな"}],
            "stock": 10,
            "flags": {"A": {"has_word": True}, "B": {"has_word": True}},
        },
    )
    verdict = game.judge("end")
    assert not verdict["legal"] and verdict["reasons"][0]["code"] == "no-word-draw"
    assert "end" not in game.moves() and "draw" in game.moves()
    game.do("relief ぬ")
    assert not game.legal("end")
    game.do("arrange さかなや")  # a hand tile goes down: the turn may end
    assert game.legal("end") and not game.legal("draw")


def test_a_no_game_replays_at_no_score(tmp_path):
    """FAQ 1「…1周1手番プレイしてゲーム終了となります。得点計算はせずにノーゲームとなります。」 in `melds replay`:
    the hand that ends with the last lap settles at 0 for everyone."""
    start = {"turn": "A", "step": "play", "hands": {"A": "たぬききつね", "B": "ねこいぬかさ"}, "stock": 1}
    hand = _replay(tmp_path, "word-rummy", start, ["draw す", "end", "end"], {"A": 0, "B": 0})
    assert hand["status"] == "agree" and hand["exit"] == 0, hand


# -- Rummikub -----------------------------------------------------------------------------------------


def test_with_the_pool_empty_a_turn_passes_and_a_blocked_game_is_scored(tmp_path):
    """「A player who places no tile draws one tile from the pool, which ends the turn.」 with no tile
    left (assumption pool-empty): the draw passes; when every player has passed the game is over,
    and `melds replay` scores it as 「Each other player loses the sum of the numbers on the tiles left
    on the rack…」 with the rack worth least in the winner's place."""
    start = {
        "turn": "A",
        "step": "play",
        "hands": {"A": "k11 k12 r3", "B": "b4 o6"},
        "table": [{"owner": "B", "cards": "k9 b9 o9"}],
        "stock": 0,
        "flags": {"A": {"melded": True}, "B": {"melded": True}},
    }
    game = Play(tmp_path, {"ruleset": "rummikub", "players": ["A", "B"], **start})
    assert game.moves() == ["draw"]
    state = game.do("draw")
    assert state["turn"] == "B" and state["facts"]["passes"] == 1
    assert game.do("draw")["step"] == "over"
    hand = _replay(tmp_path, "rummikub", start, ["draw", "draw"], {"A": -26, "B": 26})
    assert hand["status"] == "agree", hand


# -- the number of players ----------------------------------------------------------------------------


def test_a_state_with_more_players_than_the_document_allows_is_impossible(tmp_path):
    """「2人〜6人。」 (Basic Rummy), 「2人〜5人。」 (Marriage), 「プレイ人数 2~5人」 (Word Rummy), 「Two to four
    players take part.」 (Rummikub): a state seating one more is refused (exit 2) by move and moves."""
    from rulings import write_state

    for ruleset, seats in (("basic-rummy", 7), ("marriage", 6), ("word-rummy", 6), ("rummikub", 5)):
        players = [chr(ord("A") + i) for i in range(seats)]
        path = write_state(
            tmp_path,
            ruleset,
            {
                "ruleset": ruleset,
                "players": players,
                "turn": "A",
                "step": "play",
                "hands": {p: 3 for p in players},
                "stock": 10,
            },
        )
        result = run("moves", str(path), "--json")
        error = json.loads(result.output.splitlines()[0])["error"]
        assert result.exit_code == 2 and error["rule"] == "players" and f"has {seats}" in error["message"], error
