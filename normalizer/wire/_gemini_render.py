"""Gemini generateContent: History -> request body (`render`), faithfully (no repairs); the
mapping is in `gemini` (which holds `parse` and re-exports `render`) and docs/wire.md. The
model is not part of the body (it travels in the URL), so render ignores `model`. Private
to `normalizer.wire`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from normalizer import protocols
from normalizer.errors import WireFormatError
from normalizer.media import GEMINI_SIGNATURE
from normalizer.model import (
    EMPTY,
    History,
    JsonMap,
    Media,
    Message,
    Opaque,
    Part,
    Text,
    Thinking,
    ToolCall,
    ToolResult,
    ToolSpec,
    thaw,
)
from normalizer.tools import declare
from normalizer.wire._extras import written
from normalizer.wire._media import gemini_wire

PROTOCOL = "gemini"
DEFAULT_MODEL = protocols.DEFAULT_MODEL[PROTOCOL]
VENDOR = "gemini"
# A Content has a role and parts only. Gemini's own extras keys belong to its parts; on a
# message they came from another protocol's message field of the same name (Chat's
# deprecated `function_call: null`, as the openai SDK dumps a message) and Gemini refuses
# them there ("Invalid JSON payload received. Unknown name ... Cannot find field.").
_CONTENT_HANDLED = ("parts", *sorted(protocols.FACTS[PROTOCOL].own_extras))
SIGNATURE = GEMINI_SIGNATURE  # the extras key of a signature on a non-thought part


def render(
    history: History,
    *,
    tools: Sequence[ToolSpec] = (),
    model: str,
    options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """History -> a generateContent request body, faithfully (no repairs). `model` is not
    used: Gemini takes it in the URL. Options are copied verbatim as top-level fields
    (e.g. generationConfig, toolConfig) and win over rendered fields of the same name."""
    del model  # part of the signature every protocol module shares; the URL carries it
    messages = list(history.messages)
    body: dict[str, Any] = {}
    if messages and messages[0].role == "system":
        body["systemInstruction"] = _render_system(messages.pop(0))
    names = _call_names(messages)
    body["contents"] = [_render_message(m, names.get(i, {})) for i, m in enumerate(messages)]
    if tools:
        body["tools"] = declare(tools, VENDOR, subset=False)[0]
    body.update(options or {})
    return body


def _render_system(message: Message) -> dict[str, Any]:
    content: dict[str, Any] = {}
    # A Content role belongs here, not OpenAI's "developer" marker kept in the same extra.
    if isinstance(message.extras.get("role"), str) and message.extras["role"] != "developer":
        content["role"] = message.extras["role"]
    content["parts"] = [_render_part(p) for p in message.parts]
    return {**content, **written(message.extras, PROTOCOL, _CONTENT_HANDLED)}


def _call_names(messages: Sequence[Message]) -> dict[int, dict[int, str]]:
    """Per tool message (by index), the call name each of its results answers, where the
    history knows it: the call with the result's id, else the call at the same position
    in the assistant message just before. Gemini rejects a functionResponse without a
    name ("Name cannot be empty", quoted in openclaw/openclaw#47857)."""
    by_id = {c.id: c.name for m in messages for c in m.tool_calls if c.id is not None}
    out: dict[int, dict[int, str]] = {}
    for i, message in enumerate(messages):
        if message.role != "tool":
            continue
        before = messages[i - 1].tool_calls if i and messages[i - 1].role == "assistant" else ()
        names: dict[int, str] = {}
        for k, result in enumerate(message.tool_results):
            name = by_id.get(result.call_id) if result.call_id is not None else None
            if name is None and result.call_id is None and k < len(before):
                name = before[k].name
            if name is not None:
                names[k] = name
        out[i] = names
    return out


def _render_message(message: Message, names: Mapping[int, str]) -> dict[str, Any]:
    """A system message after the first renders with role "system", as a naive client
    would send it (Gemini accepts only user and model). A result without a name takes its
    call's name from `names` (by the result's position among the message's results)."""
    role = _ROLES.get(message.role, message.role)
    if message.tool_results:
        parts, k = [], 0
        for part in message.parts:
            if isinstance(part, ToolResult):
                parts.append(_render_part(part, names.get(k)))
                k += 1
            else:
                parts.append(_render_part(part))
    else:
        parts = [_render_part(part) for part in message.parts]
    if message.extras is EMPTY or not message.extras:
        return {"role": role, "parts": parts}
    return {"role": role, "parts": parts,
            **written(message.extras, PROTOCOL, _CONTENT_HANDLED)}


_ROLES = {"assistant": "model", "tool": "user"}


def _render_part(part: Part, name: str | None = None) -> dict[str, Any]:
    if isinstance(part, Opaque):
        # Verbatim, whoever owns it: render is faithful; the crossing pass converts foreign ones.
        return thaw(part.data)
    if isinstance(part, Thinking):
        return _render_thinking(part)
    if isinstance(part, Text):
        out = {"text": part.text}
    elif isinstance(part, ToolCall):
        out = {"functionCall": _render_call(part)}
    elif isinstance(part, Media):
        out = _media_wire(part)
    else:
        out = {"functionResponse": _render_response(part, name)}
    if part.extras is EMPTY or not part.extras:  # most parts: nothing more to write
        return out
    if SIGNATURE in part.extras:
        out["thoughtSignature"] = part.extras[SIGNATURE]
    own = (*out, SIGNATURE, "function_call", "function_response", "response")
    return {**out, **written(part.extras, PROTOCOL, own)}


def _render_thinking(part: Thinking) -> dict[str, Any]:
    out: dict[str, Any] = {"text": part.text, "thought": True}
    if part.signature is not None:
        out["thoughtSignature"] = part.signature
    if part.extras is EMPTY or not part.extras:
        return out
    return {**out, **written(part.extras, PROTOCOL, (*out, SIGNATURE))}


def _render_call(call: ToolCall) -> dict[str, Any]:
    out: dict[str, Any] = {"id": call.id} if call.id is not None else {}
    out["name"] = call.name
    out["args"] = call.arguments if isinstance(call.arguments, str) else call.arguments.thaw()
    if call.extras is EMPTY or not call.extras:
        return out
    return {**out, **written(call.extras.get("function_call", EMPTY), PROTOCOL, tuple(out))}


def _render_response(result: ToolResult, name: str | None = None) -> dict[str, Any]:
    """A structured `value` (or an older `extras["response"]`) wins over `content`;
    otherwise {"output": text} or, for an error, {"error": text}. Text parts of a tuple
    content are joined. `name` stands in for a result without one."""
    out: dict[str, Any] = {"id": result.call_id} if result.call_id is not None else {}
    if result.name is not None or name is not None:
        out["name"] = result.name if result.name is not None else name
    if isinstance(result.value, JsonMap):
        out["response"] = thaw(result.value)
    elif result.value is not None:
        out["response"] = {"output": thaw(result.value)}
    elif "response" in result.extras:
        out["response"] = thaw(result.extras["response"])
    else:
        out["response"] = {"error" if result.is_error else "output": result.text}
    media = [] if isinstance(result.content, str) else \
        [p for p in result.content if isinstance(p, Media)]
    if media:
        out["parts"] = [_media_wire(m) for m in media]
    if result.extras is EMPTY or not result.extras:
        return out
    fields = result.extras.get("function_response", EMPTY)
    return {**out, **written(fields, PROTOCOL, tuple(out))}


def _media_wire(media: Media) -> dict[str, Any]:
    wire = gemini_wire(media)
    if wire is None:
        raise WireFormatError("parts", f"a {media.kind} ({media.source}) has no form in "
                              "Gemini; the crossing pass converts it")
    return wire
