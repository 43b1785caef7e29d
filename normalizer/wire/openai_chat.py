"""OpenAI Chat Completions request bodies <-> neutral History; docs/wire-openai.md has the
full mapping and what is lossy. In short: system/developer/user messages -> one Message each
(`developer` as extras {"role": "developer"}); assistant -> Thinking (`reasoning_content`),
Text (`content`), ToolCall (`tool_calls`), in that order; consecutive `tool` messages -> ONE
tool Message; fields with no neutral home -> extras, written back verbatim. Render is
faithful: it writes what the history says, broken or not. The helpers at the top are shared
with openai_responses, which encodes text and arguments the same way.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from normalizer import protocols
from normalizer.errors import ArgumentsJSONError, WireFormatError
from normalizer.model import (
    STREAM_MARKERS,
    History,
    JsonMap,
    Message,
    Part,
    Text,
    Thinking,
    ToolCall,
    ToolResult,
    ToolSpec,
    thaw,
)
from normalizer.tools import declare, parse_arguments

DEFAULT_MODEL = protocols.DEFAULT_MODEL["openai_chat"]
PROTOCOL = "openai_chat"

# Why "\n\n": several Thinking parts (Anthropic sends one block per step) must share the one
# `reasoning_content` string; a blank line keeps the steps readable.
THINKING_JOIN = "\n\n"

_ROLES = ("system", "developer", "user", "assistant", "tool")
# Extras keys other protocol modules define (Gemini signatures, Anthropic citations, the
# Responses instructions flag and item fields): never written as Chat Completions fields.
FOREIGN_KEYS = ("thought_signature", "citations", "instructions", "item", "id", "status",
                "annotations", "phase", "response", "function_call", "function_response",
                *sorted(STREAM_MARKERS))


# --- helpers shared with openai_responses ---


def require_mapping(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise WireFormatError(where, f"expected a JSON object, got {_kind(value)}")
    return value


def string_field(obj: Mapping[str, Any], key: str, where: str, *,
                 optional: bool = False) -> Any:
    """obj[key] as a string; None when absent and `optional`."""
    value = obj.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise WireFormatError(f"{where}.{key}", f"expected a string, got {_kind(value)}")
    return value


def result_content(raw: Any, where: str, default_type: str,
                   text_types: Iterable[str]) -> str | tuple[Text, ...]:
    """A tool result's content: a string stays a string, an array becomes Text parts."""
    return raw if isinstance(raw, str) else text_parts(raw, where, default_type, text_types)


def _kind(value: Any) -> str:
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean",
            type(None): "null", int: "a number", float: "a number"}.get(type(value), "a value")


def text_part(part: Any, where: str, default_type: str, text_types: Iterable[str]) -> Text:
    """One content part -> Text. The part's `type` is kept in extras only when it is not the
    default for its place, so a wrong type (input_text in an assistant item) survives."""
    part = require_mapping(part, where)
    kind = part.get("type")
    allowed = (*text_types, "refusal")
    if kind not in allowed:
        raise WireFormatError(f"{where}.type", f"unsupported content part type {kind!r}; this "
                              f"library models text only (expected one of {', '.join(allowed)})")
    key = "refusal" if kind == "refusal" else "text"
    text = string_field(part, key, where)
    extras = {k: v for k, v in part.items() if k not in ("type", key)}
    if kind != default_type:
        extras = {"type": kind, **extras}
    return Text(text, extras)


def text_parts(content: Any, where: str, default_type: str,
               text_types: Iterable[str]) -> tuple[Text, ...]:
    """Message content (a string or an array of parts) -> Text parts."""
    if isinstance(content, str):
        return (Text(content),)
    if isinstance(content, list):
        types = tuple(text_types)
        return tuple(text_part(p, f"{where}[{i}]", default_type, types)
                     for i, p in enumerate(content))
    raise WireFormatError(where, f"expected a string or an array of content parts, "
                                 f"got {_kind(content)}")


def part_to_wire(text: Text, default_type: str, skip: Iterable[str]) -> dict[str, Any]:
    kind = text.extras.get("type", default_type)
    fields = {"type": kind, "refusal" if kind == "refusal" else "text": text.text}
    return with_extras(fields, text.extras, skip)


def content_to_wire(texts: Sequence[Text], default_type: str,
                    skip: Iterable[str]) -> str | list[dict[str, Any]]:
    """One plain Text -> a string; anything else (none, several, or with extras) -> parts.
    Extras this protocol does not write (`skip`) do not make a Text less plain."""
    skip = tuple(skip)
    if len(texts) == 1 and all(key in skip for key in texts[0].extras):
        return texts[0].text
    return [part_to_wire(t, default_type, skip) for t in texts]


