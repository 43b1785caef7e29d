"""Detectors for the OpenAI Chat Completions protocol (OpenAI and the vendors that copy
its wire: Mistral, Groq, DeepSeek, xAI, Cerebras, Fireworks, Together, OpenRouter, Ollama,
vLLM). Vendor differences live in each profile's params, never here."""

from __future__ import annotations

from normalizer.check import Detector
from normalizer.checks import (
    json_mode,
    output_limit,
    reasoning_effort,
    request_fields,
    sampling,
    strict_schema,
    thinking_params,
    tool_choice,
    tool_parameters,
)
from normalizer.checks import openai_chat_fields as fields
from normalizer.checks import openai_chat_ids as ids
from normalizer.checks import openai_chat_messages as messages
from normalizer.checks import openai_chat_pairing as pairing

DETECTORS: dict[str, Detector] = {
    "reasoning-effort-unsupported": reasoning_effort.chat_effort,
    "reasoning-effort-value-unsupported": reasoning_effort.chat_effort_level,
    "prompt-mode-unsupported": reasoning_effort.chat_prompt_mode,
    "orphan-tool-result": pairing.orphan_tool_result,
    "missing-tool-result": pairing.missing_tool_result,
    "tool-result-id-mismatch": pairing.tool_result_id_mismatch,
    "tool-results-out-of-order": pairing.tool_results_out_of_order,
    "duplicate-tool-call-id": pairing.duplicate_tool_call_id,
    "duplicate-tool-result": pairing.duplicate_tool_result,
    "tool-result-count-mismatch": pairing.tool_result_count_mismatch,
    "tool-call-id-missing": ids.tool_call_id_missing,
    "tool-call-id-too-long": ids.tool_call_id_too_long,
    "tool-call-id-pattern": ids.tool_call_id_pattern,
    "tool-name-invalid": ids.tool_name_invalid,
    "tool-name-too-long": ids.tool_name_too_long,
    "tool-choice-without-tools": messages.tool_choice_without_tools,
    "empty-tools": messages.empty_tools,
    "tool-choice-unknown-tool": tool_choice.chat_unknown_tool,
    "tool-choice-with-thinking": tool_choice.forced_with_thinking,
    "sampling-parameter-fixed": sampling.fixed_sampling,
    "sampling-parameter-unsupported": sampling.unsupported_sampling,
    "max-tokens-field-unsupported": output_limit.old_limit_field,
    "max-completion-tokens-unsupported": output_limit.old_limit_field,
    "max-tokens-too-large": output_limit.too_large("openai_chat"),
    "thinking-param-conflict": thinking_params.thinking_conflicts,
    "unknown-tool-field": messages.unknown_tool_field,
    "tool-description-too-long": messages.tool_description_too_long,
    "too-many-tools": messages.too_many_tools,
    "array-schema-missing-items": messages.array_schema_missing_items,
    **tool_parameters.CHAT_DETECTORS,
    "empty-content": messages.empty_content,
    "first-message-role": messages.first_message_role,
    "last-message-role": messages.last_message_role,
    "role-order": messages.role_order,
    "unknown-message-field": messages.unknown_message_field,
    "unknown-request-field": request_fields.unknown_request_field,
    "message-name-invalid": messages.message_name_invalid,
    "empty-tool-calls": messages.empty_tool_calls,
    "too-many-tool-calls": messages.too_many_tool_calls,
    "reasoning-content-required": messages.reasoning_content_required,
    "strict-tool-schema": fields.strict_tool_schema,
    "strict-response-schema": strict_schema.chat_strict_response_schema,
    "content-with-tool-calls": fields.content_with_tool_calls,
    "tool-arguments-empty": fields.tool_arguments_empty,
    "tool-arguments-not-object": fields.tool_arguments_not_object,
    "unknown-tool-call-field": fields.unknown_tool_call_field,
    "assistant-content-not-string": fields.content_not_string,
    "file-part-nested": fields.file_part_nested,
    "content-part-type-unknown": fields.content_part_type_unknown,
    "content-type-unsupported": fields.content_type_unsupported,
    "media-role-unsupported": fields.media_role_unsupported,
    "system-message-placement": messages.system_message_placement,
    "response-format-json-word": json_mode.chat_json_word,
    "response-format-type-unsupported": json_mode.chat_format_type,
}
