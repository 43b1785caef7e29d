"""Anthropic Messages API request bodies <-> neutral History.

Mapping (see docs/wire.md for the full table):

- top-level `system` (string or text blocks) <-> the first message when its role is system;
- `user` message holding any `tool_result` block <-> one neutral `tool` message (results and
  the text blocks beside them, in order); any other `user` message <-> `user`;
- `assistant` <-> `assistant`; blocks `text`, `tool_use`, `thinking`, `redacted_thinking`;
- block fields with no neutral home (`cache_control`, `citations`, ...) <-> part `extras`;
  message fields other than role/content <-> message `extras`.

Render is faithful, so shapes the API rejects are emitted as a naive client would send
them: a system message that is not first becomes a `{"role": "system"}` entry of
`messages` (which parse reads back), a neutral tool message becomes its own user message
even when it follows another one, a string `ToolCall.arguments` is sent as the `input`.
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
from normalizer.wire._media import anthropic_media, anthropic_wire

PROTOCOL = "anthropic"
DEFAULT_MODEL = protocols.DEFAULT_MODEL[PROTOCOL]
DEFAULT_MAX_TOKENS = protocols.ANTHROPIC_MAX_TOKENS
VENDOR = "anthropic"
BLOCK_TYPES = ("text", "tool_use", "tool_result", "thinking", "redacted_thinking")
# Server-side tool activity: kept verbatim as Opaque(hosted=True) parts. Any other block type
# the model does not know (compaction, ...) is kept verbatim too, as Opaque(hosted=False).
HOSTED = protocols.ANTHROPIC_HOSTED
is_hosted = protocols.anthropic_hosted

_OWN_KEYS = {
    "text": ("type", "text"),
    "tool_use": ("type", "id", "name", "input"),
    "tool_result": ("type", "tool_use_id", "content", "is_error"),
    "thinking": ("type", "thinking", "signature"),
    "redacted_thinking": ("type", "data"),
}


# ---------------------------------------------------------------- parse

# Parse tests `type(x) is dict` before `isinstance(x, Mapping)`: a parsed body's objects are
# dicts, and the ABC test costs several times more (a profiled cost on long bodies).


def parse(body: Mapping[str, Any]) -> History:
    """A Messages API request body -> History. Reads `system` and `messages` only."""
    if not isinstance(body, Mapping):
        raise WireFormatError("body", f"expected a JSON object, got {type(body).__name__}")
    messages: list[Message] = []
    if "system" in body and body["system"] is not None:
        system = _parse_content(body["system"], "system")
        messages.append(Message("system", system, extras=_form(body["system"], system, {})))
    raw = body.get("messages")
    if not isinstance(raw, list | tuple):
        raise WireFormatError("messages", "expected a list of messages")
    messages.extend(_parse_message(m, f"messages[{i}]") for i, m in enumerate(raw))
    return History(tuple(messages))


def _parse_message(raw: Any, where: str) -> Message:
    if type(raw) is not dict and not isinstance(raw, Mapping):
        raise WireFormatError(where, f"expected an object, got {type(raw).__name__}")
    role = raw.get("role")
    if role not in ("user", "assistant", "system"):
        raise WireFormatError(f"{where}.role", f"expected 'user' or 'assistant', got {role!r}")
    if "content" not in raw:
        raise WireFormatError(where, "missing 'content'")
    parts = _parse_content(raw["content"], f"{where}.content")
    if role == "user" and any(isinstance(p, ToolResult) for p in parts):
        role = "tool"
    extras = {k: v for k, v in raw.items() if k not in ("role", "content")}
    return Message(role, parts, extras=_form(raw["content"], parts, extras))


def _form(content: Any, parts: tuple[Part, ...], extras: dict[str, Any]) -> dict[str, Any]:
    """Marks an array content that a lone plain text would not need, so render keeps it."""
    if not isinstance(content, str) and _lone_text(parts):
        return {**extras, "content_form": "array"}
    return extras


def _lone_text(parts: tuple[Part, ...]) -> bool:
    return len(parts) == 1 and isinstance(parts[0], Text) and not parts[0].extras


def _parse_content(content: Any, where: str) -> tuple[Part, ...]:
    if isinstance(content, str):
        return (Text(content),)
    if not isinstance(content, list | tuple):
        raise WireFormatError(where, "expected a string or a list of content blocks")
    return tuple(_parse_block(b, f"{where}[{i}]") for i, b in enumerate(content))


def _parse_block(block: Any, where: str) -> Part:
    if type(block) is not dict and not isinstance(block, Mapping):
        raise WireFormatError(where, f"expected a content block object, got {type(block).__name__}")
    kind = block.get("type")
    if kind not in BLOCK_TYPES:
        return _other_block(block, kind, where)
    extras = {k: v for k, v in block.items() if k not in _OWN_KEYS[kind]}
    if kind == "text":
        return Text(_string(block, "text", where), extras=extras)
    if kind == "tool_use":
        return _parse_tool_use(block, where, extras)
    if kind == "tool_result":
        return _parse_tool_result(block, where, extras)
    if kind == "thinking":
        signature = block.get("signature")
        if signature is not None and not isinstance(signature, str):
            raise WireFormatError(f"{where}.signature", "expected a string")
        return Thinking(_string(block, "thinking", where), signature=signature,
                        vendor=VENDOR, extras=extras)
    return Thinking("", signature=_string(block, "data", where), vendor=VENDOR, redacted=True,
                    extras=extras)


def _other_block(block: Mapping[str, Any], kind: Any, where: str) -> Part:
    """A block of a type the model has no class for: media, or kept verbatim (a block sent
    without a type too, its kind "")."""
    media = anthropic_media(block)
    if media is not None:
        return media
    if "type" not in block:
        return Opaque(PROTOCOL, "", block)
    if not isinstance(kind, str):
        raise WireFormatError(f"{where}.type", f"expected a block type, got {kind!r}")
    return Opaque(PROTOCOL, kind, block, hosted=is_hosted(kind))


def _parse_tool_use(block: Mapping[str, Any], where: str, extras: dict[str, Any]) -> ToolCall:
    arguments = block.get("input", {})
    # A string input is not valid Anthropic, but it is kept verbatim so nothing is lost.
    if not isinstance(arguments, Mapping | str):
        raise WireFormatError(f"{where}.input", "expected an object")
    call_id = block.get("id")
    if call_id is not None and not isinstance(call_id, str):
        raise WireFormatError(f"{where}.id", "expected a string")
    return ToolCall(_string(block, "name", where), arguments, id=call_id, extras=extras)


def _parse_tool_result(block: Mapping[str, Any], where: str, extras: dict[str, Any]) -> ToolResult:
    call_id = block.get("tool_use_id")
    if call_id is not None and not isinstance(call_id, str):
        raise WireFormatError(f"{where}.tool_use_id", "expected a string")
    raw = block.get("content", "")
    content: str | tuple[Text | Media | Opaque, ...]
    if isinstance(raw, str):
        content = raw
    else:
        parts = _parse_content(raw, f"{where}.content")
        if not all(isinstance(p, Text | Media | Opaque) for p in parts):
            raise WireFormatError(f"{where}.content", "expected text, image or document "
                                  "blocks")
        content = tuple(p for p in parts if isinstance(p, Text | Media | Opaque))
    is_error = block.get("is_error", False)
    if not isinstance(is_error, bool):
        raise WireFormatError(f"{where}.is_error", "expected true or false")
    if "is_error" in block and not is_error:
        extras = {**extras, "is_error": False}  # sent back as it came
    if "content" not in block:
        extras = {**extras, "content_form": "absent"}  # content is optional here
    return ToolResult(call_id, content, is_error=is_error, extras=extras)


def _string(block: Mapping[str, Any], key: str, where: str) -> str:
    value = block.get(key)
    if not isinstance(value, str):
        raise WireFormatError(f"{where}.{key}", "expected a string")
    return value


# ---------------------------------------------------------------- render


def render(
    history: History,
    *,
    tools: Sequence[ToolSpec] = (),
    model: str,
    options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """History -> a Messages API request body, faithfully (no repairs).

    `max_tokens` is options["max_tokens"] or DEFAULT_MAX_TOKENS; other options are copied
    verbatim as top-level fields (they win over rendered fields of the same name)."""
    opts = dict(options or {})
    body: dict[str, Any] = {"model": model,
                            "max_tokens": opts.pop("max_tokens", DEFAULT_MAX_TOKENS)}
    messages = list(history.messages)
    if messages and messages[0].role == "system":
        system = messages.pop(0)
        body["system"] = _render_content(system.parts, system.extras.get("content_form"))
    body["messages"] = [_render_message(m) for m in messages]
    if tools:
        body["tools"] = declare(tools, VENDOR)[0]
    body.update(opts)
    return body


def _render_message(message: Message) -> dict[str, Any]:
    role = "user" if message.role == "tool" else message.role
    if message.role == "tool":
        # Results always travel as blocks: that is what makes parse read them back as a tool turn.
        content: str | list[dict[str, Any]] = [_render_block(p) for p in message.parts]
    else:
        content = _render_content(message.parts, message.extras.get("content_form"))
    if message.extras is EMPTY or not message.extras:  # most: no merge with empty extras
        return {"role": role, "content": content}
    return {"role": role, "content": content,
            **written(message.extras, PROTOCOL, ("role", "content"))}


def _render_content(parts: tuple[Part, ...], form: Any = None) -> str | list[dict[str, Any]]:
    """A lone plain text part is sent as a string (the common SDK shape) unless the body it
    came from spelled it as an array (`content_form`); anything else as blocks."""
    if _lone_text(parts) and form != "array":
        return parts[0].text  # type: ignore[union-attr]
    return [_render_block(p) for p in parts]


def _render_block(part: Part) -> dict[str, Any]:
    if isinstance(part, Opaque):
        # Verbatim, whoever owns it: render is faithful; the crossing pass converts foreign ones.
        return thaw(part.data)
    if isinstance(part, Media):
        block = anthropic_wire(part)
        if block is None:
            raise WireFormatError("parts", f"a {part.kind} ({part.source}) has no form in "
                                  "Anthropic; the crossing pass converts it")
        return block
    block = _render_own_fields(part)
    if part.extras is EMPTY or not part.extras:
        return block
    return {**block, **written(part.extras, PROTOCOL, _OWN_KEYS[block["type"]])}


def _render_own_fields(part: Part) -> dict[str, Any]:
    if isinstance(part, Text):
        return {"type": "text", "text": part.text}
    if isinstance(part, ToolCall):
        block: dict[str, Any] = {"type": "tool_use"}
        if part.id is not None:
            block["id"] = part.id
        block["name"] = part.name
        block["input"] = part.arguments if isinstance(part.arguments, str) else thaw(part.arguments)
        return block
    if isinstance(part, ToolResult):
        return _render_tool_result(part)
    if part.redacted:
        return {"type": "redacted_thinking", "data": part.signature or ""}
    block = {"type": "thinking", "thinking": part.text}
    if part.signature is not None:
        block["signature"] = part.signature
    return block


def _render_tool_result(part: ToolResult) -> dict[str, Any]:
    """`ToolResult.name` has no place in Anthropic's tool_result and is not sent."""
    content: str | list[dict[str, Any]]
    if isinstance(part.content, str):
        content = part.content
    else:
        content = [_render_block(t) for t in part.content]
    block: dict[str, Any] = {"type": "tool_result"}
    if part.call_id is not None:
        block["tool_use_id"] = part.call_id
    if content or part.extras.get("content_form") != "absent":
        block["content"] = content
    if part.is_error:
        block["is_error"] = True
    elif part.extras.get("is_error") is False:
        block["is_error"] = False
    return block

