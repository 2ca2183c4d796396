"""A word-game turn as SAT: can the player empty the hand, and otherwise put down the most tiles?

The table after the turn is a multiset of words. Candidates come from a dictionary walk over the
tiles in play (:meth:`Dictionary.formable`); the words already on the table are candidates too,
whether or not the dictionary knows them (the table accepted them). Variables:

* ``x[w, j]`` — the ``j``-th copy of candidate ``w`` is a word on the table after arranging;
  copies are used in order (``x[w, j+1] → x[w, j]``);
* ``y[w, j]`` — it is a word put down from the hand alone (at most ``words_from_hand`` of them);
* ``hand[t] ≥ k`` and ``loose[t] ≥ k`` — unary counts of the hand tiles and the loose tiles of kind
  ``t`` that end up in words; per kind, the tiles in the chosen words are exactly the table's
  ``T[t]`` plus those two (a sequential counter in both directions, :func:`counter`);
* ``rep[w, j, t]`` — the arranged word's tile that was already on the table (or loose) is a ``t``:
  every arranged word has one, and no more than ``T[t] + loose[t]`` words take a ``t``. So no
  arranged word is made of hand tiles alone (that would be a second word from the hand).

Anagrams are one candidate (only the multiset of tiles matters to the cover). The model is built
once per round; "go out" is one query with every ``hand[t] ≥ H[t]`` assumed, and "the most tiles"
a climb on a counter over the hand counts, again by assumptions. :func:`solve_turn` grows the
arranged candidates in rounds (table words and common words first): a round that goes out is a
witness as it stands, and the last round holds them all, so every "no" is proved on the whole
set. Every answer is decoded into words with their tiles, for an independent check
(tests/word_oracle.py).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from solver.core.errors import MeldsError
from solver.core.gcpause import no_collections
from solver.games.words.tiles import Dictionary, Entry
from solver.sat.budget import Budget
from solver.sat.encodings import TRUE, counter
from solver.sat.pool import VarPool
from solver.sat.solvers import SMALL, SatSolver


@dataclass(frozen=True)
class Word:
    """A word on the table: its tiles (one string, one character a tile) and what vouches for it."""

    key: str
    entries: tuple[Entry, ...]  # dictionary entries; empty for a table word no list knows

    @property
    def shown(self) -> str:
        return self.entries[0].reading if self.entries else self.key


@dataclass(frozen=True)
class Turn:
    """A turn's position: the hand, the words on the table, the loose tiles, the player's state."""

    hand: tuple[str, ...]
    table: tuple[str, ...] = ()  # words as tile keys
    loose: tuple[str, ...] = ()  # tiles put face up by the relief action, free to use
    has_word: bool = False  # the player put down a first word on an earlier turn
    last_lap: bool = False  # the stock is gone: words of two tiles are enough


@dataclass
class TurnAnswer:
    """The play found: the word from the hand, the table after arranging, the tiles kept."""

    goes_out: bool
    placed: int  # hand tiles put down
    new_words: list[Word]
    table: list[Word]  # every word on the table after the turn (new words included)
    kept: list[str]  # hand tiles left
    loose_left: list[str]
    arranged: bool  # the table words changed
    candidates: int = 0
    sat_calls: int = 0
    reasons: list[dict] = field(default_factory=list)


class TurnModel:
    """The SAT model of one turn over given candidates (or of a bonus round: hand words only,
    any number of them)."""

    def __init__(
        self,
        turn: Turn,
        hand_words: Sequence[Word],
        arranged_words: Sequence[Word],
        *,
        words_from_hand: int | None,
        arrange: bool,
        budget: Budget,
    ):
        self.turn = turn
        self.budget = budget
        self.hand = Counter(turn.hand)
        self.arrange = arrange
        # without arranging the table stays as it is: its tiles are not in the model
        self.on_table = Counter("".join(turn.table)) if arrange else Counter()
        self.loose = Counter(turn.loose) if arrange else Counter()
        self.kinds = sorted(set(self.hand) | set(self.on_table) | set(self.loose))
        self.v = VarPool()
        self.clauses: list[list[int]] = []
        self.sat_calls = 0
        self.words_from_hand = words_from_hand
        self.hand_words = list(hand_words)
        self.arranged_words = list(arranged_words) if arrange else []
        with no_collections():  # hundreds of thousands of clause lists, none cyclic
            self._build()

    def _copies(self, word: Word, tiles: Counter) -> int:
        need = Counter(word.key)
        return min(tiles[t] // n for t, n in need.items())

    def _counter(self, lits: Sequence[int], top: int) -> list:
        return counter(lits, top, self.v.new, self.clauses)

    def _build(self) -> None:
        uses: dict[str, list[int]] = {t: [] for t in self.kinds}  # literal once per tile it puts down
        self.x: list[tuple[Word, list[int]]] = []
        self.y: list[tuple[Word, list[int]]] = []
        everything = self.hand + self.on_table + self.loose
        for word in self.arranged_words:
            copies = [self.v.new() for _ in range(self._copies(word, everything))]
            self._chain(copies)
            self.x.append((word, copies))
        for word in self.hand_words:
            n = self._copies(word, self.hand)
            if self.words_from_hand is not None:
                n = min(n, self.words_from_hand)
            copies = [self.v.new() for _ in range(n)]
            self._chain(copies)
            self.y.append((word, copies))
        for word, copies in self.x + self.y:
            for t in word.key if copies else ():  # a word the tiles cannot spell (a larger hand's candidate)
                uses[t].extend(copies)
        if self.words_from_hand is not None:
            self._at_most([lit for _, copies in self.y for lit in copies], self.words_from_hand)
        self.hand_ge: dict[str, list] = {}
        for t in self.kinds:
            self._tile_count(t, uses[t])
        self._hand_only_words()
        self._representatives()
        # placed[k]: at least k hand tiles put down (both directions: it is assumed true)
        lits = [lit for t in self.kinds for lit in self.hand_ge[t][1:]]
        self.placed = self._counter(lits, len(lits))

    def _chain(self, copies: Sequence[int]) -> None:
        self.clauses += [[-b, a] for a, b in itertools.pairwise(copies)]

    def _at_most(self, lits: Sequence[int], k: int) -> None:
        if len(lits) > k:
            self._false(self._counter(lits, k + 1)[k + 1])

    def _false(self, lit) -> None:
        if lit is TRUE:
            self.clauses.append([])
        elif lit is not None:
            self.clauses.append([-lit])

    def _true(self, lit) -> None:
        if lit is None:
            self.clauses.append([])
        elif lit is not TRUE:
            self.clauses.append([lit])

    def _unary(self, name: str, t: str, n: int) -> list:
        """Literals u[k] = "at least k" (k = 0..n), ordered; u[0] is TRUE."""
        out = [TRUE] + [self.v(name, t, k) for k in range(1, n + 1)]
        self.clauses += [[-out[k], out[k - 1]] for k in range(2, n + 1)]
        return out

    def _tile_count(self, t: str, lits: list[int]) -> None:
        """Tiles of kind t in the chosen words = T[t] + hand[t] + loose[t]."""
        base, h, lo = self.on_table[t], self.hand[t], self.loose[t]
        ge = self._counter(lits, base + h + lo + 1)
        self._true(ge[base])
        self._false(ge[base + h + lo + 1])
        hand = self.hand_ge[t] = self._unary("hand", t, h)
        loose = self._unary("loose", t, lo)
        for i in range(h + 1):
            for j in range(lo + 1):
                # hand ≥ i and loose ≥ j  →  count ≥ T+i+j
                if ge[base + i + j] is not TRUE:
                    self.clauses.append(
                        [-c for c in (hand[i], loose[j]) if c is not TRUE]
                        + ([ge[base + i + j]] if ge[base + i + j] is not None else [])
                    )
                # count ≥ T+i+j+1  →  hand ≥ i+1 or loose ≥ j+1
                up = ge[base + i + j + 1]
                if up is not None:
                    self.clauses.append([-up] + ([hand[i + 1]] if i < h else []) + ([loose[j + 1]] if j < lo else []))

    def _hand_only_words(self) -> None:
        """A word from the hand takes hand tiles only: y → hand[t] ≥ its t's."""
        for word, copies in self.y:
            for t, n in Counter(word.key).items():
                for lit in copies:
                    self.clauses.append([-lit, self.hand_ge[t][n]] if n < len(self.hand_ge[t]) else [-lit])
        if self.y and self.words_from_hand != 1:  # several hand words share the hand's tiles
            for t in self.kinds:
                lits = [lit for word, copies in self.y for lit in copies for _ in range(word.key.count(t))]
                if len(lits) > self.hand[t]:
                    self._false(self._counter(lits, self.hand[t] + 1)[self.hand[t] + 1])

    def _representatives(self) -> None:
        """Each arranged word holds a tile that was not in the hand (no second hand-only word)."""
        by_kind: dict[str, list[int]] = {}
        for word, copies in self.x:
            fixed = [t for t in sorted(set(word.key)) if self.on_table[t] or self.loose[t]]
            for lit in copies:
                reps = [self.v.new() for _ in fixed]
                self.clauses.append([-lit] + reps)
                for t, r in zip(fixed, reps, strict=True):
                    self.clauses.append([-r, lit])
                    by_kind.setdefault(t, []).append(r)
        for t, reps in by_kind.items():
            base, lo = self.on_table[t], self.loose[t]
            if len(reps) <= base:
                continue
            ge = self._counter(reps, base + lo + 1)
            loose = [TRUE] + [self.v("loose", t, k) for k in range(1, lo + 1)]
            for j in range(lo + 1):  # more than T+j representatives need at least j+1 loose tiles
                up = ge[base + j + 1]
                if up is not None:
                    self.clauses.append([-up] + ([loose[j + 1]] if j < lo else []))

    # -- queries ----------------------------------------------------------------------------------

    def _solve(self, solver: SatSolver, assumptions: list[int]) -> list[int] | None:
        self.sat_calls += 1
        return solver.model() if solver.solve(assumptions, self.budget) else None

    def best(self, go_out_only: bool = False) -> list[int] | None:
        """A model that puts down every hand tile, else (unless go_out_only) the most."""
        everything = [self.hand_ge[t][self.hand[t]] for t in self.kinds if self.hand[t]]
        # MiniSat: faster than Glucose 3 on large tables, and it heeds the budget's interrupt at once
        # (docs/performance.md)
        with SatSolver(self.clauses, SMALL) as solver:
            model = self._solve(solver, everything)
            if model is not None or go_out_only:
                return model
            best = self._solve(solver, [])
            if best is None:  # no table at all (the clauses alone are unsatisfiable)
                return None
            placed = self._placed(best)
            while placed + 1 < len(self.placed):  # ask for one more tile than the best so far
                better = self._solve(solver, [self.placed[placed + 1]])
                if better is None:
                    break
                best, placed = better, self._placed(better)
            return best

    def leaves_only(self, solver: SatSolver, kept: Counter) -> bool:
        """Can the turn put down every hand tile but exactly ``kept`` (a part of the hand)?"""
        assumptions = []
        for t in self.kinds:
            placed = self.hand[t] - kept[t]
            if placed:
                assumptions.append(self.hand_ge[t][placed])
            if kept[t]:
                assumptions.append(-self.hand_ge[t][placed + 1])
        return self._solve(solver, assumptions) is not None

    def _placed(self, model: list[int]) -> int:
        true = {lit for lit in model if lit > 0}
        return sum(1 for t in self.kinds for lit in self.hand_ge[t][1:] if lit in true)

    def decode(self, model: list[int], dictionary: Dictionary) -> TurnAnswer:
        true = {lit for lit in model if lit > 0}
        new = [w for w, copies in self.y for lit in copies if lit in true]
        arranged = [w for w, copies in self.x for lit in copies if lit in true]
        used_hand = Counter({t: sum(1 for lit in self.hand_ge[t][1:] if lit in true) for t in self.kinds})
        kept = sorted((self.hand - used_hand).elements(), key=dictionary.tileset.kinds.index)
        in_words = Counter("".join(w.key for w in new + arranged))
        loose_used = in_words - self.on_table - used_hand
        table = arranged if self.arrange else [_table_word(dictionary, k) for k in self.turn.table]
        return TurnAnswer(
            goes_out=not kept,
            placed=sum(used_hand.values()),
            new_words=new,
            table=table + new,
            kept=kept,
            loose_left=sorted((Counter(self.turn.loose) - loose_used).elements()),
            arranged=self.arrange and Counter(w.key for w in arranged) != Counter(self.turn.table),
            candidates=len(self.x) + len(self.y),
            sat_calls=self.sat_calls,
        )


