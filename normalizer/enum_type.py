"""Enums without a `type`, and the type their values give.

JSON Schema takes `{"enum": ["text", "raw"]}` alone (the values say everything), and MCP
servers send it: JetBrains' Kotlin enums, TypeBox and zod outputs. Moonshot's validator
checks each enum value against the node's type, and refuses the whole request when there
is none ("type is not defined", anomalyco/opencode#40127). The values' own JSON types say
what the type is: adding it admits nothing the enum did not.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from normalizer.schema_walk import Path, node_at, replaced, schema_nodes

# A node where a type cannot be added without a keyword the validator refuses beside it.
_COMBINED = ("anyOf", "oneOf", "allOf", "$ref")


def enums_without_type(schema: Any) -> Iterator[Path]:
    """The path of every subschema of `schema` (plain JSON) below the root with `enum` and
    no `type`, in document order (the root has a rule of its own: it must be an object)."""
    for node, path in schema_nodes(schema):
        if path and "enum" in node and "type" not in node:
            yield path


def json_type(value: Any) -> str:
    """The JSON Schema type of a JSON value (`integer` for a whole int, not a float)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def typed(node: Mapping[str, Any]) -> dict[str, Any] | None:
    """`node` (an enum without type) with the type its values give: one type as `type`
    (integer and number together as number), several as an anyOf of one branch per type,
    each with its values. None where no type can be added: an empty or malformed enum, or
    a node whose anyOf, oneOf, allOf or $ref would then have a type beside it."""
    values = node.get("enum")
    if not isinstance(values, list) or not values or any(k in node for k in _COMBINED):
        return None
    by_type: dict[str, list[Any]] = {}
    for value in values:
        by_type.setdefault(json_type(value), []).append(value)
    if set(by_type) == {"integer", "number"}:
        return {**node, "type": "number"}
    if len(by_type) == 1:
        return {**node, "type": next(iter(by_type))}
    rest = {k: v for k, v in node.items() if k != "enum"}
    return {**rest, "anyOf": [{"type": "null"} if kind == "null" else
                              {"type": kind, "enum": kept} for kind, kept in by_type.items()]}


def with_types(schema: Any, paths: list[Path]) -> tuple[Any, list[bool | None]]:
    """A copy of `schema` with the type added at each of `paths` where `typed` can, and
    per path True where it did, None where it could not."""
    done: list[bool | None] = []
    for path in paths:
        new = typed(node_at(schema, path))
        done.append(True if new is not None else None)
        if new is not None:
            schema = replaced(schema, path, new)
    return schema, done
