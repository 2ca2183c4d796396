"""A hand's candidate melds walked with its free wilds as tokens (solver/melding/meld/wildtokens.py)
against the same hand walked frame by frame, each wild tried at each place: the same candidates —
face multisets, the cards holding them, the kinds that read them, their fewest wilds and bound —
on hands of two decks with printed jokers and a chosen card's wilds (Indian Rummy, Okey) and
Phase 10's wilds, dealt or built from melds; and a cut joker in its own place keeps a sequence
pure."""

from __future__ import annotations

import pytest
from test_plain_turn import wild_requests

from solver.core.registry import load_game
from solver.core.ruleset import load_ruleset
from solver.melding.meld import candidates as walk


def _found(game, request: dict) -> list[tuple]:
    problem = game.problem(request)
    order = sorted(problem.hand, key=lambda f: f.index)
    rs = problem.ruleset
    found = walk.candidates(rs, order, rs.kinds, params=problem.params, gate=game.checker.gate, fewest=True) or []
    return [(c.key, c.cards, c.bound, c.kinds, c.fewest) for c in found]


def compare(ruleset: str, count: int, seed: int, monkeypatch: pytest.MonkeyPatch) -> int:
    """The token walk against the frame-by-frame walk on ``count`` hands; the kinds walked by
    tokens."""
    by_tokens = walk._walked_by_tokens
    used = []

    def counted(*args) -> bool:
        used.append(by_tokens(*args))
        return used[-1]

    for options, request in wild_requests(ruleset, count, seed):
        game = load_game(load_ruleset(ruleset, options))
        with monkeypatch.context() as patched:
            patched.setattr(walk, "_walked_by_tokens", counted)
            tokens = _found(game, request)
        with monkeypatch.context() as patched:
            patched.setattr(walk, "_walked_by_tokens", lambda *args: False)
            frames = _found(game, request)
        assert tokens == frames, request
    return sum(used)


@pytest.mark.parametrize("ruleset", ["indian-rummy", "okey", "phase-10"])
def test_the_token_walk_finds_the_frame_walks_candidates(ruleset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert compare(ruleset, 4, 46, monkeypatch) > 0


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ["indian-rummy", "okey", "phase-10"])
def test_the_token_walk_finds_the_frame_walks_candidates_many(ruleset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert compare(ruleset, 400, 4646, monkeypatch) > 0


def test_a_cut_joker_in_its_own_place_is_natural() -> None:
    """H9 under a cut D9 is wild, yet natural in H8 H9 H10: that sequence needs no wild, and with a
    printed joker it stands in where a card is missing (H7 JK H9: one wild)."""
    game = load_game(load_ruleset("indian-rummy"))
    found = {key: fewest for key, _, _, _, fewest in _found(game, {"hand": "H7 H8 H9 H10 JK SK", "indicator": "D9"})}
    faces = {game.notation.parse(c).index: c for c in ["H7", "H8", "H9", "H10", "JK", "SK"]}
    named = {tuple(sorted(faces[i] for i in key)): fewest for key, fewest in found.items()}
    assert named[("H10", "H8", "H9")]["sequence"] == 0
    assert named[("H7", "H9", "JK")]["sequence"] == 1
    assert named[("H9", "JK", "SK")]["set"] == 2  # two wilds and a king: a set of kings


@pytest.mark.parametrize(("ruleset", "hand"), [("indian-rummy", "H5 D5 S7 C9 JK HK"), ("okey", "r5 y6 k13 b1 FJ r13")])
def test_options_kept_by_what_the_roles_read_are_those_made_afresh(ruleset: str, hand: str) -> None:
    """A card's options are kept by what its roles read of the chosen card (``RoleGate.reads``): an
    Indian Rummy card only whether it is of the cut joker's rank, so one kept under one cut joker
    serves under another of that rank or any rank not its own; Okey's false joker reads the
    indicator itself. Under every chosen card, after all the others, each card's kept options are
    those made afresh, and the reads tell a related card from an unrelated one."""
    game = load_game(load_ruleset(ruleset))
    gate, kinds = game.checker.gate, game.checker.ruleset.kinds
    chosen = [f for f in game.checker.ruleset.deck.faces if f.suit is not None and f.rank is not None]
    for indicator in chosen:
        problem = game.problem({"hand": hand, "indicator": game.notation.format(indicator)})
        params, pool = problem.params, list(problem.hand)
        for kind in kinds:
            kept = walk._options(kind, pool, gate, params, walk._known_options(params))
            assert kept == [walk.identity_options(kind, face, gate, params) for face in pool], (indicator, kind.id)
    first = game.notation.parse(hand.split()[0])
    kind = kinds[0]
    reads = {
        spelled: gate.reads(kind, first, game.problem({"hand": hand, "indicator": spelled}).params)
        for spelled in [game.notation.format(f) for f in chosen]
    }
    assert len(set(reads.values())) >= 2  # related to some chosen cards, not to others


def test_a_frame_of_wilds_alone_is_found_once_its_token_moves_nowhere(monkeypatch: pytest.MonkeyPatch) -> None:
    """Four wilds (two printed jokers, two cards of the cut joker's rank) and few naturals: the
    token walk skips a frame opening with a token where another window holds it with the token at
    its end, yet keeps the melds of wilds alone; its candidates are the frame walk's."""
    game = load_game(load_ruleset("indian-rummy"))
    request = {"hand": "JK JK H9 D9 S2 S4 CK CA H5 D7", "indicator": "C9"}
    tokens = _found(game, request)
    with monkeypatch.context() as patched:
        patched.setattr(walk, "_walked_by_tokens", lambda *args: False)
        assert _found(game, request) == tokens
    wild = {game.notation.parse(c).index for c in ["JK", "H9", "D9"]}
    alone = [kinds for key, _, _, kinds, _ in tokens if len(key) == 3 and set(key) <= wild]
    assert alone and all(kinds == {"sequence", "set"} for kinds in alone)  # three of the wilds: either kind
