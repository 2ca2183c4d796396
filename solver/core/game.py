"""The Game protocol: everything melds asks of a game, and the map for adding the next one.

A *game* is a family of rule documents read the same way (plain rummy, a rummy with wild roles
and table operations, a game of tiles and hands, a game of words). Each is a package under
``solver/games/`` holding one class that implements :class:`Game` and is exported as ``GAME``;
a ruleset names its game with ``game:``, and :mod:`solver.core.registry` maps the name to the
class. Nothing outside a game's package
asks which game it holds: the command line, the puzzle runner and the audit talk to this
protocol only.

How a query flows::

    melds check -r RULESET CARDS          (solver/commands: parse the command line)
      -> load_ruleset(RULESET, options)   (solver/core: the YAML, validated, built once)
      -> load_game(ruleset)               (the registry: the game's class, compiled once)
      -> game.check(request)              (the game: its model, SAT through solver/sat)
      -> Result(data, code, text)         (solver/core/result)
      -> emit(result, as_json)            (solver/present: text or JSON, one way)

Adding a game: make ``solver/games/NAME/__init__.py`` export ``GAME``, a class with the members
below; give its rulesets ``game: NAME``. Its own ruleset sections are read by ``read_rules`` (and
described in the schema, rulesets/ruleset.schema.json); the command-line options it adds come
from ``options``. A game that is a rummy game at heart (melds of cards, turns that partition a
hand) can subclass :class:`solver.melding.game.MeldGame` and change only what differs. A game
kept outside the project registers itself with :func:`solver.core.registry.register`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

if TYPE_CHECKING:
    from solver.core.files import Document
    from solver.core.moves import Moves
    from solver.core.reader import RuleReader
    from solver.core.replay import GameLog, GameReport, LogFormat, Settlement
    from solver.core.result import PuzzleResult, Result
    from solver.core.ruleset import Ruleset
    from solver.core.state import GameState
    from solver.core.validate import Impossible

Request = Mapping[str, Any]
"""One question, as a JSON object: a line of ``--batch``, or the command line's arguments and
options gathered into one (the options' names with ``_`` for ``-``: ``--has-melded`` is
``has_melded``; positional cards are ``cards``). The same request gives the same answer whichever
way it came."""


@dataclass(frozen=True)
class OptionSpec:
    """A command-line option a game adds to one of its commands (``melds score -r RULESET --help``
    lists them). Its value reaches the game in the request under ``key``."""

    name: str  # as typed: "--win"
    help: str
    key: str | None = None  # the request key (default: the name without dashes, '-' as '_')
    flag: bool = False
    metavar: str | None = None
    type: str = "text"  # text | int | float | path (a file that must exist)
    choices: tuple[str, ...] | None = None
    default: Any = None
    minimum: float | None = None
    multiple: bool = False

    @property
    def request_key(self) -> str:
        return self.key or self.name.lstrip("-").replace("-", "_")


ClaimCheck = Callable[[Mapping[str, Any]], tuple[Any, Any, Any]]
"""A check of one worked example of the document (a ``claims:`` entry of its kind): given the
claim's data, (what the document claims, what melds computes, a witness to show)."""


@runtime_checkable
class Game(Protocol):
    """One game family. The class is registered; an instance is the game compiled for one
    ruleset (built once per ruleset and options, then reused by every query: its SAT models,
    tables and dictionaries live as long as the instance)."""

    name: ClassVar[str]
    """The registry name rulesets give in ``game:``."""

    label: ClassVar[str]
    """What messages call the family: "{label} games"."""

    ruleset: Ruleset

    # -- rules as data --------------------------------------------------------------------------

    @classmethod
    def read_rules(cls, reader: RuleReader) -> Any:
        """Read the game's own ruleset sections (those :mod:`solver.core.sections` does not) into
        frozen objects, reporting errors with ``reader.fail`` (file, line, key); the result is
        ``ruleset.rules``. None when the game has no sections of its own."""

    # -- the command line -----------------------------------------------------------------------

    @classmethod
    def options(cls, command: str) -> Sequence[OptionSpec]:
        """The options the game adds to ``command`` (check, solve, score)."""

    @classmethod
    def examples(cls, command: str) -> Sequence[str]:
        """Example command lines for ``command``'s help (``melds check -r RULESET CARD …``)."""

    # -- the compiled model -----------------------------------------------------------------------

    def __init__(self, ruleset: Ruleset) -> None:
        """Compile the game for one ruleset: the notation, the meld models, the tables, lazily
        where they are costly (the registry keeps the instance for the ruleset's lifetime)."""

    def close(self) -> None:
        """Free the SAT solvers the model holds."""

    def describe(self) -> Result:
        """What ``melds rulesets`` says of the ruleset: ``data`` extends the common JSON keys,
        ``text`` is the one line after the name (deck size, what melds or words)."""

    # -- queries -----------------------------------------------------------------------------------

    def check(self, request: Request) -> Result:
        """Is this one legal meld (word, winning hand)? Which kind, which reading, or why not."""

    def solve(self, request: Request) -> Result:
        """The question the request asks of a hand (go out, the best turn, waits, …), within
        the request's budget (``max_seconds``: exit 3 when it runs out)."""

    def score(self, request: Request) -> Result:
        """Points: of a meld, a hand left, a round, a winning hand."""

    def answer(self, document: Document, request: Request, folder: bool = False) -> PuzzleResult:
        """Answer a puzzle file of this game, and say whether the answer matches the puzzle's
        expectation; ``folder``: it is one of a folder's puzzles (a round is settled there,
        where alone it would be refused)."""

    def moves(self) -> Moves:
        """The turn rules: judge one action on a game state, or list every legal action."""

    def state_problems(self, state: GameState) -> Sequence[Impossible]:
        """What is impossible in a game state beyond what every game shares (solver.core.validate
        checks hidden hands and the stock): its cards against the deck's copies, its game's own
        facts. Each an :class:`~solver.core.validate.Impossible` naming the rule, its quote and
        where in the file; empty when the state can happen."""

    # -- whole games (melds replay) ---------------------------------------------------------------

    @classmethod
    def log_formats(cls) -> Sequence[LogFormat]:
        """The game-record formats of other software the game reads (a table's own records), each
        with how to recognise its files and the ruleset to read them through; none for most games
        (they are replayed from the project's own log of actions, solver/core/actionlog.py)."""

    def replay(self, log: GameLog) -> Iterable[GameReport]:
        """Replay the games of a log in one of ``log_formats``: rebuild each hand from its start,
        judge every action with ``moves()``, settle each hand and compare it with the record (a
        hand's status agree, illegal or mismatch; the game's end and placement)."""

    def settle_hand(self, state: GameState, turn_start: GameState) -> Settlement:
        """A hand of the project's own log, played to its end, settled: what each player gains
        (negative: pays), with the game's account of it (``turn_start``: the state as the last
        turn began, e.g. to tell a player who went out in one go)."""

    # -- audit -----------------------------------------------------------------------------------

    def claim_checks(self) -> Mapping[str, ClaimCheck]:
        """The kinds of ``claims:`` the game can check, each with its check."""

    def audit_checks(self) -> Sequence[Callable[[Any], None]]:
        """Searches for defects beyond the claims (meld sizes no meld can have, kinds that read
        the same cards, deals the deck cannot make): each takes the audit and adds findings."""
