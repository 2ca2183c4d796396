"""What a :class:`~solver.games.mahjong.scoring.Scorer` holds: the tables ``Scorer.__init__``
builds and the caches its hands fill, declared once for the parts it is made of (HandReader,
YakuFinder, FuCounter, Payments), which read them (a part's own tables are declared with it)."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from solver.core.ruleset import Ruleset
    from solver.games.mahjong.hands import Mahjong
    from solver.games.mahjong.rules import MahjongScoring
    from solver.games.mahjong.win import Win


class ScorerTables:
    """The Scorer's tables (declarations only: ``Scorer.__init__`` fills them)."""

    mj: Mahjong
    rs: Ruleset
    ms: MahjongScoring
    # per tile (identity index)
    suit_rank: list[tuple[str | None, int | None]]  # its number suit and rank place, (None, None) for an honour
    suit_members: dict[str | None, list[int]]  # number suit -> its tiles (an honour's None: none)
    rank_suit: list[tuple[int | None, int]]  # its rank place and suit bit
    tile_classes: dict[str, list[bool]]  # honours, terminals, yaochu, simples, green -> per tile
    winds: list[int]
    dragons: set[int]
    dora_next: list[int]
    kind_shape: dict[str, str]  # meld kind -> run, triplet, kan, pair or single
    option_values: Mapping[str, Any]
    _hand_waits: set[str]  # shapes whose wait depends on the whole hand
    _yaochu: list[bool]
    # the hot loops' lookups
    _is_red: list[int]
    _suit_position: list[int]
    _rank_in_suit: list[int]
    _suit_ends: list[tuple[int, dict[Any, Any], int]]
    _packed_tile: list[int]
    _suit_bit: dict[str, int]
    _suit_sets: list[frozenset[str]]
    _class_mask: list[int]
    _all_classes: int
    _honour_bit: int
    _suit_of: list[str | None]
    _class_sets: list[frozenset[str]]
    # caches the hands fill
    _candidates: dict[Any, Any]
    _hand_sides: dict[Any, Any]
    _hand_facts_sides: dict[Any, Any]
    _reading_sides: dict[Any, Any]
    _side_ids: dict[Any, Any]
    _side_numbers: itertools.count[int]
    _dora_targets: dict[Any, Any]
    _suits: list[dict[Any, Any]]
    _tile_texts: dict[str, tuple[Any, ...]]
    _tiles_texts: dict[str, tuple[Any, ...]]
    _suit_tables: dict[Any, Any]
    _patterns: dict[Any, Any]
    _part_numbers_by_suit: dict[Any, Any]
    _part_table: list[Any]
    _part_packed: list[int]
    _part_touched: list[int]
    _part_honour: list[int]
    _part_wins: list[tuple[Any, ...]]
    _shapes_by_declared: dict[Any, Any]
    _declared_cache: dict[Any, Any]
    _meld_objects: dict[int, Any]
    _flag_sets: dict[Any, Any]
    _pair_fu_cache: dict[Any, Any]
    _payments: dict[Any, Any]
    _basics: dict[Any, Any]

    if TYPE_CHECKING:  # the Scorer's own methods its parts call

        def _identity_index(self, text: str) -> int: ...

        def index(self, ident: tuple[Any, ...]) -> int: ...

        def group(self, spec: Any) -> set[int]: ...

        def named_tile(self, name: str, win: Win) -> int | None: ...

        def pair_fu(self, win: Win) -> list[tuple[int, str]]: ...
