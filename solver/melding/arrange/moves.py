"""A rearranging turn on a game state: ``play`` the whole table after the turn, or ``draw``.

A play is written as the table it leaves, meld by meld (``play r7 r8 r9 r10 | k5 b5 o5``): the
rearrangement is free, so the table after the turn says everything — which of the hand's cards went
down (what it holds beyond the table before) and whether every meld is legal. A player who has not
made the initial meld yet (``initial_meld: {from: hand}``) leaves the old melds as they were and
adds new melds worth its points; a player who places nothing draws (``draw``). Each refusal names
the rule and its quote.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from solver.core.deck import Face
from solver.core.errors import MeldsError
from solver.core.moves import UNKNOWN, Action, Forbidden, Moves
from solver.core.ruleset import Ruleset
from solver.core.state import GameState, TableWord
from solver.melding.arrange.laid import LaidMeld, MeldCatalogue, meld_key
from solver.melding.arrange.present import Nouns
from solver.melding.arrange.solve import initial_points, solve_turn

MELDED = "melded"  # the player flag: the initial meld is made


class ArrangeMoves(Moves):
    VERBS = {"draw": "draw", "play": "play"}

    def __init__(self, ruleset: Ruleset, catalogue: MeldCatalogue, nouns: Nouns):
        super().__init__(ruleset)
        self.catalogue, self.nouns = catalogue, nouns
        self.notation = catalogue.checker.notation

    # -- the actions ----------------------------------------------------------------------------

    def draw(self, state: GameState, action: Action) -> GameState:
        """Draw a card and end the turn; with the stock empty the turn passes, and when every player
        has passed in turn no one can play: the game is over, blocked."""
        player, nouns = self._player(state, action), self.nouns
        if state.stock <= 0:
            passes = int(state.facts.get("passes") or 0) + 1
            facts = {**state.facts, "passes": passes}
            if passes >= len(state.players):
                return replace(
                    state,
                    step="over",
                    facts={
                        **facts,
                        "result": f"blocked: the {nouns.stock} is empty and no one can place a {nouns.card}",
                    },
                )
            return replace(state, turn=state.next_player, step="play", facts=facts)
        hand = state.hands[player]
        hand = hand + 1 if isinstance(hand, int) else f"{hand} {UNKNOWN}".strip()
        return replace(
            state, hands={**state.hands, player: hand}, stock=state.stock - 1, turn=state.next_player, step="play"
        )

    def play(self, state: GameState, action: Action) -> GameState:
        player, nouns = self._player(state, action), self.nouns
        if not action.parts:
            raise MeldsError(f"play needs the table after the turn, {nouns.meld} by {nouns.meld}: play CARDS | CARDS")
        after = [self._legal_meld(part) for part in action.parts]
        before = [self.notation.parse_many(t.cards) for t in state.table]
        on_table = Counter(f for s in before for f in s)
        now = Counter(f for s in after for f in s.faces)
        self._nothing_taken(on_table - now)
        placed = now - on_table
        if not placed:
            raise Forbidden(
                "nothing-placed",
                f"the play places no {nouns.card} from the {nouns.hand}: a player who places no {nouns.card} draws",
                self._turn_source(),
            )
        hand = state.hands[player]
        if isinstance(hand, int):
            raise MeldsError(f"{player}'s {nouns.hand} is hidden in this state: give its {nouns.card}s to judge a play")
        held = Counter(self._known(hand))
        missing = placed - held
        if missing:
            raise Forbidden(f"not-in-{nouns.hand}", f"{self._cards(missing)} not in {player}'s {nouns.hand}")
        if not state.flag(player, MELDED) and self.rs.initial_meld is not None:
            self._initial(before, after)
        return self._after(state, player, before, after, held - placed, hand.split().count(UNKNOWN))

    def _after(
        self,
        state: GameState,
        player: str,
        before: list[list[Face]],
        after: list[LaidMeld],
        left: Counter[Face],
        unseen: int,
    ) -> GameState:
        """The state a legal play leaves: the hand less the cards placed, the table's melds (an
        unchanged meld keeps its owner), the passes counted afresh; an empty hand wins."""
        rest = " ".join(
            [self.notation.format(f) for f in sorted(left.elements(), key=lambda f: f.index)] + [UNKNOWN] * unseen
        )
        owners: dict[tuple[int, ...], list[str]] = {}
        for t, faces in zip(state.table, before, strict=True):
            owners.setdefault(meld_key(faces), []).append(t.owner)
        table = []
        for laid in after:
            kept = owners.get(meld_key(laid.faces))
            owner = kept.pop(0) if kept else player
            table.append(TableWord(owner, " ".join(self.notation.format(f) for f in laid.faces)))
        facts = {k: v for k, v in state.facts.items() if k != "passes"}  # a card placed: the passes start again
        out = replace(state, hands={**state.hands, player: rest}, table=tuple(table), facts=facts).with_flag(
            player, MELDED, True
        )
        if not left and not unseen:
            return replace(out, step="over", facts={**facts, "winner": player})
        return replace(out, turn=state.next_player, step="play")

    def _nothing_taken(self, taken: Counter[Face]) -> None:
        if taken:
            nouns = self.nouns
            raise Forbidden(
                "table-stays",
                f"{self._cards(taken)} left the table (a play lists the whole table after the turn, the "
                f"{nouns.meld}s left as they were too): no table {nouns.card} goes back to a {nouns.hand}",
                self.rs.table.stays_source if self.rs.table else None,
            )

    def _initial(self, before: list[list[Face]], after: list[LaidMeld]) -> None:
        """The initial meld: the old melds untouched, the new ones worth the points, from the hand."""
        rule, nouns = self.rs.initial_meld, self.nouns
        if rule is None:
            return
        old = Counter(meld_key(s) for s in before)
        new = []
        for s in after:
            if old[meld_key(s.faces)]:
                old[meld_key(s.faces)] -= 1
            else:
                new.append(s)
        if +old:
            raise Forbidden(
                f"initial-from-{nouns.hand}",
                "before the initial meld the table may not be rearranged",
                rule.from_source,
            )
        value = sum(s.value for s in new)
        if value < rule.points:
            raise Forbidden(
                "initial-meld",
                f"the new {nouns.meld}s are worth {value}: the initial meld needs {rule.points}",
                rule.source,
            )

    def _legal_meld(self, text: str) -> LaidMeld:
        faces = self.notation.parse_many(text)
        found = self.catalogue.lookup(faces)
        if found is None:
            verdict = self.catalogue.checker.check(faces)
            reason = verdict.reasons[0] if verdict.reasons else None
            raise Forbidden(
                f"not-a-{self.nouns.meld}",
                f"{text} is not a {self.nouns.meld}" + (f": {reason.message}" if reason else ""),
                reason.source if reason else None,
            )
        return found

    def _turn_source(self):
        """The rule of a normal turn (where a player who places nothing draws)."""
        sources = self.rs.turn_rule("normal").sources
        return sources[0] if sources else self.source("draw")

    def _player(self, state: GameState, action: Action) -> str:
        if state.step == "over":
            raise Forbidden("game-over", "the game is over")
        if action.actor is not None and action.actor != state.turn:
            raise Forbidden("not-your-turn", f"it is {state.turn}'s turn")
        return state.turn

    def _known(self, hand: str) -> list[Face]:
        """The hand's known cards (a card drawn unseen is written ?)."""
        return self.notation.parse_many(" ".join(w for w in hand.split() if w != UNKNOWN)) if hand.strip(" ?") else []

    def _cards(self, counts: Counter[Face]) -> str:
        return " ".join(self.notation.format(f) for f in sorted(counts.elements(), key=lambda f: f.index))

    # -- what may be done now ----------------------------------------------------------------------

    def candidates(self, state: GameState) -> Sequence[str]:
        """Drawing, and the best play (the most hand cards, then the most value) when there is one."""
        out = ["draw"]
        hand = state.hands[state.turn]
        if isinstance(hand, int) or not hand or state.step == "over":
            return out
        known = self._known(hand)
        table = [self.notation.parse_many(t.cards) for t in state.table]
        melded = bool(state.flag(state.turn, MELDED))
        best = solve_turn(self.catalogue, known, table, melded, initial_points(self.catalogue), "best")
        if best.placed:
            out.append("play " + " | ".join(" ".join(self.notation.format(f) for f in s.faces) for s in best.table))
        return out
