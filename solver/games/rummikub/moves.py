"""Rummikub's turn on a game state: ``play`` the whole table after the turn, or ``draw``.

A play is written as the table it leaves, set by set (``play r7 r8 r9 r10 | k5 b5 o5``): the
rearrangement is free, so the table after the turn says everything — which rack tiles went down
(what it holds beyond the table before) and whether every set is legal. A player who has not yet
made the initial meld leaves the old sets as they were and adds new sets worth the initial meld's
points; a player who places nothing draws (``draw``). Each refusal names the rule and its quote.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from solver.core.errors import MeldsError
from solver.core.moves import UNKNOWN, Action, Forbidden, Moves
from solver.core.ruleset import Ruleset
from solver.core.state import GameState, TableWord
from solver.games.rummikub.arrange import SetCatalogue, TileSet, solve_turn
from solver.games.rummikub.rules import RummikubRules

MELDED = "melded"  # the player flag: the initial meld is made


class RummikubMoves(Moves):
    VERBS = {"draw": "draw", "play": "play"}

    def __init__(self, ruleset: Ruleset, catalogue: SetCatalogue):
        super().__init__(ruleset)
        self.catalogue = catalogue
        self.rules: RummikubRules = ruleset.rules
        self.notation = catalogue.checker.notation

    # -- the actions ----------------------------------------------------------------------------

    def draw(self, state: GameState, action: Action) -> GameState:
        """Draw a tile and end the turn; with the pool empty the turn passes (assumption pool-empty), and
        when every player has passed in turn no one can play: the game is over, blocked."""
        player = self._player(state, action)
        if state.stock <= 0:
            passes = int(state.facts.get("passes") or 0) + 1
            facts = {**state.facts, "passes": passes}
            if passes >= len(state.players):
                return replace(
                    state,
                    step="over",
                    facts={**facts, "result": "blocked: the pool is empty and no one can place a tile"},
                )
            return replace(state, turn=state.next_player, step="play", facts=facts)
        hand = state.hands[player]
        hand = hand + 1 if isinstance(hand, int) else f"{hand} {UNKNOWN}".strip()
        return replace(
            state, hands={**state.hands, player: hand}, stock=state.stock - 1, turn=state.next_player, step="play"
        )

    def play(self, state: GameState, action: Action) -> GameState:
        player = self._player(state, action)
        if not action.parts:
            raise MeldsError("play needs the table after the turn, set by set: play r7 r8 r9 | k5 b5 o5")
        after = [self._legal_set(part) for part in action.parts]
        before = [self.notation.parse_many(t.cards) for t in state.table]
        on_table = Counter(f for s in before for f in s)
        now = Counter(f for s in after for f in s.faces)
        taken = on_table - now
        if taken:
            raise Forbidden(
                "table-stays",
                f"{self._tiles(taken)} left the table (a play lists the whole table after the "
                "turn, the sets left as they were too): no table tile goes back to a rack",
                self.rules.sources.get("table_stays"),
            )
        placed = now - on_table
        if not placed:
            raise Forbidden(
                "nothing-placed",
                "the play places no tile from the rack: a player who places no tile draws",
                self.rules.sources.get("draw"),
            )
        hand = state.hands[player]
        if isinstance(hand, int):
            raise MeldsError(f"{player}'s rack is hidden in this state: give its tiles to judge a play")
        rack = Counter(self._rack(hand))
        missing = placed - rack
        if missing:
            raise Forbidden("not-in-rack", f"{self._tiles(missing)} not on {player}'s rack")
        if not state.flag(player, MELDED):
            self._initial(before, after)
        left = rack - placed
        unseen = hand.split().count(UNKNOWN)  # tiles drawn that nobody has shown
        rest = " ".join(
            [self.notation.format(f) for f in sorted(left.elements(), key=lambda f: f.index)] + [UNKNOWN] * unseen
        )
        owners = {}
        for t, s in zip(state.table, before, strict=True):
            owners.setdefault(_key(s), []).append(t.owner)
        table = []
        for s in after:
            kept = owners.get(_key(s.faces))
            owner = kept.pop(0) if kept else player
            table.append(TableWord(owner, " ".join(self.notation.format(f) for f in s.faces)))
        facts = {k: v for k, v in state.facts.items() if k != "passes"}  # a tile placed: the passes start again
        out = replace(state, hands={**state.hands, player: rest}, table=tuple(table), facts=facts).with_flag(
            player, MELDED, True
        )
        if not left and not unseen:
            return replace(out, step="over", facts={**facts, "winner": player})
        return replace(out, turn=state.next_player, step="play")

    def _initial(self, before: list, after: list[TileSet]) -> None:
        """The initial meld: the old sets untouched, the new ones worth the points, from the rack."""
        old = Counter(_key(s) for s in before)
        new = []
        for s in after:
            if old[_key(s.faces)]:
                old[_key(s.faces)] -= 1
            else:
                new.append(s)
        if +old:
            raise Forbidden(
                "initial-from-rack",
                "before the initial meld the table may not be rearranged",
                self.rules.sources.get("hand_only"),
            )
        value = sum(s.value for s in new)
        if value < self.rules.initial_meld:
            raise Forbidden(
                "initial-meld",
                f"the new sets are worth {value}: the initial meld needs {self.rules.initial_meld}",
                self.rules.sources.get("initial_meld"),
            )

    def _legal_set(self, text: str) -> TileSet:
        faces = self.notation.parse_many(text)
        found = self.catalogue.lookup(faces)
        if found is None:
            verdict = self.catalogue.checker.check(faces)
            reason = verdict.reasons[0] if verdict.reasons else None
            raise Forbidden(
                "not-a-set",
                f"{text} is not a set" + (f": {reason.message}" if reason else ""),
                reason.source if reason else None,
            )
        return found

    def _player(self, state: GameState, action: Action) -> str:
        if state.step == "over":
            raise Forbidden("game-over", "the game is over")
        if action.actor is not None and action.actor != state.turn:
            raise Forbidden("not-your-turn", f"it is {state.turn}'s turn")
        return state.turn

    def _rack(self, hand: str) -> list:
        """The rack's known tiles (a tile drawn unseen is written ?)."""
        return self.notation.parse_many(" ".join(w for w in hand.split() if w != UNKNOWN)) if hand.strip(" ?") else []

    def _tiles(self, counts: Counter) -> str:
        return " ".join(self.notation.format(f) for f in sorted(counts.elements(), key=lambda f: f.index))

    # -- what may be done now ----------------------------------------------------------------------

    def candidates(self, state: GameState) -> list[str]:
        """Drawing, and the best play (the most rack tiles, then the most value) when there is one."""
        out = ["draw"]
        hand = state.hands[state.turn]
        if isinstance(hand, int) or not hand or state.step == "over":
            return out
        rack = self._rack(hand)
        table = [self.notation.parse_many(t.cards) for t in state.table]
        best = solve_turn(
            self.catalogue, rack, table, bool(state.flag(state.turn, MELDED)), self.rules.initial_meld, "best"
        )
        if best.placed:
            out.append("play " + " | ".join(" ".join(self.notation.format(f) for f in s.faces) for s in best.table))
        return out


def _key(faces) -> tuple[int, ...]:
    return tuple(sorted(f.index for f in faces))
