"""Rules scoped by model, time and endpoint.

A profile rule may carry::

    models: ["gpt-4o*", "o1-*"]      # fnmatch globs on the model string ("models/" ignored);
                                     # "!glob" excludes: ["!claude-opus-4-8*"] = all but those
    since: 2025-01-01                # first date the rule was seen to hold (inclusive)
    until: 2026-07-14                # first date it was seen NOT to hold (exclusive)
    endpoints: ["*.openai.azure.com/*"]   # globs on host + path as called

Vendors change and rules differ by model, so a rule states where and when it was observed to
hold; `check` and `normalize` keep only the rules that hold for the request (`scoped`). Where
evidence conflicts, the newest recorded observation for the model family sets `until`, and
the older observations stay true as history (evidence/README.md). The same rule id may appear
twice in a profile when each copy is scoped (e.g. two limits, before and after a date).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import replace
from fnmatch import fnmatchcase
from typing import Any

SCOPE_KEYS = ("models", "since", "until", "endpoints")


def model_in(globs: Sequence[str], model: str | None, *, when_unknown: bool) -> bool:
    """Whether `model` matches one of `globs` and none of the `!glob` exclusions (no globs:
    every model; only exclusions: every other model)."""
    if not globs:
        return True
    if not model or model == "unknown":  # profiles' and evidence's word for "not known"
        return when_unknown
    name = model.removeprefix("models/")
    take = [g for g in globs if not g.startswith("!")]
    drop = [g[1:] for g in globs if g.startswith("!")]
    hit = any(fnmatchcase(name, g) or fnmatchcase(model, g) for g in take) if take else True
    return hit and not any(fnmatchcase(name, g) or fnmatchcase(model, g) for g in drop)


def date_in(since: str, until: str, on: dt.date | str | None) -> bool:
    """Whether the day `on` (default: today) falls in [since, until)."""
    day = _day(on) if on is not None else dt.date.today()
    if since and day < _day(since):
        return False
    return not (until and day >= _day(until))


def endpoint_in(globs: Sequence[str], endpoint: str | None) -> bool:
    """Whether `endpoint` (host + path) matches one of `globs`; unknown endpoints match."""
    if not globs or not endpoint:
        return True
    bare = endpoint.split("://", 1)[-1]
    return any(fnmatchcase(bare, g) for g in globs)


def rule_holds(rule: Any, *, model: str | None = None, on: dt.date | str | None = None,
               endpoint: str | None = None, when_unknown: bool = True) -> bool:
    """Whether a profile rule holds for this request (model, date, endpoint)."""
    return (model_in(rule.models, model, when_unknown=when_unknown)
            and date_in(rule.since, rule.until, on) and endpoint_in(rule.endpoints, endpoint))


def scoped(profile: Any, *, model: str | None = None, on: dt.date | str | None = None,
           endpoint: str | None = None) -> Any:
    """The profile with only the rules that hold for the request (a Profile, unchanged when
    every rule holds). An unknown model keeps model-scoped rules: the vendor may enforce them."""
    kept = tuple(r for r in profile.rules
                 if rule_holds(r, model=model, on=on, endpoint=endpoint))
    return profile if len(kept) == len(profile.rules) else replace(profile, rules=kept)


def is_scoped(rule: Any) -> bool:
    """Whether a rule names models, dates or endpoints it holds for."""
    return bool(rule.models or rule.since or rule.until or rule.endpoints)


def parse_scope(raw: Mapping[str, Any]) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """The scope fields of a raw rule mapping, and (key, problem) pairs for bad ones."""
    found: dict[str, Any] = {}
    problems: list[tuple[str, str]] = []
    for key in ("models", "endpoints"):
        value = raw.get(key) or ()
        if isinstance(value, str) or not all(isinstance(v, str) and v for v in value):
            problems.append((key, "expected a list of glob strings"))
        else:
            found[key] = tuple(value)
    for key in ("since", "until"):
        value = raw.get(key)
        text = value.isoformat() if isinstance(value, dt.date) else value or ""
        try:
            _day(text) if text else None
        except (TypeError, ValueError):
            problems.append((key, "expected a date YYYY-MM-DD"))
            continue
        found[key] = text
    if found.get("since") and found.get("until") and found["since"] >= found["until"]:
        problems.append(("until", "must be after since"))
    return found, problems


def _day(value: dt.date | str) -> dt.date:
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    return dt.date.fromisoformat(str(value))