def arguments_from_wire(raw: Any, where: str) -> JsonMap | str:
    """A JSON-object string -> JsonMap; any other string (including "") is kept verbatim."""
    if raw is None:
        return JsonMap()
    if isinstance(raw, Mapping):
        return JsonMap(raw)
    if not isinstance(raw, str):
        raise WireFormatError(where, f"expected a JSON string, got {_kind(raw)}")
    if raw == "":
        return raw
    try:
        return parse_arguments(raw, where)
    except ArgumentsJSONError:
        return raw


def arguments_to_wire(arguments: JsonMap | str) -> str:
    """Canonical form: compact JSON, key order kept, non-ASCII unescaped; strings verbatim."""
    if isinstance(arguments, str):
        return arguments
    return json.dumps(thaw(arguments), ensure_ascii=False, separators=(",", ":"))


def with_extras(fields: dict[str, Any], extras: Mapping[str, Any],
                skip: Iterable[str] = ()) -> dict[str, Any]:
    """Modelled fields first; extras add only keys the fields do not already hold."""
    ignored = set(skip)
    for key, value in extras.items():
        if key not in fields and key not in ignored:
            fields[key] = thaw(value)
    return fields


# --- parse ---


def parse(body: Mapping[str, Any]) -> History:
    """A Chat Completions request body -> History (messages only; tools are read with
    normalizer.tools.parse_declarations)."""
    body = require_mapping(body, "body")
    messages = body.get("messages")
    if not isinstance(messages, list):
        raise WireFormatError("messages", f"expected an array of messages, got {_kind(messages)}")
    out: list[Message] = []
    results: list[ToolResult] = []
    for i, raw in enumerate(messages):
        parsed = _parse_message(raw, f"messages[{i}]")
        if isinstance(parsed, ToolResult):
            results.append(parsed)
            continue
        if results:
            out.append(Message("tool", tuple(results)))
            results = []
        out.append(parsed)
    if results:
        out.append(Message("tool", tuple(results)))
    return History(tuple(out))


def _parse_message(raw: Any, where: str) -> Message | ToolResult:
    msg = require_mapping(raw, where)
    role = msg.get("role")
    if role not in _ROLES:
        raise WireFormatError(f"{where}.role", f"expected one of {', '.join(_ROLES)}; "
                                               f"got {role!r}")
    if role == "tool":
        return _parse_tool(msg, where)
    if role == "assistant":
        return _parse_assistant(msg, where)
    if "content" not in msg:
        raise WireFormatError(f"{where}.content", f"required in a {role} message")
    parts = text_parts(msg["content"], f"{where}.content", "text", ("text",))
    extras = {k: v for k, v in msg.items() if k not in ("role", "content")}
    if role == "developer":
        extras = {"role": "developer", **extras}
    return Message("user" if role == "user" else "system", parts, extras=extras)


def _parse_tool(msg: Mapping[str, Any], where: str) -> ToolResult:
    if "content" not in msg:
        raise WireFormatError(f"{where}.content", "required in a tool message")
    content = result_content(msg["content"], f"{where}.content", "text", ("text",))
    call_id = string_field(msg, "tool_call_id", where, optional=True)
    extras = {k: v for k, v in msg.items() if k not in ("role", "content", "tool_call_id")}
    return ToolResult(call_id, content, extras=extras)


def _parse_assistant(msg: Mapping[str, Any], where: str) -> Message:
    parts: list[Part] = []
    consumed = {"role", "content"}
    reasoning = msg.get("reasoning_content")
    if isinstance(reasoning, str):
        parts.append(Thinking(reasoning))
        consumed.add("reasoning_content")
    content = msg.get("content")
    if content is not None:
        parts.extend(text_parts(content, f"{where}.content", "text", ("text",)))
    calls = msg.get("tool_calls")
    if isinstance(calls, list) and calls:
        parts.extend(_parse_call(c, f"{where}.tool_calls[{j}]") for j, c in enumerate(calls))
        consumed.add("tool_calls")
    elif calls is not None and not isinstance(calls, list):
        raise WireFormatError(f"{where}.tool_calls", f"expected an array, got {_kind(calls)}")
    # Kept verbatim so that `tool_calls: []` or `reasoning_content: null`, which some vendors
    # reject, still reach the request.
    extras = {k: v for k, v in msg.items() if k not in consumed}
    return Message("assistant", tuple(parts), extras=extras)


