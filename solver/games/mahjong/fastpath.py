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
from weakref import WeakKeyDictionary

from solver.core.errors import MeldsError
from solver.core.state import GameState
from solver.games.mahjong.hands import Hand
from solver.games.mahjong.record import Move
from solver.games.mahjong.tiles import DeclaredMeld

SEATS = "ESWN"
# the checks whose conditions this module weighs before taking an action (the others concern only
# verbs it declines: kyuushu, ron, kans)
KNOWN_CHECKS = frozenset(
    {
        "call-priority",
        "chi-from-left",
        "kuikae-chi-genbutsu",
        "riichi-points",
        "kyuushu-kinds",
        "furiten",
        "furiten-thirteen-sided",
        "chankan-closed-kan",
        "riichi-no-call",
        "riichi-discards-the-draw",
    }
)
TABLE_FACTS = frozenset({"round", "first_go_around", "kans", "claims", "rivers", "drawn", "rinshan"})
VERBS = ("draw", "discard", "riichi", "chi", "pon", "pass")
_RULES: WeakKeyDictionary = WeakKeyDictionary()  # the moves -> their FastRules


class FastRules:
    """What the counted table needs of a compiled ruleset, built once: faces, copies, identities,
    the checks in force and the verbs the ruleset has."""

    def __init__(self, moves: Any):
        mj, rs = moves.mj, moves.rs
        self.moves, self.mj, self.ruleset = moves, mj, rs
        checks = {c.name for c in rs.moves.checks}
        scoring = rs.rules.mahjong_scoring
        self.usable = checks <= KNOWN_CHECKS and scoring is not None
        self.kuikae = "kuikae-chi-genbutsu" in checks
        self.chi_from_left = "chi-from-left" in checks
        self.riichi_points = "riichi-points" in checks
        self.riichi_no_call = "riichi-no-call" in checks
        self.riichi_draws = "riichi-discards-the-draw" in checks
        self.verbs = frozenset(v for v in VERBS if v in rs.moves.actions)
        self.stick = scoring.riichi_stick if scoring is not None else 0
        faces = rs.deck.faces
        self.faces = faces
        self.copies = [rs.deck.copies.get(f, 0) for f in faces]
        self.identity = list(mj.identity_of_face)  # face index -> identity index
        self.others = [
            tuple(g.index for g in faces if g.index != f.index and self.identity[g.index] == self.identity[f.index])
            for f in faces
        ]
        self.printed = sorted(range(len(faces)), key=lambda i: (mj.identity_of_face[i], i))
        self.texts = [mj.format_tiles((f,)) for f in faces]
        self.tenpai_size = mj.winning_size - 1
        winds = [mj.index.get(mj.identity(f)) for f in (self._parse(w) for w in ("1z", "2z", "3z", "4z")) if f]
        self.winds = frozenset(w for w in winds if w is not None)
        self._faces: dict[str, int | None] = {}
        self.known: dict[str | None, int] = {}  # each face's own text -> its index (the tiles of most actions)
        for text in self.texts:
            found = self.face(text)
            if found is not None:
                self.known[text] = found
        self.draws, self.discards, self.passes = "draw" in self.verbs, "discard" in self.verbs, "pass" in self.verbs
        self._melds: dict[tuple, DeclaredMeld | None] = {}  # (kind, faces named, face called) -> the meld

    @classmethod
    def of(cls, moves: Any) -> FastRules:
        found = _RULES.get(moves)
        if found is None:
            found = _RULES[moves] = cls(moves)
        return found

    def _parse(self, text: str):
        try:
            faces = self.mj.parse_tiles(text)
        except MeldsError:
            return None
        return faces[0] if len(faces) == 1 else None

    def face(self, text: str | None) -> int | None:
        """The face index of one tile's text (None: not one tile of the set)."""
        if text is None:
            return None
        found = self._faces.get(text, -1)
        if found == -1:
            face = self._parse(text)
            found = self._faces[text] = face.index if face is not None else None
        return found

    def meld(self, kind: str, named: list[int], top: int) -> DeclaredMeld | None:
        """The declared meld of the named faces and the one called, when the ruleset makes it a
        ``kind`` (each read once: a meld is immutable)."""
        key = (kind, *named, top)
        if key in self._melds:
            return self._melds[key]
        faces, mj = self.faces, self.mj
        try:
            meld = mj.parse_hand(f"[{mj.format_tiles([faces[i] for i in named] + [faces[top]])}]").melds[0]
        except (MeldsError, IndexError):
            meld = None
        found = self._melds[key] = meld if meld is not None and meld.kind == kind else None
        return found

    def waits(self, counts, declared: int) -> frozenset[int]:
        """The identities completing a hand of these identity counts, when it is one tile short."""
        if sum(counts) + 3 * declared != self.tenpai_size:
            return frozenset()
        return frozenset(self.mj.waits_counts(counts, declared))


