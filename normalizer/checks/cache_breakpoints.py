"""Prompt-cache breakpoints: Anthropic takes at most a few blocks carrying `cache_control` in
one request, counted over the tool declarations, the system blocks and the message blocks
(a tool_result's own blocks included), in the order the prompt is read; and none on the
blocks inside a tool_result's content."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from normalizer.check import Finding
from normalizer.profiles import Rule


def breakpoint_paths(body: Mapping[str, Any]) -> Iterator[str]:
    """The path of every block that carries a cache_control, in prompt order: tools, then
    system, then messages."""
    tools = body.get("tools")
    for k, tool in enumerate(tools if isinstance(tools, list) else ()):
        if _marked(tool):
            yield f"tools[{k}]"
    system = body.get("system")
    for j, block in enumerate(system if isinstance(system, list) else ()):
        if _marked(block):
            yield f"system[{j}]"
    msgs = body.get("messages")
    for i, message in enumerate(msgs if isinstance(msgs, list) else ()):
        content = message.get("content") if isinstance(message, Mapping) else None
        for j, block in enumerate(content if isinstance(content, list) else ()):
            if _marked(block):
                yield f"messages[{i}].content[{j}]"
            inner = block.get("content") if isinstance(block, Mapping) else None
            for n, part in enumerate(inner if isinstance(inner, list) else ()):
                if _marked(part):
                    yield f"messages[{i}].content[{j}].content[{n}]"


def _marked(block: Any) -> bool:
    return isinstance(block, Mapping) and block.get("cache_control") is not None


def too_many_cache_breakpoints(body: Mapping[str, Any], rule: Rule,
                               model: str | None) -> Iterator[Finding]:
    """One finding, at the first breakpoint past params.max_items, when there are more."""
    limit = int(rule.params["max_items"])
    paths = list(breakpoint_paths(body))
    if len(paths) > limit:
        yield Finding(location=f"{paths[limit]}.cache_control",
                      fields={"max_items": limit, "count": len(paths)})


def cache_control_in_tool_result(body: Mapping[str, Any], rule: Rule,
                                 model: str | None) -> Iterator[Finding]:
    """Each block inside a tool_result's content that carries a cache_control."""
    msgs = body.get("messages")
    for i, message in enumerate(msgs if isinstance(msgs, list) else ()):
        content = message.get("content") if isinstance(message, Mapping) else None
        for j, block in enumerate(content if isinstance(content, list) else ()):
            if not isinstance(block, Mapping) or block.get("type") != "tool_result":
                continue
            inner = block.get("content")
            for n, part in enumerate(inner if isinstance(inner, list) else ()):
                if _marked(part):
                    yield Finding(location=f"messages[{i}].content[{j}].content[{n}]"
                                           ".cache_control",
                                  fields={"index": i, "block": j, "inner": n})
