"""melds audit: each kind of claim, planted contradictions, dead meld sizes, deals, assumptions,
the report in docs/ and the command line."""

from __future__ import annotations

import fcntl
import json
import os
import pickle
import textwrap
from functools import lru_cache
from pathlib import Path

import pytest
from clirun import run

from solver.audit.findings import Audit
from solver.audit.run import audit_ruleset, check_claims, claim_checks_of
from solver.core.registry import load_game
from solver.core.ruleset import bundled_rulesets, load_ruleset


@lru_cache(maxsize=1)
def bundled_audits() -> tuple:
    """The audit of every bundled ruleset, made once in the whole run for the tests that read it:
    the first test worker to ask makes it and keeps it, pickled, in the run's own folder (which
    every worker shares, tests/conftest.py); the others wait for it there and read it."""
    kept = Path(os.environ["MELDS_TEST_RUN_DIR"]) / "bundled-audits.pickle"
    with open(kept.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if kept.exists():
            return pickle.loads(kept.read_bytes())
        audits = tuple(audit_ruleset(load_ruleset(str(p))) for p in bundled_rulesets())
        kept.write_bytes(pickle.dumps(audits))
        return audits


def child(tmp_path, base: str, extra: str, name: str = "planted.yaml"):
    """A ruleset extending a bundled one, with extra sections (lists replace the base's)."""
    path = tmp_path / name
    path.write_text(
        f"format: 1\nid: planted\nname: planted\nextends: {base}\n" + textwrap.dedent(extra), encoding="utf-8"
    )
    return load_ruleset(str(path))


def claims_audit(ruleset) -> Audit:
    """The findings of a ruleset's claims, as its whole audit makes them (audit.run's claim checks),
    without the game's searches for defects beyond the claims (dead meld sizes, ambiguous kinds,
    deals): those add no claim's finding, and for a ruleset extending a bundled one they are its
    base's, which the bundled audits run (a Fesca search takes seconds)."""
    audit = Audit(ruleset)
    check_claims(audit, claim_checks_of(load_game(ruleset)))
    return audit


def by_id(audit):
    return {f.id.split("/")[-1]: f for f in audit.findings}


def test_meld_claims_agree_or_contradict(tmp_path):
    rs = child(
        tmp_path,
        "basic-rummy",
        """
        claims:
          - {id: good, kind: meld, cards: S9 S10 SJ, legal: true, as: sequence, source: {quote: "[S9][S10][SJ][SQ]"}}
          - {id: planted, kind: meld, cards: S9 S10 SQ, legal: true, source: {quote: "[S9][S10][SJ][SQ]"}}
    """,
    )
    audit = audit_ruleset(rs)
    assert audit.claims_checked == 2 and audit.claims_agreeing == 1
    f = by_id(audit)["planted"]
    assert f.severity == "contradiction" and f.claimed == {"legal": True} and f.computed == {"legal": False}
    assert f.source["quote"] == "[S9][S10][SJ][SQ]" and "consecutive" in f.witness["reasons"][0]


def test_fesca_meld_points_claim(tmp_path):
    rs = child(
        tmp_path,
        "fesca",
        """
        claims:
          - {id: right, kind: meld-points, cards: 木1 木2 木3, points: 1, source: {quote: ・ 木の 3 連順}}
          - {id: wrong, kind: meld-points, cards: 木1 木2 木3, points: 99, source: {quote: ・ 木の 3 連順}}
    """,
    )
    found = by_id(claims_audit(rs))
    assert "right" not in found and found["wrong"].claimed == 99 and found["wrong"].computed == 1


def test_mahjong_claims_waits_kans_payments(tmp_path):
    audit = audit_ruleset(load_ruleset("gensou-mahjong"))
    found = by_id(audit)
    assert found["nine-gates-waits"].computed == ["2p", "5p", "7p", "8p"]
    assert found["kan-nine-gates-9p"].computed == {"document_rule": False, "general_rule": False}
    assert "kan-555666777999s-5s" not in found and "okuri-kan" not in found
    quote = (
        "親が満貫(12,000点)をツモ和了した場合、南家と西家が北家の支払い分(4,000点)を折半して支払うため、"
        "それぞれ4,000+2,000で6,000点の支払いとなる。"
    )
    rs = child(
        tmp_path,
        "gensou-mahjong-3p",
        f"""
        claims:
          - {{id: off-by-one, kind: payment, basic: 2000, seat: E, players: 3, payments: {{S: 6000, W: 5000}},
             source: {{quote: "{quote}"}}}}
    """,
    )
    (f,) = [f for f in audit_ruleset(rs).findings if f.severity == "contradiction"]
    assert f.computed == {"S": 6000, "W": 6000}


def test_word_claims(tmp_path):
    rs = child(
        tmp_path,
        "word-rummy",
        """
        claims:
          - {id: school, kind: word, word: がっこう, legal: true, source: {quote: 日本語で通じればOK!!!}}
          - {id: coffee, kind: word, word: コーヒー, legal: true, source: {quote: 日本語で通じればOK!!!}}
    """,
    )
    found = by_id(audit_ruleset(rs))
    assert "school" not in found and found["coffee"].computed is False


def test_dead_meld_sizes_are_found_by_sat(tmp_path):
    rs = child(
        tmp_path,
        "basic-rummy",
        """
        melds:
          - {id: group, name: グループ, family: group, shape: group, size: {min: 3, max: 6}, roles: [natural],
             source: {quote: 3枚か4枚の同じランクのカードです。}}
    """,
    )
    f = by_id(audit_ruleset(rs))["group"]
    assert f.severity == "warning" and f.computed == {"impossible_sizes": [5, 6]}


def test_a_deal_that_does_not_fit_the_deck(tmp_path):
    rs = child(
        tmp_path,
        "basic-rummy",
        """
        deal:
          hand_size:
            - {players: ["2..6"], cards: 10, source: {quote: 2人ゲーム10枚}}
          starter_discard: 1
    """,
    )
    found = by_id(audit_ruleset(rs))
    assert found["6"].severity == "contradiction" and (found["6"].claimed, found["6"].computed) == (61, 52)
    assert "5" not in found  # 5 × 10 + 1 = 51 fits in 52


def test_every_assumption_is_listed_with_its_quote():
    for audit in bundled_audits():
        rs = audit.ruleset
        listed = [f for f in audit.findings if "/assumption/" in f.id]
        assert {f.id.split("/")[-1] for f in listed} == {a.id for a in rs.assumptions}
        assert all(f.severity == "assumption" for f in listed)
        assert all(f.source["quote"] for f, a in zip(listed, rs.assumptions, strict=True) if a.source)


def test_known_findings_of_the_documents():
    """What the audit finds in the five documents, as reviewed finding by finding (see
    docs/audit-report.md; the whole list of contradictions is a snapshot, tests/test_snapshots.py)."""
    warnings = {f.id for a in bundled_audits() for f in a.findings if f.severity == "warning"}
    assert {"fesca/score-table/yinyang-run", "fesca/score-table/zat-set"} <= warnings
    found = {f.id: f for a in bundled_audits() for f in a.findings}
    # an exception the abortive-draw rule states for itself is the ruleset's reading, not a contradiction
    assert found["gensou-mahjong/defect/kyuushu-renchan-in-the-east-round"].severity == "assumption"
    # not defects: a table's own rules on another page; captions whose rule the text still states
    assert not {
        "gensou-mahjong/defect/extra-red-dora-unnamed",
        "fesca/lost/soukoku-descending",
        "fesca/lost/chain-shift-picture",
        "fesca/lost/chain-or-run",
    } & set(found)
    # one tile set without counts is one gap, not one per player count
    assert [i for i in found if i.startswith("word-rummy/deal/")] == ["word-rummy/deal/unknown-set"]
    assert found["word-rummy/defect/next-dealer-after-no-game"].kind == "presupposition"
    # a variant that departs from the document on purpose reports none of the document's defects again
    assert not [i for i in found if i.startswith(("tenhou/defect/", "gensou-mahjong-3p/defect/"))]


def test_score_table_pattern_is_checked():
    """The bundled set table doubles (1 2 4 8); the same table with 5 at five cards breaks it."""
    from dataclasses import replace

    from solver.melding.audit import score_table

    rs = load_ruleset("fesca")
    kind = rs.kinds[0]
    assert kind.score.points_by_count == {3: 1, 4: 2, 5: 4, 6: 8}
    audit = Audit(rs)
    bad = replace(kind, score=replace(kind.score, points_by_count={3: 1, 4: 2, 5: 5, 6: 8}))
    score_table(audit, bad, 6, [])
    (f,) = audit.findings
    assert f.severity == "contradiction" and f.computed == {"factor": 2.0, "breaks_at": 5}


def test_cli_exit_codes_and_json(tmp_path):
    assert run("audit", "gensou-mahjong-3p").exit_code == 0 and run("audit", "basic-rummy").exit_code == 1
    result = run("audit", "basic-rummy", "--json")
    assert result.exit_code == 1
    data = json.loads(result.output)
    (f,) = [f for f in data["findings"] if f["severity"] == "contradiction"]
    assert set(f) == {
        "id",
        "severity",
        "ruleset",
        "source",
        "message",
        "claimed",
        "computed",
        "witness",
        "kind",
        "sides",
    }
    assert f["source"] == {"doc": "003_33e9f92db0de6c57.txt", "quote": "[HK][SK][CA]"}
    assert f["kind"] == "worked-example" and [s["line"] for s in f["sides"]] == [58, 56]  # the example, the rule
    assert data["rulesets"][0]["claims_checked"] == 4
    assert run("audit").exit_code == 2 and run("audit", "fesca", "--all").exit_code == 2
    assert run("audit", "no-such-game").exit_code == 2
    text = run("audit", "word-rummy").output
    assert "gap (5)" in text and "never says how many tiles" in text and "[stock-overdraw]" in text


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_a_users_ruleset_gets_the_same_audit(tmp_path, fmt):
    rs_path = tmp_path / "mine.yaml"
    rs_path.write_text(
        "format: 1\nid: mine\nname: mine\nextends: basic-rummy\n"
        "claims:\n  - {id: q-k-a, kind: meld, cards: HQ HK HA, legal: true, "
        'source: {quote: "[HQ][HK][HA] これはシークエンスではない"}}\n',
        encoding="utf-8",
    )
    result = run("audit", str(rs_path), "--format", fmt)
    assert result.exit_code == 1 and "q-k-a" in result.output


def test_ambiguous_melds_without_a_deciding_rule_are_found_by_sat(tmp_path):
    """A ruleset with two kinds that read the same cards and no ambiguity: rule: the joined SAT
    models of the two kinds find a card set both read, and the meld checker confirms it."""
    rs = child(
        tmp_path,
        "basic-rummy",
        """
        melds:
          - {id: group, name: グループ, family: group, shape: group, size: {min: 3, max: 4}, roles: [natural],
             source: {quote: 3枚か4枚の同じランクのカードです。}}
          - {id: trio, name: trio, family: trio, shape: group, size: {min: 3, max: 3}, roles: [natural],
             source: {quote: 3枚か4枚の同じランクのカードです。}}
    """,
    )
    (f,) = [f for f in audit_ruleset(rs).findings if "/ambiguous/" in f.id]
    assert f.severity == "gap" and f.id.endswith("group+trio")
    from solver.melding.meld.checker import MeldChecker

    with MeldChecker(rs) as checker:
        verdict = checker.check(checker.notation.parse_many(f.witness))
        assert {r.kind.id for r in verdict.readings} == {"group", "trio"} and not verdict.legal
    # the bundled rulesets either cannot be ambiguous or say how such a meld is judged
    assert not [f for a in bundled_audits() for f in a.findings if "/ambiguous/" in f.id]


FLIPS = {  # how to make a true claim false, per kind
    "move": lambda c: {**c, "legal": not c["legal"]},
    "draw": lambda c: {**c, "payments": {k: v + 100 for k, v in c["payments"].items()}},
    "score": lambda c: {**c, "total": c.get("total", 0) + 100} if "total" in c else {**c, "han": c["han"] + 1},
    "wild": lambda c: {**c, "wild": not c["wild"]},
    "hand-points": lambda c: {**c, "points": c["points"] + 1},
    "riichi-kan": lambda c: {**c, "document_rule": not c["document_rule"]},
    "payment": lambda c: {**c, "payments": {k: v + 100 for k, v in c["payments"].items()}},
    "meld": lambda c: {**c, "legal": not c["legal"]},
    "meld-points": lambda c: {**c, "points": c["points"] + 1},
    "word": lambda c: {**c, "legal": not c["legal"]},
}


@pytest.mark.parametrize("kind", sorted(FLIPS))
def test_each_claim_kind_holds_in_the_bundle_and_a_planted_flip_is_found(tmp_path, kind):
    """Every kind of claim is used by some bundled ruleset, where it agrees; the same claim with
    its value flipped, planted in a copy, is reported as a contradiction."""
    import yaml

    for path in bundled_rulesets():
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
        agreeing = [c for c in raw.get("claims", []) if c["kind"] == kind]
        audit = next(a for a in bundled_audits() if a.ruleset.path == str(path))
        disagreeing = {f.id.split("/")[-1] for f in audit.findings if "/claim/" in f.id}
        agreeing = [c for c in agreeing if c["id"] not in disagreeing]
        if agreeing:  # the kind is one the ruleset's game checks ("move" claims: the audit itself)
            assert kind in {"move", *load_game(audit.ruleset).claim_checks()}
            break
    else:
        pytest.fail(f"no bundled claim of kind {kind} holds")
    flipped = FLIPS[kind](agreeing[0])
    rs = child(tmp_path, path.stem, "claims:\n  - " + json.dumps(flipped, ensure_ascii=False) + "\n")
    found = [f for f in claims_audit(rs).findings if f.severity == "contradiction" and "/claim/" in f.id]
    assert [f.id.split("/")[-1] for f in found] == [flipped["id"]]
