"""Snapshots: expected values that are melds' own output, kept so that a change to them is seen
and reviewed, not because anything independent vouches for them (the tests with an oracle are
elsewhere). A snapshot that fails after an intended change is regenerated with the command its
message names, and the difference read before it is committed."""

from __future__ import annotations

from clirun import ROOT
from test_audit import bundled_audits

from solver.audit.report import audit_markdown


def test_snapshot_the_audit_report_in_docs():
    """docs/audit-report.md is the audit of every bundled ruleset."""
    assert (ROOT / "docs" / "audit-report.md").read_text(encoding="utf-8") == audit_markdown(list(bundled_audits())), (
        "regenerate: melds audit --all --format markdown > docs/audit-report.md"
    )


def test_snapshot_the_audit_pages_in_docs(tmp_path):
    """docs/audit/ holds the audit's browsable pages of every bundled ruleset."""
    from solver.commands.audit import _write_pages

    _write_pages(list(bundled_audits()), tmp_path, True)
    written = sorted(p.name for p in tmp_path.iterdir())
    committed = sorted(p.name for p in (ROOT / "docs" / "audit").iterdir())
    assert written == committed, "regenerate: melds audit --all --format html -o docs/audit"
    for name in written:
        assert (tmp_path / name).read_text(encoding="utf-8") == (ROOT / "docs" / "audit" / name).read_text(
            encoding="utf-8"
        ), f"docs/audit/{name} is stale: melds audit --all --format html -o docs/audit"


def test_snapshot_the_contradictions_the_audit_finds_in_the_documents():
    """Every contradiction the audit reports in the five documents (each one's own test, where it
    has one, is in tests/test_audit.py). Regenerate: the ids of `melds audit --all --json`'s
    findings whose severity is contradiction."""
    contradictions = {f.id for a in bundled_audits() for f in a.findings if f.severity == "contradiction"}
    assert contradictions == {
        "basic-rummy/claim/group-example",
        "gensou-mahjong/claim/nine-gates-waits",
        "gensou-mahjong/claim/kan-nine-gates-9p",
        "fesca/claim/penalty-c",
        "fesca/claim/penalty-doubled",
        "fesca/defect/rw-coexistence-vs-bury",
        "fesca/defect/doubled-total-credited-to-a-payer",
        "marriage/defect/ace-tiplu-marriage",
        "gensou-mahjong/defect/cap-adds-up-for-a-non-dealer-only",
        "fesca/defect/four-card-chain-ends",
        "word-rummy/defect/timeout-undo-vs-relief",
    }
