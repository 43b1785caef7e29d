"""Tools pass: a union (or another whole-object constraint) at the top level of a tool's
parameters schema."""

from __future__ import annotations

from typing import Any

from normalizer.model import Change, ToolSpec
from normalizer.passes import Draft, Policy
from normalizer.passes._schemas import fix_schemas
from normalizer.profiles import Profile
from normalizer.root_union import flattened

RULE = "tool-parameters-top-level-union"


def flatten_top_level_union(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes a tool whose parameters schema has, at its top level, a keyword the target
    refuses there (rule tool-parameters-top-level-union; the keywords are the rule's
    params): the branches of an anyOf/oneOf/allOf are merged into one object schema
    (`normalizer.root_union.flattened`), a top-level enum/const/not is dropped. Lossy: the
    object now admits combinations the union did not ("exactly one of these"); what was
    given up is named in the change. The target refuses every request that declares the
    tool, whatever the conversation, so each turn of a session would fail without it.

    Rejected by: OpenAI "Invalid schema for function 'update-event': schema must have type
    'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level."
    (nspady/google-calendar-mcp#39); Anthropic "tools.106.custom.input_schema: input_schema
    does not support oneOf, allOf, or anyOf at the top level" (anthropics/claude-code#5319).

    Before: {"oneOf": [{"properties": {"action": {"const": "create"}, "name": ...}},
                       {"properties": {"action": {"const": "delete"}, "id": ...}}]}
    After:  {"type": "object", "properties": {"action": {"enum": ["create", "delete"]},
                                              "name": ..., "id": ...}}
    """
    keywords = profile.param(RULE, "keywords")
    if not keywords or not draft.tools:
        return draft, ()
    words = tuple(str(k) for k in keywords)

    def flatten(tool: ToolSpec, schema: Any) -> tuple[Any, list[Change]]:
        done = flattened(schema, words) if isinstance(schema, dict) else None
        if done is None:
            return schema, []
        fixed, report = done
        why = (f"the target refuses {', '.join(report.keywords)} at the top level of a "
               "parameters schema")
        return fixed, [Change("flatten_top_level_union", "flatten-top-level-union",
                              report.said(tool.name, why), f"tools.{tool.name}", False)]

    return fix_schemas(draft, flatten)
