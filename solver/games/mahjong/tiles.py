"""Riichi tiles in notation: hand strings and declared melds read (fast for the words earlier
hands taught) and printed, as :class:`~solver.games.mahjong.hands.Mahjong` does it.

Hand strings follow tenhou: ``123m456p789s11z``, ``0`` a red five, honours also as 東南西北白發中;
declared melds in brackets: ``[東東東]`` or ``[123m]`` open (pon, chi, open kan), ``(5555p)``
a closed kan.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from solver.core.deck import Face
from solver.core.errors import MeldsError, TooManyCopies, UnknownCard

if TYPE_CHECKING:
    from solver.core.notation import Notation
    from solver.core.ruleset import Ruleset
    from solver.games.mahjong.rules import MahjongRules
    from solver.melding.meld.checker import MeldChecker

UNICODE = {
    "m": "🀇🀈🀉🀊🀋🀌🀍🀎🀏",
    "p": "🀙🀚🀛🀜🀝🀞🀟🀠🀡",
    "s": "🀐🀑🀒🀓🀔🀕🀖🀗🀘",
    "z": {"東": "🀀", "南": "🀁", "西": "🀂", "北": "🀃", "白": "🀆", "發": "🀅", "中": "🀄"},
}
_TILE_TOKENS = re.compile(r"([0-9]+)([A-Za-z]?)|([A-Za-z][A-Za-z0-9]*)|(\s+)|(\S)")
_FROM_UNICODE = {ch: f"{i + 1}{suit}" for suit in "mps" for i, ch in enumerate(UNICODE[suit])}
_MELD = re.compile(r"\[([^\]]*)\]|\(([^)]*)\)")  # a declared meld: [123m] open, (5555p) a closed kan
_BRACKET = re.compile(r"[\[\]()]")
_SHORT = 16  # words this long or shorter are remembered whole once parsed (123m, 東, a meld's 5550m)
_CACHE_LIMIT = 1 << 14


def _bounded(cache: dict[Any, Any], key: object, value: object) -> None:
    """cache[key] = value, the cache emptied first when full (a long batch of odd input must not
    grow it forever)."""
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    cache[key] = value


@dataclass(frozen=True)
class DeclaredMeld:
    """A meld declared by a call or a kan: its kind, tiles and whether it is open."""

    kind: str  # the ruleset's declared meld id: chi, pon, minkan, ankan
    faces: tuple[Face, ...]
    open: bool
    meld_kind: str  # the meld kind it is: shuntsu, koutsu, kantsu


@dataclass(frozen=True)
class Hand:
    """A hand as read: its concealed tiles and its declared melds."""

    concealed: tuple[Face, ...]
    melds: tuple[DeclaredMeld, ...] = ()

    @property
    def tiles(self) -> tuple[Face, ...]:
        return self.concealed + tuple(f for m in self.melds for f in m.faces)

    def with_tile(self, face: Face) -> Hand:
        return Hand(self.concealed + (face,), self.melds)


class TileNotation:
    """The notation of a :class:`~solver.games.mahjong.hands.Mahjong` (a part of it: the deck,
    tables and caches it reads are built by ``Mahjong.__init__``)."""

    rs: Ruleset
    rules: MahjongRules
    checker: MeldChecker
    notation: Notation
    identities: list[tuple]  # (suit, rank) of each identity: a red five is a five
    suits: list[str]
    suit_ranks: dict[str, list[str]]
    plain: dict[tuple, Face]  # identity -> its ordinary tile
    _plain_classes: dict[tuple, str]
    _declared_kinds: dict[tuple[int, ...], tuple[bool, frozenset[str]]]
    _parsed: dict[str, tuple[Face, ...]]
    _groups: dict[str, DeclaredMeld]
    _identity_texts: dict[tuple[int, ...], str]
    _meld_texts: dict[int, tuple[DeclaredMeld, str, str]]
    _copies: list[int]

    def identity(self, face: Face) -> tuple:
        return (face.suit, face.rank)

    def _plain_class(self, ident: tuple) -> str:
        """The class of an identity's ordinary tile (a red five's is rarer)."""
        return self._plain_classes[ident]

    # -- notation ---------------------------------------------------------------------------

    def parse_tiles(self, text: str) -> list[Face]:
        """Tiles from tenhou groups (123m, 0p, 1z), honour kanji, Unicode tiles and the
        ruleset's other spellings as words (E, haku, r5m).

        >>> from solver.core.ruleset import load_ruleset
        >>> from solver.games.mahjong.hands import Mahjong
        >>> mj = Mahjong(load_ruleset("gensou-mahjong"))
        >>> mj.format_tiles(mj.parse_tiles("123m 0p 東🀄 haku"))
        '123m0p157z'
        """
        parsed = self._parsed
        known = parsed.get(text)
        if known is not None:
            return list(known)
        out: list[Face] = []
        for chunk in text.split():  # no token holds a space: each chunk is parsed (and remembered) alone
            faces = parsed.get(chunk)
            if faces is None:
                faces = self._chunk_tiles(chunk)
            out += faces
        return out

    def _chunk_tiles(self, chunk: str) -> tuple[Face, ...]:
        parsed, out = self._parsed, list[Face]()
        for m in _TILE_TOKENS.finditer(chunk):
            token = m.group()
            faces = parsed.get(token)
            if faces is None:
                faces = self._token_tiles(m)
                _bounded(parsed, token, faces)
            out += faces
        if len(chunk) <= _SHORT:
            _bounded(parsed, chunk, tuple(out))
        return tuple(out)

    def _token_tiles(self, m: re.Match) -> tuple[Face, ...]:
        """The tiles of one token of a tile string: a tenhou group, a word, one character."""
        digits, suit, word, space, char = m.groups()
        if digits:
            if not suit:
                honours = f" or {digits}z" if set(digits) <= set("1234567") else ""
                raise UnknownCard(
                    f"{digits!r} has no suit letter: write {digits}m, {digits}p, {digits}s{honours} (tenhou notation)"
                )
            if suit not in "mpsz":
                raise UnknownCard(
                    f"unknown tile {digits + suit!r}: the suit letters are m (萬子), p (筒子), s (索子) and z (字牌)"
                )
            out = []
            for digit in digits:
                if suit == "z" and digit not in "1234567":
                    raise UnknownCard(f"unknown tile '{digit}z': honours are 1z–7z (東南西北白發中)")
                out.append(self._tile(f"{digit}{suit}"))
            return tuple(out)
        if word or char:
            return (self._tile(word or char),)
        return ()

    def _tile(self, token: str) -> Face:
        token = _FROM_UNICODE.get(token, token)  # 🀇 → 1m (honour tiles are spelled in the ruleset)
        try:
            return self.notation.parse(token)
        except UnknownCard:
            raise UnknownCard(f"unknown tile {token!r} for {self.rs.name}: {self.describe_tiles()}") from None

    def describe_tiles(self) -> str:
        """The tiles of this set, as a hint after an unknown tile."""
        parts = []
        for suit, ranks in self.suit_ranks.items():
            if suit == "z":
                parts.append(f"1z–{len(ranks)}z ({''.join(ranks)})")
            elif len(ranks) > 2 and [int(r) for r in ranks] == list(range(int(ranks[0]), int(ranks[-1]) + 1)):
                parts.append(f"{ranks[0]}{suit}–{ranks[-1]}{suit}")
            else:
                parts.append(" ".join(f"{r}{suit}" for r in ranks))
        reds = "".join(f"0{f.suit}/" for f in self.reds).rstrip("/")
        red = f"; {reds} for a red five" if reds else ""
        return f"tiles are {', '.join(parts)}{red}; e.g. 123p456s11z"

    def parse_hand(self, text: str | Iterable[str]) -> Hand:
        """A hand string with declared melds: ``123m 456p 11z [東東東] (0555p)``."""
        if not isinstance(text, str):
            text = " ".join(text)
        try:
            hand = self._parse_plain(text)
        except MeldsError:
            hand = None  # the full reading below says what is wrong, in its own order
        return hand if hand is not None else self._parse_hand(text)

    def _parse_plain(self, text: str) -> Hand | None:
        """The usual hand — words of tiles, each meld a word of its own (``[123m]``, ``(0555p)``) —
        read word by word from what earlier hands taught (None: read it the full way)."""
        parsed, groups = self._parsed, self._groups
        concealed: list[Face] = []
        melds = []
        for word in text.split():  # plain loops: on a dozen words they beat map() and comprehensions
            faces = parsed.get(word)
            if faces is not None:
                concealed += faces
                continue
            meld = groups.get(word)
            if meld is not None:
                melds.append(meld)
            elif _BRACKET.search(word):
                return None  # a meld met for the first time (or odd brackets): the full reading
            else:
                concealed += self._chunk_tiles(word)
        tiles = tuple(concealed)
        if not melds:
            self._check_copies(tiles)
            return Hand(tiles)
        self._check_copies(tiles + tuple(f for m in melds for f in m.faces))
        return Hand(tiles, tuple(melds))

    def _parse_hand(self, text: str) -> Hand:
        if not _BRACKET.search(text):  # no declared melds: the usual hand
            concealed = tuple(self.parse_tiles(text))
            self._check_copies(concealed)
            return Hand(concealed)
        groups = [
            (
                m.group(0),
                m.group(2) is not None,
                tuple(self.parse_tiles(m.group(1) if m.group(1) is not None else m.group(2))),
            )
            for m in _MELD.finditer(text)
        ]
        rest = _MELD.sub(" ", text)
        if _BRACKET.search(rest):
            raise MeldsError(
                f"unbalanced bracket in {text!r}: declared melds are written [123m] (open) or (0555p) (closed kan)"
            )
        concealed = tuple(self.parse_tiles(rest))
        self._check_copies(concealed + tuple(f for _, _, faces in groups for f in faces))
        return Hand(concealed, tuple(self._declared_group(raw, closed, faces) for raw, closed, faces in groups))

    def _declared_group(self, text: str, closed: bool, faces: tuple[Face, ...]) -> DeclaredMeld:
        """A bracket group as the meld it declares (remembered by its text: melds recur)."""
        found = self._groups.get(text)
        if found is None:
            found = self._declared(faces, closed, text)
            _bounded(self._groups, text, found)
        return found

    def require_copies(self, hand: Hand) -> None:
        """A hand holds no tile more often than the set does (TooManyCopies says which)."""
        self._check_copies(hand.tiles)

    def over_copies(self, faces: tuple[Face, ...]) -> bool:
        """Do the tiles hold one more often than the set does? (Counted by face index, fast.)"""
        held, copies = [0] * len(self._copies), self._copies
        for f in faces:
            i = f.index
            held[i] += 1
            if held[i] > copies[i]:
                return True
        return False

    def over_copies_with(self, hand: Hand, extra: tuple[Face, ...]) -> bool:
        """Do a hand (already within the set) and a few more tiles hold one more often than the
        set does? Only the extra tiles' faces are counted."""
        held: dict[int, int] = {}
        for f in extra:
            held[f.index] = held.get(f.index, 0) + 1
        for f in hand.concealed:
            if f.index in held:
                held[f.index] += 1
        for m in hand.melds:
            for f in m.faces:
                if f.index in held:
                    held[f.index] += 1
        copies = self._copies
        return any(n > copies[i] for i, n in held.items())

    def _check_copies(self, faces: tuple[Face, ...]) -> None:
        """No tile more often than the set holds it (counted by face index; the notation words
        the error, with a hint when a red five is the one missing)."""
        if not self.over_copies(faces):
            return
        try:
            self.notation.check_copies(faces)
        except TooManyCopies as exc:
            count = Counter(faces)
            if any(
                count[self.plain[self.identity(red)]] > self.rs.deck.copies[self.plain[self.identity(red)]]
                for red in self.reds
            ):
                raise TooManyCopies(f"{exc} (one 5 of each suit is red: write it 0m, 0p or 0s)") from None
            raise

    @cached_property
    def reds(self) -> tuple[Face, ...]:
        """The red fives (faces of a rarer class than their identity's plain tile)."""
        return tuple(f for f in self.rs.deck.faces if f.cls != self._plain_class(self.identity(f)))

    def _declared(self, faces: tuple[Face, ...], closed: bool, text: str) -> DeclaredMeld:
        """Which declared meld a bracket group is: [..] open (chi, pon, open kan), (..) a closed kan."""
        key = tuple(sorted(f.index for f in faces))
        known = self._declared_kinds.get(key)
        if known is None:  # a few hundred melds can be declared: each is judged once
            kinds = self.plain_kinds(faces)
            if kinds is None:  # kinds of another make: the meld checker judges
                verdict = self.checker.check(faces, explain=False)
                read = {r.kind.id for r in verdict.readings}
                if verdict.legal and verdict.reading is not None:  # a legal verdict has its reading
                    read.add(verdict.reading.kind.id)
                known = (verdict.legal, frozenset(read))
            else:
                known = (bool(kinds), kinds)
            known = self._declared_kinds[key] = known
        legal, kinds = known
        for d in self.rules.declared_melds:
            if d.open == (not closed) and d.kind in kinds and legal:
                if not d.allowed:
                    quote = f": 「{d.source.quote}」" if d.source and d.source.quote else ""
                    raise MeldsError(f"{text}: {d.name} ({d.id}) is not allowed in {self.rs.name}{quote}")
                return DeclaredMeld(d.id, faces, d.open, d.kind)
        allowed = ", ".join(
            f"{d.name} ({d.id}) {'[...]' if d.open else '(...)'}" for d in self.rules.declared_melds if d.allowed
        )
        raise MeldsError(f"{text} is not a meld that can be declared here; declared melds are {allowed}")

    def plain_kinds(self, faces: Sequence[Face]) -> frozenset[str] | None:
        """The meld kinds a group of tiles is, read off the kinds themselves when they are plain
        ones — a run along a kind's order in one of its suits, or n of one tile of its ranks, by
        tiles its roles take as themselves — as a riichi ruleset's are (the tests hold this equal to
        the meld checker, which asks SAT); None when some kind is not plain, or the group reads as
        two kinds (the checker then says what the ruleset makes of it)."""
        if not self._plain_kinds_ok:
            return None
        n, idents = len(faces), [self.identity(f) for f in faces]
        suit, ranks = idents[0][0], sorted(self._rank_place[i] for i in idents)
        if any(s != suit for s, _ in idents):
            return frozenset()
        found = set()
        for kind in self.rs.kinds:
            if suit not in kind.suits or not kind.size_min <= n <= kind.size_max:
                continue
            if not all(any(kr.applies(f) and (kr.sizes is None or n in kr.sizes) for kr in kind.roles) for f in faces):
                continue
            names = [self.suit_ranks[suit][r] for r in ranks]
            if any(name not in kind.ranks for name in names):
                continue
            if kind.shape == "identical":
                fits = ranks[0] == ranks[-1]
            else:  # a sequence: consecutive places along the kind's order (a plain kind has one)
                order = kind.order.ranks if kind.order is not None else ()
                places = [order.index(name) if name in order else -1 for name in names]
                fits = -1 not in places and places == list(range(places[0], places[0] + n))
            if fits:
                found.add(kind.id)
        return frozenset(found) if len(found) <= 1 else None

    @cached_property
    def _plain_kinds_ok(self) -> bool:
        """Are the ruleset's kinds all plain ones (see :meth:`plain_kinds`)?"""
        return all(
            k.shape in ("identical", "sequence")
            and k.wilds is None
            and k.short_form is None
            and k.distinguish is None
            and k.suit_step.cycle is None
            and (k.shape == "identical" or k.order is not None)
            and all(
                not kr.role.wild
                and kr.role.suits is None
                and kr.role.ranks is None
                and kr.role.requires_in_meld is None
                for kr in k.roles
            )
            for k in self.rs.kinds
        )

    @cached_property
    def _rank_place(self) -> dict[tuple, int]:
        """identity -> its rank's place in its suit."""
        return {ident: self.suit_ranks[ident[0]].index(ident[1]) for ident in self.identities}

    def tile_text(self, ident: tuple) -> str:
        suit, rank = ident
        if suit == "z":
            return f"{self.rs.deck.rank(rank).names[0]}"
        return f"{rank}{suit}"

    def tile_unicode(self, ident: tuple) -> str:
        suit, rank = ident
        table = UNICODE.get(suit)
        if isinstance(table, dict):
            return table.get(rank, "?")
        return table[int(rank) - 1] if isinstance(table, str) else "?"

    def format_tiles(self, faces: Sequence[Face], kanji: bool = False) -> str:
        """Tenhou compact form: 123m456p11z (a red five as 0); ``kanji``: honours as the
        document writes them, 123m456p東東."""
        order, digits, suits = self._face_print
        indices = []
        for f in faces:
            indices.append(f.index)
        indices.sort(key=order.__getitem__)  # stable: a red five keeps its place beside a five
        out, suit = [], None
        for i in indices:
            if suits[i] != suit:
                if suit is not None:
                    out.append("" if suit == "z" and kanji else suit)
                suit = suits[i]
            out.append(digits[i][kanji])
        if suit is not None:
            out.append("" if suit == "z" and kanji else suit)
        return "".join(out)

    def identities_text(self, identities: tuple[int, ...]) -> str:
        """Tiles given by identity index (a part of a reading), in tenhou form (remembered: parts
        recur)."""
        found = self._identity_texts.get(identities)
        if found is None:
            plain, idents = self.plain, self.identities
            found = self.format_tiles([plain[idents[i]] for i in identities])
            _bounded(self._identity_texts, identities, found)
        return found

    @cached_property
    def _face_print(self) -> tuple[list[int], list[tuple[str, str]], list[str]]:
        """Face index -> its place in printed order (suit, then rank), its digit (plain, kanji)
        and its suit."""
        order: list[int] = []
        digits: list[tuple[str, str]] = []
        suits: list[str] = []
        for face in self.rs.deck.faces:
            suit, rank = ident = self.identity(face)
            rank_key = self.suit_ranks[suit].index(rank)
            order.append(self.suits.index(suit) * len(self.identities) + rank_key)
            suits.append(suit)
            if suit == "z":
                digits.append((str(rank_key + 1), rank))
            else:
                digit = "0" if face.cls != self._plain_class(ident) else rank
                digits.append((digit, digit))
        return order, digits, suits

    def format_hand(self, hand: Hand) -> str:
        parts = [self.format_tiles(hand.concealed)] if hand.concealed else []
        for m in hand.melds:
            parts.append(self.meld_text(m))
        return " ".join(parts)

    def meld_text(self, meld: DeclaredMeld, brackets: bool = True) -> str:
        """A declared meld's tiles in tenhou form, in its brackets ([..] open, (..) closed)
        unless ``brackets`` is false (remembered: melds recur)."""
        found = self._meld_texts.get(id(meld))
        if found is None or found[0] is not meld:
            body = self.format_tiles(meld.faces)
            found = (meld, f"[{body}]" if meld.open else f"({body})", body)  # holds the meld: its id is not reused
            _bounded(self._meld_texts, id(meld), found)
        return found[1] if brackets else found[2]
