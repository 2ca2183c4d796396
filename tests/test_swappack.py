"""The depth-first search of a swap model's candidates (solver/melding/turn/swappack.py) against
every choice of options written out: on small random hands and options, a way out is found within
a bound exactly when one exists, its swaps are within the bound, and a discard row's draws (at
the row's distance) are every card some way out draws."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from functools import partial
from itertools import combinations, product
from operator import is_not

from solver.core.ruleset import load_ruleset
from solver.melding.turn.swappack import PackSearch

FACES = load_ruleset("basic-rummy").deck.faces[:9]


@dataclass(frozen=True)
class Option:
    hand_faces: tuple


def every_way(options, held: Counter, most: Counter, melded: int, bound: int, aside=None):
    """Each way out, by brute force, as the swap model has it: (swaps, cards drawn) for every set
    of options that fits the copies and melds ``melded`` cards, and every choice of the hand's
    copies let go (the rest melded; what the melds hold beyond them is drawn from the copies
    left): a card let go is the discard, or every one is set aside and one more card drawn is."""
    for n in range(len(options) + 1):
        for chosen in combinations(options, n):
            used = Counter(f for o in chosen for f in o.hand_faces)
            if used.total() != melded:
                continue
            for counts in product(*(range(held[f] + 1) for f in sorted(held))):
                let_go = Counter(dict(zip(sorted(held), counts, strict=True)))
                drawn = used - (held - let_go)
                if (held - let_go) - used or any(drawn[f] > most[f] - held[f] for f in drawn):
                    continue
                if aside is not None and not let_go[aside]:
                    continue
                spare = [f for f in most if most[f] > held[f] + drawn[f]]
                if let_go - Counter([aside] if aside is not None else []) and drawn.total() <= bound:
                    yield drawn.total(), set(drawn)
                if spare and drawn.total() + 1 <= bound:
                    yield drawn.total() + 1, set(drawn) | set(spare)


def deal(rng: random.Random) -> tuple[list[Option], Counter, Counter]:
    held = Counter(rng.sample(FACES, rng.randint(3, 6)))
    most = held + Counter(rng.sample(FACES, 4))
    options = []
    for _ in range(rng.randint(2, 8)):
        faces = tuple(sorted(rng.sample(FACES, rng.randint(2, 3))))
        if any(f in held for f in faces):
            options.append(Option(faces))
    return options, held, most


def dealt(seed: int, count: int):
    """``count`` deals, each with the cards a way out melds (all but the discard)."""
    rng = random.Random(seed)
    for _ in range(count):
        options, held, most = deal(rng)
        yield options, held, most, held.total() - 1


def test_the_search_finds_a_way_out_exactly_when_one_exists() -> None:
    for options, held, most, melded in dealt(47, 100):
        search = PackSearch(options, held, most, melded, discard=True)
        ways = list(every_way(options, held, most, melded, 2))
        for bound in range(3):
            found = search.find(bound, lambda o: True)
            assert found.complete
            assert (found.packing is not None) == any(swaps <= bound for swaps, _ in ways), (options, held, most, bound)
            if found.packing is not None:
                assert len(found.packing.aside) == len(found.packing.drawn) <= bound
                placed = Counter(f for o in found.packing.options for f in o.hand_faces)
                after = held - Counter(found.packing.aside) + Counter(found.packing.drawn)
                assert after - placed == Counter([found.packing.discard])


def test_a_rows_draws_are_every_card_some_way_out_draws() -> None:
    for options, held, most, melded in dealt(4747, 100):
        aside = sorted(held)[0]
        ways = list(every_way(options, held, most, melded, 3, aside))
        if not ways:
            continue
        bound = max(1, min(swaps for swaps, _ in ways))  # the row's distance, as the table asks it
        expected = set().union(*(d for swaps, d in ways if swaps <= bound))
        draws = PackSearch(options, held, most, melded, discard=True).draws(bound, lambda o: True, aside)
        assert draws.complete and set(draws.faces) == expected, (options, held, most, bound)


def test_an_illegal_option_is_never_melded() -> None:
    for options, held, most, melded in dealt(474, 100):
        if not options:
            continue
        barred = options[0]
        found = PackSearch(options, held, most, melded, discard=True).find(2, partial(is_not, barred))
        ways = list(every_way(options[1:], held, most, melded, 2))
        assert (found.packing is not None) == bool(ways)
        assert found.packing is None or all(o is not barred for o in found.packing.options)
