"""Suit cycles (相生 木→火→土→金→水→木, 相克 水→火→金→木→土→水) as NetworkX directed graphs.

A 相順 chain steps its suit one edge along a cycle per card, forward or backward, while its rank
rises by one. The cycles are data in the ruleset (``cycles:``); here each becomes a directed
cycle graph, and :class:`SuitSteps` answers "the suit k steps from s in direction d". NetworkX is
imported only when a ruleset with cycles is compiled, to keep the command line's start quick.

>>> steps = SuitSteps.from_cycle(["木", "火", "土", "金", "水"])
>>> steps.step("金", "forward", 2), steps.step("木", "backward", 1)
('木', '水')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence


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
    def from_graph(graph) -> "SuitSteps":
        for node in graph.nodes:
            if graph.out_degree(node) != 1 or graph.in_degree(node) != 1:
                raise ValueError(f"suit {node!r} is not on a simple cycle")
        return SuitSteps({n: next(iter(graph.successors(n))) for n in graph.nodes},
                         {n: next(iter(graph.predecessors(n))) for n in graph.nodes})

    @staticmethod
    def from_cycle(suits: Sequence[str]) -> "SuitSteps":
        return SuitSteps.from_graph(cycle_graph(suits))

    def step(self, suit: str, direction: str, k: int) -> str:
        table = self.successor if direction == "forward" else self.predecessor
        for _ in range(k):
            suit = table[suit]
        return suit
