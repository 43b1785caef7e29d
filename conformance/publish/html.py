"""The strictness matrix as one self-contained HTML page: a colour grid of scenarios ×
providers × modes with sticky headers, filters (topic, provider, verdict, evidence level),
keyboard access, and a detail panel beside the viewport showing a cell's answer, the
evidence behind it and the raw → normalized request diff.

No external assets, no timestamps: the CSS and JS are inlined from matrix.css/matrix.js, the
data travels as one JSON block (request bodies stored once each), and every attribute and
text is escaped (html.escape with quote=True; the JSON block escapes <, > and &).
"""

from __future__ import annotations

import html
import json
from collections import Counter
from collections.abc import Mapping
from importlib import resources
from typing import Any

VERDICTS = ("accept", "reject", "inconclusive")
LEVELS = ("observed", "contradicted", "documented", "modeled")
# Fields of a result the page needs; the rest (ids, full provenance) stays in the JSON.
ITEM_FIELDS = ("provider", "mode", "verdict", "status", "expected", "message", "error_type",
               "error_code", "reason", "predicted", "predicted_rule", "predicted_message",
               "changes", "problem", "known_gap", "evidence")


def esc(value: Any) -> str:
    """The value as text escaped for HTML, quotes included (text or attribute)."""
    return html.escape(str(value), quote=True)


def _asset(name: str) -> str:
    return resources.files("conformance.publish").joinpath(name).read_text(encoding="utf-8")


def level(r: Mapping[str, Any]) -> str:
    """The evidence level behind a result: observed, contradicted, documented, or modeled
    (no evidence)."""
    evidence = r.get("evidence")
    found = evidence.get("level") if isinstance(evidence, Mapping) else None
    return str(found) if found else "modeled"


def origin(r: Mapping[str, Any]) -> str:
    """Where a result's verdict came from, in words: the backend, the cassette, and its
    provenance."""
    source = r.get("source") or {}
    stamp = source.get("provenance") or {}
    text = str(source.get("backend", "?"))
    if source.get("cassette"):
        text += f" {source['cassette']}"
    if stamp:
        text += (f" (recorded against {stamp.get('backend')}, model {stamp.get('model')}, "
                 f"{stamp.get('recorded')})")
    return text


def page_data(results: list[dict[str, Any]]) -> dict[str, Any]:
    """What the script needs: scenario rows, items (one per cell, `body` indexing the shared
    request bodies or -1) and each distinct body once."""
    rows: dict[str, int] = {}
    bodies: dict[str, int] = {}
    data: dict[str, Any] = {"rows": [], "items": [], "bodies": []}
    for r in results:
        if r["scenario"] not in rows:
            rows[r["scenario"]] = len(rows)
            data["rows"].append({"scenario": r["scenario"], "title": r["title"],
                                 "topic": r["topic"]})
        body = -1
        if r.get("request") is not None:
            key = json.dumps(r["request"], sort_keys=True)
            if key not in bodies:
                bodies[key] = len(bodies)
                data["bodies"].append(r["request"])
            body = bodies[key]
        item = {k: r.get(k) for k in ITEM_FIELDS if r.get(k) not in (None, "", [])}
        data["items"].append({**item, "row": rows[r["scenario"]], "body": body,
                              "origin": origin(r)})
    return data


def json_for_script(value: Any) -> str:
    """JSON safe inside <script>: no `<`, `>` or `&` survives, so nothing can close the tag."""
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _options(label: str, element: str, values: list[str]) -> str:
    opts = "".join(f'<option value="{esc(v)}">{esc(v)}</option>' for v in values)
    return (f'<label>{esc(label)} <select id="{esc(element)}"><option value="">all</option>'
            f"{opts}</select></label>")


def _cell(r: Mapping[str, Any], index: int) -> str:
    p, mode, verdict = r["provider"], r["mode"], r["verdict"]
    ev = level(r)
    classes = f"cell {verdict} ev-{ev}" + (" bad" if r.get("problem") else "")
    label = f"{p} {mode}: {verdict} (HTTP {r.get('status')}), {ev}"
    return (f'<td class="{esc(classes)}" tabindex="-1" data-i="{index}" data-provider="{esc(p)}"'
            f' data-ev="{esc(ev)}" title="{esc(label)}">{"RN"[mode == "normalized"]}</td>')


