"""Independent brute-force oracles for three rummies written as rulesets alone: Indian Rummy's
declaration, Okey's going out (sets and runs, or seven pairs) and Phase 10's phases.

Nothing here comes from ``solver/``: each oracle reads cards from their spellings, knows its game's
rules from the numbered statements in rulesets/documents/ (indian-rummy.md, okey.md, phase-10.md)
and searches the partitions of a hand by plain recursion over its natural cards, wild cards counted
as interchangeable. ``*_meld_problem`` re-checks one meld an answer gives (its cards, the identity
each wild is said to stand for, its kind).
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import combinations, product

# -- Indian Rummy (documents/indian-rummy.md) -------------------------------------------------

IR_SUITS = "SHDC"
IR_RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
IR_ORDER = IR_RANKS + ["A"]  # 3.2: the ace low before the 2 or high after the king


@lru_cache(maxsize=256)
def ir_card(text: str) -> tuple[str, str] | None:
    """('S', '10') for S10; None for a printed joker."""
    text = text.upper()
    return None if text == "JK" else (text[0], text[1:])


def ir_positions(rank: str) -> list[int]:
    return [q for q, r in enumerate(IR_ORDER) if r == rank]


def ir_cut_rank(indicator: str) -> str:
    card = ir_card(indicator)
    return "A" if card is None else card[1]  # 2.3: a printed joker cut makes the aces wild


def ir_declares(hand: list[str], indicator: str) -> bool:
    """5.1-5.3: some discard leaves thirteen cards in sequences and sets, at least two sequences,
    at least one of them pure (2.2-2.5 and 3.1-3.7 for the melds)."""
    cut = ir_cut_rank(indicator)
    for i in set(range(len(hand))):
        rest = hand[:i] + hand[i + 1 :]
        if ir_partition_ok(tuple(sorted(rest)), cut):
            return True
    return False


@lru_cache(maxsize=65536)
def ir_partition_ok(cards: tuple[str, ...], cut: str) -> bool:
    jokers = sum(ir_card(c) is None for c in cards)
    naturals = [card for card in map(ir_card, cards) if card is not None]
    flex = [i for i, c in enumerate(naturals) if c[1] == cut]
    for chosen in product((False, True), repeat=len(flex)):  # each card of the cut rank: itself or a joker
        as_wild = {i for i, w in zip(flex, chosen, strict=True) if w}
        plain = tuple(sorted(c for i, c in enumerate(naturals) if i not in as_wild))
        if any(s >= 2 and p >= 1 for s, p in _ir_search(plain, jokers + len(as_wild))):
            return True
    return False


@lru_cache(maxsize=262144)
def _ir_search(naturals: tuple, wilds: int) -> frozenset[tuple[int, int]]:
    """Every (sequences, pure sequences), each capped (2, 1), of a partition of the cards."""
    if not naturals:
        if wilds == 0:
            return frozenset({(0, 0)})
        if wilds >= 3:  # jokers alone: as many sequences of three or more as they make
            return frozenset({(min(wilds // 3, 2), 0)})
        return frozenset()
    (suit, rank), rest = naturals[0], list(naturals[1:])
    found: set[tuple[int, int]] = set()
    held = Counter(rest)
    # a set of its rank (3.6, 3.7): other suits once each, jokers for the rest
    others = sorted({s for s, r in rest if r == rank and s != suit})
    for k in range(len(others) + 1):
        for suits in combinations(others, k):
            left = _without(rest, [(s, rank) for s in suits])
            for j in range(max(0, 3 - 1 - k), 4 - 1 - k + 1):
                if j <= wilds:
                    found |= _ir_search(left, wilds - j)
    # a sequence of its suit (3.1-3.5) through each of its places
    for p in ir_positions(rank):
        for a, b in _windows(held, suit, p, IR_ORDER, wilds):
            for used, k in _fills(held, suit, a, b, p, IR_ORDER, wilds):
                pure = int(k == 0)
                for s, q in _ir_search(_without(rest, used), wilds - k):
                    found.add((min(s + 1, 2), min(q + pure, 1)))
    return frozenset(found)


def _without(cards: list, used: list) -> tuple:
    left = list(cards)
    for card in used:
        left.remove(card)
    return tuple(left)


def _windows(held: Counter, suit: str, p: int, order: list[str], wilds: int):
    """Each window [a, b] of ``order`` (three to thirteen places) holding place p whose places
    without a card of ``suit`` still held number at most ``wilds``: a window grows outwards from p
    and stops once it lacks more cards than there are wilds."""
    lacking_below = 0
    for a in range(p, max(0, p - 12) - 1, -1):
        lacking_below += a != p and not held[(suit, order[a])]
        if lacking_below > wilds:
            return
        lacking = lacking_below
        for b in range(p + 1, min(a + 12, len(order) - 1) + 1):
            lacking += not held[(suit, order[b])]
            if lacking > wilds:
                break
            if b >= a + 2:
                yield a, b
        if p >= a + 2:
            yield a, p


def _fills(held: Counter, suit: str, a: int, b: int, p: int, order: list[str], wilds: int):
    """Each way to fill window [a, b] of ``order`` in ``suit`` around the card at place p with at
    most ``wilds`` wilds: every other place a natural card still ``held``, or a wild (also where a
    natural is held)."""
    places = [q for q in range(a, b + 1) if q != p]
    options = [[(suit, order[q]), None] if held[(suit, order[q])] else [None] for q in places]
    for choice in product(*options):
        used = [c for c in choice if c is not None]
        if len(places) - len(used) <= wilds:
            yield used, len(places) - len(used)


def ir_meld_problem(cards: list[str], shown: list[str], kind: str, indicator: str) -> str | None:
    """Is this a legal meld of ``kind`` (pure-sequence, impure-sequence, set), each card standing
    for the identity ``shown`` gives it? None when it is."""
    cut = ir_cut_rank(indicator)
    ids = []
    wild = 0
    for card, ident in zip(cards, shown, strict=True):
        parsed, meant = ir_card(card), ir_card(ident)
        if meant is None:
            return f"{card} stands for nothing"
        if parsed != meant:
            if parsed is not None and parsed[1] != cut:
                return f"{card} is no joker but stands for {ident}"
            wild += 1
        ids.append(meant)
    if kind == "set":
        ok = 3 <= len(ids) <= 4 and len({r for _, r in ids}) == 1 and len({s for s, _ in ids}) == len(ids)
        return None if ok else "not a set"
    if len({s for s, _ in ids}) != 1 or not 3 <= len(ids) <= 13:
        return "not a sequence"
    for a in range(len(IR_ORDER) - len(ids) + 1):
        window = IR_ORDER[a : a + len(ids)]
        if sorted(window) == sorted(r for _, r in ids) and len(set(window)) == len(window):
            if kind == "pure-sequence" and wild:
                return "a pure sequence with a joker"
            if kind == "impure-sequence" and not wild:
                return "an impure sequence without a joker"
            return None
    return "not consecutive"


# -- Okey (documents/okey.md) ---------------------------------------------------------------

OK_SUITS = "rybk"
OK_ORDER = [str(n) for n in range(1, 14)] + ["1"]  # 3.3: 12 13 1, not 13 1 2


@lru_cache(maxsize=256)
def ok_tile(text: str) -> tuple[str, str] | None:
    text = text.lower()
    return None if text == "fj" else (text[0], text[1:])


def okey_of(indicator: str) -> tuple[str, str]:
    """2.3: the indicator's colour, one number higher, 13 → 1."""
    tile = ok_tile(indicator)
    assert tile is not None, "a false joker is no indicator"
    suit, rank = tile
    return suit, str(int(rank) % 13 + 1)


