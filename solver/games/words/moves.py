"""Word Rummy's turn, action by action: ``word W`` (the one word from the hand), ``arrange W | W
| …`` (the whole table after rearranging, hand tiles added), ``relief T`` (discard a tile face up,
draw two; once a turn), ``draw`` (no word this turn: draw one and pass), ``end`` (end the turn:
every table word must then stand). A hand is its tiles; ``?`` is a tile drawn unseen."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from solver.core.errors import MeldsError
from solver.core.moves import UNKNOWN, Action, Forbidden, Moves
from solver.core.ruleset import Ruleset
from solver.core.state import GameState, TableWord
from solver.games.words.session import WordSession


def _distinct_tiles(words: list[str], fixed: Counter) -> bool:
    """Can each word get its own tile of ``fixed`` (tiles that were not in the hand)?"""
    slots = list(fixed.elements())
    owner: dict[int, int] = {}

    def assign(w: int, seen: set) -> bool:
        for s, t in enumerate(slots):
            if t in words[w] and s not in seen:
                seen.add(s)
                if s not in owner or assign(owner[s], seen):
                    owner[s] = w
                    return True
        return False

    return all(assign(w, set()) for w in range(len(words)))


class WordMoves(Moves):
    VERBS = {
        "word": "word",
        "arrange": "arrange",
        "relief": "relief",
        "draw": "draw",
        "end": "end",
        "timeout": "timeout",
    }

    def __init__(self, ruleset: Ruleset, session: WordSession):
        super().__init__(ruleset)
        self.session = session
        self.game = session.game

    def state_json(self, state: GameState) -> dict:
        return state.to_json({"loose": state.loose, "last_lap": state.last_lap})

    def state_lines(self, state: GameState) -> list[str]:
        return super().state_lines(state) + ([f"  loose: {state.loose}"] if state.loose else [])

    def tiles(self, text: str) -> list[str]:
        out: list[str] = []
        for i, part in enumerate(text.split(UNKNOWN)):
            if i:
                out.append(UNKNOWN)
            if part.strip():
                out += self.session.tileset.tiles(part, "tiles")
        return out

    def hand(self, state: GameState) -> list[str]:
        h = state.hands[state.turn]
        if isinstance(h, int):
            raise Forbidden("hidden-hand", f"{state.turn}'s hand is hidden in this state; give its tiles")
        return self.tiles(h)

    def key(self, word: str) -> str:
        return "".join(self.session.tileset.tiles(word, "word"))

    def recorded_start(self, state: GameState) -> tuple[TableWord, ...] | None:
        """The table as the turn began, when the state knows it (``facts.turn_start`` in a file)."""
        if state.turn_start_table is not None:
            return state.turn_start_table
        start = state.facts.get("turn_start")
        if start:
            return tuple(TableWord(str(t["owner"]), str(t["cards"])) for t in start.get("table", []))
        return None

    def start_table(self, state: GameState) -> tuple[TableWord, ...]:
        recorded = self.recorded_start(state)
        return recorded if recorded is not None else state.table

    def _with(self, state: GameState, hand: list[str], **changes) -> GameState:
        facts = dict(changes.pop("facts", state.facts))
        if "turn_start" not in facts:  # the first change of the turn: remember how the turn began
            facts["turn_start"] = {
                "table": [{"owner": t.owner, "cards": t.cards} for t in self.start_table(state)],
                "loose": state.loose,
            }
        return replace(
            state,
            hands={**state.hands, state.turn: "".join(hand)},
            turn_start_table=self.start_table(state),
            facts=facts,
            **changes,
        )

    def _least(self, state: GameState, which: str) -> int:
        return self.game.min_length["last_lap" if state.last_lap else which]

    # -- actions ------------------------------------------------------------------------------

    def word(self, state: GameState, action: Action) -> GameState:
        key = self.key("".join(action.args))
        hand = self.hand(state)
        missing = Counter(key) - Counter(hand)
        if missing:
            raise Forbidden(
                "not-in-hand", f"{''.join(missing.elements())} not in {state.turn}'s hand", self.source("word")
            )
        verdict = self.session.check(key, min_tiles=self._least(state, "word"))
        if not verdict["legal"]:
            raise Forbidden(verdict["reasons"][0]["code"], verdict["reasons"][0]["message"], self.source("word"))
        left = list((Counter(hand) - Counter(key)).elements())
        after = self._with(
            state,
            left,
            table=state.table + (TableWord(state.turn, verdict["word"]),),
            melds_this_turn=state.melds_this_turn + 1,
        )
        return self._maybe_over(after.with_flag(state.turn, "word_this_turn", key), left)

    def arrange(self, state: GameState, action: Action) -> GameState:
        words = action.parts
        if not words:
            raise MeldsError("arrange W | W | …: the whole table after arranging")
        keys = [self.key(w) for w in words]
        before = Counter("".join(self.key(t.cards) for t in state.table))
        after_tiles = Counter("".join(keys))
        lost = before - after_tiles
        if lost:
            raise Forbidden(
                "tile-left-table",
                f"{''.join(lost.elements())} would leave the table; arranging keeps every table tile on the table",
                self.source("arrange"),
            )
        added = after_tiles - before
        hand = self.hand(state)
        loose = Counter(self.session.tileset.tiles(state.loose, "loose")) if state.loose else Counter()
        short = added - Counter(hand) - loose
        if short:
            raise Forbidden(
                "not-in-hand", f"{''.join(short.elements())} are neither in the hand nor loose", self.source("arrange")
            )
        from_hand = added & Counter(hand)  # hand tiles first: the loose ones only where the hand lacks them
        used_loose = added - from_hand
        left = list((Counter(hand) - from_hand).elements())
        owners = {self.key(t.cards): t.owner for t in state.table}
        table = tuple(
            TableWord(owners.get(k, state.turn), self.session.tileset.spell(w).word)
            for k, w in zip(keys, words, strict=True)
        )
        remaining = "".join((loose - used_loose).elements())
        after = self._with(state, left, table=table, loose=remaining)
        if from_hand:  # tiles of the hand went down: the turn made words (a mere regrouping plays none)
            after = after.with_flag(state.turn, "arranged", True)
        return self._maybe_over(after, left)

    def relief(self, state: GameState, action: Action) -> GameState:
        if not action.args:
            raise MeldsError("relief TILE [draws TILES]: the tile put face up, and the two drawn when shown")
        tile = self.key(action.args[0])
        hand = self.hand(state)
        if len(tile) != 1 or tile not in hand:
            raise Forbidden(
                "not-in-hand", f"{action.args[0]} is not a tile of {state.turn}'s hand", self.source("relief")
            )
        drawn = (
            self.key("".join(action.args[2:])) if action.args[1:2] == ("draws",) else UNKNOWN * self.game.relief["draw"]
        )
        if state.stock < self.game.relief["draw"]:
            raise Forbidden("stock-empty", "the stock has too few tiles to draw", self.source("relief"))
        left = list(hand)
        left.remove(tile)
        return self._with(
            state, left + list(drawn), loose=state.loose + tile, stock=state.stock - self.game.relief["draw"]
        ).with_flag(state.turn, "relief_used", int(state.flag(state.turn, "relief_used")) + 1)

    def draw(self, state: GameState, action: Action) -> GameState:
        if state.melds_this_turn or state.flag(state.turn, "arranged"):
            raise Forbidden(
                "word-made", "the draw is for a turn with no word; end the turn instead", self.source("draw")
            )
        if state.stock <= 0:
            raise Forbidden("stock-empty", "the stock is empty", self.source("draw"))
        drawn = self.key(action.args[0]) if action.args else UNKNOWN
        after = self._with(state, self.hand(state) + list(drawn), stock=state.stock - self.game.no_word_draw)
        return self._next_turn(after)

    def end(self, state: GameState, action: Action) -> GameState:
        """End the turn (時間内であってもタイマーをリセットし、手番を終了させることも可能です). A turn that put
        down no tile of the hand in a word ends by drawing instead (制限時間内にワード(言葉)が作れない場合は
        …1枚引いて手番を終了させ), unless the stock is out (the last lap)."""
        if not (state.melds_this_turn or state.flag(state.turn, "arranged")) and state.stock >= self.game.no_word_draw:
            raise Forbidden(
                "no-word-draw",
                f"{state.turn} has made no word this turn: the turn ends by drawing a tile ('draw')",
                self.source("draw"),
            )
        self._table_stands(state)
        return self._next_turn(state)

    def timeout(self, state: GameState, action: Action) -> GameState:
        """FAQ 2: time ran out while arranging — the table goes back as it was when the turn began,
        the tiles played this turn go back to the hand, and the player draws two as a penalty and
        ends the turn (a relief tile put face up stays where it lies)."""
        start = self.start_table(state)
        recorded = state.facts.get("turn_start") or {}
        tiles = self.session.tileset.tiles

        def counts(words, loose: str) -> Counter:
            out = Counter("".join(self.key(t.cards) for t in words))
            return out + (Counter(tiles(loose, "loose")) if loose else Counter())

        start_loose = recorded.get("loose", state.loose)
        played = counts(state.table, "") - counts(start, "")  # tiles the turn added to the words
        from_loose = (
            Counter(tiles(start_loose, "loose")) - Counter(tiles(state.loose, "loose")) if start_loose else Counter()
        )
        back = list((played - from_loose).elements())
        penalty = min(self.game.timeout_draw, state.stock)
        drawn = self.key("".join(action.args[1:])) if action.args[:1] == ("draws",) else UNKNOWN * penalty
        loose = state.loose + "".join((played & from_loose).elements())
        after = replace(
            state,
            hands={**state.hands, state.turn: "".join(self.hand(state) + back + list(drawn))},
            table=start,
            loose=loose,
            stock=state.stock - penalty,
            turn_start_table=None,
        )
        after = after.with_flag(state.turn, "word_this_turn", False)
        return self._next_turn(replace(after, melds_this_turn=0))

    # -- turn bookkeeping ---------------------------------------------------------------------

    def _table_stands(self, state: GameState) -> None:
        least = self._least(state, "table")
        start = Counter(t.cards for t in self.start_table(state))
        for t in state.table:
            key = self.key(t.cards)
            if len(key) < least:
                raise Forbidden(
                    "short-word",
                    f"{t.cards} has {len(key)} tiles; every word on the table needs {least} at the end of a turn",
                    self.game.sources.get("min_length.table"),
                )
            if not start[t.cards] and not self.session.dictionary.by_key.get(key):
                raise Forbidden("not-a-word", f"{t.cards} is not in the dictionary", self.source("arrange"))

    def _next_turn(self, state: GameState) -> GameState:
        player = state.turn
        made_word = state.melds_this_turn > 0
        after = replace(
            state,
            turn=state.next_player,
            melds_this_turn=0,
            turn_start_table=None,
            facts={k: v for k, v in state.facts.items() if k != "turn_start"},
        )
        after = (
            after.with_flag(player, "relief_used", 0)
            .with_flag(player, "arranged", False)
            .with_flag(player, "word_this_turn", False)
        )
        after = after.with_flag(player, "has_word", True) if made_word else after
        return self._last_lap(after, player)

    def _last_lap(self, state: GameState, player: str) -> GameState:
        """FAQ 1: 場に裏向きの牌がなくなった場合は無くなった次の手番の人から1周1手番プレイしてゲーム終了
        となります。得点計算はせずにノーゲームとなります。 When a turn ends with the stock empty, the
        last lap begins with the next player (two tiles make a word in it); it ends with the turn of
        the player who emptied the stock, and the game is over with no score."""
        facts = dict(state.facts)
        if state.last_lap:
            if facts.get("last_lap_ends") == player:
                facts["result"] = "no game: the stock ran out and the last lap is over (no score)"
                return replace(state, step="over", facts=facts)
            return state
        if state.stock <= 0:
            facts["last_lap_ends"] = player
            return replace(state, last_lap=True, facts=facts)
        return state

    def _maybe_over(self, state: GameState, left: list[str]) -> GameState:
        if left:
            return state
        self._table_stands(state)  # the game ends the moment the hand empties: the table must stand
        return replace(state, step="over")

    # -- listing ------------------------------------------------------------------------------

    def candidates(self, state: GameState) -> list[str]:
        if state.step == "over" or isinstance(state.hands[state.turn], int):
            return []
        hand = [t for t in self.hand(state) if t != UNKNOWN]
        out = ["end", "draw"]
        out += [f"relief {t}" for t in dict.fromkeys(hand)]
        least = self._least(state, "word")
        words = self.session.dictionary.formable(Counter(hand), least)
        out += [f"word {self.session.dictionary.by_key[k][0].reading}" for k in words]
        return out + self._extensions(state, hand)

    def _extensions(self, state: GameState, hand: list[str]) -> list[str]:
        """Arrangements that add one hand tile to one table word (any order of its tiles); the
        whole-table arrangements are melds solve's to find."""
        d = self.session.dictionary
        if not hasattr(self, "_anagrams"):
            self._anagrams: dict[str, str] = {}
            for key, entries in d.by_key.items():
                self._anagrams.setdefault("".join(sorted(key)), entries[0].reading)
        words = [t.cards for t in state.table]
        out = []
        for i, w in enumerate(words):
            for tile in dict.fromkeys(hand):
                found = self._anagrams.get("".join(sorted(self.key(w) + tile)))
                if found:
                    out.append("arrange " + " | ".join(words[:i] + [found] + words[i + 1 :]))
        return out