def _rows(results: list[dict[str, Any]], providers: list[str]) -> list[str]:
    by_scenario: dict[str, dict[tuple[str, str], int]] = {}
    for i, r in enumerate(results):
        by_scenario.setdefault(r["scenario"], {})[(r["provider"], r["mode"])] = i
    rows, topic = [], None
    for scenario, cells in by_scenario.items():
        first = results[next(iter(cells.values()))]
        if first["topic"] != topic:
            topic = first["topic"]
            rows.append(f'<tr class="topic" data-topic="{esc(topic)}"><th colspan="'
                        f'{1 + 2 * len(providers)}"><span>{esc(topic)}</span></th></tr>')
        tds = []
        for p in providers:
            for mode in ("raw", "normalized"):
                i = cells.get((p, mode))
                tds.append(f'<td data-provider="{esc(p)}"></td>' if i is None
                           else _cell(results[i], i))
        rows.append(f'<tr data-topic="{esc(first["topic"])}"><th class="s" scope="row" '
                    f'title="{esc(scenario)}">{esc(first["title"])}</th>' + "".join(tds)
                    + "</tr>")
    return rows


def evidence_shares(results: list[dict[str, Any]], providers: list[str]) -> dict[str, str]:
    """Per provider, how many of its cells are backed by an observation, as `n/total`."""
    observed = Counter(r["provider"] for r in results if level(r) == "observed")
    total = Counter(r["provider"] for r in results)
    return {p: f"{observed[p]}/{total[p]}" for p in providers}


def _header(results: list[dict[str, Any]], providers: list[str]) -> str:
    shares = evidence_shares(results, providers)
    head = "".join(f'<th class="p" colspan="2" scope="colgroup" data-provider="{esc(p)}" '
                   f'title="{esc(p)}: {esc(shares[p])} cells observed">{esc(p)} '
                   f"<small>{esc(shares[p])}</small></th>" for p in providers)
    return f'<thead><tr><th class="s" scope="col">scenario</th>{head}</tr></thead>'


def _intro(results: list[dict[str, Any]], summary: dict[str, Any]) -> list[str]:
    providers: list[str] = summary["providers"]
    sources = ", ".join(f"{k}: {v}" for k, v in summary["sources"].items())
    levels = Counter(level(r) for r in results)
    backed = ", ".join(f"{levels[k]} {k}" for k in LEVELS)
    return [
        f"<p>{esc(summary['scenarios'])} scenarios × {len(providers)} providers × 2 modes "
        f"({esc(summary['items'])} items); {esc(summary['failed'])} failing their expectation,"
        f" {esc(summary.get('known_gaps', 0))} declared known gaps; "
        f"{esc(summary['differs_from_check'])} where check() predicted otherwise. Verdicts "
        f"came from: {esc(sources)}. Evidence behind the cells: {esc(backed)} (the figure "
        "under each provider is its observed share).</p>",
        '<p class="legend"><span style="background:#8fd18f">accept</span><span style='
        '"background:#f08a8a">reject (400/422)</span><span style="background:#f2d16b">'
        "inconclusive</span> R raw, N normalized; a black frame marks a verdict other than "
        "the scenario expects (a declared known gap, or a failure); a corner mark means an "
        "observation (blue) or the vendor's docs (purple) back the cell. Click a cell, or "
        "move with the arrow keys and press Enter, for the vendor's answer, the evidence and "
        "the raw → normalized request diff; Escape closes it.</p>"]


def render_html(results: list[dict[str, Any]], summary: dict[str, Any]) -> str:
    """The whole page for rows already sorted and backed, with the matrix `summary`."""
    providers: list[str] = summary["providers"]
    topics = sorted({r["topic"] for r in results})
    filters = " ".join([_options("topic", "topic", topics),
                        _options("provider", "provider", providers),
                        _options("verdict", "verdict", list(VERDICTS)),
                        _options("evidence", "evidence", list(LEVELS))])
    return "\n".join([
        "<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        "<title>Strictness matrix</title>", f"<style>{_asset('matrix.css')}</style></head>",
        '<body><header class="top"><h1>Strictness matrix</h1>', *_intro(results, summary),
        "</header>", f'<div class="filters">{filters} <span id="count"></span></div>',
        f'<main><table id="grid">{_header(results, providers)}<tbody>',
        *_rows(results, providers), "</tbody></table></main>",
        '<aside id="detail" aria-label="cell detail" hidden></aside>',
        f'<script type="application/json" id="data">{json_for_script(page_data(results))}'
        "</script>", f"<script>{_asset('matrix.js')}</script>", "</body></html>", ""])