def _parse_call(raw: Any, where: str) -> ToolCall:
    call = require_mapping(raw, where)
    kind = call.get("type", "function")
    if kind != "function":
        raise WireFormatError(f"{where}.type", f"unsupported tool call type {kind!r}; "
                                               "expected 'function'")
    fn = require_mapping(call.get("function"), f"{where}.function")
    name = string_field(fn, "name", f"{where}.function")
    arguments = arguments_from_wire(fn.get("arguments"), f"{where}.function.arguments")
    call_id = string_field(call, "id", where, optional=True)
    extras = {k: v for k, v in call.items() if k not in ("id", "type", "function")}
    fn_extras = {k: v for k, v in fn.items() if k not in ("name", "arguments")}
    if fn_extras:
        extras["function"] = fn_extras
    return ToolCall(name, arguments, call_id, extras)


# --- render ---


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
    for i, message in enumerate(history.messages):
        messages.extend(_render_message(message, f"history[{i}]"))
    body: dict[str, Any] = {"model": model, "messages": messages}
    if tools:
        body["tools"] = declare(tools, PROTOCOL)[0]
    body.update(thaw(options or {}))
    return body


def _render_message(message: Message, where: str) -> list[dict[str, Any]]:
    if message.role == "assistant":
        return [_render_assistant(message, where)]
    if message.role == "tool":
        return _render_tool(message, where)
    texts = _only_texts(message, where)
    role = message.role
    if role == "system" and message.extras.get("role") == "developer":
        role = "developer"
    fields = {"role": role, "content": _content(texts)}
    return [with_extras(fields, message.extras, (*FOREIGN_KEYS, "role"))]


def _content(texts: Sequence[Text]) -> str | list[dict[str, Any]]:
    return content_to_wire(texts, "text", FOREIGN_KEYS)


def _only_texts(message: Message, where: str) -> tuple[Text, ...]:
    for j, part in enumerate(message.parts):
        if not isinstance(part, Text):
            raise WireFormatError(f"{where}.parts[{j}]", f"a {type(part).__name__} has no "
                                  f"place in a {message.role} message in {PROTOCOL}")
    return message.parts  # type: ignore[return-value]


def _render_assistant(message: Message, where: str) -> dict[str, Any]:
    thinking = [p for p in message.parts if isinstance(p, Thinking)]
    texts = [p for p in message.parts if isinstance(p, Text)]
    calls = [p for p in message.parts if isinstance(p, ToolCall)]
    for j, part in enumerate(message.parts):
        if isinstance(part, ToolResult):
            raise WireFormatError(f"{where}.parts[{j}]", "a ToolResult has no place in an "
                                  f"assistant message in {PROTOCOL}")
    fields: dict[str, Any] = {"role": "assistant",
                              "content": _content(texts) if texts else None}
    if thinking:
        # Signatures and vendors have no field here: only the text travels (lossy, documented).
        fields["reasoning_content"] = THINKING_JOIN.join(t.text for t in thinking)
    if calls:
        fields["tool_calls"] = [_render_call(c) for c in calls]
    return with_extras(fields, message.extras, FOREIGN_KEYS)


def _render_call(call: ToolCall) -> dict[str, Any]:
    fn = with_extras({"name": call.name, "arguments": arguments_to_wire(call.arguments)},
                     call.extras.get("function") or {}, FOREIGN_KEYS)
    fields: dict[str, Any] = {} if call.id is None else {"id": call.id}
    fields.update({"type": "function", "function": fn})
    return with_extras(fields, call.extras, (*FOREIGN_KEYS, "function"))


def split_tool_turn(message: Message, where: str,
                    protocol: str) -> tuple[list[ToolResult], list[Text]]:
    """A tool message's results and its Text parts (which both OpenAI protocols render as a
    user message after the results); any other part has no place there."""
    results: list[ToolResult] = []
    texts: list[Text] = []
    for j, part in enumerate(message.parts):
        if isinstance(part, Text):
            texts.append(part)
        elif isinstance(part, ToolResult):
            results.append(part)
        else:
            raise WireFormatError(f"{where}.parts[{j}]", f"a {type(part).__name__} has no "
                                  f"place in a tool message in {protocol}")
    return results, texts


def _render_tool(message: Message, where: str) -> list[dict[str, Any]]:
    """One `tool` message per ToolResult; Text parts of the turn follow as one `user`
    message (Chat Completions has no text beside tool results)."""
    results, texts = split_tool_turn(message, where, PROTOCOL)
    out = [_render_result(r) for r in results]
    if texts:
        out.append({"role": "user", "content": _content(texts)})
    return out


def _render_result(result: ToolResult) -> dict[str, Any]:
    fields: dict[str, Any] = {"role": "tool"}
    if result.call_id is not None:
        fields["tool_call_id"] = result.call_id
    content = result.content
    fields["content"] = (content if isinstance(content, str)
                         else [part_to_wire(t, "text", FOREIGN_KEYS) for t in content])
    return with_extras(fields, result.extras, FOREIGN_KEYS)
