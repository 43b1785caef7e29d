"""Tools pass: array schemas without `items` in a tool's parameters."""

from __future__ import annotations

from typing import Any

from normalizer.array_items import bare_arrays, with_items
from normalizer.model import Change, ToolSpec
from normalizer.passes import Draft, Policy
from normalizer.passes._schemas import fix_schemas, schema_where
from normalizer.profiles import Profile


def add_array_items(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes an array schema without `items` in a tool's parameters (rule
    array-schema-missing-items): each gets `items: {}`, which JSON Schema reads as the bare
    array was meant (elements of any kind). MCP servers declare such parameters often;
    agents that send them to Gemini add the same `{}` (NousResearch/hermes-agent#71816,
    AnswerDotAI/toolslm#68).

    Rejected by: OpenAI "Invalid schema for function 'create_canvas': In
    context=('properties', 'blocks'), array schema missing items." (gumloop/guMCP#136);
    Gemini "* GenerateContentRequest.tools[0].function_declarations[3].parameters.
    properties[tags].items: missing field." (kkrishnan90/gemini-desktop#7).

    Before: {"type": "object", "properties": {"tags": {"type": "array"}}}
    After:  {"type": "object", "properties": {"tags": {"type": "array", "items": {}}}}
    Lossless: the schema admits exactly what it admitted.
    """
    if not profile.enforces("array-schema-missing-items") or not draft.tools:
        return draft, ()
    return fix_schemas(draft, _with_items)


def _with_items(tool: ToolSpec, schema: Any) -> tuple[Any, list[Change]]:
    paths = list(bare_arrays(schema))
    return with_items(schema, paths), [Change(
        "add_array_items", "add-array-items",
        f"added items {{}} to the array schema at {_spelled(path)} of tool "
        f"{tool.name!r} (the target refuses an array schema without items; {{}} admits "
        "any element, as the bare array did)",
        schema_where(tool.name, path), True) for path in paths]


def _spelled(path: tuple[str | int, ...]) -> str:
    return "/".join(str(p) for p in path) or "the top level"
