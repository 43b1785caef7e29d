"""What backs each cell of the matrix.

- `observed`: a vendor answered. Either the verdict itself came from the vendor (live, or a
  cassette recorded live), or, for a raw request, an observation in evidence/ for that
  provider about one of the row's rules has the cell's verdict (the newest: date, model,
  source).
  For a reject the rule is the one check() names; for an accept, the rules the row's other
  cells are rejected for (the vendor was seen not enforcing them).
- `contradicted`: a reject whose rule the newest such observation shows not enforced while
  check() disagrees with it (a declared gap or a disagreement): our model of that rule is
  known to be out of date. (An observation check() agrees with is about another form of the
  request and contradicts nothing; a reject observation behind an accept cell is listed in
  the evidence section, not here, as its rule may hinge on a parameter the cell lacks.)
- `documented`: a reject whose rule the profile holds with confidence high (the vendor's
  text seen verbatim in its docs or a recorded answer), and no observation says otherwise.
- `modeled`: only our model says so (an emulator verdict with nothing else behind it).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import Any

from conformance.evidence.agree import Agreement, agreements
from conformance.evidence.load import EVIDENCE_DIR, Observation, load_evidence
from normalizer.errors import ProfileError, UnknownProviderError
from normalizer.profiles import PROVIDERS, Profile, load_profile

LEVELS: tuple[str, ...] = ("observed", "contradicted", "documented", "modeled")
MARK = {"observed": "●", "contradicted": "!", "documented": "◐", "modeled": "○"}
Index = Mapping[tuple[str, str, str], Sequence[Agreement]]


@cache
def default_evidence() -> tuple[Agreement, ...]:
    """Every observation under evidence/ with check()'s agreement (unreadable files left out;
    `conformance evidence` reports them)."""
    return agreements(load_evidence(EVIDENCE_DIR).observations)


def with_backing(results: Sequence[Mapping[str, Any]],
                 evidence: Sequence[Agreement]) -> list[dict[str, Any]]:
    """The results, each with an `evidence` entry: level, and for an observation its date,
    model, status, source and path (see the module docstring; the HTML page shows it)."""
    index = _index(evidence)
    rules = _row_rules(results)
    # A result that already says what backs it (a strictness.json re-rendered with --from)
    # keeps that: it was judged when its verdict was taken.
    return [r if isinstance(r.get("evidence"), Mapping) else
            {**r, "evidence": cell_backing(r, rules.get(r["scenario"], frozenset()), index)}
            for r in results]


def backing_counts(results: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, int]]:
    """The cell counts by provider and level: provider -> level -> number of cells (and
    `cells`: all of them)."""
    counts: dict[str, Counter[str]] = {}
    for r in results:
        level = (r.get("evidence") or {}).get("level", "modeled")
        counts.setdefault(r["provider"], Counter()).update([level, "cells"])
    return {p: {k: c[k] for k in (*LEVELS, "cells")} for p, c in counts.items()}


def cell_backing(r: Mapping[str, Any], row_rules: frozenset[str], index: Index) -> dict[str, Any]:
    """What backs one result's cell: observed when the verdict came from the vendor (live, or a
    cassette recorded live); for a raw cell, the newest observation in `index` about its rule
    (`row_rules` for an accept), observed or contradicted; for a reject, documented when the
    profile holds the rule as its own (not inherited) with high confidence; else modeled."""
    live = _live(r)
    if live is not None:
        return live
    if r["mode"] == "raw":
        rules = {r.get("predicted_rule")} - {None} if r["verdict"] == "reject" else row_rules
        level, found = _newest(index, r["provider"], r["verdict"], rules)
        if found is not None:
            return {"level": level, "via": "evidence", "date": found.date,
                    "model": found.model, "status": found.status,
                    "source": found.source.url, "path": found.path}
    source = _documented(r["provider"], r.get("predicted_rule")) \
        if r["verdict"] == "reject" else None
    if source:
        return {"level": "documented", "via": "profile", "source": source}
    return {"level": "modeled"}


def describe(backing: Mapping[str, Any]) -> str:
    """One line for a reader: what backs the cell."""
    level = backing.get("level", "modeled")
    if level in ("observed", "contradicted") and backing.get("via") == "evidence":
        return (f"{level}: HTTP {backing['status']} from {backing['model']} on "
                f"{backing['date']} ({backing['path']}, {backing['source']})")
    if level == "observed":
        return f"observed: {backing['via']} (model {backing['model']}, {backing['date']})"
    if level == "documented":
        return f"documented: {backing['source']}"
    return "modeled only: our profile's prediction, no vendor answer behind it"


def _live(r: Mapping[str, Any]) -> dict[str, Any] | None:
    source = r.get("source") or {}
    stamp = source.get("provenance") or {}
    if source.get("backend") == "live":
        return {"level": "observed", "via": "live", "model": stamp.get("model", "?"),
                "date": stamp.get("recorded", "?")}
    if source.get("backend") == "cassette" and stamp.get("backend") == "live":
        return {"level": "observed", "via": f"cassette {source.get('cassette')}",
                "model": stamp.get("model", "?"), "date": stamp.get("recorded", "?")}
    return None


def _index(evidence: Iterable[Agreement]) -> Index:
    """(vendor, protocol, rule) -> conclusive observations about it (with check()'s view)."""
    found: dict[tuple[str, str, str], list[Agreement]] = {}
    for a in evidence:
        if a.observation.verdict == "inconclusive":
            continue
        for rule in a.observation.rules:
            found.setdefault((a.observation.vendor, a.observation.protocol, rule), []).append(a)
    return found


def _newest(index: Index, provider: str, verdict: str,
            rules: Iterable[str]) -> tuple[str, Observation | None]:
    """The newest observation that bears on the cell: one with the cell's verdict
    ("observed") or one with the other verdict that check() gets wrong ("contradicted")."""
    protocol = _protocol(provider) or ""
    about = [a for rule in sorted(rules) for a in index.get((provider, protocol, rule), ())]
    bearing = [a.observation for a in about if a.observation.verdict == verdict
               or (verdict == "reject" and a.outcome in ("gap", "disagrees"))]
    if not bearing:
        return "", None
    newest = max(bearing, key=lambda o: (o.date, o.path))
    return ("observed" if newest.verdict == verdict else "contradicted"), newest


def _row_rules(results: Iterable[Mapping[str, Any]]) -> dict[str, frozenset[str]]:
    """By scenario: the rules check() names for its raw requests at any provider."""
    found: dict[str, set[str]] = {}
    for r in results:
        if r["mode"] == "raw" and r.get("predicted_rule"):
            found.setdefault(r["scenario"], set()).add(r["predicted_rule"])
    return {k: frozenset(v) for k, v in found.items()}


@cache
def _profile(provider: str) -> Profile | None:
    if provider not in PROVIDERS:
        return None
    try:
        return load_profile(provider)
    except (ProfileError, UnknownProviderError):
        return None


def _protocol(provider: str) -> str | None:
    profile = _profile(provider)
    return profile.protocol if profile else None


def _documented(provider: str, rule_id: str | None) -> str | None:
    profile = _profile(provider)
    rule = profile.rule(rule_id) if profile and rule_id else None
    if rule is None or rule.inherited or rule.confidence != "high":
        return None
    return rule.source
