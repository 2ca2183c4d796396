"""Fesca Wild Rummy R turn by turn: the normal turn (draw from the stock, melds, single-card
operations, recall, a discard to end it — and to go out), 鳴き (a claimed turn on a discard,
nearest player first, no discard), and the field phase a 陰陽 discard sets.

Actions: ``draw stock [CARD]``, ``meld CARDS`` (in table order), ``op ID N CARD [at K]`` (the
operation ``ID`` of the ruleset — layoff, substitute, bury, take-natural, excavate, chain-shift —
on table meld ``N`` with a hand card; ``at K`` picks the position when there are several),
``recall N``, ``discard CARD``; on a discard (step ``call``) ``B: claim``, or ``pass``; a
claimed turn ends with ``end``. Table melds are written in table order, ``木5(太極)`` for a
buried wild, as in puzzles."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from solver.core.errors import MeldsError
from solver.core.moves import UNKNOWN, Action, Forbidden
from solver.core.ruleset import Ruleset
from solver.core.state import GameState, TableWord
from solver.melding.meld.candidates import candidates as meld_candidates
from solver.melding.meld.checker import NO_PHASE, MeldChecker
from solver.melding.meld.encode import sequence_place
from solver.melding.moves import MeldMoves
from solver.melding.puzzle import table_meld
from solver.melding.table.operations import Table, TableMeld, meld_state


class FescaMoves(MeldMoves):
    VERBS = {
        "draw": "draw",
        "meld": "meld",
        "discard": "discard",
        "op": "op",
        "recall": "recall",
        "claim": "claim",
        "pass": "pass_",
        "end": "end",
        "restock": "restock",
    }

    def __init__(self, ruleset: Ruleset, checker: MeldChecker):
        super().__init__(ruleset, checker)
        self.rules = ruleset.rules
        self.table = Table(checker)

    # -- the table ----------------------------------------------------------------------------

    def phase(self, state: GameState) -> str:
        """The field phase: the last 陰陽 discard's, else the table's start (option start-phase);
        before any, no phase (none): neither 相生 nor 相克 is in force, so no 相順 is melded or
        touched (陽場では相生が有効 … 陰場では逆に相克が有効となる)."""
        return state.facts.get("phase") or self.rules.start_phase or NO_PHASE

    def melds(self, state: GameState) -> list[TableMeld]:
        return [table_meld(self.notation, t.owner, t.cards) for t in state.table]

    def write(self, meld: TableMeld) -> str:
        return " ".join(
            self.notation.format(f) + (f"({self.notation.format(b)})" if b is not None else "")
            for f, b in zip(meld.faces, meld.buried, strict=True)
        )

    def turn_source(self, kind: str):
        sources = self.rs.turn_rule(kind).sources
        return sources[0] if sources else None

    def turn_kind(self, state: GameState) -> str:
        return "claimed" if state.facts.get("claimed_turn") else "normal"

    def verdict(self, state: GameState, cards: list[str]):
        return self.checker.check(self.notation.parse_many(cards), phase=self.phase(state), ordered=True)

    # -- actions ------------------------------------------------------------------------------

    def meld(self, state: GameState, action: Action) -> GameState:
        after = super().meld(state, action)
        pending = self._pending(state)
        if pending and not pending & {self.canon(a) for a in action.args}:
            raise Forbidden(
                "taken-not-melded",
                f"{' '.join(sorted(pending))}, taken by an exchange before one's own "
                "first meld, must go into the next meld",
                self.rules.restriction_sources.get("meld_taken_at_once"),
            )
        claimed = state.facts.get("claimed_turn")
        if claimed and state.melds_this_turn == 0 and self.canon(claimed) not in [self.canon(a) for a in action.args]:
            raise Forbidden(
                "claimed-card-first",
                f"the first meld of a claimed turn must hold {claimed}",
                self.turn_source("claimed"),
            )
        cards = [self.canon(a) for a in action.args]
        self._not_recalled_this_turn(state, cards)
        earlier = (state.facts.get("recalled_melds") or {}).get(state.turn, [])
        if earlier and self._meld_state(self.verdict(state, cards).reading) in earlier:
            raise Forbidden(
                "recall-remeld",
                f"{state.turn} recalled this meld in an earlier turn: it may not come "
                "back in exactly the same state (the same cards, the same wilds); another card or "
                "another use of a wild may",
                self.rules.restriction_sources.get("recall_no_remeld"),
            )
        return after

    @staticmethod
    def _has_own_meld(state: GameState) -> bool:
        """一つでもメルドを公開していれば: a meld of one's own lies on the table (or the state says the
        player has melded)."""
        return bool(state.flag(state.turn, "melded")) or any(t.owner == state.turn for t in state.table)

    def _pending(self, state: GameState) -> set[str]:
        """Cards an exchange took before one's own first meld that are still in the hand: they must be
        melded at once (交換取得した札を即時に使用（メルド公開）することを条件に許可される), so the next plays are
        melds holding them (assumption taken-melded-at-once)."""
        must = state.facts.get("must_meld") or []
        return set(must) & set(self.hand(state) or [])

    def _recalled_cards(self, state: GameState) -> list[str]:
        """The cards of the melds recalled this turn (``facts.recalled``: 'cards / wilds' each)."""
        return [c for entry in state.facts.get("recalled") or [] for c in entry.split("/")[0].split()]

    def _not_recalled_this_turn(self, state: GameState, cards: list[str]) -> None:
        """すなわち回収したメルドを組み替えたメルドは、その手番で出すことができない: the cards a recall took
        back stay in the hand for the rest of the turn (only the discard follows)."""
        back = set(self._recalled_cards(state)) & set(cards)
        if back:
            raise Forbidden(
                "recalled-this-turn",
                f"{' '.join(sorted(back))} came back by a recall this turn: a meld "
                "made again from a recalled meld may not be played in the same turn",
                self.rules.restriction_sources.get("recall_same_turn"),
            )

    def _meld_state(self, reading, buried: tuple = ()) -> str:
        """What 'the same state' of a meld is for the recall rule: its cards and which act as wilds,
        written out (a state file keeps it). A wild buried in the recalled meld is one of its cards
        (埋め潰されたワイルドカードも…手札に戻す), so it too stays out of play that turn, and a meld
        made later without it differs in the number of cards (枚数の違いがあればよい)."""
        cards, wilds = meld_state(reading)
        cards = tuple(sorted(cards + tuple(buried)))
        return (
            " ".join(self.notation.format(f) for f in cards) + " / " + " ".join(self.notation.format(f) for f in wilds)
        )

    def op(self, state: GameState, action: Action) -> GameState:
        self._need_step(state, "play")
        args = list(action.args)
        if len(args) < 3 or not args[1].isdigit():
            raise MeldsError("op ID N CARD [at K]: an operation of the ruleset, the table meld's number, a hand card")
        op = next((o for o in self.rules.operations if o.id == args[0]), None)
        if op is None or op.effect == "recall":
            known = ", ".join(o.id for o in self.rules.operations if o.effect != "recall")
            raise MeldsError(f"unknown operation {args[0]!r} (operations: {known})")
        n = int(args[1])
        melds = self.melds(state)
        if not 1 <= n <= len(melds):
            raise MeldsError(f"there is no table meld {n} (the table has {len(melds)})")
        card = self.canon(args[2])
        at = int(args[4]) if len(args) >= 5 and args[3] == "at" and args[4].isdigit() else None
        self.take_from_hand(state, [card], "op")
        if self.turn_kind(state) == "claimed" and state.melds_this_turn == 0:
            raise Forbidden(
                "claimed-card-first",
                f"a claimed turn first melds {state.facts.get('claimed_turn')}: "
                "no single-card operation comes before that meld",
                self.turn_source("claimed"),
            )
        pending = self._pending(state)
        if pending:
            raise Forbidden(
                "taken-not-melded",
                f"{' '.join(sorted(pending))}, taken by an exchange before one's own "
                "first meld, must be melded before any other operation",
                self.rules.restriction_sources.get("meld_taken_at_once"),
            )
        self._not_recalled_this_turn(state, [card])
        meld = replace(melds[n - 1], mine=melds[n - 1].owner == state.turn)
        if op.turns is not None and self.turn_kind(state) not in op.turns:
            raise Forbidden("wrong-turn", f"{op.name} is not allowed in a {self.turn_kind(state)} turn", op.source)
        if not self.table.touchable(meld, self.phase(state)):
            raise Forbidden("phase", f"table meld {n} belongs to the other field phase", self.rules.phase_touch_source)
        face = self.notation.parse(card)
        found = [m for m in self.table.moves((meld,), (face,), self.phase(state), (op,))]
        if at is not None:
            found = [m for m in found if self._position(meld, m) == at]
        if not found:
            raise Forbidden(
                "not-legal-here",
                f"{op.name} of {card} on table meld {n} ({self.write(meld)}) leaves no legal meld",
                op.source,
            )
        melded = self._has_own_meld(state)
        if not melded and op.before_own_meld == "forbidden":
            raise Forbidden(
                "before-own-meld",
                f"{op.name} is not allowed before one's own first meld",
                self.rules.restriction_sources.get("before_own_meld"),
            )
        at_once = not melded and op.before_own_meld == "meld-taken-at-once"
        for move in found:  # where the card may go several ways, the first the rules allow
            hand = self.known_hand(state, "op")
            hand.remove(card)
            taken = [self.notation.format(f) for f in move.taken]
            hand += taken
            table = list(state.table)
            table[n - 1] = TableWord(meld.owner, self.write(move.result))
            after = self._with_hand(state, hand, table=tuple(table))
            if at_once and taken:
                if not self._meldable_at_once(after, hand, taken):
                    continue
                after = replace(after, facts={**after.facts, "must_meld": taken})
            return self._maybe_over(after, hand)
        raise Forbidden(
            "taken-not-meldable",
            f"{op.name} before one's own first meld takes "
            f"{' '.join(self.notation.format(f) for f in found[0].taken)}, which the hand could not meld "
            f"at once: the exchange is allowed only on that condition",
            self.rules.restriction_sources.get("meld_taken_at_once"),
        )

    def _meldable_at_once(self, state: GameState, hand: list[str], taken: list[str]) -> bool:
        """Can ``hand`` meld every card of ``taken`` in new melds straight away, each meld holding one
        or more of them (交換取得した札を即時に使用（メルド公開）することを条件に許可される), and a normal turn
        still hold a card for its discard (逆に通常の手番では、必ず捨て札して上がる必要がある)?"""
        if not taken:
            return len(hand) >= (1 if self.turn_kind(state) == "normal" else 0)
        if UNKNOWN in hand:
            return True  # a card drawn unseen may be the one that makes the meld
        faces = self.notation.parse_many(hand)
        first = hand.index(taken[0])
        phase = self.phase(state)
        # no limit: never None
        for cand in meld_candidates(self.rs, faces, required=(first,), gate=self.checker.gate) or []:
            cards = [hand[i] for i in cand.cards]
            if not self.checker.check([faces[i] for i in cand.cards], phase=phase).legal:
                continue
            rest = list(hand)
            for c in cards:
                rest.remove(c)
            if self._meldable_at_once(state, rest, [t for t in taken[1:] if t not in cards]):
                return True
        return False

    def _in_table_order(self, action: str) -> str:
        """A candidate ``meld`` written in table order (melds are judged in the order given, as they
        lie on the table): a sequence by its places, from its low end."""
        if not action.startswith("meld "):
            return action
        faces = self.notation.parse_many(action.split()[1:])
        verdict = self.checker.check(faces, explain=False)
        reading = verdict.reading
        if not verdict.legal or reading is None or reading.kind.shape != "sequence":
            return action
        placed = sorted(reading.placements, key=sequence_place)
        return "meld " + " ".join(self.notation.format(p.face) for p in placed)

    @staticmethod
    def _position(meld: TableMeld, move) -> int:
        """Where the played card lands in the resulting meld (1 is the first position)."""
        result = move.result
        if len(result.faces) > len(meld.faces):  # added at one end
            return 1 if result.faces[1:] == meld.faces else len(result.faces)
        if result.faces[1:] == meld.faces[:-1] and result.faces[0] in move.played:
            return 1  # 付け抜き札 at the start
        changed = [
            i
            for i in range(len(result.faces))
            if (result.faces[i], result.buried[i]) != (meld.faces[i], meld.buried[i])
        ]
        return changed[-1] + 1 if changed else 1

    def recall(self, state: GameState, action: Action) -> GameState:
        self._need_step(state, "play")
        if self.turn_kind(state) != "normal":
            raise Forbidden("wrong-turn", "a meld is recalled in a normal turn only", self.source("recall"))
        if not action.args or not action.args[0].isdigit():
            raise MeldsError("recall N: the number of one's own table meld")
        n = int(action.args[0])
        melds = self.melds(state)
        if not 1 <= n <= len(melds):
            raise MeldsError(f"there is no table meld {n}")
        if melds[n - 1].owner != state.turn:
            raise Forbidden("not-own-meld", "only one's own meld can be recalled", self.source("recall"))
        cards = [self.notation.format(f) for f in melds[n - 1].all_cards]
        table = state.table[: n - 1] + state.table[n:]
        reading = self.table.reading(melds[n - 1])
        buried = tuple(b for b in melds[n - 1].buried if b is not None)
        recalled = list(state.facts.get("recalled", [])) + ([self._meld_state(reading, buried)] if reading else [])
        after = self._with_hand(
            state, self.known_hand(state, "recall") + cards, table=table, facts={**state.facts, "recalled": recalled}
        )
        if not any(t.owner == state.turn for t in table):
            # メルドを一つも公開していない状態では…単札操作は禁止される: with no meld of one's own left on the
            # table, the restrictions before one's own meld apply again
            after = after.with_flag(state.turn, "melded", False)
        return after

    def discard(self, state: GameState, action: Action) -> GameState:
        if self.turn_kind(state) == "claimed":
            raise Forbidden(
                "no-discard-in-claimed-turn",
                "a claimed turn has no discard; it ends with 'end'",
                self.turn_source("claimed"),
            )
        must = state.facts.get("must_meld") or []
        card = self.canon(action.args[0]) if action.args else ""
        if must and set(must) & set(self.hand(state) or []):
            raise Forbidden(
                "taken-not-melded",
                f"{' '.join(must)}, taken by an operation before one's own first meld, must be melded at once",
                self.rules.restriction_sources.get("meld_taken_at_once"),
            )
        after = super().discard(state, action)
        phase = self.rules.phase_after(self.notation.parse(card), self.phase(state))
        facts = {k: v for k, v in after.facts.items() if k not in ("must_meld", "recalled")}
        if state.facts.get("recalled"):  # 次回以降の手番では、回収時と全く同じ状態の役組で出すことは禁止される
            kept = {p: list(v) for p, v in (state.facts.get("recalled_melds") or {}).items()}
            kept[state.turn] = list(dict.fromkeys(kept.get(state.turn, []) + list(state.facts["recalled"])))
            facts["recalled_melds"] = kept
        if phase not in (None, NO_PHASE):
            facts["phase"] = phase
        if after.step != "over":
            after = replace(after, step="call", turn=state.turn)
        return replace(after, facts=facts)

    def _maybe_over(self, state: GameState, left: list[str]) -> GameState:
        if left:
            return state
        if self.turn_kind(state) == "normal":  # 逆に通常の手番では、必ず捨て札して上がる必要がある
            raise Forbidden(
                "discard-to-go-out", "in a normal turn the last card must be a discard", self.turn_source("normal")
            )
        return replace(state, step="over")

    def claim(self, state: GameState, action: Action) -> GameState:
        seat = action.actor
        if state.step != "call" or not state.discards:
            raise Forbidden(
                "no-discard", "鳴き claims the discard just made; there is none to claim", self.source("claim")
            )
        if seat is None or seat == state.discarded_by:
            raise MeldsError("who claims? 'B: claim' (not the discarder)")
        card = state.discards[-1]
        hand = state.hands[seat]
        new: int | str
        if isinstance(hand, int):
            new = hand + 1
        else:
            new = f"{hand} {card}".strip()
            if not self._meldable_with(state, [self.canon(t) for t in self.tokens(hand)], self.canon(card)):
                raise Forbidden(
                    "claim-cannot-meld",
                    f"{seat} holds no cards that make a legal meld with {card}: a "
                    f"claimed turn must first meld the claimed card",
                    self.turn_source("claimed"),
                )
        facts = {**state.facts, "claimed_turn": card, "resume": state.discarded_by, "claims": {}}
        return replace(
            state,
            hands={**state.hands, seat: new},
            discards=state.discards[:-1],
            turn=seat,
            step="play",
            melds_this_turn=0,
            facts=facts,
            taken=card,
        )

    def _meldable_with(self, state: GameState, hand: list[str], card: str) -> bool:
        """Can a hand meld ``card`` (a discard it would claim) in a new legal meld now? 鳴き手番では、捨て札を
        1枚取得し、その札を含むメルドを最初に出さなければならない: a claim no meld can follow is no claim. A hand
        with cards drawn unseen may hold one that does."""
        if UNKNOWN in hand:
            return True
        faces = self.notation.parse_many(hand + [card])
        phase = self.phase(state)
        return any(
            self.checker.check([faces[i] for i in cand.cards], phase=phase).legal  # in any order
            for cand in meld_candidates(self.rs, faces, required=(len(faces) - 1,), gate=self.checker.gate) or []
        )

    def pass_(self, state: GameState, action: Action) -> GameState:
        if state.step != "call":
            raise Forbidden("wrong-step", "pass closes the claims on a discard; there is none")
        seats = list(state.players)
        nxt = seats[(seats.index(state.discarded_by or state.turn) + 1) % len(seats)]
        return replace(state, turn=nxt, step="draw", facts={**state.facts, "claims": {}})

    def end(self, state: GameState, action: Action) -> GameState:
        if self.turn_kind(state) != "claimed":
            raise Forbidden("normal-turn", "a normal turn ends with a discard", self.source("discard"))
        if state.melds_this_turn == 0:
            raise Forbidden(
                "claimed-card-first", "a claimed turn must meld the claimed card", self.turn_source("claimed")
            )
        seats = list(state.players)
        resume = state.facts.get("resume") or state.turn
        nxt = seats[(seats.index(resume) + 1) % len(seats)]  # back to the normal order
        facts = {k: v for k, v in state.facts.items() if k not in ("claimed_turn", "resume", "must_meld")}
        return replace(state, turn=nxt, step="draw", facts=facts, taken=None, melds_this_turn=0)

    def candidates(self, state: GameState) -> Iterator[str]:
        """The shared listing in table order, without lay-offs (the operations say what may be
        played on a table meld), then each table operation with each hand card, recalls and the
        end of the turn — made lazily, each once."""
        if state.step == "call":
            yield "pass"
            yield from (f"{p}: claim" for p in state.players if p != state.discarded_by)
            return
        listed: set[str] = set()
        for action in self._shared_candidates(state):
            if action not in listed:
                listed.add(action)
                yield action

    def _shared_candidates(self, state: GameState) -> Iterator[str]:
        for action in super().candidates(state):
            if not action.startswith(("layoff", "show")):
                yield self._in_table_order(action)
        hand = self.hand(state)
        if state.step == "play" and hand is not None:
            faces = tuple(self.notation.parse(c) for c in dict.fromkeys(hand) if c != "?")
            for n, meld in enumerate(self.melds(state), 1):
                meld = replace(meld, mine=meld.owner == state.turn)
                for move in self.table.moves((meld,), faces, self.phase(state), self.rules.operations):
                    yield f"op {move.op.id} {n} {self.notation.format(move.played[0])}"
                if meld.owner == state.turn:
                    yield f"recall {n}"
            yield "end"


def _claim_priority(self: FescaMoves, state: GameState, action: Action) -> str | None:
    """鳴き宣言する人が複数の場合は、通常手番の最も近い人が優先される。"""
    if action.verb != "claim" or not state.discarded_by:
        return None
    seats = list(state.players)
    order = [seats[(seats.index(state.discarded_by) + k) % len(seats)] for k in range(1, len(seats))]
    claimants = [s for s in (state.facts.get("claims") or {}) if s in order]
    nearer = [s for s in claimants if action.actor in order and order.index(s) < order.index(action.actor)]
    if nearer:
        return f"{', '.join(nearer)} also claims and sits nearer in turn order after {state.discarded_by}"
    return None


FescaMoves.CHECKS = {**MeldMoves.CHECKS, "claim-priority": _claim_priority}
