"""Tools passes: names in a schema's `required` that its `properties` do not declare, and
a `required` list beside no properties at all."""

from __future__ import annotations

from typing import Any

from normalizer.model import Change, ToolSpec
from normalizer.passes import Draft, Policy
from normalizer.passes._schemas import fix_rule_schemas, schema_where
from normalizer.profiles import Profile
from normalizer.required_names import (
    required_without_properties,
    undeclared_required,
    without_undeclared,
)
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


WITHOUT_PROPERTIES = "schema-required-without-properties"


def drop_required_without_properties(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes a tool's parameters schema with a `required` list and no properties at its
    root, none or an empty object (rule schema-required-without-properties): `required`
    goes. Lossless for an empty list, which constrained nothing (a zero-argument tool as the
    OpenAI Agents SDK and LiveKit write it); lossy for names, the model no longer told they
    must be there (the schema never said what they hold).

    Rejected by: Groq "invalid JSON schema for tool view_agent_graph,
    tools[24].function.parameters: 'required' present but 'properties' is missing"
    (usestrix/strix#1088), for `properties: {}` too.

    Before: {"type": "object", "properties": {}, "required": [], "additionalProperties": false}
    After:  {"type": "object", "properties": {}, "additionalProperties": false}
    """
    def drop(tool: ToolSpec, schema: Any) -> tuple[Any, list[Change]]:
        if not required_without_properties(schema):
            return schema, []
        names = schema["required"]
        fixed = {k: v for k, v in schema.items() if k != "required"}
        lossless = names == []
        said = ("an empty required list, which constrained nothing" if lossless else
                f"required {names!r}, names the schema declares no properties for")
        return fixed, [Change("drop_required_without_properties",
                              "drop-required-without-properties",
                              f"tool {tool.name!r}: left out {said}: the target refuses "
                              "`required` beside no properties",
                              schema_where(tool.name, ("required",)),
                              lossless)]

    return fix_rule_schemas(draft, profile, WITHOUT_PROPERTIES, drop)
