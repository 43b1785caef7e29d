"""Which passes `normalize` runs for a profile, and in what order: every pass with the rule
ids it fixes and the passes that must run before it (`STEPS`), and `schedule`, which walks
a profile's rules in the vendor's order (the rules in normalizer/normalize.py's docstring).
"""

from __future__ import annotations

from normalizer.option_steps import OPTION_STEPS
from normalizer.passes.arguments import parse_string_arguments
from normalizer.passes.block_fields import drop_unknown_block_fields
from normalizer.passes.cache_breakpoints import (
    drop_excess_cache_breakpoints,
    hoist_tool_result_cache_control,
    move_message_cache_marks,
    shorten_late_long_cache_ttls,
)
from normalizer.passes.cached_content import drop_fields_beside_cached_content
from normalizer.passes.call_fields import (
    drop_empty_tool_calls,
    drop_unknown_message_fields,
    drop_unknown_tool_call_fields,
    split_text_from_tool_calls,
)
from normalizer.passes.call_order import move_text_before_calls
from normalizer.passes.call_turns import split_large_call_turns
from normalizer.passes.content import drop_empty_text_blocks, fill_empty_content
from normalizer.passes.conversation_ends import end_with_allowed_role, open_with_user_message
from normalizer.passes.documents import replace_file_data_urls, send_documents_as_urls
from normalizer.passes.empty_images import replace_empty_images
from normalizer.passes.ids import assign_missing_call_ids, rewrite_tool_call_ids
from normalizer.passes.image_data import repair_image_data
from normalizer.passes.image_formats import replace_unsupported_images
from normalizer.passes.item_ids import drop_refused_item_ids
from normalizer.passes.joined_text import join_text_parts
from normalizer.passes.long_arguments import leave_out_long_arguments
from normalizer.passes.long_texts import shorten_long_texts
from normalizer.passes.media_count import leave_out_oldest_media
from normalizer.passes.media_roles import move_media_to_user_turn
from normalizer.passes.media_types import fix_image_media_types
from normalizer.passes.names import rewrite_tool_names
from normalizer.passes.null_fields import drop_null_item_fields
from normalizer.passes.options import (
    drop_unknown_tool_choice,
    move_response_schema_to_json_schema,
)
from normalizer.passes.ordering import move_results_next_to_calls, order_results_like_calls
from normalizer.passes.output_schema import close_output_schema_objects
from normalizer.passes.oversized_images import replace_oversized_images
from normalizer.passes.pairing import (
    ORPHAN_RULES,
    answer_unanswered_calls,
    dedupe_tool_call_ids,
    drop_orphan_tool_results,
)
from normalizer.passes.part_types import replace_unknown_part_types
from normalizer.passes.participant_names import sanitize_participant_names
from normalizer.passes.pdf_data import replace_invalid_pdfs
from normalizer.passes.prefill import trim_prefill_whitespace
from normalizer.passes.reasoning_content import fill_reasoning_content
from normalizer.passes.reasoning_items import drop_orphan_thinking
from normalizer.passes.replayed import (
    drop_invalid_item_ids,
    name_function_responses,
    server_calls_to_text,
)
from normalizer.passes.role_order import fix_role_order
from normalizer.passes.roles import merge_consecutive_roles, place_system_messages
from normalizer.passes.server_results import server_results_to_text
from normalizer.passes.signatures import add_placeholder_thought_signatures
from normalizer.passes.stored_conversation import drop_instructions_beside_previous_response
from normalizer.passes.strict_output import drop_strict_from_open_response_schema
from normalizer.passes.strict_tools import drop_mixed_strict_flags, drop_strict_from_open_schemas
from normalizer.passes.system_roles import system_as_user
from normalizer.passes.text_types import retype_assistant_texts
from normalizer.passes.thinking import drop_foreign_thinking, repair_thinking_turn
from normalizer.passes.tool_count import drop_tools_over_limit
from normalizer.passes.tool_descriptions import shorten_tool_descriptions
from normalizer.passes.tool_duplicates import drop_duplicate_tools
from normalizer.passes.tool_schemas import convert_tool_schemas
from normalizer.passes.tools_declared import (
    declare_missing_tools,
    drop_parallel_tool_calls_without_tools,
    drop_tool_choice_without_tools,
)
from normalizer.passes.untyped_parts import type_untyped_parts
from normalizer.profiles import Profile
from normalizer.schema_steps import SCHEMA_STEPS
from normalizer.step import Step

