"""Is this action legal now? Turn-by-turn rules, judged on a game state (:mod:`solver.core.state`).

An action is a short command: ``draw stock``, ``draw discard``, ``meld S9 S10 SJ``, ``layoff 2 S8``,
``discard C7``, ``show S5 S6 S7 | H9 H9 H9 | D2 D3 D4`` (Marriage: the first three, to see the
tiplu); word games ``word ねこじた``, ``arrange がっこう | ねこじたい``, ``relief ぬ``, ``draw``, ``end``.

The rules are data. Each ruleset's ``moves:`` section names its actions with their sources, and
lists the *checks* that restrict them (``taken-not-discarded``, ``wild-to-seen-player``, …), each
with its quote and an ``if:`` on the options; the code here holds one small function per check,
as :mod:`solver.games.mahjong.scoring` holds one per yaku pattern. Structural facts — the card is in the hand,
the meld is legal (:class:`~solver.melding.checker.MeldChecker`), the word is a word (:mod:`solver.games.words.tiles`)
— are always checked, with the action's own source.

A judgement lists every reason that forbids the action, and the state after it when legal.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Callable

from solver.core.errors import MeldsError
from solver.core.ruleset import Ruleset, Source
from solver.core.state import GameState, TableWord

UNKNOWN = "?"  # a card or tile nobody at the table has shown (drawn from the stock)


@dataclass(frozen=True)
class Action:
    verb: str
    args: tuple[str, ...]
    text: str
    actor: str | None = None  # "S: pon" — a player other than the one whose turn it is

    @property
    def parts(self) -> list[str]:
        """The arguments split at ``|`` (several melds or words)."""
        return [p.strip() for p in " ".join(self.args).split("|") if p.strip()]


def parse_action(text: str) -> Action:
    actor = None
    said = re.match(r"^\s*([^\s:]+)\s*:\s*(.+)$", text)  # "S: pon" — who acts, when not the turn's player
    if said:
        actor, text = said.groups()
    words = text.split()
    if not words:
        raise MeldsError("no action given, e.g. 'draw stock', 'meld S9 S10 SJ', 'discard C7'")
    shown = (f"{actor}: " if actor else "") + " ".join(words)
    return Action(words[0].lower(), tuple(words[1:]), shown, actor)


@dataclass
class Judgement:
    legal: bool
    action: str
    reasons: list[dict] = field(default_factory=list)
    state: GameState | None = None

    def to_json(self) -> dict:
        return {"legal": self.legal, "action": self.action, "reasons": self.reasons,
                "state": self.state.to_json() if self.state is not None else None}


class Forbidden(Exception):
    """An action breaks a rule: its reason code, message and source."""

    def __init__(self, code: str, message: str, source: Source | None = None):
        super().__init__(message)
        self.reason = {"code": code, "message": message, "source": source.to_json() if source else None}


Check = Callable[[GameState, Action], "str | None"]


class Moves:
    """The actions of one family of games. Subclasses give ``VERBS`` (verb -> method name that
    judges and applies) and ``CHECKS`` (check name -> function of (state, action) returning a
    message when the check forbids the action)."""

    VERBS: dict[str, str] = {}
    CHECKS: dict[str, Check] = {}

    def __init__(self, ruleset: Ruleset):
        if ruleset.moves is None:
            raise MeldsError(f"{ruleset.id} has no moves: section; melds move does not know its turn rules yet")
        self.rs = ruleset
        for check in ruleset.moves.checks:
            if check.name not in self.CHECKS:
                raise MeldsError(f"{ruleset.path}: moves: unknown check {check.name!r} for this game "
                                 f"(known: {', '.join(self.CHECKS)})")

    def source(self, action_id: str) -> Source | None:
        return self.rs.moves.actions.get(action_id)

    def judge(self, state: GameState, text: str) -> Judgement:
        action = parse_action(text)
        if action.verb not in self.VERBS:
            raise MeldsError(f"unknown action {action.verb!r} for {self.rs.id} "
                             f"(actions: {', '.join(self.VERBS)})")
        if state.step == "over":
            return Judgement(False, action.text, [{"code": "game-over", "message": "the game is over",
                                                   "source": None}])
        if action.actor is not None and action.actor not in state.players:
            raise MeldsError(f"{action.actor!r} is not one of the players ({', '.join(state.players)})")
        action_id = self.action_id(action)
        if action_id not in self.rs.moves.actions:
            raise MeldsError(f"{self.rs.id} has no action {action_id!r} (its actions: "
                             f"{', '.join(self.rs.moves.actions)})")
        reasons: list[dict] = []
        after = None
        try:
            after = getattr(self, self.VERBS[action.verb])(state, action)
        except Forbidden as exc:
            reasons.append(exc.reason)
        for check in self.rs.moves.checks:  # the ruleset's restrictions, each with its quote
            message = self.CHECKS[check.name](self, state, action)
            if message:
                reasons.append({"code": check.name, "message": message,
                                "source": check.source.to_json() if check.source else None})
        legal = not reasons
        return Judgement(legal, action.text, reasons, after if legal else None)

    def action_id(self, action: Action) -> str:
        """The ruleset's id of an action (``draw stock`` is draw-stock)."""
        if action.verb == "draw" and action.args[:1] in (("stock",), ("discard",)):
            return f"draw-{action.args[0]}"
        return action.verb

    def legal_actions(self, state: GameState) -> list[str]:
        return [a for a in self.candidates(state)
                if self.action_id(parse_action(a)) in self.rs.moves.actions and self.judge(state, a).legal]

    def candidates(self, state: GameState) -> list[str]:
        raise NotImplementedError


