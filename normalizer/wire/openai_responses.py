"""OpenAI Responses API request bodies (`instructions` + `input` items) <-> neutral History;
docs/wire.md has the full mapping and what is lossy. In short: `instructions` -> a
leading system Message with extras {"instructions": true}; role items -> one Message each; a
run of assistant-side items (reasoning, assistant message, function_call) -> ONE assistant
Message with one part per item in order (Thinking, Text per output_text part, ToolCall); a
run of function_call_output items -> ONE tool Message. An assistant message item's own fields
(`type`, `id`, `status`, `phase`) ride on its first Text as extras {"item": {...}}.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from normalizer import protocols
from normalizer.errors import WireFormatError
from normalizer.model import (
    INPUT_FORM,
    NAMED_OUTPUT,
    History,
    Message,
    Opaque,
    Part,
    Text,
    Thinking,
    ToolCall,
    ToolResult,
)
from normalizer.protocols import SUMMARY_JOIN
from normalizer.wire._openai_common import (
    arguments_from_wire,
    content_form,
    require_mapping,
    result_content,
    string_field,
    text_parts,
)
from normalizer.wire._responses_render import (
    DEFAULT_MODEL,
    FOREIGN_KEYS,
    PROTOCOL,
    VENDOR,
    reasoning_content,
    render,
)

# `render` lives in _responses_render (this module parses); both are this protocol's face.
__all__ = ["DEFAULT_MODEL", "FOREIGN_KEYS", "HOSTED", "PROTOCOL", "VENDOR", "parse", "render"]

# Hosted tool activity and the other items the model keeps verbatim as Opaque parts
# (hosted=True for these); an item type outside this list is kept verbatim too.
HOSTED = protocols.RESPONSES_HOSTED
# Items the client sends (answers to a call or a request): they join the tool run.
_CLIENT_ITEMS = ("_output", "mcp_approval_response")


# --- parse ---


def parse(body: Mapping[str, Any]) -> History:
    """A Responses request body -> History (instructions and input; tools are read with
    normalizer.tools.parse_declarations)."""
    body = require_mapping(body, "body")
    out: list[Message] = []
    instructions = body.get("instructions")
    if isinstance(instructions, str):
        out.append(Message("system", (Text(instructions),), extras={"instructions": True}))
    elif instructions is not None:
        raise WireFormatError("instructions", "expected a string")
    items = body.get("input")
    if isinstance(items, str):  # the whole input one user text: marked, to go back so
        text = Message("user", (Text(items),), extras={INPUT_FORM: "string"})
        return History((*out, text))
    if items is None:  # `input` is optional (a stored `prompt` may stand for it): marked
        return History(tuple(out), extras={INPUT_FORM: "absent"})
    if not isinstance(items, list):
        raise WireFormatError("input", "expected a string or an array of items")
    out.extend(_group(items))
    return History(tuple(out))


def _group(items: list[Any]) -> list[Message]:
    """Items -> messages, joining runs of assistant-side items and runs of outputs."""
    out: list[Message] = []
    run_role: str | None = None
    run: list[Part] = []
    after_message = False  # the run's last item was an assistant message item
    for k, raw in enumerate(items):
        where = f"input[{k}]"
        item = require_mapping(raw, where)
        role, parts = _parse_item(item, where, after_message and run_role == "assistant")
        after_message = _is_assistant_message(item)
        # A whole Message (a role item, an empty assistant message) ends the run too: an
        # empty assistant message joined into a run would vanish, having no part to add.
        if (role != run_role or isinstance(parts, Message)) and run_role is not None:
            out.append(Message(run_role, tuple(run)))  # type: ignore[arg-type]
            run_role, run = None, []
        if isinstance(parts, Message):
            out.append(parts)
        else:
            run_role = role
            run.extend(parts)
    if run_role is not None:
        out.append(Message(run_role, tuple(run)))  # type: ignore[arg-type]
    return out


def _is_assistant_message(item: Mapping[str, Any]) -> bool:
    return item.get("type") in (None, "message") and item.get("role") == "assistant"


def _parse_item(item: Mapping[str, Any], where: str,
                boundary: bool = False) -> tuple[str, Message | list[Part]]:
    """One item -> ("assistant"|"tool", its parts) for grouped items, else (role, Message).
    `boundary`: an assistant message item right after another one, whose parts must say
    where the new item starts (else render would write the two as one item)."""
    kind = item.get("type")
    if kind == "reasoning":
        return "assistant", [_parse_reasoning(item, where)]
    if kind == "function_call":
        return "assistant", [_parse_call(item, where)]
    if kind == "function_call_output":
        return "tool", [_parse_output(item, where)]
    if kind not in (None, "message"):
        if not isinstance(kind, str):
            raise WireFormatError(f"{where}.type", f"expected an item type, got {kind!r}")
        role = "tool" if kind.endswith(_CLIENT_ITEMS) else "assistant"
        return role, [Opaque(PROTOCOL, kind, item, hosted=kind in HOSTED, slot="item")]
    role = item.get("role")
    if kind is None and role is None:
        # An item_reference may leave out its type: {"id": ...}.
        return "assistant", [Opaque(PROTOCOL, "item_reference", item, slot="item")]
    if role == "assistant":
        texts = _assistant_texts(item, where)
        if not texts:  # content [] : its own message, its item fields kept on it
            fields = {k: v for k, v in item.items() if k not in ("role", "content")}
            return "assistant", Message("assistant", (), extras={"item": fields} if fields
                                        else {})
        return "assistant", list(_mark_item(item, texts, boundary))
    if role not in ("user", "system", "developer"):
        raise WireFormatError(f"{where}.role", "expected one of user, system, developer, "
                                               f"assistant; got {role!r}")
    return str(role), _role_message(item, str(role), where)


def _content(item: Mapping[str, Any], where: str, default_type: str) -> tuple[Text, ...]:
    if "content" not in item:
        raise WireFormatError(f"{where}.content", "required in a message item")
    return text_parts(item["content"], f"{where}.content", default_type, PROTOCOL)


def _role_message(item: Mapping[str, Any], role: str, where: str) -> Message:
    parts = _content(item, where, "input_text")
    extras = {k: v for k, v in item.items() if k not in ("role", "content")}
    if extras.get("type") == "message":  # the item's type, not a message field: a marker
        del extras["type"]
        extras[INPUT_FORM] = "item"
    extras.update(content_form(item["content"], parts))
    if role == "developer":
        extras = {"role": "developer", **extras}
    return Message("user" if role == "user" else "system", parts, extras=extras)


def _assistant_texts(item: Mapping[str, Any], where: str) -> tuple[Part, ...]:
    return _content(item, where, "output_text")


def _mark_item(item: Mapping[str, Any], texts: tuple[Part, ...],
               boundary: bool) -> tuple[Part, ...]:
    """The item's own fields (and its content's array form) ride on its first Text, under
    `item` (an empty `item` marks where an item starts after another). An item whose first
    part is not a Text (input_* parts, which vendors refuse in an assistant item) has no part
    to carry them: it stays whole, an Opaque item written back verbatim."""
    fields = {k: v for k, v in item.items() if k not in ("role", "content")}
    form = content_form(item["content"], texts)
    if not (fields or form or boundary):
        return texts
    first = texts[0]
    if not isinstance(first, Text):
        return (Opaque(PROTOCOL, "message", item, slot="item"),)
    item_fields = {"item": fields} if fields or boundary else {}
    return (Text(first.text, {**item_fields, **form, **first.extras}), *texts[1:])


def _parse_reasoning(item: Mapping[str, Any], where: str) -> Thinking:
    summary = item.get("summary") or []
    if not isinstance(summary, list):
        raise WireFormatError(f"{where}.summary", "expected an array of summary_text parts")
    texts = [string_field(require_mapping(s, f"{where}.summary[{i}]"), "text",
                          f"{where}.summary[{i}]") for i, s in enumerate(summary)]
    from_content = not texts and bool(reasoning_content(item))
    if from_content:  # DeepSeek sends its reasoning as `content` reasoning_text parts
        texts = [reasoning_content(item)]
    signature = item.get("encrypted_content")
    # An explicit `encrypted_content: null` stays in extras, so it is sent back as it came.
    owned = ("type", "summary") if signature is None else ("type", "summary",
                                                           "encrypted_content")
    extras = {k: v for k, v in item.items() if k not in owned}
    text = SUMMARY_JOIN.join(texts)
    # Kept whenever the text alone would not give the parts back (several parts, an empty
    # one, or a part with other fields).
    if (summary and (summary != [{"type": "summary_text", "text": text}] or not text)) \
            or from_content:  # from_content: the empty summary, kept as sent
        extras["summary"] = summary
    return Thinking(text, signature=signature, vendor=VENDOR,
                    extras=extras)


def _parse_call(item: Mapping[str, Any], where: str) -> ToolCall:
    name = string_field(item, "name", where)
    call_id = string_field(item, "call_id", where, optional=True)
    raw = item.get("arguments")
    arguments = arguments_from_wire(raw, f"{where}.arguments")
    extras = {k: v for k, v in item.items()
              if k not in ("type", "call_id", "name", "arguments")}
    return ToolCall(name, arguments, call_id, extras,
                    wire_arguments=raw if isinstance(raw, str) else None)


def _parse_output(item: Mapping[str, Any], where: str) -> ToolResult:
    if "output" not in item:
        raise WireFormatError(f"{where}.output", "required in a function_call_output item")
    content = result_content(item["output"], f"{where}.output", "input_text", PROTOCOL)
    call_id = string_field(item, "call_id", where, optional=True)
    name = string_field(item, "name", where, optional=True)
    # An explicit null call_id or name stays in extras, so it is sent back as it came.
    extras = {k: v for k, v in item.items()
              if k not in ("type", "call_id", "output", "name") or (v is None and k != "type")}
    if name is not None:
        extras[NAMED_OUTPUT] = True
    return ToolResult(call_id, content, name=name, extras=extras)
