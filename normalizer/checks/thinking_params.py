"""`thinking-param-conflict`: thinking parameters in a form or combination the vendor
refuses (normalizer/thinking_params.py; which forms: each rule copy's params.check)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from normalizer.check import Finding
from normalizer.profiles import Rule
from normalizer.thinking_params import conflicts


def thinking_conflicts(body: Mapping[str, Any], rule: Rule,
                       model: str | None) -> Iterator[Finding]:
    """Each refused form in the body; `json_type` is a boolean switch's name as the vendor
    writes it (bool)."""
    if not isinstance(body, Mapping):
        return
    for found in conflicts(body, rule.params):
        yield Finding(found.field, {"check": found.check, "sent": found.sent,
                                    "json_type": "bool" if isinstance(found.sent, bool)
                                    else type(found.sent).__name__})
