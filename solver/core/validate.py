"""One validator of game facts, shared by every command that is handed a position: ``melds move``
and ``moves`` (a state file), ``solve`` and ``score`` (a puzzle, a round, a winning hand's facts),
and the replay of a recorded game.

What it refuses is a position that cannot happen — not a move that breaks a rule (that is a
judgement, exit 1), but facts no legal play could lead to: more copies of a card than the deck
holds, a hidden hand of more cards than the deck, a negative stock, a player who is not at the
table, a win whose facts contradict each other. Each refusal is :class:`Impossible` (exit 2)
and names the rule it breaks and, where the ruleset cites one, the document's quote.

The checks every game shares live here; a game adds its own through
:meth:`solver.core.game.Game.state_problems` (the game's package reads its own notation — no
game is named outside ``solver/games/``).

API for a command or a replay::

    problems = state_problems(state, game)   # every problem, in the order found
    validate_state(state, game)              # raise the first as Impossible
    copies_problems(deck, places, fmt)       # cards of several places against the deck's copies
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from solver.core.deck import Deck, Face
from solver.core.errors import Location, MeldsError
from solver.core.source import Source, source_json
from solver.core.yamlload import line_of

if TYPE_CHECKING:
    from solver.core.state import GameState


class Impossible(MeldsError):
    """Facts no legal play could lead to (exit 2): the rule they break, its quote, and where."""

    code = "impossible-state"

    def __init__(self, message: str, rule: str, source: Source | None = None, location: Location | None = None):
        self.rule, self.source, self.location = rule, source, location
        quote = f" 「{source.quote}」" if source is not None and source.quote else ""
        if source is not None and source.assumption:  # the document does not say it: say whose it is
            quote += f" (the ruleset's assumption {source.assumption}; the quote is the nearest the document says)"
        super().__init__(f"{location}: {message}{quote}" if location else f"{message}{quote}")
        self.message = message

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "code": self.code,
            "message": str(self),
            "rule": self.rule,
            "source": source_json(self.source),
        }
        if self.location is not None:
            out.update(file=self.location.file, line=self.location.line, path=self.location.path)
        return out


def copies_problems(
    deck: Deck,
    places: Mapping[str, Sequence[Face]],
    fmt: Callable[[Face], str],
    where: Callable[[str], Location | None] = lambda place: None,
) -> list[Impossible]:
    """Every card that ``places`` (name -> cards seen there) hold more often together than the deck
    has copies of it, naming the places and quoting the deck's line for the card's class."""
    counts: Counter[Face] = Counter()
    for faces in places.values():  # the usual answer, none, found first (a batch asks at every line)
        counts.update(faces)
    in_deck = deck.copies
    if all(n <= in_deck.get(face, 0) for face, n in counts.items()):
        return []
    counts = Counter()
    seen_in: dict[Face, list[str]] = {}
    for place, faces in places.items():
        for face, n in Counter(faces).items():
            counts[face] += n
            seen_in.setdefault(face, []).append(f"{place} ×{n}" if n > 1 else place)
    out = []
    for face, n in counts.items():
        held = deck.copies.get(face, 0)
        if n > held:
            cls = deck.card_class(face.cls)
            copies = f"{held} cop{'y' if held == 1 else 'ies'}"
            out.append(
                Impossible(
                    f"{fmt(face)} is there {n} times ({', '.join(seen_in[face])}), but the deck holds {copies} of it",
                    "deck-copies",
                    cls.source,
                    where(seen_in[face][0].split(" ×")[0]),
                )
            )
    return out


def count_problems(counts: Iterable[tuple[str, Any, int | None, Location | None]]) -> list[Impossible]:
    """(what, value, maximum or None, where): each must be a whole number from 0 to the maximum."""
    out = []
    for what, value, maximum, location in counts:
        if value is None:
            continue
        if not isinstance(value, int) or isinstance(value, bool):
            out.append(Impossible(f"{what} must be a whole number, not {value!r}", "count", None, location))
        elif value < 0:
            out.append(Impossible(f"{what} is {value}: it cannot be negative", "count", None, location))
        elif maximum is not None and value > maximum:
            out.append(
                Impossible(
                    f"{what} is {value:,}, but the whole deck has {maximum:,} cards", "deck-size", None, location
                )
            )
    return out


def state_location(state: GameState, *keys: Any) -> Location:
    """Where ``keys`` (a path into the state file: "hands", "A") stand in the state's file."""
    data = getattr(state, "data", None)
    line = None
    node = data
    for key in keys:
        if node is None:
            break
        line = line_of(node, key) or line
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            node = None
    return Location(state.path, line, ".".join(str(k) for k in keys))


def shared_problems(state: GameState) -> list[Impossible]:
    """What every game's state must satisfy: hidden hands, the stock and the turn's counters are
    whole numbers from 0 to the deck's size, and together no more cards than the deck."""
    deck_size = state.ruleset.deck.size or None  # a game of tiles its ruleset does not list (Word Rummy): no bound
    counts = [
        (f"{p}'s hidden hand", h, deck_size, state_location(state, "hands", p))
        for p, h in state.hands.items()
        if not isinstance(h, str)
    ]
    counts.append(("the stock", state.stock, deck_size, state_location(state, "stock")))
    counts.append(("melds_this_turn", state.melds_this_turn, None, state_location(state, "melds_this_turn")))
    out = count_problems(counts)
    bounds = state.ruleset.players  # the document's number of players (2人〜6人, Two to four players take part)
    if bounds is not None and not bounds[0] <= len(state.players) <= bounds[1]:
        out.append(
            Impossible(
                f"{state.ruleset.id} is played by {bounds[0]} to {bounds[1]} players; the state has "
                f"{len(state.players)}",
                "players",
                None,
                state_location(state, "players"),
            )
        )
    if not out:
        hidden = sum(h for h in state.hands.values() if isinstance(h, int))
        if deck_size is not None and hidden + state.stock > deck_size:
            out.append(
                Impossible(
                    f"the hidden hands ({hidden}) and the stock ({state.stock}) hold more cards "
                    f"than the whole deck ({deck_size})",
                    "deck-size",
                    None,
                    state_location(state, "stock"),
                )
            )
    return out


def state_problems(state: GameState, game: Any) -> list[Impossible]:
    """Every problem of a state: the shared ones, then the game's own (its cards against the
    deck, its facts), in the order found."""
    out = shared_problems(state)
    hook = getattr(game, "state_problems", None)  # a game kept outside melds may not have it yet
    if not out and hook is not None:
        out.extend(hook(state))
    return out


def validate_state(state: GameState, game: Any) -> None:
    """Raise the first problem of ``state`` as :class:`Impossible`, or return."""
    problems = state_problems(state, game)
    if problems:
        raise problems[0]
