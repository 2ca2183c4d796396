"""Is this action legal now? The framework every game's turn rules are written in.

An action is a short command (``draw stock``, ``meld S9 S10 SJ``, ``discard C7``; ``S: pon`` for a
player acting out of turn). The rules are data: each ruleset's ``moves:`` section names its
actions with their sources and lists the *checks* that restrict them, each with its quote and an
``if:`` on the options. A game's :class:`Moves` subclass holds one method per verb (which judges
the structural facts — the card is in the hand, the meld is legal — and applies the action) and
one small function per check it knows.

A judgement lists every reason that forbids the action, and the state after it when legal.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from solver.core.errors import MeldsError, Undecided
from solver.core.rules import MoveRules
from solver.core.ruleset import Ruleset
from solver.core.source import Source, source_json
from solver.core.state import GameState

UNKNOWN = "?"  # a card or tile nobody at the table has shown (drawn from the stock)
PARSED_LIMIT = 1 << 14  # actions' texts a game's moves keep parsed before starting afresh


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
    reasons: list[dict[str, Any]] = field(default_factory=list)
    state: GameState | None = None
    state_data: dict[str, Any] | None = None  # the state after, as JSON (the game's moves write it)
    state_lines: list[str] = field(default_factory=list)  # the state after, as text lines

    def to_json(self) -> dict[str, Any]:
        return {"legal": self.legal, "action": self.action, "reasons": self.reasons, "state": self.state_data}


class Forbidden(Exception):
    """An action breaks a rule: its reason code, message and source."""

    def __init__(self, code: str, message: str, source: Source | None = None):
        super().__init__(message)
        self.reason = {"code": code, "message": message, "source": source_json(source)}


Check = Callable[[Any, GameState, Action], "str | None"]


@dataclass(frozen=True)
class Listing:
    """The legal actions of a state (``melds moves``); ``undecided``: the budget ran out before
    every candidate was judged, so more may be legal."""

    actions: list[str]
    undecided: Undecided | None = None

    @property
    def complete(self) -> bool:
        return self.undecided is None


class Moves:
    """The actions of one game. Subclasses give ``VERBS`` (verb -> name of the method that judges
    and applies it) and ``CHECKS`` (check name -> function of (moves, state, action) returning a
    message when the check forbids the action), and list the candidate actions of a state."""

    VERBS: dict[str, str] = {}
    CHECKS: dict[str, Check] = {}

    def __init__(self, ruleset: Ruleset):
        if ruleset.moves is None:
            raise MeldsError(f"{ruleset.id} has no moves: section; melds move does not know its turn rules yet")
        self.rs = ruleset
        self.move_rules: MoveRules = ruleset.moves
        self._parsed: dict[str, Action] = {}  # an action's text -> the action: a replay's actions recur
        for check in ruleset.moves.checks:
            if check.name not in self.CHECKS:
                raise MeldsError(
                    f"{ruleset.path}: moves: unknown check {check.name!r} for this game "
                    f"(known: {', '.join(self.CHECKS)})"
                )

    def source(self, action_id: str) -> Source | None:
        return self.move_rules.actions.get(action_id)

    def judge(self, state: GameState, text: str, describe: bool = True) -> Judgement:
        """Is the action legal in the state? Every reason against it, or the state after it (with
        its JSON and text when ``describe``: a replay of many actions needs only the state)."""
        action = self._parsed.get(text)
        if action is None:
            if len(self._parsed) >= PARSED_LIMIT:
                self._parsed.clear()
            action = self._parsed[text] = parse_action(text)
        if action.verb not in self.VERBS:
            raise MeldsError(f"unknown action {action.verb!r} for {self.rs.id} (actions: {', '.join(self.VERBS)})")
        if state.step == "over":
            return Judgement(False, action.text, [{"code": "game-over", "message": "the game is over", "source": None}])
        if action.actor is not None and action.actor not in state.players:
            raise MeldsError(f"{action.actor!r} is not one of the players ({', '.join(state.players)})")
        action_id = self.action_id(action)
        if action_id not in self.move_rules.actions:
            raise MeldsError(
                f"{self.rs.id} has no action {action_id!r} (its actions: {', '.join(self.move_rules.actions)})"
            )
        reasons: list[dict[str, Any]] = []
        after: GameState | None = None
        try:
            after = getattr(self, self.VERBS[action.verb])(state, action)
        except Forbidden as exc:
            reasons.append(exc.reason)
        for check in self.move_rules.checks:  # the ruleset's restrictions, each with its quote
            message = self.CHECKS[check.name](self, state, action)
            if message:
                reasons.append({"code": check.name, "message": message, "source": source_json(check.source)})
        if reasons:
            return Judgement(False, action.text, reasons)
        assert after is not None  # the action's method either raised Forbidden or gave the state after
        if not describe:
            return Judgement(True, action.text, [], after)
        return Judgement(True, action.text, [], after, self.state_json(after), self.state_lines(after))

    def action_id(self, action: Action) -> str:
        """The ruleset's id of an action (``draw stock`` is draw-stock)."""
        if action.verb == "draw" and action.args[:1] in (("stock",), ("discard",)):
            return f"draw-{action.args[0]}"
        return action.verb

    def legal_actions(self, state: GameState) -> list[str]:
        """Every legal action of the state (no budget: see :meth:`listing`)."""
        return self.listing(state).actions

    def listing(self, state: GameState, check: Callable[[], None] = lambda: None) -> Listing:
        """The legal actions of the state, in the order the game lists its candidates, judged one
        by one; ``check`` (a query's budget) is called before each and raises
        :class:`Undecided` once the budget is spent. A hand of many wilds makes tens of thousands
        of melds, each judged by the checker, so a listing may be cut short: it then holds the
        actions judged legal before the budget ran out."""
        actions: list[str] = []
        try:
            for text in self.candidates(state):
                check()
                if (
                    self.action_id(parse_action(text)) in self.move_rules.actions
                    and self.judge(state, text, describe=False).legal
                ):
                    actions.append(text)
        except Undecided as exc:
            return Listing(actions, exc)
        return Listing(actions)

    def candidates(self, state: GameState) -> Iterable[str]:
        """The actions worth judging in the state, in the order they are listed (a game may make
        them lazily: a listing cut short by its budget stops asking for more)."""
        raise NotImplementedError

    # -- the state, shown -------------------------------------------------------------------------

    def state_json(self, state: GameState) -> dict[str, Any]:
        """A state as JSON (docs/state-format.md); a game adds the keys its states have."""
        return state.to_json()

    def state_file(self, state: GameState) -> dict[str, Any]:
        """A state as the data of a state file (which reloads to the same state)."""
        data = {"format": 1, **self.state_json(state)}
        if not data.get("options"):
            data.pop("options", None)
        return data

    def state_lines(self, state: GameState) -> list[str]:
        """A state as text lines, in the documents' notation."""
        lines = [
            f"  turn: {state.turn} ({state.step}); stock {state.stock}; discards {' '.join(state.discards) or '—'}"
        ]
        for p in state.players:
            hand = state.hands[p]
            shown = f"{hand} cards (hidden)" if isinstance(hand, int) else (hand or "—")
            flags = ", ".join(k for k, v in state.flags.get(p, {}).items() if v is True)
            lines.append(f"  {p}: {shown}" + (f"  [{flags}]" if flags else ""))
        for n, t in enumerate(state.table, 1):
            lines.append(f"  table {n} ({t.owner}): {t.cards}")
        return lines
