"""OpenAI Chat Completions request bodies <-> neutral History; docs/wire.md has the
full mapping and what is lossy. In short: system/developer/user messages -> one Message each
(`developer` as extras {"role": "developer"}); assistant -> Thinking (`reasoning_content`),
Text (`content`), ToolCall (`tool_calls`), in that order; consecutive `tool` messages -> ONE
tool Message; fields with no neutral home -> extras, written back verbatim. Render is
faithful: it writes what the history says, broken or not. The helpers shared with
openai_responses (text parts, arguments, tool turns) are in `_openai_common`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from normalizer.errors import WireFormatError
from normalizer.model import (
    History,
    Message,
    Opaque,
    Part,
    Thinking,
    ToolCall,
    ToolResult,
)
from normalizer.protocols import CHAT_CALL_FIELDS, CHAT_FUNCTION_FIELDS
from normalizer.wire._chat_render import (
    DEFAULT_MODEL,
    FOREIGN_KEYS,
    PROTOCOL,
    THINKING_JOIN,
    render,
)
from normalizer.wire._openai_common import (
    arguments_from_wire,
    content_form,
    kind,
    require_mapping,
    result_content,
    string_field,
    text_parts,
)

# `render` lives in _chat_render (this module parses); both are this protocol's face.
__all__ = ["DEFAULT_MODEL", "FOREIGN_KEYS", "PROTOCOL", "THINKING_JOIN", "parse", "render"]

_ROLES = ("system", "developer", "user", "assistant", "tool")


# --- parse ---


def parse(body: Mapping[str, Any]) -> History:
    """A Chat Completions request body -> History (messages only; tools are read with
    normalizer.tools.parse_declarations)."""
    body = require_mapping(body, "body")
    messages = body.get("messages")
    if not isinstance(messages, list):
        raise WireFormatError("messages", f"expected an array of messages, got {kind(messages)}")
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
        if not isinstance(role, str):
            raise WireFormatError(f"{where}.role", f"expected one of {', '.join(_ROLES)}; "
                                                   f"got {role!r}")
        # A role the model does not know (the deprecated `function` role): kept verbatim.
        return Message("user", (Opaque(PROTOCOL, role, msg, slot="message"),))
    if role == "tool":
        return _parse_tool(msg, where)
    if role == "assistant":
        return _parse_assistant(msg, where)
    if "content" not in msg:
        raise WireFormatError(f"{where}.content", f"required in a {role} message")
    parts = text_parts(msg["content"], f"{where}.content", "text", PROTOCOL)
    extras = {k: v for k, v in msg.items() if k not in ("role", "content")}
    extras.update(content_form(msg["content"], parts))
    if role == "developer":
        extras = {"role": "developer", **extras}
    return Message("user" if role == "user" else "system", parts, extras=extras)


def _parse_tool(msg: Mapping[str, Any], where: str) -> ToolResult:
    if "content" not in msg:
        raise WireFormatError(f"{where}.content", "required in a tool message")
    content = result_content(msg["content"], f"{where}.content", "text", PROTOCOL)
    call_id = string_field(msg, "tool_call_id", where, optional=True)
    extras = {k: v for k, v in msg.items() if k not in ("role", "content", "tool_call_id")}
    return ToolResult(call_id, content, extras=extras)


def _parse_assistant(msg: Mapping[str, Any], where: str) -> Message:
    parts: list[Part] = []
    consumed = {"role", "content"}
    field = _reasoning_field(msg)
    if field:
        parts.append(Thinking(msg[field]))
        consumed.add(field)
    content = msg.get("content")
    form: dict[str, Any] = {} if "content" in msg else {"content_form": "absent"}
    if content is not None:
        texts = text_parts(content, f"{where}.content", "text", PROTOCOL)
        parts.extend(texts)
        form = content_form(content, texts) if texts else {"content_form": "array"}
    calls = msg.get("tool_calls")
    if isinstance(calls, list) and calls:
        parts.extend(_parse_call(c, f"{where}.tool_calls[{j}]") for j, c in enumerate(calls))
        consumed.add("tool_calls")
    elif calls is not None and not isinstance(calls, list):
        raise WireFormatError(f"{where}.tool_calls", f"expected an array, got {kind(calls)}")
    if field == "reasoning":  # written back under the name it came with
        form["reasoning_field"] = field
    # Kept verbatim so that `tool_calls: []` or `reasoning_content: null`, which some vendors
    # reject, still reach the request.
    extras = {k: v for k, v in msg.items() if k not in consumed}
    return Message("assistant", tuple(parts), extras={**extras, **form})


def _reasoning_field(msg: Mapping[str, Any]) -> str | None:
    """DeepSeek's `reasoning_content`, or the `reasoning` string of Groq, OpenRouter,
    Cerebras and GLM (the same text under another name): the field holding the thinking."""
    return next((k for k in ("reasoning_content", "reasoning")
                 if isinstance(msg.get(k), str)), None)


def _parse_call(raw: Any, where: str) -> ToolCall | Opaque:
    call = require_mapping(raw, where)
    kind = call.get("type", "function")
    if kind != "function":
        if not isinstance(kind, str):
            raise WireFormatError(f"{where}.type", f"expected a call type, got {kind!r}")
        # A custom tool call (free-form input) or a type the model does not know: verbatim.
        return Opaque(PROTOCOL, kind, call, slot="call")
    fn = require_mapping(call.get("function"), f"{where}.function")
    name = string_field(fn, "name", f"{where}.function")
    raw = fn.get("arguments")
    arguments = arguments_from_wire(raw, f"{where}.function.arguments")
    call_id = string_field(call, "id", where, optional=True)
    extras = {k: v for k, v in call.items() if k not in CHAT_CALL_FIELDS}
    fn_extras = {k: v for k, v in fn.items() if k not in CHAT_FUNCTION_FIELDS}
    if fn_extras:
        extras["function"] = fn_extras
    return ToolCall(name, arguments, call_id, extras,
                    wire_arguments=raw if isinstance(raw, str) else None)
