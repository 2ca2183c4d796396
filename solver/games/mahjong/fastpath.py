"""The common actions of a replayed hand judged on tile counts: draw, discard, riichi, chi, pon and
the pass after a discard, as :class:`~solver.games.mahjong.moves.MahjongMoves` judges them.

A replay judges every action of every hand; the moves keep a hand as its text in a
:class:`~solver.core.state.GameState` and copy the state at each action. :class:`CountedTable`
keeps the same position as counts of tiles by face and by identity, changed in place, and takes
an action only when it can tell that the moves would find it legal — every structural rule of the
verb and every check of the ruleset that could concern it — leaving the table as the moves would
leave the state. Anything else it declines (returns ``False``, unchanged): an action it finds
doubtful, one of a verb it does not take (kans, wins, 九種九牌, 北抜き…), a position it cannot
hold (a kan on offer, 四開槓 pending, a declared claim). The replay then judges that action with
the moves on :meth:`CountedTable.state` — the same position as a ``GameState`` — and goes on from
the state they return (:meth:`CountedTable.of_state`), so that every reason an action is refused,
and every rare rule, is the moves' own. A ruleset with a check this module does not know is never
judged here (:attr:`FastRules.usable`).

Furiten after a tile let go by is kept lazily, as the moves would set it: a seat in riichi, whose
hand is fixed, is checked at once against its waits; any other seat's tiles let go by are kept
with its hand as it was when they passed, and weighed only when the position is shown as a state
— its own next discard ends that furiten in any case.
"""

from __future__ import annotations

from typing import Any

from solver.core.errors import MeldsError
from solver.core.state import GameState
from solver.games.mahjong.fastrules import KNOWN_CHECKS, FastRules, fast_rules
from solver.games.mahjong.record import Move
from solver.games.mahjong.tiles import DeclaredMeld

SEATS = "ESWN"
TABLE_FACTS = frozenset({"round", "first_go_around", "kans", "claims", "rivers", "drawn", "rinshan"})


