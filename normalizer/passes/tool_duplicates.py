"""Tools pass: two function declarations of one name."""

from __future__ import annotations

from dataclasses import replace

from normalizer.model import Change, ToolSpec
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile


def drop_duplicate_tools(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes tools declared twice under one name (rule duplicate-tool-name): the first
    declaration stays, each later one of the same name goes.

    Rejected by: Anthropic "tools: Tool names must be unique." (anthropics/claude-code#10687);
    Gemini "Duplicate function declaration found: tool_function"
    (owndev/Open-WebUI-Functions#135).

    Before: tools=[memory (built-in), search, memory (an MCP server's)]
    After:  tools=[memory (built-in), search]
    Lossless where the later declaration is the same as the first (a list merged twice);
    lossy where it differs (the model can no longer see or call it): the change says which.
    """
    if len({t.name for t in draft.tools}) == len(draft.tools):
        return draft, ()
    first: dict[str, ToolSpec] = {}
    kept: list[ToolSpec] = []
    changes: list[Change] = []
    for k, tool in enumerate(draft.tools):
        earlier = first.get(tool.name)
        if earlier is None:
            first[tool.name] = tool
            kept.append(tool)
            continue
        same = tool == earlier
        changes.append(Change(
            "drop_duplicate_tools", "drop-duplicate-tool",
            f"dropped the declaration of tool {tool.name!r} at position {k}: an earlier one "
            "has the same name" + (" and is the same" if same else
                                   " (this one differs in its description, schema or strict "
                                   "flag, and is no longer offered)"),
            f"tools[{k}]", lossless=same))
    return replace(draft, tools=tuple(kept)), tuple(changes)