# -- the rummy family (Basic Rummy, Marriage) -------------------------------------------------------


class RummyMoves(Moves):
    """Draw from the stock or the discard pile, meld, lay off, discard; Marriage shows its first
    three to see the tiplu."""

    VERBS = {"draw": "draw", "meld": "meld", "layoff": "layoff", "discard": "discard", "show": "show",
             "restock": "restock"}

    def __init__(self, ruleset: Ruleset):
        super().__init__(ruleset)
        from solver.melding.checker import MeldChecker
        from solver.core.notation import Notation

        self.notation = Notation.for_deck(ruleset.deck)
        self.checker = MeldChecker(ruleset)

    # -- cards ------------------------------------------------------------------------------

    def tokens(self, text: str) -> list[str]:
        return [t for t in self.notation.split(text)] if text.strip() else []

    def canon(self, token: str) -> str:
        return token if token == UNKNOWN else self.notation.format(self.notation.parse(token))

    def hand(self, state: GameState, player: str | None = None) -> list[str] | None:
        h = state.hands[player or state.turn]
        return None if isinstance(h, int) else [self.canon(t) for t in self.tokens(h)]

    def take_from_hand(self, state: GameState, cards: list[str], action_id: str) -> list[str]:
        hand = self.hand(state)
        if hand is None:
            raise Forbidden("hidden-hand", f"{state.turn}'s hand is hidden in this state; give its cards",
                            self.source(action_id))
        missing = Counter(cards) - Counter(hand)
        if missing:
            raise Forbidden("not-in-hand", f"{' '.join(missing.elements())} not in {state.turn}'s hand",
                            self.source(action_id))
        left = list(hand)
        for card in cards:  # the hand's order is kept
            left.remove(card)
        return left

    def params(self, state: GameState):
        if self.rs.maal is None or not state.tiplu or not state.flag(state.turn, "seen"):
            return None  # wilds count only for a player who has seen the tiplu
        return {"tiplu": self.notation.parse(state.tiplu)}

    def verdict(self, state: GameState, cards: list[str]):
        return self.checker.check(self.notation.parse_many(cards), params=self.params(state), explain=True)

    def is_wild(self, state: GameState, card: str) -> bool:
        if self.rs.maal is None or not state.tiplu or card == UNKNOWN:
            return False
        return self.rs.maal_kind(self.notation.parse(card), self.notation.parse(state.tiplu)) is not None

    def _need_step(self, state: GameState, step: str) -> None:
        """Actions belong to a step of the turn: the draw first, then the play."""
        if state.step == step:
            return
        said = {"draw": f"{state.turn} must first draw a card",
                "play": f"{state.turn} has drawn already; now meld, lay off or discard",
                "call": "a discard lies on the table: it is claimed or passed first"}.get(state.step, state.step)
        raise Forbidden("wrong-step", said, self.source("draw-stock"))

    def _with_hand(self, state: GameState, cards: list[str], **changes) -> GameState:
        hands = dict(state.hands)
        hands[state.turn] = " ".join(cards)
        return replace(state, hands=hands, **changes)

    # -- actions ------------------------------------------------------------------------------

    def draw(self, state: GameState, action: Action) -> GameState:
        where = action.args[0] if action.args else ""
        if where not in ("stock", "discard"):
            raise MeldsError("draw from where? 'draw stock' or 'draw discard'")
        action_id = f"draw-{where}"
        self._need_step(state, "draw")
        hand = self.hand(state)
        if where == "stock":
            if state.stock <= 0:
                raise Forbidden("stock-empty", "the stock is empty", self.source(action_id))
            after = replace(state, stock=state.stock - 1, step="play")
            if hand is None:  # a hidden hand grows by one
                return replace(after, hands={**state.hands, state.turn: state.hands[state.turn] + 1})
            drawn = self.canon(action.args[1]) if len(action.args) > 1 else UNKNOWN  # the card, when shown
            return self._with_hand(after, hand + [drawn])
        if not state.discards:
            raise Forbidden("pile-empty", "the discard pile is empty", self.source(action_id))
        top = state.discards[-1]
        after = replace(state, discards=state.discards[:-1], taken=top, step="play")
        if hand is None:
            return replace(after, hands={**state.hands, state.turn: state.hands[state.turn] + 1})
        return self._with_hand(after, hand + [self.canon(top)])

    def restock(self, state: GameState, action: Action) -> GameState:
        """The stock has run out: the discard pile becomes the stock — turned over unshuffled, or
        shuffled with a new first discard turned up (option stock-exhausted)."""
        self._need_step(state, "draw")
        if state.stock > 0:
            raise Forbidden("stock-left", f"the stock still has {state.stock} cards", self.source("restock"))
        if len(state.discards) < 2:
            raise Forbidden("pile-too-small", "the discard pile has too few cards to make a stock", self.source("restock"))
        if self.rs.option_values.get("stock-exhausted") == "reshuffle":  # a new first discard, unseen until turned
            return replace(state, stock=len(state.discards) - 1, discards=(UNKNOWN,), discarded_by=None)
        return replace(state, stock=len(state.discards), discards=(), discarded_by=None)

    def meld(self, state: GameState, action: Action) -> GameState:
        self._need_step(state, "play")
        cards = [self.canon(t) for t in action.args]
        left = self.take_from_hand(state, cards, "meld")
        verdict = self.verdict(state, cards)
        if not verdict.legal:
            why = "; ".join(r.message for r in verdict.reasons) or "not a meld"
            raise Forbidden("not-a-meld", f"{' '.join(cards)} is not a legal meld: {why}", self.source("meld"))
        table = state.table + (TableWord(state.turn, " ".join(cards)),)
        after = self._with_hand(state, left, table=table, melds_this_turn=state.melds_this_turn + 1)
        return self._maybe_over(after.with_flag(state.turn, "melded", True), left)

    def layoff(self, state: GameState, action: Action) -> GameState:
        self._need_step(state, "play")
        if len(action.args) < 2 or not action.args[0].isdigit():
            raise MeldsError("layoff N CARDS: N is the table meld's number (1 is the first)")
        n = int(action.args[0])
        if not 1 <= n <= len(state.table):
            raise MeldsError(f"there is no table meld {n} (the table has {len(state.table)})")
        cards = [self.canon(t) for t in action.args[1:]]
        left = self.take_from_hand(state, cards, "layoff")
        target = state.table[n - 1]
        combined = [self.canon(t) for t in self.tokens(target.cards)] + cards
        verdict = self.verdict(state, combined)
        if not verdict.legal:
            raise Forbidden("not-a-meld", f"{' '.join(cards)} does not extend meld {n} ({target.cards}) into a "
                            f"legal meld", self.source("layoff"))
        table = list(state.table)
        table[n - 1] = TableWord(target.owner, " ".join(combined))
        return self._maybe_over(self._with_hand(state, left, table=tuple(table)), left)

    def discard(self, state: GameState, action: Action) -> GameState:
        self._need_step(state, "play")
        if len(action.args) != 1:
            raise MeldsError("discard one card: 'discard C7'")
        card = self.canon(action.args[0])
        left = self.take_from_hand(state, [card], "discard")
        after = self._with_hand(state, left, discards=state.discards + (card,), taken=None, step="draw",
                                melds_this_turn=0, discarded_by=state.turn)
        if not left or self._route_done(state):
            return replace(after, step="over")
        return replace(after, turn=state.next_player)

    def show(self, state: GameState, action: Action) -> GameState:
        if not self.rs.seeing:
            raise MeldsError(f"{self.rs.id} has no tiplu to see: 'show' is a Marriage action")
        self._need_step(state, "play")
        groups = [[self.canon(t) for t in self.tokens(p)] for p in action.parts]
        left = self.take_from_hand(state, [c for g in groups for c in g], "show")
        seen = state.flag(state.turn, "seen")
        # before seeing no card is wild; after, the tiplu's wilds count
        kinds = []
        for g in groups:
            verdict = self.checker.check(self.notation.parse_many(g), params=self.params(state) if seen else None)
            kinds.append(verdict.kind.id if verdict.legal else None)
        if not seen:
            fits = next((r for r in self.rs.seeing if len(groups) == r.count and all(k in r.kinds for k in kinds)),
                        None)
            if fits is None:
                wants = "; or ".join(f"{r.count} of {'/'.join(sorted(r.kinds))}" for r in self.rs.seeing)
                raise Forbidden("not-enough-to-see", f"to see the tiplu show {wants} (no wilds before seeing); "
                                f"shown: {', '.join(k or 'not a combination' for k in kinds)}",
                                self.rs.seeing[0].source)
        else:  # after seeing: the rest of a going-out route (the ruleset's going_out:)
            route = self._route(state)
            own = sum(1 for t in state.table if t.owner == state.turn)
            kinds_ok = all(k is not None and k in route.kinds for k in kinds)
            if route.melds is not None:
                ok, what = kinds_ok and own + len(groups) == route.melds, f"{route.melds - own} more {route.name}"
            else:  # every card but the discard
                ok, what = kinds_ok and len(left) == 1, "the rest of the hand in combinations, all but the discard"
            if not ok:
                raise Forbidden("not-the-rest", f"after seeing, {state.turn} shows {what}; shown: "
                                f"{', '.join(k or 'not a combination' for k in kinds)}", route.source)
        table = state.table + tuple(TableWord(state.turn, " ".join(g)) for g in groups)
        after = self._with_hand(state, left, table=table).with_flag(state.turn, "seen", True)
        if not seen and all(k == "dublee" for k in kinds):
            after = after.with_flag(state.turn, "dublee", True)
        return after.with_flag(state.turn, "melded", True)

    def _route(self, state: GameState):
        """The going-out route a player who has seen is on: the dublee route after showing
        dublees, else the one whose melds are not counted (all cards but the discard)."""
        dublee = state.flag(state.turn, "dublee")
        return next(r for r in self.rs.going_out if (r.melds is not None) == bool(dublee))

    def _route_done(self, state: GameState) -> bool:
        """A dublee player goes out with the route's count of dublees shown, cards still in hand."""
        if not self.rs.going_out or not state.flag(state.turn, "dublee"):
            return False
        route = self._route(state)
        return sum(1 for t in state.table if t.owner == state.turn) >= (route.melds or 0)

    def _maybe_over(self, state: GameState, left: list[str]) -> GameState:
        return replace(state, step="over") if not left else state

    # -- listing ------------------------------------------------------------------------------

    def candidates(self, state: GameState) -> list[str]:
        if state.step == "draw":
            return ["draw stock", "draw discard", "restock"]
        hand = self.hand(state)
        if hand is None or state.step == "over":
            return []
        known = [c for c in hand if c != UNKNOWN]
        out = [f"discard {c}" for c in dict.fromkeys(known)]
        from solver.melding.candidates import candidates as meld_candidates

        faces = self.notation.parse_many(known)
        melds = [[self.notation.format(faces[i]) for i in cand.cards]
                 for cand in meld_candidates(self.rs, faces, params=self.params(state))]
        out += ["meld " + " ".join(m) for m in melds]
        for n, meld in enumerate(state.table, 1):
            for c in dict.fromkeys(known):
                out.append(f"layoff {n} {c}")
        if self.rs.seeing:
            out += self._shows(state, known, melds)
        return out

    def _shows(self, state: GameState, known: list[str], melds: list[list[str]], limit: int = 60) -> list[str]:
        """Marriage: ways to show combinations (the first three or seven dublees; after seeing the
        rest), disjoint melds of the hand, at most ``limit`` of them."""
        from itertools import combinations

        if not state.flag(state.turn, "seen"):
            counts = sorted({r.count for r in self.rs.seeing})
        else:
            counts = [1] if state.flag(state.turn, "dublee") else [4]
        out: list[str] = []
        for count in counts:
            for combo in combinations(melds, count):
                if Counter(c for m in combo for c in m) - Counter(known):
                    continue  # two melds want the same card
                out.append("show " + " | ".join(" ".join(m) for m in combo))
                if len(out) >= limit:
                    return out
        return out