class CountedTable:
    """A hand's position as counts (seats are indices into ``players``: 0 the dealer)."""

    def __init__(self, rules: FastRules, players: tuple[str, ...], path: str):
        n, width = len(players), len(rules.faces)
        self.rules, self.players, self.path, self.n = rules, players, path, n
        self.turn, self.step, self.stock = 0, "draw", 0
        self.by: int | None = None  # the seat of the discard on the table
        self.discards: list[str] = []
        self.faces = [[0] * width for _ in range(n)]  # concealed tiles by face
        self.room = [list(rules.copies) for _ in range(n)]  # by face: the set's copies less the seat's declared
        self.melds: list[tuple[DeclaredMeld, ...]] = [() for _ in range(n)]
        self.flags: list[dict] = [{} for _ in range(n)]
        self.facts: dict[str, Any] = {}  # the state's facts but the rivers
        self.rivers: list[list[str] | None] = [None] * n
        self.passed: list[int] = []  # the identities let go by (passed or called), in order
        self.since = [0] * n  # where in ``passed`` the tiles the seat let go by since its discard start
        self.before: list[tuple | None] = [None] * n  # at a seat's call: (identity counts, declared, start, stop)
        self.drew: int | None = None  # the identity the turn's seat drew (its hand before: the counts less it)
        self.in_riichi: list[int] = []  # the seats in riichi
        self.riichi_waits: list[frozenset | None] = [None] * n
        # a discard that changes no flag of its seat (it has discarded since its last call, is not in
        # riichi, no furiten of its own to end) on a calm table (no kan, the first go-around over)
        # is taken without weighing a flag or a fact
        self.plain = [False] * n
        self.calm = False

    # -- building -------------------------------------------------------------------------------

    @classmethod
    def dealt(
        cls,
        rules: FastRules,
        players: tuple[str, ...],
        deal: list[list[str]],
        stock: int,
        flags: list,
        facts: dict,
        path: str,
    ) -> CountedTable | None:
        """The start of a hand, when every tile dealt is one of the set and no face is dealt more
        often than the set holds (None: the state's own checks must say what is wrong)."""
        table = cls(rules, players, path)
        read, size = rules.known.get, rules.tenpai_size + 1
        for seat, tiles in enumerate(deal):
            found = list(map(read, tiles))
            if None in found:
                found = [rules.face(text) for text in tiles]
            if len(tiles) > size or None in found:
                return None
            faces = table.faces[seat]
            for i in found:
                faces[i] += 1  # type: ignore[index]  # no None: returned above
        if rules.over_copies(list(map(sum, zip(*table.faces, strict=True)))):
            return None
        table.stock, table.flags, table.facts = stock, [dict(f) for f in flags], dict(facts)
        table.calm = table._is_calm()
        return table

    @classmethod
    def of_state(cls, rules: FastRules, state: GameState) -> CountedTable | None:
        """The position of a state the moves returned (None: one this table cannot hold)."""
        if not rules.usable or state.step not in ("draw", "discard", "call"):
            return None
        if (
            state.table
            or state.taken
            or state.melds_this_turn
            or state.params
            or state.loose
            or state.last_lap
            or state.turn_start_table is not None
            or not TABLE_FACTS.issuperset(state.facts)
            or state.facts.get("claims")
            or not set(state.flags) <= set(state.players)
        ):
            return None
        table = cls(rules, tuple(state.players), state.path)
        for seat, wind in enumerate(state.players):
            own = dict(state.flags.get(wind, {}))
            if own.get("furiten") == "riichi" and not own.get("riichi"):
                return None  # an odd flag the lazy furiten would not keep as the moves do
            table.flags[seat] = own
            if own.get("riichi"):
                table.in_riichi.append(seat)
            try:
                hand = rules.moves.hand(state, wind)
            except (MeldsError, KeyError):
                return None
            faces, room = table.faces[seat], table.room[seat]
            for f in hand.concealed:
                faces[f.index] += 1
            if rules.over_copies(faces):  # more copies than the set has: the moves' own to judge
                return None
            table.melds[seat] = hand.melds
            for m in hand.melds:
                for f in m.faces:
                    room[f.index] -= 1
        if not table._read_facts(state):
            return None
        return table

    def _read_facts(self, state: GameState) -> bool:
        """The state's facts, rivers, turn and step (False: a position this table cannot hold)."""
        facts = dict(state.facts)
        rivers = facts.pop("rivers", None) or {}
        for wind, river in rivers.items():
            if wind not in state.players:
                return False
            text = " ".join(river) if isinstance(river, list) else str(river)
            self.rivers[state.players.index(wind)] = text.split()
        self.facts = facts
        self.turn = state.players.index(state.turn)
        self.step, self.stock, self.discards = state.step, state.stock, list(state.discards)
        if state.discarded_by is not None:
            if state.discarded_by not in state.players:
                return False
            self.by = state.players.index(state.discarded_by)
            if state.step == "call":  # its own discard, the first tile let go by, is not one it lets go by
                self.since[self.by] = 1
        self.calm = self._is_calm()
        return True

    def _is_calm(self) -> bool:
        facts = self.facts
        return facts.get("first_go_around") is False and not facts.get("kans") and "rinshan" not in facts

    def _in_hand(self, seat: int, i: int) -> int | None:
        """The face a tile of this text takes from the hand: itself, else the one other face of
        its identity (a red five for a five) — the moves' choice; None when neither is held, or
        the identity has faces enough that the choice would depend on the hand's order."""
        held = self.faces[seat]
        if held[i]:
            return i
        others = self.rules.others[i]
        if len(others) == 1 and held[others[0]]:
            return others[0]
        return None

    # -- the state ------------------------------------------------------------------------------

    def state(self) -> GameState:
        """The position as the moves' state (furiten let go by weighed now)."""
        rules, winds = self.rules, self.players
        for seat in range(self.n):
            self._weigh_missed(seat)
        facts = dict(self.facts)
        rivers = {winds[s]: " ".join(r) for s, r in enumerate(self.rivers) if r is not None}
        if rivers:
            facts["rivers"] = rivers
        hands, known = {}, rules.moves.known_hand
        for s in range(self.n):
            hands[winds[s]] = known(*rules.hand_of(self.faces[s], self.melds[s]))
        return rules.blank.but(
            players=winds,
            turn=winds[self.turn],
            step=self.step,
            hands=hands,
            discards=tuple(self.discards),
            stock=self.stock,
            flags={winds[s]: dict(f) for s, f in enumerate(self.flags)},
            discarded_by=None if self.by is None else winds[self.by],
            facts=facts,
            path=self.path,
        )

    def _weigh_missed(self, seat: int) -> None:
        """Tiles a seat not in riichi let go by, weighed against its hand as it was then: a winning
        one leaves it furiten until its next discard."""
        own, passed = self.flags[seat], self.passed
        before = self.before[seat]
        if before is None:
            kinds, declared, start, stop = None, len(self.melds[seat]), self.since[seat], len(passed)
        else:
            kinds, declared, start, stop = before
        if start < stop and not own.get("furiten") and not own.get("riichi"):
            if kinds is None:
                kinds = self.rules.kinds_of(self.faces[seat])
                if seat == self.turn and self.drew is not None:  # the hand before its draw
                    kinds[self.drew] -= 1
            waits = self.rules.waits(kinds, declared)
            if any(m in waits for m in passed[start:stop]):
                own["furiten"] = "temporary"
                self.plain[seat] = False
        # weighed: a window starts anew (after the seat's own discard, when that is yet to be let go by)
        self.since[seat], self.before[seat] = max(self.since[seat], len(passed)), None

    def _let_go(self, ident: int, skip: int, skip_too: int) -> None:
        """A tile let go by every seat but ``skip`` and ``skip_too``: a seat in riichi waiting on it
        is furiten for good; any other is weighed later (:meth:`_weigh_missed`)."""
        self.passed.append(ident)
        if self.in_riichi:
            self._riichi_let_go(ident, skip, skip_too)

    def _riichi_let_go(self, ident: int, skip: int, skip_too: int) -> None:
        for seat in self.in_riichi:
            if seat in (skip, skip_too):
                continue
            own = self.flags[seat]
            if own.get("furiten") != "riichi":
                waits = self.riichi_waits[seat]
                if waits is None:
                    kinds = self.rules.kinds_of(self.faces[seat])
                    waits = self.riichi_waits[seat] = self.rules.waits(kinds, len(self.melds[seat]))
                if ident in waits:
                    own["furiten"] = "riichi"

    def _hand_changes(self, seat: int) -> None:
        """The seat calls: the tiles it let go by are kept with its hand as it was."""
        stop = len(self.passed)
        if self.since[seat] < stop and self.before[seat] is None:
            self.before[seat] = (self.rules.kinds_of(self.faces[seat]), len(self.melds[seat]), self.since[seat], stop)

    # -- the actions ----------------------------------------------------------------------------

    def take(self, seat: int, verb: str, tile: str | None, own: tuple[str, ...] = ()) -> bool:
        """Take one action of seat ``seat`` (True), or decline it, the table unchanged (False)."""
        if verb == "draw":
            return self.draw(seat, tile)
        if verb == "discard":
            return self.discard(seat, tile)
        if verb == "riichi":
            return self.riichi(seat, tile)
        if verb in ("chi", "pon"):
            return self.call(seat, verb, own)
        return False

    def draw(self, seat: int, text: str | None) -> bool:
        if self.step != "draw":
            return False
        return self.run([Move(seat, "draw", text)], 0, 0) == 1

    def discard(self, seat: int, text: str | None) -> bool:
        if self.step != "discard":
            return False
        return self.run([Move(seat, "discard", text)], 0, 0) == 1

    def run(self, moves: list[Move], k: int, dealer: int) -> int:
        """The record's draws and discards from ``moves[k]`` on — with the pass between a discard
        and the next draw — taken one after the other while the table takes them (most of a
        hand); the index of the first move left to :meth:`take` or to the moves. ``dealer``: the
        record's seat that is the table's 0."""
        rules = self.rules
        if not (rules.draws and rules.discards):
            return k
        known, identity, texts = rules.known, rules.identity, rules.texts
        n, facts, plain = self.n, self.facts, self.plain
        faces, room, since, before = self.faces, self.room, self.since, self.before
        discards, rivers, passed = self.discards, self.rivers, self.passed
        seats = [(absolute - dealer) % n for absolute in range(n)]  # the record's seat -> the table's
        for k, (absolute, verb, text, _, _, _) in enumerate(moves[k:], k):  # noqa: B020 - k: where it stops
            seat, i = seats[absolute], known.get(text)
            if i is None:
                i = rules.face(text)
                if i is None:
                    return k
            if verb == "draw":
                if self.step != "draw" and not (self.step == "call" and self.pass_()):
                    return k
                hand = faces[seat]
                if seat != self.turn or self.stock <= 0 or hand[i] >= room[seat][i]:
                    return k
                hand[i] += 1
                self.drew = identity[i]
                self.stock -= 1
                self.step = "discard"
                facts["drawn"] = texts[i]
            elif verb == "discard":
                if self.step != "discard" or seat != self.turn:
                    return k
                hand = faces[seat]
                j = i if hand[i] else self._in_hand(seat, i)
                if j is None:
                    return k
                if self.calm and plain[seat]:  # the common discard: counts, rivers and the turn
                    hand[j] -= 1
                    discards.append(text)  # type: ignore[arg-type]  # a tile's text: read as a tile above
                    rivers[seat].append(text)  # type: ignore[union-attr, arg-type]  # a plain seat has a river
                    facts.pop("drawn", None)
                    since[seat] = len(passed) + 1  # its own discard, passed or called next, is not let go by
                    before[seat] = self.drew = None
                    self.step = "call"
                    self.by = self.turn = seat
                elif not self._flagged_discard(seat, j, text):  # type: ignore[arg-type]  # a tile's text
                    return k
            else:
                return k
        return len(moves)

    def _flagged_discard(self, seat: int, j: int, text: str) -> bool:
        """A discard that may change its seat's flags or the table's facts, or that a rule of few
        concerns (喰い替え, riichi, a discard that would end the hand)."""
        own, facts = self.flags[seat], self.facts
        rare = own.get("called") or own.get("riichi") or facts.get("kans") or facts.get("first_go_around")
        if rare and not self._may_discard(own, self.rules.identity[j]):
            return False
        self._discarded(seat, j, text)
        self.plain[seat] = not own.get("riichi")
        return True

    def _may_discard(self, own: dict, ident: int) -> bool:
        """The checks of a discard that concern few: 喰い替え after a chi, the draw discarded in
        riichi, a discard that would end the hand."""
        rules, called = self.rules, own.get("called")
        if called and rules.kuikae and isinstance(called, str) and called.startswith("chi "):  # 喰い替え
            c = rules.face(called.split()[1]) if len(called.split()) > 1 else None
            if c is None or rules.identity[c] == ident:
                return False
        if rules.riichi_draws and own.get("riichi"):  # a hand in riichi discards its draw
            drawn = rules.face(self.facts.get("drawn"))
            if drawn is None or rules.identity[drawn] != ident:
                return False
        return self._ends_nothing(ident)

    def riichi(self, seat: int, text: str | None) -> bool:
        rules, own = self.rules, self.flags[seat]
        if self.step != "discard" or seat != self.turn or "riichi" not in rules.verbs or own.get("riichi"):
            return False
        if any(m.open for m in self.melds[seat]):
            return False
        i = rules.face(text)
        j = None if i is None else self._in_hand(seat, i)
        if j is None:
            return False
        ident, kinds = rules.identity[j], rules.kinds_of(self.faces[seat])
        kinds[ident] -= 1
        waits = rules.waits(kinds, len(self.melds[seat]))
        points = own.get("points")
        known = isinstance(points, int) and not isinstance(points, bool)
        short = known and int(points) < rules.stick  # type: ignore[arg-type]  # an int when known
        if not waits or (rules.riichi_points and short) or not self._ends_nothing(ident):
            return False
        first = bool(self.facts.get("first_go_around")) and not own.get("had_turn")
        self._discarded(seat, j, text)  # type: ignore[arg-type]  # text read as a tile above
        own["riichi"] = own["ippatsu"] = True
        if first:  # ダブル立直
            own["double_riichi"] = True
        if known:
            own["points"] = int(points) - rules.stick  # type: ignore[arg-type]  # an int when known
        self.riichi_waits[seat] = waits
        self.in_riichi.append(seat)
        self.plain[seat] = False
        return True

    def _ends_nothing(self, ident: int) -> bool:
        """Does a discard of this identity leave the hand going (no 四風連打, no 四開槓 pending)?"""
        facts, rules = self.facts, self.rules
        kans = facts.get("kans") or {}
        try:
            if sum(kans.values()) >= 4 and len([s for s, n in kans.items() if n]) > 1:
                return False
        except (TypeError, AttributeError):
            return False
        if facts.get("first_go_around") and len(self.discards) + 1 == self.n == 4:
            seen = {rules.face(t) for t in self.discards}
            if None in seen:
                return False
            kinds = {rules.identity[i] for i in seen if i is not None} | {ident}
            if len(kinds) == 1 and kinds <= rules.winds:
                return False
        return True

    def _discarded(self, seat: int, j: int, text: str) -> None:
        self.faces[seat][j] -= 1
        discards = self.discards
        discards.append(text)
        river = self.rivers[seat]
        if river is None:
            self.rivers[seat] = [text]
        else:
            river.append(text)
        facts = self.facts
        facts.pop("drawn", None)
        if "rinshan" in facts:
            del facts["rinshan"]
        own = self.flags[seat]
        own["called"] = False
        own["had_turn"] = True
        if own.get("furiten") == "temporary":  # until one's own discard
            own["furiten"] = False
        if own.get("ippatsu"):
            own["ippatsu"] = False
        self.since[seat] = len(self.passed) + 1  # its own discard, passed or called next, is not let go by
        self.before[seat] = self.drew = None
        self.step = "call"
        self.by = self.turn = seat
        first = facts.get("first_go_around")
        if first is not False:  # False once the first go-around is over, for the rest of the hand
            facts["first_go_around"] = bool(first) and len(discards) < self.n
        self.calm = self._is_calm()

    def call(self, seat: int, kind: str, own: tuple[str, ...]) -> bool:
        """Chi or pon on the discard on the table, with these tiles from the hand."""
        rules, by = self.rules, self.by
        if self.step != "call" or by is None or seat == by or kind not in rules.verbs or not own or not self.discards:
            return False
        if rules.riichi_no_call and self.flags[seat].get("riichi"):
            return False
        if kind == "chi" and rules.chi_from_left and seat != (by + 1) % self.n:
            return False
        top = rules.face(self.discards[-1])
        found = [rules.face(t) for t in own]
        named = [i for i in found if i is not None]
        if top is None or len(named) != len(found):
            return False
        meld = rules.meld(kind, named, top)
        matched = self._matched(seat, named)
        if meld is None or matched is None:
            return False
        self._hand_changes(seat)
        self.drew = None
        faces, room = self.faces[seat], self.room[seat]
        for j in matched:
            faces[j] -= 1
        for i in (*named, top):
            room[i] -= 1
        self.melds[seat] = self.melds[seat] + (meld,)
        called = self.discards.pop()
        self.turn, self.step = seat, "discard"
        self.facts["first_go_around"] = False
        self.facts["claims"] = {}
        self.calm = self._is_calm()
        self.flags[seat]["called"] = f"{kind} {called}"
        self.plain[seat] = False
        self._let_go(rules.identity[top], seat, by)
        self.since[seat] = len(self.passed)
        for flags in self.flags:
            if flags.get("ippatsu"):
                flags["ippatsu"] = False
        return True

    def _matched(self, seat: int, named: list[int]) -> list[int] | None:
        """The faces the hand gives up for the named tiles, one by one as the moves take them."""
        held, out = self.faces[seat], []
        for i in named:
            j = self._in_hand(seat, i)
            if j is None:
                break
            held[j] -= 1
            out.append(j)
        for j in out:
            held[j] += 1
        return out if len(out) == len(named) else None

    def pass_(self) -> bool:
        """Nobody calls the discard on the table: the next seat draws."""
        rules, by, discards = self.rules, self.by, self.discards
        if self.step != "call" or by is None or not rules.passes or not discards:
            return False
        top = rules.known.get(discards[-1])
        if top is None:
            top = rules.face(discards[-1])
            if top is None:
                return False
        ident = rules.identity[top]
        self.passed.append(ident)
        if self.in_riichi:
            self._riichi_let_go(ident, by, by)
        self.turn = (by + 1) % self.n
        self.step = "draw"
        facts = self.facts
        if "claims" not in facts:  # the table's claims are none or none declared: {}
            facts["claims"] = {}
        return True


__all__ = ["CountedTable", "FastRules", "KNOWN_CHECKS", "fast_rules"]
