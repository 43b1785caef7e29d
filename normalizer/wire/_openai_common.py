"""Helpers shared by the two OpenAI protocols (Chat Completions and Responses), which encode
text parts, tool-call arguments and tool turns the same way. Private to `normalizer.wire`.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from normalizer.errors import ArgumentsJSONError, WireFormatError
from normalizer.json_values import CompactEncoder
from normalizer.model import (
    EMPTY,
    JsonMap,
    Media,
    Message,
    Opaque,
    Text,
    ToolCall,
    ToolResult,
    thaw,
)
from normalizer.tools import parse_arguments
from normalizer.wire._media import chat_media, chat_wire, responses_media, responses_wire

ContentPart = Text | Media | Opaque
_MEDIA = {"openai_chat": (chat_media, chat_wire),
          "openai_responses": (responses_media, responses_wire)}


def require_mapping(value: Any, where: str) -> Mapping[str, Any]:
    # A parsed body's objects are dicts: tested first, the Mapping ABC test is much slower.
    if type(value) is not dict and not isinstance(value, Mapping):
        raise WireFormatError(where, f"expected a JSON object, got {kind(value)}")
    return value


def string_field(obj: Mapping[str, Any], key: str, where: str, *,
                 optional: bool = False) -> Any:
    """obj[key] as a string; None when absent and `optional`."""
    value = obj.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise WireFormatError(f"{where}.{key}", f"expected a string, got {kind(value)}")
    return value


def result_content(raw: Any, where: str, default_type: str,
                   protocol: str) -> str | tuple[ContentPart, ...]:
    """A tool result's content: a string stays a string, an array becomes parts."""
    if isinstance(raw, str):
        return raw
    return text_parts(raw, where, default_type, protocol)


def kind(value: Any) -> str:
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean",
            type(None): "null", int: "a number", float: "a number"}.get(type(value), "a value")


# The text part types each protocol has (parse reads these as Text, any other type as Media
# or Opaque): a Text keeps another than its place's default in extras["type"], written back
# only where the protocol has that type. Responses reads Chat's `text` too, which clients
# put in Responses bodies by mistake (MervinPraison/PraisonAI#3934; OpenAI refuses it:
# rule content-part-type-unknown), so that the words are not lost on the way elsewhere.
TEXT_TYPES: dict[str, frozenset[str]] = {
    "openai_chat": frozenset({"text", "refusal"}),
    "openai_responses": frozenset({"input_text", "output_text", "refusal", "text"}),
}


def text_part(part: Any, where: str, default_type: str, protocol: str) -> ContentPart:
    """One content part -> Text, Media, or (a type the model does not know, or none) Opaque
    kept verbatim. A Text's `type` is kept in extras only when it is not the default for its
    place, so a wrong type (input_text in an assistant item) survives."""
    part = require_mapping(part, where)
    kind = part.get("type")
    if kind is not None and not isinstance(kind, str):  # before a set is asked for it
        raise WireFormatError(f"{where}.type", f"expected a part type, got {kind!r}")
    if kind not in TEXT_TYPES[protocol]:
        media = _MEDIA[protocol][0](part)
        if media is not None:
            return media
        if "type" not in part:  # rule content-part-type-missing: kept as sent, its kind ""
            return Opaque(protocol, "", part)
        if not isinstance(kind, str):
            raise WireFormatError(f"{where}.type", f"expected a part type, got {kind!r}")
        return Opaque(protocol, kind, part)
    key = "refusal" if kind == "refusal" else "text"
    text = string_field(part, key, where)
    extras = {k: v for k, v in part.items() if k not in ("type", key)}
    if kind != default_type:
        extras = {"type": kind, **extras}
    return Text(text, extras)


def text_parts(content: Any, where: str, default_type: str,
               protocol: str) -> tuple[ContentPart, ...]:
    """Message content (a string or an array of parts) -> parts."""
    if isinstance(content, str):
        return (Text(content),)
    if isinstance(content, list):
        return tuple(text_part(p, f"{where}[{i}]", default_type, protocol)
                     for i, p in enumerate(content))
    raise WireFormatError(where, f"expected a string or an array of content parts, "
                                 f"got {kind(content)}")


def part_to_wire(text: ContentPart, default_type: str, skip: Iterable[str],
                 protocol: str) -> dict[str, Any]:
    """A part as a content part: Opaque verbatim, Media in the protocol's form."""
    if isinstance(text, Opaque):
        return thaw(text.data)
    if isinstance(text, Media):
        wire = _MEDIA[protocol][1](text)
        if wire is None:
            raise WireFormatError("parts", f"a {text.kind} ({text.source}) has no form in "
                                  f"{protocol}; the crossing pass converts it")
        return wire
    kind = text.extras.get("type", default_type)
    if kind not in TEXT_TYPES[protocol]:  # another protocol's (Responses' input_text in Chat)
        kind = default_type
    fields = {"type": kind, "refusal" if kind == "refusal" else "text": text.text}
    return with_extras(fields, text.extras, skip)


