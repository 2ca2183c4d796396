"""The checker's shortcuts (solver/melding/meld/ruleholds.py, the verdict memo) against its plain SAT path.

A diagnosis that skips a SAT call because the last model already keeps a rule must blame the same
rules as one that asks the solver every time; every "it holds" the shortcut says is confirmed by
the solver here. Witness details in a reason's message (which rank a wild card shows) are whatever
model the solver found, on either path, so the comparison is of verdicts, kinds, reading kinds,
and each reason's code, kind and rule citation.
"""

from __future__ import annotations

import random

import pytest

from solver.core.deck import Face
from solver.core.ruleset import load_ruleset
from solver.melding.meld import checker as checker_module
from solver.melding.meld import diagnose as diagnose_module
from solver.melding.meld import ruleholds as ruleholds_module
from solver.melding.meld.checker import MeldChecker

RULESETS = ("fesca", "basic-rummy", "marriage", "rummikub")


def random_melds(ruleset, count: int, seed: int) -> list[tuple]:
    """Random melds: sampled faces (wild-capable cards included as often as the deck has them),
    near-sets and near-runs (one face changed), and repeats of a face where the deck has copies."""
    rng = random.Random(seed)
    faces = list(ruleset.deck.faces)
    ranked = [f for f in faces if f.rank is not None and f.suit is not None]
    out: list[tuple[Face, ...]] = []
    while len(out) < count:
        n = rng.randint(2, 7)
        style = rng.random()
        if style < 0.4 or not ranked:
            meld = rng.sample(faces, min(n, len(faces)))
        else:
            base = rng.choice(ranked)
            if style < 0.7:  # a near-set: the same rank in other suits
                meld = [f for f in ranked if f.rank == base.rank]
            else:  # a near-run: the same suit
                meld = sorted((f for f in ranked if f.suit == base.suit), key=lambda f: f.index)
                start = rng.randrange(len(meld))
                meld = (meld + meld)[start : start + n]
            meld = rng.sample(meld, min(n, len(meld)))
            for _ in range(rng.randint(0, 2)):  # change a card or two, maybe to a wild
                if meld:
                    meld[rng.randrange(len(meld))] = rng.choice(faces)
        counts: dict = {}
        for f in meld:
            counts[f] = counts.get(f, 0) + 1
        if meld and all(c <= ruleset.deck.copies[f] for f, c in counts.items()):
            out.append(tuple(meld))
    return out


def summary(verdict) -> tuple:
    reasons = tuple((r.code, r.kind, r.source) for r in verdict.reasons)
    return (
        verdict.legal,
        verdict.kind.id if verdict.kind else None,
        tuple(r.kind.id for r in verdict.readings),
        reasons,
        verdict.phase_required,
    )


def compare(name: str, count: int, seed: int, monkeypatch) -> tuple[int, int]:
    ruleset = load_ruleset(name)
    confirmed = [0]
    holds = diagnose_module.rule_holds

    def checked_holds(assignment, key):  # every shortcut confirmed by the solver
        answer = holds(assignment, key)
        if answer:
            assert _satisfiable_with_aux(assignment.model, assignment.values, key), key
            confirmed[0] += 1
        return answer

    broken_of = checker_module.certainly_broken

    def checked_broken(model, indices):  # every "no reading keeps it" confirmed by the solver
        broken = broken_of(model, indices)
        present = model.presence(indices)
        for key in broken:
            only = [lit if k == key else -lit for k, (lit, _) in model.rules.items()]
            assert not model.solver.solve(present + only), key
            confirmed[0] += 1
        return broken

    plain_of = ruleholds_module.plain_model  # asked through ruleholds.keeps_all_but

    def checked_plain(model, indices, enabled):  # every model written without the solver, checked by it
        found = plain_of(model, indices, enabled)
        if found is not None:
            values = [v if found.values[v - 1] > 0 else -v for v in range(1, model.pool.top + 1)]
            for key in enabled:
                assert _satisfiable_with_aux(model, values, key), key
            assert _satisfiable_with_aux(model, values, None, enabled)
            plain[0] += 1
        return found

    plain = [0]
    monkeypatch.setattr(ruleholds_module, "plain_model", checked_plain)
    monkeypatch.setattr(diagnose_module, "rule_holds", checked_holds)
    monkeypatch.setattr(checker_module, "certainly_broken", checked_broken)
    fast, plain_checker = MeldChecker(ruleset), MeldChecker(ruleset)
    plain_checker.shortcuts = False
    for meld in random_melds(ruleset, count, seed):
        questions = [(phase, False) for phase in (None, *(p.id for p in ruleset.phases))] + [(None, True)]
        for phase, ordered in questions:  # ordered: the cards in table order, as given
            a = fast.check(meld, phase=phase, ordered=ordered)
            b = plain_checker.check(meld, phase=phase, ordered=ordered)
            assert summary(a) == summary(b), (name, meld, phase, ordered)
            if a.legal:
                assert a.reading is not None and b.reading is not None
                assert a.reading.wilds == b.reading.wilds
    fast.close()
    plain_checker.close()
    return confirmed[0], plain[0]


