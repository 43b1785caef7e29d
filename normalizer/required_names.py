"""Names in a schema's `required` that its `properties` do not declare.

JSON Schema takes them (the field must be there, whatever it holds), and MCP servers send
them: array item schemas with `required` and no `properties`, branches of an anyOf that
only say which fields are required. Moonshot's validator refuses the whole request for one
("required property 'codecType' is not defined in properties").
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from normalizer.schema_walk import Path, node_at, replaced, schema_nodes


def undeclared_required(schema: Any) -> Iterator[tuple[Path, str]]:
    """(path of the schema, name) of every name in a `required` list that the same
    schema's `properties` do not declare (none declared when it has no properties), in
    document order."""
    for node, path in schema_nodes(schema):
        names = node.get("required")
        if not isinstance(names, list):
            continue
        declared = node.get("properties")
        known = declared if isinstance(declared, Mapping) else {}
        yield from ((path, n) for n in names if isinstance(n, str) and n not in known)


def without_undeclared(schema: Any, paths: list[Path]) -> Any:
    """A copy of `schema` with the undeclared names left out of `required` at each of
    `paths` (each once); a `required` left empty is dropped."""
    for path in dict.fromkeys(paths):
        node = node_at(schema, path)
        declared = node.get("properties")
        known = declared if isinstance(declared, Mapping) else {}
        kept = [n for n in node["required"] if not isinstance(n, str) or n in known]
        new = {**node, "required": kept} if kept else \
            {k: v for k, v in node.items() if k != "required"}
        schema = replaced(schema, path, new)
    return schema


def required_without_properties(schema: Any) -> bool:
    """Whether `schema` has a `required` list, empty or not, and no properties: none, or an
    empty object, which Groq reads the same (a zero-argument tool as the OpenAI Agents SDK
    writes it). What check() flags and the repair fixes, read at the schema's root."""
    if not isinstance(schema, Mapping) or "required" not in schema:
        return False
    declared = schema.get("properties")
    return not (isinstance(declared, Mapping) and declared)
