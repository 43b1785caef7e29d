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
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from normalizer import protocols
from normalizer.errors import WireFormatError
from normalizer.media import gemini_media, signed_gemini_media
from normalizer.model import (
    FUNCTION_RESPONSE_PART,
    History,
    Media,
    Message,
    Opaque,
    Part,
    Text,
    Thinking,
    ToolCall,
    ToolResult,
)
from normalizer.wire._gemini_render import DEFAULT_MODEL, PROTOCOL, SIGNATURE, VENDOR, render

# `render` lives in _gemini_render (this module parses); both are this protocol's face.
__all__ = ["DEFAULT_MODEL", "HOSTED", "PROTOCOL", "SIGNATURE", "VENDOR", "parse", "render"]

_SNAKE = {"system_instruction": "systemInstruction", "function_call": "functionCall",
          "function_response": "functionResponse", "thought_signature": "thoughtSignature"}
_PART_KINDS = ("text", "functionCall", "functionResponse")
# Server-side tool activity: kept verbatim as Opaque(hosted=True) parts; any other part kind
# the model does not know is kept verbatim as Opaque(hosted=False).
HOSTED = protocols.GEMINI_HOSTED


# ---------------------------------------------------------------- parse

# Parse tests `type(x) is dict` before `isinstance(x, Mapping)`: a parsed body's objects are
# dicts, and the ABC test costs several times more (a profiled cost on long bodies).


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
    if type(raw) is not dict and not isinstance(raw, Mapping):
        raise WireFormatError(where, f"expected a Content object, got {type(raw).__name__}")
    raw = _camel(raw)
    parts_raw = raw.get("parts", [])
    if not isinstance(parts_raw, list | tuple):
        raise WireFormatError(f"{where}.parts", "expected a list of parts")
    parts = tuple(_parse_part(p, f"{where}.parts[{i}]") for i, p in enumerate(parts_raw))
    extras = {k: v for k, v in raw.items() if k not in ("role", "parts")}
    return raw.get("role"), parts, extras


def _parse_part(raw: Any, where: str) -> Part:
    if type(raw) is not dict and not isinstance(raw, Mapping):
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
    media = signed_gemini_media(raw, _signature(raw, where))
    if media is not None:
        return media
    kind = protocols.gemini_part_kind(raw)
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
    if type(raw) is not dict and not isinstance(raw, Mapping):
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
    if type(raw) is not dict and not isinstance(raw, Mapping):
        raise WireFormatError(where, "expected an object")
    raw = _camel(raw)
    name, call_id = _name_and_id(raw, where)
    response = raw.get("response", {})
    if type(response) is not dict and not isinstance(response, Mapping):
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
