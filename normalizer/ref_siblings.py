"""A `type` beside a `$ref` in a tool's parameters schema, where the reference is inlined.

zod 4's `toJSONSchema` writes a schema used twice as `{"type": "string", "format": "uuid",
"$ref": "#/$defs/__schema2"}`: valid JSON Schema (both hold), and refused by Moonshot's
validator ("when using $ref, type should be defined in the referenced schema instead of the
parent schema"). With the referenced schema copied in place of the `$ref`, there is nothing
beside a reference any more.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from normalizer.schema_walk import Path, local_ref, node_at, replaced, schema_nodes


def type_beside_ref(schema: Any) -> Iterator[Path]:
    """The path of every subschema of `schema` (plain JSON) with both `type` and `$ref`,
    in document order."""
    for node, path in schema_nodes(schema):
        if "type" in node and "$ref" in node:
            yield path


def inlined(schema: Any, paths: list[Path]) -> tuple[Any, list[bool | None]]:
    """A copy of `schema` with the `$ref` at each of `paths` replaced by what it names, the
    node's other keywords kept beside it. Per path, in the order given: True where nothing
    changed meaning, False where the node and the target both gave a keyword differently
    (the node's is kept), None where the reference could not be read (the node is left as
    it is). The references are read in the schema as given."""
    original = schema
    done: list[bool | None] = []
    for path in paths:
        node = node_at(schema, path)
        found = local_ref(original, node["$ref"])
        if found is None:
            done.append(None)
            continue
        siblings = {k: v for k, v in node.items() if k != "$ref"}
        done.append(all(found[k] == v for k, v in siblings.items() if k in found))
        schema = replaced(schema, path, {**found, **siblings})
    return schema, done
