"""Tools pass: a function description longer than the vendor takes."""

from __future__ import annotations

from dataclasses import replace

from normalizer.model import Change, ToolSpec
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile

# Ends a shortened description, so that the model reading it sees that it was cut.
MARK = "…"
_SHOWN = 60  # characters of the removed tail quoted in the change


def shorten_tool_descriptions(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes a function description longer than the target takes (rule
    tool-description-too-long, params.max_length): the description keeps its first
    max_length - 1 characters and ends with "…".

    Rejected by: OpenAI "Invalid 'tools[13].function.description': string too long. Expected
    a string with maximum length 1024, but got a string with length 1103 instead."
    (getsentry/sentry-mcp#106); Azure OpenAI the same (OpenHands/OpenHands#4838).

    Before: tools=[search, description of 2,028 characters] for OpenAI
    After:  tools=[search, its first 1,023 characters + "…"]
    Lossy: the model no longer reads the rest; the change quotes where the cut fell.
    """
    param = profile.param("tool-description-too-long", "max_length")
    limit = None if param is None else int(param)
    if limit is None or all(len(t.description) <= limit for t in draft.tools):
        return draft, ()
    keep = limit - len(MARK)
    changes: list[Change] = []
    tools: list[ToolSpec] = []
    for tool in draft.tools:
        if len(tool.description) <= limit:
            tools.append(tool)
            continue
        tail = tool.description[keep:]
        shown = tail if len(tail) <= _SHOWN else tail[:_SHOWN] + MARK
        changes.append(Change(
            "shorten_tool_descriptions", "shorten-tool-description",
            f"cut the description of tool {tool.name!r} from {len(tool.description)} to "
            f"{limit} characters (the target takes at most {limit}): removed "
            f"{len(tail)} characters from {shown!r}",
            f"tools.{tool.name}.description", lossless=False))
        tools.append(replace(tool, description=tool.description[:keep] + MARK))
    return replace(draft, tools=tuple(tools)), tuple(changes)
