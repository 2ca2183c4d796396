"""幻想麻雀 turn by turn: draw, discard, riichi, tsumo, the calls on a discard (chi, pon, kan, ron)
and their priority, kans and robbing them (:mod:`solver.games.mahjong.kakan`), 北抜き where the
ruleset has it (:mod:`solver.games.mahjong.nuki`), 九種九牌; 四風連打 and 四開槓 end the hand.

Players are seats (``E S W N``; ``E`` is the dealer). Hands are tenhou strings with declared
melds in brackets. Steps: ``draw`` (the turn's draw is to come), ``discard`` (14 tiles held),
``call`` (a discard lies on the table: ``S: pon``, ``W: ron``… — an action by a seat other than
the turn's is written ``SEAT: action``). Per-player facts go in ``flags`` (``points``, ``riichi``,
``called``: the tile just claimed and how; ``furiten``: temporary or riichi, after letting a winning
tile go by; ``ippatsu``, ``double_riichi``; ``nuki``: tiles set aside by 北抜き), table facts in
``facts`` (``first_go_around``, ``kans`` by
seat, ``claims``: the calls other seats have declared on this discard; ``rivers``: each seat's own
discards, called tiles included, for 振聴; ``drawn``: the tile just drawn; ``kan``: a kan just
declared, which 槍槓 may rob before the replacement draw; ``rinshan``: the seat drawing after its kan).

The win's facts follow from the state (:meth:`MahjongMoves.winning`, which the replay of a game
record settles with too): 海底撈月 a tsumo on the last tile of the wall, 河底撈魚 a ron on the
discard after it, 嶺上開花 a tsumo on the draw after one's own kan, 槍槓 a ron on a kan's tile,
一発 and ダブル立直 from the flags riichi sets, 天和/地和/人和 on the first go-around; ``facts.win_facts``
(seat -> Win fields) may add what a state cannot show."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from solver.core.deck import Face
from solver.core.errors import MeldsError
from solver.core.moves import Action, Forbidden, Listing, Moves
from solver.core.ruleset import Ruleset
from solver.core.state import GameState
from solver.games.mahjong.furiten import furiten_check, furiten_thirteen_check
from solver.games.mahjong.hands import Hand, Mahjong
from solver.games.mahjong.kakan import KanRules, chankan_closed_kan
from solver.games.mahjong.nuki import NukiRules, nuki_count
from solver.games.mahjong.scoring import NotAWin, Scorer, Win, WinRead
from solver.games.mahjong.win import WIN_FACT_FLAGS, WIN_FACT_TILES, remember


class MahjongMoves(KanRules, NukiRules, Moves):
    VERBS = {
        "draw": "draw",
        "discard": "discard",
        "riichi": "riichi",
        "tsumo": "tsumo",
        "ron": "ron",
        "chi": "chi",
        "pon": "pon",
        "kan": "kan",
        "ankan": "ankan",
        "kakan": "kakan",
        "kyuushu": "kyuushu",
        "nuki": "nuki",
        "pass": "pass_",
    }

    def __init__(self, ruleset: Ruleset, mj: Mahjong, scorer: Scorer | None):
        super().__init__(ruleset)
        self.mj = mj
        self.scorer = scorer
        self._waits: dict[str, frozenset] = {}  # a 13-tile hand's text -> its waits (asked at every pass)
        self._wait_lists: dict[str, list[tuple]] = {}  # a hand's text -> its waits, as Mahjong.waits lists them
        self._hands: dict[str, Hand] = {}  # a hand's text -> the hand (a state keeps hands as text)
        self._ranks: dict[str, int] | None = None  # the call-priority check's order, read once
        # the wins asked of one state: (seat, tsumo, what) -> (hand, win) or the scorer's read; a replay
        # asks the judge, then the settling of the same state (a state is not changed in place)
        self._wins_of: tuple[GameState | None, dict[tuple[str, bool, str], Any]] = (None, {})

    def judge(self, state: GameState, text: str, describe: bool = True):
        return super().judge(self.current(state), text, describe)

    def listing(self, state: GameState, check: Callable[[], None] = lambda: None) -> Listing:
        return super().listing(self.current(state), check)

    # -- hands --------------------------------------------------------------------------------

    def actor(self, state: GameState, action: Action) -> str:
        return action.actor or state.turn

    def hand(self, state: GameState, seat: str) -> Hand:
        text = state.hands[seat]
        if isinstance(text, int):
            raise Forbidden("hidden-hand", f"{seat}'s hand is hidden in this state; give its tiles")
        hand = self._hands.get(text)
        return hand if hand is not None else remember(self._hands, text, self.mj.parse_hand(text))

    def text(self, hand: Hand) -> str:
        """A hand's text, which reads back as the same hand (kept: the next action reads it)."""
        text = self.mj.format_hand(hand)
        remember(self._hands, text, hand)
        return text

    def known_hand(self, text: str, hand: Hand) -> str:
        """A hand's text written from the hand elsewhere (the replay's counted table), kept with
        the hand as :meth:`text` keeps it."""
        remember(self._hands, text, hand)
        return text

    def tile(self, token: str) -> Face:
        faces = self.mj.parse_tiles(token)
        if len(faces) != 1:
            raise MeldsError(f"{token!r} is not one tile")
        return faces[0]

    def _without(self, hand: Hand, faces: Sequence[Face]) -> Hand:
        concealed = list(hand.concealed)
        for f in faces:
            match = next((c for c in concealed if c == f), None) or next(
                (c for c in concealed if self.mj.identity(c) == self.mj.identity(f)), None
            )
            if match is None:
                raise Forbidden("not-in-hand", f"{self.mj.tile_text(self.mj.identity(f))} is not in the hand")
            concealed.remove(match)
        return Hand(tuple(concealed), hand.melds)

    def _set_hand(self, state: GameState, seat: str, hand: Hand, **changes: object) -> GameState:
        return state.but(hands={**state.hands, seat: self.text(hand)}, **changes)

    def _drew(self, state: GameState, seat: str, what: str) -> None:
        """A tsumo or a kan on one's turn follows a draw: after a chi or pon comes a discard."""
        called = state.flag(seat, "called")
        if isinstance(called, str) and called.split()[0] in ("chi", "pon"):
            raise Forbidden(
                "after-call",
                f"{seat} has just called ({called}): a discard follows, no {what} before it",
                self.source(what),
            )

    def _need(self, state: GameState, step: str, seat: str, what: str) -> None:
        if state.step != step:
            raise Forbidden("wrong-step", f"{what} is for the {step} step; the hand is at {state.step}")
        if step != "call" and seat != state.turn:
            raise Forbidden("not-your-turn", f"it is {state.turn}'s turn, not {seat}'s")
        if step == "call" and seat == state.discarded_by:
            raise Forbidden("own-discard", f"{seat} cannot call their own discard")

    def _win(self, state: GameState, seat: str, tile, tsumo: bool, robbed: bool = False) -> Win:
        """The facts of a win the state shows: the wall's last tile, a kan's replacement, a robbed
        kan, the first go-around, riichi and its furiten, the seat's own discards; then what
        ``facts.win_facts`` gives for the seat."""
        facts = state.facts
        last = state.stock <= 0
        rinshan = tsumo and facts.get("rinshan") == seat
        first = bool(facts.get("first_go_around")) and not state.flag(seat, "had_turn")
        dealer = seat == state.players[0]
        river = tuple(self.mj.identity(f) for f in self.mj.parse_tiles(self.river(state, seat)))
        offered = self.offered_kan(state) if robbed else None
        win = Win(
            self.mj.identity(tile),
            tsumo=tsumo,
            riichi=bool(state.flag(seat, "riichi")),
            double_riichi=bool(state.flag(seat, "double_riichi")),
            ippatsu=bool(state.flag(seat, "ippatsu")),
            haitei=tsumo and last and not rinshan,
            houtei=not tsumo and last and not robbed,
            rinshan=rinshan,
            chankan=self._robbing_is_chankan(offered),
            tenhou=tsumo and first and dealer,
            chiihou=tsumo and first and not dealer,
            renhou=not tsumo and first and not dealer,
            seat=seat,
            round_wind=facts.get("round", "E"),
            players=len(state.players),
            discarder=None if tsumo else offered["by"] if offered else state.discarded_by,
            river=river,
            furiten=bool(state.flag(seat, "furiten")),
            nuki=nuki_count(state, seat),
        )
        known = (facts.get("win_facts") or {}).get(seat)
        if not known:
            return win
        # flags and tiles (the validator has checked them)
        given: dict[str, Any] = {k: bool(known[k]) for k in WIN_FACT_FLAGS if k in known}
        for key in WIN_FACT_TILES:
            if key in known:
                given[key] = tuple(self.mj.identity(f) for f in self.mj.parse_tiles(_tile_text(known[key])))
        return win.but(**given)

    def winning(self, state: GameState, seat: str, tsumo: bool) -> tuple[Hand, Win]:
        """The tiles a seat would win with now and the facts of that win: a tsumo on the tile
        drawn, a ron on the discard on the table or on the tile of a kan being robbed."""
        return self._once_a_state(state, (seat, tsumo, "win"), lambda: self._winning(state, seat, tsumo))

    def win_read(self, state: GameState, seat: str, tsumo: bool) -> WinRead:
        """The seat's win now (:meth:`winning`) read by the scorer apart from its situation and furiten,
        once a state for its judge and its settling (NotAWin: the tiles do not win)."""

        def read() -> WinRead:
            hand, win = self.winning(state, seat, tsumo)
            return self._scoring().read_win(hand, win.but(river=(), furiten=False))

        return self._once_a_state(state, (seat, tsumo, "read"), read)

    def _once_a_state(self, state: GameState, key: tuple[str, bool, str], make: Callable[[], Any]) -> Any:
        known, found = self._wins_of
        if known is not state:
            found = {}
            self._wins_of = (state, found)
        value = found.get(key)
        if value is None:
            value = found[key] = make()
        return value

    def _winning(self, state: GameState, seat: str, tsumo: bool) -> tuple[Hand, Win]:
        hand = self.hand(state, seat)
        if tsumo:
            return hand, self._win(state, seat, self._drawn(state, hand), True)
        offered = self.offered_kan(state)
        tile = self.tile(offered["tile"]) if offered else self._called(state)
        return hand.with_tile(tile), self._win(state, seat, tile, False, robbed=offered is not None)

    def river(self, state: GameState, seat: str) -> str:
        """A seat's discards as the state keeps them (called ones too), one text."""
        rivers = state.facts.get("rivers") or {}
        value = rivers.get(seat, "")
        return " ".join(value) if isinstance(value, list) else str(value)

    def _drawn(self, state: GameState, hand: Hand) -> Face:
        """The tile the turn's player just drew (``facts.drawn``; a state written by hand lists it last)."""
        drawn = state.facts.get("drawn")
        if drawn:
            return self.tile(str(drawn))
        return hand.concealed[-1]

    def _waits_on(self, state: GameState, seat: str, ident: tuple) -> bool:
        """Would this tile complete the seat's hand (whatever its yaku)? Hidden hands cannot say."""
        text = state.hands[seat]
        if isinstance(text, int):
            return False
        waits = self._waits.get(text)
        if waits is None:
            hand = self.mj.parse_hand(text)
            waits = frozenset(self.mj.waits(hand)) if self.mj.size(hand) == self.mj.winning_size - 1 else frozenset()
            remember(self._waits, text, waits)
        return ident in waits

    def wait_list(self, state: GameState, seat: str) -> list[tuple]:
        """The waits of a seat's hand as ``Mahjong.waits`` lists them (kept by the hand's text: the
        judge of a ron asks them for each of its furiten checks)."""
        text = state.hands[seat]
        found = self._wait_lists.get(text)  # type: ignore[arg-type]  # a hidden hand is not asked
        if found is None:
            found = remember(self._wait_lists, text, self.mj.waits(self.hand(state, seat)))
        return found

    def _missed(self, state: GameState, ident: tuple, skip: set[str | None]) -> GameState:
        """Seats that let a winning tile go by are furiten: until their next discard (temporary), or
        for the rest of the hand after riichi."""
        for seat in state.players:
            if seat in skip or not self._waits_on(state, seat, ident):
                continue
            state = state.with_flag(seat, "furiten", "riichi" if state.flag(seat, "riichi") else "temporary")
        return state

    # -- the turn's own actions ---------------------------------------------------------------

    def draw(self, state: GameState, action: Action) -> GameState:
        seat = self.actor(state, action)
        self._need(state, "draw", seat, "draw")
        if state.stock <= 0:
            raise Forbidden("wall-empty", "the wall is empty: the hand ends in an exhaustive draw")
        if not action.args:
            raise MeldsError("draw TILE: the tile drawn (mahjong states keep the hand's tiles known)")
        tile = self.tile(action.args[0])
        after = self._kan_passed(state)  # a kan nobody robbed: its replacement tile
        hand = self.hand(state, seat).with_tile(tile)
        self.mj.require_copies(hand)  # a tile drawn is one the set still holds
        facts = dict(after.facts)
        facts["drawn"] = self.mj.format_tiles((tile,))
        return self._set_hand(after, seat, hand, stock=state.stock - 1, step="discard", facts=facts)

    def discard(self, state: GameState, action: Action) -> GameState:
        seat = self.actor(state, action)
        self._need(state, "discard", seat, "discard")
        if len(action.args) != 1:
            raise MeldsError("discard one tile: 'discard 5s'")
        face = self.tile(action.args[0])
        hand = self._without(self.hand(state, seat), [face])
        rivers = {p: self.river(state, p) for p in (state.facts.get("rivers") or {})}
        rivers[seat] = f"{rivers.get(seat, '')} {action.args[0]}".strip()
        facts = {k: v for k, v in state.facts.items() if k not in ("drawn", "rinshan", "kan")}
        own = dict(state.flags.get(seat, {}))  # the seat's flags, changed together (one new state, not four)
        own.update(called=False, had_turn=True)
        if own.get("furiten") == "temporary":  # temporary furiten lasts until one's own discard
            own["furiten"] = False
        if own.get("ippatsu"):
            own["ippatsu"] = False  # a go-around has passed since the riichi
        after = self._set_hand(
            state,
            seat,
            hand,
            discards=state.discards + (action.args[0],),
            step="call",
            discarded_by=seat,
            turn=seat,
            facts={**facts, "rivers": rivers},
            flags={**state.flags, seat: own},
        )
        return self._abortive(after, seat, face)

    def riichi(self, state: GameState, action: Action) -> GameState:
        seat = self.actor(state, action)
        self._need(state, "discard", seat, "riichi")
        if state.flag(seat, "riichi"):
            raise Forbidden("already-riichi", f"{seat} is in riichi already")
        if any(m.open for m in self.hand(state, seat).melds):
            raise Forbidden("open-hand", "riichi needs a closed hand (no open melds)", self.source("riichi"))
        face = self.tile(action.args[0]) if action.args else None
        if face is None:
            raise MeldsError("riichi TILE: the tile discarded with the declaration")
        hand = self._without(self.hand(state, seat), [face])
        if not self.mj.waits(hand):
            raise Forbidden(
                "not-tenpai", f"after discarding {action.args[0]} the hand is not tenpai", self.source("riichi")
            )
        first = bool(state.facts.get("first_go_around")) and not state.flag(seat, "had_turn")
        after = self.discard(state, Action("discard", (action.args[0],), f"discard {action.args[0]}", seat))
        points = state.flag(seat, "points")
        after = after.with_flag(seat, "riichi", True).with_flag(seat, "ippatsu", True)
        if first:  # ダブル立直: riichi with the first discard, no call before it
            after = after.with_flag(seat, "double_riichi", True)
        known = isinstance(points, int) and not isinstance(points, bool)  # flags default to False
        return after.with_flag(seat, "points", points - self.rs.rules.mahjong_scoring.riichi_stick) if known else after

    def tsumo(self, state: GameState, action: Action) -> GameState:
        seat = self.actor(state, action)
        self._need(state, "discard", seat, "tsumo")
        self._drew(state, seat, "tsumo")
        self._judged_win(state, seat, tsumo=True)
        return state.but(step="over", facts={**state.facts, "result": f"tsumo {seat}"})

    def kyuushu(self, state: GameState, action: Action) -> GameState:
        seat = self.actor(state, action)
        self._need(state, "discard", seat, "kyuushu")
        if not state.facts.get("first_go_around") or state.flag(seat, "had_turn"):
            raise Forbidden("not-first-turn", "九種九牌 is declared on one's first draw, before any call")
        return state.but(step="over", facts={**state.facts, "result": "九種九牌 (abortive draw)"})

    # -- calls on a discard -------------------------------------------------------------------

    def pass_(self, state: GameState, action: Action) -> GameState:
        """Nobody calls: the next seat draws — or, after a fourth kan shared by several players,
        the hand ends in 四開槓."""
        if self.offered_kan(state):  # nobody robs the kan: its player draws the replacement
            return self._kan_passed(state)
        if state.step != "call":
            raise Forbidden("wrong-step", "pass closes the calls on a discard; no discard lies on the table")
        if state.facts.get("four_kans_pending"):
            return state.but(step="over", facts={**state.facts, "result": "四開槓 (abortive draw)"})
        seats = list(state.players)
        nxt = seats[(seats.index(state.discarded_by or state.turn) + 1) % len(seats)]
        after = self._missed(state, self.mj.identity(self._called(state)), {state.discarded_by})
        return after.but(turn=nxt, step="draw", facts={**after.facts, "claims": {}})

    def _called(self, state: GameState) -> Face:
        return self.tile(state.discards[-1])

    def ron(self, state: GameState, action: Action) -> GameState:
        seat = self.actor(state, action)
        offered = self.offered_kan(state)
        if offered:
            return self._rob_kan(state, seat, offered)
        self._need(state, "call", seat, "ron")
        self._judged_win(state, seat, tsumo=False)
        return state.but(step="over", facts={**state.facts, "result": f"ron {seat} from {state.discarded_by}"})

    def chi(self, state: GameState, action: Action) -> GameState:
        return self._claim(state, action, "chi", 2)

    def pon(self, state: GameState, action: Action) -> GameState:
        return self._claim(state, action, "pon", 2)

    def kan(self, state: GameState, action: Action) -> GameState:
        return self._claim(state, action, "minkan", 3)

    def _claim(self, state: GameState, action: Action, kind: str, from_hand: int) -> GameState:
        seat = self.actor(state, action)
        self._need(state, "call", seat, kind)
        tile = self._called(state)
        hand = self.hand(state, seat)
        if kind == "chi" or action.args:  # a pon or kan may name its tiles from the hand (a red five or not)
            if not action.args:
                raise MeldsError("chi TILES: the two tiles from the hand, e.g. 'S: chi 34s'")
            own = self.mj.parse_tiles(action.args[0])
        else:
            own = [f for f in hand.concealed if self.mj.identity(f) == self.mj.identity(tile)][:from_hand]
            if len(own) < from_hand:
                raise Forbidden("not-in-hand", f"{kind} on {state.discards[-1]} needs {from_hand} more in the hand")
        rest = self._without(hand, own)
        text = self.mj.format_tiles(tuple(own) + (tile,))
        try:
            meld = self.mj.parse_hand(f"[{text}]").melds[0]  # the ruleset decides what it is, and if allowed
        except MeldsError as exc:
            declared = next((d for d in self.rs.rules.declared_melds if d.id == kind), None)
            raise Forbidden("call-not-allowed", str(exc), declared.source if declared else None) from None
        if meld.kind != kind:
            raise Forbidden("not-a-meld", f"{text} is a {meld.kind}, not a {kind}")
        after = self._set_hand(
            state,
            seat,
            Hand(rest.concealed, rest.melds + (meld,)),
            turn=seat,
            step="discard" if kind != "minkan" else "draw",
            discards=state.discards[:-1],
            facts={**state.facts, "first_go_around": False, "claims": {}},
        )
        after = after.with_flag(seat, "called", f"{kind} {state.discards[-1]}")
        after = self._calls_break_ippatsu(self._missed(after, self.mj.identity(tile), {seat, state.discarded_by}))
        return self._kan_done(after, seat) if kind == "minkan" else after

    def _calls_break_ippatsu(self, state: GameState) -> GameState:
        for p in state.players:
            if state.flag(p, "ippatsu"):
                state = state.with_flag(p, "ippatsu", False)
        return state

    # -- shared -------------------------------------------------------------------------------

    def _scoring(self) -> Scorer:
        if self.scorer is None:
            raise MeldsError(f"{self.rs.id} has no mahjong_scoring section: its wins are not scored")
        return self.scorer

    def _judged_win(self, state: GameState, seat: str, tsumo: bool) -> None:
        """Forbidden unless the state allows the seat's win: its tiles win, with a yaku (past the
        ruleset's shibari: with its han of yaku); furiten is a check of its own (the ruleset's
        furiten rules, each with its source). The win's points are the settling's to work out."""
        try:
            read = self.win_read(state, seat, tsumo)
            win = self.winning(state, seat, tsumo)[1]
            shibari = self._scoring().ms.shibari
            if not read.with_yaku or (shibari and win.honba >= shibari[0]):
                self._scoring().score_read(read, win)  # says why there is no win
        except NotAWin as exc:
            raise Forbidden("no-win", str(exc), self.source("tsumo" if tsumo else "ron")) from None

    def _abortive(self, state: GameState, seat: str, face) -> GameState:
        """四風連打: the first four discards are the same wind with no call; 四開槓: four kans by
        more than one player, and the discard after the fourth is not claimed (left to the next
        action: the state records it)."""
        facts = dict(state.facts)
        if facts.get("first_go_around") and len(state.discards) == len(state.players) == 4:
            tiles = {self.mj.identity(self.tile(t)) for t in state.discards}
            winds = {self.mj.identity(self.tile(w)) for w in ("1z", "2z", "3z", "4z")}
            if len(tiles) == 1 and tiles <= winds:
                return state.but(step="over", facts={**facts, "result": "四風連打 (abortive draw)"})
        kans = facts.get("kans", {})
        if sum(kans.values()) >= 4 and len([s for s, n in kans.items() if n]) > 1:
            facts["four_kans_pending"] = True  # 四開槓 unless this discard is called for ron
        facts["first_go_around"] = bool(facts.get("first_go_around")) and len(state.discards) < len(state.players)
        return state if facts == state.facts else state.but(facts=facts)

    def candidates(self, state: GameState) -> list[str]:
        if state.step == "over":
            return []
        out: list[str] = []
        if state.step == "discard" and not isinstance(state.hands[state.turn], int):
            hand = self.hand(state, state.turn)
            tiles = dict.fromkeys(self.mj.tile_text(self.mj.identity(f)) for f in hand.concealed)
            out += [f"discard {t}" for t in tiles] + [f"riichi {t}" for t in tiles]
            held = [self.mj.identity(f) for f in hand.concealed]
            pons = {self.mj.identity(m.faces[0]) for m in hand.melds if m.kind == "pon"}
            out += ["tsumo", "kyuushu"] + [
                f"ankan {self.mj.tile_text(i)}" for i in dict.fromkeys(held) if held.count(i) >= 4
            ]
            out += [f"kakan {self.mj.tile_text(i)}" for i in dict.fromkeys(held) if i in pons]
            out += self.nuki_candidates(state, hand)
        offered = self.offered_kan(state)
        if offered:  # 槍槓 on the kan just declared
            out += [
                f"{seat}: ron"
                for seat in state.players
                if seat != offered.get("by") and not isinstance(state.hands[seat], int)
            ]
        if state.step == "call":
            out.append("pass")
            for seat in state.players:
                if seat == state.discarded_by or isinstance(state.hands[seat], int):
                    continue
                out += [f"{seat}: ron", f"{seat}: pon", f"{seat}: kan"]
                hand = self.hand(state, seat)
                texts = sorted({self.mj.tile_text(self.mj.identity(f)) for f in hand.concealed})
                out += [
                    f"{seat}: chi {a[0]}{b}" for a in texts for b in texts if a < b and a[1] == b[1] and a[1] != "z"
                ]
        return out