def ok_goes_out(hand: list[str], indicator: str, pairs: bool = True) -> bool:
    """5.1-5.3: some discard leaves fourteen tiles all in sets and runs, or in seven pairs."""
    okey = okey_of(indicator)
    for i in set(range(len(hand))):
        rest = tuple(sorted(hand[:i] + hand[i + 1 :]))
        if ok_melds(rest, okey) or (pairs and ok_pairs(rest, okey)):
            return True
    return False


def _ok_split(cards: tuple, okey: tuple) -> list[tuple[tuple, int]]:
    """(naturals, wilds) for each way of playing the okey tiles: themselves or jokers (2.4, 2.5);
    a false joker is the okey tile (2.6)."""
    naturals = [ok_tile(c) or okey for c in cards]
    okeys = [i for i, c in enumerate(cards) if ok_tile(c) == okey]
    out = []
    for chosen in product((False, True), repeat=len(okeys)):
        wild = {i for i, w in zip(okeys, chosen, strict=True) if w}
        out.append((tuple(sorted(c for i, c in enumerate(naturals) if i not in wild)), len(wild)))
    return out


@lru_cache(maxsize=65536)
def ok_melds(cards: tuple, okey: tuple) -> bool:
    return any(_ok_search(n, w) for n, w in _ok_split(cards, okey))


@lru_cache(maxsize=262144)
def _ok_search(naturals: tuple, wilds: int) -> bool:
    if not naturals:
        return wilds == 0 or wilds >= 3
    (suit, rank), rest = naturals[0], list(naturals[1:])
    held = Counter(rest)
    others = sorted({s for s, r in rest if r == rank and s != suit})
    for k in range(len(others) + 1):
        for suits in combinations(others, k):
            left = _without(rest, [(s, rank) for s in suits])
            for j in range(max(0, 2 - k), 3 - k + 1):
                if j <= wilds and _ok_search(left, wilds - j):
                    return True
    for p in [q for q, r in enumerate(OK_ORDER) if r == rank]:
        for a, b in _windows(held, suit, p, OK_ORDER, wilds):
            for used, k in _fills(held, suit, a, b, p, OK_ORDER, wilds):
                if _ok_search(_without(rest, used), wilds - k):
                    return True
    return False


@lru_cache(maxsize=65536)
def ok_pairs(cards: tuple, okey: tuple) -> bool:
    """Seven pairs of identical tiles; a joker pairs with any tile or another joker."""
    for naturals, wilds in _ok_split(cards, okey):
        odd = sum(n % 2 for n in Counter(naturals).values())
        if odd <= wilds and (wilds - odd) % 2 == 0:
            return True
    return False


