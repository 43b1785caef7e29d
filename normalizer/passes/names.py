"""Tool names across a vendor switch: names the target rejects are rewritten everywhere."""

from __future__ import annotations

import re
from dataclasses import replace

from normalizer.ids import Constraint, compose, name_map
from normalizer.model import Change, JsonMap, Part, ToolCall, ToolResult, ToolSpec
from normalizer.passes import Draft, Policy
from normalizer.passes.ids import map_parts
from normalizer.profiles import Profile

_PASS = "rewrite_tool_names"
_CODE = "rewrite-tool-name"


def name_constraint(profile: Profile) -> Constraint:
    """What the target accepts as a tool name: tool-name-invalid's pattern, less the names
    tool-name-reserved keeps, and the shorter of its max_length and tool-name-too-long's."""
    lengths = [n for n in (profile.param("tool-name-invalid", "max_length"),
                           profile.param("tool-name-too-long", "max_length")) if n is not None]
    pattern = profile.param("tool-name-invalid", "pattern")
    reserved = profile.param("tool-name-reserved", "names") \
        if profile.enforces("tool-name-reserved") else None
    if reserved:
        base = str(pattern or ".+").removeprefix("^").removesuffix("$")
        taken = "|".join(re.escape(str(n)) for n in reserved)
        pattern = f"^(?!(?:{taken})$)(?:{base})$"
    return Constraint(pattern=pattern, max_length=min(lengths) if lengths else None)


def _names(draft: Draft) -> dict[str, None]:
    """Declared names first (so they keep the readable replacements), then used ones; each
    once, in order of first appearance (what the map is built from)."""
    names = dict.fromkeys(tool.name for tool in draft.tools)
    for message in draft.history.messages:
        calls, results = message.tool_calls, message.tool_results
        if not calls or not results:  # one kind or none: the same names in the same order
            for part in calls or results:
                if part.name is not None:
                    names[part.name] = None
            continue
        for part in message.parts:
            if isinstance(part, ToolCall | ToolResult) and part.name is not None:
                names[part.name] = None
    return names


def rewrite_tool_names(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes tool names the target rejects (rules tool-name-invalid: params.pattern,
    params.max_length; tool-name-too-long: params.max_length; tool-name-reserved:
    params.names, DashScope's `search`), e.g. an MCP name
    `github.search/issues` for OpenAI's `^[a-zA-Z0-9_-]+$` and 64 characters (the vendor's
    text is kept in its profile). One replacement per
    name (unsafe characters -> `_`, cut with a digest suffix when too long or taken),
    applied to declarations, calls and results alike: `github.search/issues` ->
    `github_search_issues`. Lossless: `Draft.name_map` maps each new name back, so the
    calls in the vendor's response can be renamed before they are run."""
    rule = name_constraint(profile)
    if not rule.active:
        return draft, ()
    renames = name_map(_names(draft), rule)
    if not renames:
        return draft, ()
    tools, changes = _rename_tools(draft.tools, renames)

    def rename(i: int, j: int, part: Part) -> tuple[Part, tuple[Change, ...]]:
        where = f"messages[{i}].parts[{j}]"
        if isinstance(part, ToolCall | ToolResult) and part.name in renames:
            new = renames[part.name]
            kind = "tool call" if isinstance(part, ToolCall) else "tool result"
            return replace(part, name=new), (_renamed(kind, part.name, new, where),)
        return part, ()

    history, used = map_parts(draft.history, rename, calls_only=True)
    new_map = JsonMap(compose(draft.name_map, renames))
    return replace(draft, history=history, tools=tools, name_map=new_map), changes + used


def _rename_tools(
    tools: tuple[ToolSpec, ...], renames: dict[str, str]
) -> tuple[tuple[ToolSpec, ...], tuple[Change, ...]]:
    renamed: list[ToolSpec] = []
    changes: list[Change] = []
    for k, tool in enumerate(tools):
        if tool.name in renames:
            new = renames[tool.name]
            changes.append(_renamed("declared tool", tool.name, new, f"tools[{k}]"))
            tool = replace(tool, name=new)
        renamed.append(tool)
    return tuple(renamed), tuple(changes)


def _renamed(kind: str, old: str, new: str, where: str) -> Change:
    return Change(_PASS, _CODE, f"{kind} name {old!r} -> {new!r} (the target rejects the "
                  "original)", where, True)
