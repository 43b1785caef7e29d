"""OpenAI Chat Completions: History -> request body (`render`), faithfully (no repairs):
it writes what the history says, broken or not. The mapping is in `openai_chat` (which
holds `parse` and re-exports `render`) and docs/wire.md. Private to `normalizer.wire`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from normalizer import protocols
from normalizer.errors import WireFormatError
from normalizer.model import (
    EMPTY,
    History,
    Media,
    Message,
    Opaque,
    Text,
    Thinking,
    ToolCall,
    ToolResult,
    ToolSpec,
    thaw,
)
from normalizer.tools import declare
from normalizer.wire._extras import skipped
from normalizer.wire._openai_common import (
    call_arguments,
    content_to_wire,
    part_to_wire,
    split_tool_turn,
    with_extras,
)

DEFAULT_MODEL = protocols.DEFAULT_MODEL["openai_chat"]
PROTOCOL = "openai_chat"

# Why "\n\n": several Thinking parts (Anthropic sends one block per step) must share the one
# `reasoning_content` string; a blank line keeps the steps readable.
THINKING_JOIN = "\n\n"

# Extras keys never written as Chat Completions fields: other protocols' (protocols.py says
# which protocol owns which) and the neutral model's reserved markers.
FOREIGN_KEYS = tuple(sorted(skipped(PROTOCOL)))
# Gemini owns `function_call` on its ToolCall parts and Responses `annotations` on its output
# texts; on a Chat message both are the message's own fields (the deprecated call, url
# citations that apps send back, `[]` included, and OpenAI takes: Mirascope's recorded
# gpt-4o requests), written back from the message's extras.
_MESSAGE_SKIP = frozenset(FOREIGN_KEYS) - protocols.CHAT_MESSAGE_FIELDS
_FOREIGN = frozenset(FOREIGN_KEYS)
_PLAIN_SKIP = _FOREIGN | {"role"}
_CALL_SKIP = _FOREIGN | {"function"}


def render(
    history: History,
    *,
    tools: Sequence[ToolSpec] = (),
    model: str = DEFAULT_MODEL,
    options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """History -> a Chat Completions request body, faithfully (no repairs). `options` are
    copied into the body last, so they win over computed keys."""
    messages: list[dict[str, Any]] = []
    append, extend = messages.append, messages.extend
    for i, message in enumerate(history.messages):
        role = message.role
        if role == "assistant":
            append(_render_assistant(message, i))
        elif role == "tool":
            extend(_render_tool(message, i))
        else:
            append(_render_plain(message, i))
    body: dict[str, Any] = {"model": model, "messages": messages}
    if tools:
        body["tools"] = declare(tools, PROTOCOL)[0]
    body.update(thaw(options or {}))
    return body


# The renderers below are called once per message of long histories (a profiled cost):
# they build each dict once, in its final key order, and call `with_extras` only when
# there are extras. `i` is the message's index; its `history[i]` text is made for errors.


def _render_plain(message: Message, i: int) -> dict[str, Any]:
    """A system, developer or user message."""
    parts = message.parts
    if len(parts) == 1 and isinstance(parts[0], Opaque) and parts[0].slot == "message":
        return thaw(parts[0].data)
    texts = _only_content(message, i)
    role, extras = message.role, message.extras
    if role == "system" and extras.get("role") == "developer":
        role = "developer"
    fields = {"role": role, "content": _content(texts, extras)}
    return fields if extras is EMPTY or not extras else with_extras(
        fields, extras, _PLAIN_SKIP)


def _content(texts: Sequence[Text | Media | Opaque],
             extras: Mapping[str, Any] | None = None) -> str | list[dict[str, Any]]:
    form = None if extras is None or extras is EMPTY else extras.get("content_form")
    return content_to_wire(texts, "text", FOREIGN_KEYS, PROTOCOL, form)


def _only_content(message: Message, i: int) -> tuple[Text | Media | Opaque, ...]:
    for j, part in enumerate(message.parts):
        if not isinstance(part, Text | Media | Opaque):
            raise WireFormatError(f"history[{i}].parts[{j}]", f"a {type(part).__name__} has "
                                  f"no place in a {message.role} message in {PROTOCOL}")
    return message.parts  # type: ignore[return-value]


def _assistant_parts(message: Message, i: int) -> tuple[
        list[Thinking], list[Text | Media | Opaque], Sequence[ToolCall | Opaque]]:
    """The thinking, the content and the calls of an assistant message, in one walk."""
    parts = message.parts
    if len(parts) == 1 and type(first := parts[0]) is Text:  # a reply: the commonest
        return [], [first], []
    if len(message.tool_calls) == len(parts):  # calls only (Mistral's call turns)
        return [], [], message.tool_calls
    thinking: list[Thinking] = []
    texts: list[Text | Media | Opaque] = []
    calls: list[ToolCall | Opaque] = []
    for j, part in enumerate(parts):  # plain classes tested first
        if isinstance(part, ToolCall):
            calls.append(part)
        elif isinstance(part, (Text, Media)):
            texts.append(part)
        elif isinstance(part, Thinking):
            thinking.append(part)
        elif isinstance(part, Opaque) and part.slot != "message":
            if part.slot == "part":
                texts.append(part)
            elif part.slot == "call":
                calls.append(part)
        else:  # a ToolResult, or an Opaque whole message
            raise WireFormatError(f"history[{i}].parts[{j}]", f"a {type(part).__name__} has "
                                  f"no place in an assistant message in {PROTOCOL}")
    return thinking, texts, calls


def _render_assistant(message: Message, i: int) -> dict[str, Any]:
    thinking, texts, calls = _assistant_parts(message, i)
    extras = message.extras
    fields: dict[str, Any]
    if texts:
        fields = {"role": "assistant", "content": _content(texts, extras)}
    else:
        form = extras.get("content_form")
        fields = {"role": "assistant"} if form == "absent" else \
            {"role": "assistant", "content": [] if form == "array" else None}
    if thinking:
        # Signatures and vendors have no field here: only the text travels (lossy, documented).
        field = extras.get("reasoning_field", "reasoning_content")
        fields[field] = THINKING_JOIN.join(t.text for t in thinking)
    if calls:
        fields["tool_calls"] = [_render_call(c) for c in calls]
    return fields if extras is EMPTY or not extras else with_extras(
        fields, extras, _MESSAGE_SKIP)


def _render_call(call: ToolCall | Opaque) -> dict[str, Any]:
    if isinstance(call, Opaque):
        return thaw(call.data)
    arguments = call_arguments(call, "arguments")
    extras = call.extras
    if extras is EMPTY or not extras:
        fn = {"name": call.name, "arguments": arguments}
        return {"type": "function", "function": fn} if call.id is None else \
            {"id": call.id, "type": "function", "function": fn}
    fn = with_extras({"name": call.name, "arguments": arguments},
                     extras.get("function") or {}, _FOREIGN)
    fields: dict[str, Any] = {} if call.id is None else {"id": call.id}
    fields["type"] = "function"
    fields["function"] = fn
    return with_extras(fields, extras, _CALL_SKIP)


def _render_tool(message: Message, i: int) -> list[dict[str, Any]]:
    """One `tool` message per ToolResult; Text parts of the turn follow as one `user`
    message (Chat Completions has no text beside tool results)."""
    if len(message.tool_results) == len(message.parts):  # results only: nothing to sort
        return [_render_result(r) for r in message.tool_results]
    results, texts = split_tool_turn(message, f"history[{i}]", PROTOCOL)
    out = [thaw(r.data) if isinstance(r, Opaque) else _render_result(r) for r in results]
    if texts:
        out.append({"role": "user", "content": _content(texts)})
    return out


def _render_result(result: ToolResult) -> dict[str, Any]:
    content = result.content
    if not isinstance(content, str):
        content = [part_to_wire(t, "text", FOREIGN_KEYS, PROTOCOL) for t in content]
    fields: dict[str, Any] = {"role": "tool", "content": content} if result.call_id is None \
        else {"role": "tool", "tool_call_id": result.call_id, "content": content}
    extras = result.extras
    return fields if extras is EMPTY or not extras else with_extras(
        fields, extras, _FOREIGN)
