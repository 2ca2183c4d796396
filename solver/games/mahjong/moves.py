"""幻想麻雀 turn by turn: draw, discard, riichi, tsumo, the calls on a discard (chi, pon, kan, ron)
and their priority, closed kans (after riichi too), 九種九牌; 四風連打 and 四開槓 end the hand.

Players are seats (``E S W N``; ``E`` is the dealer). Hands are tenhou strings with declared
melds in brackets. Steps: ``draw`` (the turn's draw is to come), ``discard`` (14 tiles held),
``call`` (a discard lies on the table: ``S: pon``, ``W: ron``… — an action by a seat other than
the turn's is written ``SEAT: action``). Per-player facts go in ``flags`` (``points``, ``riichi``,
``called``: the tile just claimed and how), table facts in ``facts`` (``first_go_around``,
``kans`` by seat, ``claims``: the calls other seats have declared on this discard)."""

from __future__ import annotations

from dataclasses import replace

from solver.core.errors import MeldsError
from solver.core.moves import Action, Forbidden, Moves
from solver.core.ruleset import Ruleset
from solver.core.state import GameState
from solver.games.mahjong.hands import DeclaredMeld, Hand, Mahjong
from solver.games.mahjong.scoring import NotAWin, Scorer, Win

class MahjongMoves(Moves):
    VERBS = {"draw": "draw", "discard": "discard", "riichi": "riichi", "tsumo": "tsumo", "ron": "ron",
             "chi": "chi", "pon": "pon", "kan": "kan", "ankan": "ankan", "kyuushu": "kyuushu", "pass": "pass_"}

    def __init__(self, ruleset: Ruleset, mj: Mahjong, scorer: Scorer | None):
        super().__init__(ruleset)
        self.mj = mj
        self.scorer = scorer

    # -- hands --------------------------------------------------------------------------------

    def actor(self, state: GameState, action: Action) -> str:
        return action.actor or state.turn

    def hand(self, state: GameState, seat: str) -> Hand:
        text = state.hands[seat]
        if isinstance(text, int):
            raise Forbidden("hidden-hand", f"{seat}'s hand is hidden in this state; give its tiles")
        return self.mj.parse_hand(text)

    def text(self, hand: Hand) -> str:
        return self.mj.format_hand(hand)

    def tile(self, token: str):
        faces = self.mj.parse_tiles(token)
        if len(faces) != 1:
            raise MeldsError(f"{token!r} is not one tile")
        return faces[0]

    def _without(self, hand: Hand, faces) -> Hand:
        concealed = list(hand.concealed)
        for f in faces:
            match = next((c for c in concealed if c == f), None) or \
                next((c for c in concealed if self.mj.identity(c) == self.mj.identity(f)), None)
            if match is None:
                raise Forbidden("not-in-hand", f"{self.mj.tile_text(self.mj.identity(f))} is not in the hand")
            concealed.remove(match)
        return Hand(tuple(concealed), hand.melds)

    def _set_hand(self, state: GameState, seat: str, hand: Hand, **changes) -> GameState:
        return replace(state, hands={**state.hands, seat: self.text(hand)}, **changes)

    def _need(self, state: GameState, step: str, seat: str, what: str) -> None:
        if state.step != step:
            raise Forbidden("wrong-step", f"{what} is for the {step} step; the hand is at {state.step}")
        if step != "call" and seat != state.turn:
            raise Forbidden("not-your-turn", f"it is {state.turn}'s turn, not {seat}'s")
        if step == "call" and seat == state.discarded_by:
            raise Forbidden("own-discard", f"{seat} cannot call their own discard")

    def _win(self, state: GameState, seat: str, tile, tsumo: bool):
        facts = state.facts
        return Win(self.mj.identity(tile), tsumo=tsumo, riichi=bool(state.flag(seat, "riichi")), seat=seat,
                   round_wind=facts.get("round", "E"), players=len(state.players),
                   discarder=None if tsumo else state.discarded_by)

    # -- the turn's own actions ---------------------------------------------------------------

    def draw(self, state: GameState, action: Action) -> GameState:
        seat = self.actor(state, action)
        self._need(state, "draw", seat, "draw")
        if state.stock <= 0:
            raise Forbidden("wall-empty", "the wall is empty: the hand ends in an exhaustive draw")
        if not action.args:
            raise MeldsError("draw TILE: the tile drawn (mahjong states keep the hand's tiles known)")
        hand = self.hand(state, seat)
        text = f"{self.text(hand)} {self.mj.format_tiles([self.tile(action.args[0])])}".strip()
        self.mj.parse_hand(text)  # no more copies than the set holds
        # the drawn tile stays last, as states write it: a tsumo wins on it, a kan after riichi looks at it
        return replace(state, hands={**state.hands, seat: text}, stock=state.stock - 1, step="discard")

    def discard(self, state: GameState, action: Action) -> GameState:
        seat = self.actor(state, action)
        self._need(state, "discard", seat, "discard")
        if len(action.args) != 1:
            raise MeldsError("discard one tile: 'discard 5s'")
        face = self.tile(action.args[0])
        hand = self._without(self.hand(state, seat), [face])
        after = self._set_hand(state, seat, hand, discards=state.discards + (action.args[0],), step="call",
                               discarded_by=seat, turn=seat)
        after = after.with_flag(seat, "called", False)
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
            raise Forbidden("not-tenpai", f"after discarding {action.args[0]} the hand is not tenpai",
                            self.source("riichi"))
        after = self.discard(state, Action("discard", (action.args[0],), f"discard {action.args[0]}", seat))
        points = state.flag(seat, "points")
        after = after.with_flag(seat, "riichi", True)
        known = isinstance(points, int) and not isinstance(points, bool)  # flags default to False
        return after.with_flag(seat, "points", points - self.rs.rules.mahjong_scoring.riichi_stick) if known else after

    def tsumo(self, state: GameState, action: Action) -> GameState:
        seat = self.actor(state, action)
        self._need(state, "discard", seat, "tsumo")
        hand = self.hand(state, seat)
        self._score(state, seat, hand, hand.concealed[-1], tsumo=True)
        return replace(state, step="over", facts={**state.facts, "result": f"tsumo {seat}"})

    def ankan(self, state: GameState, action: Action) -> GameState:
        seat = self.actor(state, action)
        self._need(state, "discard", seat, "ankan")
        face = self.tile(action.args[0]) if action.args else None
        if face is None:
            raise MeldsError("ankan TILE: the tile of the closed kan")
        hand = self.hand(state, seat)
        ident = self.mj.identity(face)
        four = [f for f in hand.concealed if self.mj.identity(f) == ident]
        if len(four) < 4:
            raise Forbidden("not-four", f"a closed kan needs all four {action.args[0]} in the hand")
        if state.flag(seat, "riichi"):
            drawn = hand.concealed[-1]  # the state lists the drawn tile last
            before = Hand(hand.concealed[:-1], hand.melds)
            verdict = next(v for v in self.mj.riichi_kans(before, drawn) if v.tile == ident)
            if not verdict.doc_allowed:
                raise Forbidden("riichi-kan", f"after riichi: {verdict.reason_doc}", self.rs.rules.riichi_kan.source)
        rest = self._without(hand, four[:4])
        kan = DeclaredMeld("ankan", tuple(four[:4]), False, "kantsu")
        return self._kan_done(self._set_hand(state, seat, Hand(rest.concealed, rest.melds + (kan,))), seat)

    def kyuushu(self, state: GameState, action: Action) -> GameState:
        seat = self.actor(state, action)
        self._need(state, "discard", seat, "kyuushu")
        if not state.facts.get("first_go_around") or state.flag(seat, "had_turn"):
            raise Forbidden("not-first-turn", "九種九牌 is declared on one's first draw, before any call")
        return replace(state, step="over", facts={**state.facts, "result": "九種九牌 (abortive draw)"})

    # -- calls on a discard -------------------------------------------------------------------

    def pass_(self, state: GameState, action: Action) -> GameState:
        """Nobody calls: the next seat draws — or, after a fourth kan shared by several players,
        the hand ends in 四開槓."""
        if state.step != "call":
            raise Forbidden("wrong-step", "pass closes the calls on a discard; no discard lies on the table")
        if state.facts.get("four_kans_pending"):
            return replace(state, step="over", facts={**state.facts, "result": "四開槓 (abortive draw)"})
        seats = list(state.players)
        nxt = seats[(seats.index(state.discarded_by or state.turn) + 1) % len(seats)]
        return replace(state, turn=nxt, step="draw", facts={**state.facts, "claims": {}})

    def _called(self, state: GameState) -> object:
        return self.tile(state.discards[-1])

    def ron(self, state: GameState, action: Action) -> GameState:
        seat = self.actor(state, action)
        self._need(state, "call", seat, "ron")
        tile = self._called(state)
        self._score(state, seat, self.hand(state, seat).with_tile(tile), tile, tsumo=False)
        return replace(state, step="over", facts={**state.facts, "result": f"ron {seat} from {state.discarded_by}"})

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
        after = self._set_hand(state, seat, Hand(rest.concealed, rest.melds + (meld,)), turn=seat,
                               step="discard" if kind != "minkan" else "draw", discards=state.discards[:-1],
                               facts={**state.facts, "first_go_around": False, "claims": {}})
        after = after.with_flag(seat, "called", f"{kind} {state.discards[-1]}")
        return self._kan_done(after, seat) if kind == "minkan" else after

    # -- shared -------------------------------------------------------------------------------

    def _score(self, state: GameState, seat: str, hand: Hand, tile, tsumo: bool) -> None:
        try:
            self.scorer.score(hand, self._win(state, seat, tile, tsumo))
        except NotAWin as exc:
            raise Forbidden("no-win", str(exc), self.source("tsumo" if tsumo else "ron")) from None

    def _kan_done(self, state: GameState, seat: str) -> GameState:
        kans = dict(state.facts.get("kans", {}))
        kans[seat] = kans.get(seat, 0) + 1
        return replace(state, facts={**state.facts, "kans": kans}, step="draw", turn=seat)

    def _abortive(self, state: GameState, seat: str, face) -> GameState:
        """四風連打: the first four discards are the same wind with no call; 四開槓: four kans by
        more than one player, and the discard after the fourth is not claimed (left to the next
        action: the state records it)."""
        facts = dict(state.facts)
        if facts.get("first_go_around") and len(state.discards) == len(state.players) == 4:
            tiles = {self.mj.identity(self.tile(t)) for t in state.discards}
            winds = {self.mj.identity(self.tile(w)) for w in ("1z", "2z", "3z", "4z")}
            if len(tiles) == 1 and tiles <= winds:
                return replace(state, step="over", facts={**facts, "result": "四風連打 (abortive draw)"})
        kans = facts.get("kans", {})
        if sum(kans.values()) >= 4 and len([s for s, n in kans.items() if n]) > 1:
            facts["four_kans_pending"] = True  # 四開槓 unless this discard is called for ron
        facts["first_go_around"] = bool(facts.get("first_go_around")) and len(state.discards) < len(state.players)
        return replace(state, facts=facts).with_flag(seat, "had_turn", True)

    def candidates(self, state: GameState) -> list[str]:
        if state.step == "over":
            return []
        out: list[str] = []
        if state.step == "discard" and not isinstance(state.hands[state.turn], int):
            hand = self.hand(state, state.turn)
            tiles = dict.fromkeys(self.mj.tile_text(self.mj.identity(f)) for f in hand.concealed)
            out += [f"discard {t}" for t in tiles] + [f"riichi {t}" for t in tiles]
            out += ["tsumo", "kyuushu"] + [f"ankan {t}" for t in tiles]
        if state.step == "call":
            out.append("pass")
            for seat in state.players:
                if seat == state.discarded_by or isinstance(state.hands[seat], int):
                    continue
                out += [f"{seat}: ron", f"{seat}: pon", f"{seat}: kan"]
                hand = self.hand(state, seat)
                tiles = sorted({self.mj.tile_text(self.mj.identity(f)) for f in hand.concealed})
                out += [f"{seat}: chi {a[0]}{b}" for a in tiles for b in tiles if a < b and a[1] == b[1]
                        and a[1] != "z"]
        return out


def _call_priority(self: MahjongMoves, state: GameState, action: Action) -> str | None:
    """A call yields to a higher one another seat has declared, in the ruleset's order."""
    check = next(c for c in self.rs.moves.checks if c.name == "call-priority")
    rank = {call: -level for level, group in enumerate(check.params.get("order", []))
            for call in ([group] if isinstance(group, str) else group)}
    if action.verb not in rank or state.step != "call":
        return None
    seat = self.actor(state, action)
    above = [f"{s}: {c}" for s, c in (state.facts.get("claims") or {}).items()
             if s != seat and rank.get(c, -len(rank) - 1) > rank[action.verb]]
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
    need = next(c for c in self.rs.moves.checks if c.name == "kyuushu-kinds").params.get("count", 9)
    hand = self.hand(state, self.actor(state, action))
    yaochu = self.scorer.tile_classes["yaochu"]
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


MahjongMoves.CHECKS = {
    "call-priority": _call_priority,
    "chi-from-left": _chi_from_left,
    "kuikae-chi-genbutsu": _kuikae,
    "riichi-points": _riichi_points,
    "kyuushu-kinds": _kyuushu_kinds,
}
