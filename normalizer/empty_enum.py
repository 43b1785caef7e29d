"""Empty strings among a tool parameter's enum values.

JSON Schema takes `""` as an enum value like any other, and tools use it for "unset" or
"inherit" (a Canva MCP tool, the apify actors' country codes); Gemini refuses the whole
request for it, one "enum[i]: cannot be empty" line per value. OpenAI and Anthropic take it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from normalizer.schema_walk import Path, node_at, replaced, schema_nodes


def empty_enum_values(schema: Any) -> Iterator[tuple[Path, int]]:
    """(path of the schema, index in its `enum`) of every empty-string enum value in
    `schema` (plain JSON), in document order."""
    for node, path in schema_nodes(schema):
        values = node.get("enum")
        if isinstance(values, list):
            yield from ((path, k) for k, value in enumerate(values) if value == "")


def without_empty_values(schema: Any, paths: list[Path]) -> Any:
    """A copy of `schema` with the empty strings left out of the enum at each of `paths`
    (each once); an enum left with no value is dropped, with a `format: enum` that
    announced it (Gemini refuses an empty enum under that format too)."""
    for path in paths:
        node = node_at(schema, path)
        kept = [v for v in node["enum"] if v != ""]
        if kept:
            new = {**node, "enum": kept}
        else:
            new = {k: v for k, v in node.items()
                   if k != "enum" and not (k == "format" and v == "enum")}
        schema = replaced(schema, path, new)
    return schema
