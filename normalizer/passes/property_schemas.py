"""Tools pass: a property schema that is not an object in a tool's parameters schema."""

from __future__ import annotations

from typing import Any

from normalizer.model import Change, ToolSpec
from normalizer.passes import Draft, Policy
from normalizer.passes._schemas import fix_rule_schemas, schema_where
from normalizer.profiles import Profile
from normalizer.property_schemas import non_object_properties, objectified
from normalizer.schema_walk import dotted

RULE = "schema-property-not-object"

_SAID = {
    "any": ("its `true` (any value) written as {}", True),
    "dropped": ("its `false` (no value) left out with the property, which the object may "
                "now take unless its additionalProperties forbids it", False),
    "typed": ("its bare type name read as a schema of that type", False),
    "emptied": ("its value, not a schema, replaced by {} (any value)", False),
}


def objectify_property_schemas(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes a property of a tool's parameters schema whose own schema is not an object
    (rule schema-property-not-object): `true` becomes `{}` (lossless: both take anything),
    a `false` property is left out (and out of `required`), a bare type name such as
    `"string"` becomes `{"type": "string"}`, anything else `{}`; each change says which.

    Rejected by: Moonshot "tools.function.parameters is not a valid moonshot flavored json
    schema, details: <At path 'properties.tasks.items.properties': property schema for
    'outputSchema' must be an object>" (can1357/oh-my-pi#5952).

    Before: {"properties": {"outputSchema": true, "content": "string"}}
    After:  {"properties": {"outputSchema": {}, "content": {"type": "string"}}}
    """
    def fix(tool: ToolSpec, schema: Any) -> tuple[Any, list[Change]]:
        found = list(non_object_properties(schema))
        if not found:
            return schema, []
        fixed, done = objectified(schema, found)
        return fixed, [_changed(tool.name, path, name, kind)
                       for (path, name), kind in zip(found, done, strict=True)]

    return fix_rule_schemas(draft, profile, RULE, fix)


def _changed(tool: str, path: tuple[str | int, ...], name: str, kind: str) -> Change:
    said, lossless = _SAID[kind]
    return Change("objectify_property_schemas", "objectify-property-schema",
                  f"tool {tool!r}: property {name!r} at {dotted((*path, 'properties'))}: "
                  f"{said} (the target takes object schemas only)",
                  schema_where(tool, (*path, "properties", name)), lossless)
