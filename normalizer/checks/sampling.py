"""`sampling-parameter-fixed`: a sampling parameter sent with another value than the one the
model takes (Kimi's thinking models: temperature 1, top_p 0.95). Which fields, their
values and when thinking off changes them are the profile's params.

`sampling-parameter-unsupported`: a sampling parameter (params.fields) sent to a model that
takes none at all (Claude Opus 4.7)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from normalizer.check import Finding
from normalizer.profiles import Rule
from normalizer.request_fields import spellings
from normalizer.sampling import unfixed, unsupported


def fixed_sampling(body: Mapping[str, Any], rule: Rule,
                   model: str | None) -> Iterator[Finding]:
    """Each pinned parameter the body sends with another value."""
    if not isinstance(body, Mapping):
        return
    for found in unfixed(body, rule.params, model):
        yield Finding(found.field, {"field": found.field, "sent": found.sent,
                                    "allowed": found.allowed})


def unsupported_sampling(body: Mapping[str, Any], rule: Rule,
                         model: str | None) -> Iterator[Finding]:
    """Each sampling parameter of params.fields the body sends (the rule's models take none).
    The model and the field's camelCase spelling are there for texts that name them (xAI:
    "Model grok-4.3 does not support parameter presencePenalty.")."""
    if isinstance(body, Mapping):
        for field in unsupported(body, rule.params):
            yield Finding(field, {"field": field, "camel": spellings(field)[0],
                                  "model": model or body.get("model")})