def _table_word(dictionary: Dictionary, key: str) -> Word:
    entries = sorted(dictionary.by_key.get(key, ()), key=lambda e: not e.common)
    return Word(key, tuple(entries))


def _common(word: Word) -> bool:
    return any(e.common for e in word.entries)


def candidates(
    dictionary: Dictionary, tiles: Counter, min_tiles: int, table: Sequence[str] = (), fixed: Counter | None = None
) -> list[Word]:
    """The words spelled from ``tiles``, one per multiset of tiles (anagrams are the same choice
    for the cover): the table's own word where it is one of them, else a common word, else the
    first. With ``fixed``, only words holding one of those tiles (table or loose) are kept.
    Ordered table words first, then common words, then by length: the growing rounds of
    :func:`solve_turn` try those first, so answers use everyday words when they can."""
    by_multiset: dict[str, Word] = {}
    for key in list(table) + dictionary.formable(tiles, min_tiles):
        if len(key) < min_tiles or (fixed is not None and not any(fixed[t] for t in set(key))):
            continue
        word = _table_word(dictionary, key)
        sort_key = "".join(sorted(key))
        held = by_multiset.get(sort_key)
        if held is None or (held.key not in table and key not in table and _common(word) and not _common(held)):
            by_multiset[sort_key] = word
    return sorted(by_multiset.values(), key=lambda w: (w.key not in table, not _common(w), len(w.key), w.key))


