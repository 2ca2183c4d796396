"""A turn's question and its answer: the problem (a hand, the table, the turn it is played in),
the plays an answer makes, and the checks that a problem can be played from at all.

Every turn solver (:mod:`solver.melding.turn.solver`, the table turn, a game's own) reads a
:class:`Problem` and gives an :class:`Answer`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

from solver.core.deck import Face
from solver.core.errors import MeldsError
from solver.core.rules import TurnRule
from solver.core.ruleset import Ruleset
from solver.melding.meld.checker import MeldChecker
from solver.melding.meld.encode import Reading
from solver.melding.meld.phase import check_phase
from solver.melding.table.operations import TableMeld


@dataclass(frozen=True)
class Problem:
    """A hand and the turn it is played in."""

    ruleset: Ruleset
    hand: tuple[Face, ...]
    table: tuple[TableMeld, ...] = ()
    turn: str = "normal"  # normal | claimed (a discard was claimed: it is in the hand)
    claimed: Face | None = None
    has_melded: bool = False  # the player has a meld of their own on the table already
    phase: str | None = None
    params: Mapping[str, Any] | None = None  # query parameters (a chosen card that makes wilds)
    shown: tuple = ()  # the player's melds already on the table (face tuples), for routes
    at_rest: bool = False  # the hand is counted as it stands: melds and lay-offs, no discard

    def turn_rule(self) -> TurnRule:
        """The rule of this turn: the ruleset's for its kind and hand size; a hand at rest
        discards nothing."""
        rule = self.ruleset.turn_rule(self.turn, len(self.hand))
        return replace(rule, discard="none") if self.at_rest else rule

    @cached_property
    def hand_mask(self) -> int:
        """The hand's faces as bits (face index): a key of a hand of single copies."""
        mask = 0
        for face in self.hand:
            mask |= 1 << face.index
        return mask

    def card_points(self, face: Face) -> int:
        """A card's points (deadwood, penalty) under the chosen cards the problem names."""
        return self.ruleset.points(face, self.params)


@dataclass(frozen=True)
class Play:
    """A meld made, or an extension laid off onto table meld ``table``."""

    faces: tuple[Face, ...]  # the hand cards played
    reading: Reading  # the whole meld's reading (table cards included for a lay-off)
    points: int
    table: int | None = None


@dataclass
class Answer:
    solvable: bool | None  # None: undecided within the budget
    question: str
    plays: list[Play] = field(default_factory=list)
    discard: Face | None = None
    kept: list[Face] = field(default_factory=list)
    score: dict = field(default_factory=dict)
    why: dict | None = None
    solutions: int | None = None
    solutions_capped: bool = False
    seconds: float = 0.0
    sat_calls: int = 0
    steps: list = field(default_factory=list)  # table turns: every play in order
    phase_after: str | None = None  # the field phase after the discard
    counted: bool = True  # False when --all cannot count (turns with table operations)
    route: str | None = None  # the going-out route taken (when the game has several)
    routes_open: dict[str, bool | None] = field(default_factory=dict)  # each route asked: does it go out?
    found: list = field(default_factory=list)  # a question over many queries: the cards that answered yes
    partial: bool = False  # undecided, but the best turn found within the budget is shown
    bound: dict | None = None  # with partial: the first objective's value found and the best possible
    phase_needed: str | None = None  # the field phase the turn's phase-bound melds need
    limit: str | None = None  # undecided: the limit that ran out ("time", "memory" or "layouts")
    solutions_at_least: int | None = None  # undecided while counting: the ways found before it stopped
    search: dict[str, Any] | None = None  # table turns: the bounds of the search the answer is the best within

    @property
    def melds(self) -> list[Play]:
        return [p for p in self.plays if p.table is None]

    @property
    def layoffs(self) -> list[Play]:
        return [p for p in self.plays if p.table is not None]


def validate_problem(p: Problem, checker: MeldChecker, claim_met: bool = False) -> None:
    """Input a turn cannot be played from: an error that says what is wrong."""
    notation = checker.notation
    if not p.hand:
        raise MeldsError("the hand is empty")
    largest = p.ruleset.largest_hand
    if largest is not None and len(p.hand) > largest[0]:
        most, dealt = largest
        line = dealt.source.line if dealt.source is not None and dealt.source.line else dealt.line
        where = f" ({Path(p.ruleset.path).name}:{line}: deal.hand_size)" if line else ""
        draws = most - dealt.cards
        raise MeldsError(
            f"a hand of {len(p.hand)} cards: {p.ruleset.id} deals at most {dealt.cards} cards a player{where} "
            f"and a turn draws {'one' if draws == 1 else draws} (deal.draws; pile: a turn may take the whole "
            f"discard pile), so a hand holds at most {most}"
        )
    notation.check_copies(list(p.hand) + [f for t in p.table for f in t.all_cards] if p.table else p.hand)
    if p.turn == "claimed" and not claim_met:
        if p.claimed is None:
            raise MeldsError("a claimed turn needs the claimed card")
        if p.claimed not in p.hand:
            raise MeldsError(f"the claimed card {notation.format(p.claimed)} is not in the hand")
    check_phase(p.ruleset, p.phase)
    for i, t in enumerate(p.table):
        verdict = checker.check(t.faces, ordered=True, explain=False)
        if not verdict.legal:
            raise MeldsError(
                f"table meld {i + 1} ({notation.format_many(t.faces)}) is not a "
                f"legal meld: {verdict.reasons[0].message}"
            )
        buried = [b for b in t.buried if b is not None]
        roles = {r.id for r in p.ruleset.roles.values() if r.wild}
        if buried and not all(
            any(c in r.classes for r in p.ruleset.roles.values() if r.id in roles) for c in (b.cls for b in buried)
        ):
            raise MeldsError(f"table meld {i + 1}: only a wild card can be buried")
