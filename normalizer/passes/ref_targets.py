"""Tools pass: `$ref`s in a tool's parameters schema that do not point into its `$defs`."""

from __future__ import annotations

from typing import Any

from normalizer.model import Change, ToolSpec
from normalizer.passes import Draft, Policy
from normalizer.passes._schemas import fix_rule_schemas
from normalizer.profiles import Profile
from normalizer.ref_targets import hoisted

RULE = "schema-ref-outside-defs"


def hoist_refs_into_defs(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes `$ref`s in a tool's parameters schema that point anywhere but its root `$defs`
    (rule schema-ref-outside-defs): each target (`#/properties/a`, `#/definitions/A`) is
    copied into `$defs` and the references pointed there (`normalizer.ref_targets.hoisted`),
    `definitions` dropped once nothing points into it. Lossless: a pointer is read from
    the root, so the copies mean what the originals did. A reference to another document
    is left for the check to name.

    Rejected by: Moonshot "tools.function.parameters is not a valid moonshot flavored json
    schema, details: <At path '….startDateTime.$ref': references must start with #/$defs/>"
    (Softeria/ms-365-mcp-server#458, kimi-k2.6).

    Before: {"properties": {"auto_merge": {"type": "boolean"},
                            "squash": {"$ref": "#/properties/auto_merge"}}}
    After:  {"properties": {"auto_merge": {"type": "boolean"},
                            "squash": {"$ref": "#/$defs/auto_merge"}},
             "$defs": {"auto_merge": {"type": "boolean"}}}
    """
    def hoist(tool: ToolSpec, schema: Any) -> tuple[Any, list[Change]]:
        fixed, moved = hoisted(schema)
        return fixed, [Change(
            "hoist_refs_into_defs", "hoist-ref-into-defs",
            f"tool {tool.name!r}: copied the schema {ref!r} points to into $defs.{name} and "
            "pointed its references there (the target takes references into $defs only)",
            f"tools.{tool.name}.$defs.{name}", True) for ref, name in moved.items()]

    return fix_rule_schemas(draft, profile, RULE, hoist)
