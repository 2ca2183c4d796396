"""Mahjong puzzles: "what are the waits", "which discard is best", "what does each discard do"
(何切る), "what does this hand score".

Same file format as the other puzzles (``rulesets/puzzle.schema.json``, docs/puzzle-format.md),
with ``question: waits | best-discard | discards | score``, the hand in tenhou notation and, for a
score, a ``win:`` section. The best discard is the one that leaves the hand tenpai on the most
tiles still unseen (four of each, less those in the hand); every discard that reaches it is an
answer. ``discards`` asks the whole table: each discard's shanten and the draws that lower it,
with the copies left after the hand and the puzzle's ``visible`` tiles and ``dora_indicators``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from solver.core.errors import ExitCode, Location, MeldsError
from solver.core.files import Document
from solver.core.yamlload import line_of
from solver.games.mahjong.distance import discard_table
from solver.games.mahjong.facts import check_win
from solver.games.mahjong.hands import Mahjong
from solver.games.mahjong.present import discards_json, ident_json, score_json
from solver.games.mahjong.scoring import Scorer, win_from_facts
from solver.games.mahjong.shanten import ShantenTables

QUESTIONS = ("waits", "best-discard", "discards", "score")


def is_mahjong_puzzle(data: Any) -> bool:
    return isinstance(data, dict) and data.get("question") in QUESTIONS


def unseen(mj: Mahjong, counts: list[int], index: int) -> int:
    """Copies of a tile not in the hand (a wait on a tile whose every copy is held counts 0)."""
    ident = mj.identities[index]
    copies = sum(mj.rs.deck.copies[f] for f in mj.rs.deck.faces if mj.identity(f) == ident)
    return max(0, copies - counts[index])


def best_discards(mj: Mahjong, hand) -> tuple[list[tuple], dict]:
    """The discards that leave the most unseen winning tiles: (discards, {discard: waits})."""
    counts = mj.counts(hand.concealed)
    by_discard = {}
    for i, n in enumerate(counts):
        if not n:
            continue
        counts[i] -= 1
        waits = mj.waits_counts(counts, len(hand.melds))
        by_discard[mj.identities[i]] = (sum(unseen(mj, counts, w) for w in waits), [mj.identities[w] for w in waits])
        counts[i] += 1
    most = max((v[0] for v in by_discard.values()), default=0)
    best = [d for d, v in by_discard.items() if v[0] == most and v[1]]
    return best, by_discard


def answer_puzzle(
    document: Document, mj: Mahjong, scorer_of: Callable[[], Scorer], tables_of: Callable[[], ShantenTables]
) -> tuple[dict, ExitCode]:
    """Answer a mahjong puzzle: (JSON result with matches/mismatches, exit code of the answer)."""
    data, path, ruleset = document.data, document.path, document.ruleset
    if not is_mahjong_puzzle(data):
        raise MeldsError(f"{path}: a mahjong puzzle asks {', '.join(QUESTIONS)} (question:)")
    hand_text = data["hand"] if isinstance(data["hand"], str) else " ".join(data["hand"])
    hand = mj.parse_hand(hand_text)
    question = data["question"]
    out: dict[str, Any] = {"puzzle": str(path), "title": document.title, "question": question, "ruleset": ruleset.id}
    if question == "waits":
        mj.require_size(hand, mj.winning_size - 1, "a waiting hand", "")
        waits = mj.waits(hand)
        out.update(tenpai=bool(waits), waits=[ident_json(mj, w) for w in waits])
        got = {"tenpai": out["tenpai"], "waits": out["waits"]}
        code = ExitCode.YES if waits else ExitCode.NO
    elif question == "best-discard":
        mj.require_size(hand, mj.winning_size, "a hand before its discard", "")
        best, by_discard = best_discards(mj, hand)
        out.update(
            best_discard=[ident_json(mj, d) for d in best],
            discards={
                ident_json(mj, d): {"unseen": v[0], "waits": [ident_json(mj, w) for w in v[1]]}
                for d, v in by_discard.items()
                if v[1]
            },
        )
        out["waits"] = [ident_json(mj, w) for w in by_discard[best[0]][1]] if best else []
        got = {"best_discard": out["best_discard"], "waits": out["waits"], "tenpai": bool(best)}
        code = ExitCode.YES if best else ExitCode.NO
    elif question == "discards":
        table = discard_table(mj, tables_of(), hand, data.get("visible"), data.get("dora_indicators"))
        out.update({**discards_json(mj, table), "puzzle": str(path), "question": question})
        got = {
            "shanten": table.shanten.value,
            "discards": [
                {
                    "discard": row["discard"],
                    "shanten": row["shanten"],
                    "ukeire_total": row["ukeire_total"],
                    "ukeire": {u["tile"]: u["left"] for u in row["ukeire"]},
                }
                for row in out["discards"]
            ],
        }
        code = ExitCode.of(table.best <= 0)
    else:
        facts = data.get("win") or {}
        if "tile" not in facts:
            raise MeldsError(f"{path}: question score needs win: {{tile: ...}}")
        scorer = scorer_of()
        players = facts.get("players", ruleset.players[1] if ruleset.players else 4)
        win = win_from_facts(scorer, facts["tile"], facts, players)
        check_win(mj, hand, win, facts, Location(str(path), line_of(data, "win"), "win"))
        score = scorer.score(hand, win)
        out.update(score_json(scorer, hand, win, score))
        out["puzzle"], out["question"] = str(path), question
        got = {
            "han": score.han,
            "fu": score.fu,
            "total": score.points.total,
            "yaku": sorted(y.name for y in score.yaku),
            "limit": score.points.limit,
            "payments": score.points.payments,
        }
        code = ExitCode.YES
    expect = data.get("expect") or {}
    problems = []
    for key, want in expect.items():
        have = got.get(key)
        if key in ("yaku", "best_discard", "waits"):
            want, have = sorted(want), sorted(have or [])
        if have != want:
            problems.append(f"{key}: expected {want}, got {have}")
    if expect:
        out.update(matches=not problems, mismatches=problems)
    return out, code
