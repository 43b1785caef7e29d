"""Detectors for the Anthropic Messages wire (`messages`, top-level `system`, `tools`,
`thinking`).

Every detector reads the body as sent and skips whatever it cannot read (a message that
is not an object, content that is neither a string nor a list, ...): the emulator runs
`check()` on hostile input, and a malformed body is the SDK's or the schema's business,
not a history rule's.

Anthropic documents that consecutive `user` or `assistant` turns are combined into one
turn (API reference, `messages`), so pairing is checked on *turns*: runs of consecutive
messages of one role. Indexes in findings are the indexes of the messages as sent. The
detectors share one reading of the body (normalizer/checks/anthropic_walk.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from itertools import chain
from typing import Any

from normalizer.check import Detector, Finding
from normalizer.checks import (
    anthropic_blocks,
    anthropic_images,
    anthropic_prefill,
    anthropic_tools,
    cache_breakpoints,
    output_limit,
    output_schema,
    reasoning_effort,
    request_fields,
    sampling,
    thinking_budget,
    tool_choice,
)
from normalizer.checks.anthropic_walk import ids, messages, turns, typed
from normalizer.profiles import Rule
from normalizer.signature_shape import issued_by_shape

Block = tuple[int, int, Mapping[str, Any]]  # message index, block index, block
THINKING_TYPES = ("thinking", "redacted_thinking")


def _blocks(index: int, message: Mapping[str, Any]) -> list[Block]:
    content = message.get("content")
    if not isinstance(content, list):
        return []
    return [(index, j, b) for j, b in enumerate(content)
            if type(b) is dict or isinstance(b, Mapping)]


def system_in_messages(body: Mapping[str, Any], rule: Rule, model: str | None) -> Iterator[Finding]:
    """A `system` role inside `messages` (Anthropic takes the system prompt in `system`)."""
    for i, message in messages(body):
        if message.get("role") == "system":
            yield Finding(f"messages[{i}].role", {"index": i})


def tool_call_id_pattern(body: Mapping[str, Any], rule: Rule,
                         model: str | None) -> Iterator[Finding]:
    """`tool-call-id-pattern`: a tool call id that does not match params.pattern."""
    pattern = str(rule.params.get("pattern", r"^[a-zA-Z0-9_-]+$"))
    for i, j, call_id in ids(typed(body, "tool_use"), "id"):
        if not re.search(pattern, call_id):
            yield Finding(f"messages[{i}].content[{j}].id",
                          {"index": i, "block": j, "pattern": pattern, "id": call_id})


def thinking_signature_missing(body: Mapping[str, Any], rule: Rule,
                               model: str | None) -> Iterator[Finding]:
    """`thinking-signature-missing`: a thinking block without its signature."""
    for i, j, block in typed(body, "thinking"):
        if block.get("signature") is None:
            yield Finding(f"messages[{i}].content[{j}].signature", {"index": i, "block": j})


def empty_text_block(body: Mapping[str, Any], rule: Rule, model: str | None) -> Iterator[Finding]:
    """`empty-text-block`: a text block/part whose text is empty."""
    for i, j, block in typed(body, "text"):
        if block.get("text") == "":
            yield Finding(f"messages[{i}].content[{j}].text", {"index": i, "block": j})


def empty_content(body: Mapping[str, Any], rule: Rule, model: str | None) -> Iterator[Finding]:
    """`empty-content`: a message (or turn) with no content."""
    found = messages(body)
    last = found[-1][0] if found else -1
    for i, message in found:
        if message.get("content") not in ("", []):
            continue
        if i == last and message.get("role") == "assistant":
            continue  # "except for the optional final assistant message" (prefill)
        yield Finding(f"messages[{i}].content", {"index": i})


def tools_not_declared(body: Mapping[str, Any], rule: Rule,
                       model: str | None) -> Iterator[Finding]:
    """`tools-not-declared`: tool calls or results in the history but no `tools` in the request."""
    if isinstance(body.get("tools"), list) and body["tools"]:
        return
    for i, j, _ in chain(typed(body, "tool_use"), typed(body, "tool_result")):
        yield Finding(f"messages[{i}].content[{j}]", {"index": i, "block": j})
        return  # the vendor answers once for the whole request


def duplicate_tool_call_id(body: Mapping[str, Any], rule: Rule,
                           model: str | None) -> Iterator[Finding]:
    """`duplicate-tool-call-id`: two tool calls with the same id; params.scope `message`
    counts within one message only (ids reused across turns were accepted,
    evidence/anthropic), default `history`."""
    per_message = rule.params.get("scope", "history") == "message"
    seen: set[str] = set()
    last = -1
    for i, j, call_id in ids(typed(body, "tool_use"), "id"):
        if per_message and i != last:
            seen, last = set(), i
        if call_id in seen:
            yield Finding(f"messages[{i}].content[{j}].id", {"index": i, "block": j, "id": call_id})
        seen.add(call_id)


def duplicate_tool_result(body: Mapping[str, Any], rule: Rule,
                          model: str | None) -> Iterator[Finding]:
    """A second tool_result for the same tool_use_id within one (combined) user turn."""
    every = turns(body)
    for t, role in enumerate(every.roles):
        if role != "user" or not every.has_results(t):
            continue
        found = every.result_ids(t)
        if len(set(found)) == len(found):  # the usual turn: no id twice
            continue
        seen: set[str] = set()
        for i, j, call_id in every.results_of(t):
            if call_id in seen:
                yield Finding(f"messages[{i}].content[{j}]",
                              {"index": i, "block": j, "id": call_id})
            seen.add(call_id)


def missing_tool_result(body: Mapping[str, Any], rule: Rule,
                        model: str | None) -> Iterator[Finding]:
    """`missing-tool-result`: a tool call not answered before the next non-result message (includes
    a message wedged between calls and results). A trailing assistant turn is a prefill,
    not a finished call."""
    every = turns(body)
    for t, role in enumerate(every.roles[:-1]):
        if role != "assistant" or not every.has_calls(t):
            continue
        answered = set(every.result_ids(t + 1)) if every.roles[t + 1] == "user" else set()
        if answered.issuperset(every.call_ids(t)):  # the usual turn: every call answered
            continue
        missing = [(i, j, cid) for i, j, cid in every.calls_of(t) if cid not in answered]
        if missing:
            i, j, _ = missing[0]
            yield Finding(f"messages[{i}].content[{j}]",
                          {"index": i, "ids": ", ".join(cid for _, _, cid in missing)})


def orphan_tool_result(body: Mapping[str, Any], rule: Rule,
                       model: str | None) -> Iterator[Finding]:
    """`orphan-tool-result`: a tool result whose call is not in the turn right before it."""
    every = turns(body)
    for t, role in enumerate(every.roles):
        if role != "user" or not every.has_results(t):
            continue
        called = set(every.call_ids(t - 1)) \
            if t > 0 and every.roles[t - 1] == "assistant" else set()
        if called.issuperset(every.result_ids(t)):  # the usual turn: every result called
            continue
        orphans = [(i, j, cid) for i, j, cid in every.results_of(t) if cid not in called]
        if orphans:
            i, j, _ = orphans[0]
            yield Finding(f"messages[{i}].content[{j}].tool_use_id",
                          {"index": i, "block": j, "ids": ", ".join(c for _, _, c in orphans)})


def _thinking_mode(body: Mapping[str, Any]) -> str:
    thinking = body.get("thinking")
    if isinstance(thinking, Mapping) and isinstance(thinking.get("type"), str):
        return thinking["type"]
    return "disabled"


def _current_assistant(body: Mapping[str, Any]) -> tuple[int, Mapping[str, Any]] | None:
    """The last assistant message, if no user message with more than tool results follows
    it: the turn in progress. Earlier turns' thinking is stripped by the API, so the two
    thinking rules are about this message only ("a final `assistant` message")."""
    for i, message in reversed(messages(body)):
        role = message.get("role")
        if role == "assistant":
            return i, message
        content = message.get("content")
        if role == "user" and not (isinstance(content, list) and content and all(
                isinstance(b, Mapping) and b.get("type") == "tool_result" for b in content)):
            return None
    return None


def thinking_block_required(body: Mapping[str, Any], rule: Rule,
                            model: str | None) -> Iterator[Finding]:
    """`thinking-block-required`: thinking on: the final assistant turn does not start with
    thinking."""
    if _thinking_mode(body) not in tuple(rule.params.get("modes", ("enabled",))):
        return
    current = _current_assistant(body)
    blocks = _blocks(*current) if current else []
    if not any(b[2].get("type") == "tool_use" for b in blocks):
        return
    first = blocks[0][2].get("type")
    if first not in THINKING_TYPES:
        i = blocks[0][0]
        yield Finding(f"messages[{i}].content[0]", {"index": i, "block": 0, "found": first})


def thinking_when_disabled(body: Mapping[str, Any], rule: Rule,
                           model: str | None) -> Iterator[Finding]:
    """`thinking-when-disabled`: thinking off: thinking blocks in the final assistant turn."""
    if _thinking_mode(body) != "disabled":
        return
    current = _current_assistant(body)
    for i, j, block in _blocks(*current) if current else []:
        if block.get("type") in THINKING_TYPES:
            yield Finding(f"messages[{i}].content[{j}]", {"index": i, "block": j})
            return


def thinking_signature_invalid(body: Mapping[str, Any], rule: Rule,
                               model: str | None) -> Iterator[Finding]:
    """`thinking-signature-invalid`: a thinking block whose signature this vendor did not issue."""
    first_bytes = tuple(int(b) for b in rule.params.get("first_bytes", (0x12,)))
    for i, j, block in typed(body, "thinking"):
        signature = block.get("signature")
        if signature is not None and not (isinstance(signature, str)
                                          and issued_by_shape(signature, first_bytes)):
            yield Finding(f"messages[{i}].content[{j}].signature", {"index": i, "block": j})


def tool_arguments_not_object(body: Mapping[str, Any], rule: Rule,
                              model: str | None) -> Iterator[Finding]:
    """A tool_use whose `input` is a string (a cut or invalid streamed call), list, ..."""
    for i, j, block in typed(body, "tool_use"):
        if "input" in block and not isinstance(block["input"], Mapping):
            yield Finding(f"messages[{i}].content[{j}].input", {"index": i, "block": j})


DETECTORS: dict[str, Detector] = {
    "system-message-placement": system_in_messages,
    "too-many-cache-breakpoints": cache_breakpoints.too_many_cache_breakpoints,
    "cache-control-in-tool-result": cache_breakpoints.cache_control_in_tool_result,
    "cache-ttl-order": cache_breakpoints.cache_ttl_order,
    "tool-choice-unknown-tool": tool_choice.anthropic_unknown_tool,
    "tool-choice-with-thinking": tool_choice.forced_with_thinking,
    "reasoning-effort-unsupported": reasoning_effort.anthropic_thinking,
    "reasoning-effort-value-unsupported": reasoning_effort.anthropic_effort_level,
    "thinking-budget-too-small": thinking_budget.budget_too_small,
    "thinking-budget-exceeds-max-tokens": thinking_budget.budget_exceeds_max_tokens,
    "thinking-budget-unsupported": thinking_budget.anthropic_budget_unsupported,
    "thinking-adaptive-unsupported": thinking_budget.anthropic_adaptive_unsupported,
    "effort-unsupported": reasoning_effort.anthropic_effort,
    "thinking-off-unsupported": thinking_budget.anthropic_thinking_off,
    "sampling-parameter-fixed": sampling.fixed_sampling,
    "sampling-parameter-unsupported": sampling.unsupported_sampling,
    "sampling-parameter-with-thinking": sampling.unsupported_sampling,
    "sampling-parameter-out-of-range": sampling.range_sampling,
    "sampling-parameters-exclusive": sampling.exclusive_sampling,
    "stop-sequence-invalid": sampling.invalid_stops("anthropic"),
    "max-tokens-too-large": output_limit.too_large("anthropic"),
    "tool-call-id-pattern": tool_call_id_pattern,
    "tool-arguments-not-object": tool_arguments_not_object,
    "thinking-signature-missing": thinking_signature_missing,
    "tool-name-invalid": anthropic_tools.tool_name_invalid,
    "tool-name-too-long": anthropic_tools.tool_name_too_long,
    "duplicate-tool-name": anthropic_tools.duplicate_tool_name,
    "tool-parameters-not-object": anthropic_tools.input_schema_without_type,
    "tool-parameters-top-level-union": anthropic_tools.input_schema_top_level_union,
    "schema-keyword-invalid": anthropic_tools.input_schema_invalid_keyword,
    "tool-property-key-invalid": anthropic_tools.input_schema_property_key,
    "empty-text-block": empty_text_block,
    "empty-content": empty_content,
    "tools-not-declared": tools_not_declared,
    "duplicate-tool-call-id": duplicate_tool_call_id,
    "duplicate-tool-result": duplicate_tool_result,
    "missing-tool-result": missing_tool_result,
    "orphan-tool-result": orphan_tool_result,
    "thinking-block-required": thinking_block_required,
    "thinking-when-disabled": thinking_when_disabled,
    "thinking-signature-invalid": thinking_signature_invalid,
    "whitespace-text-block": anthropic_blocks.whitespace_text_block,
    "server-tool-use-as-client": anthropic_blocks.server_tool_use_as_client,
    "server-tool-result-orphan": anthropic_blocks.server_tool_result_orphan,
    "unknown-request-field": request_fields.unknown_request_field,
    "unknown-message-field": anthropic_blocks.unknown_message_field,
    "unknown-block-field": anthropic_blocks.unknown_block_field,
    "content-part-type-unknown": anthropic_blocks.unknown_block_type,
    "content-type-unsupported": anthropic_blocks.content_type_unsupported,
    "media-role-unsupported": anthropic_blocks.media_role_unsupported,
    "last-message-role": anthropic_prefill.last_message_role,
    "prefill-trailing-whitespace": anthropic_prefill.prefill_trailing_whitespace,
    "conversation-empty": anthropic_prefill.conversation_empty,
    "image-media-type-mismatch": anthropic_images.image_media_type_mismatch,
    "image-data-empty": anthropic_images.image_data_empty,
    "image-data-not-base64": anthropic_images.image_data_not_base64,
    "image-format-unsupported": anthropic_images.image_format_unsupported,
    "many-image-dimensions-too-large": anthropic_images.many_image_dimensions_too_large,
    "image-dimensions-too-large": anthropic_images.image_dimensions_too_large,
    "image-too-large": anthropic_images.image_too_large,
    "document-data-invalid": anthropic_images.pdf_data_invalid,
    "too-many-media": anthropic_images.too_many_media,
    "request-too-large": anthropic_images.request_too_large,
    "output-schema-open-object": output_schema.open_output_object,
}
