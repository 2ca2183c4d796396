"""Suit cycles (相生 木→火→土→金→水→木, 相克 水→火→金→木→土→水) as NetworkX directed graphs.

A 相順 chain steps its suit one edge along a cycle per card, forward or backward, while its rank
rises by one. The cycles are data in the ruleset (``cycles:``); here each becomes a directed
cycle graph, and :class:`SuitSteps` answers "the suit k steps from s in direction d". NetworkX is
imported only when a ruleset with cycles is compiled, and the steps a cycle gives are kept in a
small cache file (:func:`cached_steps`): a later process reads them instead of importing NetworkX,
which is most of a cold ``melds check``'s time.

>>> steps = SuitSteps.from_cycle(["木", "火", "土", "金", "水"])
>>> steps.step("金", "forward", 2), steps.step("木", "backward", 1)
('木', '水')
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from solver.core.cache import cache_dir


def cycle_graph(suits: Sequence[str]):
    """The directed cycle suits[0] → suits[1] → … → suits[0]."""
    import networkx as nx

    graph = nx.DiGraph()
    nx.add_cycle(graph, list(suits))
    return graph


@dataclass(frozen=True)
class SuitSteps:
    successor: dict
    predecessor: dict

    @staticmethod
    def from_graph(graph) -> SuitSteps:
        for node in graph.nodes:
            if graph.out_degree(node) != 1 or graph.in_degree(node) != 1:
                raise ValueError(f"suit {node!r} is not on a simple cycle")
        return SuitSteps(
            {n: next(iter(graph.successors(n))) for n in graph.nodes},
            {n: next(iter(graph.predecessors(n))) for n in graph.nodes},
        )

    @staticmethod
    def from_cycle(suits: Sequence[str]) -> SuitSteps:
        return cached_steps(suits)

    def step(self, suit: str, direction: str, k: int) -> str:
        table = self.successor if direction == "forward" else self.predecessor
        for _ in range(k):
            suit = table[suit]
        return suit


def cached_steps(suits: Sequence[str]) -> SuitSteps:
    """The steps of a cycle, from the cache when this cycle (and this module) made them before;
    else from its NetworkX graph, then kept. A cache that cannot be read or written is passed by."""
    code = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]  # a changed module: new entries
    key = f"{code}:{json.dumps(list(suits), ensure_ascii=False)}"
    folder = cache_dir()
    path = folder / "cycles.json" if folder else None
    known: dict = {}
    if path is not None:
        try:
            known = json.loads(path.read_text(encoding="utf-8"))
            entry = known[key]
            return SuitSteps(dict(entry["successor"]), dict(entry["predecessor"]))
        except (OSError, ValueError, KeyError, TypeError):
            pass
    steps = SuitSteps.from_graph(cycle_graph(suits))
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            known = {k: v for k, v in known.items() if k.startswith(code)} if isinstance(known, dict) else {}
            known[key] = {"successor": steps.successor, "predecessor": steps.predecessor}
            temporary = path.with_suffix(f".{os.getpid()}.tmp")
            temporary.write_text(json.dumps(known, ensure_ascii=False), encoding="utf-8")
            temporary.replace(path)  # whole or not at all, whoever else writes it
        except OSError:
            pass
    return steps
