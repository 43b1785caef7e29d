"""Tools pass: more tools declared than the vendor takes in one request."""

from __future__ import annotations

from dataclasses import replace

from normalizer.model import Change, History
from normalizer.options import tool_choice_names
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile

RULE = "too-many-tools"


def drop_tools_over_limit(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes a request declaring more tools than the target takes (rule too-many-tools,
    params.max_items): the tools kept are, first, the ones the tool choice names, then the
    ones the history calls (latest call first), then the others in the order declared,
    up to the limit; they keep their declared order. Apps that meet the limit (every tool
    of several MCP servers) cut their list the same way, or fail; an app that would rather
    choose cuts its list before it calls `normalize`.

    Rejected by: OpenAI "Invalid 'tools': array too long. Expected an array with maximum
    length 128, but got an array with length 325 instead." (vishalmysore/Tools4AI#16);
    Groq "'tools' : maximum number of items is 128" (HunorLaczko/ha-groq-cloud-api#25);
    Gemini "... tools[0].function_declarations: [FIELD_INVALID] At most 512 function
    declarations can be specified." (google-gemini/gemini-cli#19083).

    Before: 130 tools declared for OpenAI, the history calling tool 129
    After:  tools 1-127 and 129, in that order; tools 128 and 130 left out
    Lossy: the model can no longer call a tool left out; each is reported by name.
    """
    param = profile.param(RULE, "max_items")
    if param is None or len(draft.tools) <= int(param):
        return draft, ()
    limit = int(param)
    first = _wanted(draft, profile.protocol)
    by_name: dict[str, int] = {}
    for k, tool in enumerate(draft.tools):
        by_name.setdefault(tool.name, k)
    keep = [by_name[n] for n in first if n in by_name][:limit]
    named, taken = len(keep), set(keep)
    for k in range(len(draft.tools)):
        if len(keep) >= limit:
            break
        if k not in taken:
            keep.append(k)
            taken.add(k)
    why = (f"the target takes at most {limit} tools and {len(draft.tools)} were declared: "
           f"kept the {named} that the tool choice names or the history calls, and the first "
           f"{limit - named} others in declared order")
    changes = tuple(Change("drop_tools_over_limit", "drop-tool-over-limit",
                           f"left out tool {tool.name!r} ({why})", f"tools.{tool.name}",
                           lossless=False)
                    for k, tool in enumerate(draft.tools) if k not in taken)
    tools = tuple(tool for k, tool in enumerate(draft.tools) if k in taken)
    return replace(draft, tools=tools), changes


def _wanted(draft: Draft, protocol: str) -> list[str]:
    """Tool names in the order they should be kept: the tool choice's, then the history's
    calls from the latest back, each once."""
    names = dict.fromkeys(tool_choice_names(draft.options, protocol))
    names.update(dict.fromkeys(_called_latest_first(draft.history)))
    return list(names)


def _called_latest_first(history: History) -> list[str]:
    found: dict[str, None] = {}
    for message in reversed(history.messages):
        for call in reversed(message.tool_calls):
            found.setdefault(call.name, None)
    return list(found)
