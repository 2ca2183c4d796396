"""Riichi mahjong through the Game protocol: ``check`` decomposes a 14-tile hand, ``solve`` finds
the waits of 13 tiles (or the closed kans a riichi hand may declare), ``score`` prices a winning
hand with its yaku, han, fu and payments, or settles an exhaustive draw."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import cache, cached_property
from typing import TYPE_CHECKING, Any, ClassVar

from solver.core import cache as disk_cache
from solver.core.errors import ExitCode, MeldsError
from solver.core.files import Document
from solver.core.game import ClaimCheck, OptionSpec, Request
from solver.core.reader import RuleReader
from solver.core.registry import load_game
from solver.core.result import PuzzleResult, Result, Summary
from solver.core.ruleset import Ruleset, bundled_rulesets, load_ruleset, with_options
from solver.core.yamlload import load_file
from solver.games.mahjong import claims, distance, facts, present
from solver.games.mahjong.hands import Mahjong
from solver.games.mahjong.kakan import robbing_names, robbing_rule, robbing_shapes
from solver.games.mahjong.puzzles import answer_puzzle
from solver.games.mahjong.rules import MahjongRules, read_rules
from solver.games.mahjong.scoring import NotAWin, Scorer, win_from_facts
from solver.games.mahjong.shanten import ShantenTables
from solver.present.text import deck_line, head, question_puzzle_text

if TYPE_CHECKING:  # moves and game logs are loaded by the commands that use them
    from solver.core.replay import GameLog, GameReport, LogFormat
    from solver.games.mahjong.moves import MahjongMoves

SEATS = ("E", "S", "W", "N")
WIN_FLAGS = [
    ("--tsumo", "Won by self-draw (default: ron)."),
    ("--riichi", "The winner declared riichi."),
    ("--double-riichi", "Riichi on the first turn (ダブル立直)."),
    ("--ippatsu", "Won within one go-around of riichi."),
    ("--haitei", "Tsumo on the last tile (海底撈月)."),
    ("--houtei", "Ron on the last discard (河底撈魚)."),
    ("--rinshan", "Tsumo on a kan's replacement tile (嶺上開花)."),
    ("--chankan", "Ron on a tile added to a kan (槍槓)."),
    ("--chankan-ankan", "Ron robbing a closed kan (槍槓 on 暗槓: only the hands the ruleset names, 国士無双)."),
    ("--tenhou", "The dealer's first draw wins (天和)."),
    ("--chiihou", "A non-dealer's first draw wins (地和)."),
    ("--renhou", "Ron before one's first draw (人和)."),
]
DORA_INDICATORS = OptionSpec("--dora-indicators", "The dora indicators.", metavar="TILES", default="")
SCORE_OPTIONS = [
    OptionSpec("--win", "The winning tile.", metavar="TILE"),
    *(OptionSpec(name, text, flag=True) for name, text in WIN_FLAGS),
    OptionSpec("--seat", "The winner's seat wind (E is the dealer).", choices=SEATS, default="E"),
    OptionSpec("--from", "The seat that dealt in (ron).", key="discarder", choices=SEATS),
    OptionSpec("--round", "The round wind, E or S.", metavar="WIND", default="E"),
    OptionSpec(
        "--river",
        "The winner's own discards: a ron waiting on one of them is 振聴 (furiten).",
        metavar="TILES",
        default="",
    ),
    OptionSpec(
        "--furiten",
        "The winner let a winning tile go by since their last discard, or after riichi: no ron (振聴).",
        flag=True,
    ),
    DORA_INDICATORS,
    OptionSpec("--ura-indicators", "Ura dora indicators (riichi).", metavar="TILES", default=""),
    OptionSpec(
        "--nuki", "Tiles the winner set aside as dora (北抜き, three players).", type="int", minimum=0, default=0
    ),
    OptionSpec("--honba", "Honba (積み棒).", type="int", minimum=0, default=0),
    OptionSpec("--riichi-sticks", "Riichi sticks on the table.", type="int", minimum=0, default=0),
    OptionSpec(
        "--dealer-streak",
        "The dealer's consecutive wins, this one included (八連荘 at 8).",
        type="int",
        minimum=0,
        default=0,
    ),
    OptionSpec("--players", "3 or 4 players (3 picks the ruleset's three-player form).", type="int", minimum=3),
    OptionSpec("--aotenjou", "青天井 (no limits), the ruleset's aotenjou option.", flag=True),
    OptionSpec(
        "--exhaustive-draw", "Settle an exhaustive draw (不聴罰符, 流し満貫) with --tenpai and --nagashi.", flag=True
    ),
    OptionSpec("--tenpai", "With --exhaustive-draw: seats in tenpai (E,S).", metavar="SEATS", default=""),
    OptionSpec("--nagashi", "With --exhaustive-draw: seats with 流し満貫.", metavar="SEATS", default=""),
]
QUESTIONS = ("waits", "riichi_kan", "shanten", "discards")  # the flags of solve's questions
SOLVE_OPTIONS = [
    OptionSpec("--waits", "Is the 13-tile hand tenpai, and on which tiles?", flag=True),
    OptionSpec("--riichi-kan", "Which closed kans may a riichi hand declare after --draw TILE?", flag=True),
    OptionSpec("--draw", "The tile drawn (with --riichi-kan).", metavar="TILE"),
    OptionSpec("--shanten", "How far is the hand from winning (向聴数), in each hand shape?", flag=True),
    OptionSpec(
        "--discards", "何切る: each discard of 14 tiles, the shanten it leaves and the draws that lower it.", flag=True
    ),
    OptionSpec(
        "--visible",
        "With --discards: tiles seen outside the hand (rivers, others' melds), not left to draw.",
        metavar="TILES",
        default="",
    ),
    DORA_INDICATORS,
]
EXAMPLES = {
    "check": [
        "melds check -r gensou-mahjong 123m456p789s11122z",
        'melds check -r gensou-mahjong "123m 456p 11z [東東東] (0555p)"',
    ],
    "solve": [
        "melds solve -r gensou-mahjong --waits 1113456788999p",
        "melds solve -r gensou-mahjong --riichi-kan --draw 1p 1113456788999p",
        "melds solve -r gensou-mahjong --shanten 1239m1p345s11223z",
        'melds solve -r gensou-mahjong --discards 123456m2378p456s8s --visible "1p4p"',
    ],
    "score": [
        "melds score -r gensou-mahjong 234m567p345678s22p --win 8s --tsumo --riichi --seat S",
        "melds score -r gensou-mahjong --exhaustive-draw --tenpai E,S",
    ],
}


class MahjongGame:
    name: ClassVar[str] = "mahjong"
    label: ClassVar[str] = "mahjong"

    def __init__(self, ruleset: Ruleset):
        self.ruleset = ruleset
        self.rules: MahjongRules = ruleset.rules
        self.mj = Mahjong(ruleset)

    @cached_property
    def scorer(self) -> Scorer:
        return Scorer(self.mj)

    @cached_property
    def shanten_tables(self) -> ShantenTables:
        return ShantenTables(self.mj, self.mj.winning_size)

    @classmethod
    def read_rules(cls, reader: RuleReader) -> MahjongRules:
        return read_rules(reader)

    @classmethod
    def options(cls, command: str) -> Sequence[OptionSpec]:
        return {"solve": SOLVE_OPTIONS, "score": SCORE_OPTIONS}.get(command, [])

    @classmethod
    def examples(cls, command: str) -> Sequence[str]:
        return EXAMPLES.get(command, [])

    def close(self) -> None:
        self.mj.close()

    def describe(self) -> Result:
        return Result({}, ExitCode.YES, lambda: deck_line(self.ruleset))

    # -- check: a winning hand? ---------------------------------------------------------------------

    def check(self, request: Request) -> Result:
        mj = self.mj
        given = request.get("cards")
        if isinstance(given, (list, tuple)) and not given and "hand" not in request:
            raise MeldsError("no tiles given: " + mj.describe_tiles())
        hand = mj.parse_hand(_hand_words(request, "hand", "cards"))
        mj.require_size(hand, mj.winning_size, "a winning hand", "For 13 tiles ask melds solve --waits.")
        decompositions = mj.decompositions(hand)
        discards = [] if decompositions else mj.tenpai_discards(hand)
        result = present.check_json(mj, hand, decompositions, discards)
        return Result(
            result,
            ExitCode.of(bool(decompositions)),
            lambda: present.check_text(mj, result, hand, decompositions, discards),
        )

    # -- solve: waits, closed kans after riichi -------------------------------------------------------

    def solve(self, request: Request) -> Result:
        asked = [q for q in QUESTIONS if request.get(q)]
        if len(asked) > 1 or (asked and request.get("best")):
            raise MeldsError("ask one question: --best, --waits, --riichi-kan, --shanten or --discards")
        question = (
            asked[0].replace("_", "-")
            if asked
            else request.get("question") or ("riichi-kan" if request.get("draw") else "waits")
        )
        if request.get("draw") and question != "riichi-kan":
            raise MeldsError("--draw goes with --riichi-kan")
        if (request.get("visible") or request.get("dora_indicators")) and question != "discards":
            raise MeldsError("--visible and --dora-indicators go with --discards")
        if question not in ("waits", "riichi-kan", "shanten", "discards"):
            raise MeldsError(
                'a mahjong hand asks "question": "waits", "riichi-kan" (with "draw"), "shanten" or "discards"'
            )
        words = _solve_words(request)
        if question in ("shanten", "discards"):
            return distance.answer(self.mj, self.shanten_tables, question, words, request)
        mj = self.mj
        hand = mj.parse_hand(words)
        mj.require_size(hand, mj.winning_size - 1, "a waiting hand", "For 14 tiles ask melds check.")
        if question == "riichi-kan":
            draw = request.get("draw")
            if not draw:
                raise MeldsError("--riichi-kan needs --draw TILE: the tile drawn in riichi")
            drawn = mj.parse_tiles(draw)
            if len(drawn) != 1:
                raise MeldsError(f"--draw is one tile, got {draw!r}")
            mj.parse_hand(words + " " + draw)  # the drawn tile must still exist in the set
            verdicts = mj.riichi_kans(hand, drawn[0])
            result = present.kans_json(mj, hand, drawn[0], verdicts)
            return Result(
                result,
                ExitCode.of(any(v.doc_allowed for v in verdicts)),
                lambda: present.kans_text(mj, hand, drawn[0], verdicts),
            )
        waits = mj.waits(hand)
        by_wait = mj.decompositions_by_wait(hand, waits)
        result = present.waits_json(mj, hand, waits, by_wait)
        return Result(result, ExitCode.of(bool(waits)), lambda: present.waits_text(mj, result, hand, waits, by_wait))

    # -- score: a winning hand, or an exhaustive draw --------------------------------------------------

    def score(self, request: Request) -> Result:
        game = self.for_request(request)
        if game is not self:
            return game.score({**request, "players": request.get("players"), "aotenjou": False})
        if request.get("exhaustive_draw"):
            result = self.settle_draw(request)
            return Result(result, ExitCode.YES, lambda: present.draw_text(result))
        return self.score_hand(request)

    def for_request(self, request: Request) -> MahjongGame:
        """The game a scoring request is for: --players 3 picks the three-player form (the bundled
        ruleset that extends this one for that many players), --aotenjou sets the option."""
        rs = self.ruleset
        options = dict(request.get("options") or {})
        if request.get("aotenjou"):
            if "aotenjou" not in rs.options:
                raise MeldsError(f"{rs.id} has no aotenjou option")
            options["aotenjou"] = True
        players = request.get("players")
        if players and rs.players and not rs.players[0] <= int(players) <= rs.players[1]:
            variant = player_variant(rs.id, int(players))
            if variant is None:
                raise MeldsError(
                    f"{rs.id} is for {rs.players[0]}–{rs.players[1]} players and has no {players}-player form"
                )
            return load_game(load_ruleset(variant, {**_changed(rs), **options}))
        return load_game(with_options(rs, options)) if options else self

    def players(self, request: Request) -> int:
        rs = self.ruleset
        return int(request.get("players") or (rs.players[1] if rs.players else 4))

    def score_hand(self, request: Request) -> Result:
        scorer, mj = self.scorer, self.mj
        words = _hand_words(request, "hand", "cards")
        if not request.get("win"):
            raise MeldsError("--win TILE is needed: the winning tile (in the hand, or added to 13 tiles)")
        hand = mj.parse_hand(words)
        if mj.size(hand) == mj.winning_size - 1:
            hand = mj.parse_hand(words + " " + str(request["win"]))
        robs_closed = bool(request.get("chankan_ankan"))
        win_facts = {**request, "chankan": True} if robs_closed else request
        win = win_from_facts(scorer, str(request["win"]), win_facts, self.players(request))
        facts.check_win(mj, hand, win, win_facts)
        try:
            score = scorer.score(hand, win)
            if robs_closed:
                self._may_rob_closed_kan(score)
        except NotAWin as exc:
            reason = str(exc)  # the name `exc` is gone once the except block ends; the text is built later
            result = {
                "ruleset": self.ruleset.id,
                "hand": mj.format_hand(hand),
                "win": str(request["win"]),
                "winning": False,
                "reason": reason,
                "han": 0,
                "fu": 0,
                "yaku": [],
                "points": None,
            }
            return Result(result, ExitCode.NO, lambda: head("no win", False) + f": {reason}")
        result = present.score_json(scorer, hand, win, score)
        return Result(result, ExitCode.YES, lambda: present.score_text(scorer, hand, win, score, result))

    def _may_rob_closed_kan(self, score) -> None:
        """国士無双は暗槓に対して槍槓することが可能: a closed kan is robbed only by the hand shapes the
        ruleset's chankan-closed-kan rule names (none when it has no such rule: only added kans)."""
        if score.shape not in robbing_shapes(self.ruleset):
            rule = robbing_rule(self.ruleset)
            quote = f" (「{rule.source.quote}」)" if rule and rule.source and rule.source.quote else ""
            raise NotAWin(f"a closed kan may be robbed only by {robbing_names(self.ruleset)}{quote}")

    def settle_draw(self, request: Request) -> dict:
        players = self.players(request)

        def seats(text) -> list[str]:
            items = text if isinstance(text, list) else [x for x in str(text).replace(",", " ").split() if x]
            for x in items:
                if x not in "ESWN"[:players]:
                    raise MeldsError(f"unknown seat {x!r}: {players} players sit {', '.join('ESWN'[:players])}")
            return items

        tenpai, nagashi = seats(request.get("tenpai", "")), seats(request.get("nagashi", ""))
        return {
            "ruleset": self.ruleset.id,
            "draw": True,
            "players": players,
            "tenpai": tenpai,
            "nagashi": nagashi,
            "payments": self.scorer.settle_draw(players, tenpai, nagashi),
        }

    # -- puzzles, moves, audit -------------------------------------------------------------------------

    def answer(self, document: Document, request: Request, folder: bool = False) -> PuzzleResult:
        row, code = answer_puzzle(document, self.mj, lambda: self.scorer, lambda: self.shanten_tables)
        matches = row.get("matches")
        return PuzzleResult(
            row,
            ExitCode.NO if matches is False else ExitCode(code),
            lambda: question_puzzle_text(row, puzzle_answer_text(row)),
            Summary(row["question"], None, matches, tuple(row.get("mismatches", ()))),
            ExitCode(code) if matches is None else ExitCode.YES if matches else ExitCode.NO,
        )

    @cached_property
    def _moves(self) -> MahjongMoves:
        from solver.games.mahjong.moves import MahjongMoves

        return MahjongMoves(self.ruleset, self.mj, self.scorer if self.rules.mahjong_scoring else None)

    def moves(self) -> MahjongMoves:
        return self._moves

    def state_problems(self, state) -> list:
        return facts.state_problems(self.mj, state)

    @classmethod
    def log_formats(cls) -> Sequence[LogFormat]:
        from solver.games.mahjong import logs

        return logs.FORMATS

    def replay(self, log: GameLog) -> Iterator[GameReport]:
        from solver.games.mahjong import logs

        return logs.replay_log(self, log, player_variant)

    def settle(self, state) -> Any:
        raise MeldsError(
            "mahjong hands are replayed from game records (Tenhou JSON or mjlog), not settled from a state"
        )

    def claim_checks(self) -> Mapping[str, ClaimCheck]:
        return claims.checks(self.ruleset, self.mj, self.scorer)

    def audit_checks(self) -> Sequence[Callable[[Any], None]]:
        return []  # the meld kinds are parts of a hand, not melds: no meld-size searches


