"""A plain-Python referee for word-game answers, written apart from solver/words.py and
solver/wordturn.py: its own spelling of words into tiles (from the ruleset's data), its own
reading of the dictionary file, its own bipartite matching and an exhaustive search for small
turns. Tests use it to re-check every turn and bonus the solver returns."""

from __future__ import annotations

import lzma
import unicodedata
from collections import Counter
from functools import lru_cache
from itertools import combinations, combinations_with_replacement, product


def tiles_of(word: str, game) -> tuple[str, ...] | None:
    """A composed hiragana word as tiles, or None when some letter has no tile."""
    kinds = set(game.tile_kinds)
    marks = {"\u3099": "゛", "\u309a": "゜"}
    out: list[str] = []
    for letter in word:
        if letter in kinds:
            out.append(letter)
        elif letter in game.small_kana:
            out.append(game.small_kana[letter])
        else:
            base, *rest = list(unicodedata.normalize("NFD", letter))
            mark = marks.get(rest[0]) if rest else None
            base = game.small_kana.get(base, base)
            if mark is None or mark not in kinds or base not in kinds:
                return None
            out += [base, mark]
    return tuple(out)


@lru_cache(maxsize=4)
def dictionary_keys(path: str, game_id: int, game) -> frozenset:
    """Every tile string of the default dictionary file, read line by line."""
    keys = set()
    with lzma.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("#"):
                continue
            t = tiles_of(line.split("\t", 1)[0], game)
            if t is not None:
                keys.add("".join(t))
    return frozenset(keys)


def word_list_keys(words, game) -> frozenset:
    return frozenset("".join(t) for w in words if (t := tiles_of(w, game)) is not None)


def has_distinct_representatives(words: list[str], fixed: Counter) -> bool:
    """Can each word be given its own tile from ``fixed`` (a multiset) that it contains? By
    Hall's theorem: every set of words must reach at least as many such tiles as it has words."""
    for size in range(1, len(words) + 1):
        for group in combinations(range(len(words)), size):
            reach = sum(n for t, n in fixed.items() if any(t in words[w] for w in group))
            if reach < size:
                return False
    return True


def check_turn(
    result: dict,
    hand: list[str],
    table: list[str],
    loose: list[str],
    has_word: bool,
    min_len: int,
    keys: frozenset,
    words_from_hand: int = 1,
) -> list[str]:
    """Problems with a turn answer (JSON of melds solve); an empty list means it stands."""
    problems = []
    final = ["".join(w["tiles"]) for w in result["table"]]
    new = ["".join(result["new_word"]["tiles"])] if result["new_word"] else []
    for w in final:
        if len(w) < min_len:
            problems.append(f"{w}: shorter than {min_len}")
        if w not in keys and w not in table:
            problems.append(f"{w}: not a dictionary word")
    if len(new) > words_from_hand:
        problems.append("more than one word from the hand")
    if new and Counter(new[0]) - Counter(hand):
        problems.append(f"the new word {new[0]} is not made of hand tiles")
    rest = list(final)
    for w in new:
        if w in rest:
            rest.remove(w)
        else:
            problems.append("the new word is not on the table")
    if not has_word and Counter(rest) != Counter(table):
        problems.append("the table was arranged before the player's first word")
    used = Counter("".join(final)) - Counter("".join(table))
    if Counter("".join(table)) - Counter("".join(final)):
        problems.append("a table tile left the table")
    hand_used = Counter(hand) - Counter(result["kept"])
    if Counter(result["kept"]) - Counter(hand):
        problems.append("kept tiles that were not in the hand")
    loose_used = used - hand_used
    if loose_used - Counter(loose):
        problems.append(f"tiles from nowhere: {''.join((loose_used - Counter(loose)).elements())}")
    if hand_used - used:
        problems.append("hand tiles counted as placed are not on the table")
    if sum(hand_used.values()) != result["placed"]:
        problems.append(f"placed {result['placed']} but {sum(hand_used.values())} hand tiles went down")
    if result["goes_out"] != (not result["kept"]):
        problems.append("goes_out disagrees with the tiles kept")
    if (
        has_word
        and rest
        and not has_distinct_representatives(rest, Counter("".join(table)) + (loose_used & Counter(loose)))
    ):
        problems.append("an arranged word is made of hand tiles alone (a second word from the hand)")
    return problems


def brute_best(
    hand: list[str],
    table: list[str],
    loose: list[str],
    has_word: bool,
    min_len: int,
    keys: frozenset,
    words_from_hand: int = 1,
) -> int:
    """The most hand tiles a turn can put down, by trying every multiset of words (small cases)."""
    hand_c, table_c, loose_c = Counter(hand), Counter("".join(table)), Counter(loose)
    best = 0
    hand_words = [k for k in keys if len(k) >= min_len and not Counter(k) - hand_c]
    for new in [None] + hand_words:
        left = hand_c - Counter(new or "")
        placed = len(new or "")
        if not has_word or not (table or loose):
            best = max(best, placed)
            continue
        pool = left + table_c + loose_c
        fits = [k for k in keys | set(table) if len(k) >= min_len and not Counter(k) - pool]
        max_words = sum(pool.values()) // min_len
        for n in range(0, max_words + 1):  # no arranged word at all stands when the table is empty
            for combo in combinations_with_replacement(sorted(fits), n):
                got = Counter("".join(combo))
                if got - pool or table_c - got:
                    continue
                extra = got - table_c  # each extra tile comes from the hand or lies loose
                kinds = sorted(extra)
                ranges = [range(max(0, extra[t] - left[t]), min(loose_c[t], extra[t]) + 1) for t in kinds]
                for split in product(*ranges):
                    from_loose = Counter(dict(zip(kinds, split, strict=True)))
                    if has_distinct_representatives(list(combo), table_c + from_loose):
                        best = max(best, placed + sum(extra.values()) - sum(split))
    return best
