"""Detectors for what an OpenAI Chat body carries inside a message or a call: content
beside tool calls, empty argument strings, fields a vendor does not know inside a tool
call, content that must be a plain string, strict function schemas and strict flags that
differ between functions. What a vendor allows comes from the rule's params."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from normalizer.check import Finding
from normalizer.checks.openai_chat_walk import (
    call_id,
    calls,
    declared_tools,
    entries,
    param,
    roles,
    with_calls,
)
from normalizer.checks.strict_schema import strict_schema_findings
from normalizer.image_bytes import bytes_type
from normalizer.profiles import Rule
from normalizer.shared_reading import Rows, shared

Body = Mapping[str, Any]


def _has_text(content: Any) -> bool:
    if isinstance(content, str):
        return bool(content)
    if isinstance(content, Sequence) and not isinstance(content, str | bytes):
        return any(isinstance(p, Mapping) and p.get("text") for p in content)
    return False


def content_with_tool_calls(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """An assistant message holding tool calls and non-empty text content (an empty string
    or an empty list beside the calls is not text), for the models in params.model_prefixes
    (all models when there are none, or when the model is unknown)."""
    known = model if model != "unknown" else None  # evidence's word for "not stated"
    if not rule.applies_to(known, when_unknown=True):
        return
    msgs = entries(body)
    for i in with_calls(body):
        if _has_text(msgs[i].get("content")):
            yield Finding(location=f"messages[{i}].content", fields={"index": i})


def tool_arguments_empty(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """A tool call whose `function.arguments` is an empty (or blank) string."""
    for i, j, call in calls(body).rows:
        function = call.get("function")
        arguments = function.get("arguments") if isinstance(function, Mapping) else None
        if isinstance(arguments, str) and not arguments.strip():
            yield Finding(location=f"messages[{i}].tool_calls[{j}].function.arguments",
                          fields={"index": i, "call": j, "id": call_id(call) or ""})


def tool_arguments_not_object(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """A tool call whose `function.arguments` string is not a JSON object (cut or invalid
    streamed text, or an empty string)."""
    for i, j, call in calls(body).rows:
        function = call.get("function")
        arguments = function.get("arguments") if isinstance(function, Mapping) else None
        if isinstance(arguments, str) and not _json_object(arguments):
            yield Finding(location=f"messages[{i}].tool_calls[{j}].function.arguments",
                          fields={"index": i, "call": j, "id": call_id(call) or ""})


def _json_object(text: str) -> bool:
    try:
        return isinstance(json.loads(text), dict)
    except ValueError:
        return False


def unknown_tool_call_field(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """Fields of a tool call object other than params.allowed (default id, type,
    function), e.g. Codex's `call_id` / `response_item_id` replayed into Chat."""
    allowed = set(param(rule.params, "allowed", ("id", "type", "function")))
    for i, j, call in calls(body).rows:
        for name, value in call.items():
            if name not in allowed:
                path = f"messages[{i}].tool_calls[{j}].{name}"
                yield Finding(location=path, fields={"index": i, "call": j, "field": name,
                                                     "param": path, "value": repr(value)})