def puzzle_answer_text(row: dict) -> str:
    q = row["question"]
    if q == "score":
        return f"{row['han']} han {row['fu']} fu, {row['points']['total']:,} points: " + ", ".join(
            y["name"] for y in row["yaku"]
        )
    if q == "discards":
        rows = row["discards"]
        best = [
            r["discard"]
            for r in rows
            if (r["shanten"], r["ukeire_total"]) == (rows[0]["shanten"], rows[0]["ukeire_total"])
        ]
        return f"discard {' or '.join(best)}: shanten {rows[0]['shanten']}, {rows[0]['ukeire_total']} tiles to draw"
    if q == "best-discard":
        return (
            f"discard {' or '.join(row['best_discard']) or '— (no discard leaves tenpai)'}, "
            f"waits {' '.join(row['waits'])}"
        )
    return f"waits {' '.join(row['waits'])}" if row["tenpai"] else "not tenpai"


@cache
def player_variant(ruleset_id: str, players: int) -> str | None:
    """The bundled ruleset that extends ``ruleset_id`` for this many players (read once)."""
    for extends, least, most, path in _player_spans():
        if extends == ruleset_id and least <= players <= most:
            return path
    return None


def _player_spans() -> tuple[tuple[Any, int, int, str], ...]:
    """Each bundled ruleset's parent (``extends``), fewest and most players, and path, kept in
    melds' cache under the files' bytes: parsing every bundled ruleset takes a tenth of a second,
    which a replay's worker that meets a record of another player count would spend again."""
    paths = bundled_rulesets()
    key = disk_cache.key_of(*(str(path) for path in paths), *(path.read_bytes() for path in paths))
    kept = disk_cache.load("player-spans", key)
    if isinstance(kept, tuple):
        return kept
    spans = []
    for path in paths:
        raw = load_file(str(path))
        span = raw.get("players", {})
        spans.append((raw.get("extends"), span.get("min", 0), span.get("max", 0), str(path)))
    disk_cache.store("player-spans", key, tuple(spans))
    return tuple(spans)


def _changed(rs: Ruleset) -> dict:
    return {k: v for k, v in rs.option_values.items() if v != rs.options[k].default}


def _solve_words(request: Request) -> str:
    """The tiles of a solve request: its hand and the words after the options."""
    hand, args = request.get("hand"), request.get("args")
    if isinstance(hand, str):
        words = " ".join([hand, *args]) if args else hand
    else:
        words = " ".join([*(hand or ()), *(args or ())])
    if not words.strip():
        raise MeldsError("no tiles given: write them after the options or with --hand")
    return words


def _hand_words(request: Request, *keys: str) -> str:
    for key in keys:
        value = request.get(key)
        if isinstance(value, str) and value.strip():
            return value
        if isinstance(value, (list, tuple)) and value:
            return " ".join(map(str, value))
    raise MeldsError(f'each line needs "{keys[0]}": the tiles, e.g. "123m456p789s11122z"')
