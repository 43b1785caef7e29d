"""The output limit: `max-tokens-field-unsupported`, the limit in a field (params.field) the
model refuses where it takes another (params.use: OpenAI's reasoning models and
`max_tokens`), and `max-completion-tokens-unsupported` the other way round (Mistral);
`max-tokens-too-large`, a limit above the most the model writes
(params.maximum); `max-tokens-too-small`, one below the least the endpoint takes
(params.minimum: OpenAI's Responses API, 16)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from normalizer.check import Detector, Finding
from normalizer.output_limit import old_field, over_limit, under_limit
from normalizer.profiles import Rule


def old_limit_field(body: Mapping[str, Any], rule: Rule,
                    model: str | None) -> Iterator[Finding]:
    """The limit field the rule's models refuse, when the body sends it."""
    found = old_field(body, rule.params) if isinstance(body, Mapping) else None
    if found is not None:
        yield Finding(found.field, {"field": found.field, "use": found.use})


def too_large(protocol: str) -> Detector:
    """The detector of max-tokens-too-large for `protocol`'s limit fields."""
    def detect(body: Mapping[str, Any], rule: Rule, model: str | None) -> Iterator[Finding]:
        if not isinstance(body, Mapping):
            return
        for found in over_limit(body, protocol, rule.params):
            where = ".".join(found.path)
            yield Finding(where, {"field": found.path[-1], "sent": found.sent,
                                  "maximum": found.bound,
                                  "model": model or body.get("model")})
    return detect


def too_small(protocol: str) -> Detector:
    """The detector of max-tokens-too-small for `protocol`'s limit fields."""
    def detect(body: Mapping[str, Any], rule: Rule, model: str | None) -> Iterator[Finding]:
        if not isinstance(body, Mapping):
            return
        for found in under_limit(body, protocol, rule.params):
            yield Finding(".".join(found.path), {"field": found.path[-1], "sent": found.sent,
                                                  "minimum": found.bound})
    return detect
