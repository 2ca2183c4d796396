"""What a sequence laid out on the table can read as, seen without SAT.

A table meld's cards are in table order, and a sequence must read left to right or right to left
(:meth:`~solver.melding.meld.checker.MeldChecker.check` with ``ordered``). Its kind's model
(:meth:`~solver.melding.meld.encode.KindModel._sequence`) then places the card at offset ``i`` at
the identity a start, a first suit and a direction give that offset — (the suit ``i`` steps
along the kind's cycle from the first, the rank ``i`` places after the start). So a layout that
no start, first suit and direction read — each card an identity one of its roles allows — has no
reading; and in any reading, the cards whose identity there is natural to none of their roles at
that size are wild. A table search tries thousands of layouts, nearly all of them no meld
(97 % in a large turn, most of them 相順 chains): this look rules most of them out before a SAT
call, and bounds the wilds of the rest.

A group is looked at the same way, order aside: its cards share one rank (and, for an
``identical`` kind, one suit; for a ``distinct`` group, each card a suit of its own), so cards
whose roles allow no common rank — or too few suits at each — read as no group of the kind.
Layouts an operation on one's own meld makes may become any kind (付け札 "own"), and most of
them are no meld: this answers them without the model too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from solver.core.deck import Face
from solver.core.rules import MeldKind
from solver.melding.meld.candidates import identity_options
from solver.melding.meld.cycles import SuitSteps
from solver.melding.meld.gate import RoleGate
from solver.melding.meld.lines import kind_lines


class LayoutLines:
    """The readings of sequence layouts by offset, per kind and size (cached), and what each card's
    roles allow it at each offset (cached).

    The windows of a kind and size are numbered, and a set of windows is an int with one bit per
    window: per card and offset, the windows whose identity there the card's roles allow (and
    those where it is natural), so the windows that read a layout are one AND per card — a table
    search asks this of hundreds of thousands of layouts."""

    def __init__(self, gate: RoleGate, steps: Callable[[MeldKind], SuitSteps | None]):
        self.gate = gate
        self.steps = steps
        self._windows: dict[tuple[str, int], list[dict[tuple, int]] | None] = {}
        self._masks: dict[tuple, dict] = {}  # (kind, size, params) -> face -> per offset (allowed, natural)
        self._suits_by_rank: dict[tuple, dict] = {}  # (kind, params) -> face -> rank -> suits (a bit each)
        self._identities: dict[tuple, dict] = {}  # (kind, face) -> identity_options (no parameters)
        self._window_faces: dict[tuple[str, int], list[dict[int, int]]] = {}  # per offset: window -> faces
        self._identity_faces: dict[str, dict[tuple[str, int], int]] = {}  # group: (rank, suit) -> faces
        self._playing_faces: dict[tuple[str, int], int] = {}  # (kind, size) -> the faces its roles play

    def least_wilds(self, kind: MeldKind, faces: Sequence[Face], params: Mapping | None) -> int | None:
        """For ``faces`` laid out in this order as ``kind``: None when no start, first suit and
        direction read them (left to right or right to left), else the fewest cards any
        reading makes wild. 0 (nothing known) for a kind not looked at so: not a sequence, a
        short form, no window this long, parameters that are no key."""
        ways = self.least_wilds_each_way(kind, faces, params)
        if ways is None:
            return 0
        known = [least for least in ways if least is not None]
        return min(known) if known else None

    def least_wilds_each_way(
        self, kind: MeldKind, faces: Sequence[Face], params: Mapping | None
    ) -> tuple[int | None, int | None] | None:
        """:meth:`least_wilds` for each way the layout may read: (left to right, right to left),
        the order of the kind model's layouts (:meth:`~solver.melding.meld.encode.KindModel.layout`,
        not reversed, then reversed). None in a place: no reading that way, so the model need
        not be asked it. None for the whole: a kind not looked at so (see :meth:`least_wilds`)."""
        if kind.shape != "sequence" or kind.order is None or kind.short_form or kind.suit_step.free:
            return None  # a run of any colours has no lines of identities to read along
        key_params = params_key(params)
        if key_params is False:
            return None
        n = len(faces)
        windows = self._windows_of(kind, n)
        if windows is None:
            return None  # no window this long: the model's size rule speaks
        known = self._masks_known(kind, n, key_params)
        masks = [known.get(face) or self._card_masks_kept(known, kind, face, params, windows) for face in faces]
        return _least(masks, n, False), _least(masks, n, True)

    def may_be_natural(self, kind: MeldKind, faces: Sequence[Face], at: int) -> bool | None:
        """May the card at ``at`` of the layout be natural in a reading of ``kind`` (no parameters)?
        False when no window that reads the layout, either way, gives it an identity natural to
        one of its roles at this size: in every reading it is then wild. None: a kind not looked
        at so (see :meth:`least_wilds_each_way`)."""
        if kind.shape != "sequence" or kind.order is None or kind.short_form or kind.suit_step.free:
            return None
        n = len(faces)
        windows = self._windows_of(kind, n)
        if windows is None:
            return None
        known = self._masks_known(kind, n, None)
        masks = [known.get(face) or self._card_masks_kept(known, kind, face, None, windows) for face in faces]
        for reverse in (False, True):
            open_windows = -1
            for i, card in enumerate(masks):
                open_windows &= card[n - 1 - i if reverse else i][0]
            if open_windows & masks[at][n - 1 - at if reverse else at][1]:
                return True
        return False

    def _windows_of(self, kind: MeldKind, n: int) -> list[dict[tuple, int]] | None:
        """:meth:`_offset_windows`, remembered."""
        key = (kind.id, n)
        if key not in self._windows:
            self._windows[key] = self._offset_windows(kind, n)
        return self._windows[key]

    def _masks_known(self, kind: MeldKind, n: int, key_params) -> dict:
        """The cards' masks remembered for a kind, size and parameters (:meth:`_card_masks_kept`)."""
        known = self._masks.get((kind.id, n, key_params))
        if known is None:
            known = self._masks[(kind.id, n, key_params)] = {}
        return known

    def _card_masks_kept(
        self, known: dict, kind: MeldKind, face: Face, params: Mapping | None, windows: list[dict[tuple, int]]
    ) -> list[tuple[int, int]]:
        """:meth:`_card_masks`, kept in ``known`` (the callers look there first: the hot loops)."""
        found = known[face] = self._card_masks(kind, face, params, windows, len(windows))
        return found

    def _suits_of(self, kind: MeldKind, key_params, face: Face, params: Mapping | None) -> dict[str, int]:
        """:meth:`_card_suits_by_rank`, remembered per kind and parameters."""
        known = self._suits_by_rank.get((kind.id, key_params))
        if known is None:
            known = self._suits_by_rank[(kind.id, key_params)] = {}
        found = known.get(face)
        if found is None:
            found = known[face] = self._card_suits_by_rank(kind, face, params)
        return found

    def faces_that_may_fill(
        self,
        kind: MeldKind,
        layout: Sequence[Face | None],
        hole: int,
        faces: Sequence[Face],
        can_play: Callable[[MeldKind, Face, int], bool],
    ) -> int:
        """The faces (a bit per face index) that some window of ``kind`` reads at ``hole`` of
        ``layout`` (one way or the other) with the layout's other cards: every face ``c`` for
        which :meth:`least_wilds_each_way` of the layout with ``c`` there is not (None, None)
        is among them; of a group, those :meth:`group_may_read` may let through. ``faces``: the
        deck's. A kind not looked at so (a short form): the faces ``can_play`` says its roles
        play at all, if they play the others."""
        n = len(layout)
        if kind.shape in ("group", "identical"):
            fill = self._group_fill(kind, layout, hole, faces)
            if fill is not None:
                return fill
        windows = None
        if kind.shape == "sequence" and kind.order is not None and not kind.short_form and not kind.suit_step.free:
            windows = self._windows_of(kind, n)
        if windows is None:
            if not all(can_play(kind, face, n) for i, face in enumerate(layout) if i != hole and face is not None):
                return 0
            return self._playing(kind, n, faces, can_play)
        fillers = self._window_faces.get((kind.id, n))
        if fillers is None:
            fillers = self._window_faces[(kind.id, n)] = self._window_fillers(kind, faces, windows, n)
        known = self._masks_known(kind, n, None)
        out = 0
        for reverse in (False, True):
            open_windows = -1
            for i, face in enumerate(layout):
                if i == hole or face is None:  # (the hole is the one card not there)
                    continue
                masks = known.get(face) or self._card_masks_kept(known, kind, face, None, windows)
                open_windows &= masks[n - 1 - i if reverse else i][0]
                if not open_windows:
                    break
            at = fillers[n - 1 - hole if reverse else hole]
            for bit in _bits(open_windows):
                out |= at.get(bit, 0)
        return out

    def _playing(
        self, kind: MeldKind, n: int, faces: Sequence[Face], can_play: Callable[[MeldKind, Face, int], bool]
    ) -> int:
        """The faces (a bit each) ``can_play`` says some role of ``kind`` plays in a meld of ``n``."""
        mask = self._playing_faces.get((kind.id, n))
        if mask is None:
            mask = self._playing_faces[(kind.id, n)] = sum(1 << face.index for face in faces if can_play(kind, face, n))
        return mask

    def _group_fill(
        self, kind: MeldKind, layout: Sequence[Face | None], hole: int, faces: Sequence[Face]
    ) -> int | None:
        """:meth:`faces_that_may_fill` for a group: the faces with a rank every other card may
        take and, at it, a suit the others leave (a distinct group: each card a suit of its own;
        an identical kind: the one suit they all may take)."""
        others = [
            self._suits_of(kind, None, face, None) for i, face in enumerate(layout) if i != hole and face is not None
        ]
        if not others:
            return None  # the card alone
        by_identity = self._identity_faces.get(kind.id)
        if by_identity is None:  # (rank, suit bit) -> the faces that may be it
            by_identity = self._identity_faces[kind.id] = {}
            for face in faces:
                for rank, suits in self._suits_of(kind, None, face, None).items():
                    for bit in _bits(suits):
                        by_identity[(rank, bit)] = by_identity.get((rank, bit), 0) | (1 << face.index)
        out = 0
        for rank in _shared_ranks(others):
            suit_sets = [ranks[rank] for ranks in others]
            if kind.shape == "identical":
                left = _common(suit_sets)
            else:
                left = (1 << len(kind.suits)) - 1
                if kind.distinct:  # a suit the others can all do without
                    left = sum(bit for bit in _bits(left) if _own_suit_each([a & ~bit for a in suit_sets]))
            for bit in _bits(left):
                out |= by_identity.get((rank, bit), 0)
        return out

    def _window_fillers(
        self, kind: MeldKind, faces: Sequence[Face], windows: list[dict[tuple, int]], n: int
    ) -> list[dict[int, int]]:
        """Per offset, per window (its bit): the faces whose roles allow them there (a bit each)."""
        out: list[dict[int, int]] = [{} for _ in range(n)]
        known = self._masks_known(kind, n, None)
        for face in faces:
            masks = known.get(face) or self._card_masks_kept(known, kind, face, None, windows)
            for offset, (allowed, _) in enumerate(masks):
                for bit in _bits(allowed):
                    out[offset][bit] = out[offset].get(bit, 0) | (1 << face.index)
        return out

    def group_may_read(self, kind: MeldKind, faces: Sequence[Face], params: Mapping | None) -> bool | None:
        """For a group kind: False when no rank is one every card's roles allow (with one suit for
        all, for an ``identical`` kind; with a suit of its own for each card, for a ``distinct``
        one) — then the kind's model cannot read the cards. None: a kind not looked at so (a
        sequence, or parameters that are no key). True: perhaps (wild limits and the rest are the
        model's to say)."""
        ranks = self.group_ranks(kind, faces, params)
        return None if ranks is None else bool(ranks)

    def group_least_wilds(
        self, kind: MeldKind, faces: Sequence[Face], ranks: Sequence[str], params: Mapping | None
    ) -> int:
        """For a group kind and the ranks that may read the cards (:meth:`group_ranks`): the
        fewest cards any reading makes wild — at the best of those ranks, the cards natural there
        to none of their roles at this size (as :meth:`least_wilds_each_way` for a sequence).
        0: nothing known."""
        if not ranks:
            return 0
        n = len(faces)
        naturals = (
            [identity_options(kind, face, self.gate, params) for face in faces]
            if params
            else [self._naturals(kind, face) for face in faces]
        )
        return min(
            sum(not any(r == rank and n in sizes for (_, r), sizes in options.items()) for options in naturals)
            for rank in ranks
        )

    def _naturals(self, kind: MeldKind, face: Face) -> dict[tuple, frozenset[int]]:
        key = (kind.id, face)
        found = self._identities.get(key)
        if found is None:
            found = self._identities[key] = identity_options(kind, face, self.gate, None)
        return found

    def group_ranks(self, kind: MeldKind, faces: Sequence[Face], params: Mapping | None) -> list[str] | None:
        """The ranks at which a group kind may read the cards (see :meth:`group_may_read`); None:
        not looked at so."""
        key_params = params_key(params)
        if kind.shape not in ("group", "identical") or key_params is False:
            return None
        cards = [self._suits_of(kind, key_params, face, params) for face in faces]
        out = []
        for rank in sorted(_shared_ranks(cards)):
            suits = [card[rank] for card in cards]
            if kind.shape == "identical":
                if _common(suits):
                    out.append(rank)
            elif not kind.distinct or _own_suit_each(suits):
                out.append(rank)
        return out

    def _card_suits_by_rank(self, kind: MeldKind, face: Face, params: Mapping | None) -> dict[str, int]:
        """Per rank of the kind the card's roles allow it, the kind's suits they allow with it."""
        out: dict[str, int] = {}
        for suit, rank in identity_options(kind, face, self.gate, params):
            if rank in kind.ranks:
                out[rank] = out.get(rank, 0) | (1 << kind.suits.index(suit))
        return out

    def _card_masks(
        self, kind: MeldKind, face: Face, params: Mapping | None, windows: list[dict[tuple, int]], n: int
    ) -> list[tuple[int, int]]:
        """Per offset, the windows whose identity there the card's roles allow, and those of them
        where it is natural at this size."""
        options = identity_options(kind, face, self.gate, params)
        out = []
        for at in windows:
            allowed = natural = 0
            for ident, sizes in options.items():
                bits = at.get(ident, 0)
                allowed |= bits
                if n in sizes:
                    natural |= bits
            out.append((allowed, natural))
        return out

    def _offset_windows(self, kind: MeldKind, n: int) -> list[dict[tuple, int]] | None:
        """Every window of ``n`` offsets along the kind's lines (:func:`~solver.melding.meld.lines.kind_lines`:
        the identities a meld of the kind passes through, one line a suit, or a first suit and
        direction), numbered: per offset, identity -> the windows with that identity there (a
        bit each). None: no window this long (the model's size rule speaks)."""
        windows = set()
        for line in kind_lines(kind, self.steps(kind)):
            ids, m = line.identities, len(line.identities)
            for p in range(line.starts):
                if line.cyclic:
                    windows.add(tuple(ids[(p + i) % m] for i in range(n)))
                elif p + n <= m:
                    windows.add(ids[p : p + n])
        if not windows:
            return None
        index: list[dict[tuple, int]] = [{} for _ in range(n)]
        for w, window in enumerate(sorted(windows)):
            for i, ident in enumerate(window):
                index[i][ident] = index[i].get(ident, 0) | (1 << w)
        return index


