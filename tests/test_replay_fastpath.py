"""The replay's counted table (solver/games/mahjong/fastpath.py) against the full judge.

A replay takes the common actions — draw, discard, riichi, chi, pon and the pass after a discard —
on a table of tile counts, and leaves every other action, and every one the table is unsure of,
to the moves (:class:`~solver.games.mahjong.moves.MahjongMoves`). Three checks that this changes
no verdict, on riichienv's self-play games (tests/selfplay.py), four and three players:

* every action the table takes is judged by the moves too, from the same position: it must be
  legal there, and leave the position the moves leave (the state shown from the counts equal to
  the moves' state); an action the table declines leaves it as it was;
* at positions along the way, random actions — of any seat, any tile, legal or not — are offered
  to a table built from the moves' state: whatever it takes, the moves allow, with the same state;
* the whole replay, with the table and with every action judged by the moves, gives the same
  report, for the games as played and for copies with an illegal discard or a moved payment.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest

pytest.importorskip("riichienv")

from selfplay import BRAWLER, DEFAULT, EAGER, write_games, write_log  # noqa: E402

import solver.games.mahjong.replay as replay_module  # noqa: E402
from solver.core.logs import read_text, replay_text  # noqa: E402
from solver.games.mahjong.fastpath import CountedTable  # noqa: E402

VERBS = ("draw", "discard", "riichi", "chi", "pon", "pass")


def _text(players: tuple[str, ...], name: str, args: tuple) -> str:
    """The moves' notation of a counted table's call (the replay's own, HandReplay._action)."""
    if name == "pass_":
        return "pass"
    if name == "take":
        seat, verb, tile, own = (*args, ())[:4]
    else:
        seat, tile, verb, own = args[0], args[1], name, ()
    if verb in ("chi", "pon"):
        return f"{players[seat]}: {verb} {''.join(own)}"
    return f"{players[seat]}: {verb} {tile}"


class Witness:
    """Wraps the counted table's actions: each one taken is judged by the moves as well."""

    def __init__(self, offers: int = 0, seed: int = 0):
        self.taken = self.declined = self.offered = self.offers_taken = 0
        self.offers, self.rng = offers, random.Random(seed)
        self.depth = 0  # take() calls draw() and discard(): those are checked once, as take's

    def install(self, monkeypatch) -> None:
        for name in ("draw", "discard", "take", "pass_"):
            monkeypatch.setattr(CountedTable, name, self._checked(name, getattr(CountedTable, name)))
        monkeypatch.setattr(CountedTable, "run", self._checked_run(CountedTable.run))

    def _checked_run(self, original: Callable) -> Callable:
        """The table's run of draws and discards, one move at a time, each checked (the pass
        before a draw as a pass of its own)."""

        def checked(table: CountedTable, moves: list, k: int, dealer: int) -> int:
            if self.depth:
                return original(table, moves, k, dealer)
            while k < len(moves):
                move = moves[k]
                if move.verb == "draw" and table.step == "call" and not table.pass_():
                    return k
                seat = (move.seat - dealer) % table.n
                wrapped = self._checked(move.verb, lambda t, *_, one=move: original(t, [one], 0, dealer) == 1)
                if not wrapped(table, seat, move.tile):
                    return k
                k += 1
            return k

        return checked

    def _checked(self, name: str, original: Callable) -> Callable:
        def checked(table: CountedTable, *args):
            if self.depth:
                return original(table, *args)
            before = table.state()
            self._offer(table, before)
            self.depth += 1
            try:
                taken = original(table, *args)
            finally:
                self.depth -= 1
            if taken:
                self.taken += 1
                _same_as_the_moves(table, before, _text(table.players, name, args))
            else:
                self.declined += 1
                assert table.state() == before, f"{name}{args}: declined, yet the table changed"
            return taken

        return checked

    def _offer(self, table: CountedTable, before) -> None:
        """Random actions offered to a table built from the moves' state ``before``."""
        rules = table.rules
        for _ in range(self.offers):
            fresh = CountedTable.of_state(rules, before)
            if fresh is None:
                return
            assert _tiles_in_order(fresh.state(), rules.moves) == _tiles_in_order(before, rules.moves)
            assert fresh.state().but(hands={}) == before.but(hands={}), "a table built from a state shows another"
            seat = self.rng.randrange(fresh.n)
            verb = self.rng.choice(VERBS)
            tile = self.rng.choice(rules.texts)
            held = [rules.texts[i] for i, count in enumerate(fresh.faces[seat]) for _ in range(count)]
            own = tuple(self.rng.sample(held, 2)) if len(held) >= 2 else ()
            self.depth += 1
            try:
                taken = fresh.pass_() if verb == "pass" else fresh.take(seat, verb, tile, own)
            finally:
                self.depth -= 1
            self.offered += 1
            if taken:
                self.offers_taken += 1
                args = () if verb == "pass" else (seat, verb, tile, own)
                _same_as_the_moves(fresh, before, _text(fresh.players, "pass_" if verb == "pass" else "take", args))


def _same_as_the_moves(table: CountedTable, before, action: str) -> None:
    judgement = table.rules.moves.judge(before, action, describe=False)
    assert judgement.legal, f"the counted table took {action!r}; the moves forbid it: {judgement.reasons}"
    shown, moves = table.state(), table.rules.moves
    assert _tiles_in_order(shown, moves) == _tiles_in_order(judgement.state, moves), action
    assert shown.but(hands={}) == judgement.state.but(hands={}), (action, shown.flags, judgement.state.flags)


def _tiles_in_order(state, moves) -> dict:
    """Each hand's tiles, sorted (a hand's text keeps its tiles in the order they came: a red five
    drawn after a five is written after it, by the moves, and before it from the counts)."""
    out = {}
    for seat in state.players:
        hand = moves.hand(state, seat)
        out[seat] = (sorted(f.index for f in hand.concealed), hand.melds)
    return out


def _reports(paths: list[Path]) -> list[dict]:
    out = []
    for path in paths:
        for report in replay_text(str(path), read_text(path)):  # a fault raised, not reported
            data = report.to_json(with_hands=False)
            data.pop("seconds", None)
            data["hand_reports"] = [{k: v for k, v in h.to_json().items() if k != "seconds"} for h in report.hands]
            out.append(data)
    return out


def _agree(paths: list[Path]) -> int:
    hands = 0
    for path in paths:
        for report in replay_text(str(path), read_text(path)):  # a fault raised, not reported
            assert report.status == "agree", (path.name, report.status, report.error, report.problems)
            hands += len(report.hands)
    return hands


@pytest.fixture(scope="module")
def games(tmp_path_factory) -> list[Path]:
    folder = tmp_path_factory.mktemp("fastpath")
    return (
        write_games(folder, range(200, 202), "4p-red-half", DEFAULT)
        + write_games(folder, range(300, 301), "4p-red-half", EAGER)
        + write_games(folder, range(400, 401), "3p-red-half", DEFAULT)
    )


def test_every_action_the_counted_table_takes_the_moves_allow_alike(games, monkeypatch):
    witness = Witness(offers=1, seed=1)
    witness.install(monkeypatch)
    hands = _agree(games)
    assert hands > 30
    assert witness.taken > 100 * hands  # nearly every action of every hand went through the table
    assert witness.declined > 0 and witness.offers_taken > 50  # some refused, some random ones taken


def _broken(games: list[Path], folder: Path) -> list[Path]:
    """Copies with an illegal discard (a tile the seat does not hold) and a payment moved by 100."""
    events = [json.loads(line) for line in games[0].read_text(encoding="utf-8").splitlines()]
    k = next(k for k, e in enumerate(events) if e["type"] == "dahai" and k > 40)
    held = {t for e in events[:k] if e["type"] == "start_kyoku" for t in e["tehais"][events[k]["actor"]]}
    events[k]["pai"] = next(t for t in ("C", "F", "P", "N", "W", "S", "E", "9s", "1s") if t not in held)
    moved = [json.loads(line) for line in games[1].read_text(encoding="utf-8").splitlines()]
    win = next(e for e in moved if e["type"] == "hora")
    payer = next(s for s, d in enumerate(win["deltas"]) if d < 0)
    win["deltas"][payer] -= 100
    win["deltas"][win["actor"]] += 100
    return [write_log(folder / "illegal.mjson", events), write_log(folder / "moved.mjson", moved)]


def test_the_replay_says_the_same_with_the_counted_table_and_without(games, tmp_path, monkeypatch):
    paths = games + _broken(games, tmp_path)
    counted = _reports(paths)
    statuses = [r["status"] for r in counted]
    assert statuses[-2:] == ["illegal", "mismatch"] and set(statuses[:-2]) == {"agree"}
    monkeypatch.setattr(replay_module, "fast_rules", lambda moves: None)  # every action judged by the moves
    assert _reports(paths) == counted


@pytest.mark.slow
@pytest.mark.parametrize(
    ("mode", "policy", "first", "count"),
    [
        ("4p-red-half", DEFAULT, 60_000, 400),
        ("4p-red-half", EAGER, 61_000, 300),
        ("3p-red-half", DEFAULT, 62_000, 300),
        ("4p-red-half", BRAWLER, 63_000, 100),
    ],
    ids=["4p-default", "4p-eager", "3p-default", "4p-brawler"],
)
def test_a_thousand_games_judged_twice(mode, policy, first, count, tmp_path, monkeypatch):
    """1,100 games in all (the brawler's calls are the table's chi and pon): every action the counted
    table takes judged by the moves as well (and a random action offered at each position), and the
    reports with and without the table the same."""
    paths = write_games(tmp_path, range(first, first + count), mode, policy, gz=True)
    counted = _reports(paths)
    witness = Witness(offers=1, seed=first)
    with monkeypatch.context() as patch:
        witness.install(patch)
        assert _agree(paths) > 8 * count
    assert witness.offers_taken > count
    monkeypatch.setattr(replay_module, "fast_rules", lambda moves: None)
    assert _reports(paths) == counted
