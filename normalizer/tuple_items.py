"""`items` that is not one schema: a tuple's list of schemas (draft 4 to 7), or a boolean.

Before JSON Schema 2020-12, `"items": [A, B]` described a tuple (the first element A, the
second B) and `additionalItems` what may follow; 2020-12 calls the list `prefixItems` and
the rest `items`. Generators still write the old form (zod-to-json-schema's tuples, pydantic
before v2), and Moonshot's validator refuses it ("items must be an object", a recorded
answer in vercel/ai's moonshotai fixtures for its issue 19544). The 2020-12 spelling says
the same thing and was taken there.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from normalizer.schema_walk import Path, node_at, replaced, schema_nodes


def items_not_object(schema: Any) -> Iterator[Path]:
    """The path of every subschema of `schema` (plain JSON) whose `items` is not an object
    schema, in document order."""
    for node, path in schema_nodes(schema):
        if "items" in node and not isinstance(node["items"], Mapping):
            yield path


def respelled(node: Mapping[str, Any]) -> dict[str, Any] | None:
    """`node` with its `items` as one schema, meaning the same, or None where it cannot be
    said so (`items` neither a list nor a boolean):
    - a list: `prefixItems` (after any already there: the old form did not have them) and
      `items` from `additionalItems` (dropped when absent: anything may follow);
    - `true`: `items: {}`;
    - `false`: no element beyond `prefixItems`, said as `maxItems`."""
    items = node["items"]
    rest = {k: v for k, v in node.items() if k not in ("items", "additionalItems")}
    if isinstance(items, list):
        prefix = node.get("prefixItems")
        rest["prefixItems"] = [*(prefix if isinstance(prefix, list) else []), *items]
        extra = node.get("additionalItems")
        if isinstance(extra, Mapping):
            rest["items"] = extra
        elif extra is False:
            rest["maxItems"] = _capped(node, len(rest["prefixItems"]))
        return rest
    if items is True:
        return {**node, "items": {}}
    if items is False:
        prefix = node.get("prefixItems")
        rest["maxItems"] = _capped(node, len(prefix) if isinstance(prefix, list) else 0)
        return rest
    return None


def _capped(node: Mapping[str, Any], count: int) -> int:
    cap = node.get("maxItems")
    return min(cap, count) if isinstance(cap, int) and not isinstance(cap, bool) else count


def with_object_items(schema: Any, paths: list[Path]) -> tuple[Any, list[bool | None]]:
    """A copy of `schema` with `items` respelled at each of `paths` where it can be, and
    per path True where it was, None where it could not be. The deepest first: a tuple
    inside a tuple keeps its path until its parent's `items` becomes `prefixItems`."""
    done: dict[Path, bool | None] = {}
    for path in sorted(paths, key=len, reverse=True):
        new = respelled(node_at(schema, path))
        done[path] = True if new is not None else None
        if new is not None:
            schema = replaced(schema, path, new)
    return schema, [done[path] for path in paths]