def _least(masks: list[list[tuple[int, int]]], n: int, reverse: bool) -> int | None:
    """The fewest wilds of a window that reads the cards (``masks``, per card its windows per
    offset) one way: card i at offset i, or at offset n-1-i; None when no window does."""
    feasible = -1
    for i, card in enumerate(masks):
        feasible &= card[n - 1 - i if reverse else i][0]
        if not feasible:
            return None
    least = n
    while feasible and least:
        bit = feasible & -feasible
        feasible ^= bit
        wild = sum(not card[n - 1 - i if reverse else i][1] & bit for i, card in enumerate(masks))
        least = min(least, wild)
    return least


def params_key(params: Mapping | None) -> tuple | None | bool:
    """Query parameters as a key of a cache or memo; False: a value that cannot be one."""
    try:
        key = tuple(sorted(params.items())) if params else None
        hash(key)
    except TypeError:
        return False
    return key


def _shared_ranks(cards: list[dict[str, int]]) -> set[str]:
    """The ranks every card may take (each card: its suits by rank, :meth:`_card_suits_by_rank`)."""
    shared = set(cards[0])
    for ranks in cards[1:]:
        shared &= ranks.keys()
    return shared


def _common(suits: list[int]) -> int:
    """The suits (a bit each) every card allows."""
    common = -1
    for allowed in suits:
        common &= allowed
    return common


def _own_suit_each(suits: list[int]) -> bool:
    """Can each card (its allowed suits, a bit each) take a suit no other card takes? A matching
    by augmenting paths (a meld is a handful of cards)."""
    owner: dict[int, int] = {}  # suit bit -> card

    def place(card: int, tried: int) -> bool:
        free = suits[card] & ~tried
        while free:
            bit = free & -free
            free ^= bit
            tried |= bit
            if bit not in owner or place(owner[bit], tried):
                owner[bit] = card
                return True
        return False

    return all(place(card, 0) for card in range(len(suits)))


def _bits(mask: int):
    """The set bits of a mask, one at a time."""
    while mask:
        bit = mask & -mask
        mask ^= bit
        yield bit
