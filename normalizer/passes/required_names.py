"""Tools pass: names in a schema's `required` that its `properties` do not declare."""

from __future__ import annotations

from typing import Any

from normalizer.model import Change, ToolSpec
from normalizer.passes import Draft, Policy
from normalizer.passes._schemas import fix_rule_schemas, schema_where
from normalizer.profiles import Profile
from normalizer.required_names import undeclared_required, without_undeclared
from normalizer.schema_walk import dotted

RULE = "schema-required-not-in-properties"


def drop_undeclared_required(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes a name in a tool schema's `required` that the same schema's `properties` do
    not declare (rule schema-required-not-in-properties): the name is left out of
    `required`, and a `required` left empty dropped. Lossy: the model is no longer told the
    field must be there (the schema never said what it holds). Runs after the anyOf and
    root-union repairs, which give branches the parent's properties first.

    Rejected by: Moonshot "tools.function.parameters is not a valid moonshot flavored json
    schema, details: <At path 'properties.workFlow.items.required': required property
    'codecType' is not defined in properties>" (MoonshotAI/kimi-code#1610).

    Before: {"items": {"type": "object", "required": ["id"]}}
    After:  {"items": {"type": "object"}}
    """
    def drop(tool: ToolSpec, schema: Any) -> tuple[Any, list[Change]]:
        found = list(undeclared_required(schema))
        if not found:
            return schema, []
        fixed = without_undeclared(schema, [path for path, _ in found])
        return fixed, [Change("drop_undeclared_required", "drop-undeclared-required",
                              f"tool {tool.name!r}: left {name!r} out of the required names "
                              f"at {dotted(path)} (its properties do not declare it, which "
                              "the target refuses; the model is no longer told it must be "
                              "there)",
                              schema_where(tool.name, path), False)
                       for path, name in found]

    return fix_rule_schemas(draft, profile, RULE, drop)
