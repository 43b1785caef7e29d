"""Tools pass: a tool's parameters schema that is not a complete object schema at its root."""

from __future__ import annotations

from typing import Any

from normalizer.model import Change, ToolSpec
from normalizer.passes import Draft, Policy
from normalizer.passes._schemas import fix_schemas
from normalizer.profiles import Profile
from normalizer.schema_walk import names_type

# Root keywords whose schema is not one object even with `type: object` beside them: OpenAI
# refuses "'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level" whatever the type
# (home-assistant/core#160600), so giving such a root a type would not help.
_UNIONS = ("anyOf", "oneOf", "allOf", "enum", "not", "const")


def complete_root_object_schema(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes a tool's parameters schema whose root has no `type` (rule
    tool-parameters-not-object), and a root object schema without `properties` (rule
    object-schema-missing-properties): the first gets `type: object`, the second
    `properties: {}`. Lossless: a tool's arguments are always an object, and an object
    schema without `properties` admits what `properties: {}` admits. A root of another
    type, or a union, is left as it is (no faithful object form: the check still names it).

    Rejected by: OpenAI "Invalid schema for function 'GMAIL_CREATE_EMAIL_DRAFT': schema must
    be a JSON Schema of 'type: "object"', got 'type: "None"'." (composio/composio#1829:
    the AI SDK's schema of a tool without one, `{properties: {}, additionalProperties:
    false}`) and "Invalid schema for function 'azure-azmcp-bestpractices-get': In
    context=(), object schema missing properties." (Azure/azure-mcp#197: an MCP tool
    without arguments, `{type: object}`; our own ToolSpec default too).

    Before: {"type": "object"}          After: {"type": "object", "properties": {}}
    Before: {"properties": {"q": ...}}  After: {"type": "object", "properties": {"q": ...}}
    Before: {}                          After: {"type": "object", "properties": {}}
    """
    typed = profile.enforces("tool-parameters-not-object")
    filled = profile.enforces("object-schema-missing-properties")
    if not (typed or filled) or not draft.tools:
        return draft, ()

    def complete(tool: ToolSpec, schema: Any) -> tuple[Any, list[Change]]:
        made: list[Change] = []
        if typed and "type" not in schema and not any(k in schema for k in _UNIONS):
            # properties too where there are none: the form DeepSeek was seen to take for
            # `{}` (end-4/dots-hyprland#3640), and OpenAI asks for it besides
            schema = {"type": "object", **schema, "properties": schema.get("properties", {})}
            made.append(_change(tool.name, "add-object-type",
                                "the parameters schema had no type; gave it type object "
                                "(a tool's arguments are an object)"))
        # names_type: Gemini's upper-case OBJECT counts as what it names (whether OpenAI
        # takes it was not observed)
        if filled and names_type(schema.get("type"), "object") and "properties" not in schema:
            schema = {**schema, "properties": {}}
            made.append(_change(tool.name, "add-empty-properties",
                                "the parameters object schema had no properties; gave it "
                                "properties {} (it admits the same arguments)"))
        return schema, made

    return fix_schemas(draft, complete)


def _change(tool: str, code: str, what: str) -> Change:
    return Change("complete_root_object_schema", code, f"tool {tool!r}: {what}",
                  f"tools.{tool}", True)
