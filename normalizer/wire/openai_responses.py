"""OpenAI Responses API request bodies (`instructions` + `input` items) <-> neutral History;
docs/wire.md has the full mapping and what is lossy. In short: `instructions` -> a
leading system Message with extras {"instructions": true}; role items -> one Message each; a
run of assistant-side items (reasoning, assistant message, function_call) -> ONE assistant
Message with one part per item in order (Thinking, Text per output_text part, ToolCall); a
run of function_call_output items -> ONE tool Message. An assistant message item's own fields
(`type`, `id`, `status`, `phase`) ride on its first Text as extras {"item": {...}}.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from normalizer import protocols
from normalizer.errors import WireFormatError
from normalizer.model import (
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
from normalizer.protocols import SUMMARY_JOIN
from normalizer.tools import declare
from normalizer.wire._extras import skipped
from normalizer.wire._openai_common import (
    arguments_from_wire,
    call_arguments,
    content_form,
    content_to_wire,
    part_to_wire,
    require_mapping,
    result_content,
    split_tool_turn,
    string_field,
    text_parts,
    with_extras,
)

DEFAULT_MODEL = protocols.DEFAULT_MODEL["openai_responses"]
PROTOCOL = "openai_responses"
VENDOR = "openai_responses"

_INPUT_TYPES = ("input_text", "output_text")
# Hosted tool activity and the other items the model keeps verbatim as Opaque parts
# (hosted=True for these); an item type outside this list is kept verbatim too.
HOSTED = protocols.RESPONSES_HOSTED
# Items the client sends (answers to a call or a request): they join the tool run.
_CLIENT_ITEMS = ("_output", "mcp_approval_response")
# Extras keys never written as generic Responses fields: other protocols' (protocols.py says
# which protocol owns which), the reserved markers, and `item` (the item fields a first Text
# carries, which _render_assistant writes itself).
FOREIGN_KEYS = tuple(sorted(skipped(PROTOCOL, "item")))


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
    if isinstance(items, str):
        items = [{"role": "user", "content": items}]
    elif items is None:
        items = []
    elif not isinstance(items, list):
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
    return text_parts(item["content"], f"{where}.content", default_type, _INPUT_TYPES,
                      PROTOCOL)


def _role_message(item: Mapping[str, Any], role: str, where: str) -> Message:
    parts = _content(item, where, "input_text")
    extras = {k: v for k, v in item.items() if k not in ("role", "content")}
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
    from_content = not texts and bool(_reasoning_content(item))
    if from_content:  # DeepSeek sends its reasoning as `content` reasoning_text parts
        texts = [_reasoning_content(item)]
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


def _reasoning_content(item: Mapping[str, Any]) -> str:
    """The text of a reasoning item's `content` reasoning_text parts (DeepSeek); kept in
    extras too, so the item goes back as it came."""
    content = item.get("content")
    if not isinstance(content, list | tuple):  # a tuple once frozen into extras
        return ""
    return "".join(str(c.get("text", "")) for c in content
                   if isinstance(c, Mapping) and c.get("type") == "reasoning_text")


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
    content = result_content(item["output"], f"{where}.output", "input_text", _INPUT_TYPES,
                             PROTOCOL)
    call_id = string_field(item, "call_id", where, optional=True)
    name = string_field(item, "name", where, optional=True)
    # An explicit null call_id or name stays in extras, so it is sent back as it came.
    extras = {k: v for k, v in item.items()
              if k not in ("type", "call_id", "output", "name") or (v is None and k != "type")}
    return ToolResult(call_id, content, name=name, extras=extras)


# --- render ---


def render(
    history: History,
    *,
    tools: Sequence[ToolSpec] = (),
    model: str = DEFAULT_MODEL,
    options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """History -> a Responses request body, faithfully (no repairs). `options` are copied
    into the body last, so they win over computed keys."""
    body: dict[str, Any] = {"model": model}
    messages = history.messages
    if messages and _is_instructions(messages[0]):
        body["instructions"] = messages[0].parts[0].text  # type: ignore[union-attr]
        messages = messages[1:]
        offset = 1
    else:
        offset = 0
    items: list[dict[str, Any]] = []
    for i, message in enumerate(messages, start=offset):
        items.extend(_render_message(message, f"history[{i}]"))
    body["input"] = items
    if tools:
        body["tools"] = declare(tools, PROTOCOL)[0]
    body.update(thaw(options or {}))
    return body


def _is_instructions(message: Message) -> bool:
    """Only a leading system message holding one plain Text fits the `instructions` string;
    any other shape is rendered as an input item instead."""
    return (message.role == "system" and message.extras.get("instructions") is True
            and len(message.parts) == 1 and isinstance(message.parts[0], Text)
            and not message.parts[0].extras)


def _render_message(message: Message, where: str) -> list[dict[str, Any]]:
    if message.role == "assistant":
        return _render_assistant(message, where)
    if message.role == "tool":
        return _render_tool(message, where)
    for j, part in enumerate(message.parts):
        if not isinstance(part, Text | Media | Opaque):
            raise WireFormatError(f"{where}.parts[{j}]", f"a {type(part).__name__} has no "
                                  f"place in a {message.role} message in {PROTOCOL}")
    role = message.role
    if role == "system" and message.extras.get("role") == "developer":
        role = "developer"
    content = content_to_wire(message.parts, "input_text", FOREIGN_KEYS,  # type: ignore[arg-type]
                              PROTOCOL, message.extras.get("content_form"))
    return [with_extras({"role": role, "content": content}, message.extras,
                        (*FOREIGN_KEYS, "role", "instructions"))]


def _render_assistant(message: Message, where: str) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    texts: list[Text | Media | Opaque] = []
    for j, part in enumerate(message.parts):
        in_content = _in_content(part)
        if texts and (not in_content or "item" in getattr(part, "extras", {})):
            items.append(_message_item(texts))
            texts = []
        if in_content:
            texts.append(part)  # type: ignore[arg-type]
        elif isinstance(part, Opaque):
            items.append(thaw(part.data))
        elif isinstance(part, Thinking):
            items.append(_reasoning_item(part))
        elif isinstance(part, ToolCall):
            items.append(_call_item(part))
        else:
            raise WireFormatError(f"{where}.parts[{j}]", f"a {type(part).__name__} has no "
                                  f"place in an assistant message in {PROTOCOL}")
    if texts or not message.parts:
        # An assistant message without parts still renders, as an item with empty content.
        items.append(_message_item(texts, message.extras.get("item")))
    return items


def _in_content(part: Part) -> bool:
    """Whether a part of an assistant message goes into a message item's content."""
    return isinstance(part, Text | Media) or (isinstance(part, Opaque) and part.slot == "part")


