"""Passes for what an OpenAI-style message or call carries: fields another client left
inside a tool call, text beside tool calls, an empty tool_calls list."""

from __future__ import annotations

from dataclasses import replace

from normalizer.model import (
    EMPTY,
    STREAM_MARKERS,
    WIRE_MARKERS,
    Change,
    JsonMap,
    Message,
    Text,
    ToolCall,
    ToolResult,
)
from normalizer.passes import Draft, Policy
from normalizer.passes._blocks import same_pairing
from normalizer.profiles import Profile
from normalizer.protocols import CHAT_MESSAGE_FIELDS, foreign_extras

_CALL_FIELDS = ("id", "type", "function")


def _with(draft: Draft, messages: list[Message]) -> Draft:
    return replace(draft, history=replace(draft.history, messages=tuple(messages)))


def drop_unknown_tool_call_fields(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes tool calls carrying fields the target does not know (rule unknown-tool-call-field),
    such as Codex's `call_id` and `response_item_id` replayed into Chat `tool_calls`.

    Rejected by: Fireworks "2 request validation errors: Extra inputs are not permitted,
    field: 'messages[2].tool_calls[0].call_id', …" (NousResearch/hermes-agent#893).

    Before: call {id: c1, call_id: c1, response_item_id: fc_c1, function: …}
    After:  call {id: c1, function: …}
    Lossy: the dropped fields are another client's bookkeeping, reported one by one.
    """
    # Keys another protocol owns are never rendered here, so they need no repair.
    allowed = set(profile.param("unknown-tool-call-field", "allowed", _CALL_FIELDS)) \
        | foreign_extras(profile.protocol)
    changes: list[Change] = []
    out: list[Message] = []
    for i, message in enumerate(draft.history.messages):
        # Most calls carry no extras (the one shared empty map): their messages are passed
        # on without a walk of their parts.
        for call in message.tool_calls:
            if call.extras is not EMPTY and any(k not in allowed for k in call.extras):
                break
        else:
            out.append(message)
            continue
        parts = list(message.parts)
        for j, part in enumerate(parts):
            extra = [k for k in part.extras if k not in allowed] \
                if isinstance(part, ToolCall) else []
            if extra:
                parts[j] = replace(part, extras=part.extras.without(*extra))
                changes.append(Change("drop_unknown_tool_call_fields", "drop-tool-call-field",
                                      f"dropped {', '.join(map(repr, extra))} from call "
                                      f"{part.id!r} (the target rejects unknown call fields)",
                                      f"messages[{i}].parts[{j}]", lossless=False))
        out.append(replace(message, parts=tuple(parts)))
    return (_with(draft, out), tuple(changes)) if changes else (draft, ())


def split_text_from_tool_calls(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes assistant messages holding both text and tool calls (rule content-with-tool-calls)
    by putting the text in an assistant message of its own right before the calls.

    Rejected by: Mistral "Assistant message must have either content or tool_calls, but not
    both." (langchain-ai/langchain#21196, 2024); devstral-latest answered 422 in 2026
    (github/copilot-cli#4884). mistral-small-latest accepted it in Aug 2026.

    Before: [assistant(text "Checking.", call_1), tool(call_1)]
    After:  [assistant(text "Checking."), assistant(call_1), tool(call_1)]
    Lossless: every part is kept, in order.
    """
    rule = profile.rule("content-with-tool-calls")
    if rule is None or not rule.applies_to(policy.model, when_unknown=True):
        return draft, ()
    changes: list[Change] = []
    out: list[Message] = []
    calls_kept: list[tuple[Message, Message]] = []  # (turn, its calls): see `same_pairing`
    for i, message in enumerate(draft.history.messages):
        if message.role != "assistant" or not message.tool_calls:  # before reading the text
            out.append(message)
            continue
        texts = tuple(p for p in message.parts if isinstance(p, Text) and p.text.strip())
        if not texts:
            out.append(message)
            continue
        rest = tuple(p for p in message.parts if not (isinstance(p, Text) and p.text.strip()))
        out.extend((message.with_parts(texts), message.with_parts(rest)))
        calls_kept.append((message, out[-1]))
        changes.append(Change("split_text_from_tool_calls", "split-text-from-tool-calls",
                              "moved the text beside tool calls into an assistant message "
                              "of its own before them", f"messages[{i}]", lossless=True))
    same_pairing(calls_kept)
    return (_with(draft, out), tuple(changes)) if changes else (draft, ())


def drop_empty_tool_calls(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes assistant messages sent back with an empty `tool_calls` list (rule
    empty-tool-calls), as an OpenAI SDK message object without calls carries it.

    Rejected by: OpenAI "Invalid 'messages[2].tool_calls': empty array. Expected an array
    with minimum length 1, but got an empty array instead." (home-assistant/core#118577);
    Together "Input validation error" (mozilla-ai/any-llm#714, since 2026-01).

    Before: assistant {content: "Done", tool_calls: []}
    After:  assistant {content: "Done"}
    Lossless: an empty list holds nothing.
    """
    changes: list[Change] = []
    out: list[Message] = []
    for i, message in enumerate(draft.history.messages):
        extras = message.extras
        if extras is EMPTY or message.role != "assistant" or not _empty_list(
                extras.get("tool_calls")):
            out.append(message)
            continue
        out.append(replace(message, extras=extras.without("tool_calls")))
        changes.append(Change("drop_empty_tool_calls", "drop-empty-tool-calls",
                              "dropped an empty tool_calls list from an assistant message "
                              "(the target rejects an empty array)", f"messages[{i}]", True))
    return (_with(draft, out), tuple(changes)) if changes else (draft, ())


def _empty_list(value: object) -> bool:
    return isinstance(value, tuple | list) and not value


# Keys of a message's extras a protocol's renderer reads for itself, not message fields:
# Responses writes `instructions` as the request's field and an assistant message's `item`
# fields onto its message items.
_READ_BY_RENDERER: dict[str, frozenset[str]] = {
    "openai_responses": frozenset({"instructions", "item"})}


def _unwritten(protocol: str) -> frozenset[str]:
    """The extras keys `protocol`'s renderer never writes as message fields."""
    keys = (foreign_extras(protocol) | STREAM_MARKERS | WIRE_MARKERS
            | _READ_BY_RENDERER.get(protocol, frozenset()))
    # Foreign keys, yet fields of a Chat message, which the Chat renderer writes there.
    return keys - CHAT_MESSAGE_FIELDS if protocol == "openai_chat" else keys


def drop_unknown_message_fields(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes messages carrying fields the target does not know for their role (rule
    unknown-message-field, `params.allowed`): another vendor's message fields kept from the
    body they came in, such as Mistral's `prefix` or OpenRouter's `reasoning_details`.

    Rejected by: Groq "'messages.1' : for 'role:assistant' the following must be
    satisfied[('messages.1' : property 'prefix' is unsupported)]" (janhq/jan#8136); Cerebras
    "messages.1.assistant.prefix: property 'messages.1.assistant.prefix' is unsupported"
    (Kilo-Org/kilocode#10375).

    Before: assistant {content: "Hi", prefix: false}
    After:  assistant {content: "Hi"}
    Lossy: the dropped fields are named one by one (reasoning itself is the thinking
    passes' business: `drop_foreign_thinking`).
    """
    allowed = profile.param("unknown-message-field", "allowed", {}) or {}
    unwritten = _unwritten(profile.protocol)
    # A Chat tool message's fields are its result's extras; on the other wires a result's
    # extras are fields of its block or part (drop_unknown_block_fields' business).
    results = profile.protocol == "openai_chat"
    keeps = {role: frozenset(known) | unwritten for role, known in allowed.items()}
    changes: list[Change] = []
    out: list[Message] = []
    for i, message in enumerate(draft.history.messages):
        keep = keeps.get(message.role)
        if keep is None:
            out.append(message)
            continue
        # Most messages and parts share the one empty map: nothing to read there.
        own = [] if message.extras is EMPTY else _unknown(message.extras, keep)
        if not own:
            for result in message.tool_results if results else ():  # a loop, not any()
                if result.extras is not EMPTY and _unknown(result.extras, keep):
                    break
            else:
                out.append(message)  # the usual case, without a walk of every part
                continue
        extra = list(own)
        gone: dict[int, list[str]] = {}  # part index -> its fields to drop
        for j, part in enumerate(message.parts if results else ()):
            if isinstance(part, ToolResult) and part.extras is not EMPTY:
                found = _unknown(part.extras, keep)
                if found:
                    gone[j] = found
                    extra += found
        if not extra:
            out.append(message)
            continue
        parts = tuple(replace(part, extras=part.extras.without(*gone[j]))  # type: ignore[union-attr]
                      if j in gone else part for j, part in enumerate(message.parts))
        out.append(replace(message, parts=parts, extras=message.extras.without(*own)))
        changes.append(Change("drop_unknown_message_fields", "drop-message-field",
                              f"dropped {', '.join(map(repr, dict.fromkeys(extra)))} from the "
                              f"{message.role} message (the target rejects unknown fields)",
                              f"messages[{i}]", lossless=False))
    return (_with(draft, out), tuple(changes)) if changes else (draft, ())


def _unknown(extras: JsonMap, keep: set[str] | frozenset[str]) -> list[str]:
    if extras.keys() <= keep:  # a C-level subset test: nearly every message and result
        return []
    return [k for k in extras if k not in keep]
