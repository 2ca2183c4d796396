"""Games played by riichienv (an independent engine, the ``test`` extra) with a simple policy, as
mjai logs for ``melds replay`` to check (tests/test_replay_selfplay.py, bench/replay.py).

The default policy takes a legal win most of the time, declares riichi often, calls sometimes,
declares 九種九牌 and 北抜き now and then, and otherwise discards a tile that leaves the lowest
shanten (tests/shanten_helper.py; ties broken by its random generator). ``eager`` wins whenever it
can and calls more; ``brawler`` plays another game: it calls nearly every time it may, declares
every riichi and kan and sets every 北 aside, wins only by tsumo (every ron let go by, so furiten
is common), and now and then discards a tile at random. Everything a policy does comes from the
seed, so a game is the same every time it is played from the same seed.

    python tests/selfplay.py OUT_DIR --games 100 [--first-seed 0] [--mode 4p-red-half] [--policy eager] [--gz]
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from shanten_helper import shanten

MODES = ("4p-red-half", "3p-red-half")


@dataclass(frozen=True)
class Policy:
    """How often the player takes each kind of chance (probabilities)."""

    win: float = 0.9
    ron: float | None = None  # a ron's chance, when not the same as a tsumo's (win)
    riichi: float = 0.8
    call: float = 0.3
    kan: float = 0.5
    kyushu: float = 0.5
    kita: float = 0.9
    stray: float = 0.0  # the chance of a discard chosen at random rather than for shanten
    name: str = "default"


DEFAULT = Policy()
EAGER = Policy(win=1.0, riichi=0.5, call=0.7, kan=0.9, kyushu=0.1, kita=1.0, name="eager")
BRAWLER = Policy(win=1.0, ron=0.0, riichi=1.0, call=0.95, kan=1.0, kyushu=0.0, kita=1.0, stray=0.15, name="brawler")
POLICIES = {p.name: p for p in (DEFAULT, EAGER, BRAWLER)}


def _counts(tiles: Iterable[int]) -> list[int]:
    counts = [0] * 34
    for t in tiles:
        counts[t // 4] += 1
    return counts


class Player:
    def __init__(self, policy: Policy, rng: random.Random):
        self.policy, self.rng = policy, rng

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def act(self, observation, actions: list):
        from riichienv import ActionType  # noqa: PLC0415 - the test extra

        by_type: dict = {}
        for a in actions:
            by_type.setdefault(a.action_type, []).append(a)
        p = self.policy
        for kind, chance in (
            (ActionType.TSUMO, p.win),
            (ActionType.RON, p.win if p.ron is None else p.ron),
            (ActionType.RIICHI, p.riichi),
            (ActionType.KYUSHU_KYUHAI, p.kyushu),
            (ActionType.KITA, p.kita),
            (ActionType.ANKAN, p.kan),
            (ActionType.KAKAN, p.kan),
            (ActionType.DAIMINKAN, p.call * p.kan),
            (ActionType.PON, p.call),
            (ActionType.CHI, p.call),
        ):
            if kind in by_type and self.chance(chance):
                return self.rng.choice(by_type[kind])
        if p.stray and ActionType.DISCARD in by_type and self.chance(p.stray):  # drawn only when the policy strays
            return self.rng.choice(by_type[ActionType.DISCARD])
        if ActionType.DISCARD in by_type:
            return self.discard(observation, by_type[ActionType.DISCARD])
        if ActionType.PASS in by_type:
            return by_type[ActionType.PASS][0]
        return self.rng.choice(actions)

    def discard(self, observation, discards: list):
        """A discard that leaves the fewest shanten (declared melds counted from the hand's size)."""
        hand = list(observation.hand)
        declared = (14 - len(hand)) // 3
        best, choices = None, []
        for action in discards:
            rest = list(hand)
            if action.tile in rest:
                rest.remove(action.tile)
            value = shanten(_counts(rest), declared)
            if best is None or value < best:
                best, choices = value, [action]
            elif value == best:
                choices.append(action)
        return self.rng.choice(choices)


def play(seed: int, mode: str = "4p-red-half", policy: Policy = DEFAULT, max_steps: int = 20000) -> list[dict]:
    """One game from a seed: the engine's mjai log (a list of events)."""
    from riichienv import GameRule, RiichiEnv  # noqa: PLC0415 - the test extra

    env = RiichiEnv(game_mode=mode, seed=seed, rule=GameRule.default_tenhou())
    players = [Player(policy, random.Random(seed * 10 + k)) for k in range(4)]
    observations = env.reset()
    for _ in range(max_steps):
        if env.done():
            break
        chosen = {}
        for pid, observation in observations.items():
            actions = observation.legal_actions()
            if actions:
                chosen[pid] = players[pid].act(observation, actions)
        observations = env.step(chosen)
    else:
        raise RuntimeError(f"seed {seed}: the game did not end in {max_steps} steps")
    return list(env.mjai_log)


def write_log(path: Path, events: list[dict]) -> Path:
    """An mjai log: one JSON object a line (gzipped when the name ends in .gz)."""
    text = "".join(json.dumps(e, ensure_ascii=False, separators=(",", ":")) + "\n" for e in events)
    if path.name.endswith(".gz"):
        path.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
    else:
        path.write_text(text, encoding="utf-8")
    return path


def write_games(
    folder: Path, seeds: Iterable[int], mode: str = "4p-red-half", policy: Policy = DEFAULT, gz: bool = False
) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    tag = "4p" if mode.startswith("4") else "3p"
    suffix = ".mjson.gz" if gz else ".mjson"
    return [
        write_log(folder / f"selfplay-{tag}-{policy.name}-{seed:06d}{suffix}", play(seed, mode, policy))
        for seed in seeds
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--mode", choices=MODES, default="4p-red-half")
    parser.add_argument("--policy", choices=sorted(POLICIES), default="default")
    parser.add_argument("--gz", action="store_true")
    args = parser.parse_args()
    policy = POLICIES[args.policy]
    seeds = range(args.first_seed, args.first_seed + args.games)
    for k, seed in enumerate(seeds, 1):
        write_games(args.out, [seed], args.mode, policy, args.gz)
        if k % 100 == 0 or k == args.games:
            print(f"{k}/{args.games} games", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
