"""Probe observations -> a profile in the built-in profiles' format (see
normalizer/profiles/__init__.py), and the summary table.

An enforced rule's `message` is the text the endpoint answered, verbatim. When that text is
exactly what a built-in profile's template for the same rule gives for the probe request,
the template is kept instead (with its `{fields}`, error map and params), so the message
also fits other requests; otherwise the literal text is kept with its braces escaped. The
emulator's own "vendor message text unknown" answer becomes `message: unknown`, never a
vendor text.
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import yaml

from conformance.emulator.errors import rule_unknown_text
from conformance.probe.cases import ProbeCase, ProbeSet
from conformance.probe.limits import stated_limit
from conformance.probe.observe import Observation
from normalizer.check import check
from normalizer.model import JsonMap
from normalizer.profiles import UNKNOWN, Profile, Rule, builtin_profiles
from normalizer.rules import RULE_IDS
from normalizer.scope import with_wordings

_ERROR_KEYS = ("type", "code", "param", "status")


@dataclass(frozen=True, slots=True)
class Template:
    """A built-in rule whose message, filled for the probe request, is the observed text."""

    provider: str
    message: str
    error: dict[str, Any]
    params: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Probed:
    """Where and when: the facts the written profile records about the probe itself."""

    name: str
    base_url: str
    model: str
    date: str

    @property
    def source(self) -> str:
        """The `source` written on each measured rule: the probed URL and the date."""
        return f"probe of {self.base_url} on {self.date}"


def attribute(observations: Sequence[Observation], probes: ProbeSet, model: str
              ) -> tuple[Observation, ...]:
    """An enforced finding answered with the text of another rule that its request also
    breaks (and not with a text of its own rule) says nothing about its own rule. When that
    other rule was itself seen enforced, the endpoint files the defect under it: the rule is
    written lenient, with a note (check() still predicts the rejection, through the other
    rule, in the endpoint's words). Otherwise it becomes inconclusive.

    A rule whose valid neighbour was refused too, when the endpoint enforces one of the
    case's `moot_if` rules (which both bodies break for some models), cannot be broken alone
    with this model: written lenient, with a note saying so (an effort level on a model
    that takes no effort at all), rather than left inconclusive."""
    enforced = {o.rule for o in observations if o.finding == "enforced"}
    return tuple(_attributed(o, probes, model, enforced) for o in observations)


def _attributed(found: Observation, probes: ProbeSet, model: str,
                enforced: set[str]) -> Observation:
    case = probes.case(found.rule)
    moot = _moot(found, case, enforced)
    if moot is not None:
        return moot
    text = found.verdict.message
    if found.finding != "enforced" or case is None or not case.also:
        return found
    case = as_sent(case, found)
    if matching_template(found.rule, text, case, model) is not None:
        return found
    other = other_rule_said(case, text)
    if other is None:
        return found
    if other.split(" ", 1)[0] in enforced - {found.rule}:
        return replace(found, finding="lenient",
                       reason=f"rejected as {other}, which this endpoint enforces; not a "
                              "rule of its own here")
    return replace(found, finding="inconclusive",
                   reason=f"answered with the text of {other}, which this request also breaks")


def _moot(found: Observation, case: ProbeCase | None, enforced: set[str]
          ) -> Observation | None:
    """The finding rewritten as lenient when both of its requests were refused (a limit's:
    the ceiling and the floor) and the endpoint enforces a rule that both break
    (ProbeCase.moot_if), else None."""
    if found.finding != "inconclusive" or case is None or len(found.exchanges) != 2:
        return None
    covering = [rule for rule in case.moot_if if rule in enforced - {found.rule}]
    if not covering:
        return None
    return replace(found, finding="lenient",
                   reason=f"both requests refused; each carries what {covering[0]} "
                          f"forbids, which this endpoint enforces for this model, {MOOT}")


MOOT = "so this rule cannot be measured with this model"  # how a moot finding's reason ends


def is_moot(found: Observation) -> bool:
    """Whether `found` was written lenient because no request could break its rule alone
    with this model (`_moot`): not a measurement of the rule."""
    return found.finding == "lenient" and found.reason.endswith(MOOT)


def profile_data(observations: Sequence[Observation], probes: ProbeSet,
                 probed: Probed) -> dict[str, Any]:
    """The profile mapping (ready for yaml and for profile_from_mapping)."""
    rules = [_rule(o, probes.case(o.rule), probed) for o in observations]
    return {
        "provider": probed.name,
        "protocol": probes.protocol,
        "error_format": _error_format(observations, probes.protocol),
        "notes": (f"Measured by `conformance probe` against {probed.base_url} with model "
                  f"{probed.model} on {probed.date}: one minimal request per rule. Rule order "
                  "is the probe's, not necessarily the order the endpoint checks in."),
        "probed": {"base_url": probed.base_url, "model": probed.model, "date": probed.date},
        "rules": rules,
    }


def profile_yaml(data: Mapping[str, Any]) -> str:
    """The profile mapping as YAML, headed by a comment saying the probe wrote it and how to use
    it."""
    head = ("# Written by `conformance probe`. Review it, then use it with\n"
            "# `conformance check --profile`, a providers file, or load_profile().\n")
    return head + yaml.safe_dump(dict(data), sort_keys=False, allow_unicode=True, width=100)


def as_sent(case: ProbeCase, found: Observation) -> ProbeCase:
    """The case with the breaking body that was answered (a limit search sends others)."""
    if found.breaking is None:
        return case
    return replace(case, reject=JsonMap(found.breaking))


def _params(case: ProbeCase, found: Observation, params: Mapping[str, Any]) -> dict[str, Any]:
    """The written params: a measured limit replaces the case's or template's value; a limit
    that was not measured is left out, never guessed."""
    kept = params.thaw() if isinstance(params, JsonMap) else dict(params)
    if case.variant is not None:
        for name in case.variant.params:
            kept.pop(name, None)
        kept.update(found.params or {})
    if case.limit is not None:
        kept.pop(case.limit.param, None)
        if found.limit is not None:
            kept[case.limit.param] = found.limit
    return kept


def _rule(found: Observation, case: ProbeCase | None, probed: Probed) -> dict[str, Any]:
    if case is None:
        raise KeyError(f"no probe case for rule {found.rule!r}")
    observed = {"verdict": found.verdict.kind, "status": found.verdict.status,
                "text": found.verdict.message or found.reason, "date": probed.date}
    base = {"id": found.rule, "forbids": RULE_IDS[found.rule]}
    common = {"source": probed.source, "last_verified": probed.date}
    params = _params(case, found, case.params)
    extra = f" {found.notes}" if found.notes else ""
    if found.finding == "lenient":
        return {**base, "status": found.verdict.status, "message": UNKNOWN, **common,
                "confidence": "high", "params": params, "enforced": False,
                "observed": observed,
                "notes": (f"Not enforced on its own: {found.reason}." if found.reason
                          else "The breaking request was accepted.") + extra}
    if found.finding == "inconclusive":
        # A limit nobody measured cannot be enforced: the rule would need a guessed value.
        unmeasured = case.limit is not None
        return {**base, "status": 400, "message": UNKNOWN, **common, "confidence": "low",
                "params": params, "enforced": not unmeasured, "observed": observed,
                "notes": f"Inconclusive: {found.reason or found.verdict.reason}. " + (
                    "The limit was not measured, so the rule is written off; probe again "
                    "or set params." + _said(case, found) if unmeasured else
                    "Kept as enforced (status 400 assumed) so normalize still repairs it; "
                    "probe again to measure it.")}
    return {**base, **_enforced(found, as_sent(case, found), probed), **common,
            "confidence": "high", "enforced": True, "observed": observed}


def _said(case: ProbeCase, found: Observation) -> str:
    assert case.limit is not None
    said = stated_limit(found.verdict.message)
    return f" The error text names {case.limit.param} {said}." if said is not None else ""


def _enforced(found: Observation, case: ProbeCase, probed: Probed) -> dict[str, Any]:
    text = found.verdict.message
    fields = {"status": found.verdict.status}
    extra = f" {found.notes}" if found.notes else ""
    if text == rule_unknown_text(found.rule) or not text:
        return {**fields, "message": UNKNOWN, "error": _observed_error(found.body),
                "params": _params(case, found, case.params),
                "notes": "Rejected, but the answer carried no vendor message text." + extra}
    template = matching_template(found.rule, text, case, probed.model)
    if template is not None:
        return {**fields, "message": template.message, "error": template.error,
                "params": _params(case, found, template.params),
                "notes": f"The text seen is the one {template.provider}'s template gives for "
                         "the probe request; the template is kept." + extra}
    return {**fields, "message": _literal(text), "error": _observed_error(found.body),
            "params": _params(case, found, case.params),
            "notes": "Text as answered to the probe request (its ids and positions)." + extra}


def matching_template(rule_id: str, text: str, case: ProbeCase, model: str
                      ) -> Template | None:
    """The built-in rule `rule_id` whose message is `text`: first one that check() fills
    to exactly `text` for this probe request, else one whose literal words match `text`
    with any values in its fields (the SDK may rename fields on the way, as google-genai
    does with camelCase keys)."""
    # A rule's wordings first: check() gives a rule with wordings their words for a model
    # they name, which the rule's own message would then be taken for.
    known = [(p, v) for p in builtin_profiles() for r in p.rules if r.id == rule_id
             for v in with_wordings(r) if v.message_known]
    body = {"model": model, **case.reject.thaw()}
    for profile, rule in known:
        if text in _filled(body, profile, rule, model):
            return Template(profile.provider, rule.message, rule.error.thaw(),
                            rule.params.thaw())
    for profile, rule in known:
        if instance_of(rule.message, text):
            return Template(profile.provider, rule.message, rule.error.thaw(),
                            rule.params.thaw())
    return None


def _filled(body: Mapping[str, Any], profile: Profile, rule: Rule, model: str) -> list[str]:
    alone = replace(profile, rules=(replace(rule, enforced=True),))
    try:
        return [v.message for v in check(body, alone, model=model)]
    except (KeyError, LookupError, ValueError):
        return []  # a detector that cannot read this body is no match


MIN_LITERAL_CHARS = 12  # a template must pin down at least this much text to match by words


def instance_of(template: str, text: str) -> bool:
    """`text` is `template` with some value in each `{field}` (and enough fixed words)."""
    pattern, literal = [], 0
    for words, field, _, _ in string.Formatter().parse(template):
        pattern.append(re.escape(words))
        literal += len(words)
        if field is not None:
            pattern.append("(.+?)")
    return literal >= MIN_LITERAL_CHARS and re.fullmatch("".join(pattern), text,
                                                         flags=re.DOTALL) is not None


def other_rule_said(case: ProbeCase, text: str) -> str | None:
    """The other rule this request also breaks whose built-in text `text` is, if any."""
    for profile in builtin_profiles():
        for rule in (v for r in profile.rules for v in with_wordings(r)):
            if rule.id in case.also and rule.message_known and instance_of(rule.message, text):
                return f"{rule.id} ({profile.provider}'s text)"
    return None


def _literal(text: str) -> str:
    """The text as a template with no fields: check() fills `{name}` fields."""
    return text.replace("{", "{{").replace("}", "}}")


def _observed_error(body: Any) -> dict[str, Any]:
    if not isinstance(body, Mapping):
        return {}
    inner = body.get("error") if isinstance(body.get("error"), Mapping) else body
    kept = {k: inner[k] for k in _ERROR_KEYS if inner.get(k) is not None}
    return {k: _literal(v) if isinstance(v, str) else v for k, v in kept.items()}


def _error_format(observations: Sequence[Observation], protocol: str) -> str:
    """The error JSON shape the endpoint answered with (first rejection), else the
    protocol's."""
    for found in observations:
        body = found.body
        if found.verdict.kind != "reject" or not isinstance(body, Mapping):
            continue
        if body.get("object") == "error":
            return "mistral"
        if body.get("type") == "error":
            return "anthropic"
        inner = body.get("error")
        if isinstance(inner, Mapping):
            return "gemini" if "status" in inner else "openai"
    return {"anthropic": "anthropic", "gemini": "gemini"}.get(protocol, "openai")


def summary_table(observations: Sequence[Observation]) -> str:
    """One line per rule: finding, status, and the text (cut to fit a terminal)."""
    width = max([len(o.rule) for o in observations] + [4])
    lines = [f"{'rule':<{width}}  {'finding':<12}  status  answer", "-" * (width + 40)]
    for o in observations:
        status = str(o.verdict.status) if o.verdict.status is not None else "-"
        said = o.verdict.message if o.finding == "enforced" else (o.reason or "")
        said = said.replace("\n", " ")
        said = said if len(said) <= 90 else said[:87] + "..."
        lines.append(f"{o.rule:<{width}}  {o.finding:<12}  {status:>6}  {said}".rstrip())
    counts = {k: sum(1 for o in observations if o.finding == k)
              for k in ("enforced", "lenient", "inconclusive")}
    sent = sum(o.attempts for o in observations)
    lines.append(f"{counts['enforced']} enforced, {counts['lenient']} lenient, "
                 f"{counts['inconclusive']} inconclusive ({sent} rule requests sent)")
    return "\n".join(lines)
