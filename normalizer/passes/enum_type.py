"""Tools pass: an `enum` without a `type` in a tool's parameters schema."""

from __future__ import annotations

from normalizer.enum_type import enums_without_type, with_types
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

RULE = "schema-enum-without-type"


def type_bare_enums(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes a subschema of a tool's parameters with `enum` and no `type` (rule
    schema-enum-without-type): the values' JSON type is added (integers and numbers
    together: number); values of several types become an anyOf of one typed branch each.
    Lossless: the enum admitted those values only. A node with an anyOf, oneOf, allOf or
    $ref of its own is left for the check to name (a type beside them is refused too).

    Rejected by: Moonshot "tools.function.parameters is not a valid moonshot flavored json
    schema, details: <At path 'properties.view': type is not defined>"
    (anomalyco/opencode#40127).

    Before: {"view": {"enum": ["text", "raw"]}, "level": {"enum": [1, 2, null]}}
    After:  {"view": {"enum": ["text", "raw"], "type": "string"},
             "level": {"anyOf": [{"type": "integer", "enum": [1, 2]}, {"type": "null"}]}}
    """
    return fix_rule_schemas(draft, profile, RULE,
                            fix_at_paths(enums_without_type, with_types, _typed))


def _typed(tool: str, path: Path, done: bool) -> Change:
    return Change("type_bare_enums", "type-bare-enum",
                  f"tool {tool!r}: gave the enum at {dotted(path)} the type of its values "
                  "(the target refuses an enum without a type)", schema_where(tool, path),
                  True)
