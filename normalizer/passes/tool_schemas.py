"""Tool parameter schemas with keywords the vendor rejects.

Fixes tool-schema-unsupported. Gemini accepts only an OpenAPI 3.0 subset in function
declarations and answers, for example, `Invalid JSON payload received. Unknown name
"additionalProperties" at 'tools[0].function_declarations[0].parameters': Cannot find
field.` (zed-industries/zed#44875, see normalizer/profiles/gemini.yaml). Rendering is
faithful, so the conversion happens here, where it is reported: `$ref`/`$defs` inlined,
`anyOf` with null turned into `nullable`, `const` into a one-value enum, non-string enums
into strings, unsupported keywords dropped (normalizer.gemini_schema documents each).

Before: {"type": "object", "additionalProperties": false, "properties": {...}}
After:  {"type": "object", "properties": {...}}  — change schema-drop-additionalproperties.
Lossless where the meaning is kept (inlining, nullable), lossy where a constraint is
dropped.
"""

from __future__ import annotations

from dataclasses import replace

from normalizer.gemini_schema import convert
from normalizer.model import Change, ToolSpec, thaw
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile

_PASS = "convert_tool_schemas"


def convert_tool_schemas(draft: Draft, profile: Profile,
                         policy: Policy) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes tool schemas the vendor does not accept: each is cut down to the subset it takes
    (Gemini), one Change per conversion."""
    if not profile.enforces("tool-schema-unsupported") or not draft.tools:
        return draft, ()
    tools: list[ToolSpec] = []
    changes: list[Change] = []
    for tool in draft.tools:
        schema, found = convert(thaw(tool.input_schema), where=f"tools.{tool.name}")
        tools.append(replace(tool, input_schema=schema) if found else tool)
        changes.extend(replace(c, pass_name=_PASS) for c in found)
    if not changes:
        return draft, ()
    return replace(draft, tools=tuple(tools)), tuple(changes)
