"""An independent go-out oracle for Fesca Wild Rummy R (rulesets/documents/000_*.txt), sharing no
code with melds and asking it nothing.

What it covers: hands of any of the game's cards on a normal turn (鳴き手番 excluded), with no
table, in a field phase: 陽場 ``yang``, 陰場 ``yin``, ``none`` (before the first 陰陽 discard: no 相順
may be melded, the ruleset's assumption start-phase), or not given (``None``: melds' reading of a
query without a phase, a turn keeping to one phase of its choice, docs/ruleset-format.md). The
cards (one copy of each, the deck the ruleset assumes, its assumption deck-list: the document's
deck list is lost):

- 五行札 木 火 土 金 水 1-12 (``木3``), naturals of their suit and rank;
- 陰陽札 1-12 (``陰陽5``): SW, "陰陽札が同ランクの木火土金水の何れかのスイートの五行札に化けられる機能";
  as its own 陰陽 suit in a 陰陽-only run ("陰陽札のみは 2 枚の順より可 SWではなく陰陽スート扱い") and
  as the sixth suit of a six-card set ("6 枚組 (陰陽札は第 6 の陰陽スート扱い)", "5 枚組に含まれる
  陰陽札は S W 扱い");
- 空無札, one per 五行 suit (``空無木``): RW, "空無札が同スイートの1～12の何れかのランクの五行札に化けられ
  る機能", or ZAT, "空無札がランク0とランク13の両扱いとする機能": the place between 12 and 1 of a run
  or chain ("ZATを介して12と1を繋ぐ", "最長はZATを含む13連順", "ZAT連結で 木12の付け札も可"); 空無
  cards alone are a set of two or more of rank ZAT ("空無のみは 2 枚組から可 RWではなくZATランク扱い");
- 太極札 (``太極``): GW, "太極札が任意の五行札に化けられる機能", and "GWは陰陽札のRW扱い" in a 陰陽 run.

The melds, as the document states them:

- 組 (set): "3 ~ 6 枚の同ランク札", each suit once: a wild may not become a card the set holds
  ("に化けると 本物と被る!", "RW同時存在禁止ルールから認められない組み合わせ"); 空無組: two to five 空無.
- 順 (run): "3 枚以上の同スートの連番札": consecutive places of ZAT 1 … 12 going round through ZAT
  (12 and 1 do not join without it: "12と1は繋がらないので順として認められない"); 陰陽順: 陰陽 cards of
  consecutive ranks 1-12 with 太極 as their RW, two cards when both are 陰陽.
- 相順 (chain): "最大枚数は5枚（各スト1枚ずつ）", "最低は3枚から", "どのストから開始してもよい": three to
  five consecutive places (ZAT joining 12 and 1) whose suits follow 相生 木→火→土→金→水 or 相克
  水→火→金→木→土, either way round; "陽場では相生が有効…陰場では逆に相克が有効となる".

Where the lost pictures leave a rule open, the oracle follows the bundled rulesets/fesca.yaml, and
says where:

- An SW needs a 五行 or 空無 card beside it in the meld, an RW a 五行, 陰陽 or 太極 card
  (``roles: SW / RW, requires_in_meld``): the document's 陰陽-only and 空無-only melds read those
  cards as 陰陽 suit and ZAT rank, "SWではなく陰陽スート扱い", "RWではなくZATランク扱い", and the
  pictures that showed which other cards let them act as wilds are lost.
- 太極 is never ZAT (``roles: GW, GW-RW``: ranks 1-12), and the two-card 陰陽 run is of 陰陽 cards
  only (``melds: yinyang-run, short_form``): "4,4か4,5か?" refused (assumption four-four-example,
  its picture lost).
- The pictures of "6,6,6か4,5,6か?" and "順と相順の区別がつかない" are lost: their cards are the
  ruleset's claims ``set-or-run`` (陰陽6 空無木 太極) and ``chain-or-run`` (土4 陰陽5 太極), both no
  meld here. The rule behind them (組か順が定まらない複合は認められない; このような公開メルドは禁止
  される), as the ruleset's ``ambiguity`` and kinds' ``family`` state it: cards read as two of the
  families set (組, 空無組), run (順, 陰陽順) and chain (相順, either cycle) are no meld, whichever
  the phase (assumption ambiguity-ignores-phase); and a chain must show two suits and two ranks no
  wild decides (``distinguish``, "少なくとも異なる2ストと2ランクが含まれていて、組や順と区別されなければならない"):
  a 五行 card fixes both, 陰陽 as SW its rank, 空無 its suit (and as ZAT its rank), 太極 neither.
- A meld of wilds only is a meld when it is of one family (assumption all-wild-melds).

A hand goes out on a normal turn when one card is discarded ("通常の手番では、必ず捨て札して上がる
必要がある") and every other card lies in a meld legal in the phase. Not covered: the table and its
single-card operations, claimed turns, scoring.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

SUITS = ("木", "火", "土", "金", "水")
CYCLES = {"yang": ("木", "火", "土", "金", "水"), "yin": ("水", "火", "金", "木", "土")}  # 相生, 相克
GOGYO, YINYANG, VOID, TAIJI = 0, 1, 2, 3  # the classes, in the order a hand is sorted
ZAT = 0  # the place of ZAT in the order ZAT 1 … 12, which goes round (12 → ZAT → 1)
PLACES = 13


class Card(NamedTuple):
    cls: int
    rank: int  # 1-12 for 五行 and 陰陽; 0 for 空無 and 太極 (no rank of their own)
    suit: str  # 五行 suit for 五行 and 空無; "" for 陰陽 and 太極


def card(text: str) -> Card:
    """木3, 陰陽5, 空無木 or 太極."""
    if text == "太極":
        return Card(TAIJI, 0, "")
    if text.startswith("空無") and text[2:] in SUITS:
        return Card(VOID, 0, text[2:])
    cls, suit, rank_text = (YINYANG, "", text[2:]) if text.startswith("陰陽") else (GOGYO, text[:1], text[1:])
    if (cls == GOGYO and suit not in SUITS) or not rank_text.isdigit() or not 1 <= int(rank_text) <= 12:
        raise ValueError(f"{text}: no Fesca card")
    return Card(cls, int(rank_text), suit)


def spell(c: Card) -> str:
    if c.cls == GOGYO:
        return f"{c.suit}{c.rank}"
    return {YINYANG: f"陰陽{c.rank}", VOID: f"空無{c.suit}", TAIJI: "太極"}[c.cls]


DECK = tuple(
    [spell(Card(GOGYO, r, s)) for s in SUITS for r in range(1, 13)]
    + [spell(Card(YINYANG, r, "")) for r in range(1, 13)]
    + [spell(Card(VOID, 0, s)) for s in SUITS]
    + ["太極"]
)  # 78 cards, one of each (the ruleset's deck-list; its option taikyoku-copies: 1)


def goes_out(hand: list[str], phase: str | None) -> bool:
    """Some discard leaves every other card in melds legal in the phase (not given: in one phase)."""
    if phase is None:
        return any(goes_out(hand, one) for one in CYCLES)
    return bool(hand) and melds_all(tuple(sorted(card(c) for c in hand)), phase, spare=True)


@lru_cache(maxsize=1 << 20)
def melds_all(cards: tuple[Card, ...], phase: str | None, spare: bool = False) -> bool:
    """Every card in a meld but, when ``spare``, one (the discard): the first card (``cards``
    sorted) is that one, or lies in some meld, and the rest meld too."""
    if not cards:
        return not spare  # the discard is a card of the hand: every card melded is no going out
    first, rest = cards[0], cards[1:]
    if spare and melds_all(rest, phase):
        return True
    return any(
        legal(meld, phase) and melds_all(_without(rest, meld[1:]), phase, spare)
        for meld in _groups_from((first,), rest)
    )


def _groups_from(group: tuple[Card, ...], rest: tuple[Card, ...]) -> list[tuple[Card, ...]]:
    """Every group of two or more cards holding ``group`` and some of ``rest`` (in their order)
    that no rule of size, rank or suit already bars from every meld (the search's pruning: a group
    some meld's rule bars cannot grow into that meld)."""
    out: list[tuple[Card, ...]] = []
    for i, c in enumerate(rest):
        grown = (*group, c)
        if _may_grow(grown):
            out.append(grown)
            out.extend(_groups_from(grown, rest[i + 1 :]))
    return out


@lru_cache(maxsize=1 << 18)
def _may_grow(group: tuple[Card, ...]) -> bool:
    """Could the cards, with more, still be a set, a run or a chain?"""
    ranks = [c.rank for c in group if c.cls in (GOGYO, YINYANG)]
    fixed_suits = [c.suit for c in group if c.cls in (GOGYO, VOID)]
    distinct_ranks = len(set(ranks)) == len(ranks)
    as_set = len(set(ranks)) <= 1 and len(set(fixed_suits)) == len(fixed_suits) and len(group) <= 6
    as_run = distinct_ranks and (len(set(fixed_suits)) <= 1 or all(c.cls in (YINYANG, TAIJI) for c in group))
    as_chain = len(group) <= 5 and distinct_ranks and len(set(fixed_suits)) == len(fixed_suits)
    return as_set or as_run or as_chain


def _without(cards: tuple[Card, ...], used: tuple[Card, ...]) -> tuple[Card, ...]:
    left = list(cards)
    for c in used:
        left.remove(c)
    return tuple(left)


@lru_cache(maxsize=1 << 18)
def legal(meld: tuple[Card, ...], phase: str | None) -> bool:
    """A meld in the phase: read by one family only, and, a chain, one the phase allows that shows
    two suits and two ranks of its own."""
    chains = {cycle: _chain_reading(meld, cycle) for cycle in CYCLES}  # None, or shown enough?
    families = [_reads_set(meld), _reads_run(meld), any(r is not None for r in chains.values())]
    if families.count(True) != 1:
        return False
    return not families[2] or chains.get(phase or "") is True


def _classes(meld: tuple[Card, ...]) -> set[int]:
    return {c.cls for c in meld}


def _sw_allowed(meld: tuple[Card, ...]) -> bool:
    """An SW needs a 五行 or 空無 card in the meld."""
    return bool(_classes(meld) & {GOGYO, VOID})


def _rw_allowed(meld: tuple[Card, ...]) -> bool:
    """An RW needs a 五行, 陰陽 or 太極 card in the meld."""
    return bool(_classes(meld) & {GOGYO, YINYANG, TAIJI})


def _reads_set(meld: tuple[Card, ...]) -> bool:
    """組: one rank, 3-6 cards, each suit once (陰陽 the sixth suit of six); 空無組: 2-5 空無 cards."""
    if all(c.cls == VOID for c in meld):
        return 2 <= len(meld) <= 5
    if not 3 <= len(meld) <= 6 or len({c.rank for c in meld if c.cls in (GOGYO, YINYANG)}) > 1:
        return False
    yinyang = [c for c in meld if c.cls == YINYANG]
    if yinyang and len(meld) < 6 and not _sw_allowed(meld):
        return False
    if len(meld) == 6 and not yinyang:  # six suits: the sixth is the 陰陽 card's own
        return False
    voids = [c for c in meld if c.cls == VOID]
    if voids and not _rw_allowed(meld):
        return False
    fixed = [c.suit for c in meld if c.cls in (GOGYO, VOID)]
    return len(set(fixed)) == len(fixed)  # the 陰陽 and 太極 take suits left: at most 5 五行 in all


def _reads_run(meld: tuple[Card, ...]) -> bool:
    return _reads_yinyang_run(meld) or any(_reads_suit_run(meld, suit) for suit in SUITS)


def _reads_yinyang_run(meld: tuple[Card, ...]) -> bool:
    """陰陽順: 陰陽 cards of consecutive ranks 1-12, 太極 filling a place; two cards both 陰陽."""
    if any(c.cls not in (YINYANG, TAIJI) for c in meld) or not 2 <= len(meld) <= 12:
        return False
    ranks = sorted(c.rank for c in meld if c.cls == YINYANG)
    if not ranks or (len(meld) == 2 and len(ranks) < 2):
        return False
    return len(set(ranks)) == len(ranks) and ranks[-1] - ranks[0] < len(meld)  # 太極 fill gaps or ends


def _reads_suit_run(meld: tuple[Card, ...], suit: str) -> bool:
    """順 of one 五行 suit: the cards fill consecutive places of ZAT 1 … 12 (round through ZAT)."""
    n = len(meld)
    if not 3 <= n <= PLACES or any(c.cls in (GOGYO, VOID) and c.suit != suit for c in meld):
        return False
    if any(c.cls == YINYANG for c in meld) and not _sw_allowed(meld):
        return False
    fixed = [c.rank for c in meld if c.cls in (GOGYO, YINYANG)]
    if len(set(fixed)) != len(fixed):
        return False
    void = any(c.cls == VOID for c in meld)
    for start in range(PLACES if n < PLACES else 1):
        places = {(start + i) % PLACES for i in range(n)}
        if not set(fixed) <= places:
            continue
        zat_open = ZAT in places  # only the 空無 card, as ZAT, takes the ZAT place
        if zat_open and not void:
            continue
        if void and not zat_open and not _rw_allowed(meld):
            continue  # the 空無 card would be an RW
        return True
    return False


def _chain_reading(meld: tuple[Card, ...], cycle: str) -> bool | None:
    """A 相順 along the cycle: None when the cards read as none; else whether some reading shows two
    suits and two ranks no wild decides."""
    n = len(meld)
    if not 3 <= n <= 5:
        return None
    fixed_suits = [c.suit for c in meld if c.cls in (GOGYO, VOID)]
    ranked = [c for c in meld if c.cls in (GOGYO, YINYANG)]
    if len(set(fixed_suits)) < len(fixed_suits) or len({c.rank for c in ranked}) < len(ranked):
        return None  # each suit and each place once
    order = CYCLES[cycle]
    natural = next((c for c in meld if c.cls == GOGYO), None)
    starts = {(ranked[0].rank - i) % PLACES for i in range(n)} if ranked else set(range(PLACES))
    shown: bool | None = None
    for start in starts:  # only the places and suit orders a card with a rank (and suit) allows
        if any((c.rank - start) % PLACES >= n for c in ranked):
            continue
        for step in (1, -1):
            if natural is None:
                firsts: list[int] = list(range(5))
            else:
                firsts = [(order.index(natural.suit) - step * ((natural.rank - start) % PLACES)) % 5]
            for first in firsts:
                suit_at = {(start + i) % PLACES: order[(first + step * i) % 5] for i in range(n)}
                fits = _fit_chain(meld, suit_at)
                if fits is not None:
                    shown = shown or fits
    return shown


def _fit_chain(meld: tuple[Card, ...], suit_at: dict[int, str]) -> bool | None:
    """The cards in the chain's places (place -> suit): None when they do not fit; else whether
    they show two suits and two ranks no wild decides."""
    place_of_suit = {s: p for p, s in suit_at.items()}
    taken: set[int] = set()
    suits, ranks, sw, rw = set(), set(), False, False
    for c in meld:
        if c.cls == TAIJI:
            continue
        place = c.rank if c.cls == YINYANG else place_of_suit.get(c.suit, -1)
        if place not in suit_at or place in taken or (c.cls == GOGYO and place != c.rank):
            return None
        taken.add(place)
        if c.cls in (GOGYO, VOID):
            suits.add(c.suit)
        if c.cls != VOID or place == ZAT:
            ranks.add(place)
        sw, rw = sw or c.cls == YINYANG, rw or (c.cls == VOID and place != ZAT)
    if ZAT in suit_at and ZAT not in taken:  # 太極 is never ZAT
        return None
    if (sw and not _sw_allowed(meld)) or (rw and not _rw_allowed(meld)):
        return None
    return len(suits) >= 2 and len(ranks) >= 2


def meld_problem(cards: list[str], phase: str | None) -> str | None:
    """A meld an answer gives, re-checked: a set, a run or the phase's chain, read one way only (no
    phase given: in some phase)."""
    meld = tuple(sorted(card(c) for c in cards))
    ok = any(legal(meld, one) for one in CYCLES) if phase is None else legal(meld, phase)
    return None if ok else f"{' '.join(cards)}: no meld"
