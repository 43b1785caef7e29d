"""`sampling-parameter-fixed`: a sampling parameter sent with another value than the one the
model takes (Kimi's thinking models: temperature 1, top_p 0.95). Which fields, their
values and when thinking off changes them are the profile's params.

`sampling-parameter-unsupported`: a sampling parameter (params.fields) sent to a model that
takes none at all (Claude Opus 4.7).

`sampling-parameter-with-thinking`: the same reading with params.when_thinking: a sampling
parameter sent while thinking is on (Claude's top_k).

`sampling-parameter-out-of-range`: a sampling parameter outside the range the model takes
(params.ranges: Claude's temperature, 0 to 1, where OpenAI's goes to 2).

`sampling-parameters-exclusive`: more than one of params.fields sent to a model that takes
one of them (Claude Sonnet 4.5: temperature or top_p).

`stop-sequence-invalid`: a stop sequence the vendor refuses, empty or whitespace only
(params.refuse, Anthropic)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from normalizer.check import Detector, Finding
from normalizer.json_values import value_at
from normalizer.options import OPTION_PATHS
from normalizer.profiles import Rule
from normalizer.request_fields import spellings
from normalizer.sampling import bad_stops, exclusive, out_of_range, unfixed, unsupported


def fixed_sampling(body: Mapping[str, Any], rule: Rule,
                   model: str | None) -> Iterator[Finding]:
    """Each pinned parameter the body sends with another value. The model is there for
    texts that name it (Gemini: "Penalty is not enabled for models/gemini-2.5-flash")."""
    if not isinstance(body, Mapping):
        return
    named = model or body.get("model")
    for found in unfixed(body, rule.params, model):
        yield Finding(found.field, {"field": found.field, "sent": found.sent,
                                    "allowed": found.allowed,
                                    "model": named.removeprefix("models/")
                                    if isinstance(named, str) else named})


def unsupported_sampling(body: Mapping[str, Any], rule: Rule,
                         model: str | None) -> Iterator[Finding]:
    """Each sampling parameter of params.fields the body sends (the rule's models take none).
    The model and the field's camelCase spelling are there for texts that name them (xAI:
    "Model grok-4.3 does not support parameter presencePenalty.")."""
    if isinstance(body, Mapping):
        for field in unsupported(body, rule.params, model or body.get("model")):
            yield Finding(field, {"field": field, "camel": spellings(field)[0],
                                  "model": model or body.get("model")})


def range_sampling(body: Mapping[str, Any], rule: Rule,
                   model: str | None) -> Iterator[Finding]:
    """Each parameter of params.ranges sent outside its range, with the range's ends."""
    if isinstance(body, Mapping):
        for bad in out_of_range(body, rule.params):
            yield Finding(bad.field, {"field": bad.field, "value": bad.sent,
                                      "minimum": bad.least, "maximum": bad.most})


def exclusive_sampling(body: Mapping[str, Any], rule: Rule,
                       model: str | None) -> Iterator[Finding]:
    """One finding where the body sends more than one of params.fields, at the second one
    sent (the vendor's words name them all)."""
    sent = exclusive(body, rule.params) if isinstance(body, Mapping) else []
    if sent:
        yield Finding(sent[1], {"fields": ", ".join(sent), "model": model or body.get("model")})


def invalid_stops(protocol: str) -> Detector:
    """`stop-sequence-invalid` for `protocol`: each stop sequence, where the protocol keeps
    them, that params.refuse names a fault for, with the vendor's words for it."""
    path = OPTION_PATHS["stop"][protocol]
    where = ".".join(path)

    def detect(body: Mapping[str, Any], rule: Rule, model: str | None) -> Iterator[Finding]:
        refuse = rule.params.get("refuse") or {}
        stops = value_at(body, path) if isinstance(body, Mapping) else None
        for bad in bad_stops(stops, rule.params):
            yield Finding(f"{where}[{bad.index}]", {"index": bad.index,
                                                     "requirement": refuse[bad.fault]})

    detect.__doc__ = f"Refused stop sequences in a {protocol} request."
    return detect