def _tile_text(value) -> str:
    return " ".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value)


def _call_priority(self: MahjongMoves, state: GameState, action: Action) -> str | None:
    """A call yields to a higher one another seat has declared, in the ruleset's order."""
    if state.step != "call":
        return None
    check = next(c for c in self.move_rules.checks if c.name == "call-priority")
    rank = self._ranks
    if rank is None:
        rank = self._ranks = {
            call: -level
            for level, group in enumerate(check.params.get("order", []))
            for call in ([group] if isinstance(group, str) else group)
        }
    if action.verb not in rank:
        return None
    seat = self.actor(state, action)
    above = [
        f"{s}: {c}"
        for s, c in (state.facts.get("claims") or {}).items()
        if s != seat and rank.get(c, -len(rank) - 1) > rank[action.verb]
    ]
    if above:
        order = ", then ".join(g if isinstance(g, str) else " and ".join(g) for g in check.params["order"])
        return f"{', '.join(above)} takes precedence over {action.verb} ({order})"
    return None


def _chi_from_left(self: MahjongMoves, state: GameState, action: Action) -> str | None:
    if action.verb == "chi" and state.step == "call" and state.discarded_by:
        seats = list(state.players)
        left = seats[(seats.index(state.discarded_by) + 1) % len(seats)]
        if self.actor(state, action) != left:
            return f"only {left}, next after {state.discarded_by}, may chi this discard"
    return None


