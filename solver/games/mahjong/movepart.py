"""The part of :class:`~solver.games.mahjong.moves.MahjongMoves` its rule modules (kans:
:mod:`solver.games.mahjong.kakan`, 北抜き: :mod:`solver.games.mahjong.nuki`) build on: the moves
of a game, with the hands, tiles and turn checks of the mahjong moves declared for them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from solver.core.moves import Action, Moves
from solver.core.state import GameState

if TYPE_CHECKING:
    from solver.core.deck import Face
    from solver.games.mahjong.hands import Hand, Mahjong
    from solver.games.mahjong.scoring import Scorer, Win


class MahjongMovePart(Moves):
    """A part of the mahjong moves (declarations only: ``MahjongMoves`` defines them)."""

    mj: Mahjong
    scorer: Scorer | None

    if TYPE_CHECKING:

        def actor(self, state: GameState, action: Action) -> str: ...

        def hand(self, state: GameState, seat: str) -> Hand: ...

        def tile(self, token: str) -> Face: ...

        def winning(self, state: GameState, seat: str, tsumo: bool) -> tuple[Hand, Win]: ...

        def _need(self, state: GameState, step: str, seat: str, what: str) -> None: ...

        def _drew(self, state: GameState, seat: str, what: str) -> None: ...

        def _drawn(self, state: GameState, hand: Hand) -> Face: ...

        def _without(self, hand: Hand, faces: Sequence[Face]) -> Hand: ...

        def _set_hand(self, state: GameState, seat: str, hand: Hand, **changes: object) -> GameState: ...

        def _judged_win(self, state: GameState, seat: str, tsumo: bool) -> None: ...

        def _missed(self, state: GameState, ident: tuple, skip: set[str | None]) -> GameState: ...

        def _calls_break_ippatsu(self, state: GameState) -> GameState: ...
