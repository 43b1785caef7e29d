"""Detectors for the OpenAI Responses wire (`input` items, `instructions`, `tools`, `store`).

`input` may be a plain string (nothing to check) or a list of items: messages (with or
without `"type": "message"`), `function_call`, `function_call_output`, `reasoning`, and
other `*_call` items. Calls and outputs pair by `call_id`, anywhere in order (a message
between them is allowed). Detectors skip what they cannot read: the emulator runs them on
hostile input.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from fnmatch import fnmatchcase
from typing import Any

from normalizer.check import Detector, Finding
from normalizer.checks import (
    json_mode,
    long_texts,
    output_limit,
    reasoning_effort,
    request_fields,
    sampling,
    strict_schema,
    tool_choice,
    tool_parameters,
)
from normalizer.checks import openai_responses_items as by_id
from normalizer.checks.openai_responses_walk import items
from normalizer.image_bytes import KNOWN, bytes_type
from normalizer.options import thinking_on_by_default
from normalizer.profiles import Rule
from normalizer.protocols import answers_reasoning, output_answers
from normalizer.shared_reading import Rows


def _message_part_types(body: Mapping[str, Any]
                        ) -> Iterator[tuple[int, Mapping[str, Any], int, str]]:
    """(item index, item, part index, part type) of each typed part of a message item."""
    for i, item, found, _ in items(body):
        content = item.get("content")
        if found != "message" or not isinstance(content, list):
            continue
        for j, part in enumerate(content):
            part_type = part.get("type") if isinstance(part, Mapping) else None
            if isinstance(part_type, str):
                yield i, item, j, part_type


def assistant_content_type(body: Mapping[str, Any], rule: Rule,
                           model: str | None) -> Iterator[Finding]:
    """`assistant-content-type`: an assistant item with a content type only user items may have."""
    forbidden = {str(t) for t in rule.params.get("forbidden", ("input_text",))}
    for i, item, j, part_type in _message_part_types(body):
        if item.get("role") == "assistant" and part_type in forbidden:
            yield Finding(f"input[{i}].content[{j}].type",
                          {"index": i, "part": j, "type": part_type})


def content_part_type_unknown(body: Mapping[str, Any], rule: Rule,
                              model: str | None) -> Iterator[Finding]:
    """`content-part-type-unknown`: a message item's content part whose type is not in
    params.allowed (a Chat-style `text` or `image_url` part sent to Responses)."""
    allowed = {str(t) for t in rule.params.get("allowed", ())}
    for i, _, j, part_type in _message_part_types(body):
        if part_type not in allowed:
            yield Finding(f"input[{i}].content[{j}].type",
                          {"index": i, "part": j, "type": part_type})


def content_type_unsupported(body: Mapping[str, Any], rule: Rule,
                             model: str | None) -> Iterator[Finding]:
    """`content-type-unsupported`: an `input_file` part (in a message item or a function
    output) whose `file_data` is a data URL of a MIME type matching params.files (globs:
    `audio/*`), which the file input refuses whatever the model."""
    refused = tuple(str(g) for g in rule.params.get("files", ()))
    for where, part in _typed_parts(body, "input_file"):
        data = part.get("file_data")
        mime = data[5:].split(";", 1)[0] if isinstance(data, str) and \
            data.startswith("data:") else None
        if mime and any(fnmatchcase(mime, glob) for glob in refused):
            yield Finding(f"{where}.file_data", {"param": f"{where}.file_data", "mime": mime})


def image_data_empty(body: Mapping[str, Any], rule: Rule,
                     model: str | None) -> Iterator[Finding]:
    """`image-data-empty`: an `input_image` part (in a message item or a function output)
    whose image_url is a data URL with nothing after its comma."""
    for where, part in _typed_parts(body, "input_image"):
        url = part.get("image_url")
        if isinstance(url, str) and url.startswith("data:") and "," in url \
                and not url.partition(",")[2].strip():
            yield Finding(f"{where}.image_url", {"param": f"{where}.image_url"})


def image_format_unsupported(body: Mapping[str, Any], rule: Rule,
                             model: str | None) -> Iterator[Finding]:
    """`image-format-unsupported`: an `input_image` whose data URL holds bytes that are not
    an image of a type in params.images (an SVG, a BMP), read off its first bytes; data
    that is not base64 holds no image either. An empty one is image-data-empty's."""
    taken = {str(t) for t in rule.params.get("images", KNOWN)}
    for where, part in _typed_parts(body, "input_image"):
        url = part.get("image_url")
        found = bytes_type(url) if isinstance(url, str) else None
        if found is not None and found not in taken:
            yield Finding(f"{where}.image_url", {"param": f"{where}.image_url"})


