"""The vocabulary of rule ids: one stable kebab-case id per defect, shared by every
protocol and provider that rejects it (each in its own words, kept in its profile).

Passes look rules up by these ids (`profile.enforces("missing-tool-result")`), so an id
means the same defect everywhere. A profile may only use ids listed here; adding a new
kind of defect means adding it here first, with one line saying what it forbids.
"""

from __future__ import annotations

RULE_IDS: dict[str, str] = {
    # pairing and ordering of calls and results
    "orphan-tool-result": "a tool result whose call is not in the turn right before it",
    "missing-tool-result": "a tool call not answered before the next non-result message "
                           "(includes a message wedged between calls and results)",
    "tool-result-id-mismatch": "a tool result right after a call turn whose id is none of "
                               "that turn's call ids",
    "tool-results-out-of-order": "results of parallel calls in another order than the calls",
    "duplicate-tool-call-id": "two tool calls with the same id",
    "duplicate-tool-result": "two results for the same call id",
    "tool-result-count-mismatch": "not as many results as calls in a call turn",
    "tool-call-id-missing": "a tool call or result with no id where the protocol needs one",
    "tool-call-id-too-long": "a tool call id longer than params.max_length",
    "tool-call-id-pattern": "a tool call id that does not match params.pattern",
    # tools
    "empty-tools": "a `tools` list with no declaration in it",
    "tool-name-invalid": "a tool name (declared or called) not matching params.pattern / "
                         "params.max_length",
    "tool-name-too-long": "a tool name (declared or called) longer than params.max_length",
    "duplicate-tool-name": "two tool declarations with the same name",
    "tools-not-declared": "tool calls or results in the history but no `tools` in the request",
    "tool-choice-without-tools": "`tool_choice` set with no `tools`",
    "parallel-tool-calls-without-tools": "`parallel_tool_calls` set with no `tools`",
    "tool-choice-unknown-tool": "a `tool_choice` that forces a tool the request does not "
                                "declare",
    "tool-schema-unsupported": "a tool parameter schema with keywords the vendor rejects",
    "tool-arguments-not-object": "a tool call whose arguments are not a JSON object (e.g. the "
                                 "raw text of a cut or invalid streamed call)",
    "unknown-tool-field": "a field in a tool declaration the vendor does not know",
    # content and roles
    "empty-content": "a message (or turn) with no content",
    "empty-text-block": "a text block/part whose text is empty",
    "role-alternation": "two consecutive messages of the same role where alternation is required",
    "first-message-role": "a first (non-system) message of a role the vendor does not accept",
    "last-message-role": "a last message of a role the vendor does not accept",
    "role-order": "a role the vendor does not accept right after the previous role",
    "system-message-placement": "a system message where the protocol has no place for it",
    "unknown-message-field": "a message field the vendor does not know (params.allowed)",
    "unknown-request-field": "a top-level request field the vendor does not know (params.known "
                             "lists the ones it does)",
    "moved-request-field": "a top-level request field the API takes under another name or inside "
                           "another object (params.moved: field -> new path)",
    "stop-sequence-invalid": "a stop sequence the vendor does not take (params.refuse: empty, "
                             "whitespace only)",
    "message-name-invalid": "a message's `name` (the participant's name) not matching "
                            "params.pattern",
    "unknown-block-field": "a field of a content block the vendor does not know for the "
                           "block's type (params.allowed)",
    "empty-tool-calls": "an assistant message with an empty `tool_calls` list",
    "too-many-tool-calls": "an assistant message with more tool calls than params.max_items",
    "assistant-content-type": "an assistant item with a content type only user items may have",
    # Gemini turn structure
    "call-turn-placement": "a function-call turn not right after a user or function-response turn",
    "function-response-count": "function-response parts not equal in number to the call parts "
                               "of the call turn, in one turn right after it",
    "thought-signature-missing": "a function call without a thought signature (Gemini 3)",
    "thought-signature-invalid": "a thought signature the vendor cannot verify",
    # thinking / reasoning
    "thinking-block-required": "thinking on: the final assistant turn does not start with thinking",
    "thinking-when-disabled": "thinking off: thinking blocks in the final assistant turn",
    "thinking-signature-invalid": "a thinking block whose signature this vendor did not issue",
    "thinking-signature-missing": "a thinking block without its signature",
    "reasoning-content-required": "thinking mode: reasoning must be passed back with tool calls",
    "reasoning-input-unsupported": "reasoning input sent to a model that does not take it",
    "reasoning-item-orphan": "a reasoning item not followed by the item it belongs to",
    "reasoning-item-id-invalid": "a reasoning item whose id the vendor did not issue (not rs_…)",
    "item-id-too-long": "a Responses input item whose id is longer than params.max_length "
                        "(another vendor's Responses ids)",
    "call-item-id-invalid": "a Responses function_call item whose item id the vendor did not "
                            "issue (not fc_…: a call id or a gateway's id in its place)",
    # families found in the evidence (evidence/README.md)
    "strict-tool-schema": "a strict function whose schema has an object without "
                          "additionalProperties false, or a property missing from required",
    "schema-required-without-properties": "a tool's parameters schema with a required list, "
                                          "empty or not, and no properties (none, or an "
                                          "empty object) at its root",
    "strict-tools-mixed": "functions whose strict flags differ: some strict true, others "
                          "false or not stated",
    "response-format-type-unsupported": "a response format type the vendor does not take "
                                        "(DeepSeek's Chat API: json_schema)",
    "response-schema-unsupported": "a JSON Schema keyword in a response schema that the vendor's "
                                   "schema type has no field for (Gemini's responseSchema)",
    "output-schema-open-object": "an output schema (Anthropic structured outputs) with an "
                                 "object whose additionalProperties is not false",
    "strict-response-schema": "a strict response format (json_schema) whose schema has an "
                              "object without additionalProperties false, or a property "
                              "missing from required",
    "function-response-name-empty": "a function response (Gemini functionResponse) with an "
                                    "empty name",
    "server-tool-use-as-client": "a server tool call id (Anthropic srvtoolu_) replayed in a "
                                 "client tool_use block",
    "server-tool-result-orphan": "a server tool result block (Anthropic `*_tool_result`) "
                                 "without its server_tool_use block before it in the message",
    "whitespace-text-block": "a message whose only content is whitespace text",
    "content-with-tool-calls": "an assistant message with both text content and tool calls",
    "tool-arguments-empty": "a tool call whose arguments string is empty",
    "unknown-tool-call-field": "a field inside a tool call object the vendor does not know",
    "assistant-content-not-string": "content given as a list of parts where the vendor takes "
                                    "a string only (params.roles)",
    "response-format-with-tools": "a JSON response type requested together with function "
                                  "calling",
    "cached-content-with-prompt-fields": "a named cache (Gemini's `cachedContent`) together "
                                         "with a system instruction, tools or a tool config, "
                                         "which belong in the cache",
    "conversation-empty": "a request with no message besides the system instruction",
    "user-message-missing": "a request none of whose messages is from the user (a system "
                            "prompt alone, or an assistant turn and tool results only)",
    "image-data-empty": "an inline image with no data (a data URL with nothing after its "
                        "comma)",
    "image-media-type-mismatch": "an inline image whose bytes are of another type than "
                                 "its declared media type",
    "document-data-invalid": "an inline PDF document whose data is not a PDF (no %PDF- "
                             "header at its start, or no %%EOF at its end)",
    "image-data-not-base64": "an inline image whose data is not base64 text (an https URL, a "
                             "file path, or a whole data URL where its bare base64 goes)",
    "image-format-unsupported": "an inline image whose bytes are not of an image format the "
                                "vendor takes (params.images): the bytes decide, not the "
                                "declared type",
    "request-too-large": "a request body longer than the vendor takes (params.max_bytes), "
                         "which a history's images and documents reach",
    "too-many-media": "more images and documents in one request than the vendor takes "
                      "(params.max_items)",
    "image-too-large": "an inline image whose base64 data is longer than the vendor takes "
                       "(params.max_bytes characters)",
    "image-dimensions-too-large": "an inline image wider or taller than the vendor takes "
                                  "(params.max_pixels)",
    "many-image-dimensions-too-large": "in a request holding many images (more than "
                                       "params.max_items), an inline image wider or taller "
                                       "than params.max_pixels",
    "prefill-trailing-whitespace": "a final assistant message (a prefill) whose text ends "
                                   "with whitespace",
    "hosted-tool-with-functions": "a built-in (hosted) tool declared beside function "
                                  "declarations, which the model refuses, or takes only "
                                  "with a flag set",
    "reasoning-item-not-found": "a reasoning item referenced by an id the vendor did not store",
    "instructions-with-previous-response": "`instructions` beside `previous_response_id` in "
                                           "one Responses request",
    "item-field-null": "an input item field sent as null that the vendor takes only with a "
                       "value or left out (params.fields: item type -> field names)",
    "reasoning-item-missing": "an item sent by its id without the reasoning item the vendor "
                              "stored it after (known to the vendor, not from the body)",
    "thinking-param-conflict": "thinking parameters in a form or combination the vendor refuses",
    "reasoning-effort-unsupported": "a reasoning effort or thinking setting sent to a model "
                                    "that does not reason",
    "reasoning-effort-value-unsupported": "a reasoning effort level the model does not take "
                                          "(params.supported)",
    "reasoning-effort-with-tools": "function tools with a reasoning effort other than none "
                                   "(sent, or the model's own, params.default) where the "
                                   "endpoint takes the pair on another API only",
    "sampling-parameter-with-thinking": "a sampling parameter (params.fields) sent while "
                                        "thinking is on, which the model takes only without",
    "verbosity-value-unsupported": "a verbosity level the model does not take "
                                   "(params.supported: the models before GPT-5 take medium only)",
    "prompt-mode-unsupported": "Mistral's prompt_mode 'reasoning' sent to a model that "
                               "reasons through reasoning_effort instead",
    "thinking-budget-too-small": "an enabled thinking budget below params.minimum tokens",
    "thinking-budget-exceeds-max-tokens": "an enabled thinking budget not below `max_tokens`",
    "thinking-budget-and-level": "a thinking budget and a thinking level in one request",
    "thinking-level-unsupported": "a thinking level sent to a model that takes a thinking "
                                  "budget only (Gemini 2.5)",
    "thinking-off-unsupported": "thinking switched off where the model cannot stop thinking "
                                "(Gemini: a budget of 0; Anthropic: at an effort level of "
                                "params.levels)",
    "thinking-budget-out-of-range": "a thinking budget outside the range the model takes "
                                    "(params.minimum to params.maximum)",
    "thinking-budget-unsupported": "thinking with a token budget (Anthropic's type enabled) "
                                   "for a model that takes adaptive thinking only",
    "thinking-adaptive-unsupported": "adaptive thinking (Anthropic's type adaptive) for a model "
                                     "that takes thinking with a token budget only",
    "effort-unsupported": "an effort setting (Anthropic's output_config.effort) sent to a "
                          "model that takes none, though it may think",
    "tool-choice-with-thinking": "a `tool_choice` that forces a tool call (params.forces: "
                                 "required, named) while thinking is on",
    # request parameters and content kinds (named by observations in evidence/)
    "tool-description-too-long": "a tool description longer than params.max_length",
    "tool-name-reserved": "a tool named with a name the vendor keeps for its own tools "
                          "(params.names)",
    "text-too-long": "a text in the history (a message's text, a tool result's output) "
                     "longer than params.max_length characters",
    "tool-arguments-too-long": "a tool call's arguments string longer than params.max_length "
                               "characters",
    "array-schema-missing-items": "an array schema without `items` in a tool's parameters",
    "enum-type-not-string": "an enum of strings in a tool's parameters on a schema whose type "
                            "is another than string",
    "enum-empty-value": "an empty string among the enum values of a tool's parameters",
    "tool-parameters-not-object": "a tool's parameters schema whose root is not typed "
                                  "object (no type, or another one)",
    "object-schema-missing-properties": "a tool's parameters schema that is an object "
                                        "without `properties` at its root",
    "tool-parameters-top-level-union": "a tool's parameters schema with one of "
                                       "params.keywords (anyOf, oneOf, ...) at its root",
    "schema-type-beside-anyof": "a subschema of a tool's parameters with `type` beside "
                                "`anyOf` (the target wants it in the branches)",
    "schema-required-not-in-properties": "a name in a tool schema's `required` that the "
                                         "same schema's `properties` do not declare",
    "schema-type-beside-ref": "a subschema of a tool's parameters with `type` beside "
                              "`$ref` (the target wants it in the referenced schema)",
    "schema-ref-outside-defs": "a `$ref` in a tool's parameters that points anywhere but "
                               "the schema's root `$defs` (`#/properties/a`, `#/definitions/A`)",
    "schema-enum-without-type": "a subschema of a tool's parameters below the root with "
                                "`enum` and no `type`",
    "schema-property-not-object": "a property of a tool schema whose own schema is not an "
                                  "object (`true`, `false`, a bare type name)",
    "schema-items-not-object": "an array schema in a tool's parameters whose `items` is not "
                               "one schema (a tuple's list, a boolean)",
    "tool-property-key-invalid": "a property name under a tool's parameters schema's "
                                 "top-level properties that the vendor's pattern refuses",
    "schema-keyword-invalid": "a keyword of a tool's parameters schema whose value JSON Schema "
                              "draft 2020-12's meta-schema refuses (a draft 4 boolean "
                              "exclusiveMinimum, a type name outside the seven)",
    "sampling-parameter-fixed": "a sampling parameter (temperature, top_p) sent with another "
                                "value than the one the model takes",
    "sampling-parameter-unsupported": "a sampling parameter (params.fields) sent to a model "
                                      "that takes none",
    "request-parameter-unsupported": "a request parameter other than a sampling one "
                                     "(params.fields: `parallel_tool_calls`) sent to a model "
                                     "that does not take it",
    "sampling-parameter-out-of-range": "a sampling parameter outside the range the model takes "
                                       "(params.ranges: field -> least and most)",
    "sampling-parameters-exclusive": "more than one of the sampling parameters params.fields "
                                     "(temperature, top_p) sent to a model that takes one",
    "max-tokens-field-unsupported": "the output limit sent in a field (params.field, "
                                    "`max_tokens`) the model no longer takes, where it takes "
                                    "another (params.use, `max_completion_tokens`)",
    "max-completion-tokens-unsupported": "the output limit sent in OpenAI's newer field "
                                         "(params.field, `max_completion_tokens`) to an "
                                         "endpoint that takes only another (params.use, "
                                         "`max_tokens`)",
    "max-tokens-too-large": "an output limit above the most the model writes "
                            "(params.maximum)",
    "max-tokens-too-small": "an output limit below the least the endpoint takes "
                            "(params.minimum)",
    "cache-ttl-order": "a one-hour cache mark after a five-minute one, in the order the "
                       "vendor reads the prompt",
    "cache-control-in-tool-result": "a `cache_control` on a block inside a tool result's "
                                    "content, where the API takes it on the tool result's "
                                    "own block only",
    "too-many-cache-breakpoints": "more blocks carrying `cache_control` in one request than "
                                  "params.max_items (tools, system and message blocks "
                                  "together)",
    "too-many-tools": "a request declaring more tools than params.max_items (Gemini: more "
                      "function declarations in one `tools` entry)",
    "response-format-json-word": "JSON mode without the word 'json' in the messages",
    "content-type-unsupported": "a content part of a kind (audio, file, image) the model or "
                                "that message role does not take",
    "content-part-type-missing": "a content part without its `type`",
    "media-role-unsupported": "a media part (image, document, ...) in a message whose role may "
                              "not carry one (params.roles: the roles that may)",
    "content-part-type-unknown": "a content part of a type the vendor's API does not have "
                                 "(params.allowed)",
    "file-part-nested": "a `file` content part in OpenAI's nested shape ({type: file, "
                        "file: {...}}) where the vendor takes inline documents as "
                        "document_url",
    "file-data-not-data-url": "a `file` part whose file_data is not a base64 data URL (a "
                              "web address, which other vendors take there)",
    "role-unsupported-by-model": "a role (system, developer) the model does not accept",
}
