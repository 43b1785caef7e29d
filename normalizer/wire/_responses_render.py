"""OpenAI Responses API: History -> request body (`render`), faithfully (no repairs); the
mapping is in `openai_responses` (which holds `parse` and re-exports `render`) and
docs/wire.md. Private to `normalizer.wire`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from normalizer import protocols
from normalizer.errors import WireFormatError
from normalizer.model import (
    EMPTY,
    INPUT_FORM,
    NAMED_OUTPUT,
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
    call_arguments,
    content_to_wire,
    part_to_wire,
    split_tool_turn,
    with_extras,
)

DEFAULT_MODEL = protocols.DEFAULT_MODEL["openai_responses"]
PROTOCOL = "openai_responses"
VENDOR = "openai_responses"
# Extras keys never written as generic Responses fields: other protocols' (protocols.py says
# which protocol owns which), the reserved markers, and `item` (the item fields a first Text
# carries, which _render_assistant writes itself).
FOREIGN_KEYS = tuple(sorted(skipped(PROTOCOL, "item")))
_FOREIGN = frozenset(FOREIGN_KEYS)
_PLAIN_SKIP = _FOREIGN | {"role", "instructions"}


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
    append, extend = items.append, items.extend
    for i, message in enumerate(messages, start=offset):
        role = message.role
        if role == "assistant":
            extend(_render_assistant(message, i))
        elif role == "tool":
            extend(_render_tool(message, i))
        else:
            append(_render_plain(message, i))
    whole = _input_string(messages, items)
    if whole is not None:
        body["input"] = whole
    elif items or history.extras.get(INPUT_FORM) != "absent":
        body["input"] = items  # a body that had no `input` (a stored prompt alone) gets none
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


# The renderers below are called once per message of long histories (a profiled cost):
# they build each dict once and call `with_extras` only when there are extras. `i` is the
# message's index; its `history[i]` text is made for errors only.


def _input_string(messages: Sequence[Message], items: list[dict[str, Any]]) -> str | None:
    """The `input` string a body sent as its whole input (parse marks that user message),
    while it is still all the input and one plain user text; None otherwise."""
    if len(items) != 1 or len(messages) != 1 or messages[0].extras.get(INPUT_FORM) != "string":
        return None
    item = items[0]
    content = item.get("content")
    return content if item.keys() == {"role", "content"} and item["role"] == "user" \
        and isinstance(content, str) else None


def _render_plain(message: Message, i: int) -> dict[str, Any]:
    """A system, developer or user message."""
    for j, part in enumerate(message.parts):
        if not isinstance(part, Text | Media | Opaque):
            raise WireFormatError(f"history[{i}].parts[{j}]", f"a {type(part).__name__} has "
                                  f"no place in a {message.role} message in {PROTOCOL}")
    role, extras = message.role, message.extras
    if role == "system" and extras.get("role") == "developer":
        role = "developer"
    content = content_to_wire(message.parts, "input_text", FOREIGN_KEYS,  # type: ignore[arg-type]
                              PROTOCOL, extras.get("content_form"))
    fields = {"role": role, "content": content}
    if extras is EMPTY or not extras:
        return fields
    if extras.get(INPUT_FORM) == "item":
        fields = {"type": "message", **fields}
    return with_extras(fields, extras, _PLAIN_SKIP)


def _render_assistant(message: Message, i: int) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    texts: list[Text | Media | Opaque] = []
    for j, part in enumerate(message.parts):
        in_content = _in_content(part)
        if texts and (not in_content or "item" in getattr(part, "extras", ())):
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
            raise WireFormatError(f"history[{i}].parts[{j}]", f"a {type(part).__name__} has "
                                  f"no place in an assistant message in {PROTOCOL}")
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
    # A Text with no extras is its own plain copy (most are: no JsonMap made for them).
    plain = [Text(t.text, t.extras.without("item", "content_form"))
             if isinstance(t, Text) and t.extras else t for t in texts]
    content: str | list[dict[str, Any]] = (
        content_to_wire(plain, "output_text", FOREIGN_KEYS, PROTOCOL, form) if plain else []
    )
    return with_extras({"role": "assistant", "content": content}, fields, FOREIGN_KEYS)


def _reasoning_item(thinking: Thinking) -> dict[str, Any]:
    kept = thinking.extras.get("summary")
    if kept and SUMMARY_JOIN.join(s.get("text", "") for s in kept) == thinking.text:
        summary = thaw(kept)
    elif kept == () and thinking.text and reasoning_content(thinking.extras) == thinking.text:
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
    fields["name"] = call.name
    fields["arguments"] = call_arguments(call, "arguments")
    extras = call.extras
    return fields if extras is EMPTY or not extras else with_extras(
        fields, extras, _FOREIGN)


def _render_tool(message: Message, i: int) -> list[dict[str, Any]]:
    """One function_call_output per ToolResult; Text parts of the turn follow as one `user`
    message item. `is_error` has no field here and is dropped (documented)."""
    if len(message.tool_results) == len(message.parts):  # results only: nothing to sort
        return [_output_item(r) for r in message.tool_results]
    results, texts = split_tool_turn(message, f"history[{i}]", PROTOCOL)
    items = [thaw(r.data) if isinstance(r, Opaque) else _output_item(r) for r in results]
    if texts:
        items.append({"role": "user", "content": content_to_wire(
            texts, "input_text", FOREIGN_KEYS, PROTOCOL)})
    return items


def _output_item(result: ToolResult) -> dict[str, Any]:
    fields: dict[str, Any] = {"type": "function_call_output"}
    if result.call_id is not None:
        fields["call_id"] = result.call_id
    # Only where the body this came from had it: the API defines no `name` here, and it
    # refuses an item field it does not know ("Unknown parameter: 'input[1].status'.",
    # BerriAI/litellm#13420). Gemini's and Chat's result names stay in their bodies.
    if result.name is not None and result.extras.get(NAMED_OUTPUT):
        fields["name"] = result.name
    elif "name" in result.extras and result.extras["name"] is None:
        fields["name"] = None  # an explicit null, as the body sent it
    content = result.content
    fields["output"] = (content if isinstance(content, str)
                        else [part_to_wire(t, "input_text", FOREIGN_KEYS, PROTOCOL)
                              for t in content])
    extras = result.extras
    return fields if extras is EMPTY or not extras else with_extras(
        fields, extras, _FOREIGN)


def reasoning_content(item: Mapping[str, Any]) -> str:
    """The text of a reasoning item's `content` reasoning_text parts (DeepSeek); kept in
    extras too, so the item goes back as it came."""
    content = item.get("content")
    if not isinstance(content, list | tuple):  # a tuple once frozen into extras
        return ""
    return "".join(str(c.get("text", "")) for c in content
                   if isinstance(c, Mapping) and c.get("type") == "reasoning_text")