ROUNDS = (1500, 6000)  # arranged candidates per round before the whole set


def solve_turn(
    dictionary: Dictionary,
    turn: Turn,
    rules,
    *,
    go_out_only: bool = False,
    budget: Budget | None = None,
    words: TurnWords | None = None,
) -> TurnAnswer:
    """The best play of a turn (see :func:`_solve_turn`), under one budget (none: no limit) held
    by its guard. ``words``: candidates found for a larger hand (:func:`turn_words`), reused."""
    budget = budget if budget is not None else Budget()
    with budget.guarding():
        return _solve_turn(dictionary, turn, rules, budget, go_out_only, words)


@dataclass(frozen=True)
class TurnWords:
    """A turn's candidate words: those spelled from the hand, and those an arranging can make."""

    from_hand: list[Word]
    arranged: list[Word]


def turn_words(dictionary: Dictionary, turn: Turn, rules) -> TurnWords:
    """The candidates of a turn. Words the hand cannot spell get no copies in the model, so the
    candidates of a hand serve every turn whose hand is a part of it (same table and state)."""
    lengths = rules.min_length
    min_table = lengths["last_lap"] if turn.last_lap else lengths["table"]
    min_word = lengths["last_lap"] if turn.last_lap else lengths["word"]
    hand = Counter(turn.hand)
    arrange = turn.has_word and bool(turn.table or turn.loose)
    placed = Counter("".join(turn.table)) + Counter(turn.loose)
    arranged = candidates(dictionary, hand + placed, min_table, turn.table, fixed=placed) if arrange else []
    return TurnWords(candidates(dictionary, hand, min_word), arranged)


