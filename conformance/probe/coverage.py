"""Which rule × protocol pairs the probe cannot measure, and why.

Every rule id of the vocabulary (normalizer/rules.py) and every protocol is one of three:
- a probe case in conformance/probe/cases/<protocol>.yaml (measured);
- NOT_APPLICABLE: the protocol's wire has no place for the defect (the reason says why);
- GAPS: the defect can happen on that wire, but normalizer/checks/<protocol>.py has no
  detector for it yet, so no profile can enforce it and no emulator can serve it. A rule
  with a detector always has a probe case (tests/test_probe_coverage.py asserts all this).
"""

from __future__ import annotations

from normalizer.rules import RULE_IDS
from normalizer.wire import PROTOCOLS

_NO_TURNS = ("Gemini turn structure: the other protocols have no call turns, function-"
             "response turns or thought signatures")
_THINKING = ("Anthropic-style thinking blocks with signatures: OpenAI Chat carries reasoning "
             "as a message field (reasoning-content-required), Responses as reasoning items "
             "(reasoning-item-orphan), Gemini as thought parts with thought signatures")
_GEMINI_IDS = ("Gemini function calls and responses need no id (they pair by name and "
               "position): pairing is function-response-count and call-turn-placement")
_CHAT_FIELD = ("DeepSeek's reasoning_content, a Chat message field (a reasoning item on its "
               "Responses endpoint): Anthropic and Gemini carry reasoning as signed blocks")
_RESPONSES_ITEM = "reasoning items are a Responses API item type"

