"""melds audit's reading of the documents: sentences, coverage, the annotated HTML pages, the
findings' kinds and sides, the declared defects and their witnesses, the searches behind them."""

from __future__ import annotations

import json
import textwrap
from html.parser import HTMLParser

import pytest
import yaml
from clirun import run
from test_audit import bundled_audits, child

from solver.audit.coverage import (
    STATUSES,
    SentenceCoverage,
    coverage_lists,
    document_coverage,
    ruleset_entries,
    ruleset_nodes,
)
from solver.audit.defects import DEFECT_KINDS
from solver.audit.findings import KINDS
from solver.audit.pages import document_page, index_page, page_name
from solver.audit.run import audit_ruleset
from solver.audit.sentences import split_document
from solver.core.errors import MeldsError
from solver.core.registry import load_game
from solver.core.ruleset import bundled_rulesets, load_ruleset
from solver.core.source import document_text

# -- sentences --------------------------------------------------------------------------------------


def test_sentences_split_at_ends_items_rows_and_keep_qualifiers():
    text = textwrap.dedent("""\
        # 見出し

        一つ目の文です。二つ目の文です。(つまり、括弧の中の文です。)
        - 項目の文。
        ・ 点の項目
        名前\t1\t2
        禁止しなければなりません。(例外は除く)
        キャプションの\x20\x20
        続き
        The first sentence. The second one
        runs on to the next line. 1.1 is not an end.
        """)
    doc = split_document("t.txt", text)
    assert [(s.line, s.form, s.text) for s in doc.sentences] == [
        (1, "heading", "見出し"),
        (3, "prose", "一つ目の文です。"),
        (3, "prose", "二つ目の文です。"),
        (3, "prose", "(つまり、括弧の中の文です。)"),
        (4, "item", "項目の文。"),
        (5, "item", "点の項目"),
        (6, "row", "名前 1 2"),
        (7, "prose", "禁止しなければなりません。(例外は除く)"),
        (8, "prose", "キャプションの 続き"),
        (10, "prose", "The first sentence."),
        (10, "prose", "The second one runs on to the next line."),
        (11, "prose", "1.1 is not an end."),
    ]
    assert doc.locate("二つ目") == (2,) and doc.locate("文です。二つ目") == (1, 2) and doc.locate("ない") == ()
    assert doc.locate("キャプションの続き") == (8,)  # white space is not compared


def test_every_quote_of_every_ruleset_names_a_sentence():
    for path in bundled_rulesets():
        rs = load_ruleset(str(path))
        for entry in ruleset_entries(rs):
            doc = split_document(entry.doc, document_text(entry.doc, rs.path))
            assert doc.locate(entry.quote), (entry.id, entry.quote)
        lists = coverage_lists(rs)
        doc = split_document(rs.document, document_text(rs.document, rs.path))
        for quote in (
            lists.rule_bearing
            + lists.not_rule_bearing
            + tuple(q for q, _ in lists.omitted)
            + tuple(q for _, _, q in lists.cites)
        ):
            assert doc.locate(quote), (path.stem, quote)


def test_what_states_no_rule_by_its_form():
    """Naming what the sentence before describes, another name, a lead-in to a list, a question (an
    FAQ's, a caption's) and a bare label with its gloss state no rule; a naming that goes on to a
    rule, and a definition by name, do."""
    from solver.audit.coverage import looks_rule_bearing

    text = textwrap.dedent("""\
        これをドロー(Draw)といいます。
        このとき、このゲームをセブンカードラミー(Seven-Card Rummy)と呼ぶことがあります。
        各プレイヤーのプレイは次のように行います。
        4,4か4,5か?
        他に何かゲームできないの?
        シークエンス(Sequence)
        これを送り槓と言うが、これは幻想麻雀でも一般ルールでも認められない。
        ピュア・シークエンスのカードが、ジプル、ティプル、ポプルの3枚であったときは、マリッジ(Marriage)と呼ばれます。
        """)
    verdicts = [looks_rule_bearing(s) for s in split_document("t.txt", text).sentences]
    assert verdicts == [False] * 6 + [True, True]


def test_a_short_quote_names_the_sentence_it_fills():
    doc = split_document("003_33e9f92db0de6c57.txt", document_text("003_33e9f92db0de6c57.txt"))
    (i,) = doc.locate("10点")  # not 「10点余分に得点する…」 (note 7), which holds it too
    assert doc.sentences[i].line == 101
    mahjong = split_document("002_82a82b19e42b08ae.txt", document_text("002_82a82b19e42b08ae.txt"))
    assert len(mahjong.locate_all("門前役")) == 5  # every heading that is only 門前役


