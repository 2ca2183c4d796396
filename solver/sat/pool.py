"""Variables: plain integers from a counter, named ones remembered by key."""

from __future__ import annotations

from collections.abc import Hashable


class VarPool:
    """Variables numbered from 1. ``new()`` gives an anonymous one; ``id(key)`` the variable of a
    key, made on first use (a dict of keys beats python-sat's IDPool in the hot loops)."""

    def __init__(self, start: int = 1):
        self.top = start - 1
        self.named: dict[Hashable, int] = {}

    def new(self) -> int:
        self.top += 1
        return self.top

    def id(self, key: Hashable) -> int:
        lit = self.named.get(key)
        if lit is None:
            lit = self.named[key] = self.new()
        return lit

    def __call__(self, *key: Hashable) -> int:
        return self.id(key)

    def reserve(self, top: int) -> None:
        """Variables up to ``top`` are taken (by an encoding that numbered its own)."""
        self.top = max(self.top, top)
