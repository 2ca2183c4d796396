"""Kind models kept beside a bundled ruleset's compiled form (solver/melding/meld/kept.py): a model
read back is the model built (the same variables, the same clauses in the same order, the
ruleset's own objects), answers as one built afresh, a broken entry is built again, and a ruleset
from a file of the user's keeps nothing."""

from __future__ import annotations

import pickle
import shutil

import pytest

from solver.core.ruleset import BUNDLED_DIR, load_ruleset
from solver.melding.meld.checker import MeldChecker
from solver.melding.meld.encode import KindModel
from solver.melding.meld.kept import kind_model

MELDS = [
    "木3 木4 木5",
    "木3 木4 太極",
    "陰陽6 空無木 太極",
    "金2 金3 金4 太極 陰陽6",
    "火9 火3 金12",
    "土8 水1 陰陽10 火2 空無火 太極",
    "木5 火5 土5 金5 水5 陰陽5",
]


def _fresh(ruleset, kind_id: str, n: int) -> KindModel:
    checker = MeldChecker(ruleset)
    kind = ruleset.kind(kind_id)
    return KindModel(ruleset.deck, kind, n, checker.steps(kind), checker.gate).build(keep_clauses=True)


def _kept(ruleset, kind_id: str, n: int) -> KindModel:
    checker = MeldChecker(ruleset)
    kind = ruleset.kind(kind_id)
    return kind_model(ruleset, kind, n, checker.steps(kind), checker.gate)


@pytest.mark.parametrize(("kind_id", "n"), [("sousei-chain", 4), ("set", 3)])
def test_a_model_read_back_is_the_model_built(tmp_path, monkeypatch, kind_id, n):
    monkeypatch.setenv("MELDS_CACHE_DIR", str(tmp_path))
    ruleset = load_ruleset("fesca")
    fresh = _fresh(ruleset, kind_id, n)
    built = _kept(ruleset, kind_id, n)  # built, and kept
    assert len(list(tmp_path.glob(f"*.model.{kind_id}.{n}.*.pickle"))) == 1
    read = _kept(ruleset, kind_id, n)
    assert read is not built and read.packed is not None and built.packed is None
    assert read.pool.top == fresh.pool.top and read.pool.named == fresh.pool.named
    assert read.rules.keys() == fresh.rules.keys()
    assert read.packed() == fresh.formula == built.clauses  # every clause, in the order built
    kind = ruleset.kind(kind_id)
    assert read.kind is kind and read.deck is ruleset.deck
    assert all(face is ruleset.deck.faces[face.index] for face, _ in read.cards)
    assert all(entry is kind.roles[i] for entries in read.entries for i, entry in entries)


def test_models_read_back_answer_as_models_built_afresh(tmp_path, monkeypatch):
    monkeypatch.setenv("MELDS_CACHE_DIR", str(tmp_path))
    ruleset = load_ruleset("fesca")

    def verdicts() -> list[tuple]:
        with MeldChecker(ruleset) as checker:
            out = []
            for text in MELDS:
                verdict = checker.check_text(text)
                out.append((verdict.legal, verdict.reading, verdict.reasons, verdict.could_be))
            return out

    monkeypatch.setenv("MELDS_CACHE_DIR", "off")
    afresh = verdicts()
    monkeypatch.setenv("MELDS_CACHE_DIR", str(tmp_path))
    assert verdicts() == afresh  # the models built and kept
    assert list(tmp_path.glob("*.model.*.pickle"))
    assert verdicts() == afresh  # the models read back


def test_a_broken_kept_model_is_built_again(tmp_path, monkeypatch):
    monkeypatch.setenv("MELDS_CACHE_DIR", str(tmp_path))
    ruleset = load_ruleset("fesca")
    fresh = _fresh(ruleset, "run", 3)
    _kept(ruleset, "run", 3)
    [entry] = tmp_path.glob("*.model.run.3.*.pickle")
    state, _ = pickle.loads(entry.read_bytes())
    entry.write_bytes(pickle.dumps((state, b"not marshalled clauses")))
    assert _kept(ruleset, "run", 3).packed() == fresh.formula  # its clauses built again
    entry.write_bytes(b"not a pickle")
    again = _kept(ruleset, "run", 3)
    assert again.packed is None and again.clauses == fresh.formula


def test_a_ruleset_of_the_users_keeps_no_models(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("MELDS_CACHE_DIR", str(cache))
    mine = tmp_path / "my-basic-rummy.yaml"
    shutil.copy(BUNDLED_DIR / "basic-rummy.yaml", mine)
    ruleset = load_ruleset(str(mine))
    assert ruleset.compiled is None
    assert MeldChecker(ruleset).check_text("S9 S10 SJ").legal
    assert not list(cache.glob("*.model.*.pickle"))
