"""The document, annotated: one self-contained HTML page per rule document (no network: styles,
data and script inline), and an index of them.

The page shows the document's own text, lines kept; each sentence is a ``<span class="s">`` with
``data-status`` (modelled, assumption, gap, contradiction, unmodelled) and ``data-rule`` (1 when
it bears a rule), coloured by status, a legend above. Hovering a sentence shows a summary (its
``title``); clicking it (or focusing it and pressing Enter) shows the ruleset entries that cite it
and the findings attached to it in the side panel. The findings list under the text links back
to the sentences on each of their sides.
"""

from __future__ import annotations

import json
import re
from html import escape

from solver.audit.coverage import STATUSES, DocumentCoverage, SentenceCoverage
from solver.audit.findings import Finding

COLOURS = {  # background, border — readable on white, told apart without colour by the legend's words
    "contradiction": ("#f7c6c6", "#c0392b"),
    "gap": ("#fbe3a8", "#c98a00"),
    "assumption": ("#cfe2fb", "#2f6db5"),
    "modelled": ("#cdebd0", "#2e8b57"),
    "unmodelled": ("#e6e6e6", "#8a8a8a"),
}
MEANING = {
    "contradiction": "the audit found a contradiction here",
    "gap": "a gap or warning: something lost, unreachable or left unsaid",
    "assumption": "the ruleset had to assume something here",
    "modelled": "a ruleset entry encodes it",
    "unmodelled": "no ruleset entry cites it",
}
CJK_FONTS = (
    '"Noto Sans CJK JP", "Noto Sans JP", "Source Han Sans JP", "Hiragino Kaku Gothic ProN", '
    '"Hiragino Sans", "Yu Gothic", YuGothic, Meiryo, "MS PGothic", "IPAexGothic", "IPAGothic", '
    '"TakaoPGothic", "VL PGothic", "WenQuanYi Zen Hei", "Droid Sans Fallback", sans-serif'
)

STYLE = """
:root { color-scheme: light; }
body { font-family: %(fonts)s; margin: 0; color: #1d1d1d; background: #fff; line-height: 1.6; }
header { padding: 12px 20px; border-bottom: 1px solid #ddd; background: #fafafa; }
h1 { font-size: 1.3em; margin: 0 0 4px; }
.meta { color: #555; font-size: .9em; }
#legend { display: flex; flex-wrap: wrap; gap: 8px 18px; margin: 8px 0 0; padding: 0; list-style: none; }
#legend li { display: flex; align-items: center; gap: 6px; font-size: .9em; }
.sw { width: 18px; height: 14px; border-radius: 3px; display: inline-block; vertical-align: middle;
      border: 1px solid transparent; }
.layout { display: flex; align-items: flex-start; }
main { flex: 1 1 auto; padding: 12px 20px; min-width: 0; }
#text { white-space: pre-wrap; word-break: break-word; font-size: 15px; }
aside { flex: 0 0 340px; position: sticky; top: 0; max-height: 100vh; overflow: auto; padding: 12px 16px;
        border-left: 1px solid #ddd; background: #fcfcfc; font-size: .88em; }
.s { border-radius: 3px; cursor: pointer; border-bottom: 2px solid transparent; }
.s[data-rule="0"] { opacity: .55; }
.s:focus, .s.sel { outline: 2px solid #222; outline-offset: 1px; }
%(status_rules)s
.badge { display: inline-block; padding: 0 6px; border-radius: 8px; font-size: .8em; border: 1px solid; }
#findings li { margin: 6px 0; }
#findings a, aside a { color: #1a4f9c; }
code, .id { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: .9em; }
table.cov { border-collapse: collapse; margin: 12px 0; }
table.cov td, table.cov th { border: 1px solid #ccc; padding: 3px 8px; text-align: left; }
@media (max-width: 900px) { .layout { display: block; } aside { position: static; border: 0; } }
"""

