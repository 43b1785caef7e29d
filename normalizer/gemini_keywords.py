"""The JSON Schema keywords Gemini's Schema type has no field for, found where its proto
parser reads them: a function's `parameters` and `generationConfig.responseSchema` are
both that type, so the check of each (checks/gemini) and the repair that moves a response
schema to `responseJsonSchema` (passes/options) walk it the same way."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any


def _subschemas(schema: Mapping[str, Any], field: str) -> list[tuple[Any, str]]:
    """The schemas nested in `schema`, with the proto path the vendor prints for each:
    properties by position (`properties[3].value`), items, anyOf (`any_of[1]`)."""
    found: list[tuple[Any, str]] = []
    for key, value in schema.items():
        if key == "properties" and isinstance(value, Mapping):
            found += [(sub, f"{field}.properties[{k}].value")
                      for k, sub in enumerate(value.values())]
        elif key == "items":
            found.append((value, f"{field}.items"))
        elif key in ("anyOf", "any_of") and isinstance(value, list):
            found += [(sub, f"{field}.any_of[{k}]") for k, sub in enumerate(value)]
    return found


def unsupported_keywords(schema: Any, field: str,
                         banned: frozenset[str]) -> Iterator[tuple[str, str]]:
    """(keyword, proto path) of every banned keyword, in document order. Iterative, so a
    hostile, deeply nested schema cannot exhaust the stack."""
    stack = [(schema, field)]
    while stack:
        node, where = stack.pop()
        if not isinstance(node, Mapping):
            continue
        yield from ((key, where) for key in node if key in banned)
        stack.extend(reversed(_subschemas(node, where)))