# -- coverage ------------------------------------------------------------------------------------------


def test_status_is_the_strongest_of_what_touches_a_sentence():
    sentence = split_document("t.txt", "文です。").sentences[0]
    row = SentenceCoverage(sentence, True)
    assert row.status == "unmodelled"
    row.cited_by.append("x/melds/a")
    assert row.status == "modelled"
    row.assumed_by.append("x/assumptions/b")
    assert row.status == "assumption"

    class F:
        severity = "warning"

    row.findings.append(F())
    assert row.status == "gap"
    F.severity = "contradiction"
    assert row.status == "contradiction"


def test_coverage_json_contract():
    result = run("audit", "basic-rummy", "--coverage", "--json")
    assert result.exit_code == 1  # the document has a contradiction
    (doc,) = json.loads(result.output)["documents"]
    assert doc["doc"] == "003_33e9f92db0de6c57.txt" and doc["rulesets"] == ["basic-rummy"]
    rows = doc["sentences"]
    assert all({"text", "line", "rule_bearing", "cited_by", "status"} <= set(r) for r in rows)
    assert all(r["status"] in STATUSES for r in rows)
    rule = [r for r in rows if r["rule_bearing"]]
    assert doc["coverage"] == round(sum(bool(r["cited_by"]) for r in rule) / len(rule), 4)
    by_text = {r["text"]: r for r in rows}
    assert by_text["2人ゲーム10枚"]["rule_bearing"] and by_text["2人ゲーム10枚"]["cited_by"]
    assert not by_text["トップに戻る"]["rule_bearing"] and not by_text["1997/12/23 赤桐"]["rule_bearing"]
    assert not by_text["4人までがベストです。"]["rule_bearing"]  # the ruleset's list: advice, not a rule
    assert by_text["[HK][SK][CA]"]["status"] == "contradiction"
    assert by_text["カードのランクは(低)10(高)の順です。"]["status"] == "gap"  # the lost ranks
    assert "dealer" in by_text["最初のディーラー任意に決めます。"]["omitted"]
    entries = {n.id for n in ruleset_nodes(load_ruleset("basic-rummy")).values()}
    assert {i for r in rows for i in r["cited_by"]} <= entries  # an entry's own quote, or the audit's cites
    assert {e.id for e in ruleset_entries(load_ruleset("basic-rummy"))} <= entries


def test_coverage_text_lists_the_uncovered_first():
    text = run("audit", "gensou-mahjong", "--coverage").output  # alone: the three-player sentences are uncovered
    head = text.splitlines()[0]
    assert "coverage" in head and "rule-bearing sentences cited" in head
    assert text.index("  uncovered (") < text.index("  left out on purpose (") < text.index("  cited (")
    assert "L65   [unmodelled] 対面が存在しない。" in text
    assert "— the turn timer" in run("audit", "word-rummy", "--coverage").output  # an omission, with its reason


def test_every_document_every_sentence_accounted():
    for cov in document_coverage(bundled_audits()):
        assert cov.sentences and not cov.unplaced, cov.document.name
        assert 0.3 < cov.coverage <= 1, cov.document.name
        for row in cov.rule_bearing:
            assert row.status in STATUSES
        # what a ruleset leaves out on purpose states a rule (else it belongs in not_rule_bearing)
        assert all(row.rule_bearing for row in cov.sentences if row.omitted), cov.document.name


# -- findings: kinds, sides, witnesses -----------------------------------------------------------------


def test_every_finding_names_its_kind_and_its_sides():
    kinds = set(KINDS.values()) | set(DEFECT_KINDS) | {"other"}
    for audit in bundled_audits():
        for f in audit.findings:
            assert f.kind in kinds, f.id
            assert f.sides and f.sides[0]["quote"] == f.source.get("quote"), f.id
            for side in f.sides:
                if side["quote"]:
                    assert side["sentences"] and side["line"], (f.id, side)


def test_declared_defects_are_shown_by_the_solver_where_they_have_a_witness():
    raw = {p.stem: yaml.safe_load(p.read_text(encoding="utf-8")) for p in bundled_rulesets()}
    shown = 0
    for audit in bundled_audits():
        declared = {d["id"]: d for d in (raw[audit.ruleset.id].get("audit") or {}).get("defects", [])}
        for f in audit.findings:
            d = declared.get(f.id.split("/")[-1]) if "/defect/" in f.id else None
            if d is None:
                continue
            assert f.kind == d["kind"] and len(f.sides) >= len(d["sides"]) - 1
            if "witness" in d or "found_by" in d:
                assert f.witness["reproduced"], f.id
                shown += 1
    assert shown >= 4


