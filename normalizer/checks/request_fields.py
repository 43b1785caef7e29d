"""`unknown-request-field`: a top-level field the vendor does not know (another vendor's
option: top_k, thinking, prompt_mode, response_format). The same reading serves every
protocol whose profile lists its known fields (normalizer/request_fields.py).

`moved-request-field`: a top-level field the API took once, or another API of the vendor
takes, that now has another place (Chat's reasoning_effort is the Responses API's
reasoning.effort).

`instructions-with-previous-response`: a system prompt sent beside a stored conversation the
vendor continues with its own (xAI)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from normalizer.check import Finding
from normalizer.json_values import value_at
from normalizer.profiles import Rule
from normalizer.request_fields import moved_fields, unknown_fields


def unknown_request_field(body: Mapping[str, Any], rule: Rule,
                          model: str | None) -> Iterator[Finding]:
    """Each top-level field neither in params.known nor in params.elsewhere, in body order,
    with its value in Python's spelling for texts that quote it (Fireworks: "field:
    'vl_high_resolution_images', value: True.")."""
    if isinstance(body, Mapping):
        for key in unknown_fields(body, rule.params):
            value = value_at(body, tuple(key.split(".", 1)))
            yield Finding(location=key, fields={"field": key, "value": repr(value)})


def moved_request_field(body: Mapping[str, Any], rule: Rule,
                        model: str | None) -> Iterator[Finding]:
    """Each top-level field params.moved names, with the place it has moved to."""
    if isinstance(body, Mapping):
        for key, to in moved_fields(body, rule.params):
            yield Finding(location=key, fields={"field": key, "to": to})


def instructions_with_previous_response(body: Mapping[str, Any], rule: Rule,
                                        model: str | None) -> Iterator[Finding]:
    """`instructions` and `previous_response_id` both set (neither null): one finding, at
    the instructions."""
    if isinstance(body, Mapping) and body.get("instructions") is not None \
            and body.get("previous_response_id") is not None:
        yield Finding(location="instructions", fields={})