SCRIPT = """
(function () {
  var data = JSON.parse(document.getElementById('audit-data').textContent);
  var panel = document.getElementById('detail');
  function esc(t) {
    var d = document.createElement('div'); d.textContent = t == null ? '' : String(t); return d.innerHTML;
  }
  function show(el) {
    var s = data.sentences[el.dataset.i];
    document.querySelectorAll('.s.sel').forEach(function (x) { x.classList.remove('sel'); });
    el.classList.add('sel');
    var h = '<h2>Line ' + s.line + ' \u2014 ' + esc(s.status) + '</h2><p>' + esc(s.text) + '</p>';
    h += '<p>' + (s.rule_bearing ? 'States a rule.' : 'States no rule.') + '</p>';
    if (s.omitted) h += '<p><b>Left out on purpose:</b> ' + esc(s.omitted) + '</p>';
    h += '<h3>Ruleset entries (' + s.cited_by.length + ')</h3><ul>';
    s.cited_by.forEach(function (id) {
      var e = data.entries[id] || {};
      h += '<li><span class="id">' + esc(id) + '</span>' +
           (e.ruleset_line ? ' (ruleset line ' + e.ruleset_line + ')' : '') +
           (e.assumption ? ' <i>assumption</i>' : '') + '</li>';
    });
    h += '</ul><h3>Findings (' + s.findings.length + ')</h3><ul>';
    s.findings.forEach(function (id) {
      var f = data.findings[id];
      h += '<li><a href="#' + f.anchor + '">' + esc(id) + '</a> <span class="badge">' + esc(f.severity) + '</span> ' +
           '<i>' + esc(f.kind) + '</i><br>' + esc(f.message) + '</li>';
    });
    panel.innerHTML = h + '</ul>';
  }
  document.querySelectorAll('.s').forEach(function (el) {
    el.addEventListener('click', function () { show(el); });
    el.addEventListener('keydown', function (ev) { if (ev.key === 'Enter') show(el); });
  });
  function fromHash() {
    var el = location.hash && document.getElementById(location.hash.slice(1));
    if (el && el.classList.contains('s')) show(el);
  }
  window.addEventListener('hashchange', fromHash);
  fromHash();
})();
"""


def _style() -> str:
    rules = "\n".join(
        f'.s[data-status="{s}"] {{ background: {bg}; border-bottom-color: {line}; }}\n'
        f".sw.{s}, .badge.{s} {{ background: {bg}; border-color: {line}; }}"
        for s, (bg, line) in COLOURS.items()
    )
    return STYLE % {"fonts": CJK_FONTS, "status_rules": rules}


def _anchor(finding: Finding) -> str:
    return "f-" + "".join(c if c.isalnum() or c in "-_" else "-" for c in finding.id)


def _tooltip(row: SentenceCoverage) -> str:
    parts = [f"line {row.sentence.line}: {row.status}" + ("" if row.rule_bearing else " (no rule)")]
    if row.cited_by:
        parts.append("entries: " + ", ".join(row.cited_by))
    if row.findings:
        parts.append("findings: " + ", ".join(f"{f.id} ({f.severity})" for f in row.findings))
    if row.omitted:
        parts.append("left out: " + row.omitted)
    return "\n".join(parts)


def _gap(text: str) -> str:
    """The text between two sentences (markers, line breaks), a run of empty lines — where the
    originals had pictures — shown as one."""
    return escape(re.sub(r"\n(?:[ \t]*\n){2,}", "\n\n", text))


def _text_html(cov: DocumentCoverage) -> str:
    text, out, at = cov.document.text, [], 0
    for row in cov.sentences:
        s = row.sentence
        out.append(_gap(text[at : s.start]))
        out.append(
            f'<span class="s" id="s-{s.index}" data-i="{s.index}" data-status="{row.status}" '
            f'data-rule="{int(row.rule_bearing)}" data-line="{s.line}" tabindex="0" '
            f'title="{escape(_tooltip(row))}">{escape(text[s.start : s.end])}</span>'
        )
        at = s.end
    out.append(_gap(text[at:]))
    return "".join(out)


def _findings(cov: DocumentCoverage) -> list[Finding]:
    seen: dict[str, Finding] = {}
    for row in cov.sentences:
        for f in row.findings:
            seen.setdefault(f.id, f)
    order = {s: i for i, s in enumerate(("contradiction", "gap", "warning", "assumption"))}
    return sorted(seen.values(), key=lambda f: (order[f.severity], f.id))


def _finding_html(f: Finding) -> str:
    status = {"warning": "gap"}.get(f.severity, f.severity)
    links = [
        f'<a href="#s-{side["sentences"][0]}">line {side["line"]}</a>' for side in f.sides if side.get("sentences")
    ]
    detail = ""
    if f.claimed is not None or f.computed is not None:
        detail += (
            f"<br>claimed <code>{escape(json.dumps(f.claimed, ensure_ascii=False))}</code>; computed "
            f"<code>{escape(json.dumps(f.computed, ensure_ascii=False))}</code>"
        )
    if f.witness is not None and f.severity != "assumption":
        detail += f"<br>witness <code>{escape(json.dumps(f.witness, ensure_ascii=False))}</code>"
    return (
        f'<li id="{_anchor(f)}"><span class="badge {status}">{escape(f.severity)}</span> '
        f'<span class="id">{escape(f.id)}</span> <i>{escape(f.kind)}</i> — {escape(f.message)}'
        f"<br>sentences: {' · '.join(links) or '—'}{detail}</li>"
    )