def test_the_marriage_search_finds_the_ace_tiplu_and_only_it():
    """The SAT search over every tiplu, against a plain count: the marriage of tiplu t is
    (t−1, t, t+1) in t's suit on the cycle A…K; it connects unless it runs K-A-2."""
    (f,) = [f for a in bundled_audits() for f in a.findings if f.id == "marriage/defect/ace-tiplu-marriage"]
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    order = {r: i for i, r in enumerate(ranks)}

    def connects(run):
        low = sorted(order[r] for r in run)
        high = sorted(order[r] if r != "A" else 13 for r in run)  # the ace above the king
        return any(x == list(range(x[0], x[0] + 3)) for x in (low, high))

    dead = [
        s + t
        for s in "SHDC"
        for i, t in enumerate(ranks)
        if not connects([ranks[(i - 1) % 13], t, ranks[(i + 1) % 13]])
    ]
    assert sorted(f.witness["cards"]) == sorted(dead) == ["CA", "DA", "HA", "SA"]
    assert [s["line"] for s in f.sides] == [25, 16, 14, 24]


def test_the_1p_kan_is_an_assumption_about_an_undefined_rule():
    found = {f.id: f for a in bundled_audits() for f in a.findings}
    kan1 = found["gensou-mahjong/claim/kan-nine-gates-1p"]
    assert (kan1.severity, kan1.kind) == ("assumption", "undefined-rule")
    assert kan1.claimed == {"document_rule": True, "general_rule": False}
    assert found["gensou-mahjong/claim/kan-nine-gates-9p"].severity == "contradiction"  # its own rule


def test_cites_name_an_element_and_count_what_it_implements(tmp_path):
    """An audit section's cites: the entry implements a further sentence; an entry that is not in
    the ruleset is an error, never a silent citation."""
    rs = child(
        tmp_path,
        "basic-rummy",
        """
        audit:
          cites:
            - {entry: moves/actions/meld, quote: 何組メルドしてもよく、まったく行わなくてもかまいません。}
    """,
    )
    (cov,) = document_coverage([audit_ruleset(rs)])
    (row,) = [r for r in cov.sentences if r.sentence.text.startswith("何組メルド")]
    assert row.cited_by == ["basic-rummy/moves/actions/meld"] and row.status == "modelled"
    bad = child(
        tmp_path,
        "basic-rummy",
        """
        audit:
          cites:
            - {entry: moves/actions/no-such-action, quote: 2人ゲーム10枚}
    """,
        name="bad.yaml",
    )
    with pytest.raises(MeldsError, match="no-such-action"):
        coverage_lists(bad)


def test_a_variant_that_departs_from_the_document_lends_it_no_coverage():
    """Tenhou's choices cite the sentences they replace (包則は一切無し → its 包): they are not the
    document's encoding, and the variant's findings are not the document's."""
    (cov,) = [c for c in document_coverage(bundled_audits()) if c.document.name == "002_82a82b19e42b08ae.txt"]
    assert "tenhou" not in cov.rulesets
    assert not [i for r in cov.sentences for i in r.cited_by if i.startswith("tenhou/")]
    assert not [f for r in cov.sentences for f in r.findings if f.ruleset == "tenhou"]
    (pao,) = [r for r in cov.sentences if r.sentence.text == "包則は一切無し。"]
    assert pao.cited_by == ["gensou-mahjong/mahjong_game"] and pao.status == "modelled"


def test_the_four_card_chain_caption_fits_no_chain():
    """「上限は5枚なので木12か土5のどちらか1枚付けまで」: every 4-card 相克 chain of natural and 空無
    cards, searched, takes 木12 or 土5 or neither — never both (the declared defect's message)."""
    from solver.core.errors import MeldsError as Refused

    game = load_game(load_ruleset("fesca"))
    meld = game.claim_checks()["meld"]

    def legal(cards):
        try:
            return meld({"cards": cards, "legal": True, "phase": "yin"})[1]["legal"]
        except Refused:  # a card twice: no meld
            return False

    cycle = ["水", "火", "金", "木", "土"]
    chains = []
    for low in range(0, 11):
        for step in (1, -1):
            for first in range(5):
                cards = [
                    f"空無{cycle[(first + step * k) % 5]}"
                    if low + k in (0, 13)
                    else f"{cycle[(first + step * k) % 5]}{low + k}"
                    for k in range(4)
                ]
                if legal(" ".join(cards)):
                    chains.append(" ".join(cards))
    takes = {card: {c for c in chains if legal(f"{c} {card}")} for card in ("木12", "土5")}
    assert len(chains) == 110 and len(takes["木12"]) == len(takes["土5"]) == 4
    assert not takes["木12"] & takes["土5"]
    found = {f.id: f for a in bundled_audits() for f in a.findings}
    assert "110" in found["fesca/defect/four-card-chain-ends"].message


