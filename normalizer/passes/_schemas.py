"""What the tool-schema passes share: each tool's schema, as plain JSON, handed to a fix."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from normalizer.model import Change, ToolSpec, thaw
from normalizer.passes.draft import Draft

# (tool, its schema as plain JSON) -> (the schema to send, the changes made to it)
SchemaFix = Callable[[ToolSpec, Any], tuple[Any, Sequence[Change]]]


def schema_where(tool: str, path: tuple[str | int, ...]) -> str:
    """Where a change to the node at `path` of `tool`'s schema is reported."""
    return f"tools.{tool}" + "".join(f".{p}" for p in path)


def fix_schemas(draft: Draft, fix: SchemaFix) -> tuple[Draft, tuple[Change, ...]]:
    """`fix` applied to every tool's schema (thawed: type and enum lists are lists again);
    the tools it changes nothing in are kept as they were, and the draft too if none."""
    tools: list[ToolSpec] = []
    changes: list[Change] = []
    for tool in draft.tools:
        schema, made = fix(tool, thaw(tool.input_schema))
        tools.append(replace(tool, input_schema=schema) if made else tool)
        changes.extend(made)
    if not changes:
        return draft, ()
    return replace(draft, tools=tuple(tools)), tuple(changes)