def _first_word_before_arranging(self: WordMoves, state: GameState, action: Action) -> str | None:
    if action.verb == "arrange" and not state.flag(state.turn, "has_word"):
        return f"{state.turn} has not put down a first word on an earlier turn, so may not arrange yet"
    return None


def _one_word_from_hand(self: WordMoves, state: GameState, action: Action) -> str | None:
    if action.verb == "word" and state.melds_this_turn >= self.game.words_from_hand:
        return f"only {self.game.words_from_hand} word from the hand a turn"
    return None


def _relief_once(self: WordMoves, state: GameState, action: Action) -> str | None:
    allowed = self.game.relief["per_turn"]
    if action.verb == "relief" and int(state.flag(state.turn, "relief_used")) >= allowed:
        return f"the relief action is allowed {'once' if allowed == 1 else f'{allowed} times'} a turn"
    return None


def _no_second_hand_word(self: WordMoves, state: GameState, action: Action) -> str | None:
    """An arrangement may not hide a second word of hand tiles alone."""
    if action.verb != "arrange":
        return None
    least = self._least(state, "table")
    keys = [k for k in (self.key(w) for w in action.parts) if len(k) >= least]  # shorter: tiles set aside
    new = state.flag(state.turn, "word_this_turn")  # the one word from the hand may be hand tiles alone
    start = [self.key(t.cards) for t in self.start_table(state)]
    if new and self.recorded_start(state) is None and new in start:
        start.remove(new)  # a state given mid-turn: this turn's word is on the table, but not from it
    fixed = Counter("".join(start))
    fixed += Counter(self.session.tileset.tiles(state.loose, "loose")) if state.loose else Counter()
    rest = list(keys)
    if new and new in rest:
        rest.remove(new)
    if not _distinct_tiles(rest, fixed):
        return "a word of this arrangement is made of hand tiles alone: that would be a second word from the hand"
    return None


WordMoves.CHECKS = {
    "first-word-before-arranging": _first_word_before_arranging,
    "one-word-from-hand": _one_word_from_hand,
    "relief-once": _relief_once,
    "no-second-hand-word": _no_second_hand_word,
}