def _kuikae(self: MahjongMoves, state: GameState, action: Action) -> str | None:
    called = state.flag(state.turn, "called")
    if action.verb != "discard" or not isinstance(called, str) or not called.startswith("chi ") or not action.args:
        return None
    if self.mj.identity(self.tile(action.args[0])) == self.mj.identity(self.tile(called.split()[1])):
        return f"after chi on {called.split()[1]}, that same tile (現物) may not be discarded; suji may"
    return None


def _kyuushu_kinds(self: MahjongMoves, state: GameState, action: Action) -> str | None:
    """九種九牌: enough kinds of terminals and honours in the hand (the check's ``count``)."""
    if action.verb != "kyuushu":
        return None
    need = next(c for c in self.move_rules.checks if c.name == "kyuushu-kinds").params.get("count", 9)
    hand = self.hand(state, self.actor(state, action))
    yaochu = self._scoring().tile_classes["yaochu"]
    kinds = {self.mj.identity(f) for f in hand.concealed if yaochu[self.mj.index[self.mj.identity(f)]]}
    if len(kinds) < need:
        return f"{len(kinds)} kinds of terminals and honours; 九種九牌 needs {need}"
    return None


def _riichi_points(self: MahjongMoves, state: GameState, action: Action) -> str | None:
    points = state.flag(self.actor(state, action), "points")
    stick = self.rs.rules.mahjong_scoring.riichi_stick  # the riichi stick is what a riichi costs
    if action.verb == "riichi" and isinstance(points, int) and not isinstance(points, bool) and points < stick:
        return f"{points} points: riichi needs {stick:,}"
    return None


