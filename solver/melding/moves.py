"""The turn of a rummy game, action by action: draw, meld, lay off, discard, restock.

Judged on a game state (:mod:`solver.core.state`) with the game's meld checker — the same rules
``melds check`` applies — plus the checks the ruleset's ``moves:`` section enables. The games
built on melds (:mod:`solver.melding.game`) add their own actions and checks by subclassing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from solver.core.chosen import chosen_faces
from solver.core.deck import Face
from solver.core.errors import BadOption, MeldsError
from solver.core.moves import UNKNOWN, Action, Forbidden, Moves
from solver.core.rules import TurnRule
from solver.core.ruleset import Ruleset
from solver.core.source import Source
from solver.core.state import GameState, TableWord
from solver.melding.meld.candidates import candidates as meld_candidates
from solver.melding.meld.checker import MeldChecker
from solver.melding.meld.points import hand_points
from solver.melding.table.operations import TableMeld
from solver.melding.turn.routes import GoOutRoute
from solver.melding.turnend import Shape, can_go_out, first_meld_worth, meld_shapes, route_taken, route_unmet

GOES_OUT = "goes_out"  # the player's flag: a kind melded only when going out was melded this turn


class MeldMoves(Moves):
    """Draw from the stock or the discard pile, meld, lay off, discard, turn the pile over when the
    stock runs out: the turn of a rummy game, judged with the game's meld checker."""

    VERBS = {
        "draw": "draw",
        "meld": "meld",
        "layoff": "layoff",
        "discard": "discard",
        "restock": "restock",
        "knock": "knock",
    }

    def __init__(self, ruleset: Ruleset, checker: MeldChecker):
        super().__init__(ruleset)
        self.notation = checker.notation
        self.checker = checker

    # -- cards ------------------------------------------------------------------------------

    def tokens(self, text: str) -> list[str]:
        return [t for t in self.notation.split(text)] if text.strip() else []

    def canon(self, token: str) -> str:
        return token if token == UNKNOWN else self.notation.format(self.notation.parse(token))

    def hand(self, state: GameState, player: str | None = None) -> list[str] | None:
        h = state.hands[player or state.turn]
        return None if isinstance(h, int) else [self.canon(t) for t in self.tokens(h)]

    def known_hand(self, state: GameState, action_id: str) -> list[str]:
        """The hand of the player to act, which the action needs to see (Forbidden: hidden)."""
        hand = self.hand(state)
        if hand is None:
            raise Forbidden(
                "hidden-hand", f"{state.turn}'s hand is hidden in this state; give its cards", self.source(action_id)
            )
        return hand

    def take_from_hand(self, state: GameState, cards: list[str], action_id: str) -> list[str]:
        hand = self.known_hand(state, action_id)
        missing = Counter(cards) - Counter(hand)
        if missing:
            raise Forbidden(
                "not-in-hand", f"{' '.join(missing.elements())} not in {state.turn}'s hand", self.source(action_id)
            )
        left = list(hand)
        for card in cards:  # the hand's order is kept
            left.remove(card)
        return left

    def params(self, state: GameState) -> Mapping[str, Any] | None:
        """The query parameters of the player to act: the chosen cards the state names."""
        rs = self.rs
        return chosen_faces(rs.id, rs.parameters, state.params, self.notation) or None

    def verdict(self, state: GameState, cards: list[str]):
        """The checker's verdict on cards as a meld now: under the state's chosen cards and its field
        phase (``facts: {phase}``, for a ruleset that declares ``phases:``)."""
        phase = state.facts.get("phase") if self.rs.phases else None
        return self.checker.check(self.notation.parse_many(cards), phase=phase, params=self.params(state), explain=True)

    def _need_step(self, state: GameState, step: str) -> None:
        """Actions belong to a step of the turn: the draw first, then the play."""
        if state.step == step:
            return
        said = {
            "draw": f"{state.turn} must first draw a card",
            "play": f"{state.turn} has drawn already; now meld, lay off or discard",
            "call": "a discard lies on the table: it is claimed or passed first",
        }.get(state.step, state.step)
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
                return self._hidden_drew(state, after)
            drawn = self.canon(action.args[1]) if len(action.args) > 1 else UNKNOWN  # the card, when shown
            return self._with_hand(after, hand + [drawn])
        if not state.discards:
            raise Forbidden("pile-empty", "the discard pile is empty", self.source(action_id))
        top = state.discards[-1]
        if self.rs.deal is not None and self.rs.deal.draws is None:  # draws: pile — the whole pile is taken
            if hand is None:
                count = state.hands[state.turn]
                assert isinstance(count, int), "a hidden hand is its count of cards"
                hidden = {**state.hands, state.turn: count + len(state.discards)}
                return replace(state, hands=hidden, discards=(), taken=top, step="play")
            after = replace(state, discards=(), taken=top, step="play")
            return self._with_hand(after, hand + [self.canon(c) for c in state.discards])
        after = replace(state, discards=state.discards[:-1], taken=top, step="play")
        if hand is None:
            return self._hidden_drew(state, after)
        return self._with_hand(after, hand + [self.canon(top)])

    @staticmethod
    def _hidden_drew(state: GameState, after: GameState) -> GameState:
        """``after`` with the hidden hand of the player to act one card larger."""
        count = state.hands[state.turn]
        assert isinstance(count, int), "a hidden hand is its count of cards"
        return replace(after, hands={**state.hands, state.turn: count + 1})

    def restock(self, state: GameState, action: Action) -> GameState:
        """The stock has run out: the discard pile becomes the stock — turned over unshuffled, or
        shuffled with a new first discard turned up (option stock-exhausted)."""
        self._need_step(state, "draw")
        if state.stock > 0:
            raise Forbidden("stock-left", f"the stock still has {state.stock} cards", self.source("restock"))
        reshuffle = self.rs.option_values.get("stock-exhausted") == "reshuffle"
        if len(state.discards) < (2 if reshuffle else 1):  # a reshuffle turns one card up as the new discard
            raise Forbidden(
                "pile-too-small", "the discard pile has too few cards to make a stock", self.source("restock")
            )
        if reshuffle:  # a new first discard, unseen until turned
            return replace(state, stock=len(state.discards) - 1, discards=(UNKNOWN,), discarded_by=None)
        return replace(state, stock=len(state.discards), discards=(), discarded_by=None)

    def meld(self, state: GameState, action: Action) -> GameState:
        self._need_step(state, "play")
        cards = [self.canon(t) for t in action.args]
        left = self.take_from_hand(state, cards, "meld")
        most = self._turn_rule(state).max_new_melds
        if most is not None and state.melds_this_turn >= most and not self._checked("one-meld-per-turn"):
            raise Forbidden("max-new-melds", f"a turn makes at most {most} new melds", self._turn_source(state))
        verdict = self.verdict(state, cards)
        if not verdict.legal:
            why = "; ".join(r.message for r in verdict.reasons) or "not a meld"
            raise Forbidden(
                "not-a-meld",
                f"{' '.join(cards)} is not a legal meld: {why}",
                _rule_source(verdict) or self.source("meld"),
            )
        table = state.table + (TableWord(state.turn, " ".join(cards)),)
        after = self._with_hand(state, left, table=table, melds_this_turn=state.melds_this_turn + 1)
        after = after.with_flag(state.turn, "melded", True)
        if verdict.every_reading and all(r.kind.going_out_only for r in verdict.every_reading):
            after = self._going_out_only(after, verdict.every_reading[0].kind, left)
        return self._maybe_over(after, left)

    def layoff(self, state: GameState, action: Action) -> GameState:
        self._need_step(state, "play")
        if len(action.args) < 2 or not action.args[0].isdigit():
            raise MeldsError("layoff N CARDS: N is the table meld's number (1 is the first)")
        n = int(action.args[0])
        if not 1 <= n <= len(state.table):
            raise MeldsError(f"there is no table meld {n} (the table has {len(state.table)})")
        cards = [self.canon(t) for t in action.args[1:]]
        left = self.take_from_hand(state, cards, "layoff")
        own_rule = self.rs.layoff_rule()
        if (
            own_rule is not None
            and own_rule.requires_own_meld
            and not self._checked("layoff-after-own-meld")  # the check says the same, under its own quote
            and _layoff_after_own_meld(self, state, action)
        ):
            raise Forbidden(
                "layoff-after-own-meld",
                f"{state.turn} has no meld of their own yet, so may not lay off",
                own_rule.source,
            )
        if self._first_meld_due(state):
            rule = self.rs.initial_meld
            assert rule is not None  # a first meld is due only under initial_meld:
            raise Forbidden(
                "initial-meld",
                f"{state.turn} lays nothing off before a first meld that can {rule.describe()}, and not in its turn",
                rule.from_source or rule.source,
            )
        target = state.table[n - 1]
        combined = [self.canon(t) for t in self.tokens(target.cards)] + cards
        verdict = self.verdict(state, combined)
        if not verdict.legal:
            why = "; ".join(r.message for r in verdict.reasons)
            raise Forbidden(
                "not-a-meld",
                f"{' '.join(cards)} does not extend meld {n} ({target.cards}) into a "
                f"legal meld" + (f": {why}" if why else ""),
                _rule_source(verdict) or self.source("layoff"),
            )
        table = list(state.table)
        table[n - 1] = TableWord(target.owner, " ".join(combined))
        after = self._with_hand(state, left, table=tuple(table)).with_flag(state.turn, "laid_off", True)
        return self._maybe_over(after, left)  # laid_off: a lay-off before the last turn is no Going Rummy

    def discard(self, state: GameState, action: Action) -> GameState:
        self._need_step(state, "play")
        if len(action.args) != 1:
            raise MeldsError("discard one card: 'discard C7'")
        card = self.canon(action.args[0])
        left = self.take_from_hand(state, [card], "discard")
        self._may_discard(state, card)
        self._turn_ends(state, left, discarded=True)
        after = self._with_hand(
            state,
            left,
            discards=state.discards + (card,),
            taken=None,
            step="draw",
            melds_this_turn=0,
            discarded_by=state.turn,
        )
        after = after.with_flag(state.turn, GOES_OUT, False) if state.flag(state.turn, GOES_OUT) else after
        if not left or self.gone_out(state):
            return replace(after, step="over")
        return replace(after, turn=state.next_player)

    def _may_discard(self, state: GameState, card: str) -> None:
        """The turn's rule lets this card be discarded (a card taken from the pile may stay)."""
        if (
            state.taken
            and card == self.canon(state.taken)
            and self._turn_rule(state).claimed_not_discarded
            and not self._checked("taken-not-discarded")
        ):
            raise Forbidden(
                "taken-not-discarded", f"{card} was taken from the discard pile this turn", self._turn_source(state)
            )

    def knock(self, state: GameState, action: Action) -> GameState:
        """``knock CARD | MELD | …``: discard CARD, lay the melds, keep the rest as deadwood, and go
        out by a route of ``going_out:`` (:mod:`solver.melding.knockplay`); the hand is over."""
        from solver.melding import knockplay  # loaded only by a ruleset that knocks

        self._need_step(state, "play")
        card, texts = knockplay.read_knock(action.args)
        card = None if card is None else self.canon(card)
        left = self.take_from_hand(state, [card] if card else [], "knock")
        rule = self._turn_rule(state, len(left) + (card is not None))
        if card is None and rule.discard == "required":
            source = next((s for s in rule.sources if s is not None), None)
            raise Forbidden("discard-required", "this turn ends with a discard: knock CARD | …", source)
        if card is not None:
            self._may_discard(state, card)
        if texts is None:
            found = knockplay.least_deadwood(self.rs, self.checker, self._faces(" ".join(left)), self.params(state))
            melds = [[self.notation.format(f) for f in meld] for meld in found]
        else:
            melds = [[self.canon(t) for t in self.tokens(text)] for text in texts]
        left_state = self._with_hand(state, left)
        kept = self.take_from_hand(left_state, [c for m in melds for c in m], "knock")
        if UNKNOWN in kept:  # the knocker lays the hand face up: its deadwood is counted card by card
            raise Forbidden("hidden-hand", "a knock shows every card kept: name the card drawn", self.source("knock"))
        laid, shapes = self._laid_down(state, melds)
        deadwood = hand_points(self.rs, self._faces(" ".join(kept)), self.params(state))
        kept_points = deadwood if kept else None
        way = route_taken(self.routes, shapes, card is not None, kept_points)
        if way is None:
            unmet = route_unmet(self.routes, shapes, card is not None, kept_points)
            assert unmet is not None  # no route taken: some route's requirement fails
            raise Forbidden("going-out", unmet[0], unmet[1] or self.source("knock"))
        made = state.melds_this_turn + len(laid)
        after = self._with_hand(state, kept, table=state.table + tuple(laid), melds_this_turn=made)
        self._turn_ends(after, kept, discarded=card is not None)
        facts = {
            **state.facts,
            "winner": state.turn,
            "result": f"{state.turn} goes out by {way.name}: deadwood {deadwood}",
        }
        discards = state.discards + ((card,) if card else ())
        return replace(after, discards=discards, discarded_by=state.turn, taken=None, step="over", facts=facts)

    def _laid_down(self, state: GameState, melds: list[list[str]]) -> tuple[list[TableWord], list[list[Shape]]]:
        """Melds laid at once, each judged a legal meld and written as it lies on the table; with
        the shapes of all the player's melds on the table then, for the routes."""
        from solver.melding.knockplay import laid_order

        laid: list[TableWord] = []
        shapes = [meld_shapes(self.checker.check(f, params=self.params(state))) for f in self._own_melds(state)]
        for cards in melds:
            verdict = self.verdict(state, cards)
            if not verdict.legal:
                why = "; ".join(r.message for r in verdict.reasons) or "not a meld"
                source = _rule_source(verdict) or self.source("knock")
                raise Forbidden("not-a-meld", f"{' '.join(cards)} is not a legal meld: {why}", source)
            laid.append(TableWord(state.turn, " ".join(self.notation.format(f) for f in laid_order(verdict))))
            shapes.append(meld_shapes(verdict))
        return laid, shapes

    def gone_out(self, state: GameState) -> bool:
        """Has the player gone out with cards still in hand (a route counted in melds)?"""
        return False

    def _maybe_over(self, state: GameState, left: list[str]) -> GameState:
        if left:
            return state
        self._turn_ends(state, left, discarded=False)
        return replace(state, step="over")

    # -- the ruleset's rules of a turn's end (solver.melding.turnend) ----------------------------------

    ROUTES_JUDGED = True  # a game whose own actions judge the ways out (Marriage's shows) sets False

    @property
    def routes(self) -> tuple[GoOutRoute, ...]:
        return getattr(self.rs.rules, "going_out", ())

    def _faces(self, cards: str) -> list[Face]:
        return self.notation.parse_many([c for c in self.tokens(cards) if c != UNKNOWN])

    def _own_melds(self, state: GameState) -> list[list[Face]]:
        return [self._faces(t.cards) for t in state.table if t.owner == state.turn]

    def _first_meld_due(self, state: GameState) -> bool:
        """Is the player held to the first meld's minimum this turn (no meld of theirs before it)?"""
        rule, table = self.rs.initial_meld, self.rs.table
        if rule is None or (table is not None and table.rearrange == "free"):
            return False
        before = sum(t.owner == state.turn for t in state.table) - state.melds_this_turn
        return before <= 0 and not (state.melds_this_turn == 0 and state.flag(state.turn, "melded"))

    def _going_out_only(self, after: GameState, kind, left: list[str]) -> GameState:
        """A meld of a kind melded only when going out: legal while the rest of the turn can go out."""
        if left and UNKNOWN not in left:  # a card drawn unseen: the turn's end judges it
            table = tuple(TableMeld(t.owner, tuple(self._faces(t.cards)), t.owner == after.turn) for t in after.table)
            if not can_go_out(
                self.rs, self.checker, self._faces(" ".join(left)), table, self.params(after), self.routes
            ):
                raise Forbidden(
                    "going-out-only",
                    f"a meld of {kind.name} is made only in a turn that goes out, and this turn cannot go out "
                    f"with {' '.join(left)} left",
                    kind.going_out_only_source or kind.source,
                )
        return after.with_flag(after.turn, GOES_OUT, True)

    def _turn_ends(self, state: GameState, left: list[str], discarded: bool) -> None:
        """The turn ends here (a discard, or the hand emptied): what the ruleset asks of its end."""
        goes_out_kind = (
            next((k for k in self.rs.kinds if k.going_out_only), None) if state.flag(state.turn, GOES_OUT) else None
        )
        if goes_out_kind is not None and left:
            raise Forbidden(
                "going-out-only",
                f"{state.turn} melded {goes_out_kind.name} this turn, so goes out: {' '.join(left)} would stay in hand",
                goes_out_kind.going_out_only_source or goes_out_kind.source,
            )
        if state.taken and self._turn_rule(state).claimed_in_new_meld:
            taken, made = self.canon(state.taken), state.table[len(state.table) - state.melds_this_turn :]
            if not any(taken in self.tokens(t.cards) for t in made):
                raise Forbidden(
                    "claimed-in-new-meld",
                    f"{taken}, taken from the discard pile, goes into a new meld this turn",
                    self._turn_source(state),
                )
        if not left:
            self._goes_out(state, discarded)
        if self._first_meld_due(state) and state.melds_this_turn:
            self._first_meld_reached(state)

    def _goes_out(self, state: GameState, discarded: bool) -> None:
        """A hand emptied: the turn's rule ends it so, and some way out (``going_out:``) holds."""
        if (
            not discarded
            and self._turn_rule(state).discard == "required"
            and not self._checked("go-out-by-discard-only")
        ):
            raise Forbidden(
                "discard-required",
                "a turn ends with a discard: this would empty the hand without one",
                self._turn_source(state),
            )
        if not self.ROUTES_JUDGED or not self.routes:
            return
        shapes = []
        for faces in self._own_melds(state):
            verdict = self.checker.check(faces, params=self.params(state))
            shapes.append(meld_shapes(verdict) if verdict.legal else [])
        unmet = route_unmet(self.routes, shapes, discarded)
        if unmet is not None:
            raise Forbidden("going-out", unmet[0], unmet[1])

    def _first_meld_reached(self, state: GameState) -> None:
        rule = self.rs.initial_meld
        assert rule is not None
        new = [self._faces(t.cards) for t in state.table[len(state.table) - state.melds_this_turn :]]
        worth = first_meld_worth(rule, self.checker, new, self.params(state)) if rule.points else 0
        if worth < rule.points or len(new) < rule.melds:
            counted = [f"count {worth}"] if rule.points else []
            counted += [f"are {len(new)}"] if rule.melds else []
            raise Forbidden(
                "initial-meld",
                f"a first meld must {rule.describe()} from the hand alone; this turn's melds {' and '.join(counted)}",
                rule.melds_source if len(new) < rule.melds and rule.melds_source else rule.source,
            )

    def _turn_rule(self, state: GameState, in_hand: int | None = None) -> TurnRule:
        """The rule of this turn (``turns:``), played from ``in_hand`` cards (None: any): a turn
        that took the discard is a claimed one; a ruleset that says nothing of such a turn leaves
        it to the ``moves:`` checks."""
        kind = "claimed" if state.taken else "normal"
        try:
            return self.rs.turn_rule(kind, in_hand)
        except BadOption:
            return TurnRule(kind, "optional")

    def _turn_source(self, state: GameState) -> Source | None:
        return next((s for s in self._turn_rule(state).sources if s is not None), None)

    def _checked(self, name: str) -> bool:
        return any(c.name == name for c in self.move_rules.checks)

    # -- listing ------------------------------------------------------------------------------

    def candidates(self, state: GameState) -> Iterator[str]:
        """Draws; or discards, melds of the hand, lay-offs and the game's own actions, in that
        order — made lazily: a hand of many wilds has tens of thousands of melds."""
        if state.step == "draw":
            yield from ("draw stock", "draw discard", "restock")
            return
        hand = self.hand(state)
        if hand is None or state.step == "over":
            return
        known = [c for c in hand if c != UNKNOWN]
        yield from (f"discard {c}" for c in dict.fromkeys(known))
        faces = self.notation.parse_many(known)
        melds = []
        # no limit: never None
        for cand in meld_candidates(self.rs, faces, params=self.params(state), gate=self.checker.gate) or []:
            melds.append([self.notation.format(faces[i]) for i in cand.cards])
            yield "meld " + " ".join(melds[-1])
        for n, _meld in enumerate(state.table, 1):
            for c in dict.fromkeys(known):
                yield f"layoff {n} {c}"
        yield from self.more_candidates(state, known, melds)

    def more_candidates(self, state: GameState, known: list[str], melds: list[list[str]]) -> list[str]:
        """A game's own actions to list after the draws, melds, lay-offs and discards: the knocks,
        where the ruleset has them."""
        if "knock" not in self.move_rules.actions:
            return []
        from solver.melding.knockplay import knock_candidates

        required = self._turn_rule(state, len(known)).discard == "required"
        return knock_candidates(self.rs, self.checker, known, self.params(state), required)