def content_not_string(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """Messages of params.roles (default system) whose content is a list of parts where
    the vendor takes a string only."""
    wanted = set(param(rule.params, "roles", ("system",)))
    msgs = entries(body)
    for i, now in enumerate(roles(body)):
        content = msgs[i].get("content") if now in wanted else None
        if isinstance(content, Sequence) and not isinstance(content, str | bytes):
            yield Finding(location=f"messages[{i}].content", fields={"index": i, "role": now})


def strict_tool_schema(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """Functions declared `strict: true` whose parameters schema is not closed (see
    normalizer.checks.strict_schema)."""
    for k, decl in declared_tools(body):
        function = decl.get("function")
        if not isinstance(function, Mapping) or function.get("strict") is not True:
            continue
        yield from strict_schema_findings(function.get("parameters"),
                                          str(function.get("name", "")),
                                          f"tools[{k}].function.parameters", rule, k)


def strict_tools_mixed(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """Function declarations whose `strict` flags differ: some `strict: true`, others
    false or not stated (Cerebras reads an unstated flag as false, the state pydantic-ai
    sends, mpfaffenberger/code_puppy#368). Explicit false beside unstated is the same value
    and is not flagged (not seen refused)."""
    flags = {function.get("strict") is True
             for _, decl in declared_tools(body)
             if isinstance(function := decl.get("function"), Mapping)}
    if len(flags) > 1:
        yield Finding("tools", {})


def _content_lists(body: Body) -> Iterator[tuple[int, str | None, Sequence[Any]]]:
    """(index, role, content) of each message whose content is a list of parts."""
    msgs = entries(body)
    for i, now in enumerate(roles(body)):
        msg = msgs[i]  # exact types first: the ABC checks ran for every message
        content = msg.get("content") if type(msg) is dict or isinstance(msg, Mapping) else None
        if type(content) is list or (  # a string or None, most often: no ABC check
                type(content) is not str and content is not None
                and isinstance(content, Sequence) and not isinstance(content, bytes)):
            yield i, now, content


@shared
def _other_parts(body: Body) -> Rows:
    """(index, role, content, types) of each message whose content list holds a part whose
    `type` is anything but "text" (types: those types), read once for the detectors of part
    types: most messages hold text parts only, and no detector needs to walk them again."""
    found: tuple[list[int], list[str | None], list[Sequence[Any]], list[frozenset[Any]]] = (
        [], [], [], [])
    for i, now, content in _content_lists(body):
        others = {p.get("type") if type(p) is dict or isinstance(p, Mapping) else None
                  for p in content}
        others.discard("text")
        if others:
            for column, value in zip(found, (i, now, content, frozenset(others)), strict=True):
                column.append(value)  # type: ignore[attr-defined]
    return Rows(*found)


def file_part_nested(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """`file` content parts in OpenAI's shape, `{"type": "file", "file": {...}}`, whatever
    the nested object holds (file_data or file_id): the vendor's `file` part is flat."""
    for i, now, content, kinds in _other_parts(body):
        if "file" not in kinds:
            continue
        for j, part in enumerate(content):
            if isinstance(part, Mapping) and part.get("type") == "file" \
                    and isinstance(part.get("file"), Mapping):
                yield Finding(location=f"messages[{i}].content[{j}]",
                              fields={"index": i, "part": j, "role": now})


def file_data_not_data_url(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """`file` content parts whose `file.file_data` is not a data URL (a web address, which
    OpenRouter takes there, or bare base64): OpenAI reads base64 data URLs only."""
    for i, _, content, kinds in _other_parts(body):
        if "file" not in kinds:
            continue
        for j, part in enumerate(content):
            inner = part.get("file") if isinstance(part, Mapping) \
                and part.get("type") == "file" else None
            data = inner.get("file_data") if isinstance(inner, Mapping) else None
            if isinstance(data, str) and not data.startswith("data:"):
                yield Finding(location=f"messages[{i}].content[{j}].file.file_data",
                              fields={"index": i, "part": j})


def content_type_unsupported(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """Messages holding a content part of a type in params.types, which the model does not
    take (the profile scopes the rule to those models): one finding per message and type,
    as the vendor names the message. And, where params.images lists the image MIME types
    taken, each image_url part whose data URL declares another."""
    refused = frozenset(param(rule.params, "types", ()))
    images = frozenset(param(rule.params, "images", ()))
    for i, _, content, kinds in _other_parts(body):
        for kind in sorted(k for k in kinds if isinstance(k, str) and k in refused):
            yield Finding(location=f"messages[{i}]", fields={"index": i, "type": kind})
        if images and "image_url" in kinds:
            yield from _unsupported_images(i, content, images)


# The part type of each media kind a rule's params.kinds may name.
_MEDIA_PARTS = {"image": "image_url", "audio": "input_audio", "file": "file", "document": "file"}


def media_role_unsupported(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """`media-role-unsupported`: a message of a role outside params.roles (default user)
    holding a media part of params.kinds (default image): one finding per message, as
    OpenAI names the message. Read off the parts that are not text (`_other_parts`)."""
    roles = {str(r) for r in param(rule.params, "roles", ("user",))}
    wanted = {_MEDIA_PARTS[str(k)] for k in param(rule.params, "kinds", ("image",))
              if str(k) in _MEDIA_PARTS}
    for i, now, content, kinds in _other_parts(body):
        if now in roles or not kinds & wanted:
            continue
        found = next(p.get("type") for p in content
                     if isinstance(p, Mapping) and p.get("type") in wanted)
        yield Finding(location=f"messages[{i}]", fields={"index": i, "role": now,
                                                         "type": found})


def _unsupported_images(i: int, content: Sequence[Any],
                        images: frozenset[str]) -> Iterator[Finding]:
    for j, part in enumerate(content):
        if not isinstance(part, Mapping) or part.get("type") != "image_url":
            continue
        found = part.get("image_url")
        url = found.get("url") if isinstance(found, Mapping) else found
        if isinstance(url, str) and url.startswith("data:image/"):
            mime = url[5:].split(";", 1)[0].split(",", 1)[0]
            if mime not in images:
                yield Finding(location=f"messages[{i}].content[{j}].image_url",
                              fields={"index": i, "part": j, "mime": mime})


def image_format_unsupported(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """`image-format-unsupported`: an image_url part whose base64 data URL holds bytes of a
    type not in params.images, the type named as Go's content sniffing names it (the bytes
    decide, not the declared type). Empty data, data that is not base64, and images by URL
    are not judged here."""
    taken = frozenset(param(rule.params, "images", ()))
    for i, _, content, kinds in _other_parts(body):
        if "image_url" not in kinds:
            continue
        for j, part in enumerate(content):
            if not isinstance(part, Mapping) or part.get("type") != "image_url":
                continue
            found = part.get("image_url")
            url = found.get("url") if isinstance(found, Mapping) else found
            sniffed = bytes_type(url) if isinstance(url, str) else None
            if sniffed and sniffed not in taken:
                yield Finding(location=f"messages[{i}].content[{j}].image_url",
                              fields={"index": i, "part": j, "format": sniffed})


def content_part_type_unknown(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """Content parts whose `type` is not in params.allowed (the part types the vendor's API
    has: another vendor's block replayed, or an OpenAI-compatible extension such as
    `video_url`). Parts with no string type are another rule's (content-part-type-missing)."""
    allowed = frozenset(param(rule.params, "allowed", ()))
    rows = _other_parts(body) if "text" in allowed else (
        (i, now, content, None) for i, now, content in _content_lists(body))
    for i, now, content, kinds in rows:
        if kinds is not None and kinds <= allowed:
            continue
        for j, part in enumerate(content):
            kind = part.get("type") if isinstance(part, Mapping) else None
            if isinstance(kind, str) and kind not in allowed:
                yield Finding(location=f"messages[{i}].content[{j}].type",
                              fields={"index": i, "part": j, "role": now, "type": kind})



def content_part_type_missing(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """Content parts without a `type` (a bare {"text": ...}, or a whole message put where a
    part goes); `param` is the missing field's path, as the vendor names it."""
    for i, _, content, kinds in _other_parts(body):
        if all(isinstance(kind, str) for kind in kinds):
            continue
        for j, part in enumerate(content):
            if isinstance(part, Mapping) and "type" not in part:
                where = f"messages[{i}].content[{j}].type"
                yield Finding(location=where, fields={"index": i, "part": j, "param": where})