def goes_out_leaving(
    dictionary: Dictionary, turn: Turn, rules, keeps: Sequence[Counter], budget: Budget, words: TurnWords
) -> tuple[list[bool], int]:
    """For each of ``keeps`` (tiles of the hand set aside), does the rest of the hand go out on
    this turn? With the models built: one per round of :func:`_solve_turn` answers them all by assumptions: the
    hand less a kept tile plays exactly as the hand that keeps it unplayed. A "no" stands only on
    the last round, which holds every candidate."""
    arrange = turn.has_word and bool(turn.table or turn.loose)
    arranged = words.arranged
    sizes = [n for n in ROUNDS if n < len(arranged)] + [len(arranged)]
    found = [False] * len(keeps)
    built = 0
    for size in sizes:
        built += 1
        model = TurnModel(
            turn,
            words.from_hand,
            arranged[:size],
            words_from_hand=rules.words_from_hand,
            arrange=arrange,
            budget=budget,
        )
        with SatSolver(model.clauses, SMALL) as solver:
            for i, kept in enumerate(keeps):
                found[i] = found[i] or model.leaves_only(solver, kept)
        if all(found):
            break
    return found, built


def _solve_turn(
    dictionary: Dictionary, turn: Turn, rules, budget: Budget, go_out_only: bool, words: TurnWords | None
) -> TurnAnswer:
    """The best play of a turn under the ruleset's word rules (``rules`` is its WordGame).

    Arranged words are tried in growing rounds (the shortest first): a round that goes out is a
    witness, valid as it stands; otherwise the last round holds every candidate, so "cannot go
    out" and "at most N tiles" are proved on the whole set."""
    lengths = rules.min_length
    _check_table(dictionary, turn, lengths["last_lap"] if turn.last_lap else lengths["table"])
    arrange = turn.has_word and bool(turn.table or turn.loose)
    words = words if words is not None else turn_words(dictionary, turn, rules)
    hand_words, arranged = words.from_hand, words.arranged
    sizes = [n for n in ROUNDS if n < len(arranged)] + [len(arranged)]
    calls = 0
    for size in sizes:
        model = TurnModel(
            turn, hand_words, arranged[:size], words_from_hand=rules.words_from_hand, arrange=arrange, budget=budget
        )
        last = size == sizes[-1]
        found = model.best(go_out_only=go_out_only or not last)
        calls += model.sat_calls
        if found is not None or last:
            break
    if found is None:
        answer = TurnAnswer(
            False,
            0,
            [],
            [_table_word(dictionary, k) for k in turn.table],
            sorted(turn.hand, key=dictionary.tileset.kinds.index),
            list(turn.loose),
            False,
        )
    else:
        answer = model.decode(found, dictionary)
    answer.candidates, answer.sat_calls = len(hand_words) + len(arranged), calls
    if not turn.has_word:
        answer.reasons.append(
            {
                "code": "no-arranging-yet",
                "message": (
                    "no arranging this turn: the player has not put down a first word before (only one word "
                    "from the hand)"
                ),
                "source": _source_json(rules.sources.get("turn.arrange_after_first_word")),
            }
        )
    return answer