def _riichi_no_call(self: MahjongMoves, state: GameState, action: Action) -> str | None:
    """A hand in riichi stays closed: no chi, pon or open kan on a discard."""
    if (
        action.verb in ("chi", "pon", "kan")
        and state.step == "call"
        and state.flag(self.actor(state, action), "riichi")
    ):
        return f"{self.actor(state, action)} is in riichi: the hand stays closed (no chi, pon or kan on a discard)"
    return None


def _riichi_discards_the_draw(self: MahjongMoves, state: GameState, action: Action) -> str | None:
    """A hand in riichi no longer changes: it discards the tile it drew (a closed kan aside)."""
    seat = self.actor(state, action)
    if (
        action.verb != "discard"
        or state.step != "discard"
        or not state.flag(seat, "riichi")
        or not action.args
        or isinstance(state.hands[seat], int)
    ):
        return None
    drawn = self.mj.identity(self._drawn(state, self.hand(state, seat)))
    if self.mj.identity(self.tile(action.args[0])) != drawn:
        return f"{seat} is in riichi: the hand is fixed, so the tile drawn ({self.mj.tile_text(drawn)}) is discarded"
    return None


MahjongMoves.CHECKS = {
    "call-priority": _call_priority,
    "chi-from-left": _chi_from_left,
    "kuikae-chi-genbutsu": _kuikae,
    "riichi-points": _riichi_points,
    "kyuushu-kinds": _kyuushu_kinds,
    "furiten": furiten_check,
    "furiten-thirteen-sided": furiten_thirteen_check,
    "chankan-closed-kan": chankan_closed_kan,
    "riichi-no-call": _riichi_no_call,
    "riichi-discards-the-draw": _riichi_discards_the_draw,
}