def _typed_parts(body: Mapping[str, Any],
                 kind: str) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """(path, part) of each part of type `kind` in a message item's content or in a
    function output's list."""
    for i, item, found, _ in items(body):
        key = _PART_LISTS.get(found)
        parts = item.get(key) if key is not None else None
        for j, part in enumerate(parts if isinstance(parts, list) else ()):
            if isinstance(part, Mapping) and part.get("type") == kind:
                yield f"input[{i}].{key}[{j}]", part


# Where an item of each kind holds content parts.
_PART_LISTS = {"message": "content", "function_call_output": "output"}


def unknown_message_field(body: Mapping[str, Any], rule: Rule,
                          model: str | None) -> Iterator[Finding]:
    """`unknown-message-field`: a message item's field not in params.allowed for its role
    (by the role as written: user, system, developer, assistant); one finding per field."""
    allowed: Mapping[str, Any] = rule.params.get("allowed") or {}
    for i, item, found, _ in items(body):
        known = allowed.get(item.get("role")) if found == "message" else None
        if known is None:
            continue
        for field in item:
            if field not in known:
                yield Finding(f"input[{i}].{field}", {"param": f"input[{i}].{field}",
                                                      "field": field})


def duplicate_tool_call_id(body: Mapping[str, Any], rule: Rule,
                           model: str | None) -> Iterator[Finding]:
    """Duplicate item ids (`fc_…`, `rs_…`, `msg_…`): what the vendor names in its message.
    Two calls sharing a `call_id` under different item ids is not covered (no known text)."""
    seen: set[str] = set()
    for i, item, _, _ in items(body):
        item_id = item.get("id")
        if not isinstance(item_id, str):
            continue
        if item_id in seen:
            yield Finding(f"input[{i}].id", {"index": i, "id": item_id})
        seen.add(item_id)


def reasoning_item_orphan(body: Mapping[str, Any], rule: Rule,
                          model: str | None) -> Iterator[Finding]:
    """`reasoning-item-orphan`: a reasoning item given by its id and not followed by the item
    it belongs to. One without an id (its encrypted_content alone) is taken anywhere: OpenAI
    names the item it refuses by id, and took five id-less ones before a user message
    (gpt-5.6-luna, braintrustdata/lingua's recording)."""
    raw = body.get("input")
    for i, item, found, _ in items(body):
        if found != "reasoning" or not isinstance(item.get("id"), str):
            continue
        after = raw[i + 1] if i + 1 < len(raw) else None
        if not (isinstance(after, Mapping) and answers_reasoning(after)):
            yield Finding(f"input[{i}]", {"index": i, "id": item["id"]})


def reasoning_text_required(body: Mapping[str, Any], rule: Rule,
                            model: str | None) -> Iterator[Finding]:
    """`reasoning-content-required` on the Responses wire (DeepSeek, which turns the items
    into chat messages): thinking on (the body's `thinking.type`, else
    params.default_on_model), each run of assistant-side items (reasoning, assistant
    message, function_call) after the last user message that holds a function_call and no
    reasoning item, named at its first call. A batch split into call, output, call, output
    makes a second run without reasoning (Kohaku-Lab/KohakuTerrarium#323). Runs before the
    last user message are not read: DeepSeek took calls there with no reasoning (recorded)."""
    if not isinstance(body, Mapping) or not thinking_on_by_default(
            body, rule.params, model or body.get("model")):
        return
    rows = list(items(body))
    last_user = max((n for n, (_, item, found, _) in enumerate(rows)
                     if found == "message" and item.get("role") == "user"), default=-1)
    first_call: int | None = None
    reasoned = False
    for index, item, found, _ in (*rows[last_user + 1:], (-1, {}, "", None)):
        if found in ("reasoning", "function_call") or (
                found == "message" and item.get("role") == "assistant"):
            reasoned = reasoned or found == "reasoning"
            if found == "function_call" and first_call is None:
                first_call = index
            continue
        if first_call is not None and not reasoned:
            yield Finding(f"input[{first_call}]", {"index": first_call})
        first_call, reasoned = None, False


def reasoning_input_unsupported(body: Mapping[str, Any], rule: Rule,
                                model: str | None) -> Iterator[Finding]:
    """Each reasoning item in the input, for a model the rule names (one that does not
    reason); nothing where the model is not known."""
    if model is None or not rule.applies_to(model, when_unknown=False):
        return
    for i, _, found, _ in items(body):
        if found == "reasoning":
            yield Finding(f"input[{i}]", {"index": i})


