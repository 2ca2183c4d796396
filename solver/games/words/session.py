"""Word-game queries (check, solve a turn, bonus words, score), shared by the command line, its
batches and the puzzles. Each takes plain request facts and returns (JSON result, exit code);
:mod:`solver.games.words.present` prints them as text.

A :class:`WordSession` holds the ruleset's tiles and the dictionary (default list plus the
user's), loaded once for a whole batch.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solver.core.errors import ExitCode, MeldsError, Undecided
from solver.core.ruleset import Ruleset
from solver.core.source import source_json as _src
from solver.games.words import discards as swaps
from solver.games.words.tiles import Dictionary, TileSet
from solver.games.words.turn import Turn, TurnAnswer, Word, bonus_points, solve_bonus, solve_turn
from solver.sat.budget import Budget


@dataclass
class WordSession:
    ruleset: Ruleset
    user_dicts: tuple[Path, ...] = ()
    default_dict: bool = True
    exclude: tuple[Path, ...] = ()
    _dictionary: Dictionary | None = field(default=None, repr=False)

    def __post_init__(self):
        if not self.default_dict and not self.user_dicts:
            raise MeldsError("--no-default-dict needs at least one --dict FILE")
        self.game = self.ruleset.rules
        self.tileset = TileSet(self.game)

    @property
    def dictionary(self) -> Dictionary:
        if self._dictionary is None:
            self._dictionary = Dictionary.for_game(self.game, self.user_dicts, self.default_dict, self.exclude)
        return self._dictionary

    def dictionary_json(self) -> dict:
        return {"sources": [r.to_json() for r in self.dictionary.reports], "keys": len(self.dictionary)}

    # -- parsing ----------------------------------------------------------------------------------

    def tiles(self, text: Any, what: str) -> tuple[str, ...]:
        if not isinstance(text, str):
            raise MeldsError(f"{what} must be a string of kana")
        return self.tileset.tiles(text, what)

    def table(self, words: Any) -> tuple[str, ...]:
        """Table words: "WORD" or "OWNER: WORD" each, as tile keys."""
        if isinstance(words, str):
            words = [words]
        if not isinstance(words, (list, tuple)):
            raise MeldsError("table must be a list of words")
        out = []
        for w in words:
            if not isinstance(w, str) or not w.strip():
                raise MeldsError(f"a table word must be a non-empty string, got {w!r}")
            text = w.split(":", 1)[1] if ":" in w else w
            out.append("".join(self.tiles(text, "table word")))
        return tuple(out)

    def check_copies(self, *groups: Sequence[str]) -> None:
        """With option tile-copies, the tiles in play must fit the set."""
        copies = self.game.copies
        if not copies:
            return
        over = {t: n for t, n in Counter(t for g in groups for t in g).items() if n > copies}
        if over:
            shown = ", ".join(f"{t}×{n}" for t, n in over.items())
            raise MeldsError(f"more tiles than the set holds ({copies} of each): {shown}")

    # -- queries ----------------------------------------------------------------------------------

    def check(self, text: str, *, min_tiles: int | None = None) -> dict:
        """One word: legal or not, its tiles, the entry that matched, the reasons."""
        game = self.game
        spelling = self.tileset.spell(text)
        least = game.min_length["word"] if min_tiles is None else min_tiles
        reasons: list[dict[str, Any]] = []
        kana = bool(spelling.word) and all(0x3041 <= ord(c) <= 0x309A or c == "ー" for c in spelling.word)
        if not kana:
            reasons.append(
                {
                    "code": "not-kana",
                    "message": f"{text!r} is not written in kana (hiragana, katakana, or tiles such as か゛)",
                    "source": None,
                }
            )
        for letter in dict.fromkeys(spelling.missing if kana else ()):
            reasons.append(
                {
                    "code": "no-tile",
                    "message": self.tileset.why_missing(letter),
                    "source": _src(game.sources.get("tiles")),
                }
            )
        if not spelling.missing and len(spelling.tiles) < least:
            key = "min_length.word" if min_tiles is None else "min_length.bonus"
            reasons.append(
                {
                    "code": "too-short",
                    "message": (f"{len(spelling.tiles)} tiles; a word needs {least} (a ゛ or ゜ is a tile of its own)"),
                    "source": _src(game.sources.get(key)),
                }
            )
        if game.copies:
            over = [t for t, n in Counter(spelling.tiles).items() if n > game.copies]
            if over:
                reasons.append(
                    {
                        "code": "too-many-copies",
                        "message": (f"needs more {'、'.join(over)} than the set's {game.copies}"),
                        "source": None,
                    }
                )
        entries = self.dictionary.lookup(spelling) if not spelling.missing else []
        if not entries and not reasons:
            names = ", ".join(r.name for r in self.dictionary.reports if not r.name.endswith("(excluded)"))
            banned = " (it is on an --exclude list)" if spelling.word in self.dictionary.excluded else ""
            reasons.append(
                {
                    "code": "not-in-dictionary",
                    "message": (
                        f"{spelling.word} is not in the dictionary ({names}){banned}; the document accepts "
                        f"any word people understand — if the table agrees, add it with --dict FILE"
                    ),
                    "source": _src(game.sources.get("dictionary")),
                }
            )
        return {
            "legal": not reasons,
            "word": spelling.word,
            "tiles": list(spelling.tiles),
            "length": len(spelling.tiles),
            "entry": str(entries[0]) if entries else None,
            "entries": [{"reading": e.reading, "headwords": e.headwords, "source": e.source} for e in entries[:8]],
            "reasons": reasons,
        }

    def check_words(self, words: Sequence[str], *, min_tiles: int | None = None) -> tuple[dict, int]:
        if not words:
            raise MeldsError("no word given, e.g. melds check -r word-rummy ねこ がっこう")
        results = [self.check(w, min_tiles=min_tiles) for w in words]
        legal = all(r["legal"] for r in results)
        out = dict(results[0]) if len(results) == 1 else {"legal": legal}
        out["words"] = results
        out["dictionary"] = self.dictionary_json()
        return out, ExitCode.YES if legal else ExitCode.NO

    def turn(self, facts: Mapping[str, Any]) -> Turn:
        if "hand" not in facts:
            raise MeldsError('a turn needs "hand": the tiles in the hand')
        hand = self.tiles(facts["hand"], "hand")
        if not hand:
            raise MeldsError("the hand is empty: the game is already over")
        table = self.table(facts.get("table", []))
        loose = self.tiles(facts.get("loose", ""), "loose tiles")
        self.check_copies(hand, "".join(table), loose)
        return Turn(hand, table, loose, bool(facts.get("has_word", False)), bool(facts.get("last_lap", False)))

    def solve(self, facts: Mapping[str, Any], *, budget: Budget | None = None) -> tuple[dict, int]:
        """A turn (or, with ``bonus``, the bonus words of a revealed hand), within ``budget``."""
        if facts.get("bonus"):
            return self.bonus(facts, budget=budget)
        turn = self.turn(facts)
        try:
            answer = solve_turn(self.dictionary, turn, self.game, budget=budget)
        except Undecided:
            return {"question": "word-turn", "undecided": True}, ExitCode.UNDECIDED
        result = {"question": "word-turn", **self.turn_json(turn, answer)}
        return result, ExitCode.YES if answer.goes_out else ExitCode.NO

    def discards(self, facts: Mapping[str, Any], *, budget: Budget | None = None) -> tuple[dict, int]:
        """Each distinct hand tile let go and the kana whose draw lets the hand go out
        (:mod:`solver.games.words.discards`), within ``budget``."""
        turn = self.turn(facts)
        visible = self.tiles(facts.get("visible") or "", "--visible")
        on_table = "".join(turn.table) + "".join(turn.loose)
        self.check_copies(turn.hand, on_table, visible)
        budget = budget if budget is not None else Budget()
        search = swaps.DiscardSearch(self.dictionary, self.game, turn, budget)
        base = {
            "question": "discards",
            "hand": list(turn.hand),
            "cards": len(turn.hand),
            "visible": list(visible),
            "has_word": turn.has_word,
            "last_lap": turn.last_lap,
            "copies": self.game.copies or None,
        }
        try:
            with budget.guarding():
                now = search.goes_out(turn.hand)
                rows = search.rows(self.tileset.kinds)
        except Undecided:
            return {**base, "undecided": True, "stats": {"seconds": round(budget.elapsed, 4)}}, ExitCode.UNDECIDED
        left = swaps.copies_left(
            self.game.copies, Counter(turn.hand) + Counter(on_table) + Counter(visible), self.tileset.kinds
        )
        table = swaps.sort_rows([swaps.row_json(row, left) for row in rows])
        pairs = len(rows) * len(self.tileset.kinds)
        stats = {"seconds": round(budget.elapsed, 4), "swaps": pairs, "models": search.models}
        result = {**base, "goes_out_now": now, "discards": table, "stats": stats}
        return result, ExitCode.YES if any(r["draws"] for r in table) else ExitCode.NO

    def bonus(self, facts: Mapping[str, Any], *, budget: Budget | None = None) -> tuple[dict, int]:
        revealed = self.tiles(facts.get("hand", ""), "revealed hand")
        try:
            answer = solve_bonus(self.dictionary, revealed, self.game, budget=budget)
        except Undecided:
            return {"question": "word-bonus", "undecided": True}, ExitCode.UNDECIDED
        points = bonus_points(self.game, len(revealed), answer.placed)
        return {
            "question": "word-bonus",
            "revealed": list(revealed),
            "words": [self.word_json(w) for w in answer.new_words],
            "tiles_in_words": answer.placed,
            "left": answer.kept,
            "points": points,
            "candidates": answer.candidates,
            "sat_calls": answer.sat_calls,
            "source": {
                "left_in_hand": _src(self.game.sources.get("scoring.left_in_hand")),
                "bonus_tile": _src(self.game.sources.get("scoring.bonus_tile")),
            },
        }, ExitCode.YES if answer.placed else ExitCode.NO

    def score(self, facts: Mapping[str, Any]) -> tuple[dict, int]:
        """A loser's points: their revealed tiles, and the bonus words the winner spelled (checked:
        dictionary words of 2+ tiles, from those tiles, none used twice)."""
        revealed = self.tiles(facts.get("hand", ""), "hand")
        words = facts.get("bonus_words") or []
        if isinstance(words, str):
            words = [w for w in words.replace("、", ",").split(",") if w.strip()]
        left = Counter(revealed)
        checked, reasons = [], []
        for w in words:
            verdict = self.check(w, min_tiles=self.game.min_length["bonus"])
            checked.append(verdict)
            if not verdict["legal"]:
                reasons += [{**r, "message": f"{verdict['word']}: {r['message']}"} for r in verdict["reasons"]]
                continue
            need = Counter(verdict["tiles"])
            if need - left:
                short = "".join((need - left).elements())
                reasons.append(
                    {
                        "code": "tiles-not-revealed",
                        "message": (f"{verdict['word']} needs {short}, not among the revealed tiles left"),
                        "source": None,
                    }
                )
                continue
            left -= need
        in_words = len(revealed) - sum(left.values())
        points = bonus_points(self.game, len(revealed), in_words) if not reasons else None
        return {
            "legal": not reasons,
            "hand": list(revealed),
            "bonus_words": checked,
            "tiles_in_words": in_words,
            "tiles_left": sum(left.values()),
            "points": points,
            "breakdown": {
                "left": self.game.left_in_hand * sum(left.values()),
                "in_words": self.game.bonus_tile * in_words,
                "left_per_tile": self.game.left_in_hand,
                "in_words_per_tile": self.game.bonus_tile,
            },
            "reasons": reasons,
            "source": {
                "left_in_hand": _src(self.game.sources.get("scoring.left_in_hand")),
                "bonus_tile": _src(self.game.sources.get("scoring.bonus_tile")),
            },
        }, ExitCode.YES if not reasons else ExitCode.NO

    # -- JSON -------------------------------------------------------------------------------------

    def word_json(self, word: Word) -> dict:
        e = word.entries[0] if word.entries else None
        return {
            "word": word.shown,
            "tiles": list(word.key),
            "entry": str(e) if e else None,
            "in_dictionary": bool(word.entries),
        }

    def turn_json(self, turn: Turn, answer: TurnAnswer) -> dict:
        return {
            "goes_out": answer.goes_out,
            "placed": answer.placed,
            "hand": list(turn.hand),
            "new_word": self.word_json(answer.new_words[0]) if answer.new_words else None,
            "table_before": [self.word_json(Word(k, tuple(self.dictionary.by_key.get(k, ())))) for k in turn.table],
            "table": [self.word_json(w) for w in answer.table],
            "arranged": answer.arranged,
            "kept": answer.kept,
            "loose_left": answer.loose_left,
            "has_word": turn.has_word,
            "last_lap": turn.last_lap,
            "reasons": answer.reasons,
            "candidates": answer.candidates,
            "sat_calls": answer.sat_calls,
        }
