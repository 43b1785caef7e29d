"""Rules scoped by model, time and endpoint.

A profile rule may carry::

    models: ["gpt-4o*", "o1-*"]      # fnmatch globs on the model string ("models/" ignored);
                                     # "!glob" excludes: ["!claude-opus-4-8*"] = all but those
    since: 2025-01-01                # first date the rule was seen to hold (inclusive)
    until: 2026-07-14                # first date it was seen NOT to hold (exclusive)
    endpoints: ["*.openai.azure.com/*"]   # globs on host + path as called
    wordings:                        # other words for some models (the first that matches)
      - models: ["o4-mini*", "gpt-5*"]
        message: "Unknown parameter: '{field}'."
        error: {type: invalid_request_error, param: "{field}", code: unknown_parameter}

Vendors change and rules differ by model, so a rule states where and when it was observed to
hold; `check` and `normalize` keep only the rules that hold for the request (`scoped`). Where
evidence conflicts, the newest recorded observation for the model family sets `until`, and
the older observations stay true as history (evidence/README.md). The same rule id may appear
twice in a profile when each copy is scoped (e.g. two limits, before and after a date).
Where only the words differ by model (OpenAI answers an unknown field in other words for its
reasoning models), one rule says so in `wordings`: a rule that holds everywhere stays one
rule, which every pass repairs with whether the model is known or not; `scoped` gives a
known model the words of the first wording whose `models` match it (an unknown model keeps
the rule's own `message` and `error`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fnmatch import fnmatchcase
from typing import Any

from normalizer.json_values import JsonMap

SCOPE_KEYS = ("models", "since", "until", "endpoints", "wordings")


@dataclass(frozen=True, slots=True)
class Wording:
    """A rule's words for some models: its message and error object (None: the rule's)."""

    models: tuple[str, ...]
    message: str
    error: JsonMap | None = None


def known_model(model: object) -> str | None:
    """`model` where it names one: None for a missing or non-string value and for
    "unknown", the profiles' and evidence's word for "not known"."""
    return model if isinstance(model, str) and model and model != "unknown" else None


def model_in(globs: Sequence[str], model: str | None, *, when_unknown: bool) -> bool:
    """Whether `model` matches one of `globs` and none of the `!glob` exclusions (no globs:
    every model; only exclusions: every other model)."""
    if not globs:
        return True
    if known_model(model) is None:
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
    """The profile with only the rules that hold for the request, each in the words it has
    for `model` (a Profile, unchanged when every rule holds in its own words). An unknown
    model keeps model-scoped rules: the vendor may enforce them."""
    kept = tuple(worded(r, model) for r in profile.rules
                 if rule_holds(r, model=model, on=on, endpoint=endpoint))
    same = len(kept) == len(profile.rules) and all(
        a is b for a, b in zip(kept, profile.rules, strict=True))
    return profile if same else replace(profile, rules=kept)


def worded(rule: Any, model: str | None) -> Any:
    """`rule` with the message and error of its first wording for `model`; `rule` itself
    where none matches or the model is not known."""
    for wording in rule.wordings:
        if model_in(wording.models, model, when_unknown=False):
            return replace(rule, message=wording.message,
                           error=rule.error if wording.error is None else wording.error)
    return rule


def with_wordings(rule: Any) -> tuple[Any, ...]:
    """`rule`'s wordings as rules (`wordings_as_rules`), then `rule` itself: the words a
    probe answer may be in, the more specific first."""
    return (*wordings_as_rules(rule), rule)


def wordings_as_rules(rule: Any) -> tuple[Any, ...]:
    """One copy of `rule` per wording, scoped to the wording's models and in its words (the
    probe matches an answer against each)."""
    return tuple(replace(rule, message=w.message, models=w.models,
                         error=rule.error if w.error is None else w.error, wordings=())
                 for w in rule.wordings)


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
    wordings, wrong = _wordings(raw.get("wordings"))
    found["wordings"] = wordings
    problems += wrong
    return found, problems


def _wordings(raw: Any) -> tuple[tuple[Wording, ...], list[tuple[str, str]]]:
    """A rule's `wordings` list read, and (key, problem) pairs for bad entries."""
    if raw is None:
        return (), []
    if not isinstance(raw, list):
        return (), [("wordings", "expected a list of {models, message, error} mappings")]
    found: list[Wording] = []
    for i, item in enumerate(raw):
        where = f"wordings[{i}]"
        if not isinstance(item, Mapping):
            return (), [(where, "expected a mapping with models, message and error")]
        unknown = sorted(set(item) - {"models", "message", "error"})
        models, message, error = item.get("models"), item.get("message"), item.get("error")
        if unknown:
            return (), [(where, f"unknown keys {unknown}; expected models, message, error")]
        if not isinstance(models, list) or not models or not all(
                isinstance(m, str) and m for m in models):
            return (), [(f"{where}.models", "expected a non-empty list of glob strings")]
        if not isinstance(message, str) or not message.strip():
            return (), [(f"{where}.message", "required non-empty string")]
        if error is not None and not isinstance(error, Mapping):
            return (), [(f"{where}.error", "expected a mapping")]
        found.append(Wording(tuple(models), message,
                             None if error is None else JsonMap(error)))
    return tuple(found), []


def _day(value: dt.date | str) -> dt.date:
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    return dt.date.fromisoformat(str(value))
