"""Tools pass: a request that carries tool calls or results declares tools."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from normalizer.model import Change, JsonMap, ToolSpec, thaw
from normalizer.options import TOOL_CHOICE
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile
from normalizer.tool_spec import NO_ARGUMENTS

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
    After:  tools=[get_weather {"type": "object", "properties": {}}]
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
    tools = tuple(ToolSpec(n, DECLARED_DESCRIPTION, JsonMap(NO_ARGUMENTS)) for n in names)
    changes = tuple(Change("declare_missing_tools", "declare-missing-tool",
                           f"declared tool {n!r}, which the history uses but the request did "
                           "not declare", "tools", lossless=True) for n in names)
    return replace(draft, tools=tools), changes


def drop_tool_choice_without_tools(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes a request option, not the history: a `tool_choice` (Gemini: `toolConfig`) with
    no tools declared. Runs after declare_missing_tools, so a request that gets declarations
    keeps its choice.

    Rejected by: vLLM "When using `tool_choice`, `tools` must be set." (its profile).

    Before: tools=[], options {"tool_choice": "auto"}
    After:  tools=[], options {}
    Lossless: with no tools declared there is nothing to choose from.
    """
    if profile.protocol == "gemini":
        return (draft, ()) if draft.tools else _without_calling_config(draft)
    key = TOOL_CHOICE[profile.protocol][0]
    if draft.tools or key not in draft.options:
        return draft, ()
    kept = JsonMap({k: v for k, v in draft.options.items() if k != key})
    change = Change("drop_tool_choice_without_tools", "drop-tool-choice-without-tools",
                    f"removed {key} {thaw(draft.options[key])!r}: no tools are declared", key,
                    True)
    return replace(draft, options=kept), (change,)


# Gemini's spellings: the REST API's camelCase and the SDKs' snake_case, both read.
CONFIG = ("toolConfig", "tool_config")
CALLING = ("functionCallingConfig", "function_calling_config")


def _without_calling_config(draft: Draft) -> tuple[Draft, tuple[Change, ...]]:
    """Gemini's toolConfig without its functionCallingConfig, the other settings it holds
    (retrievalConfig, includeServerSideToolInvocations) kept; no toolConfig when none is
    left."""
    key = next((k for k in CONFIG if k in draft.options), None)
    config = draft.options[key] if key is not None else None
    calling = next((c for c in CALLING if isinstance(config, Mapping)
                    and config.get(c) is not None), None)
    if key is None or calling is None or not isinstance(config, Mapping):
        return draft, ()
    rest = {k: v for k, v in config.items() if k != calling}
    options = {k: v for k, v in draft.options.items() if k != key}
    if rest:
        options[key] = JsonMap(rest)
    change = Change("drop_tool_choice_without_tools", "drop-tool-choice-without-tools",
                    f"removed {key}.{calling} {thaw(config[calling])!r}: no functions are "
                    "declared", f"{key}.{calling}", True)
    return replace(draft, options=JsonMap(options)), (change,)


PARALLEL = "parallel_tool_calls"


def drop_parallel_tool_calls_without_tools(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes a request option, not the history: `parallel_tool_calls` with no tools
    declared (rule parallel-tool-calls-without-tools). Apps set it once for the agent and
    send it with the tool-less summary or title call. Runs after tools are declared for the
    history, so a request that gains tools keeps it.

    Rejected by: OpenAI "Invalid value for 'parallel_tool_calls': 'parallel_tool_calls' is
    only allowed when 'tools' are specified." (openai/swarm#30).

    Before: tools=[], options {"parallel_tool_calls": false}
    After:  tools=[], options {}
    Lossless: with no tools declared no call can be made, in parallel or not.
    """
    if draft.tools or draft.options.get(PARALLEL) is None:
        return draft, ()
    kept = JsonMap({k: v for k, v in draft.options.items() if k != PARALLEL})
    change = Change("drop_parallel_tool_calls_without_tools",
                    "drop-parallel-tool-calls-without-tools",
                    f"removed {PARALLEL} {thaw(draft.options[PARALLEL])!r}: no tools are "
                    "declared", PARALLEL, True)
    return replace(draft, options=kept), (change,)