def _message_item(texts: list[Text | Media | Opaque], own: Any = None) -> dict[str, Any]:
    """A message item; `own` holds the item fields of a message without parts."""
    first = texts[0] if texts and isinstance(texts[0], Text) else None
    fields = thaw((first.extras.get("item") if first else own) or {})
    form = first.extras.get("content_form") if first else None
    plain = [Text(t.text, t.extras.without("item", "content_form")) if isinstance(t, Text)
             else t for t in texts]
    content: str | list[dict[str, Any]] = (
        content_to_wire(plain, "output_text", FOREIGN_KEYS, PROTOCOL, form) if plain else []
    )
    return with_extras({"role": "assistant", "content": content}, fields, FOREIGN_KEYS)


def _reasoning_item(thinking: Thinking) -> dict[str, Any]:
    kept = thinking.extras.get("summary")
    if kept and SUMMARY_JOIN.join(s.get("text", "") for s in kept) == thinking.text:
        summary = thaw(kept)
    elif kept == () and thinking.text and _reasoning_content(thinking.extras) == thinking.text:
        summary = []  # the text is the item's own `content`, written back from extras
    else:
        summary = [{"type": "summary_text", "text": thinking.text}] if thinking.text else []
    fields: dict[str, Any] = {"type": "reasoning"}
    if "id" in thinking.extras:
        fields["id"] = thaw(thinking.extras["id"])
    fields["summary"] = summary
    if thinking.signature is not None:
        fields["encrypted_content"] = thinking.signature
    return with_extras(fields, thinking.extras, (*FOREIGN_KEYS, "summary"))


def _call_item(call: ToolCall) -> dict[str, Any]:
    fields: dict[str, Any] = {"type": "function_call"}
    if call.id is not None:
        fields["call_id"] = call.id
    fields.update({"name": call.name, "arguments": call_arguments(call, "arguments")})
    return with_extras(fields, call.extras, FOREIGN_KEYS)


def _render_tool(message: Message, where: str) -> list[dict[str, Any]]:
    """One function_call_output per ToolResult; Text parts of the turn follow as one `user`
    message item. `is_error` has no field here and is dropped (documented)."""
    results, texts = split_tool_turn(message, where, PROTOCOL)
    items = [thaw(r.data) if isinstance(r, Opaque) else _output_item(r) for r in results]
    if texts:
        items.append({"role": "user", "content": content_to_wire(
            texts, "input_text", FOREIGN_KEYS, PROTOCOL)})
    return items


def _output_item(result: ToolResult) -> dict[str, Any]:
    fields: dict[str, Any] = {"type": "function_call_output"}
    if result.call_id is not None:
        fields["call_id"] = result.call_id
    if result.name is not None:
        fields["name"] = result.name
    elif "name" in result.extras and result.extras["name"] is None:
        fields["name"] = None  # an explicit null, as the body sent it
    content = result.content
    fields["output"] = (content if isinstance(content, str)
                        else [part_to_wire(t, "input_text", FOREIGN_KEYS, PROTOCOL)
                              for t in content])
    return with_extras(fields, result.extras, FOREIGN_KEYS)
