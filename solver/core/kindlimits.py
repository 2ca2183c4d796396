"""Limits a meld kind sets that no meld could meet, refused with the file and line that set them:
wild counts no meld of its sizes can hold, a run longer than its rank order allows."""

from __future__ import annotations

from typing import Any

from solver.core.reader import RuleReader
from solver.core.rules import MeldKind


def check_run_lengths(reader: RuleReader, raw: list[Any], kinds: tuple[MeldKind, ...]) -> None:
    """A run of one suit whose cards are all different holds each rank of its order once (an ace
    low and high is one card): a longer ``size.max`` names melds no deck can make."""
    for i, (k, kind) in enumerate(zip(raw, kinds, strict=True)):
        step = kind.suit_step
        if kind.shape != "sequence" or kind.order is None or not kind.distinct or step.free or step.cycle:
            continue
        ranks = len(set(kind.order.ranks))
        if kind.size_max > ranks:
            reader.fail(
                k["size"],
                "max",
                f"size.max {kind.size_max}: a {kind.label} of one suit and distinct cards holds each of the "
                f"{ranks} ranks of its order once (a rank at both ends is one card)",
                f"melds[{i}].size.max",
            )


def check_wilds(reader: RuleReader, raw: list[Any], kinds: tuple[MeldKind, ...]) -> None:
    """A kind's ``wilds:`` must be a count some meld of it can have: no more than its largest
    meld holds, the least no more than the most, and wild roles to play them."""
    for i, (k, kind) in enumerate(zip(raw, kinds, strict=True)):
        if kind.wilds is None:
            continue
        least, most = kind.wilds.least, kind.wilds.most
        path = f"melds[{i}].wilds"
        w = k["wilds"]
        if most is not None and least > most:
            reader.fail(w, "min", f"wilds.min {least} is more than wilds.max {most}", f"{path}.min")
        if least > kind.size_max:
            reader.fail(w, "min", f"wilds.min {least}: a {kind.label} has at most {kind.size_max} cards", f"{path}.min")
        if least and not any(entry.role.wild for entry in kind.roles):
            reader.fail(w, "min", f"wilds.min {least}: no role of a {kind.label} is wild", f"{path}.min")
        if kind.wilds.naturals_min > kind.size_max:
            reader.fail(
                w,
                "naturals_min",
                f"wilds.naturals_min {kind.wilds.naturals_min}: a {kind.label} has at most {kind.size_max} cards",
                f"{path}.naturals_min",
            )
        if kind.wilds.apart and kind.shape != "sequence":
            reader.fail(
                w,
                "apart",
                f"wilds.apart: only a sequence has neighbouring places; a {kind.label} is a {kind.shape}",
                f"{path}.apart",
            )
        sizes = range(kind.size_min, kind.size_max + 1)
        if not any(kind.wilds.bounds(n)[0] <= kind.wilds.bounds(n)[1] for n in sizes):
            sized = f"{kind.size_min} to {kind.size_max} cards"
            reader.fail(w, "min", f"no {kind.label} of {sized} meets these limits on its wilds", path)