def _satisfiable_with_aux(model, values: list[int], key: str | None, enabled=()) -> bool:
    """The assignment's card literals fixed, the rule enabled: satisfiable (the rule's own auxiliary
    variables set anew)?"""
    if not isinstance(values, list):  # an assignment the checker wrote itself
        values = [v if values[v - 1] > 0 else -v for v in range(1, model.pool.top + 1)]
    card_vars: set[int] = set()
    for c in range(len(model.cards)):
        card_vars.update(abs(x) for x in model.role_lits[c])
        card_vars.update(abs(x) for x in model.xs[c])
        card_vars.add(abs(model.pres[c]))
        if model.kind.shape == "sequence" and not model.degenerate:
            card_vars.update(abs(x) for x in model.rel[c])
            card_vars.update(abs(x) for x in model.pos[c])
        elif model.kind.shape != "sequence":
            card_vars.update(abs(x) for x in model.xr[c])
    fixed = [v for v in values if abs(v) in card_vars]
    rules = [lit if k == key or k in enabled else -lit for k, (lit, _) in model.rules.items()]
    # the other rules relaxed: the shortcut's claim is only about this rule's clauses
    return model.solver.solve(fixed + rules)


@pytest.mark.parametrize("name", [n for n in RULESETS if n != "marriage"])  # marriage's deck: slow run
def test_shortcuts_blame_the_same_rules(name, monkeypatch):
    confirmed, plain = compare(name, 12, 1, monkeypatch)
    if name == "fesca":
        assert confirmed > 0 and plain > 0  # the shortcuts are taken (and each time confirmed)


@pytest.mark.slow
@pytest.mark.parametrize("name", RULESETS)
def test_shortcuts_blame_the_same_rules_many(name, monkeypatch):
    compare(name, 1500, 7, monkeypatch)


def test_memo_gives_the_same_verdict():
    checker = MeldChecker(load_ruleset("fesca"))
    melds = random_melds(checker.ruleset, 15, 3)
    first = [checker.check(m) for m in melds]
    assert all(checker.check(m) is v for m, v in zip(melds, first, strict=True))  # remembered
    assert [summary(checker._check(m, None, False, True, None)) for m in melds] == [summary(v) for v in first]
    assert checker.check(melds[0], phase="yang") is not first[0]  # another question, another answer


def test_plain_model_skips_only_what_fails(monkeypatch):
    """The plain model passes over the candidates whose suits cannot step along the sequence
    without writing them out (each still counted as a try): it finds the same model, or gives up
    at the same try, as when it writes out and tests every candidate."""
    ruleset = load_ruleset("fesca")
    checker = MeldChecker(ruleset)
    compared = 0
    for meld in random_melds(ruleset, 60, 11):
        cards = [(face, 0) for face in meld]
        if len(set(meld)) != len(meld) or len(meld) not in (3, 4):  # two sizes: few models to load
            continue
        for kind in ruleset.kinds:
            if kind.id not in ("run", "sousei-chain") or not kind.size_ok(len(cards)):
                continue
            model = checker.model(kind, len(cards))
            indices = model.card_indices(cards)
            if indices is None:
                continue
            broken = checker_module.certainly_broken(model, indices)
            for enabled in (set(model.rules) - broken - {"distinguish"}, {"suit-step", "same-suit"} & set(model.rules)):
                fast = ruleholds_module.plain_model(model, indices, enabled)
                with monkeypatch.context() as patch:
                    patch.setattr(ruleholds_module, "_steps_may_hold", lambda *_: True)
                    slow = ruleholds_module.plain_model(model, indices, enabled)
                assert (fast is None) == (slow is None), (meld, kind.id, enabled)
                if fast is not None:
                    assert (fast.start, fast.combo) == (slow.start, slow.combo), (meld, kind.id)
                    compared += 1
    checker.close()
    assert compared > 0
