"""Gemini generateContent request bodies (REST JSON, camelCase, as google-genai sends them)
<-> neutral History.

Mapping (see docs/wire.md for the full table):

- `systemInstruction` <-> the first message when its role is system (its optional `role`,
  which the SDK sets to "user", kept in Message.extras["role"]);
- `user` turn holding any `functionResponse` part <-> one neutral `tool` message; any other
  `user` turn <-> `user`; `model` <-> `assistant`;
- parts: `text` <-> Text; `text` + `thought: true` <-> Thinking(vendor="gemini");
  `functionCall` <-> ToolCall (no id -> id None); `functionResponse` <-> ToolResult;
  a part's `thoughtSignature` <-> Thinking.signature, or extras["thought_signature"] on
  Text and ToolCall parts;
- `functionResponse.response`: {"output": str} <-> content; {"error": str} <-> is_error and
  content; any other object <-> ToolResult.value; `functionResponse.parts` (inlineData or
  fileData) <-> Media parts of the content, marked `function_response_part`.

The model is not part of the body (it travels in the URL), so render ignores `model`.
Parse also accepts the snake_case spellings the Python SDK accepts (`system_instruction`,
`function_call`, `function_response`, `thought_signature`) and treats null fields as absent
(the shape of `Content.model_dump()`).
"""

from __future__ import annotations

