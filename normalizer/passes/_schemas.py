"""What the tool-schema passes share: each tool's schema, as plain JSON, handed to a fix."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import Any, TypeVar

from normalizer.model import Change, ToolSpec, thaw
from normalizer.passes.draft import Draft

# (tool, its schema as plain JSON) -> (the schema to send, the changes made to it)
SchemaFix = Callable[[ToolSpec, Any], tuple[Any, Sequence[Change]]]
Path = tuple[str | int, ...]
Done = TypeVar("Done")  # what a repair says it did at one path (None: nothing)


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


def fix_at_paths(find: Callable[[Any], Iterable[Path]],
                 repair: Callable[[Any, list[Path]], tuple[Any, list[Done]]],
                 said: Callable[[str, Path, Done], Change]) -> SchemaFix:
    """The SchemaFix of a repair made at the paths a check finds: `repair(schema, paths)`
    gives the new schema and, per path, what it did (None where it could do nothing: the
    check goes on naming that place); `said(tool, path, done)` reports each."""
    def fix(tool: ToolSpec, schema: Any) -> tuple[Any, list[Change]]:
        paths = list(find(schema))
        if not paths:
            return schema, []
        fixed, done = repair(schema, paths)
        return fixed, [said(tool.name, path, d) for path, d in zip(paths, done, strict=True)
                       if d is not None]
    return fix