def _rule_source(verdict):
    """The quote of the rule that refuses a meld (the checker's first reason that has one): the
    reason cites the rule broken, not the action's own sentence."""
    return next((r.source for r in verdict.reasons if r.source is not None), None)


def _taken_not_discarded(self: MeldMoves, state: GameState, action: Action) -> str | None:
    if (
        action.verb == "discard"
        and state.taken
        and action.args
        and self.canon(action.args[0]) == self.canon(state.taken)
    ):
        return f"{state.taken} was just taken from the discard pile; it may not be discarded this turn"
    return None


def _one_meld_per_turn(self: MeldMoves, state: GameState, action: Action) -> str | None:
    if action.verb == "meld" and state.melds_this_turn >= 1:
        return "only one meld a turn under this rule"
    return None


def _layoff_after_own_meld(self: MeldMoves, state: GameState, action: Action) -> str | None:
    if (
        action.verb == "layoff"
        and not state.flag(state.turn, "melded")
        and not any(t.owner == state.turn for t in state.table)
    ):  # a meld of one's own on the table
        return f"{state.turn} has no meld of their own yet, so may not lay off"
    return None


def _go_out_by_discard_only(self: MeldMoves, state: GameState, action: Action) -> str | None:
    if action.verb in ("meld", "layoff"):
        hand = self.hand(state) or []
        used = len(action.args) - (1 if action.verb == "layoff" else 0)
        if len(hand) - used == 0:
            return "a player may go out only by discarding the last card; this would empty the hand"
    return None


def _restock_before_discard_draw(self: MeldMoves, state: GameState, action: Action) -> str | None:
    """Under a reshuffle when the stock runs out, the discards (the last one too) become the new
    stock before the next draw: the last discard is not there to take."""
    if action.verb == "draw" and action.args[:1] == ("discard",) and state.stock <= 0 and state.discards:
        return (
            "the stock has run out: the discards are shuffled into a new stock first (restock), its top card turned up"
        )
    return None


MeldMoves.CHECKS = {
    "taken-not-discarded": _taken_not_discarded,
    "one-meld-per-turn": _one_meld_per_turn,
    "layoff-after-own-meld": _layoff_after_own_meld,
    "go-out-by-discard-only": _go_out_by_discard_only,
    "restock-before-discard-draw": _restock_before_discard_draw,
}
