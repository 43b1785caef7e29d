"""Prompt-cache breakpoints: marks inside a tool result's content move to the result, and past
the vendor's limit the earliest lose their `cache_control`."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from normalizer.model import Change, History, Message, Opaque, Part, ToolResult
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile

RULE = "too-many-cache-breakpoints"
INSIDE_RULE = "cache-control-in-tool-result"
# (message index, part index, index inside a tool result's output or None)
Site = tuple[int, int, int | None]


def drop_excess_cache_breakpoints(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes more blocks carrying `cache_control` than params.max_items (rule
    too-many-cache-breakpoints): the last max_items in prompt order (system, then the
    messages, a tool result's own blocks after it) keep theirs, the earlier ones lose it.
    The later a breakpoint, the longer the prefix it caches, and the next turn reads the
    longest one back. Breakpoints on tool declarations are not in the history:
    `normalize_request` leaves those out first (`drop_tool_breakpoints`).

    Rejected by: Anthropic "A maximum of 4 blocks with cache_control may be provided. Found
    5." (continuedev/continue#6937).

    Before: system "S" {cache_control}, user "a" {cache_control}, ... five in all
    After:  system "S", user "a" {cache_control}, ... four
    Lossy: a cache hint goes (what the model reads does not change; what it costs may).
    """
    limit = profile.param(RULE, "max_items")
    if limit is None:
        return draft, ()
    sites = sorted(_sites(draft.history), key=lambda s: _prompt_order(draft.history, s))
    excess = len(sites) - int(limit)
    if excess <= 0:
        return draft, ()
    messages = list(draft.history.messages)
    changes: list[Change] = []
    for m, j, n in sites[:excess]:
        parts = list(messages[m].parts)
        parts[j] = _unmarked(parts[j], n)
        messages[m] = messages[m].with_parts(tuple(parts))
        where = f"messages[{m}].parts[{j}]" + ("" if n is None else f".content[{n}]")
        changes.append(Change("drop_excess_cache_breakpoints", "drop-cache-breakpoint",
                              f"left out a cache_control breakpoint: the target takes "
                              f"{limit}, and the last {limit} are kept", where,
                              lossless=False))
    history = replace(draft.history, messages=tuple(messages))
    return replace(draft, history=history), tuple(changes)


def hoist_tool_result_cache_control(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes cache_control marks on the blocks inside a tool result's content (rule
    cache-control-in-tool-result): the mark goes on the tool result itself, which ends where
    its content ends; the last inner mark's value is kept where the result had none.

    Rejected by: Anthropic, through GitHub Copilot's endpoint: "messages.5.content.0.
    tool_result.content.16.cache_control: cache_control may not be specified within
    `tool_result.content`. Instead, place it directly on `tool_result`"
    (caozhiyuan/copilot-api#241); langchain-ai/langchain#35126 moves it the same way.

    Before: tool_result(content [text "18C" {cache_control}])
    After:  tool_result {cache_control} (content [text "18C"])
    Lossless: the breakpoint stays at the end of the same tool result (or before the rest
    of its content, which the result's own mark then also covers).
    """
    messages = list(draft.history.messages)
    changes: list[Change] = []
    for m, message in enumerate(messages):
        if not message.tool_results:
            continue
        parts = list(message.parts)
        moved = False
        for j, part in enumerate(parts):
            if not isinstance(part, ToolResult) or isinstance(part.content, str):
                continue
            marks_inside = [p.extras["cache_control"] for p in part.content
                            if not isinstance(p, Opaque) and _marked(p)]
            if not marks_inside:
                continue
            content = tuple(p if isinstance(p, Opaque) or not _marked(p)
                            else replace(p, extras=p.extras.without("cache_control"))
                            for p in part.content)
            extras = part.extras if _marked(part) else part.extras.merged(
                cache_control=marks_inside[-1])
            parts[j] = replace(part, content=content, extras=extras)
            moved = True
            changes.append(Change("hoist_tool_result_cache_control", "move-cache-breakpoint",
                                  f"moved {len(marks_inside)} cache_control mark(s) from "
                                  "inside a tool result's content onto the tool result",
                                  f"messages[{m}].parts[{j}]", lossless=True))
        if moved:
            messages[m] = message.with_parts(tuple(parts))
    if not changes:
        return draft, ()
    return replace(draft, history=replace(draft.history, messages=tuple(messages))), \
        tuple(changes)


def _prompt_order(history: History, site: Site) -> tuple[int, int, int, int]:
    """System text goes before every message in the prompt, wherever it stands here; a
    tool result's own blocks come after the result's block."""
    m, j, n = site
    return (0 if history.messages[m].role == "system" else 1), m, j, -1 if n is None else n


def _sites(history: History) -> Iterator[Site]:
    for m, message in enumerate(history.messages):
        for j, part in enumerate(message.parts):
            if _marked(part):
                yield m, j, None
            if isinstance(part, ToolResult) and not isinstance(part.content, str):
                for n, inner in enumerate(part.content):
                    if _marked(inner):
                        yield m, j, n


def _marked(part: Part) -> bool:
    fields = part.data if isinstance(part, Opaque) else part.extras
    return fields.get("cache_control") is not None


def _unmarked(part: Part, inner: int | None) -> Part:
    if inner is not None and isinstance(part, ToolResult) and not isinstance(part.content, str):
        content = list(part.content)
        content[inner] = _unmarked(content[inner], None)  # type: ignore[assignment]
        return replace(part, content=tuple(content))
    if isinstance(part, Opaque):
        return replace(part, data=part.data.without("cache_control"))
    return replace(part, extras=part.extras.without("cache_control"))


def drop_tool_breakpoints(declared: list[dict[str, object]], history_marks: int,
                          limit: int) -> tuple[list[dict[str, object]], tuple[Change, ...]]:
    """Tool declarations sent as they came (same protocol): the earliest of their
    breakpoints go while the request would hold more than `limit`."""
    marked = [k for k, tool in enumerate(declared)
              if isinstance(tool, dict) and tool.get("cache_control") is not None]
    excess = len(marked) + history_marks - limit
    if excess <= 0:
        return declared, ()
    out = list(declared)
    changes = []
    for k in marked[:excess]:
        out[k] = {key: value for key, value in declared[k].items() if key != "cache_control"}
        changes.append(Change("drop_excess_cache_breakpoints", "drop-cache-breakpoint",
                              f"left out a cache_control breakpoint: the target takes "
                              f"{limit}, and the last {limit} are kept", f"tools[{k}]",
                              lossless=False))
    return out, tuple(changes)


def marks(message_parts: tuple[Message, ...]) -> int:
    """How many breakpoints the messages hold."""
    return sum(1 for _ in _sites(History(message_parts)))
