"""Prompt-cache breakpoints: Anthropic takes at most a few blocks carrying `cache_control` in
one request, counted over the tool declarations, the system blocks and the message blocks
(a tool_result's own blocks included), in the order the prompt is read; none on the blocks
inside a tool_result's content; and no one-hour mark after a five-minute one."""

from __future__ import annotations

import re
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


def ttl_marks(body: Mapping[str, Any]) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """(Anthropic's dotted path of the mark, the mark) of every block's cache_control in the
    order Anthropic reads them (tools, system, messages), then the top-level cache_control,
    which marks the end of the prompt. A tool_result's inner blocks, refused anyway, are not
    read."""
    tools = body.get("tools")
    for k, tool in enumerate(tools if isinstance(tools, list) else ()):
        if _marked(tool) and isinstance(tool["cache_control"], Mapping):
            yield f"tools.{k}.cache_control", tool["cache_control"]
    system = body.get("system")
    for j, block in enumerate(system if isinstance(system, list) else ()):
        if _marked(block) and isinstance(block["cache_control"], Mapping):
            yield f"system.{j}.cache_control", block["cache_control"]
    msgs = body.get("messages")
    for i, message in enumerate(msgs if isinstance(msgs, list) else ()):
        content = message.get("content") if isinstance(message, Mapping) else None
        for j, block in enumerate(content if isinstance(content, list) else ()):
            if _marked(block) and isinstance(block["cache_control"], Mapping):
                yield f"messages.{i}.content.{j}.cache_control", block["cache_control"]
    top = body.get("cache_control")
    if isinstance(top, Mapping):
        yield "cache_control", top


def long_after_short(body: Mapping[str, Any]) -> Iterator[str]:
    """The path of each one-hour mark that comes after a five-minute one (a mark without a
    ttl is five minutes)."""
    short = False
    for path, mark in ttl_marks(body):
        if mark.get("ttl") == "1h":
            if short:
                yield path
        else:
            short = True


def cache_ttl_order(body: Mapping[str, Any], rule: Rule,
                    model: str | None) -> Iterator[Finding]:
    """Each one-hour cache mark after a five-minute one. The words name the mark's ttl
    (`system.1.cache_control.ttl`), or the top-level field alone (`cache_control`)."""
    for path in long_after_short(body):
        said = path if path == "cache_control" else f"{path}.ttl"
        yield Finding(location=re.sub(r"\.(\d+)", r"[\1]", said), fields={"path": said})
