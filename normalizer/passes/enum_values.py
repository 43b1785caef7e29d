"""Tools pass: empty strings among the enum values of a tool's parameters."""

from __future__ import annotations

from typing import Any

from normalizer.empty_enum import empty_enum_values, without_empty_values
from normalizer.model import Change, ToolSpec
from normalizer.passes import Draft, Policy
from normalizer.passes._schemas import fix_schemas, schema_where
from normalizer.profiles import Profile
from normalizer.schema_walk import Path, node_at


def drop_empty_enum_values(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes an empty string among a tool parameter's enum values (rule enum-empty-value):
    it is left out of the enum, and an enum that held nothing else is dropped. Lossy: the
    model can no longer choose the empty value (for an optional parameter, leaving it out
    says the same, as the projects that hit this did: FMXExpress/PasClaw#294,
    Smana/runlore#40).

    Rejected by: Gemini "* GenerateContentRequest.tools[0].function_declarations[0].
    parameters.properties[countryCode].enum[0]: cannot be empty"
    (apify/apify-mcp-server#353).

    Before: {"kind": {"type": "string", "enum": ["", "shell", "prompt"]}}
    After:  {"kind": {"type": "string", "enum": ["shell", "prompt"]}}
    """
    if not profile.enforces("enum-empty-value") or not draft.tools:
        return draft, ()
    return fix_schemas(draft, _without_empty_values)


def _without_empty_values(tool: ToolSpec, schema: Any) -> tuple[Any, list[Change]]:
    paths = list(dict.fromkeys(path for path, _ in empty_enum_values(schema)))
    fixed = without_empty_values(schema, paths)
    return fixed, [_change(tool.name, path, fixed) for path in paths]


def _change(tool: str, path: Path, fixed: object) -> Change:
    spelled = "/".join(str(p) for p in path) or "the top level"
    if "enum" in node_at(fixed, path):
        what = (f"left the empty string out of the enum at {spelled} of tool {tool!r} (the "
                "target refuses an empty enum value; the model can no longer choose it)")
    else:
        what = (f"dropped the enum at {spelled} of tool {tool!r}: its only value was the "
                "empty string, which the target refuses (any string is taken now)")
    return Change("drop_empty_enum_values", "drop-empty-enum-value", what,
                  schema_where(tool, path), False)