def _taken_not_discarded(self: RummyMoves, state: GameState, action: Action) -> str | None:
    if action.verb == "discard" and state.taken and action.args and self.canon(action.args[0]) == self.canon(state.taken):
        return f"{state.taken} was just taken from the discard pile; it may not be discarded this turn"
    return None


def _one_meld_per_turn(self: RummyMoves, state: GameState, action: Action) -> str | None:
    if action.verb == "meld" and state.melds_this_turn >= 1:
        return "only one meld a turn under this rule"
    return None


def _layoff_after_own_meld(self: RummyMoves, state: GameState, action: Action) -> str | None:
    if action.verb == "layoff" and not state.flag(state.turn, "melded"):
        return f"{state.turn} has no meld of their own yet, so may not lay off"
    return None


def _go_out_by_discard_only(self: RummyMoves, state: GameState, action: Action) -> str | None:
    if action.verb in ("meld", "layoff"):
        hand = self.hand(state) or []
        used = len(action.args) - (1 if action.verb == "layoff" else 0)
        if len(hand) - used == 0:
            return "a player may go out only by discarding the last card; this would empty the hand"
    return None


def _wild_to_seen_player(self: RummyMoves, state: GameState, action: Action) -> str | None:
    if action.verb != "draw" or action.args[:1] != ("discard",) or not state.discards:
        return None
    top = state.discards[-1]
    discarder = state.discarded_by or state.previous_player
    if self.is_wild(state, top) and state.flag(state.turn, "seen") and not state.flag(discarder, "seen"):
        return (f"{top} is a wild card discarded by {discarder}, who has not seen the tiplu; {state.turn} has "
                f"seen it, so must draw from the stock")
    return None


