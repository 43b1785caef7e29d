"""`check(body, provider)`: a request body as sent, against the provider's profile.

The body is checked at wire level (not through the neutral model), because the vendor sees
the wire. Each protocol module in `normalizer/checks/` maps rule ids to detectors; a
detector yields `Finding`s (where, and the fields its rule's message template needs).

Violations come out in the order the vendor reports them: profile rule order first (a
profile lists its rules in the order the vendor evaluates them), then position in the body.
So `check(...)[0]` is what the vendor's 400 would say.
"""

from __future__ import annotations

import datetime as dt
import importlib
import re
import string
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from normalizer.errors import MissingDetectorError, WireFormatError
from normalizer.model import EMPTY, JsonMap, slot_maker
from normalizer.profiles import UNKNOWN, Profile, Rule, load_profile
from normalizer.scope import known_model, scoped
from normalizer.shared_reading import one_check
from normalizer.skeleton import HISTORY, first_problem
from normalizer.skeleton_fits import fits


@dataclass(frozen=True, slots=True)
class Finding:
    """Where a rule is broken, and the values its message template needs."""

    location: str
    fields: Mapping[str, Any] = field(default_factory=dict)


class Detector(Protocol):
    """(body, rule, model) -> where the rule is broken. `model` is the model the request is
    for (Gemini carries it in the URL, not the body), or None when unknown."""

    def __call__(self, body: Mapping[str, Any], rule: Rule, model: str | None) -> Iterable[Finding]:
        """Each place in `body` where `rule` is broken."""


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule in a body: the rule, where, and the vendor's message for it."""

    rule: str
    location: str
    status: int
    message: str  # the vendor's message with fields filled in, or "unknown"
    error: JsonMap = EMPTY  # the vendor's type / code / param, param filled in
    confidence: str = "low"
    source: str = ""

    @property
    def message_known(self) -> bool:
        """Whether the profile has the vendor's verbatim text for this rule."""
        return self.message != UNKNOWN


def detectors(protocol: str) -> Mapping[str, Detector]:
    """The rule-id -> detector table of a protocol (from normalizer/checks/<protocol>.py)."""
    return importlib.import_module(f"normalizer.checks.{protocol}").DETECTORS


def check(
    body: Mapping[str, Any], provider: str | Path | Profile, *, model: str | None = None,
    on: dt.date | str | None = None, endpoint: str | None = None,
) -> tuple[Violation, ...]:
    """Every enforced rule of `provider` that `body` breaks, in the vendor's order.
    `model` defaults to the body's own `model` field; without one, a rule whose words name
    the model is not applied. `on` (default today) and `endpoint` (host + path) select the
    rules scoped by date or host (normalizer/scope.py). Raises
    WireFormatError when the body is not even shaped like a request of the protocol
    (normalizer.skeleton)."""
    profile = load_profile(provider)
    # A body off its protocol's skeleton (messages not an array, a part not an object, ...)
    # is refused by the vendor's schema before any history rule: unreadable, never clean.
    skeleton = HISTORY[profile.protocol]
    problem = None if fits(body, skeleton) else first_problem(body, skeleton)
    if problem is not None:
        raise WireFormatError(problem.path, problem.text())
    model = model or (body.get("model") if isinstance(body.get("model"), str) else None)
    profile = scoped(profile, model=model, on=on, endpoint=endpoint)
    # A rule whose words name the model holds for some models only: without the model
    # check() can neither say them nor tell whether the rule holds ("Model None does not
    # support parameter presencePenalty." was no vendor's answer).
    unknown = known_model(model) is None
    table = detectors(profile.protocol)
    found: list[Violation] = []
    with one_check():  # the detectors share one reading of the body (shared_reading.py)
        for rule in profile.rules:
            if not rule.enforced or (unknown and "{model}" in rule.message):
                continue
            detect = table.get(rule.id)
            if detect is None:
                raise MissingDetectorError(
                    f"{profile.source_path}: rule {rule.id!r} has no detector for protocol "
                    f"{profile.protocol!r} (normalizer/checks/{profile.protocol}.py)")
            found.extend(map(_reporter(rule), detect(body, rule, model)))
    return tuple(found)


