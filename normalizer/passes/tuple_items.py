"""Tools pass: `items` that is not one schema (a tuple's list, a boolean) in a tool's
parameters schema."""

from __future__ import annotations

from normalizer.model import Change
from normalizer.passes import Draft, Policy
from normalizer.passes._schemas import (
    Path,
    fix_at_paths,
    fix_rule_schemas,
    schema_where,
)
from normalizer.profiles import Profile
from normalizer.schema_walk import dotted
from normalizer.tuple_items import items_not_object, with_object_items

RULE = "schema-items-not-object"


def respell_tuple_items(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes an `items` that is not one schema in a tool's parameters (rule
    schema-items-not-object): a tuple's list becomes `prefixItems` (and `additionalItems`
    the new `items`), `items: true` becomes `{}`, `items: false` a `maxItems` of the
    prefix's length. Lossless: JSON Schema 2020-12's spelling of the same constraint.

    Rejected by: Moonshot "response_format.json_schema is not a valid moonshot flavored
    json schema, details: <At path 'properties.pair.items': items must be an object>"
    (recorded in vercel/ai's moonshotai fixtures, kimi-k3; the same validator checks tool
    parameters).

    Before: {"pair": {"type": "array", "items": [{"type": "string"}, {"type": "number"}]}}
    After:  {"pair": {"type": "array", "prefixItems": [{"type": "string"},
                                                       {"type": "number"}]}}
    """
    return fix_rule_schemas(draft, profile, RULE,
                            fix_at_paths(items_not_object, with_object_items, _respelled))


def _respelled(tool: str, path: Path, done: bool) -> Change:
    return Change("respell_tuple_items", "respell-tuple-items",
                  f"tool {tool!r}: wrote the items at {dotted((*path, 'items'))} as one schema "
                  "(a tuple as prefixItems; the target takes items as an object only)",
                  schema_where(tool, (*path, "items")), True)
