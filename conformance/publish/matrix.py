"""The strictness matrix -> JSON, Markdown and one self-contained HTML page.

Deterministic: rows sorted by topic and scenario, providers in the built-in order then by
name, no timestamps in the body (dates appear only as cassette provenance). The
differential section lists every verdict `check` predicted otherwise: there our model of
the vendor is wrong, and the report says so rather than hiding it. Every cell also says
what backs it (publish/backing.py: observed, documented or modeled only), and the observed
vendor answers in evidence/ are compared with check() (publish/observed.py).

Every function takes item `Result`s or their JSON rows (a strictness.json's results, an
xdist worker's report); the pages are written from the rows.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from conformance.evidence.agree import Agreement
from conformance.item import Result
from conformance.publish.backing import MARK, backing_counts, default_evidence, with_backing
from conformance.publish.html import render_html
from conformance.publish.observed import backing_section, evidence_section
from normalizer.profiles import PROVIDERS

NAMES = {"json": "strictness.json", "md": "strictness.md", "html": "strictness.html"}
SYMBOL = {"accept": "✓", "reject": "✗", "inconclusive": "?"}
Rows = Iterable[Result | Mapping[str, Any]]


def rows_of(results: Rows) -> list[dict[str, Any]]:
    """The JSON rows of `results` (Results or rows already)."""
    return [r.to_json() if isinstance(r, Result) else dict(r) for r in results]


def provider_order(results: Rows) -> list[str]:
    """The providers of `results`: built-ins in their order, then the others by name."""
    seen = {r["provider"] for r in rows_of(results)}
    return [p for p in PROVIDERS if p in seen] + sorted(seen - set(PROVIDERS))


def sort_results(results: Rows,
                 evidence: Sequence[Agreement] | None = None) -> list[dict[str, Any]]:
    """The results in report order, each with what backs it (`evidence`), judged against
    `evidence` (default: every observation under evidence/)."""
    results = rows_of(results)
    rank = {p: i for i, p in enumerate(provider_order(results))}
    ordered = sorted(results, key=lambda r: (r["topic"], r["scenario"], rank[r["provider"]],
                                             r["mode"] != "raw"))
    return with_backing(ordered, default_evidence() if evidence is None else evidence)


def summary(results: Rows) -> dict[str, Any]:
    """The counts the reports show: items, scenarios, providers, verdicts per mode, failures,
    known gaps, verdicts check() predicted otherwise, where verdicts came from, and what backs
    them."""
    results = rows_of(results)
    verdicts = Counter((r["mode"], r["verdict"]) for r in results)
    backends = Counter(_origin(r) for r in results)
    return {
        "items": len(results),
        "scenarios": len({r["scenario"] for r in results}),
        "providers": provider_order(results),
        "raw": {k: verdicts[("raw", k)] for k in SYMBOL},
        "normalized": {k: verdicts[("normalized", k)] for k in SYMBOL},
        "failed": sum(1 for r in results if r.get("problem") and not r.get("known_gap")),
        "known_gaps": sum(1 for r in results if r.get("problem") and r.get("known_gap")),
        "differs_from_check": sum(1 for r in results if differs(r)),
        "sources": dict(sorted(backends.items())),
        "backing": backing_counts(results),
    }


def provenance_line(results: Rows) -> str:
    """Where the verdicts came from, in words a reader of a CI log can trust: a verdict
    replayed from a cassette recorded against our emulator says nothing about the vendor."""
    origins = Counter(_origin(r) for r in rows_of(results))
    parts = [(origins.pop("live", 0), "from live vendors"),
             (origins.pop("cassette (recorded against live)", 0), "from live-recorded cassettes"),
             (origins.pop("cassette (recorded against emulator)", 0),
              "from emulator-recorded cassettes"),
             (origins.pop("emulator", 0), "from the emulators")]
    parts += [(n, f"from {name}") for name, n in sorted(origins.items())]
    return "verdicts: " + ", ".join(f"{n} {what}" for n, what in parts if n or "live" in what)


def differs(r: Mapping[str, Any]) -> bool:
    """Whether check() predicted another verdict than the one observed (an inconclusive one never
    differs)."""
    return r["verdict"] != "inconclusive" and r["verdict"] != r["predicted"]


def _origin(r: Mapping[str, Any]) -> str:
    source = r.get("source") or {}
    stamp = source.get("provenance") or {}
    if source.get("backend") == "cassette":
        return f"cassette (recorded against {stamp.get('backend', 'unknown')})"
    return str(source.get("backend", "unknown"))


def json_document(results: Rows) -> dict[str, Any]:
    """What strictness.json holds: the summary and every result row."""
    results = rows_of(results)
    return {"summary": summary(results), "results": results}


def render_json(results: Rows) -> str:
    """The text of strictness.json (`json_document`, indented)."""
    return json.dumps(json_document(results), indent=1, sort_keys=True,
                      ensure_ascii=False) + "\n"


def render_page(results: Rows) -> str:
    """The HTML page of sorted results."""
    results = rows_of(results)
    return render_html(results, summary(results))


def render_markdown(results: Rows, evidence: Sequence[Agreement] | None = None) -> str:
    """The Markdown page of sorted results (`sort_results`), with the evidence sections."""
    results = rows_of(results)
    evidence = default_evidence() if evidence is None else evidence
    s = summary(results)
    providers = s["providers"]
    lines = ["# Strictness matrix", "",
             "Generated by `conformance report`; do not edit by hand. Each cell is "
             "raw → normalized: ✓ accept, ✗ reject (HTTP 400/422), ? inconclusive; the mark "
             f"after the raw verdict says what backs it ({MARK['observed']} observed, "
             f"{MARK['contradicted']} contradicted, {MARK['documented']} documented, "
             f"{MARK['modeled']} modeled only: see below).", "",
             f"{s['scenarios']} scenarios × {len(providers)} providers × 2 modes = "
             f"{s['items']} items. Verdicts came from: "
             + ", ".join(f"{k}: {v}" for k, v in s["sources"].items()) + ".", "",
             f"Raw: {_counts(s['raw'])}. Normalized: {_counts(s['normalized'])}. "
             f"Items failing their expectation: {s['failed']}; declared known gaps: "
             f"{s['known_gaps']}.", ""]
    if any("emulator" in k for k in s["sources"]):
        lines += ["> Verdicts recorded against the loopback emulators show what our profiles "
                  "predict, not what the vendors said. Record live (`conformance record`) to "
                  "replace them.", ""]
    lines += backing_section(results, providers, evidence)
    by_topic: dict[str, list[dict[str, Any]]] = {}
    for r in results:
        by_topic.setdefault(r["topic"], []).append(r)
    for topic, rows in by_topic.items():
        lines += [f"## {topic}", "", "| scenario | " + " | ".join(providers) + " |",
                  "|---|" + "---|" * len(providers)]
        lines += _topic_rows(rows, providers)
        lines.append("")
    tail = _differential(results) + evidence_section(evidence) + _texts(results)
    return "\n".join(lines + tail).rstrip() + "\n"


def _counts(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{v} {k}" for k, v in counts.items())


def _topic_rows(rows: list[dict[str, Any]], providers: list[str]) -> list[str]:
    cells: dict[str, dict[tuple[str, str], Mapping[str, Any]]] = {}
    titles: dict[str, str] = {}
    for r in rows:
        cells.setdefault(r["scenario"], {})[(r["provider"], r["mode"])] = r
        titles[r["scenario"]] = r["title"]
    out = []
    for scenario, got in cells.items():
        row = [f"{_mark(got.get((p, 'raw')))}→{_mark(got.get((p, 'normalized')), False)}"
               for p in providers]
        out.append(f"| {titles[scenario].replace('|', '/')} | " + " | ".join(row) + " |")
    counts = backing_counts(r for r in rows if r["mode"] == "raw")
    observed = [f"{counts.get(p, {}).get('observed', 0)}/{counts.get(p, {}).get('cells', 0)}"
                for p in providers]
    return [*out, "| *raw verdicts observed* | " + " | ".join(observed) + " |"]


def _mark(r: Mapping[str, Any] | None, backing: bool = True) -> str:
    if r is None:
        return " "
    level = (r.get("evidence") or {}).get("level", "modeled")
    return SYMBOL.get(r["verdict"], " ") + (MARK[level] if backing else "")


def _differential(results: list[dict[str, Any]]) -> list[str]:
    rows = [r for r in results if differs(r)]
    lines = ["## Where check() predicted otherwise", ""]
    if not rows and results and all("emulator" in _origin(r) for r in results):
        return [*lines, "None, by construction: every verdict came from our emulators, which "
                "answer with `check()`. The observed vendor answers below are the real test.",
                ""]
    if not rows:
        return [*lines, "None: every conclusive verdict is the one `check` predicted.", ""]
    lines += ["| item | observed | predicted | vendor said |", "|---|---|---|---|"]
    for r in rows:
        lines.append(f"| `{r['id']}` | {r['verdict']} | {r['predicted']} "
                     f"{r.get('predicted_rule') or ''} | {_cell(r.get('message', ''))} |")
    return [*lines, ""]


def _texts(results: list[dict[str, Any]]) -> list[str]:
    """Error texts of raw rejects: those vendors sent apart from those our emulators sent
    (the emulators' texts are the profiles' words, not something seen)."""
    out: list[str] = []
    for emulated, heading in ((False, "## Error texts seen from vendors (raw requests)"),
                              (True, "## Error texts emulated (raw requests; the profiles' "
                                     "words, answered by our emulators)")):
        seen: dict[tuple[str, str], str] = {}
        for r in results:
            if r["verdict"] == "reject" and r["mode"] == "raw" \
                    and ("emulator" in _origin(r)) == emulated:
                seen.setdefault((r["provider"], r.get("predicted_rule") or "?"),
                                r.get("message", ""))
        if seen:
            out += [heading, "", "| provider | rule | text |", "|---|---|---|"]
            out += [f"| {p} | `{rule}` | {_cell(text)} |"
                    for (p, rule), text in sorted(seen.items())]
            out.append("")
    return out


def _cell(text: str) -> str:
    text = (text or "").replace("|", "\\|").replace("\n", " ")
    return text if len(text) <= 160 else text[:157] + "..."


def write_reports(results: Rows, out_dir: Path,
                  markdown_path: Path | None = None,
                  evidence: Sequence[Agreement] | None = None) -> list[Path]:
    """Write strictness.json, .md and .html into out_dir (the Markdown to markdown_path
    when given); returns the paths written."""
    ordered = sort_results(results, evidence)
    out_dir.mkdir(parents=True, exist_ok=True)
    md_path = markdown_path or out_dir / NAMES["md"]
    md_path.parent.mkdir(parents=True, exist_ok=True)
    written = [out_dir / NAMES["json"], md_path, out_dir / NAMES["html"]]
    written[0].write_text(render_json(ordered), encoding="utf-8")
    written[1].write_text(render_markdown(ordered, evidence), encoding="utf-8")
    written[2].write_text(render_page(ordered), encoding="utf-8")
    return written
