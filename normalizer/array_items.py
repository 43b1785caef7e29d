"""Array schemas without `items` in a tool's parameters.

JSON Schema lets `{"type": "array"}` stand for an array of anything, and MCP servers often
declare parameters that way; OpenAI ("array schema missing items") and Gemini ("...items:
missing field") refuse the whole request for it. `items: {}` says the same thing in the
form they take, so the repair loses nothing.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from normalizer.schema_walk import Path, names_type, node_at, replaced, schema_nodes


def is_bare_array(node: Mapping[str, Any]) -> bool:
    """An array schema (type "array" in any case, or a type list holding it) with no
    `items`."""
    kind = node.get("type")
    return "items" not in node and (names_type(kind, "array") or (
        isinstance(kind, list) and any(names_type(k, "array") for k in kind)))


def bare_arrays(schema: Any) -> Iterator[Path]:
    """The path (keys and list indices from `schema`, plain JSON) of every bare array in
    it, parents before children."""
    return (path for node, path in schema_nodes(schema) if is_bare_array(node))


def with_items(schema: Any, paths: list[Path]) -> Any:
    """A copy of `schema` with `items: {}` added at each of `paths` (from `bare_arrays`);
    the parts off those paths are shared, not copied."""
    for path in paths:
        schema = replaced(schema, path, {**node_at(schema, path), "items": {}})
    return schema