def reasoning_not_stored(body: Mapping[str, Any], rule: Rule,
                         model: str | None) -> Iterator[Finding]:
    """A reasoning item referenced by id alone (no encrypted_content) while `store` is
    false: the vendor looks the id up, finds nothing, and answers 404."""
    if body.get("store") is not False:
        return
    for i, item, found, _ in items(body):
        item_id = item.get("id")
        if found == "reasoning" and isinstance(item_id, str) \
                and not item.get("encrypted_content"):
            yield Finding(f"input[{i}].encrypted_content", {"index": i, "id": item_id})


def missing_tool_result(body: Mapping[str, Any], rule: Rule,
                        model: str | None) -> Iterator[Finding]:
    """`missing-tool-result`: a function_call with no function_call_output after it. With
    params.adjacent, also one whose output comes only after a message item: a vendor that
    turns the items into chat messages ends the call turn at the first message."""
    rows = items(body)
    last_output: dict[str, int] = {}  # call id -> position of its last result (one walk,
    for k, (_, _, found, call_id) in enumerate(rows):  # not a scan of the rest per call)
        if call_id is not None and found == "function_call_output":
            last_output[call_id] = k
    cut_off = _cut_off_calls(rows) if rule.params.get("adjacent") else frozenset()
    for k, (i, _, found, call_id) in enumerate(rows):
        if found != "function_call" or call_id is None:
            continue
        if last_output.get(call_id, -1) <= k or k in cut_off:
            yield Finding(f"input[{i}].call_id", {"index": i, "call_id": call_id})


def _cut_off_calls(rows: Rows) -> frozenset[int]:
    """Positions of the function_calls still unanswered when a message item comes: their
    outputs, if any, come after it. Other items (reasoning, hosted calls) end nothing."""
    pending: dict[str, int] = {}
    cut: set[int] = set()
    for k, (_, _, found, call_id) in enumerate(rows):
        if found == "function_call" and call_id is not None:
            pending[call_id] = k
        elif found == "function_call_output" and call_id is not None:
            pending.pop(call_id, None)
        elif found == "message" and pending:
            cut.update(pending.values())
            pending.clear()
    return frozenset(cut)


def orphan_tool_result(body: Mapping[str, Any], rule: Rule,
                       model: str | None) -> Iterator[Finding]:
    """`orphan-tool-result`: a tool result whose call is not in the turn right before it."""
    if body.get("previous_response_id") or body.get("conversation"):
        return  # the calls may live in the stored response; not checkable offline
    called: set[str] = set()
    for i, item, found, call_id in items(body):
        if call_id is None:
            continue
        if found == "function_call" or output_answers(item) is not None:
            called.add(call_id)
        elif found == "function_call_output" and call_id not in called:
            yield Finding(f"input[{i}].call_id", {"index": i, "call_id": call_id})


DETECTORS: dict[str, Detector] = {
    "moved-request-field": request_fields.moved_request_field,
    "instructions-with-previous-response": request_fields.instructions_with_previous_response,
    "assistant-content-type": assistant_content_type,
    "content-part-type-unknown": content_part_type_unknown,
    "content-type-unsupported": content_type_unsupported,
    "image-data-empty": image_data_empty,
    "image-format-unsupported": image_format_unsupported,
    "unknown-message-field": unknown_message_field,
    "duplicate-tool-call-id": duplicate_tool_call_id,
    "reasoning-item-orphan": reasoning_item_orphan,
    "reasoning-input-unsupported": reasoning_input_unsupported,
    "reasoning-content-required": reasoning_text_required,
    "thinking-signature-missing": reasoning_not_stored,
    "missing-tool-result": missing_tool_result,
    "orphan-tool-result": orphan_tool_result,
    "reasoning-item-id-invalid": by_id.reasoning_item_id_invalid,
    "call-item-id-invalid": by_id.call_item_id_invalid,
    "tool-call-id-too-long": by_id.call_id_too_long,
    "item-id-too-long": by_id.item_id_too_long,
    "item-field-null": by_id.item_field_null,
    "strict-tool-schema": by_id.strict_tool_schema,
    "strict-response-schema": strict_schema.responses_strict_response_schema,
    **tool_parameters.RESPONSES_DETECTORS,
    "response-format-json-word": json_mode.responses_json_word,
    "text-too-long": long_texts.responses_text_too_long,
    "tool-arguments-too-long": long_texts.responses_arguments_too_long,
    "reasoning-effort-unsupported": reasoning_effort.responses_effort,
    "max-tokens-too-small": output_limit.too_small("openai_responses"),
    "sampling-parameter-fixed": sampling.fixed_sampling,
    "sampling-parameter-unsupported": sampling.unsupported_sampling,
    "tool-choice-without-tools": tool_choice.without_tools,
    "reasoning-effort-value-unsupported": reasoning_effort.responses_effort_level,
    "verbosity-value-unsupported": reasoning_effort.responses_verbosity,
}
