"""``melds solve -r word-rummy --discards``: for each distinct tile the hand could let go, the kana
whose draw would let the hand go out — every hand tile put into words on one turn (step 5,
「手番プレイヤーの手牌がなくなった瞬間にゲームは終了します」) with the table, loose tiles and the
player's state the solve command takes — with the copies of each left to draw.

A swap is the hand less the discarded tile plus the drawn one; whether it goes out is the turn
solver's answer (:func:`solver.games.words.turn.solve_turn`, go-out only). Swaps that end in the
same hand are asked once. Copies left are the tile set's (option ``tile-copies``) less the hand
(the discarded tile included), the ``--visible`` tiles, the table words and the loose tiles; with
no copy count (the document gives none) they are unknown, and rows rank by the kinds of kana."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from solver.games.words.tiles import Dictionary
from solver.games.words.turn import Turn, goes_out_leaving, solve_turn, turn_words
from solver.sat.budget import Budget


@dataclass(frozen=True)
class DiscardRow:
    """One tile let go and the kana whose draw then lets the hand go out."""

    discard: str
    draws: tuple[str, ...]


@dataclass
class DiscardSearch:
    """The turn solver asked once per distinct hand a swap leads to."""

    dictionary: Dictionary
    rules: Any  # the ruleset's WordGame rules
    turn: Turn
    budget: Budget
    _known: dict[str, bool] = field(default_factory=dict)
    models: int = 0  # turn models built for the swaps (a round of candidates per kana drawn, when arranging)

    def goes_out(self, hand: Sequence[str]) -> bool:
        """Does this hand go out on the turn?"""
        key = _spelling(hand)
        if key not in self._known:
            answer = solve_turn(self.dictionary, self._turn(hand), self.rules, go_out_only=True, budget=self.budget)
            self._known[key] = answer.goes_out
        return self._known[key]

    @property
    def _one_word_out(self) -> bool:
        """Only a word from the hand can take tiles this turn (no first word yet, or nothing on
        the table to arrange), and only one such word."""
        arranging = self.turn.has_word and bool(self.turn.table or self.turn.loose)
        return not arranging and self.rules.words_from_hand == 1

    def _turn(self, hand: Sequence[str]) -> Turn:
        return Turn(tuple(hand), self.turn.table, self.turn.loose, self.turn.has_word, self.turn.last_lap)

    def rows(self, kinds: Sequence[str]) -> list[DiscardRow]:
        """Each distinct hand tile (in tile-set order) and the kinds whose draw lets the hand go out."""
        hand = Counter(self.turn.hand)
        draws: dict[str, list[str]] = {discard: [] for discard in sorted(hand, key=kinds.index)}
        for kana in kinds:  # the hand with the draw, keeping back one discard each time
            drawn = hand + Counter({kana: 1})
            turn = self._turn(list(drawn.elements()))
            words = turn_words(self.dictionary, turn, self.rules)
            if self._one_word_out:
                # no arranging and one word from the hand: a hand goes out when it spells one of the
                # words the hand with the draw can put down, so each discard is a lookup
                spelled = {_spelling(w.key) for w in words.from_hand}
                for discard, found in draws.items():
                    if _spelling((drawn - Counter({discard: 1})).elements()) in spelled:
                        found.append(kana)
                continue
            keeps = [Counter({discard: 1}) for discard in draws]
            answers, built = goes_out_leaving(self.dictionary, turn, self.rules, keeps, self.budget, words)
            self.models += built
            for found, out in zip(draws.values(), answers, strict=True):
                if out:
                    found.append(kana)
        return [DiscardRow(discard, tuple(found)) for discard, found in draws.items()]


def _spelling(tiles: Iterable[str]) -> str:
    """The tiles in one order, whatever order they come in (a hand and a word compared as multisets)."""
    return "".join(sorted(tiles))


def copies_left(copies: int, seen: Counter[str], kinds: Sequence[str]) -> dict[str, int | None]:
    """Each kind's copies not seen (None for every kind when the set's size is unknown, ``copies`` 0)."""
    return {k: (copies - seen[k] if copies else None) for k in kinds}


def row_json(row: DiscardRow, left: dict[str, int | None]) -> dict[str, Any]:
    drawable = [k for k in row.draws if left[k] != 0]  # none left: not a draw
    counts = [left[k] for k in drawable]
    total = None if any(n is None for n in counts) else sum(n for n in counts if n is not None)
    draws = [{"card": k, "left": left[k]} for k in drawable]
    return {"discard": row.discard, "draws": draws, "draws_total": total, "kinds": len(draws)}


def sort_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Best first: the most copies to draw (when known), then the most kinds of kana; a stable
    sort keeps tile-set order among equals."""
    return sorted(rows, key=lambda r: (-(r["draws_total"] or 0), -r["kinds"]))


def discards_text(data: dict[str, Any]) -> str:
    """The table in kana: each discard, then the draws that let the hand go out (×copies left)."""
    if data.get("undecided"):
        return f"{''.join(data['hand'])}: undecided within the time budget (raise --max-seconds)"
    rows = data["discards"]
    going = sum(1 for r in rows if r["draws"])
    now = "; the hand goes out now" if data["goes_out_now"] else ""
    lines = [f"{''.join(data['hand'])}: {going} of {len(rows)} discards go out after one draw{now}"]
    for r in rows:
        if not r["draws"]:
            lines.append(f"  {r['discard']}  -")
            continue
        draws = " ".join(d["card"] if d["left"] is None else f"{d['card']}×{d['left']}" for d in r["draws"])
        total = f"{r['draws_total']:3} to draw" if r["draws_total"] is not None else f"{r['kinds']:3} kana"
        lines.append(f"  {r['discard']}  {total}: {draws}")
    if data["copies"] is None:
        lines.append("  (copies left unknown: the tile set's size is not given; option tile-copies)")
    return "\n".join(lines)
