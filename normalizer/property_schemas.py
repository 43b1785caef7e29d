"""Property schemas that are not objects: `true`, `false`, or a bare type name.

JSON Schema takes a boolean anywhere a schema goes (`true`: anything, `false`: nothing), and
tools send them (an `outputSchema: true` that takes any JSON Schema, can1357/oh-my-pi#5952);
a bare `"string"` is not a schema at all, but generators write it (OmniRoute's skill tools,
diegosouzapw/OmniRoute#13586). Moonshot's validator refuses the whole request for either
("property schema for 'outputSchema' must be an object").
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from normalizer.schema_walk import Path, node_at, replaced, schema_nodes

TYPE_NAMES = ("string", "number", "integer", "boolean", "object", "array", "null")


def non_object_properties(schema: Any) -> Iterator[tuple[Path, str]]:
    """(path of the schema, property name) of every property of a subschema of `schema`
    (plain JSON) whose own schema is not an object, in document order."""
    for node, path in schema_nodes(schema):
        found = node.get("properties")
        if isinstance(found, Mapping):
            yield from ((path, str(name)) for name, sub in found.items()
                        if not isinstance(sub, Mapping))


def objectified(schema: Any, found: list[tuple[Path, str]]) -> tuple[Any, list[str]]:
    """A copy of `schema` with each of `found` made an object schema, and per property
    what was done: `any` (`true` is `{}`, lossless), `dropped` (`false`: the property left
    out, and out of `required`; the object may then take it unless additionalProperties
    forbids it), `typed` (a type name read as `{"type": name}`) or `emptied` (anything else
    read as `{}`)."""
    done: list[str] = []
    for path, name in found:
        node = node_at(schema, path)
        value = node["properties"][name]
        properties = dict(node["properties"])
        new = dict(node)
        if value is False:
            del properties[name]
            required = node.get("required")
            if isinstance(required, list) and name in required:
                kept = [n for n in required if n != name]
                if kept:
                    new["required"] = kept
                else:
                    del new["required"]
            done.append("dropped")
        else:
            kind = "any" if value is True else "typed" if value in TYPE_NAMES else "emptied"
            properties[name] = {"type": value} if kind == "typed" else {}
            done.append(kind)
        new["properties"] = properties
        schema = replaced(schema, path, new)
    return schema, done