class CountedTable:
    """A hand's position as counts (seats are indices into ``players``: 0 the dealer)."""

    def __init__(self, rules: FastRules, players: tuple[str, ...], path: str):
        n, width, kinds = len(players), len(rules.faces), len(rules.mj.identities)
        self.rules, self.players, self.path, self.n = rules, players, path, n
        self.turn, self.step, self.stock = 0, "draw", 0
        self.by: int | None = None  # the seat of the discard on the table
        self.discards: list[str] = []
        self.faces = [[0] * width for _ in range(n)]  # concealed tiles by face
        self.kinds = [[0] * kinds for _ in range(n)]  # concealed tiles by identity
        self.held = [[0] * width for _ in range(n)]  # concealed and declared tiles by face
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
        known, identity = rules.known, rules.identity
        for seat, tiles in enumerate(deal):
            if len(tiles) > rules.tenpai_size + 1:
                return None
            faces, kinds = table.faces[seat], table.kinds[seat]
            for text in tiles:
                i = known.get(text)
                if i is None:
                    i = rules.face(text)
                    if i is None:
                        return None
                faces[i] += 1
                kinds[identity[i]] += 1
            table.held[seat] = faces.copy()  # nothing declared yet
        if any(n > c for n, c in zip(map(sum, zip(*table.faces, strict=True)), rules.copies, strict=True)):
            return None
        table.stock, table.flags, table.facts = stock, [dict(f) for f in flags], dict(facts)
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
            for f in hand.concealed:
                table._add(seat, f.index)
            table.melds[seat] = hand.melds
            for m in hand.melds:
                for f in m.faces:
                    table.held[seat][f.index] += 1
        facts = dict(state.facts)
        rivers = facts.pop("rivers", None) or {}
        for wind, river in rivers.items():
            if wind not in state.players:
                return None
            table.rivers[state.players.index(wind)] = (
                " ".join(river) if isinstance(river, list) else str(river)
            ).split()
        table.facts = facts
        table.turn = state.players.index(state.turn)
        table.step, table.stock, table.discards = state.step, state.stock, list(state.discards)
        if state.discarded_by is not None:
            if state.discarded_by not in state.players:
                return None
            table.by = state.players.index(state.discarded_by)
            if state.step == "call":  # its own discard, the first tile let go by, is not one it lets go by
                table.since[table.by] = 1
        return table

    def _add(self, seat: int, i: int) -> None:
        self.faces[seat][i] += 1
        self.kinds[seat][self.rules.identity[i]] += 1
        self.held[seat][i] += 1

    def _take(self, seat: int, i: int) -> None:
        self.faces[seat][i] -= 1
        self.kinds[seat][self.rules.identity[i]] -= 1
        self.held[seat][i] -= 1

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
        return GameState(
            rules.ruleset,
            winds,
            winds[self.turn],
            self.step,
            {winds[s]: self._hand_text(s) for s in range(self.n)},
            discards=tuple(self.discards),
            stock=self.stock,
            flags={winds[s]: dict(f) for s, f in enumerate(self.flags)},
            discarded_by=None if self.by is None else winds[self.by],
            facts=facts,
            path=self.path,
        )

    def _hand_text(self, seat: int) -> str:
        faces, held = self.rules.faces, self.faces[seat]
        concealed = tuple(faces[i] for i in self.rules.printed if held[i] for _ in range(held[i]))
        return self.rules.moves.text(Hand(concealed, self.melds[seat]))

    def hand(self, seat: int) -> Hand:
        """A seat's hand (its concealed tiles in printed order)."""
        return self.rules.moves.hand(self.state(), self.players[seat])

    def _weigh_missed(self, seat: int) -> None:
        """Tiles a seat not in riichi let go by, weighed against its hand as it was then: a winning
        one leaves it furiten until its next discard."""
        own, passed = self.flags[seat], self.passed
        before = self.before[seat]
        if before is None:
            kinds, declared, start, stop = self.kinds[seat], len(self.melds[seat]), self.since[seat], len(passed)
            if seat == self.turn and self.drew is not None and start < stop:  # the hand before its draw
                kinds = list(kinds)
                kinds[self.drew] -= 1
        else:
            kinds, declared, start, stop = before
        if start < stop and not own.get("furiten") and not own.get("riichi"):
            waits = self.rules.waits(kinds, declared)
            if any(m in waits for m in passed[start:stop]):
                own["furiten"] = "temporary"
        # weighed: a window starts anew (after the seat's own discard, when that is yet to be let go by)
        self.since[seat], self.before[seat] = max(self.since[seat], len(passed)), None

    def _let_go(self, ident: int, skip: int, skip_too: int) -> None:
        """A tile let go by every seat but ``skip`` and ``skip_too``: a seat in riichi waiting on it
        is furiten for good; any other is weighed later (:meth:`_weigh_missed`)."""
        self.passed.append(ident)
        for seat in self.in_riichi:
            if seat in (skip, skip_too):
                continue
            own = self.flags[seat]
            if own.get("furiten") != "riichi":
                waits = self.riichi_waits[seat]
                if waits is None:
                    waits = self.riichi_waits[seat] = self.rules.waits(self.kinds[seat], len(self.melds[seat]))
                if ident in waits:
                    own["furiten"] = "riichi"

    def _hand_changes(self, seat: int) -> None:
        """The seat calls: the tiles it let go by are kept with its hand as it was."""
        stop = len(self.passed)
        if self.since[seat] < stop and self.before[seat] is None:
            self.before[seat] = (tuple(self.kinds[seat]), len(self.melds[seat]), self.since[seat], stop)

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
        return self.run([Move(seat, "draw", text)], 0, 0, {}) == 1

    def run(self, moves: list[Move], k: int, dealer: int, rivers: dict[int, list]) -> int:
        """The record's draws and discards from ``moves[k]`` on — with the pass between a discard
        and the next draw — taken one after the other while the table takes them (most of a
        hand); the index of the first move left to :meth:`take` or to the moves. ``dealer``: the
        record's seat that is the table's 0; each discard is added to ``rivers`` under the
        record's seat."""
        rules = self.rules
        if not (rules.draws and rules.discards):
            return k
        known, copies, identity, texts = rules.known, rules.copies, rules.identity, rules.texts
        n, end, facts, flags, pass_ = self.n, len(moves), self.facts, self.flags, self.pass_
        while k < end:
            absolute, verb, text, _, _, _ = moves[k]
            seat, i = (absolute - dealer) % n, known.get(text)
            if i is None:
                i = rules.face(text)
                if i is None:
                    return k
            if verb == "draw":
                if self.step == "call" and not pass_():
                    return k
                if self.step != "draw" or seat != self.turn or self.stock <= 0:
                    return k
                held = self.held[seat]
                if held[i] >= copies[i]:
                    return k
                ident = self.drew = identity[i]
                held[i] += 1
                self.faces[seat][i] += 1
                self.kinds[seat][ident] += 1
                self.stock -= 1
                self.step = "discard"
                facts["drawn"] = texts[i]
            elif verb == "discard":
                if self.step != "discard" or seat != self.turn:
                    return k
                j = i if self.faces[seat][i] else self._in_hand(seat, i)
                if j is None:
                    return k
                own = flags[seat]
                rare = own.get("called") or own.get("riichi") or facts.get("kans") or facts.get("first_go_around")
                if rare and not self._may_discard(own, identity[j]):
                    return k
                self._discarded(seat, j, text)  # type: ignore[arg-type]  # text read as a tile above
                river = rivers.get(absolute)
                if river is None:
                    rivers[absolute] = [text]
                else:
                    river.append(text)
            else:
                return k
            k += 1
        return k

    def discard(self, seat: int, text: str | None) -> bool:
        if self.step != "discard":
            return False
        return self.run([Move(seat, "discard", text)], 0, 0, {}) == 1

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
        ident, kinds = rules.identity[j], self.kinds[seat]
        kinds[ident] -= 1
        waits = rules.waits(kinds, len(self.melds[seat]))
        kinds[ident] += 1
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
        self.kinds[seat][self.rules.identity[j]] -= 1
        self.held[seat][j] -= 1
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
        held = self.held[seat]
        for j in matched:
            self._take(seat, j)
        for i in named:
            held[i] += 1
        held[top] += 1
        self.melds[seat] = self.melds[seat] + (meld,)
        called = self.discards.pop()
        self.turn, self.step = seat, "discard"
        self.facts["first_go_around"] = False
        self.facts["claims"] = {}
        self.flags[seat]["called"] = f"{kind} {called}"
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
        rules, by = self.rules, self.by
        if self.step != "call" or by is None or not rules.passes or not self.discards:
            return False
        text = self.discards[-1]
        top = rules.known.get(text)
        if top is None:
            top = rules.face(text)
            if top is None:
                return False
        self._let_go(rules.identity[top], by, by)
        self.turn = (by + 1) % self.n
        self.step = "draw"
        self.facts["claims"] = {}
        return True


def fast_rules(moves: Any) -> FastRules | None:
    """The counted table's rules for these moves (None: the ruleset has a check it does not know)."""
    rules = FastRules.of(moves)
    return rules if rules.usable else None


__all__ = ["CountedTable", "FastRules", "KNOWN_CHECKS", "fast_rules"]
