"""A bounded memo keyed by objects' identities, for values derived from objects whose own hash is
costly (a frozen dataclass hashes every field on each lookup) or that are not hashable at all.

An object's id is its own only while it lives: the memo holds the objects it was keyed by beside the
value, so no id it stores can be reused by a newer object while the entry stands. When the memo has
``most`` entries it starts afresh (a batch shows the same few objects again and again; the rare
clearing costs one recomputation each).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

Value = TypeVar("Value")
Owner = TypeVar("Owner")


class IdentityMemo(Generic[Value]):
    """Values by the identities of their owners and a hashable key; the owners are held while
    their value is kept, so their ids stay their own."""

    __slots__ = ("_kept", "_most")

    def __init__(self, most: int) -> None:
        self._kept: dict[Hashable, tuple[tuple[object, ...], Value]] = {}  # (ids..., key), or one owner's id
        self._most = most

    def get(self, owners: tuple[object, ...], key: Hashable, make: Callable[[], Value]) -> Value:
        """The value kept for ``owners`` and ``key``, made by ``make()`` and kept on first asking."""
        slot = (*map(id, owners), key)
        kept = self._kept.get(slot)
        if kept is not None:
            return kept[1]
        if len(self._kept) >= self._most:
            self._kept.clear()
        value = make()
        self._kept[slot] = (owners, value)
        return value

    def of(self, owner: Owner, make: Callable[[Owner], Value]) -> Value:
        """The value kept for one owner alone, made by ``make(owner)`` on first asking: :meth:`get`
        with no key and no tuple or closure to build, for a value a batch reads at every line."""
        kept = self._kept.get(id(owner))
        if kept is not None:
            return kept[1]
        if len(self._kept) >= self._most:
            self._kept.clear()
        value = make(owner)
        self._kept[id(owner)] = ((owner,), value)
        return value

    def __len__(self) -> int:
        return len(self._kept)
