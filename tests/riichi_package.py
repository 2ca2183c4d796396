"""Random winning hands, and the same hands put to the ``mahjong`` package (test-only oracle).

A hand is built as tile types (0–33: 1m–9m, 1p–9p, 1s–9s, 東南西北白發中) so that it can be
spelled both ways: for melds as a hand string, for the package as 136-tile indices.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

HONOURS = "東南西北白發中"
SEATS = "ESWN"


def tenhou(t: int, red: bool = False) -> str:
    if t >= 27:
        return f"{t - 26}z"
    return f"{0 if red else t % 9 + 1}{'mps'[t // 9]}"


@dataclass
class Deal:
    concealed: list[int]  # tile types, winning tile included
    melds: list[tuple[str, list[int]]]  # (chi | pon | minkan | ankan, tile types)
    win: int
    red: set[int]  # tile types (4, 13, 22) of which one concealed copy is red
    tsumo: bool
    riichi: bool
    seat: str
    round_wind: str
    dora: list[int]

    @property
    def closed(self) -> bool:
        return all(kind == "ankan" for kind, _ in self.melds)

    def hand_string(self) -> str:
        concealed = []
        reds = set(self.red)
        for t in sorted(self.concealed):
            concealed.append(tenhou(t, t in reds))
            reds.discard(t)
        out = " ".join(concealed)
        for kind, tiles in self.melds:
            text = "".join(tenhou(t) for t in tiles)
            out += f" [{text}]" if kind != "ankan" else f" ({text})"
        return out


def random_deal(rng: random.Random, allowed=range(34), open_rate: float = 0.4) -> Deal:
    """A random winning hand: four melds and a pair (sometimes seven pairs), some declared."""
    allowed = list(allowed)
    while True:
        counts = [0] * 34
        groups: list[tuple[str, list[int]]] = []
        if rng.random() < 0.08 and len(allowed) >= 7:
            pairs = rng.sample(allowed, 7)
            concealed = [t for t in pairs for _ in range(2)]
            melds: list[tuple[str, list[int]]] = []
        else:
            for _ in range(4):
                if rng.random() < 0.5:
                    starts = [t for t in allowed if t < 27 and t % 9 <= 6 and t + 1 in allowed and t + 2 in allowed]
                    if starts:
                        s = rng.choice(starts)
                        groups.append(("run", [s, s + 1, s + 2]))
                        continue
                groups.append(("triplet", [rng.choice(allowed)] * 3))
            pair = rng.choice(allowed)
            concealed, melds = [pair, pair], []
            for kind, tiles in groups:
                r = rng.random()
                if r < open_rate / 2:
                    melds.append(("chi" if kind == "run" else "pon", tiles))
                elif kind == "triplet" and r < open_rate / 2 + 0.08:
                    melds.append((rng.choice(["minkan", "ankan"]), tiles + tiles[:1]))
                else:
                    concealed += tiles
        for t in concealed + [t for _, ts in melds for t in ts]:
            counts[t] += 1
        if max(counts) > 4:
            continue
        if any(counts[t] == 4 and t not in concealed for t in (4, 13, 22)):
            continue  # a declared quad of fives would hold the red five: keep reds concealed
        win = rng.choice(concealed)
        fives = [t for t in (4, 13, 22) if t in concealed and t in allowed]
        red = {t for t in fives if counts[t] == 4 or rng.random() < 0.5}
        closed = all(k == "ankan" for k, _ in melds)
        # an indicator (written plain) is a tile of the set too: no more copies than it holds
        spare = [t for t in allowed if counts[t] - (t in red) < (3 if t in (4, 13, 22) else 4)]
        return Deal(
            concealed,
            melds,
            win,
            red,
            rng.random() < 0.5,
            closed and rng.random() < 0.5,
            rng.choice(SEATS),
            rng.choice("ES"),
            rng.sample(spare, min(len(spare), rng.choice([0, 1, 2]))),
        )


def package_waits(agari, counts: list[int]) -> list[int]:
    """The package's waits, as its users compute them: is_agari for each tile not held four
    times (it has no wait call, and no fifth copy)."""
    out = []
    for t in range(34):
        if counts[t] < 4:
            counts[t] += 1
            if agari.is_agari(counts):
                out.append(t)
            counts[t] -= 1
    return out


def package_score(deal: Deal, calculator, options):
    """The mahjong package's answer for a deal: its HandResponse."""
    args, kwargs, _ = package_inputs(deal, options)
    return calculator.estimate_hand_value(*args, **kwargs)


def package_inputs(deal: Deal, options):
    """The package's inputs for a deal — (args, kwargs, total of a cost dict) — so that a
    benchmark can build them before timing."""
    from mahjong.constants import EAST
    from mahjong.hand_calculating.hand_config import HandConfig
    from mahjong.meld import Meld

    used = [0] * 34

    def take(t: int, red: bool = False) -> int:
        if t in (4, 13, 22):
            if red:
                return t * 4  # the package's red five is copy 0
            used[t] = max(used[t], 1)
        index = t * 4 + used[t]
        used[t] += 1
        return index

    reds = set(deal.red)
    concealed = []
    win_index = None
    for t in sorted(deal.concealed):
        index = take(t, t in reds)
        reds.discard(t)
        concealed.append(index)
        if t == deal.win:
            win_index = index
    melds, meld_tiles = [], []
    types = {"chi": Meld.CHI, "pon": Meld.PON, "minkan": Meld.KAN, "ankan": Meld.KAN}
    for kind, tiles in deal.melds:
        indices = [take(t) for t in tiles]
        meld_tiles += indices
        melds.append(Meld(meld_type=types[kind], tiles=indices, opened=kind != "ankan"))
    config = HandConfig(
        is_tsumo=deal.tsumo,
        is_riichi=deal.riichi,
        player_wind=EAST + SEATS.index(deal.seat),
        round_wind=EAST + SEATS.index(deal.round_wind),
        options=options,
    )
    dora = [t * 4 + 3 for t in deal.dora]

    def total(cost) -> int:
        if not deal.tsumo:
            return cost["main"]
        return cost["main"] * 3 if deal.seat == "E" else cost["main"] + 2 * cost["additional"]

    return (
        (concealed + meld_tiles, win_index),
        {"melds": melds or None, "dora_indicators": dora or None, "config": config},
        total,
    )
