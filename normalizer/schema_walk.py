"""Walking a tool's JSON Schema: every subschema with its path, and a copy with one node
replaced. Shared by the schema checks and repairs (bare arrays, empty enum values) so that
each reads the same subschemas the same way.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

Path = tuple[str | int, ...]

# Keywords whose value is one subschema, a map of name -> subschema, or a list of them.
_ONE = ("items", "additionalProperties", "not", "contains", "propertyNames",
        "unevaluatedItems", "unevaluatedProperties", "if", "then", "else", "additionalItems")
_MAP = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_LIST = ("anyOf", "oneOf", "allOf", "prefixItems", "any_of")


def schema_nodes(schema: Any) -> Iterator[tuple[Mapping[str, Any], Path]]:
    """Every schema object in `schema` (plain JSON) with its path (keys and list indices
    from `schema`), parents before children, in document order. Iterative: the emulators run
    this on hostile schemas nested thousands deep."""
    stack: list[tuple[Any, Path]] = [(schema, ())]
    while stack:
        node, path = stack.pop()
        if not isinstance(node, Mapping):
            continue
        yield node, path
        stack.extend(reversed(list(_subschemas(node, path))))


def _subschemas(schema: Mapping[str, Any], path: Path) -> Iterator[tuple[Any, Path]]:
    for key in _ONE:
        if isinstance(schema.get(key), Mapping):
            yield schema[key], (*path, key)
    for key in _MAP:
        found = schema.get(key)
        if isinstance(found, Mapping):
            yield from ((sub, (*path, key, str(name))) for name, sub in found.items())
    for key in (*_LIST, "items"):  # items as a list: a tuple, before JSON Schema 2020-12
        found = schema.get(key)
        if isinstance(found, list):
            yield from ((sub, (*path, key, k)) for k, sub in enumerate(found))


def local_ref(schema: Any, ref: Any) -> Mapping[str, Any] | None:
    """The schema a local `$ref` (`#/$defs/X`, `#/definitions/X`) names in `schema`, or
    None (another document, a path deeper than one name, or a reference to a reference)."""
    for defs in ("$defs", "definitions"):
        prefix = f"#/{defs}/"
        table = schema.get(defs) if isinstance(schema, Mapping) else None
        if isinstance(ref, str) and ref.startswith(prefix) and isinstance(table, Mapping):
            found = table.get(ref[len(prefix):])
            if isinstance(found, Mapping) and "$ref" not in found:
                return found
    return None


def dotted(path: Path) -> str:
    """`path` as Moonshot's schema validator writes it: keys joined by dots, list indices
    left out (one observation, through anyOf: codex-router#641), `root` for the top."""
    return ".".join(str(p) for p in path if not isinstance(p, int)) or "root"


def names_type(kind: Any, name: str) -> bool:
    """Whether a schema's `type` value is the JSON type `name` (lower-case), in any case:
    Gemini's SDK writes the OpenAPI names upper-case (OBJECT, ARRAY)."""
    return isinstance(kind, str) and kind.lower() == name


def node_at(schema: Any, path: Path) -> Any:
    """The node of `schema` at `path` (from `schema_nodes`)."""
    for step in path:
        schema = schema[step]
    return schema


def replaced(schema: Any, path: Path, node: Any) -> Any:
    """A copy of `schema` with `node` at `path`: the nodes along the path are copied, the
    parts off it shared, the input left as it was (a loop, not a recursion, for the same
    reason as `schema_nodes`)."""
    chain = [schema]
    for step in path:
        chain.append(chain[-1][step])
    out = node
    for parent, step in zip(reversed(chain[:-1]), reversed(path), strict=True):
        if isinstance(parent, list):
            copy = list(parent)
            copy[int(step)] = out
            out = copy
        else:
            out = {**parent, step: out}
    return out