def _data(cov: DocumentCoverage, findings: list[Finding]) -> str:
    data = {
        "doc": cov.document.name,
        "sentences": [{**row.to_json(), "status": row.status} for row in cov.sentences],
        "entries": {
            e.id: {"quote": e.quote, "assumption": e.assumption, "ruleset_line": e.ruleset_line}
            for e in cov.entries.values()
        },
        "findings": {
            f.id: {"severity": f.severity, "kind": f.kind, "message": f.message, "anchor": _anchor(f)} for f in findings
        },
    }
    # inside <script>, "</" must not appear: escape every "<"
    return json.dumps(data, ensure_ascii=False).replace("<", "\\u003c")


def _counts(cov: DocumentCoverage) -> dict[str, int]:
    return {s: sum(row.status == s for row in cov.sentences) for s in STATUSES}


def document_page(cov: DocumentCoverage, title: str | None = None) -> str:
    findings = _findings(cov)
    rule = cov.rule_bearing
    counts = _counts(cov)
    legend = "".join(
        f'<li data-status="{s}"><span class="sw {s}"></span><b>{s}</b> — {MEANING[s]} ({counts[s]})</li>'
        for s in STATUSES
    )
    name = escape(title or cov.document.name)
    summary = (
        f"{cov.document.name} · rulesets {', '.join(cov.rulesets)} · coverage {cov.coverage:.0%} "
        f"({sum(r.covered for r in rule)} of {len(rule)} rule-bearing sentences cited; "
        f"{sum(bool(r.omitted) and not r.covered for r in rule)} left out on purpose) · "
        f"{len(findings)} findings"
    )
    return f"""<!DOCTYPE html>
<html lang="ja">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>melds audit — {name}</title>
<style>{_style()}</style>
</head>
<body>
<header>
<h1>{name}</h1>
<div class="meta">{escape(summary)}</div>
<ul id="legend" aria-label="legend">{legend}
<li><span class="sw" style="background:#fff;border:1px dashed #999"></span>faded: states no rule</li></ul>
</header>
<div class="layout">
<main>
<div id="text" lang="ja">{_text_html(cov)}</div>
<h2>Findings ({len(findings)})</h2>
<ol id="findings">{"".join(_finding_html(f) for f in findings)}</ol>
</main>
<aside id="detail" aria-live="polite"><p>Click a sentence to see the ruleset entries that cite it and the
findings attached to it.</p></aside>
</div>
<script type="application/json" id="audit-data">{_data(cov, findings)}</script>
<script>{SCRIPT}</script>
</body>
</html>
"""


def page_name(doc: str) -> str:
    stem = doc.rsplit(".", 1)[0]
    return f"{stem}.html"


def index_page(covs: list[DocumentCoverage], titles: dict[str, str]) -> str:
    rows = []
    for cov in covs:
        counts = _counts(cov)
        findings = _findings(cov)
        by_severity = {
            s: sum(f.severity == s for f in findings) for s in ("contradiction", "gap", "warning", "assumption")
        }
        rows.append(
            f'<tr><td><a href="{page_name(cov.document.name)}">{escape(titles.get(cov.document.name, ""))}'
            f"</a><br><code>{escape(cov.document.name)}</code></td><td>{escape(', '.join(cov.rulesets))}</td>"
            f"<td>{cov.coverage:.0%}</td>"
            + "".join(f'<td data-status="{s}">{counts[s]}</td>' for s in STATUSES)
            + "".join(f"<td>{by_severity[s]}</td>" for s in by_severity)
            + "</tr>"
        )
    head = "".join(f'<th><span class="sw {s}"></span> {s}</th>' for s in STATUSES)
    legend = "".join(
        f'<li data-status="{s}"><span class="sw {s}"></span><b>{s}</b> — {MEANING[s]}</li>' for s in STATUSES
    )
    return f"""<!DOCTYPE html>
<html lang="ja">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>melds audit — the rule documents</title>
<style>{_style()}</style>
</head>
<body>
<header>
<h1>melds audit — the rule documents, annotated</h1>
<div class="meta">Generated by <code>melds audit --all --format html -o DIR</code>. Each page shows a document
sentence by sentence, coloured by what the rulesets and the audit make of it.</div>
<ul id="legend" aria-label="legend">{legend}</ul>
</header>
<main>
<table class="cov">
<tr><th rowspan="2">document</th><th rowspan="2">rulesets</th><th rowspan="2">coverage</th>
<th colspan="5">sentences, by status</th><th colspan="4">findings, by severity</th></tr>
<tr>{head}<th>contradiction</th><th>gap</th><th>warning</th><th>assumption</th></tr>
{"".join(rows)}
</table>
</main>
</body>
</html>
"""