_PAIRING = ("missing-tool-result", "orphan-tool-result", "function-response-count",
            "tool-result-count-mismatch")
_CONTENT = ("fill_empty_content", "place_system_messages")
_IDS = ("dedupe_tool_call_ids", "assign_missing_call_ids")

STEPS: dict[str, Step] = {
    "send_documents_as_urls": Step(send_documents_as_urls, ("file-part-nested",), local=True),
    "replace_file_data_urls": Step(replace_file_data_urls, ("file-data-not-data-url",),
                                   local=True),
    "move_media_to_user_turn": Step(move_media_to_user_turn, ("media-role-unsupported",),
                                    local=True),
    # Harmless where a vendor takes a part without a type (its words, typed as text).
    "type_untyped_parts": Step(type_untyped_parts, ("content-part-type-missing",),
                               when_unknown=True, local=True),
    "replace_unknown_part_types": Step(replace_unknown_part_types,
                                       ("content-part-type-unknown", "content-type-unsupported"),
                                       ("type_untyped_parts",), local=True),
    "place_system_messages": Step(place_system_messages, ("system-message-placement",)),
    "system_as_user": Step(system_as_user, ("role-unsupported-by-model",),
                           ("place_system_messages",)),
    "drop_empty_text_blocks": Step(drop_empty_text_blocks,
                                   ("empty-text-block", "whitespace-text-block"), local=True),
    "fill_empty_content": Step(fill_empty_content,
                               ("empty-content", "empty-text-block", "whitespace-text-block"),
                               ("drop_empty_text_blocks", "place_system_messages",
                                "drop_empty_tool_calls", "replace_unknown_part_types"),
                               local=True),
    # Two calls sharing an id make their two results duplicates too: renaming the second call
    # and its result repairs both without dropping anything (OpenAI rejects the results).
    "dedupe_tool_call_ids": Step(dedupe_tool_call_ids,
                                 ("duplicate-tool-call-id", "duplicate-tool-result"),
                                 when_unknown=True),
    "assign_missing_call_ids": Step(assign_missing_call_ids, ("tool-call-id-missing",),
                                    ("dedupe_tool_call_ids",)),
    "rewrite_tool_call_ids": Step(rewrite_tool_call_ids,
                                  ("tool-call-id-too-long", "tool-call-id-pattern"), _IDS,
                                  local=True),
    "move_results_next_to_calls": Step(move_results_next_to_calls, _PAIRING,
                                       ("server_calls_to_text", "name_function_responses",
                                        *_CONTENT, *_IDS)),
    "drop_orphan_tool_results": Step(drop_orphan_tool_results, ORPHAN_RULES,
                                     ("move_results_next_to_calls", *_CONTENT, *_IDS)),
    "answer_unanswered_calls": Step(answer_unanswered_calls, (_PAIRING[0], *_PAIRING[2:]),
                                    ("move_results_next_to_calls", "drop_orphan_tool_results",
                                     *_CONTENT, *_IDS)),
    "order_results_like_calls": Step(order_results_like_calls, ("tool-results-out-of-order",),
                                     ("answer_unanswered_calls", "move_results_next_to_calls")),
    "merge_consecutive_roles": Step(merge_consecutive_roles,
                                    ("role-alternation", "function-response-count",
                                     "call-turn-placement"),
                                    ("answer_unanswered_calls", "drop_orphan_tool_results",
                                     "order_results_like_calls", "repair_thinking_turn",
                                     *_CONTENT)),
    "open_with_user_message": Step(open_with_user_message,
                                   ("first-message-role", "call-turn-placement",
                                    "conversation-empty", "user-message-missing"),
                                   ("merge_consecutive_roles", "drop_orphan_tool_results")),
    "fix_role_order": Step(fix_role_order, ("role-order",),
                           ("merge_consecutive_roles", "open_with_user_message",
                            "answer_unanswered_calls", "drop_orphan_tool_results")),
    "end_with_allowed_role": Step(end_with_allowed_role, ("last-message-role",),
                                  ("fix_role_order", "answer_unanswered_calls",
                                   "fill_empty_content")),
    "replace_empty_images": Step(replace_empty_images, ("image-data-empty",), local=True),
    "replace_invalid_pdfs": Step(replace_invalid_pdfs, ("document-data-invalid",),
                                 local=True),
    # Before the passes that read an image's bytes (its type, its size, its pixels).
    # A whole data URL is the same image for a target that reads the bytes' format too.
    "repair_image_data": Step(repair_image_data, ("image-data-not-base64",
                                                  "image-format-unsupported"), local=True),
    "replace_unsupported_images": Step(replace_unsupported_images,
                                       ("image-format-unsupported",), ("repair_image_data",),
                                       local=True),
    "fix_image_media_types": Step(fix_image_media_types, ("image-media-type-mismatch",),
                                  local=True),
    # Neither is local: both depend on how many images the whole request holds. The oldest
    # go first when there are too many, so that fewer are over the many-image limit.
    "leave_out_oldest_media": Step(leave_out_oldest_media,
                                   ("too-many-media", "request-too-large")),
    "replace_oversized_images": Step(replace_oversized_images,
                                     ("image-too-large", "many-image-dimensions-too-large",
                                      "image-dimensions-too-large"),
                                     ("leave_out_oldest_media",)),
    "trim_prefill_whitespace": Step(trim_prefill_whitespace, ("prefill-trailing-whitespace",),
                                    ("end_with_allowed_role", "drop_empty_text_blocks")),
    "drop_foreign_thinking": Step(drop_foreign_thinking,
                                  ("thinking-signature-invalid", "thinking-signature-missing",
                                   "thought-signature-missing", "reasoning-input-unsupported",
                                   "unknown-message-field"), local=True),
    "repair_thinking_turn": Step(repair_thinking_turn,
                                 ("thinking-block-required", "thinking-when-disabled"),
                                 ("drop_foreign_thinking", "answer_unanswered_calls",
                                  "drop_orphan_tool_results", "move_results_next_to_calls")),
    # After every pass that drops reasoning or makes, merges or empties a call turn. Not
    # local: DeepSeek's Responses copy reads only the turn after the last user message.
    "fill_reasoning_content": Step(fill_reasoning_content, ("reasoning-content-required",),
                                   ("drop_foreign_thinking", "answer_unanswered_calls",
                                    "merge_consecutive_roles", "end_with_allowed_role",
                                    "split_text_from_tool_calls")),
    "parse_string_arguments": Step(parse_string_arguments,
                                   ("tool-arguments-not-object", "tool-arguments-empty"),
                                   local=True),
    "drop_unknown_tool_call_fields": Step(drop_unknown_tool_call_fields,
                                          ("unknown-tool-call-field",), local=True),
    "move_message_cache_marks": Step(move_message_cache_marks, ("unknown-message-field",),
                                     local=True),
    "drop_unknown_message_fields": Step(drop_unknown_message_fields,
                                        ("unknown-message-field",),
                                        ("drop_foreign_thinking", "merge_consecutive_roles",
                                         "move_message_cache_marks"),
                                        local=True),
    "drop_empty_tool_calls": Step(drop_empty_tool_calls, ("empty-tool-calls",), local=True),
    # After every pass that makes, moves or answers calls and results: it splits whole blocks.
    "split_large_call_turns": Step(split_large_call_turns, ("too-many-tool-calls",),
                                   ("dedupe_tool_call_ids", "assign_missing_call_ids",
                                    "move_results_next_to_calls", "drop_orphan_tool_results",
                                    "answer_unanswered_calls", "order_results_like_calls",
                                    "merge_consecutive_roles", "end_with_allowed_role"),
                                   local=True),
    # After the passes that make or join assistant turns; reads missing-tool-result's
    # params.adjacent and does nothing without it.
    "move_text_before_calls": Step(move_text_before_calls, ("missing-tool-result",),
                                   ("merge_consecutive_roles", "split_large_call_turns",
                                    "drop_foreign_thinking", "answer_unanswered_calls"),
                                   local=True),
    "split_text_from_tool_calls": Step(split_text_from_tool_calls, ("content-with-tool-calls",),
                                       ("drop_empty_text_blocks",), local=True),
    "hoist_tool_result_cache_control": Step(hoist_tool_result_cache_control,
                                            ("cache-control-in-tool-result",),
                                            ("move_message_cache_marks",), local=True),
    "drop_excess_cache_breakpoints": Step(drop_excess_cache_breakpoints,
                                          ("too-many-cache-breakpoints",),
                                          ("hoist_tool_result_cache_control",)),
    "shorten_late_long_cache_ttls": Step(shorten_late_long_cache_ttls, ("cache-ttl-order",),
                                         ("drop_excess_cache_breakpoints",)),
    "join_text_parts": Step(join_text_parts, ("assistant-content-not-string",),
                            ("place_system_messages", "merge_consecutive_roles"), local=True),
    "drop_invalid_item_ids": Step(drop_invalid_item_ids,
                                  ("reasoning-item-id-invalid", "call-item-id-invalid"),
                                  local=True),
    "drop_refused_item_ids": Step(drop_refused_item_ids, ("duplicate-tool-call-id",
                                                          "item-id-too-long"),
                                  ("drop_orphan_thinking", "merge_consecutive_roles")),
    "retype_assistant_texts": Step(retype_assistant_texts, ("assistant-content-type",),
                                   local=True),
    "drop_orphan_thinking": Step(drop_orphan_thinking, ("reasoning-item-orphan",),
                                 ("drop_foreign_thinking", "repair_thinking_turn",
                                  "answer_unanswered_calls", "drop_orphan_tool_results",
                                  "move_results_next_to_calls", "merge_consecutive_roles",
                                  *_CONTENT)),
    "name_function_responses": Step(name_function_responses,
                                    ("function-response-name-empty",)),
    "server_calls_to_text": Step(server_calls_to_text, ("server-tool-use-as-client",),
                                 local=True),
    "server_results_to_text": Step(server_results_to_text, ("server-tool-result-orphan",),
                                   local=True),
    "drop_unknown_block_fields": Step(drop_unknown_block_fields, ("unknown-block-field",),
                                      local=True),
    "rewrite_tool_names": Step(rewrite_tool_names, ("tool-name-invalid", "tool-name-too-long",
                                                    "tool-name-reserved"),
                               ("name_function_responses",), local=True),
    "convert_tool_schemas": Step(convert_tool_schemas, ("tool-schema-unsupported",
                                                        "enum-type-not-string"),
                                 ("rewrite_tool_names",)),
    "drop_strict_from_open_schemas": Step(drop_strict_from_open_schemas,
                                          ("strict-tool-schema",)),
    # After the passes that drop a flag or declare a tool: what they leave may be mixed.
    "drop_mixed_strict_flags": Step(drop_mixed_strict_flags, ("strict-tools-mixed",),
                                    ("drop_strict_from_open_schemas", "declare_missing_tools")),
    "drop_strict_from_open_response_schema": Step(drop_strict_from_open_response_schema,
                                                  ("strict-response-schema",)),
    "close_output_schema_objects": Step(close_output_schema_objects,
                                        ("output-schema-open-object",)),
    "move_response_schema_to_json_schema": Step(move_response_schema_to_json_schema,
                                                ("response-schema-unsupported",)),
    "shorten_tool_descriptions": Step(shorten_tool_descriptions,
                                      ("tool-description-too-long",)),
    # After the passes that join or make texts: the joined text is the one sent.
    "shorten_long_texts": Step(shorten_long_texts, ("text-too-long",),
                               ("join_text_parts", "merge_consecutive_roles"), local=True),
    "leave_out_long_arguments": Step(leave_out_long_arguments, ("tool-arguments-too-long",),
                                     local=True),
    "drop_duplicate_tools": Step(drop_duplicate_tools, ("duplicate-tool-name",),
                                 ("rewrite_tool_names",)),
    "declare_missing_tools": Step(declare_missing_tools, ("tools-not-declared",),
                                  ("rewrite_tool_names", "answer_unanswered_calls")),
    # The repairs of a tool's parameters schema (normalizer/schema_steps.py).
    **SCHEMA_STEPS,
    "drop_tools_over_limit": Step(drop_tools_over_limit, ("too-many-tools",),
                                  ("rewrite_tool_names", "drop_duplicate_tools",
                                   "declare_missing_tools")),
    "drop_tool_choice_without_tools": Step(drop_tool_choice_without_tools,
                                           ("tool-choice-without-tools",),
                                           ("declare_missing_tools",)),
    "drop_parallel_tool_calls_without_tools": Step(drop_parallel_tool_calls_without_tools,
                                                   ("parallel-tool-calls-without-tools",),
                                                   ("declare_missing_tools",)),
    "drop_unknown_tool_choice": Step(drop_unknown_tool_choice, ("tool-choice-unknown-tool",),
                                     ("rewrite_tool_names", "declare_missing_tools")),
    "sanitize_participant_names": Step(sanitize_participant_names,
                                       ("message-name-invalid",), local=True),
    "add_placeholder_thought_signatures": Step(
        add_placeholder_thought_signatures,
        ("thought-signature-missing", "thought-signature-invalid"),
        ("merge_consecutive_roles", "open_with_user_message", "assign_missing_call_ids"),
        local=True),
    # The system instruction is the one system message at the start once they are placed;
    # tools declared for the history are declared before they can be left to the cache.
    "drop_fields_beside_cached_content": Step(drop_fields_beside_cached_content,
                                              ("cached-content-with-prompt-fields",),
                                              ("place_system_messages",
                                               "declare_missing_tools")),
    "drop_null_item_fields": Step(drop_null_item_fields, ("item-field-null",), local=True),
    "drop_instructions_beside_previous_response": Step(
        drop_instructions_beside_previous_response, ("instructions-with-previous-response",)),
    # The request's options after the history's steps (normalizer/option_steps.py).
    **OPTION_STEPS,
}


def schedule(profile: Profile) -> tuple[str, ...]:
    """The names of the passes to run for `profile`, in order (see the module docstring)."""
    enabled = {name for name, step in STEPS.items()
               if any(profile.enforces(rule) for rule in step.fixes)}
    unknown = {name for name, step in STEPS.items() if step.when_unknown
               and all(profile.rule(rule) is None for rule in step.fixes)}
    enabled |= unknown
    order: list[str] = []

    def visit(name: str) -> None:
        if name in order:
            return
        for dep in STEPS[name].after:
            if dep in enabled:
                visit(dep)
        order.append(name)

    for name in sorted(unknown):  # no place in the vendor's order: first
        visit(name)
    for rule in profile.rules:
        if rule.enforced:
            for name, step in STEPS.items():
                if rule.id in step.fixes:
                    visit(name)
    return tuple(order)