def _dublee_seen_no_discard_draw(self: RummyMoves, state: GameState, action: Action) -> str | None:
    if action.verb == "draw" and action.args[:1] == ("discard",) and state.flag(state.turn, "dublee") \
            and state.flag(state.turn, "seen") and state.discards:
        top = self.canon(state.discards[-1])
        if top not in (self.hand(state) or []):  # it would make the eighth dublee: that goes out
            return (f"{state.turn} plays dublees and has seen the tiplu: the discard may be taken only to go "
                    f"out, and {top} makes no dublee with the hand")
    return None


RummyMoves.CHECKS = {
    "taken-not-discarded": _taken_not_discarded,
    "one-meld-per-turn": _one_meld_per_turn,
    "layoff-after-own-meld": _layoff_after_own_meld,
    "go-out-by-discard-only": _go_out_by_discard_only,
    "wild-to-seen-player": _wild_to_seen_player,
    "dublee-seen-no-discard-draw": _dublee_seen_no_discard_draw,
}


def moves_for(ruleset: Ruleset) -> Moves:
    if ruleset.words is not None:
        from solver.games.words.moves import WordMoves

        return WordMoves(ruleset)
    if ruleset.hand_shapes:
        from solver.games.mahjong.moves import MahjongMoves

        return MahjongMoves(ruleset)
    if ruleset.operations:
        from solver.games.fesca.moves import FescaMoves

        return FescaMoves(ruleset)
    return RummyMoves(ruleset)
