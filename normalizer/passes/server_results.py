"""Anthropic server tool results whose server_tool_use block is not before them."""

from __future__ import annotations

from dataclasses import replace

from normalizer.crossing import opaque_text
from normalizer.model import Change, Message, Opaque, Text, part_types
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile
from normalizer.protocols import server_result_kind


def server_results_to_text(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes a server tool result block with no `server_tool_use` block of its id before it
    in its message (rule server-tool-result-orphan): the block becomes text saying what the
    server tool returned.

    Rejected by: Anthropic "messages.7.content.0: unexpected `tool_use_id` found in
    `advisor_tool_result` blocks: srvtoolu_01JjfQsdhSJkT7qLCL7Pj9jc. Each
    `advisor_tool_result` block must have a corresponding `server_tool_use` block before
    it." (anthropics/claude-code#64383 and six more Claude Code reports, 2026-05..09).

    Before: assistant[advisor_tool_result(srvtoolu_1, …), text "…"]
    After:  assistant[text "[anthropic advisor_tool_result: {…}]", text "…"]
    Lossy: the result is no longer a server block, only its record as text. Moving a
    server_tool_use found in another message is not tried: where it went is not known.
    """
    messages = draft.history.messages
    if Opaque not in part_types(m for m in messages if m.role == "assistant"):
        return draft, ()  # most histories: no server blocks, told by one C-level walk
    changes: list[Change] = []
    out: list[Message] = []
    for i, message in enumerate(messages):
        orphans = _orphans(message) if message.role == "assistant" else []
        if not orphans:
            out.append(message)
            continue
        parts = list(message.parts)
        for j, block in orphans:
            parts[j] = Text(opaque_text(block))
            changes.append(Change(
                "server_results_to_text", "orphan-server-result-as-text",
                f"{block.kind} {block.data.get('tool_use_id')!r} has no server_tool_use "
                "before it in its message; sent as text", f"messages[{i}].parts[{j}]",
                lossless=False))
        out.append(message.with_parts(tuple(parts)))
    if not changes:
        return draft, ()
    return replace(draft, history=replace(draft.history, messages=tuple(out))), tuple(changes)


def _orphans(message: Message) -> list[tuple[int, Opaque]]:
    """(index, block) of each server result in `message` with no server_tool_use of its id
    before it."""
    used: set[object] = set()
    found: list[tuple[int, Opaque]] = []
    for j, part in enumerate(message.parts):
        if not isinstance(part, Opaque) or part.protocol != "anthropic":
            continue
        if part.kind == "server_tool_use":
            used.add(part.data.get("id"))
        elif server_result_kind(part.kind) and part.data.get("tool_use_id") not in used:
            found.append((j, part))
    return found
