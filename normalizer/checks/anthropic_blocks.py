"""Detectors for Anthropic content blocks beyond emptiness and pairing: whitespace-only
text, server tool ids (`srvtoolu_…`) replayed in client `tool_use` blocks, server tool
results whose server_tool_use block is not before them, fields a message or block of its
kind does not have, and inline images of a media type the API does not take."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from normalizer.check import Finding
from normalizer.checks.anthropic_walk import messages
from normalizer.profiles import Rule
from normalizer.protocols import server_result_kind


def _blank_only(content: Any) -> bool:
    """Content whose only blocks are text blocks holding whitespace (at least one
    character: an empty text is the empty-text-block rule's)."""
    if isinstance(content, str):
        return bool(content) and not content.strip()
    if not isinstance(content, list) or not content:
        return False
    texts = [b.get("text") for b in content if isinstance(b, Mapping) and b.get("type") == "text"]
    return (len(texts) == len(content) and all(isinstance(t, str) and not t.strip()
                                               for t in texts)
            and any(texts))


def whitespace_text_block(body: Mapping[str, Any], rule: Rule,
                          model: str | None) -> Iterator[Finding]:
    """A message whose content is nothing but whitespace text. A blank text block beside
    a tool_use or real text is accepted (recorded: evidence/anthropic/whitespace-text-*)."""
    for i, message in messages(body):
        if _blank_only(message.get("content")):
            yield Finding(location=f"messages[{i}].content", fields={"index": i})


def server_tool_use_as_client(body: Mapping[str, Any], rule: Rule,
                              model: str | None) -> Iterator[Finding]:
    """Client `tool_use` blocks whose id has a server tool prefix (params.prefixes,
    default `srvtoolu_`): the API does not let a client tool_result close it."""
    prefixes = tuple(rule.params.get("prefixes") or ("srvtoolu_",))
    for i, message in messages(body):
        content = message.get("content")
        ids = [b.get("id") for b in (content if isinstance(content, list) else ())
               if isinstance(b, Mapping) and b.get("type") == "tool_use"
               and isinstance(b.get("id"), str) and b["id"].startswith(prefixes)]
        if ids:
            yield Finding(location=f"messages[{i}].content", fields={"index": i,
                                                                    "ids": ", ".join(ids)})


def server_tool_result_orphan(body: Mapping[str, Any], rule: Rule,
                              model: str | None) -> Iterator[Finding]:
    """A server tool result block (`advisor_tool_result`, `web_search_tool_result`, ...)
    in an assistant message with no `server_tool_use` block of its `tool_use_id` before it
    in that message. The first such block of each message is reported."""
    for i, message in messages(body):
        content = message.get("content")
        if message.get("role") != "assistant" or not isinstance(content, list):
            continue
        used: set[Any] = set()
        for j, block in enumerate(content):
            if not isinstance(block, Mapping):
                continue
            kind = block.get("type")
            if kind == "server_tool_use":
                used.add(block.get("id"))
            elif server_result_kind(kind) and block.get("tool_use_id") not in used:
                yield Finding(location=f"messages[{i}].content[{j}]",
                              fields={"index": i, "block": j, "type": kind,
                                      "id": block.get("tool_use_id")})
                break


def unknown_message_field(body: Mapping[str, Any], rule: Rule,
                          model: str | None) -> Iterator[Finding]:
    """A message field not in params.allowed for the message's role (user and assistant
    take `role` and `content` only): one finding per field."""
    allowed: Mapping[str, Any] = rule.params.get("allowed") or {}
    for i, message in messages(body):
        known = allowed.get(message.get("role"))
        if known is None:
            continue
        for field in message:
            if field not in known:
                yield Finding(location=f"messages[{i}].{field}",
                              fields={"index": i, "field": field})


def unknown_block_field(body: Mapping[str, Any], rule: Rule,
                        model: str | None) -> Iterator[Finding]:
    """A field of a content block not in params.allowed for the block's type (types the
    params do not list are not checked): one finding per field."""
    allowed: Mapping[str, Any] = rule.params.get("allowed") or {}
    for i, message in messages(body):
        content = message.get("content")
        for j, block in enumerate(content if isinstance(content, list) else ()):
            known = allowed.get(block.get("type")) if isinstance(block, Mapping) else None
            if known is None:
                continue
            for field in block:
                if field not in known:
                    yield Finding(location=f"messages[{i}].content[{j}].{field}",
                                  fields={"index": i, "block": j, "type": block["type"],
                                          "field": field})


def content_type_unsupported(body: Mapping[str, Any], rule: Rule,
                             model: str | None) -> Iterator[Finding]:
    """An inline (base64) image or document block, in a message's content or inside a
    tool_result's, whose media_type is not in params.images / params.documents, at the path
    the API prints (`messages.62.content.0.tool_result.content.0.image.source.base64.
    media_type`), with what it takes as pydantic lists it (`'a', 'b' or 'c'`)."""
    taken = {kind: tuple(rule.params.get(key) or ())
             for kind, key in (("image", "images"), ("document", "documents"))}
    for i, message in messages(body):
        content = message.get("content")
        for j, block in enumerate(content if isinstance(content, list) else ()):
            kind = block.get("type") if isinstance(block, Mapping) else None
            if kind == "tool_result":
                inner = block.get("content")
                for k, part in enumerate(inner if isinstance(inner, list) else ()):
                    found = part.get("type") if isinstance(part, Mapping) else None
                    if isinstance(found, str) and taken.get(found):
                        yield from _unsupported_source(
                            part, found, taken[found],
                            f"messages.{i}.content.{j}.tool_result.content.{k}")
            elif isinstance(kind, str) and taken.get(kind):
                yield from _unsupported_source(block, kind, taken[kind],
                                               f"messages.{i}.content.{j}")


def _unsupported_source(block: Mapping[str, Any], kind: str, allowed: tuple[str, ...],
                        at: str) -> Iterator[Finding]:
    source = block.get("source")
    if not isinstance(source, Mapping) or source.get("type") != "base64":
        return
    mime = source.get("media_type")
    if isinstance(mime, str) and mime not in allowed:
        quoted = [f"'{m}'" for m in allowed]
        expected = quoted[0] if len(quoted) == 1 else \
            f"{', '.join(quoted[:-1])} or {quoted[-1]}"
        where = f"{at}.{kind}.source.base64.media_type"
        yield Finding(location=where, fields={"at": where, "mime": mime, "expected": expected})