NOT_APPLICABLE: dict[tuple[str, str], str] = {
    **{(rule, p): "the output limit has one field on this wire (max_output_tokens, "
       "max_tokens, maxOutputTokens): only Chat Completions has two"
       for rule in ("max-tokens-field-unsupported", "max-completion-tokens-unsupported")
       for p in ("openai_responses", "anthropic", "gemini")},
    **{("message-name-invalid", p): "only Chat Completions messages carry a participant "
       "`name`" for p in ("openai_responses", "anthropic", "gemini")},
    **{("parallel-tool-calls-without-tools", p): "the switch for parallel calls is inside "
       "tool_choice (disable_parallel_tool_use), which tool-choice-without-tools covers, or "
       "absent (Gemini)" for p in ("anthropic", "gemini")},
    **{(rule, protocol): _NO_TURNS
       for rule in ("call-turn-placement", "function-response-count",
                    "thought-signature-missing", "thought-signature-invalid")
       for protocol in ("openai_chat", "openai_responses", "anthropic")},
    **{(rule, protocol): _THINKING
       for rule in ("thinking-block-required", "thinking-when-disabled",
                    "thinking-signature-invalid")
       for protocol in ("openai_chat", "openai_responses", "gemini")},
    ("thinking-signature-missing", "openai_chat"): _THINKING,
    ("thinking-signature-missing", "gemini"): _THINKING,
    **{(rule, "gemini"): _GEMINI_IDS
       for rule in ("tool-call-id-missing", "tool-call-id-too-long", "tool-call-id-pattern",
                    "duplicate-tool-call-id", "tool-result-id-mismatch",
                    "missing-tool-result", "duplicate-tool-result",
                    "tool-result-count-mismatch", "tool-results-out-of-order")},
    **{("reasoning-content-required", p): _CHAT_FIELD
       for p in ("anthropic", "gemini")},
    **{("reasoning-item-orphan", p): _RESPONSES_ITEM
       for p in ("openai_chat", "anthropic", "gemini")},
    **{("response-schema-unsupported", p): "the response schema is JSON Schema on this wire; "
       "Gemini's responseSchema is its own Schema type (responseJsonSchema takes JSON Schema)"
       for p in ("openai_chat", "openai_responses", "anthropic")},
    **{("response-format-type-unsupported", p): "the output format has one type where it "
       "takes a schema (Anthropic's json_schema) or is a MIME type (Gemini)"
       for p in ("anthropic", "gemini")},
    **{("output-schema-open-object", p): "OpenAI asks for closed objects only in strict "
       "mode (strict-response-schema); Gemini's responseJsonSchema takes open ones"
       for p in ("openai_chat", "openai_responses", "gemini")},
    **{(rule, "openai_responses"): "Responses takes a reasoning effort level, not a token "
       "budget" for rule in ("thinking-budget-too-small", "thinking-budget-exceeds-max-tokens")},
    **{("thinking-budget-and-level", p): "only Gemini's thinkingConfig takes a budget and a "
       "level as alternatives; OpenAI's wires take a level, Anthropic's enabled thinking a "
       "budget (normalizer/thinking_options.py)"
       for p in ("openai_chat", "openai_responses", "anthropic")},
    **{("thinking-level-unsupported", p): "only Gemini's thinkingConfig offers a level and "
       "a budget, each model taking one or both; OpenAI's wires take a level only, Anthropic's "
       "enabled thinking a budget (reasoning-effort-value-unsupported, "
       "thinking-budget-unsupported)" for p in ("openai_chat", "openai_responses", "anthropic")},
    **{("thinking-budget-out-of-range", p): "Gemini's budget ranges are per model; OpenAI's "
       "wires take a level, and Anthropic's bounds are thinking-budget-too-small and "
       "thinking-budget-exceeds-max-tokens" for p in ("openai_chat", "openai_responses",
                                                      "anthropic")},
    **{("thinking-budget-unsupported", p): "only Anthropic's thinking has a budget type and an "
       "adaptive type; OpenAI's wires take a level, Gemini's budgets are "
       "thinking-budget-out-of-range" for p in ("openai_chat", "openai_responses", "gemini")},
    **{("thinking-adaptive-unsupported", p): "only Anthropic's thinking has an adaptive type "
       "and a budget type; OpenAI's wires take a level, Gemini's a budget or a level "
       "(thinking-budget-and-level)" for p in ("openai_chat", "openai_responses", "gemini")},
    **{("effort-unsupported", p): "an effort on these wires is the thinking setting itself: a "
       "model that takes none is reasoning-effort-unsupported; only Anthropic's effort is "
       "separate from its thinking switch" for p in ("openai_chat", "openai_responses",
                                                    "gemini")},
    **{("strict-response-schema", p): "the output format has no strict flag on this wire: "
       "Anthropic's output_config.format and Gemini's responseJsonSchema always constrain "
       "the reply (normalizer/output_format.py)" for p in ("anthropic", "gemini")},
    ("strict-tools-mixed", "gemini"): "Gemini's function declarations have no strict flag "
        "(drop_strict_without_form removes any a request states)",
    **{("reasoning-effort-with-tools", p): "a Chat Completions limit: the vendor's words send "
       "tools with an effort to /v1/responses, which takes both; Anthropic's and Gemini's "
       "thinking go with tools" for p in ("openai_responses", "anthropic", "gemini")},
    **{("file-data-not-data-url", p): "a document's web address has its own field on this "
       "wire (Anthropic's url source, Gemini's fileData.fileUri)" for p in ("anthropic", "gemini")},
    **{("verbosity-value-unsupported", p): "no verbosity on this wire (only OpenAI's take one)"
       for p in ("anthropic", "gemini")},
    ("tool-result-id-mismatch", "openai_responses"):
        "Responses pairs outputs with calls by call_id, not by the turn before: an unknown "
        "call_id is orphan-tool-result",
    ("tool-result-id-mismatch", "anthropic"):
        "a tool_result whose id is none of the previous turn's tool_use ids is what "
        "orphan-tool-result checks on this wire",
    ("role-alternation", "openai_responses"):
        "Responses input is a list of items, not alternating turns",
    **{(rule, p): _RESPONSES_ITEM for rule in ("reasoning-item-id-invalid",
                                               "reasoning-item-not-found",
                                               "reasoning-item-missing")
       for p in ("openai_chat", "anthropic", "gemini")},
    **{("prompt-mode-unsupported", p): "prompt_mode is Mistral's Chat Completions field (the "
       "Magistral models' reasoning switch); this wire switches reasoning with its own "
       "effort or thinking setting" for p in ("openai_responses", "anthropic", "gemini")},
    ("media-role-unsupported", "gemini"): "Gemini's image models answer with inlineData in "
        "the model's turn, and the API takes such turns back (the vocabulary's rule is for "
        "wires whose assistant turns carry no media)",
    **{("item-id-too-long", p): "input items with ids of their own are the Responses API's; "
       "the other wires' ids are call ids (tool-call-id-too-long)"
       for p in ("openai_chat", "anthropic", "gemini")},
    **{("call-item-id-invalid", p): "a call's item id (fc_…) beside its call id is the "
       "Responses API's; the other wires give a call one id"
       for p in ("openai_chat", "anthropic", "gemini")},
    **{("function-response-name-empty", p): "only Gemini's functionResponse carries the "
       "tool's name; the other wires answer a call by its id"
       for p in ("openai_chat", "openai_responses", "anthropic")},
    **{("server-tool-use-as-client", p): "server tool ids (srvtoolu_) are Anthropic's; the "
       "other wires have no server tool blocks to replay as client calls"
       for p in ("openai_chat", "openai_responses", "gemini")},
    **{("server-tool-result-orphan", p): "server tool result blocks are Anthropic's; the "
       "other wires carry hosted tool activity as items or parts with no such pairing"
       for p in ("openai_chat", "openai_responses", "gemini")},
    **{("content-with-tool-calls", p): "text and calls are blocks, parts or items of one "
       "list on this wire, not a content field beside a tool_calls field"
       for p in ("openai_responses", "anthropic", "gemini")},
    **{("file-part-nested", p): "the nested `file` part is the Chat Completions wire's; "
       "the other wires carry documents in blocks or parts of their own"
       for p in ("openai_responses", "anthropic", "gemini")},
    **{("empty-tool-calls", p): "calls are items, blocks or parts of their own on this "
       "wire: there is no tool_calls list to send empty"
       for p in ("openai_responses", "anthropic", "gemini")},
    **{(rule, p): "prompt caching takes no breakpoints in the request on this wire (OpenAI "
       "caches prefixes by itself, with prompt_cache_key; Gemini caches through "
       "cachedContent)" for rule in ("too-many-cache-breakpoints",
                                     "cache-control-in-tool-result", "cache-ttl-order")
       for p in ("openai_responses", "gemini")},
    **{("cached-content-with-prompt-fields", p): "a cache named by reference is Gemini's "
       "(cachedContent); the other wires cache by breakpoints or by prefix, with the "
       "prompt in the request" for p in ("openai_chat", "openai_responses", "anthropic")},
    **{("hosted-tool-with-functions", p): "hosted tools and function tools are declared "
       "together on this wire, and no refusal of the pair is known (OpenAI's web_search "
       "beside functions, Anthropic's server tools beside custom tools)"
       for p in ("openai_chat", "openai_responses", "anthropic")},
    ("content-part-type-missing", "gemini"): "a Gemini part has no type field: it is known "
        "by the one data field it holds (text, inlineData, functionCall, ...)",
    ("too-many-tool-calls", "openai_responses"):
        "each call is an input item of its own: no message holds a list of them",
    **{("item-field-null", p): "input items with fields of their own types are the "
       "Responses API's; the other wires' messages and blocks have rules of their own for "
       "null content (empty-content)" for p in ("openai_chat", "anthropic", "gemini")},
    **{("instructions-with-previous-response", p): "a stored conversation continued by "
       "previous_response_id is the Responses API's; the other wires send the whole history"
       for p in ("openai_chat", "anthropic", "gemini")},
    ("system-message-placement", "openai_responses"):
        "Responses takes system and developer items anywhere in the input, and "
        "`instructions` as a field",
}

GAP = "can happen on this wire; no detector in normalizer/checks yet"


def status(rule: str, protocol: str, has_case: bool) -> str:
    """"case", "n/a: <reason>" or "gap: <reason>" for one rule × protocol pair."""
    if has_case:
        return "case"
    if (rule, protocol) in NOT_APPLICABLE:
        return f"n/a: {NOT_APPLICABLE[rule, protocol]}"
    return f"gap: {GAP}"


def pairs() -> list[tuple[str, str]]:
    """Every rule × protocol pair, rules in RULE_IDS order."""
    return [(rule, protocol) for rule in RULE_IDS for protocol in PROTOCOLS]
