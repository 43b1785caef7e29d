"""Detectors for the ends of an Anthropic conversation: the final assistant message (a
prefill, which the model continues), refused outright by Claude 4.6 and later models and,
for every model, when its content ends with whitespace; and a conversation with no message
at all (a system prompt alone goes in `system`)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from normalizer.check import Finding
from normalizer.checks.anthropic_walk import messages
from normalizer.profiles import Rule


def last_message_role(body: Mapping[str, Any], rule: Rule, model: str | None) -> Iterator[Finding]:
    """`last-message-role`: a final assistant message (a prefill) sent to a model that takes
    none (the profile scopes the rule to those models; params.allowed, default user). A
    paused server-tool turn, whose last block is a server tool's call or result, is sent back
    to be continued (stop_reason pause_turn) and is not flagged."""
    found = messages(body)
    if not found:
        return
    i, last = found[-1]
    now = last.get("role")
    if not isinstance(now, str) or now in set(rule.params.get("allowed") or ("user",)):
        return
    content = last.get("content")
    if isinstance(content, list) and content and _server_tool_block(content[-1]):
        return
    yield Finding(f"messages[{i}]", {"index": i, "role": now})


def prefill_trailing_whitespace(body: Mapping[str, Any], rule: Rule,
                                model: str | None) -> Iterator[Finding]:
    """`prefill-trailing-whitespace`: a final assistant message whose content ends with
    whitespace: a string, or a last block that is text (a tool_use or thinking block last
    ends it otherwise)."""
    found = messages(body)
    if not found:
        return
    i, last = found[-1]
    if last.get("role") != "assistant":
        return
    content = last.get("content")
    if isinstance(content, list) and content and isinstance(content[-1], Mapping) \
            and content[-1].get("type") == "text":
        text, where = content[-1].get("text"), f"messages[{i}].content[{len(content) - 1}].text"
    else:
        text, where = content, f"messages[{i}].content"
    if isinstance(text, str) and text and text[-1].isspace():
        yield Finding(where, {"index": i})


def _server_tool_block(block: Any) -> bool:
    kind = block.get("type") if isinstance(block, Mapping) else None
    return isinstance(kind, str) and kind != "tool_result" and (
        kind in ("server_tool_use", "mcp_tool_use") or kind.endswith("_tool_result"))


def conversation_empty(body: Mapping[str, Any], rule: Rule, model: str | None) -> Iterator[Finding]:
    """`conversation-empty`: `messages` absent or an empty list."""
    if body.get("messages") in (None, []):
        yield Finding("messages", {})