def _reporter(rule: Rule) -> Callable[[Finding], Violation]:
    """How one rule's findings become violations. What does not depend on the finding (a
    message or an error object without a `{field}`) is made once per rule, not per
    violation: Mistral reports one violation per bad id, 85,000 in a 100,000-message body."""
    message = None if _templated(rule.message) else rule.message
    error = None if any(_templated_value(v) for v in rule.error.values()) \
        else JsonMap(rule.error)

    rule_id, status, confidence, source = rule.id, rule.status, rule.confidence, rule.source
    # Only a message naming {location} needs it merged into the finding's fields: a dict
    # copy per violation saved where the error is constant
    direct = error is not None and not _names_location(rule.message)

    def report(finding: Finding) -> Violation:
        location = finding.location
        if error is not None:
            return _violation(rule_id, location, status, message if message is not None
                              else fill(rule.message, finding.fields if direct
                                        else {"location": location, **finding.fields}),
                              error, confidence, source)
        fields = {"location": location, **finding.fields}
        return _violation(  # the fields in Violation's order, every one final already
            rule_id, location, status,
            fill(rule.message, fields) if message is None else message,
            JsonMap({k: _filled(v, fields) for k, v in rule.error.items()})
            if error is None else error,
            confidence, source)
    return report


# Violation without its generated __init__ (half the cost; see model.slot_maker).
_violation = slot_maker(Violation)


def _names_location(template: str) -> bool:
    """Whether `template` reads the `location` field (True where it cannot be parsed: fill()
    then decides, with every field)."""
    try:
        names = template_fields(template)
    except ValueError:
        return True
    return any(re.split(r"[.\[]", name, maxsplit=1)[0] == "location" for name in names)


def _templated(text: str) -> bool:
    """Whether fill() could change `text` (a `{field}`, or an escaped brace)."""
    return "{" in text or "}" in text


def _templated_value(value: Any) -> bool:
    """Whether an error field holds a template: a string, or one inside a mapping (a relay's
    `metadata.raw`, the upstream vendor's answer)."""
    if isinstance(value, str):
        return _templated(value)
    return isinstance(value, Mapping) and any(map(_templated_value, value.values()))


def _filled(value: Any, fields: Mapping[str, Any]) -> Any:
    if isinstance(value, str):
        return fill(value, fields)
    if isinstance(value, Mapping):
        return {k: _filled(v, fields) for k, v in value.items()}
    return value


def fill(template: str, fields: Mapping[str, Any]) -> str:
    """Fill `{name}` fields of a vendor message template; "unknown" stays "unknown".
    A field the detector did not provide (a user profile's typo, say) is left as `{name}`,
    and a template that is not a format string is returned as written: a violation is
    still reported. `unfilled()` names what was left (the emulator logs it)."""
    if template == UNKNOWN:
        return UNKNOWN
    try:  # str.format_map when every field is there: the Formatter subclass is pure Python,
        return template.format_map(fields)  # and check() fills one template per violation
    except KeyError:
        pass
    except (ValueError, IndexError, AttributeError, TypeError):
        return template
    try:
        return _Lenient().vformat(template, (), dict(fields))
    except (ValueError, IndexError, AttributeError, TypeError):
        return template


def unfilled(template: str, fields: Mapping[str, Any]) -> tuple[str, ...]:
    """The fields `template` names that `fields` lacks (left as `{name}` by fill)."""
    try:
        return tuple(n for n in template_fields(template) if n not in fields)
    except ValueError:
        return ()


class _Lenient(string.Formatter):
    def get_value(self, key: int | str, args: Any, kwargs: Mapping[str, Any]) -> Any:
        if isinstance(key, str) and key not in kwargs:
            return "{" + key + "}"
        return super().get_value(key, args, kwargs)


def template_fields(template: str) -> tuple[str, ...]:
    """The `{field}` names a message template uses (for tests of profiles vs detectors)."""
    if template == UNKNOWN:
        return ()
    return tuple(name for _, name, _, _ in string.Formatter().parse(template) if name)
