"""Detectors for the Gemini generateContent wire (`contents`, `tools`, `systemInstruction`).

A *call turn* is a `model` content holding functionCall parts; a *function-response turn*
is a `user` content holding functionResponse parts. The model a request is for travels in
the URL, so Gemini-3-only rules read the `model` argument. Detectors skip what they cannot
read rather than fail: the emulator runs them on hostile input.

Field names are read in both spellings the REST API accepts (camelCase as the SDK sends,
snake_case as the proto names them). The detectors share one reading of the contents
(normalizer/checks/gemini_walk.py); those of the declared tools and the function-calling
config are in normalizer/checks/gemini_tools.py.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from normalizer.check import Detector, Finding
from normalizer.checks import (
    gemini_parts,
    gemini_tools,
    reasoning_effort,
    request_fields,
    sampling,
    thinking_budget,
)
from normalizer.checks.gemini_walk import (
    Contents,
    call_parts,
    contents,
    get,
    inline_parts,
    parts,
    placed_parts,
)
from normalizer.gemini_keywords import unsupported_keywords
from normalizer.image_bytes import not_base64
from normalizer.profiles import Rule


def system_message_placement(body: Mapping[str, Any], rule: Rule,
                             model: str | None) -> Iterator[Finding]:
    """A content whose role is neither of params.roles (a system message rendered into
    `contents` instead of `systemInstruction`)."""
    allowed = tuple(rule.params.get("roles", ("user", "model")))
    found = contents(body)
    for i, content in zip(found.index, found.items, strict=True):
        role = content.get("role")
        if isinstance(role, str) and role not in allowed:
            yield Finding(f"contents[{i}].role", {"role": role})


def empty_content(body: Mapping[str, Any], rule: Rule, model: str | None) -> Iterator[Finding]:
    """`empty-content`: a message (or turn) with no content."""
    found = contents(body)
    for i, content in zip(found.index, found.items, strict=True):
        held = content.get("parts")
        if not isinstance(held, list) or not held:
            yield Finding(f"contents[{i}].parts", {"index": i})


def unknown_message_field(body: Mapping[str, Any], rule: Rule,
                          model: str | None) -> Iterator[Finding]:
    """A content field in none of params.allowed's lists (a content takes `role` and
    `parts`): one finding per field."""
    known = {f for fields in (rule.params.get("allowed") or {}).values() for f in fields}
    found = contents(body)
    for i, content in zip(found.index, found.items, strict=True):
        for field in content:
            if field not in known:
                yield Finding(f"contents[{i}].{field}", {"field": field, "at": f"contents[{i}]"})


# The part fields holding a call and a function response (both spellings), and the name
# of each in params.allowed and in the vendor's error path (its proto field name).
_NESTED = {"functionCall": "function_call", "function_call": "function_call",
           "functionResponse": "function_response", "function_response": "function_response"}


def unknown_block_field(body: Mapping[str, Any], rule: Rule,
                        model: str | None) -> Iterator[Finding]:
    """A part field not in params.allowed["part"] (the Part message's fields, in either
    spelling the API reads), or a field of a part's functionCall / functionResponse not in
    params.allowed["function_call"] / ["function_response"] (where the profile lists them):
    one finding per field, at the path the vendor prints (`…parts[0].function_call`)."""
    allowed = rule.params.get("allowed") or {}
    known = set(allowed.get("part", ()))
    inner = {name: set(allowed[name]) for name in set(_NESTED.values()) if name in allowed}
    for at, part in placed_parts(body):
        for field, value in part.items():
            if field not in known:
                yield Finding(f"{at}.{field}", {"field": field, "at": at})
                continue
            name = _NESTED.get(field)
            if name in inner and isinstance(value, Mapping):
                for key in value:
                    if key not in inner[name]:
                        yield Finding(f"{at}.{field}.{key}",
                                      {"field": key, "at": f"{at}.{name}"})


def content_type_unsupported(body: Mapping[str, Any], rule: Rule,
                             model: str | None) -> Iterator[Finding]:
    """An inline image (inlineData with an image/* MIME type) of a type not in
    params.images: Gemini takes PNG, JPEG, WebP, HEIC and HEIF, not GIF, and not the
    non-standard image/jpg some clients write."""
    images = set(rule.params.get("images") or ())
    if not images:
        return
    for at, inline in inline_parts(body):
        mime = get(inline, "mimeType", "mime_type")
        if isinstance(mime, str) and mime.startswith("image/") and mime not in images:
            yield Finding(f"{at}.inline_data.mime_type", {"mime": mime})


def image_data_not_base64(body: Mapping[str, Any], rule: Rule,
                          model: str | None) -> Iterator[Finding]:
    """`image-data-not-base64`: an inlineData whose data is not base64 text (Google's JSON
    parser decodes the bytes field before anything else is read)."""
    for at, inline in inline_parts(body):
        data = inline.get("data")
        if isinstance(data, str) and not_base64(data):
            field = f"{at}.inline_data.data"
            yield Finding(field, {"field": field, "value": data})


def response_schema_unsupported(body: Mapping[str, Any], rule: Rule,
                                model: str | None) -> Iterator[Finding]:
    """`response-schema-unsupported`: a `responseSchema` (the OpenAPI subset, as a tool's
    `parameters`) with keywords the vendor rejects; `responseJsonSchema` takes JSON Schema."""
    banned = frozenset(str(k) for k in rule.params.get("unsupported", ()))
    config = body.get("generationConfig", body.get("generation_config")) \
        if isinstance(body, Mapping) else None
    schema = config.get("responseSchema", config.get("response_schema")) \
        if isinstance(config, Mapping) else None
    for keyword, field in unsupported_keywords(schema, "generation_config.response_schema", banned):
        yield Finding(field, {"name": keyword, "field": field})


def call_turn_placement(body: Mapping[str, Any], rule: Rule,
                        model: str | None) -> Iterator[Finding]:
    """`call-turn-placement`: a function-call turn not right after a user or function-response
    turn; with params.consecutive_call_turns also allowed right after a call turn (Gemini 3)."""
    found = contents(body)
    chained = bool(rule.params.get("consecutive_call_turns"))
    for k, i in enumerate(found.index):
        if not found.calls[k] or (k and found.roles[k - 1] == "user"):
            continue
        if not (chained and k and found.calls[k - 1]):
            yield Finding(f"contents[{i}]", {"index": i})


def function_response_count(body: Mapping[str, Any], rule: Rule,
                            model: str | None) -> Iterator[Finding]:
    """`function-response-count`: function-response parts not equal in number to the call parts of
    the call turn, in one turn right after it; with params.consecutive_call_turns, to the calls of
    the whole run of consecutive call turns before it (Gemini 3)."""
    found = contents(body)
    chained = bool(rule.params.get("consecutive_call_turns"))
    over_turns = bool(rule.params.get("responses_over_turns"))
    if over_turns and not _for_model(rule, model):
        return  # the looser count is observed for its models only; unknown: the strict copy
    run = 0  # calls in the run of consecutive call turns ending here
    for k in range(len(found.index) - 1):
        calls = found.calls[k]
        run = (run if chained else 0) + calls if calls else 0
        answers = found.responses[k + 1]
        if calls and over_turns:  # responses split over turns holding nothing else (2.5 Flash)
            answers = sum(found.responses[p] for p in _response_run(found, k + 1))
        if calls and answers and answers != run:
            j = found.index[k + 1]
            yield Finding(f"contents[{j}]", {"index": j, "calls": run, "responses": answers})


def _only_responses(found: Contents, k: int) -> bool:
    return bool(found.responses[k]) and found.responses[k] == found.parts[k]


def _response_run(found: Contents, start: int) -> range:
    """The positions from `start` on that hold function responses only (at least the first,
    when it holds any response)."""
    end = start + 1
    while end < len(found.index) and _only_responses(found, end - 1) \
            and _only_responses(found, end):
        end += 1
    return range(start, min(end, len(found.index)))


def orphan_tool_result(body: Mapping[str, Any], rule: Rule,
                       model: str | None) -> Iterator[Finding]:
    """`orphan-tool-result`: a tool result whose call is not in the turn right before it; with
    params.responses_over_turns, a turn of responses only may also follow such a turn that is
    itself answered home (responses split over several user turns, Gemini 2.5 Flash)."""
    found = contents(body)
    over_turns = bool(rule.params.get("responses_over_turns"))
    if over_turns and not _for_model(rule, model):
        return  # as in function_response_count: an unknown model gets the strict copy
    home = False  # the content before this one is an answered turn of responses only
    for k, i in enumerate(found.index):
        only = _only_responses(found, k)
        answered = (k > 0 and bool(found.calls[k - 1])) or (over_turns and home and only)
        if found.responses[k] and not answered:
            yield Finding(f"contents[{i}]", {"index": i})
        home = answered and only


def _current_turn(body: Mapping[str, Any]) -> range:
    """From the last user content that is not only function responses: the turn the
    vendor validates signatures in (older turns are not validated), as positions in
    `contents(body)`."""
    found = contents(body)
    start = 0
    for k, role in enumerate(found.roles):
        if role == "user" and found.responses[k] != found.parts[k]:
            start = k
    return range(start, len(found.index))


def _for_model(rule: Rule, model: str | None) -> bool:
    return rule.applies_to(model, when_unknown=False)


def thought_signature_missing(body: Mapping[str, Any], rule: Rule,
                              model: str | None) -> Iterator[Finding]:
    """`thought-signature-missing`: a function call without a thought signature (Gemini 3)."""
    if not _for_model(rule, model):
        return
    found = contents(body)
    for k in _current_turn(body):
        i, content = found.index[k], found.items[k]
        calls = call_parts(content) if found.calls[k] else []
        if not calls:
            continue
        first = calls[0]  # parallel calls: only the first part of a step carries it
        signature = get(first, "thoughtSignature", "thought_signature")
        if not (isinstance(signature, str) and signature):
            call = get(first, "functionCall", "function_call")
            name = call.get("name") if isinstance(call.get("name"), str) else ""
            j = parts(content).index(first)
            yield Finding(f"contents[{i}].parts[{j}].thoughtSignature",
                          {"index": i, "name": name, "position": i + 1})


def tool_arguments_not_object(body: Mapping[str, Any], rule: Rule,
                              model: str | None) -> Iterator[Finding]:
    """A functionCall whose `args` is not an object (proto Struct): e.g. raw argument text."""
    found = contents(body)
    for i, content in zip(found.index, found.items, strict=True):
        for j, part in enumerate(parts(content)):
            call = get(part, "functionCall", "function_call")
            if isinstance(call, Mapping) and "args" in call and not isinstance(call["args"],
                                                                                 Mapping):
                yield Finding(f"contents[{i}].parts[{j}].functionCall.args",
                              {"index": i, "part": j})


DETECTORS: dict[str, Detector] = {
    "tool-choice-without-tools": gemini_tools.calling_config_without_declarations,
    "system-message-placement": system_message_placement,
    "sampling-parameter-fixed": sampling.fixed_sampling,
    "unknown-request-field": request_fields.unknown_request_field,
    "tool-schema-unsupported": gemini_tools.tool_schema_unsupported,
    "response-schema-unsupported": response_schema_unsupported,
    "tool-name-invalid": gemini_tools.tool_name_invalid,
    "duplicate-tool-name": gemini_tools.duplicate_tool_name,
    "too-many-tools": gemini_tools.too_many_tools,
    "array-schema-missing-items": gemini_tools.array_schema_missing_items,
    "enum-empty-value": gemini_tools.enum_empty_value,
    "enum-type-not-string": gemini_tools.enum_type_not_string,
    "unknown-message-field": unknown_message_field,
    "unknown-block-field": unknown_block_field,
    "tool-arguments-not-object": tool_arguments_not_object,
    "empty-content": empty_content,
    "call-turn-placement": call_turn_placement,
    "function-response-count": function_response_count,
    "orphan-tool-result": orphan_tool_result,
    "thought-signature-missing": thought_signature_missing,
    "function-response-name-empty": gemini_parts.function_response_name_empty,
    "response-format-with-tools": gemini_parts.response_format_with_tools,
    "cached-content-with-prompt-fields": gemini_parts.cached_content_with_prompt_fields,
    "hosted-tool-with-functions": gemini_parts.hosted_tool_with_functions,
    "conversation-empty": gemini_parts.conversation_empty,
    "role-unsupported-by-model": gemini_parts.system_instruction_unsupported,
    "content-type-unsupported": content_type_unsupported,
    "image-data-not-base64": image_data_not_base64,
    "thinking-budget-and-level": thinking_budget.gemini_budget_and_level,
    "thinking-level-unsupported": thinking_budget.gemini_level_unsupported,
    "thinking-off-unsupported": thinking_budget.gemini_thinking_off,
    "thinking-budget-out-of-range": thinking_budget.gemini_budget_out_of_range,
    "reasoning-effort-unsupported": reasoning_effort.gemini_thinking,
    "reasoning-effort-value-unsupported": reasoning_effort.gemini_thinking_level,
}
