"""Detectors for Anthropic content blocks beyond emptiness and pairing: whitespace-only
text, server tool ids (`srvtoolu_…`) replayed in client `tool_use` blocks, server tool
results whose server_tool_use block is not before them, fields a message or block of its
kind does not have, block types the API does not have, inline images of a media type the
API does not take, and images in a turn of a role that may not hold them."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from normalizer.check import Finding
from normalizer.checks.anthropic_walk import blocks_by_type, messages, result_parts
from normalizer.profiles import Rule
from normalizer.protocols import anthropic_hosted, server_result_kind


def _blank_only(content: Any) -> bool:
    """Content whose only blocks are text blocks holding whitespace (at least one
    character: an empty text is the empty-text-block rule's). Stops at the first block
    that is not blank text: most messages hold a call, a result or words."""
    if isinstance(content, str):
        return bool(content) and not content.strip()
    if not isinstance(content, list):
        return False
    some = False
    for block in content:
        if not isinstance(block, Mapping) or block.get("type") != "text":
            return False
        text = block.get("text")
        if not isinstance(text, str) or text.strip():
            return False
        some = some or bool(text)
    return some


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
    default `srvtoolu_`): the API does not let a client tool_result close it. Read off the
    shared blocks by type: only tool_use blocks are looked at."""
    prefixes = tuple(rule.params.get("prefixes") or ("srvtoolu_",))
    by_message: dict[int, list[str]] = {}
    for i, _, block in blocks_by_type(body).get("tool_use", ()):
        found = block.get("id")
        if isinstance(found, str) and found.startswith(prefixes):
            by_message.setdefault(i, []).append(found)
    for i, ids in by_message.items():  # rows come in body order
        yield Finding(location=f"messages[{i}].content", fields={"index": i,
                                                                "ids": ", ".join(ids)})


def server_tool_result_orphan(body: Mapping[str, Any], rule: Rule,
                              model: str | None) -> Iterator[Finding]:
    """A server tool result block (`advisor_tool_result`, `web_search_tool_result`, ...)
    in an assistant message with no `server_tool_use` block of its `tool_use_id` before it
    in that message. The first such block of each message is reported. Only the messages
    holding a server result are walked (most histories have none)."""
    by_type = blocks_by_type(body)
    holding = sorted({i for kind, rows in by_type.items() if server_result_kind(kind)
                      for i, _, _ in rows})
    if not holding:
        return
    found = messages(body)
    at = {i: message for i, message in found}
    for i in holding:
        message = at[i]
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
    allowed = {role: frozenset(fields) for role, fields in
               (rule.params.get("allowed") or {}).items()}
    for i, message in messages(body):
        known = allowed.get(message.get("role"))
        if known is None or message.keys() <= known:  # a C-level subset test: most messages
            continue
        for field in message:
            if field not in known:
                yield Finding(location=f"messages[{i}].{field}",
                              fields={"index": i, "field": field})


def unknown_block_field(body: Mapping[str, Any], rule: Rule,
                        model: str | None) -> Iterator[Finding]:
    """A field of a content block not in params.allowed for the block's type (types the
    params do not list are not checked): one finding per field, in body order. Read off the
    shared blocks by type, one C-level subset test per block."""
    allowed = {kind: frozenset(fields) for kind, fields in
               (rule.params.get("allowed") or {}).items()}
    by_type = blocks_by_type(body)
    found: list[tuple[int, int, Finding]] = []
    for kind, known in allowed.items():
        for i, j, block in by_type.get(kind, ()):
            if block.keys() <= known:
                continue
            found += [(i, j, Finding(location=f"messages[{i}].content[{j}].{field}",
                                     fields={"index": i, "block": j, "type": kind,
                                             "field": field}))
                      for field in block if field not in known]
    found.sort(key=lambda row: (row[0], row[1]))  # stable: fields keep their order
    yield from (finding for _, _, finding in found)


def unknown_block_type(body: Mapping[str, Any], rule: Rule,
                       model: str | None) -> Iterator[Finding]:
    """A content block whose type the API does not have: in a message's content, one not in
    params.allowed; inside a tool_result's content, one not in params.allowed_in_results
    (that place is not checked without it). Server tool activity (`*_tool_result`,
    `mcp_tool_use`, `tool_reference`, ...) always passes: Anthropic's own, taken with the
    beta that makes them, which the body does not show. What is flagged is another
    protocol's part replayed (`image_url`, `output_text`) or a type no API has. One finding
    per block, in body order, at the path the API prints and with the tags it lists there
    (params.expected, params.expected_in_results)."""
    allowed = frozenset(rule.params.get("allowed") or ())
    in_results = rule.params.get("allowed_in_results")
    by_type = blocks_by_type(body)
    found: list[tuple[tuple[int, int, int], Finding]] = []
    for kind, rows in by_type.items():
        if kind in allowed or anthropic_hosted(kind):
            continue
        found += [((i, j, -1), _unknown_type(kind, f"messages[{i}].content[{j}]",
                                             f"messages.{i}.content.{j}",
                                             rule.params.get("expected")))
                  for i, j, _ in rows]
    for i, j, k, _, kind in result_parts(by_type) if in_results is not None else ():
        if kind not in in_results and not anthropic_hosted(kind):
            found.append(((i, j, k), _unknown_type(
                kind, f"messages[{i}].content[{j}].content[{k}]",
                f"messages.{i}.content.{j}.tool_result.content.{k}",
                rule.params.get("expected_in_results"))))
    yield from (finding for _, finding in sorted(found, key=lambda pair: pair[0]))


def _unknown_type(kind: str, location: str, at: str, expected: Any) -> Finding:
    tags = ", ".join(f"'{tag}'" for tag in expected or ())
    return Finding(location=f"{location}.type",
                   fields={"at": at, "type": kind, "expected": tags or "(not known)"})


def content_type_unsupported(body: Mapping[str, Any], rule: Rule,
                             model: str | None) -> Iterator[Finding]:
    """An inline (base64) image or document block, in a message's content or inside a
    tool_result's, whose media_type is not in params.images / params.documents, at the path
    the API prints (`messages.62.content.0.tool_result.content.0.image.source.base64.
    media_type`), with what it takes as pydantic lists it (`'a', 'b' or 'c'`)."""
    taken = {kind: tuple(rule.params.get(key) or ())
             for kind, key in (("image", "images"), ("document", "documents"))}
    by_type = blocks_by_type(body)  # the shared reading: no walk of every block here
    found: list[tuple[tuple[int, int, int], Finding]] = []
    for kind, allowed in taken.items():
        for i, j, block in by_type.get(kind, ()) if allowed else ():
            found += [((i, j, -1), f) for f in _unsupported_source(
                block, kind, allowed, f"messages.{i}.content.{j}")]
    for i, j, k, part, kind in result_parts(by_type):
        allowed = taken.get(kind)
        if allowed:
            found += [((i, j, k), f) for f in _unsupported_source(
                part, kind, allowed, f"messages.{i}.content.{j}.tool_result.content.{k}")]
    yield from (f for _, f in sorted(found, key=lambda pair: pair[0]))


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


# The block type of each media kind a rule's params.kinds may name.
_MEDIA_BLOCKS = {"image": "image", "document": "document", "file": "document"}


def media_role_unsupported(body: Mapping[str, Any], rule: Rule,
                           model: str | None) -> Iterator[Finding]:
    """`media-role-unsupported`: a media block of params.kinds (default image) in a message
    of a role outside params.roles (default user), read off the shared blocks-by-type."""
    roles = {str(r) for r in rule.params.get("roles") or ("user",)}
    wanted = {_MEDIA_BLOCKS[str(k)] for k in rule.params.get("kinds") or ("image",)
              if str(k) in _MEDIA_BLOCKS}
    by_type = blocks_by_type(body)
    role_at = {i: message.get("role") for i, message in messages(body)}
    found = sorted((i, j, block) for kind in wanted for i, j, block in by_type.get(kind, ())
                   if role_at.get(i) not in roles)
    for i, j, block in found:
        yield Finding(location=f"messages.{i}.content.{j}",
                      fields={"index": i, "block": j, "role": role_at.get(i),
                              "type": block["type"]})
