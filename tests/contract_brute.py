"""An independent brute-force oracle for Contract Rummy (rulesets/documents/contract-rummy.md).

Nothing here comes from ``solver/``: cards are read from their spellings (``S9``, ``H10``, ``JK``),
the rules from the numbered statement. A meld is judged by trying every window of the rank order
and every way the twos may count (2.1-2.3, 3.1-3.3); a contract is looked for among every subset
of the hand that is a legal set or run, its melds disjoint (4.2-4.10, 5.1).
"""

from __future__ import annotations

from itertools import combinations

SUITS = "SHDC"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
ORDER = RANKS + ["A"]  # 3.3: the ace low before the 2 or high after the king, never both ways round
CONTRACTS = {  # 4.2-4.8: (sets, runs)
    1: (2, 0),
    2: (1, 1),
    3: (0, 2),
    4: (3, 0),
    5: (2, 1),
    6: (1, 2),
    7: (0, 3),
}


def card(text: str) -> tuple[str, str] | None:
    """('S', '10') for S10; None for a printed joker."""
    return None if text == "JK" else (text[0], text[1:])


def is_set(cards: list[str]) -> bool:
    """3.1 with 2.1-2.3: three or more cards, the naturals of one rank, no more wilds than naturals."""
    if len(cards) < 3:
        return False
    faces = [card(c) for c in cards]
    for rank in RANKS:
        naturals = sum(1 for f in faces if f is not None and f[1] == rank)
        wilds = len(faces) - naturals
        every_other_wild = all(f is None or f[1] in (rank, "2") for f in faces)
        if naturals and every_other_wild and wilds <= naturals:
            return True
    return False


def run_naturals(cards: list[str]) -> int | None:
    """3.2-3.3 with 2.1-2.3: the most cards that can stand for themselves in some reading of the cards
    as a run (four or more of one suit, consecutive along A 2 … K A, each card once); None: no reading."""
    if len(cards) < 4:
        return None
    faces = [card(c) for c in cards]
    best = None
    for suit in SUITS:
        for start in range(len(ORDER) - len(cards) + 1):
            window = ORDER[start : start + len(cards)]
            if len(set(window)) < len(window):
                continue  # the ace at both ends would be one card twice
            naturals = _placed(faces, suit, window)
            if naturals is not None and len(cards) - naturals <= naturals:
                best = naturals if best is None else max(best, naturals)
    return best


def _placed(faces: list, suit: str, window: list[str]) -> int | None:
    """How many cards stand for themselves in the window, the rest wild; None when a card that
    cannot be wild (not a two, not a joker) has no place of its own."""
    taken: set[str] = set()
    naturals = 0
    twos = []
    for f in faces:
        if f is None:
            continue
        if f[1] == "2":
            twos.append(f)
            continue
        if f[0] != suit or f[1] not in window or f[1] in taken:
            return None
        taken.add(f[1])
        naturals += 1
    if "2" in window and "2" not in taken and any(f[0] == suit for f in twos):
        naturals += 1  # 2.2: one two of the suit in its own place
    return naturals


def is_run(cards: list[str]) -> bool:
    return run_naturals(cards) is not None


def lays_contract(hand: list[str], round_: int) -> bool:
    """4.9-4.10, 5.1: some disjoint sets and runs of the hand, exactly the contract's, leave a card to
    discard (round 7: exactly one card, every other card in the contract)."""
    sets, runs = CONTRACTS[round_]
    as_set, as_run = candidates(hand)
    return _search(as_set, as_run, sets, runs, frozenset(), -1, len(hand), round_ == 7)


def candidates(hand: list[str]) -> tuple[list[frozenset[int]], list[frozenset[int]]]:
    """Every set and every run of the hand's cards, as sets of positions: for a set, cards of one rank
    with cards that may be wild; for a run, cards of one suit with cards that may be wild."""
    faces = [card(c) for c in hand]
    may_be_wild = [i for i, f in enumerate(faces) if f is None or f[1] == "2"]
    as_set: set[frozenset[int]] = set()
    as_run: set[frozenset[int]] = set()
    for rank in RANKS:
        mine = [i for i, f in enumerate(faces) if f is not None and f[1] == rank]
        pool = sorted(set(mine) | set(may_be_wild))
        for size in range(3, len(pool) + 1):
            as_set.update(frozenset(m) for m in combinations(pool, size) if is_set([hand[i] for i in m]))
    for suit in SUITS:
        mine = [i for i, f in enumerate(faces) if f is not None and f[0] == suit]
        pool = sorted(set(mine) | set(may_be_wild))
        for size in range(4, len(pool) + 1):
            as_run.update(frozenset(m) for m in combinations(pool, size) if is_run([hand[i] for i in m]))
    return sorted(as_set, key=sorted), sorted(as_run, key=sorted)


def _search(as_set: list, as_run: list, sets: int, runs: int, used: frozenset, after: int, n: int, every: bool) -> bool:
    """Melds of one kind are taken in the order of their first card (``after``), so each choice of
    melds is tried once."""
    if sets == 0 and runs == 0:
        return len(used) == n - 1 if every else len(used) <= n - 1
    if sets:
        pool, left, nxt = as_set, (sets - 1, runs), lambda m: min(m) if sets > 1 else -1
    else:
        pool, left, nxt = as_run, (0, runs - 1), lambda m: min(m)
    for meld in pool:
        if meld & used or min(meld) <= after:
            continue
        if _search(as_set, as_run, left[0], left[1], used | meld, nxt(meld), n, every):
            return True
    return False


def meld_problem(cards: list[str], shown: list[str], kind: str) -> str | None:
    """A meld an answer gives, re-checked: legal as the kind it names, each card standing for what it
    says (a natural for itself, a wild only if a two or a joker)."""
    legal = is_set(cards) if kind == "set" else is_run(cards) if kind == "run" else False
    if not legal:
        return f"{' '.join(cards)} is no {kind}"
    for c, as_ in zip(cards, shown, strict=True):
        f = card(c)
        if f is not None and f[1] != "2" and as_ not in (c, f[1]):
            return f"{c} shown as {as_}: only a two or a joker stands for another card"
    return None
