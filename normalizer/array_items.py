"""Array schemas without `items` in a tool's parameters.

JSON Schema lets `{"type": "array"}` stand for an array of anything, and MCP servers often
declare parameters that way; OpenAI ("array schema missing items") and Gemini ("...items:
missing field") refuse the whole request for it. `items: {}` says the same thing in the
form they take, so the repair loses nothing.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

Path = tuple[str | int, ...]

# Keywords whose value is one subschema, a map of name -> subschema, or a list of them.
_ONE = ("items", "additionalProperties", "not", "contains", "propertyNames",
        "unevaluatedItems", "unevaluatedProperties", "if", "then", "else")
_MAP = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_LIST = ("anyOf", "oneOf", "allOf", "prefixItems", "any_of")


def is_bare_array(node: Mapping[str, Any]) -> bool:
    """An array schema (type "array" in any case, or a type list holding it) with no
    `items`."""
    kind = node.get("type")
    return "items" not in node and (_is_array(kind) or (
        isinstance(kind, list) and any(map(_is_array, kind))))


def _is_array(kind: Any) -> bool:
    # Gemini's SDK sends the OpenAPI type names upper-case (ARRAY).
    return isinstance(kind, str) and kind.lower() == "array"


def bare_arrays(schema: Any) -> Iterator[Path]:
    """The path (keys and list indices from `schema`, plain JSON) of every bare array in
    it, parents before children. Iterative: the emulators run this on hostile schemas
    nested thousands deep."""
    stack: list[tuple[Any, Path]] = [(schema, ())]
    while stack:
        node, path = stack.pop()
        if not isinstance(node, Mapping):
            continue
        if is_bare_array(node):
            yield path
        stack.extend(reversed(list(_subschemas(node, path))))


def _subschemas(schema: Mapping[str, Any], path: Path) -> Iterator[tuple[Any, Path]]:
    for key in _ONE:
        if isinstance(schema.get(key), Mapping):
            yield schema[key], (*path, key)
    for key in _MAP:
        found = schema.get(key)
        if isinstance(found, Mapping):
            yield from ((sub, (*path, key, str(name))) for name, sub in found.items())
    for key in _LIST:
        found = schema.get(key)
        if isinstance(found, list):
            yield from ((sub, (*path, key, k)) for k, sub in enumerate(found))


def with_items(schema: Any, paths: list[Path]) -> Any:
    """A copy of `schema` with `items: {}` added at each of `paths` (from `bare_arrays`);
    the parts off those paths are shared, not copied."""
    for path in paths:
        schema = _added(schema, path)
    return schema


def _added(node: Any, path: Path) -> Any:
    """`node` with `items: {}` added at `path`, the nodes along the path copied (a loop,
    not a recursion, for the same reason as `bare_arrays`)."""
    chain = [node]
    for step in path:
        chain.append(chain[-1][step])
    out: Any = {**chain[-1], "items": {}}
    for parent, step in zip(reversed(chain[:-1]), reversed(path), strict=True):
        if isinstance(parent, list):
            copy = list(parent)
            copy[int(step)] = out
            out = copy
        else:
            out = {**parent, step: out}
    return out