import base64
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from normalizer import protocols
from normalizer.errors import WireFormatError
from normalizer.model import (
    EMPTY,
    FUNCTION_RESPONSE_PART,
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
from normalizer.wire._media import gemini_media, gemini_wire

PROTOCOL = "gemini"
DEFAULT_MODEL = protocols.DEFAULT_MODEL[PROTOCOL]
VENDOR = "gemini"
SIGNATURE = "thought_signature"  # the extras key of a signature on a non-thought part

_SNAKE = {"system_instruction": "systemInstruction", "function_call": "functionCall",
          "function_response": "functionResponse", "thought_signature": "thoughtSignature"}
_PART_KINDS = ("text", "functionCall", "functionResponse")
# Server-side tool activity: kept verbatim as Opaque(hosted=True) parts; any other part kind
# the model does not know is kept verbatim as Opaque(hosted=False).
HOSTED = frozenset({"executableCode", "codeExecutionResult", "toolCall", "toolResponse",
                    "executable_code", "code_execution_result", "tool_call", "tool_response"})
_NOT_KINDS = ("thoughtSignature", "thought_signature", "thought", "partMetadata",
              "videoMetadata", "mediaResolution")


# ---------------------------------------------------------------- parse


def parse(body: Mapping[str, Any]) -> History:
    """A generateContent request body -> History. Reads the system instruction and
    `contents` only."""
    if not isinstance(body, Mapping):
        raise WireFormatError("body", f"expected a JSON object, got {type(body).__name__}")
    body = _camel(body)
    messages: list[Message] = []
    if body.get("systemInstruction") is not None:
        messages.append(_parse_system(body["systemInstruction"], "systemInstruction"))
    contents = body.get("contents")
    if not isinstance(contents, list | tuple):
        raise WireFormatError("contents", "expected a list of contents")
    messages.extend(_parse_content(c, f"contents[{i}]") for i, c in enumerate(contents))
    return History(tuple(messages))


def _camel(obj: Mapping[str, Any]) -> dict[str, Any]:
    """Snake_case keys -> camelCase, nulls dropped (pasted Python SDK dumps carry both)."""
    return {_SNAKE.get(k, k): v for k, v in obj.items() if v is not None}


def _parse_system(raw: Any, where: str) -> Message:
    # The Python SDK accepts a bare string here; the REST body always holds a Content.
    if isinstance(raw, str):
        return Message("system", (Text(raw),))
    role, parts, extras = _parse_turn(raw, where)
    if role is not None and not isinstance(role, str):
        raise WireFormatError(f"{where}.role", f"expected a string, got {role!r}")
    return Message("system", parts, extras={"role": role, **extras} if role else extras)


def _parse_content(raw: Any, where: str) -> Message:
    role, parts, extras = _parse_turn(raw, where)
    # Gemini treats a Content without role as the user's.
    roles = {None: "user", "user": "user", "model": "assistant", "system": "system"}
    neutral = roles.get(role) if role is None or isinstance(role, str) else None
    if neutral is None:
        raise WireFormatError(f"{where}.role", f"expected 'user' or 'model', got {role!r}")
    if neutral == "user" and any(isinstance(p, ToolResult) for p in parts):
        neutral = "tool"
    return Message(neutral, parts, extras=extras)


def _parse_turn(raw: Any, where: str) -> tuple[Any, tuple[Part, ...], dict[str, Any]]:
    """A Content object -> its raw role, its parts, and its other fields."""
    if not isinstance(raw, Mapping):
        raise WireFormatError(where, f"expected a Content object, got {type(raw).__name__}")
    raw = _camel(raw)
    parts_raw = raw.get("parts", [])
    if not isinstance(parts_raw, list | tuple):
        raise WireFormatError(f"{where}.parts", "expected a list of parts")
    parts = tuple(_parse_part(p, f"{where}.parts[{i}]") for i, p in enumerate(parts_raw))
    extras = {k: v for k, v in raw.items() if k not in ("role", "parts")}
    return raw.get("role"), parts, extras


def _parse_part(raw: Any, where: str) -> Part:
    if not isinstance(raw, Mapping):
        raise WireFormatError(where, f"expected a Part object, got {type(raw).__name__}")
    original, raw = raw, _camel(raw)
    kinds = [k for k in _PART_KINDS if k in raw]
    if len(kinds) != 1:
        return _other_part(original, raw, where)
    signature = _signature(raw, where)
    rest = {k: v for k, v in raw.items() if k not in (kinds[0], "thoughtSignature")}
    if kinds[0] == "text":
        return _parse_text(raw["text"], signature, rest, where)
    signed = {SIGNATURE: signature, **rest} if signature is not None else rest
    if kinds[0] == "functionCall":
        return _parse_call(raw["functionCall"], signed, f"{where}.functionCall")
    return _parse_response(raw["functionResponse"], signed, f"{where}.functionResponse")


def _other_part(original: Mapping[str, Any], raw: dict[str, Any], where: str) -> Part:
    """inlineData/fileData -> Media; anything else -> Opaque, verbatim as sent."""
    signature = _signature(raw, where)
    media = gemini_media({k: v for k, v in raw.items() if k != "thoughtSignature"})
    if media is not None:
        if signature is None:
            return media
        return Media(media.kind, media.media_type, media.data, media.url,
                     extras={SIGNATURE: signature, **media.extras})
    kind = next((k for k in raw if k not in _NOT_KINDS), "empty")
    return Opaque(PROTOCOL, kind, original, hosted=kind in HOSTED)


def _signature(raw: Mapping[str, Any], where: str) -> str | None:
    signature = raw.get("thoughtSignature")
    if isinstance(signature, bytes):
        # `Part.model_dump()` in Python mode holds raw bytes; on the wire google-genai
        # sends them as URL-safe base64, so that is the spelling kept.
        signature = base64.urlsafe_b64encode(signature).decode("ascii")
    if signature is not None and not isinstance(signature, str):
        raise WireFormatError(f"{where}.thoughtSignature", "expected a base64 string")
    return signature


def _parse_text(text: Any, signature: str | None, rest: dict[str, Any], where: str) -> Part:
    if not isinstance(text, str):
        raise WireFormatError(f"{where}.text", "expected a string")
    if rest.get("thought") is True:
        extras = {k: v for k, v in rest.items() if k != "thought"}
        return Thinking(text, signature=signature, vendor=VENDOR, extras=extras)
    return Text(text, extras={SIGNATURE: signature, **rest} if signature is not None else rest)


def _parse_call(raw: Any, extras: dict[str, Any], where: str) -> ToolCall:
    if not isinstance(raw, Mapping):
        raise WireFormatError(where, "expected an object")
    raw = _camel(raw)
    name, call_id = _name_and_id(raw, where)
    if name is None:
        raise WireFormatError(f"{where}.name", "missing: a function call needs a name")
    args = raw.get("args", {})
    # A string is not valid Gemini, but it is kept verbatim so nothing is lost.
    if not isinstance(args, Mapping | str):
        raise WireFormatError(f"{where}.args", "expected an object")
    fields = {k: v for k, v in raw.items() if k not in ("id", "name", "args")}
    if fields:
        extras = {**extras, "function_call": fields}
    return ToolCall(name, args, id=call_id, extras=extras)


def _parse_response(raw: Any, extras: dict[str, Any], where: str) -> ToolResult:
    if not isinstance(raw, Mapping):
        raise WireFormatError(where, "expected an object")
    raw = _camel(raw)
    name, call_id = _name_and_id(raw, where)
    response = raw.get("response", {})
    if not isinstance(response, Mapping):
        raise WireFormatError(f"{where}.response", "expected an object")
    fields = {k: v for k, v in raw.items() if k not in ("id", "name", "response")}
    media = _response_media(fields.get("parts"))
    if media:
        del fields["parts"]
    if fields:
        extras = {**extras, "function_response": fields}
    only = next(iter(response)) if len(response) == 1 else None
    if only in ("output", "error") and isinstance(response[only], str):
        text = response[only]
        return ToolResult(call_id, (Text(text), *media) if media else text,
                          is_error=only == "error", name=name, extras=extras)
    return ToolResult(call_id, media or "", name=name, extras=extras, value=response)


def _response_media(parts: Any) -> tuple[Media, ...]:
    """`functionResponse.parts` (Gemini 3 multimodal function responses: inlineData or
    fileData entries, https://ai.google.dev/gemini-api/docs/function-calling) -> Media
    marked `function_response_part`; () when absent or when any entry is not plain media
    (then the list stays in extras, verbatim)."""
    if not isinstance(parts, list | tuple) or not parts:
        return ()
    found = [m for m in (gemini_media(p) for p in parts if isinstance(p, Mapping))
             if m is not None]
    if len(found) != len(parts):
        return ()
    return tuple(replace(m, extras=m.extras.merged(**{FUNCTION_RESPONSE_PART: True}))
                 for m in found)


def _name_and_id(raw: Mapping[str, Any], where: str) -> tuple[str | None, str | None]:
    name, call_id = raw.get("name"), raw.get("id")
    if name is not None and not isinstance(name, str):
        raise WireFormatError(f"{where}.name", "expected a string")
    if call_id is not None and not isinstance(call_id, str):
        raise WireFormatError(f"{where}.id", "expected a string")
    return name, call_id


# ---------------------------------------------------------------- render


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
    return {**content, **written(message.extras, PROTOCOL, ("role", "parts"))}


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
    if not message.extras:
        return {"role": role, "parts": parts}
    return {"role": role, "parts": parts,
            **written(message.extras, PROTOCOL, ("role", "parts"))}


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
    if not part.extras:  # most parts: nothing more to write (a profiled path)
        return out
    if SIGNATURE in part.extras:
        out["thoughtSignature"] = part.extras[SIGNATURE]
    own = (*out, SIGNATURE, "function_call", "function_response", "response")
    return {**out, **written(part.extras, PROTOCOL, own)}


def _render_thinking(part: Thinking) -> dict[str, Any]:
    out: dict[str, Any] = {"text": part.text, "thought": True}
    if part.signature is not None:
        out["thoughtSignature"] = part.signature
    if not part.extras:
        return out
    return {**out, **written(part.extras, PROTOCOL, (*out, SIGNATURE))}


def _render_call(call: ToolCall) -> dict[str, Any]:
    out: dict[str, Any] = {"id": call.id} if call.id is not None else {}
    out["name"] = call.name
    out["args"] = call.arguments if isinstance(call.arguments, str) else call.arguments.thaw()
    if not call.extras:
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
    if not result.extras:
        return out
    fields = result.extras.get("function_response", EMPTY)
    return {**out, **written(fields, PROTOCOL, tuple(out))}


def _media_wire(media: Media) -> dict[str, Any]:
    wire = gemini_wire(media)
    if wire is None:
        raise WireFormatError("parts", f"a {media.kind} ({media.source}) has no form in "
                              "Gemini; the crossing pass converts it")
    return wire
