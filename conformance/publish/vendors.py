"""Per-vendor pages from the evidence: docs/generated/vendors/<vendor>.md says what the vendor
was observed to accept and reject, by rule, on which model and when, with its verbatim
answers and their public sources, and a timeline wherever the same rule was observed with
different verdicts (at other dates or on other models); README.md indexes them with counts.

Takes plain observation mappings (the parsed evidence YAML), so it needs no loader; output is
deterministic (sorted, no timestamps) so a test can compare it with the committed pages.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import yaml

from conformance.classify import REJECT_STATUSES
from conformance.sized_yaml import safe_load
from normalizer.profiles import PROVIDERS

Observation = Mapping[str, Any]
CONFIDENCE = ("recorded", "pasted", "documented", "reported")
VERDICTS = ("accepted", "rejected", "other")
NO_RULE = "(no rule: a plain tool round trip)"


def read_observations(root: Path) -> list[tuple[str, dict[str, Any]]]:
    """(path relative to root's parent, parsed mapping) for every evidence/<vendor>/*.yaml,
    sorted by path. Files that do not parse to a mapping are left out: the evidence loader
    and its tests report those with their location."""
    found = []
    for path in sorted(root.glob("*/*.yaml")):
        try:
            data = safe_load(path.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError):
            continue
        if isinstance(data, dict):
            found.append((path.relative_to(root.parent).as_posix(), data))
    return found


def verdict(o: Observation) -> str:
    """An observation's verdict as the vendor pages count it: accepted (2xx), rejected (the
    statuses `classify` counts as a rejection) or other; a status that is not a number is other."""
    try:
        status = int(o.get("status") or 0)
    except (TypeError, ValueError):
        return "other"
    if 200 <= status < 300:
        return "accepted"
    return "rejected" if status in REJECT_STATUSES else "other"


def _date(o: Observation) -> str:
    return str(o.get("date") or "unknown")


def _slug(path: str) -> str:
    return Path(path).stem


def _cell(value: Any) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")


def _code(value: Any) -> str:
    text = _cell(value)
    fence = "``" if "`" in text else "`"
    return f"{fence}{text}{fence}" if text else "—"


def _fenced(text: str) -> list[str]:
    """A verbatim block whose fence is longer than any backtick run inside the text."""
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return [f"{fence}text", text, fence]


def _source(o: Observation) -> str:
    source = o.get("source") or {}
    url = str(source.get("url") or "")
    if source.get("repo"):
        commit = str(source.get("commit") or "")[:7]
        label = f"{source['repo']} {source.get('path') or ''}".strip()
        label += f" @ {commit}" if commit else ""
    else:
        label = re.sub(r"^https?://", "", url) or "unknown"
    # <...> keeps a destination with spaces or parentheses in one piece.
    target = f"<{url}>" if re.search(r"[\s()]", url) else url
    return f"[{_cell(label).replace('[', '(').replace(']', ')')}]({target})" if url else label


def _sorted(group: Iterable[tuple[str, Observation]]) -> list[tuple[str, Observation]]:
    return sorted(group, key=lambda po: (_date(po[1]), str(po[1].get("model")), po[0]))


def by_rule(observations: list[tuple[str, Observation]]
            ) -> dict[str, list[tuple[str, Observation]]]:
    """The observations grouped by the rules they name (NO_RULE when none), rules sorted, each
    group by date, model and path."""
    rules: dict[str, list[tuple[str, Observation]]] = {}
    for path, o in observations:
        for rule in o.get("rules") or [NO_RULE]:
            rules.setdefault(str(rule), []).append((path, o))
    return {rule: _sorted(rules[rule]) for rule in sorted(rules)}


def changed(group: list[tuple[str, Observation]]) -> bool:
    """The rule was seen both accepted and rejected (at other dates, or on other models)."""
    seen = {verdict(o) for _, o in group}
    return {"accepted", "rejected"} <= seen


def _what_changed(group: list[tuple[str, Observation]]) -> str:
    """The sequence of verdicts by date, and whether one model was seen both ways."""
    runs: list[list[Any]] = []
    for _, o in group:
        if runs and runs[-1][0] == verdict(o):
            runs[-1][1].append(o)
        else:
            runs.append([verdict(o), [o]])
    steps = []
    for kind, seen in runs:
        dates = sorted({_date(o) for o in seen})
        when = dates[0] if len(dates) == 1 else f"{dates[0]} to {dates[-1]}"
        models = ", ".join(_code(m) for m in sorted({str(o.get("model")) for o in seen}))
        steps.append(f"{kind} {when} ({models})")
    by_model: dict[str, set[str]] = {}
    for _, o in group:
        by_model.setdefault(str(o.get("model")), set()).add(verdict(o))
    both = sorted(m for m, v in by_model.items() if {"accepted", "rejected"} <= v)
    tail = (f"The same model answered both ways ({', '.join(_code(m) for m in both)}): the "
            "vendor changed, or the requests differ in another way (see the notes)."
            if both else "No model was seen both ways, so the change may follow the model "
            "rather than the date.")
    return "By date: " + " → ".join(steps) + ". " + tail


def _timeline(rule: str, group: list[tuple[str, Observation]]) -> list[str]:
    lines = [f"### {_code(rule)}", "", _what_changed(group), "",
             "| date | model | endpoint | answer | confidence | observation |",
             "|---|---|---|---|---|---|"]
    for path, o in group:
        lines.append(f"| {_date(o)} | {_code(o.get('model'))} | {_code(o.get('endpoint'))} | "
                     f"{verdict(o)} (HTTP {o.get('status')}) | {o.get('confidence')} | "
                     f"[{_slug(path)}](#{_slug(path)}) |")
    return [*lines, ""]


def _rule_section(rule: str, group: list[tuple[str, Observation]]) -> list[str]:
    counts = Counter(verdict(o) for _, o in group)
    tally = ", ".join(f"{counts[v]} {v}" for v in VERDICTS if counts[v])
    lines = [f"### {_code(rule) if rule != NO_RULE else NO_RULE}: {tally}", ""]
    for path, o in group:
        lines.append(f"- {_date(o)} · {_code(o.get('model'))} · **{verdict(o)}** (HTTP "
                     f"{o.get('status')}) · {o.get('confidence')} · [{_slug(path)}]"
                     f"(#{_slug(path)})")
    return [*lines, ""]


def _observation(path: str, o: Observation) -> list[str]:
    slug = _slug(path)
    kind = f", {_code(o['error_type'])}" if o.get("error_type") else ""
    rebuilt = o.get("reconstructed") or []
    body = ("the request as sent" if not rebuilt else "request rebuilt from the source's "
            "description" if "*" in rebuilt else "request as sent except "
            + ", ".join(_code(p) for p in rebuilt) + " (shortened)")
    lines = [f'<a id="{html.escape(slug, quote=True)}"></a>', "", f"### {slug}", "",
             f"- **{verdict(o)}** (HTTP {o.get('status')}{kind}) by {_code(o.get('model'))} "
             f"at {_code(o.get('endpoint'))} on {_date(o)}",
             "- rules: " + (", ".join(_code(r) for r in o.get("rules") or []) or "none"),
             f"- confidence: {o.get('confidence')}; {body}",
             f"- source: {_source(o)}", f"- file: [{path}](../../../{path})", ""]
    if o.get("error") is not None:
        lines += ["Answer, verbatim:", "", *_fenced(str(o["error"])), ""]
    else:
        lines += ["Answer: accepted (no error text).", ""]
    notes = " ".join(str(o.get("notes") or "").split())
    return [*lines, *([notes, ""] if notes else [])]


def _overview(vendor: str, observations: list[tuple[str, Observation]]) -> list[str]:
    counts = Counter(verdict(o) for _, o in observations)
    confidence = Counter(str(o.get("confidence")) for _, o in observations)
    models = sorted({str(o.get("model")) for _, o in observations})
    endpoints = sorted({str(o.get("endpoint")) for _, o in observations})
    dates = sorted(_date(o) for _, o in observations)
    built_in = ("a built-in provider" if vendor in PROVIDERS
                else "not a built-in provider (yet)")
    return [f"# {vendor}: what it was observed to accept and reject", "",
            f"Generated from `evidence/{vendor}/` by `conformance report`; do not edit by "
            "hand. Each observation is one request the vendor answered, with its verbatim "
            "answer and its public source; `evidence/README.md` explains the confidence "
            f"levels. `{vendor}` is {built_in}.", "",
            f"**{len(observations)} observations**: "
            + ", ".join(f"{counts[v]} {v}" for v in VERDICTS if counts[v])
            + f"; from {dates[0]} to {dates[-1]}; confidence: "
            + ", ".join(f"{confidence[c]} {c}" for c in CONFIDENCE if confidence[c]) + ".", "",
            "Models: " + ", ".join(_code(m) for m in models) + ".", "",
            "Endpoints: " + ", ".join(_code(e) for e in endpoints) + ".", ""]


def render_vendor(vendor: str, observations: list[tuple[str, Observation]]) -> str:
    """One vendor's page: the overview, what changed over time, the observations by rule, then
    each observation."""
    observations = _sorted(observations)
    rules = by_rule(observations)
    moved = {r: g for r, g in rules.items() if r != NO_RULE and changed(g)}
    lines = [*_overview(vendor, observations), "## What changed over time", ""]
    if not moved:
        lines += ["No rule was observed both accepted and rejected.", ""]
    for rule, group in moved.items():
        lines += _timeline(rule, group)
    lines += ["## By rule", "", "What each rule's observations showed; for an accept, the rule "
              "was not enforced for that request.", ""]
    for rule, group in rules.items():
        lines += _rule_section(rule, group)
    lines += ["## Observations", ""]
    for path, o in observations:
        lines += _observation(path, o)
    return "\n".join(lines).rstrip() + "\n"


def render_index(vendors: Mapping[str, list[tuple[str, Observation]]]) -> str:
    """The index page: one row per vendor with its counts, models, dates and the rules that
    changed."""
    total = sum(len(v) for v in vendors.values())
    lines = ["# Vendors: what each was observed to accept and reject", "",
             "Generated from `evidence/` by `conformance report`; do not edit by hand. "
             f"{total} observations of {len(vendors)} vendors; a vendor's page lists them by "
             "rule, with the verbatim answers, their sources and what changed over time.", "",
             "| vendor | observations | accepted | rejected | other | recorded | pasted | "
             "documented | reported | models | dates | rules that changed |",
             "|---|" + "---|" * 11]
    for vendor, observations in vendors.items():
        counts = Counter(verdict(o) for _, o in observations)
        confidence = Counter(str(o.get("confidence")) for _, o in observations)
        dates = sorted(_date(o) for _, o in observations)
        moved = [r for r, g in by_rule(observations).items() if r != NO_RULE and changed(g)]
        lines.append(f"| [{vendor}]({vendor}.md) | {len(observations)} | "
                     + " | ".join(str(counts[v]) for v in VERDICTS) + " | "
                     + " | ".join(str(confidence[c]) for c in CONFIDENCE)
                     + f" | {len({str(o.get('model')) for _, o in observations})} | "
                     f"{dates[0]} – {dates[-1]} | "
                     + (", ".join(_code(r) for r in moved) or "—") + " |")
    return "\n".join(lines) + "\n"


def vendor_pages(observations: Iterable[tuple[str, Observation]]) -> dict[str, str]:
    """File name -> Markdown: one page per vendor and README.md, the index."""
    vendors: dict[str, list[tuple[str, Observation]]] = {}
    for path, o in observations:
        vendors.setdefault(str(o.get("vendor") or Path(path).parent.name), []).append((path, o))
    ordered = {v: vendors[v] for v in sorted(vendors)}
    pages = {f"{v}.md": render_vendor(v, obs) for v, obs in ordered.items()}
    return {"README.md": render_index(ordered), **pages}


def write_vendor_pages(evidence: Path, out_dir: Path) -> list[Path]:
    """Write the pages for `evidence` into out_dir, removing pages of vendors now gone."""
    pages = vendor_pages(read_observations(evidence))
    out_dir.mkdir(parents=True, exist_ok=True)
    for stale in out_dir.glob("*.md"):
        if stale.name not in pages:
            stale.unlink()
    written = []
    for name, text in pages.items():
        (out_dir / name).write_text(text, encoding="utf-8")
        written.append(out_dir / name)
    return written