def solve_bonus(
    dictionary: Dictionary, revealed: tuple[str, ...], rules, *, budget: Budget | None = None
) -> TurnAnswer:
    """The winner's best bonus words from a loser's revealed tiles: most tiles in 2+-tile words
    (within ``budget``; none: no limit)."""
    budget = budget if budget is not None else Budget()
    with budget.guarding():
        words = candidates(dictionary, Counter(revealed), rules.min_length["bonus"])
        model = TurnModel(Turn(hand=revealed), words, [], words_from_hand=None, arrange=False, budget=budget)
        found = model.best()
    if found is None:
        return TurnAnswer(
            False,
            0,
            [],
            [],
            sorted(revealed, key=dictionary.tileset.kinds.index),
            [],
            False,
            len(words),
            model.sat_calls,
        )
    answer = model.decode(found, dictionary)
    answer.candidates = len(words)
    return answer


def _source_json(source) -> dict | None:
    return source.to_json() if source is not None else None


def _check_table(dictionary: Dictionary, turn: Turn, min_table: int) -> None:
    for key in turn.table:
        if len(key) < min_table:
            raise MeldsError(f"table word {key} has {len(key)} tiles; a word on the table needs {min_table}")


def bonus_points(rules, revealed: int, in_words: int) -> int:
    """A loser's points: -1 a tile left, -2 a tile the winner spelled into a bonus word."""
    return rules.left_in_hand * (revealed - in_words) + rules.bonus_tile * in_words