def content_to_wire(texts: Sequence[ContentPart], default_type: str, skip: Collection[str],
                    protocol: str, form: Any = None) -> str | list[dict[str, Any]]:
    """One plain Text -> a string, unless the body it came from spelled it as an array
    (`form`, the `content_form` marker); anything else -> parts. Extras this protocol does
    not write (`skip`) do not make a Text less plain."""
    if len(texts) == 1 and form != "array" and isinstance(texts[0], Text):
        extras = texts[0].extras
        if extras is EMPTY or not extras or all(key in skip for key in extras):
            return texts[0].text
    return [part_to_wire(t, default_type, skip, protocol) for t in texts]


def content_form(content: Any, parts: Sequence[ContentPart]) -> dict[str, Any]:
    """The `content_form` marker for a message whose array content holds one plain text
    (which render would otherwise write as a string)."""
    if isinstance(content, list) and len(parts) == 1 and isinstance(parts[0], Text) \
            and not parts[0].extras:
        return {"content_form": "array"}
    return {}


class WireArguments(JsonMap):
    """Arguments parsed from a body's JSON string, which they keep as `source`: while a
    call's `wire_arguments` is that very string, the renderer knows it still parses to the
    arguments without parsing it again (one `json.loads` per call of a long history)."""

    __slots__ = ("source",)

    def __init__(self, arguments: JsonMap, source: str) -> None:
        # `arguments` was parsed from `source`: its frozen data is shared, not copied.
        self._data, self._hash, self.source = arguments._data, None, source


def arguments_from_wire(raw: Any, where: str) -> JsonMap | str:
    """A JSON-object string -> JsonMap; any other string (including "") is kept verbatim."""
    if raw is None:
        return JsonMap()
    if isinstance(raw, str):  # the usual case, tested before the (slower) Mapping ABC
        if raw == "":
            return raw
        try:
            return WireArguments(parse_arguments(raw, where), raw)
        except ArgumentsJSONError:
            return raw
    if isinstance(raw, Mapping):
        return JsonMap(raw)
    raise WireFormatError(where, f"expected a JSON string, got {kind(raw)}")


def arguments_to_wire(arguments: JsonMap | str) -> str:
    """Canonical form: compact JSON, key order kept, non-ASCII unescaped; strings verbatim."""
    if isinstance(arguments, str):
        return arguments
    return _ARGUMENTS.encode(arguments._data if isinstance(arguments, JsonMap) else arguments)


# Frozen values are encoded without copying them first (the same bytes as
# `json.dumps(thaw(arguments), ensure_ascii=False, separators=(",", ":"))`).
_ARGUMENTS = CompactEncoder()


def call_arguments(call: ToolCall, where: str) -> str:
    """A call's arguments string: the one the body sent, byte for byte, while it still
    parses to the call's arguments (prompt caches key on those bytes); else canonical."""
    wire, arguments = call.wire_arguments, call.arguments
    if wire is not None and (
            (type(arguments) is WireArguments and arguments.source is wire)
            or arguments_from_wire(wire, where) == arguments):
        return wire
    return arguments_to_wire(arguments)


def with_extras(fields: dict[str, Any], extras: Mapping[str, Any],
                skip: Iterable[str] = ()) -> dict[str, Any]:
    """Modelled fields first; extras add only keys the fields do not already hold."""
    if extras is EMPTY or not extras:
        return fields
    ignored = skip if isinstance(skip, frozenset) else set(skip)
    for key, value in extras.items():
        if key not in fields and key not in ignored:
            fields[key] = thaw(value)
    return fields


def split_tool_turn(message: Message, where: str, protocol: str,
                    ) -> tuple[list[ToolResult | Opaque], list[ContentPart]]:
    """A tool message's results (and Opaque items in their place) and its Text and Media
    parts (which both OpenAI protocols render as a user message after the results); any
    other part has no place there."""
    results: list[ToolResult | Opaque] = []
    texts: list[ContentPart] = []
    for j, part in enumerate(message.parts):
        if isinstance(part, Text | Media) or (isinstance(part, Opaque) and part.slot == "part"):
            texts.append(part)
        elif isinstance(part, ToolResult | Opaque):
            results.append(part)
        else:
            raise WireFormatError(f"{where}.parts[{j}]", f"a {type(part).__name__} has no "
                                  f"place in a tool message in {protocol}")
    return results, texts
