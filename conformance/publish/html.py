"""The strictness matrix as one self-contained HTML page: a colour grid of scenarios ×
providers × modes; each cell carries the vendor's error text and where the verdict came
from (hover or click); filters by topic and provider. No external assets, no timestamps."""

from __future__ import annotations

import html
import json
from typing import Any

from conformance.publish.backing import describe

STYLE = """
body{font:14px system-ui,sans-serif;margin:1.5em;color:#222}
h1{font-size:1.4em}table{border-collapse:collapse}
th,td{border:1px solid #ccc;padding:2px 4px;text-align:center}
th.s,td.s{text-align:left;max-width:28em;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
td.accept{background:#8fd18f}td.reject{background:#f08a8a}td.inconclusive{background:#f2d16b}
td.bad{outline:3px solid #000;outline-offset:-3px}td.cell{cursor:pointer;min-width:1.6em}
tr.topic th{background:#eee;text-align:left}
th.p{writing-mode:vertical-rl;transform:rotate(180deg);white-space:nowrap;padding:4px 2px}
th.m{font-weight:normal;font-size:11px}#detail{white-space:pre-wrap;background:#f6f6f6;
padding:.6em;border:1px solid #ccc;min-height:3em;margin:1em 0}.legend span{padding:0 .6em}
"""
SCRIPT = """
const cells=document.querySelectorAll('td.cell');
cells.forEach(c=>c.addEventListener('click',()=>{
  document.getElementById('detail').textContent=c.dataset.detail;}));
function applyFilters(){
  const t=document.getElementById('topic').value,p=document.getElementById('provider').value;
  document.querySelectorAll('tr[data-topic]').forEach(r=>{
    r.style.display=(!t||r.dataset.topic===t)?'':'none';});
  document.querySelectorAll('[data-provider]').forEach(c=>{
    c.style.display=(!p||c.dataset.provider===p)?'':'none';});
}
document.getElementById('topic').addEventListener('change',applyFilters);
document.getElementById('provider').addEventListener('change',applyFilters);
"""


def _detail(r: dict[str, Any]) -> str:
    source = r.get("source") or {}
    stamp = source.get("provenance") or {}
    origin = source.get("backend", "?")
    if stamp:
        origin += (f" (recorded against {stamp.get('backend')}, model {stamp.get('model')}, "
                   f"{stamp.get('recorded')})")
    lines = [r["id"], f"verdict: {r['verdict']} (HTTP {r.get('status')}), expected "
             f"{r.get('expected')}", f"from: {origin}"]
    if r.get("message"):
        lines.append(f"vendor said: {r['message']}")
    if r.get("reason"):
        lines.append(f"why inconclusive: {r['reason']}")
    lines.append(f"check() predicted: {r['predicted']} {r.get('predicted_rule') or ''}")
    lines += [f"change: {c['code']} at {c['where']}" for c in r.get("changes", [])]
    if r.get("backing"):
        lines.append(f"backed by: {describe(r['backing'])}")
    if r.get("problem"):
        lines.append(f"FAILED: {r['problem']}")
    return "\n".join(lines)


def _options(label: str, element: str, values: list[str]) -> str:
    opts = "".join(f"<option>{html.escape(v)}</option>" for v in values)
    return (f'<label>{label} <select id="{element}"><option value="">all</option>{opts}'
            f"</select></label> ")


def _rows(results: list[dict[str, Any]], providers: list[str]) -> list[str]:
    by_scenario: dict[str, dict[tuple[str, str], dict[str, Any]]] = {}
    for r in results:
        by_scenario.setdefault(r["scenario"], {})[(r["provider"], r["mode"])] = r
    rows, topic = [], None
    for scenario, cells in by_scenario.items():
        first = next(iter(cells.values()))
        if first["topic"] != topic:
            topic = first["topic"]
            rows.append(f'<tr class="topic" data-topic="{html.escape(topic)}"><th colspan="'
                        f'{1 + 2 * len(providers)}">{html.escape(topic)}</th></tr>')
        tds = []
        for p in providers:
            for mode in ("raw", "normalized"):
                r = cells.get((p, mode))
                if r is None:
                    tds.append(f'<td data-provider="{html.escape(p)}"></td>')
                    continue
                bad = " bad" if r.get("problem") else ""
                detail = html.escape(_detail(r))
                tds.append(f'<td class="cell {html.escape(r["verdict"])}{bad}" data-provider="'
                           f'{html.escape(p)}" title="{detail}" data-detail="{detail}">'
                           f'{"RN"[mode == "normalized"]}</td>')
        rows.append(f'<tr data-topic="{html.escape(first["topic"])}"><td class="s" title="'
                    f'{html.escape(scenario)}">{html.escape(first["title"])}</td>'
                    + "".join(tds) + "</tr>")
    return rows


def render_html(results: list[dict[str, Any]], summary: dict[str, Any]) -> str:
    providers: list[str] = summary["providers"]
    topics = sorted({r["topic"] for r in results})
    names = [html.escape(p) for p in providers]
    head = "".join(f'<th class="p" colspan="2" data-provider="{p}">{p}</th>' for p in names)
    sub = "".join(f'<th class="m" data-provider="{p}">R</th><th class="m" data-provider="{p}">'
                  "N</th>" for p in names)
    sources = ", ".join(f"{k}: {v}" for k, v in summary["sources"].items())
    return "\n".join([
        "<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
        "<title>Strictness matrix</title>", f"<style>{STYLE}</style></head><body>",
        "<h1>Strictness matrix</h1>",
        f"<p>{summary['scenarios']} scenarios × {len(providers)} providers × 2 modes "
        f"({summary['items']} items); {summary['failed']} failing their expectation, "
        f"{summary.get('known_gaps', 0)} declared known gaps; "
        f"{summary['differs_from_check']} where check() predicted otherwise. Sources: "
        f"{html.escape(sources)}.</p>",
        '<p class="legend"><span class="x" style="background:#8fd18f">accept</span>'
        '<span style="background:#f08a8a">reject (400/422)</span><span style="background:'
        '#f2d16b">inconclusive</span> — R raw, N normalized; a black frame marks a verdict '
        "other than the scenario expects (a declared known gap, or a failure). Click a cell "
        "for the vendor's text and provenance.</p>",
        "<p>" + _options("topic", "topic", topics) + _options("provider", "provider", providers)
        + "</p>", '<div id="detail">(click a cell)</div>',
        f'<table id="grid"><thead><tr><th class="s" rowspan="2">scenario</th>{head}</tr>'
        f"<tr>{sub}</tr></thead><tbody>", *_rows(results, providers), "</tbody></table>",
        f'<script type="application/json" id="data">{_json_for_script(summary)}</script>',
        f"<script>{SCRIPT}</script>", "</body></html>", ""])


def _json_for_script(value: Any) -> str:
    """JSON inside <script>: no `<`, `>` or `&` left that could close the element or open a
    comment, whatever the data holds (provider names come from users' files)."""
    text = json.dumps(value, sort_keys=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
