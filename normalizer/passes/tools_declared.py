"""Tools pass: a request that carries tool calls or results declares tools."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from normalizer.model import Change, JsonMap, ToolSpec
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile

DECLARED_DESCRIPTION = ("Declared by the normalizer because earlier messages call this tool; "
                        "it may not be available now.")


def declare_missing_tools(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes a request whose history holds tool calls or results but which declares no tools
    (the tool-less summary call after a tool-using conversation). Each tool the history calls
    is declared, in order of first call, with an open schema and a description saying why it
    is there. Send it with `tool_choice` "none" (or the protocol's equivalent) if the model
    must not call it now. Runs after tool names are rewritten, so declarations match calls.
    Nothing is declared when the request already declares tools.

    Rejected by: Anthropic "Requests which include `tool_use` or `tool_result` blocks must
    define tools." (its profile).

    Before: tools=[], history [assistant(call get_weather), tool(result)]
    After:  tools=[get_weather {"type": "object"}]
    Lossless (a declaration is added).
    """
    if draft.tools:
        return draft, ()
    names: list[str] = []
    holds_tools = False
    for message in draft.history.messages:
        holds_tools = holds_tools or bool(message.tool_calls or message.tool_results)
        for name in [c.name for c in message.tool_calls] + [r.name or "" for r in
                                                           message.tool_results]:
            if name and name not in names:
                names.append(name)
    if not holds_tools:
        return draft, ()
    if not names:
        names = ["tool"]  # results whose tool is unknown: any one declaration satisfies it
    tools = tuple(ToolSpec(n, DECLARED_DESCRIPTION, JsonMap({"type": "object"})) for n in names)
    changes = tuple(Change("declare_missing_tools", "declare-missing-tool",
                           f"declared tool {n!r}, which the history uses but the request did "
                           "not declare", "tools", lossless=True) for n in names)
    return replace(draft, tools=tools), changes


def drop_tool_choice_without_tools(
    options: Mapping[str, Any], tools: Sequence[ToolSpec], profile: Profile
) -> tuple[dict[str, Any], tuple[Change, ...]]:
    """Request options (not the history): a `tool_choice` with no tools declared, where the
    profile enforces tool-choice-without-tools (vLLM: "When using `tool_choice`, `tools`
    must be set."). The option is removed (lossless: with no tools there is no choice)."""
    if tools or "tool_choice" not in options or not profile.enforces("tool-choice-without-tools"):
        return dict(options), ()
    kept = {k: v for k, v in options.items() if k != "tool_choice"}
    change = Change("drop_tool_choice_without_tools", "drop-tool-choice-without-tools",
                    f"removed tool_choice {options['tool_choice']!r}: no tools are declared",
                    "tool_choice", True)
    return kept, (change,)