def test_a_defect_the_solver_no_longer_shows_is_reported_as_such(tmp_path):
    rs = child(
        tmp_path,
        "basic-rummy",
        """
        audit:
          defects:
            - id: planted
              kind: rule-conflict
              message: a conflict that is not one
              sides: [{quote: "[S9][S10][SJ][SQ]"}, {quote: 同じスートの3枚かそれ以上の続き札のことです。}]
              witness:
                - {kind: meld, cards: S9 S10 SJ, legal: true}
    """,
    )
    (f,) = [f for f in audit_ruleset(rs).findings if f.id == "planted/defect/planted"]
    assert f.witness["reproduced"] is False and "no longer shows" in f.message
    assert [s["line"] for s in f.sides] == [46, 44]
    with pytest.raises(MeldsError, match="nonsense"):  # a user's file: the schema names the bad kind
        child(
            tmp_path,
            "basic-rummy",
            """
            audit:
              defects:
                - {id: x, kind: rule-conflict, message: m, sides: [{quote: 2人ゲーム10枚}], witness: [{kind: nonsense}]}
        """,
            name="bad.yaml",
        )


# -- the HTML pages ---------------------------------------------------------------------------------


class _Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.sentences, self.ids, self.links, self.legend, self.external = [], set(), [], [], []
        self._in_legend, self._script, self.data = 0, None, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if a.get("class") == "s":
            self.sentences.append(a)
        if tag == "a" and a.get("href", "").startswith("#"):
            self.links.append(a["href"][1:])
        if a.get("id") == "legend":
            self._in_legend = 1
        elif self._in_legend and tag == "li":
            self.legend.append(a.get("data-status"))
        if tag in ("script", "img", "link", "iframe") and (a.get("src") or a.get("href")):
            self.external.append(a)
        if tag == "script" and a.get("id") == "audit-data":
            self._script = []

    def handle_endtag(self, tag):
        if tag == "ul" and self._in_legend:
            self._in_legend = 0
        if tag == "script" and self._script is not None:
            self.data, self._script = json.loads("".join(self._script)), None

    def handle_data(self, data):
        if self._script is not None:
            self._script.append(data)


def parse_page(text: str) -> _Page:
    page = _Page()
    page.feed(text)
    return page


def test_each_page_shows_every_sentence_with_a_status():
    covs = document_coverage(bundled_audits())
    for cov in covs:
        page = parse_page(document_page(cov))
        assert len(page.sentences) == len(cov.sentences), cov.document.name
        assert all(s["data-status"] in STATUSES and s["data-rule"] in "01" for s in page.sentences)
        assert [s["data-status"] for s in page.sentences] == [r.status for r in cov.sentences]
        assert page.legend[:5] == list(STATUSES)
        assert not page.external  # self-contained
        assert set(page.links) <= page.ids  # findings link back to sentences, sentences to findings
        assert all(
            f"s-{i}" in page.links
            for r in cov.sentences
            for f in r.findings
            for side in f.sides
            if side.get("doc") == cov.document.name
            for i in side.get("sentences", [])[:1]
        )
        assert len(page.data["sentences"]) == len(cov.sentences)
    index = index_page(covs, {})
    assert not parse_page(index).external  # the index is self-contained too
    assert {page_name(c.document.name) for c in covs} <= _hrefs(index)


def _hrefs(text: str) -> set[str]:
    import re

    return set(re.findall(r'href="([^"#]+)"', text))


def test_cli_writes_a_page_and_refuses_html_without_a_path(tmp_path):
    out = tmp_path / "deep" / "gm3.html"
    result = run("audit", "gensou-mahjong-3p", "--format", "html", "-o", str(out))
    assert result.exit_code == 0 and out.is_file()
    page = parse_page(out.read_text(encoding="utf-8"))
    assert page.sentences and all(s["data-status"] in STATUSES for s in page.sentences)
    assert run("audit", "gensou-mahjong-3p", "--format", "html").exit_code == 2
    assert run("audit", "gensou-mahjong-3p", "-o", str(out)).exit_code == 2
    assert run("audit", "gensou-mahjong-3p", "--coverage", "--format", "markdown").exit_code == 2
