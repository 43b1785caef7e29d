"""The matrix sections about evidence: what backs each provider's verdicts, and the observed
vendor answers (evidence/) compared with check() — the differential against the vendors
themselves rather than against our own emulators."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from conformance.evidence.agree import Agreement
from conformance.evidence.summary import tally, vendor_order
from conformance.publish.backing import LEVELS, MARK, backing_counts, describe


def backing_section(results: Sequence[Mapping[str, Any]], providers: Sequence[str],
                    evidence: Sequence[Agreement]) -> list[str]:
    """The Markdown section on what backs each provider's raw verdicts, with the cells an
    observation contradicts."""
    counts = backing_counts(results)
    lines = ["## What backs the verdicts", "",
             f"Each cell's raw verdict carries a mark: {MARK['observed']} observed (a vendor "
             f"answer: live, or the newest observation in evidence/ about the row's rule), "
             f"{MARK['contradicted']} contradicted (the newest observation says otherwise), "
             f"{MARK['documented']} documented (the vendor's text seen verbatim, confidence "
             f"high), {MARK['modeled']} modeled only (our profile, nothing behind it).", "",
             "| provider | cells | observed | contradicted | documented | modeled only | "
             "observations (check() agrees / declared gap / not modelled) |",
             "|---|---|---|---|---|---|---|"]
    for p in providers:
        c = counts.get(p, {})
        mine = tally([a for a in evidence if a.observation.vendor == p])
        share = f"{c.get('observed', 0)} ({_pct(c.get('observed', 0), c.get('cells', 0))})"
        lines.append(f"| {p} | {c.get('cells', 0)} | {share} | "
                     + " | ".join(str(c.get(k, 0)) for k in LEVELS[1:])
                     + f" | {mine.total} ({mine.agrees} / {mine.gaps} / {mine.unmodelled}) |")
    bad = [r for r in results if (r.get("evidence") or {}).get("level") == "contradicted"]
    if bad:
        lines += ["", "Cells an observation contradicts (the profile or its scope needs a look):",
                  "", "| item | verdict here | newest observation |", "|---|---|---|"]
        lines += [f"| `{r['id']}` | {r['verdict']} | {describe(r['evidence'])} |" for r in bad]
    return [*lines, ""]


def evidence_section(evidence: Sequence[Agreement]) -> list[str]:
    """The Markdown section comparing the observations in evidence/ with check(), per vendor,
    with every gap and disagreement."""
    t = tally(evidence)
    lines = ["## Observed vendor answers vs check()", "",
             f"{t.total} observations in evidence/ (recorded cassettes, pasted vendor answers). "
             f"check() agrees with {t.agrees} of the {t.modelled} it models ({t.percent:.0f}%); "
             f"{t.gaps} are declared gaps, {t.failing} fail (an undeclared disagreement or a gap "
             f"no longer needed); {t.unmodelled} "
             "are for vendors or protocols without a profile.", "",
             "| vendor | observations | agree | declared gap | failing | not modelled |",
             "|---|---|---|---|---|---|"]
    for vendor in vendor_order({a.observation.vendor for a in evidence}):
        v = tally([a for a in evidence if a.observation.vendor == vendor])
        lines.append(f"| {vendor} | {v.total} | {v.agrees} | {v.gaps} | {v.failing} | "
                     f"{v.unmodelled} |")
    differ = [a for a in evidence if a.outcome in ("gap", "disagrees", "stale-gap")]
    if differ:
        lines += ["", "| observation | vendor answered | check() | why |", "|---|---|---|---|"]
        lines += [_differ_row(a) for a in differ]
    return [*lines, ""]


def _differ_row(a: Agreement) -> str:
    obs = a.observation
    said = f"{obs.status} ({obs.model}, {obs.date})"
    predicted = f"{a.predicted} {a.rule or ''}".strip()
    why = a.why if a.outcome == "gap" else f"**{a.outcome}**: {a.why}"
    return f"| [{obs.path}]({obs.source.url}) | {said} | {predicted} | {_cell(why)} |"


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "0%"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")