def ok_meld_problem(cards: list[str], shown: list[str], kind: str, indicator: str) -> str | None:
    okey = okey_of(indicator)
    ids: list[tuple[str, str]] = []
    for card, ident in zip(cards, shown, strict=True):
        parsed, meant = ok_tile(card), ok_tile(ident)
        if meant is None:
            return f"{card} stands for a false joker"
        own = okey if parsed is None else parsed
        if meant != own and parsed != okey:
            return f"{card} is no okey but stands for {ident}"
        ids.append(meant)
    if kind == "pair":
        return None if len(ids) == 2 and ids[0] == ids[1] else "not a pair"
    if kind == "set":
        ok = 3 <= len(ids) <= 4 and len({r for _, r in ids}) == 1 and len({s for s, _ in ids}) == len(ids)
        return None if ok else "not a set"
    if len({s for s, _ in ids}) != 1:
        return "not one colour"
    for a in range(len(OK_ORDER) - len(ids) + 1):
        window = OK_ORDER[a : a + len(ids)]
        if sorted(window) == sorted(r for _, r in ids) and len(set(window)) == len(window):
            return None
    return "not consecutive"


# -- Phase 10 (documents/phase-10.md) --------------------------------------------------------

P10_PHASES = {  # 3.2-3.11: (part, cards) in each phase
    1: [("set", 3), ("set", 3)],
    2: [("set", 3), ("run", 4)],
    3: [("set", 4), ("run", 4)],
    4: [("run", 7)],
    5: [("run", 8)],
    6: [("run", 9)],
    7: [("set", 4), ("set", 4)],
    8: [("colour", 7)],
    9: [("set", 5), ("set", 2)],
    10: [("set", 5), ("set", 3)],
}


def p10_card(text: str) -> tuple[str, int] | str:
    """('r', 7) for r7; 'W' for a wild card, 'S' for a skip."""
    text = text.lower()
    if text in ("w", "s"):
        return text.upper()
    return text[0], int(text[1:])


def p10_lays_down(hand: list[str], phase: int) -> bool:
    """4.1, 4.2: the hand holds its phase, each part at the length the phase names, with a card left
    to discard (2.1-2.6 for the parts)."""
    cards = [p10_card(c) for c in hand]
    wilds = sum(c == "W" for c in cards)
    naturals = [c for c in cards if isinstance(c, tuple)]
    used = sum(n for _, n in P10_PHASES[phase])
    if used >= len(hand):
        return False  # nothing left to discard
    if phase == 8:
        return any(sum(c == colour for c, _ in naturals) + wilds >= 7 for colour in "rbgy")
    numbers = tuple(sorted(Counter(n for _, n in naturals).items()))
    return _p10_parts(numbers, wilds, tuple(P10_PHASES[phase]))


@lru_cache(maxsize=65536)
def _p10_parts(numbers: tuple, wilds: int, parts: tuple) -> bool:
    if not parts:
        return True
    (shape, size), rest = parts[0], parts[1:]
    held = dict(numbers)
    if shape == "set":
        for n in [*held, None]:  # None: a set of wild cards only
            for j in range(min(held.get(n, 0), size) + 1) if n is not None else [0]:
                if size - j <= wilds and _p10_parts(_take(held, {n: j}), wilds - (size - j), rest):
                    return True
        return False
    for a in range(1, 12 - size + 2):  # 2.3: no run goes round
        places = range(a, a + size)
        options = [[1, 0] if held.get(m) else [0] for m in places]
        for choice in product(*options):
            k = size - sum(choice)
            if k <= wilds and _p10_parts(_take(held, dict(zip(places, choice, strict=True))), wilds - k, rest):
                return True
    return False


def _take(held: dict, taken: dict) -> tuple:
    left = {n: c - taken.get(n, 0) for n, c in held.items()}
    return tuple(sorted((n, c) for n, c in left.items() if c))


def p10_meld_problem(cards: list[str], shown: list[str], shape: str) -> str | None:
    """A part of kind set, run or colour; a wild's identity may leave its colour (a set, a run) or
    its number (a colour group) open."""
    if any(p10_card(c) == "S" for c in cards):
        return "a skip card in a part"
    ids = []
    for card, ident in zip(cards, shown, strict=True):
        parsed = p10_card(card)
        if parsed != "W" and ident.lower() != card.lower():
            return f"{card} is no wild but stands for {ident}"
        ids.append(parsed)
    naturals = [c for c in ids if isinstance(c, tuple)]  # the skips were refused above
    wilds = [s for c, s in zip(ids, shown, strict=True) if c == "W"]
    if shape == "set":
        numbers = {n for _, n in naturals} | {int(s) for s in wilds}
        return None if len(numbers) <= 1 else "not one number"
    if shape == "colour":
        colours = {c for c, _ in naturals} | {s.lower() for s in wilds}
        return None if len(colours) <= 1 else "not one colour"
    in_order = sorted([n for _, n in naturals] + [int(s) for s in wilds])
    return None if in_order == list(range(in_order[0], in_order[0] + len(in_order))) else "not consecutive"
