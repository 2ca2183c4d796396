"""What the replay's counted table (:mod:`solver.games.mahjong.fastpath`) needs of a compiled
ruleset, worked out once for its moves: faces, copies, identities, the checks in force, the
verbs the ruleset has — and a hand's tiles and text written straight from its counts.

A hand shown from counts must read as the moves' own text of it (``Mahjong.format_hand``):
:meth:`FastRules.hand_of` writes each suit's digits in the printed order and the suit's letter, as
``format_tiles`` does for tiles given in that order; :class:`FastRules` checks once that the two
agree on every face (else every hand is written by ``format_hand``).
"""

from __future__ import annotations

from collections.abc import Callable
from operator import gt, itemgetter
from typing import Any
from weakref import WeakKeyDictionary

from solver.core.deck import Face
from solver.core.errors import MeldsError
from solver.core.state import GameState
from solver.games.mahjong.tiles import DeclaredMeld, Hand

# the checks whose conditions the counted table weighs before taking an action (the others concern
# only verbs it declines: kyuushu, ron, kans)
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
        self.kinds = len(mj.identities)
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
        self.blank = GameState(rs, (), "", "", {})  # a table's state: this one but its fields
        self._fold()
        self._print()

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

    # -- counts by identity, and a hand written from its counts --------------------------------------

    def _fold(self) -> None:
        """Each identity's first face (read at once by ``_firsts``) and the faces beside it."""
        firsts: dict[int, int] = {}
        self._besides: list[tuple[int, int]] = []  # (face, its identity) of every face but the first
        for i, ident in enumerate(self.identity):
            if ident in firsts:
                self._besides.append((i, ident))
            else:
                firsts[ident] = i
        complete = sorted(firsts) == list(range(self.kinds))
        order = [firsts[k] for k in range(self.kinds)] if complete else []
        self._firsts = _reader(order) if order else None
        if self._firsts is None:  # an identity without a face: counted one face at a time
            self._besides = list(enumerate(self.identity))

    def kinds_of(self, counts: list[int]) -> list[int]:
        """Identity counts of a hand's counts by face (a red five counted as a five)."""
        kinds = list(self._firsts(counts)) if self._firsts is not None else [0] * self.kinds
        for i, ident in self._besides:
            kinds[ident] += counts[i]
        return kinds

    def over_copies(self, totals: list[int]) -> bool:
        """Do these counts by face exceed the set's copies of a face?"""
        return any(map(gt, totals, self.copies))

    def _print(self) -> None:
        """Per face in the printed order: its index, its tiles and its digits repeated 0–4 times (a
        hand's tiles, its text), its suit's letter."""
        faces, texts, most = self.faces, self.texts, max(self.copies, default=0)
        self._printed = [
            (
                i,
                tuple((faces[i],) * n for n in range(most + 1)),
                tuple(texts[i][:-1] * n for n in range(most + 1)),
                texts[i][-1:],
            )
            for i in self.printed
        ]
        self.writes_hands = True
        self.writes_hands = bool(faces) and self.hand_of([1] * len(faces), ())[0] == self.mj.format_tiles(
            [faces[i] for i in self.printed]
        )

    def hand_of(self, counts: list[int], melds: tuple[DeclaredMeld, ...]) -> tuple[str, Hand]:
        """A hand of these counts by face (its concealed tiles in printed order) and these melds,
        with its text as the moves write it (``format_tiles``: each suit's digits, then its letter)."""
        tiles: list[Face] = []
        digits: list[str] = []
        suit = ""
        for i, repeated, written, letter in self._printed:
            n = counts[i]
            if n:
                tiles += repeated[n]
                if letter != suit:
                    if suit:
                        digits.append(suit)
                    suit = letter
                digits.append(written[n])
        hand = Hand(tuple(tiles), melds)
        if not self.writes_hands:
            return self.mj.format_hand(hand), hand
        text = "".join(digits) + suit
        if melds:
            meld_text = self.mj.meld_text
            text = " ".join(([text] if text else []) + [meld_text(m) for m in melds])
        return text, hand


def _reader(indices: list[int]) -> Callable[[list[int]], tuple[int, ...]]:
    """The counts at these indices, as a tuple, read at once."""
    if len(indices) == 1:
        only = indices[0]
        return lambda counts: (counts[only],)
    return itemgetter(*indices) if indices else lambda counts: ()


def fast_rules(moves: Any) -> FastRules | None:
    """The counted table's rules for these moves (None: the ruleset has a check it does not know)."""
    rules = FastRules.of(moves)
    return rules if rules.usable else None


__all__ = ["FastRules", "KNOWN_CHECKS", "fast_rules"]
